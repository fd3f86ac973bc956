/**
 * `navscope nightly` (`deno task nightly`): plan the example batteries → replay the baseline's
 * failed legs → stats → diff against the committed baseline (`examples/baseline/`) → the HTML
 * report with that diff's verdict. `--update-baseline` rewrites the baseline. Every run records
 * this machine's fingerprint (OUT/machine.json, `machine` in OUT/stats.json) so the diff judges
 * timings only against a baseline timed on the same machine (docs/gate.md).
 * @module
 */
import { profileFromFlags } from "../src/plan/profile.ts";
import { NavscopeError } from "../src/errors.ts";
import { runAb } from "../src/jobs/ab.ts";
import { runNightly } from "../src/jobs/nightly.ts";
import { DEFAULT_BASELINE, DEFAULT_BATTERIES } from "../src/jobs/examples.ts";
import { io, jobPrinter, parseFlags } from "./support/terminal.ts";
import { cwdRelative } from "../src/util/shown_paths.ts";
import { jobsFlag } from "./support/flags.ts";
import { requireWritable } from "./support/preflight.ts";

/** One line for the command list. */
export const summary = "Nightly gate: plan batteries → replay → stats → diff vs baseline";

/** Usage text. */
export const help =
  `navscope nightly [--baseline DIR] [--out DIR] [--battery LEGS.json …] [--jobs N]
                 [--update-baseline] [--profile NAME | --profile-file FILE]
navscope nightly --ab REF [--rounds N] [--ab-threshold PCT] [--battery LEGS.json …] [--out DIR]

The nightly regression gate, in steps:
  1. plan every leg of the batteries (default: the five examples/*/legs.json, each on the
     base.nav.gz beside it) → OUT/plans.log (plan lines, timestamp 1970-01-01 00:00:00) and
     OUT/machine.json (this machine's fingerprint: CPU model, cores, OS, Deno/V8)
  2. replay the baseline's failed legs on the same packs → OUT/replay/ (what got fixed)
  3. stats of OUT/plans.log → OUT/stats.json (with the fingerprint as "machine")
  4. diff BASELINE/plans.log OUT/plans.log --thresholds BASELINE/thresholds.json
     → OUT/diff.md (printed) and OUT/diff.json. Outcomes and work counters are gated on
     any machine; timings only when BASELINE/machine.json names this machine (otherwise
     they are shown as "not comparable across machines": compare timings honestly with
     --ab REF, or re-baseline on this machine)
  5. report → OUT/report.html: the plans with this diff's verdict on the first screen and
     drill-downs of the failing legs (navscope report)

  --baseline DIR      default examples/baseline (plans.log, stats.json, thresholds.json)
  --out DIR           default nightly-out
  --battery FILE      a battery instead of the examples (repeatable)
  --jobs N            parallel planners (default: cores)
  --update-baseline   after step 3, copy OUT/plans.log, OUT/stats.json and OUT/machine.json
                      into the baseline (thresholds.json is kept; written with the defaults
                      when missing)
  --profile NAME      planner profile of steps 1–2 (default spec; docs/profiles.md); the diff
                      refuses a baseline planned under another profile
  --profile-file F    a custom profile (JSON: base + switch overrides)
  --history FILE      after step 5, add this run to the history store FILE (navscope history;
                      commit and branch from the git checkout of OUT)

The honest timing comparison (instead of steps 1-4): --ab REF checks out the planner at git
REF (a commit, branch, tag; HEAD = the last commit) in a temporary worktree. Each round starts
three planner processes side by side: REF, this checkout, REF again (the A/A calibration: this
machine's noise), warms them with a discarded pass, then plans every leg once on each, leg by
leg, the order rotating. Per leg each side's mean of its faster half of rounds; per
stage the median of the paired per-leg ratios with a 95 % bootstrap interval (legs and rounds
resampled, fixed seed) and the A/A spread. A stage is SLOWER when its whole
interval lies above 1 + threshold and above the A/A spread, and the median difference is
≥ 2 ms, ≥ 5 % of the total and beyond the A/A difference in ms; SAME when a change that
counts would have shown (A/A spread under the threshold or under the 2-ms floor); otherwise
"not measurable here" → OUT/ab.md (printed) and OUT/ab.json (docs/gate.md).
  --ab REF            compare against the planner at REF
  --rounds N          measured rounds, a multiple of 3 (default 6), after one warm-up; each plans
                      every leg on REF, this checkout and REF again
  --ab-threshold PCT  smallest slowdown that counts, percent (default 10)

Exit status: 0 pass; 1 bad input or no baseline (run with --update-baseline once), or an
unknown --ab REF; 2 usage; 3 regression (an outcome, a counter, a timing on the same machine,
or with --ab a significantly slower stage).`;

