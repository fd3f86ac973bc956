/**
 * `navscope nightly` (`deno task nightly`): plan the example batteries → replay the baseline's
 * failed legs → stats → diff against the committed baseline (`examples/baseline/`) → the HTML
 * report with that diff's verdict. `--update-baseline` rewrites the baseline. Every run records
 * this machine's fingerprint (OUT/machine.json, `machine` in OUT/stats.json) so the diff judges
 * timings only against a baseline timed on the same machine (docs/gate.md).
 * @module
 */
import { profileFromFlags } from "../src/plan/profile.ts";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatPlanLine } from "../src/logs/plan_line.ts";
import { legRequest } from "../src/plan/battery.ts";
import { ReplayPool } from "../src/analyze/replay_pool.ts";
import { replayLogs, writeReplayDir } from "../src/analyze/replay_run.ts";
import { statsLogs } from "../src/analyze/run.ts";
import {
  describeMachine,
  MACHINE_FILE,
  machineFingerprint,
  writeMachineFile,
} from "../src/analyze/machine.ts";
import { NavscopeError } from "../src/errors.ts";
import { readTextStrict } from "../src/codec/json_strict.ts";
import { parseLegs } from "../src/legs/format.ts";
import { abCompare } from "../src/analyze/ab.ts";
import { NIGHTLY_THRESHOLDS } from "../src/analyze/diff.ts";
import { abMarkdown } from "./support/ab_text.ts";
import { diffPaths } from "./diff.ts";
import { io, parseFlags } from "./support/terminal.ts";
import { cwdRelative } from "./support/paths.ts";
import { jobsFlag } from "./replay.ts";
import {
  requireBatteryZones,
  requireLegs,
  requireWritable,
  unusablePack,
} from "./support/preflight.ts";

const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));

/** The example batteries, in order. */
export const DEFAULT_BATTERIES = ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"]
  .map((d) => join(EXAMPLES, d, "legs.json"));

