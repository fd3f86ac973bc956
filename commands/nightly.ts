/**
 * `navscope nightly` (`deno task nightly`): plan the example batteries → replay the baseline's
 * failed legs → stats → diff against the committed baseline (`examples/baseline/`) → report
 * (skipped: the HTML report does not exist yet). `--update-baseline` rewrites the baseline.
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
import { NavscopeError } from "../src/errors.ts";
import { parseLegs } from "../src/world/legs.ts";
import { diffPaths } from "./diff.ts";
import { io, parseFlags } from "./support/terminal.ts";
import { jobsFlag } from "./replay.ts";

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

The nightly regression gate, in steps:
  1. plan every leg of the batteries (default: the five examples/*/legs.json, each on the
     base.nav.gz beside it) → OUT/plans.log (plan lines, timestamp 1970-01-01 00:00:00)
  2. replay the baseline's failed legs on the same packs → OUT/replay/ (what got fixed)
  3. stats of OUT/plans.log → OUT/stats.json
  4. diff BASELINE/plans.log OUT/plans.log --thresholds BASELINE/thresholds.json
     → OUT/diff.md (printed) and OUT/diff.json
  5. report: skipped (the HTML report does not exist yet)

  --baseline DIR      default examples/baseline (plans.log, stats.json, thresholds.json)
  --out DIR           default nightly-out
  --battery FILE      a battery instead of the examples (repeatable)
  --jobs N            parallel planners (default: cores)
  --update-baseline   after step 3, copy OUT/plans.log and OUT/stats.json into the baseline
                      (thresholds.json is kept; written with the defaults when missing)
  --profile NAME      planner profile of steps 1–2 (default spec; docs/profiles.md); the diff
                      refuses a baseline planned under another profile
  --profile-file F    a custom profile (JSON: base + switch overrides)

Exit status: 0 pass; 1 bad input or no baseline (run with --update-baseline once); 3 regression.`;

/** Committed nightly thresholds: outcomes strict, timings loose (shared machines are noisy). */
export const NIGHTLY_THRESHOLDS = {
  format: "navscope-thresholds",
  version: 1,
  comment: "nightly gate: outcomes strict; timings loose (shared CI machines are noisy)",
  metrics: {
    failure_rate: { max_increase_abs: 0 },
    failures: { max_increase_abs: 0 },
    "failures.*": { max_increase_abs: 0 },
    failing_legs: { max_increase_abs: 0 },
    new_failing_legs: { max_increase_abs: 0 },
    escalated_share: { max_increase_abs: 0 },
    "tier_share.*": { max_increase_abs: 0 },
    "timing.*.p50": { max_increase_pct: 300, noise_floor: 50, min_samples: 5 },
    "timing.*.p90": { max_increase_pct: 400, noise_floor: 200, min_samples: 10 },
    "timing.*.max": { max_increase_pct: 600, noise_floor: 1000, min_samples: 10 },
  },
};

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
    profile: { type: "string" },
    "profile-file": { type: "string" },
  });
  const profile = await profileFromFlags(values.profile, values["profile-file"]);
  const jobs = jobsFlag(values.jobs, "nightly");
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const out = values.out ?? "nightly-out";
  const batteries = values.battery ?? DEFAULT_BATTERIES;
  const update = values["update-baseline"] === true;
  const say = (s: string) => io.err.write(`navscope nightly: ${s}\n`);
  await Deno.mkdir(out, { recursive: true });

  // 1. plan the batteries.
  const t0 = performance.now();
  const packs: string[] = [];
  const tasks = [];
  const legs: Array<{ leg: ReturnType<typeof parseLegs>[number]; battery: string }> = [];
  for (const b of batteries) {
    let text: string;
    try {
      text = await Deno.readTextFile(b);
    } catch (e) {
      throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
        file: b,
      });
    }
    const pack = join(dirname(b), "base.nav.gz");
    if (!packs.includes(pack)) packs.push(pack);
    for (const leg of parseLegs(text, b)) {
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
  say(
    `1/5 planned ${lines.length} legs of ${batteries.length} batteries in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s (${matched} as expected) → ${plansLog}`,
  );

  // 2. replay the baseline's failed legs (this run's, when there is no baseline yet).
  const basePlans = join(baseline, "plans.log");
  const haveBase = await exists(basePlans);
  const allLegs = [];
  for (const b of batteries) allLegs.push(...parseLegs(await Deno.readTextFile(b), b));
  const rep = await replayLogs([haveBase ? basePlans : plansLog], {
    packs: packs.map((path) => ({ path })),
    jobs,
    batteries: allLegs,
    ...(profile ? { profile } : {}),
  });
  await writeReplayDir(join(out, "replay"), rep);
  const c = rep.report.counts;
  say(
    `2/5 replayed ${rep.report.done} failed legs of ${
      haveBase ? basePlans : plansLog
    }: ${c.fixed} fixed, ${c.still_failing} still failing, ${c.failing_differently} failing differently, ${c.not_replayable} not replayable → ${
      join(out, "replay")
    }`,
  );

  // 3. stats.
  const { report: stats } = await statsLogs([plansLog]);
  const statsPath = join(out, "stats.json");
  await Deno.writeTextFile(statsPath, JSON.stringify(stats, null, 2) + "\n");
  say(`3/5 stats of ${stats.plans} successful plans → ${statsPath}`);

  if (update) {
    await Deno.mkdir(baseline, { recursive: true });
    await Deno.copyFile(plansLog, basePlans);
    await Deno.copyFile(statsPath, join(baseline, "stats.json"));
    const th = join(baseline, "thresholds.json");
    if (!(await exists(th))) {
      await Deno.writeTextFile(th, JSON.stringify(NIGHTLY_THRESHOLDS, null, 2) + "\n");
    }
    say(`baseline updated: ${basePlans}, ${join(baseline, "stats.json")}`);
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

  // 5. report.
  say("5/5 report: skipped (the HTML report does not exist yet)");
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
}