/** Runs nightly. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags("nightly", args, {
    baseline: { type: "string" },
    out: { type: "string" },
    battery: { type: "string", multiple: true },
    jobs: { type: "string" },
    "update-baseline": { type: "boolean" },
    ab: { type: "string" },
    rounds: { type: "string" },
    "ab-threshold": { type: "string" },
    profile: { type: "string" },
    "profile-file": { type: "string" },
    history: { type: "string" },
  });
  if (values.ab !== undefined) return await runAbFlags(values);
  if (values.rounds !== undefined || values["ab-threshold"] !== undefined) {
    throw new NavscopeError(
      "usage",
      "nightly: --rounds and --ab-threshold go with --ab REF (see navscope nightly --help)",
    );
  }
  const profile = await profileFromFlags(values.profile, values["profile-file"]);
  const jobs = jobsFlag(values.jobs, "nightly");
  const out = values.out ?? "nightly-out";
  await requireWritable([{ path: out, what: "the nightly output (--out)", dir: true }]);
  const r = await runNightly({
    // Found here, shown relative to the working directory (src/util/shown_paths.ts).
    baseline: values.baseline ?? cwdRelative(DEFAULT_BASELINE),
    out,
    batteries: values.battery ?? DEFAULT_BATTERIES.map(cwdRelative),
    jobs,
    profile,
    updateBaseline: values["update-baseline"] === true,
    history: values.history,
    onProgress: jobPrinter("nightly"),
  });
  io.out.write(r.markdown);
  return r.verdict === "pass" ? 0 : 3;
}

function numberFlag(v: string | undefined, name: string, min: number, int: boolean): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (int && !Number.isInteger(n))) {
    throw new NavscopeError(
      "usage",
      `nightly: ${name} needs ${int ? "an integer" : "a number"} ≥ ${min}, got ${
        JSON.stringify(v)
      } (see navscope nightly --help)`,
    );
  }
  return n;
}

/** `nightly --ab REF`: the A/B timing comparison (src/jobs/ab.ts); exit 3 when slower. */
async function runAbFlags(values: {
  ab?: string;
  out?: string;
  battery?: string[];
  rounds?: string;
  "ab-threshold"?: string;
  "update-baseline"?: boolean;
  baseline?: string;
}): Promise<number> {
  if (values["update-baseline"] || values.baseline !== undefined) {
    throw new NavscopeError(
      "usage",
      "nightly: --ab compares two versions here, not against a baseline: drop " +
        "--update-baseline/--baseline (see navscope nightly --help)",
    );
  }
  const rounds = numberFlag(values.rounds, "--rounds", 3, true) ?? 6;
  if (rounds % 3) {
    throw new NavscopeError(
      "usage",
      `nightly: --rounds needs a multiple of 3 (the run order rotates over three rounds), got ${rounds} (see navscope nightly --help)`,
    );
  }
  const pct = numberFlag(values["ab-threshold"], "--ab-threshold", 0, false) ?? 10;
  const { markdown, report } = await runAb({
    ref: values.ab!,
    batteries: values.battery ?? DEFAULT_BATTERIES.map(cwdRelative),
    rounds,
    threshold: pct / 100,
    out: values.out ?? "nightly-out",
    onProgress: jobPrinter("nightly", undefined, "navscope nightly --ab: "),
  });
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
}