/** The committed baseline. */
export const DEFAULT_BASELINE = join(EXAMPLES, "baseline");

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

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

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
  if (values.ab !== undefined) return await runAb(values);
  if (values.rounds !== undefined || values["ab-threshold"] !== undefined) {
    throw new NavscopeError(
      "usage",
      "nightly: --rounds and --ab-threshold go with --ab REF (see navscope nightly --help)",
    );
  }
  const profile = await profileFromFlags(values.profile, values["profile-file"]);
  const jobs = jobsFlag(values.jobs, "nightly");
  // Found here, shown relative to the working directory (support/paths.ts).
  const baseline = values.baseline ?? cwdRelative(DEFAULT_BASELINE);
  const out = values.out ?? "nightly-out";
  const batteries = values.battery ?? DEFAULT_BATTERIES.map(cwdRelative);
  const update = values["update-baseline"] === true;
  const say = (s: string) => io.err.write(`navscope nightly: ${s}\n`);
  await requireWritable([{ path: out, what: "the nightly output (--out)", dir: true }]);
  await Deno.mkdir(out, { recursive: true });

  // 1. plan the batteries.
  const t0 = performance.now();
  const packs: string[] = [];
  const tasks = [];
  const legs: Array<{ leg: ReturnType<typeof parseLegs>[number]; battery: string }> = [];
  for (const b of batteries) {
    let text: string;
    try {
      text = await readTextStrict(b);
    } catch (e) {
      if (e instanceof NavscopeError) throw e;
      throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
        file: b,
      });
    }
    const pack = join(dirname(b), "base.nav.gz");
    if (!packs.includes(pack)) packs.push(pack);
    const parsed = parseLegs(text, b);
    requireLegs(parsed, b);
    for (const leg of parsed) {
      legs.push({ leg, battery: b });
      const request = legRequest(leg);
      tasks.push({
        pack: packs.indexOf(pack),
        request: profile ? { ...request, profile } : request,
      });
    }
  }
  const pool = await ReplayPool.open(packs.map((path) => ({ path })), jobs);
  let planned;
  try {
    // Before planning: every pack loads and has the zones its battery names.
    for (const b of batteries) {
      const i = packs.indexOf(join(dirname(b), "base.nav.gz"));
      const info = pool.packs[i];
      if (info.error) {
        throw new NavscopeError("bad_value", unusablePack(info.error, packs[i]), {
          file: packs[i],
        });
      }
      requireBatteryZones(
        legs.filter((l) => l.battery === b).map((l) => l.leg),
        info.zones,
        b,
        packs[i],
      );
    }
    planned = await pool.run(tasks);
  } finally {
    pool.close();
  }
  const lines: string[] = [];
  let matched = 0;
  planned.records.forEach((r, i) => {
    if (!r) {
      throw new NavscopeError("io", `planning ${legs[i].leg.id} failed: ${planned.errors[i]}`);
    }
    // As plan --check judges a battery leg: the planner's code (src/analyze/battery.ts).
    if ((r.ok ? "ok" : r.code) === legs[i].leg.expected) matched++;
    lines.push(
      formatPlanLine({ ...r, leg: legs[i].leg.id }, {
        time: 0,
        srcFile: basename(dirname(legs[i].battery)),
        func: "nightly",
      }),
    );
  });
  const plansLog = join(out, "plans.log");
  await Deno.writeTextFile(plansLog, lines.map((l) => l + "\n").join(""));
  const machine = machineFingerprint();
  await writeMachineFile(join(out, MACHINE_FILE), machine);
  say(
    `1/4 planned ${lines.length} legs of ${batteries.length} batteries in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s (${matched} as expected) on ${describeMachine(machine)} → ${plansLog}`,
  );

  // 2. replay the baseline's failed legs (this run's, when there is no baseline yet).
  const basePlans = join(baseline, "plans.log");
  const haveBase = await exists(basePlans);
  const allLegs = [];
  for (const b of batteries) allLegs.push(...parseLegs(await readTextStrict(b), b));
  const rep = await replayLogs([haveBase ? basePlans : plansLog], {
    packs: packs.map((path) => ({ path })),
    jobs,
    batteries: allLegs,
    ...(profile ? { profile } : {}),
  });
  await writeReplayDir(join(out, "replay"), rep);
  const c = rep.report.counts;
  say(
    `2/4 replayed ${rep.report.done} failed legs of ${
      haveBase ? basePlans : plansLog
    }: ${c.fixed} fixed, ${c.still_failing} still failing, ${c.failing_differently} failing differently, ${c.not_replayable} not replayable → ${
      join(out, "replay")
    }`,
  );

  // 3. stats.
  const { report: stats } = await statsLogs([plansLog]);
  const statsPath = join(out, "stats.json");
  await Deno.writeTextFile(statsPath, JSON.stringify({ ...stats, machine }, null, 2) + "\n");
  say(`3/4 stats of ${stats.plans} successful plans → ${statsPath}`);

  if (update) {
    await Deno.mkdir(baseline, { recursive: true });
    await Deno.copyFile(plansLog, basePlans);
    await Deno.copyFile(statsPath, join(baseline, "stats.json"));
    await Deno.copyFile(join(out, MACHINE_FILE), join(baseline, MACHINE_FILE));
    const th = join(baseline, "thresholds.json");
    if (!(await exists(th))) {
      await Deno.writeTextFile(th, JSON.stringify(NIGHTLY_THRESHOLDS, null, 2) + "\n");
    }
    say(
      `baseline updated: ${basePlans}, ${join(baseline, "stats.json")}, ${
        join(baseline, MACHINE_FILE)
      }`,
    );
  } else if (!haveBase) {
    throw new NavscopeError(
      "io",
      `no baseline at ${basePlans} (run navscope nightly --update-baseline once)`,
    );
  }

  // 4. diff.
  const th = join(baseline, "thresholds.json");
  const { report, markdown } = await diffPaths(
    basePlans,
    plansLog,
    (await exists(th)) ? th : undefined,
  );
  await Deno.writeTextFile(join(out, "diff.md"), markdown);
  await Deno.writeTextFile(join(out, "diff.json"), JSON.stringify(report, null, 2) + "\n");
  say(`4/5 diff: ${report.verdict} → ${join(out, "diff.md")}, ${join(out, "diff.json")}`);
  if (!report.machines.timing_gated) say(report.machines.note);

  // 5. report: this diff on the page, so the report's verdict is the gate's.
  const { nightlyReport } = await import("./report.ts");
  const page = await nightlyReport(
    [plansLog],
    join(out, "report.html"),
    report,
    basePlans,
    packs,
    allLegs,
  );
  say(`5/5 report → ${page}`);
  if (values.history !== undefined) {
    // The run joins the history (src/analyze/history.ts) whatever the verdict: a failing night
    // is exactly what the history must remember.
    const { addRunToHistory } = await import("./history.ts");
    const id = await addRunToHistory(values.history, [out], {
      gitDir: fileURLToPath(new URL("../", import.meta.url)),
    });
    say(`history: run ${id} → ${values.history}`);
  }
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
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

/** `nightly --ab REF`: the A/B timing comparison (src/analyze/ab.ts); exit 3 when slower. */
async function runAb(values: {
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
  const out = values.out ?? "nightly-out";
  const say = (s: string) => io.err.write(`navscope nightly --ab: ${s}\n`);
  const t0 = performance.now();
  const report = await abCompare({
    ref: values.ab!,
    batteries: values.battery ?? DEFAULT_BATTERIES.map(cwdRelative),
    rounds,
    threshold: pct / 100,
    onProgress: say,
  });
  await Deno.mkdir(out, { recursive: true });
  const md = abMarkdown(report);
  await Deno.writeTextFile(join(out, "ab.md"), md);
  await Deno.writeTextFile(join(out, "ab.json"), JSON.stringify(report, null, 2) + "\n");
  say(
    `${report.verdict} in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${
      join(out, "ab.md")
    }, ${join(out, "ab.json")}`,
  );
  io.out.write(md);
  return report.verdict === "pass" ? 0 : 3;
}
