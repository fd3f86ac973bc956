/**
 * The nightly regression gate as a workflow (navscope nightly; docs/diff_and_nightly.md,
 * docs/gate.md): plan the batteries → replay the baseline's failed legs → stats → diff against
 * the baseline → the HTML report with that diff's verdict → (optionally) the history store.
 * Every run records this machine's fingerprint (OUT/machine.json, `machine` in OUT/stats.json)
 * so the diff judges timings only against a baseline timed on the same machine.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../errors.ts";
import { pathExists, writeFileAtomic } from "../codec/file.ts";
import type { Leg } from "../legs/format.ts";
import { readBatteries } from "../legs/read.ts";
import { legRequest } from "../plan/battery.ts";
import type { PlanProfile } from "../plan/profile.ts";
import { formatPlanLine } from "../logs/plan_line.ts";
import { ReplayPool } from "../analyze/replay_pool.ts";
import { replayLogs, type ReplayReport, writeReplayDir } from "../analyze/replay_run.ts";
import { statsLogs } from "../analyze/log_pipeline.ts";
import type { StatsReport } from "../analyze/stats.ts";
import { type DiffReport, NIGHTLY_THRESHOLDS } from "../analyze/diff.ts";
import {
  describeMachine,
  MACHINE_FILE,
  type MachineFingerprint,
  machineFingerprint,
  writeMachineFile,
} from "../analyze/machine.ts";
import { reportFromLogs, setBaseline } from "../../reports/report_data.ts";
import { addDrilldowns } from "../../reports/report_drill.ts";
import { reportHtml } from "../../reports/report_page.ts";
import { diffPaths } from "./diff.ts";
import { addRunToHistory } from "./history.ts";
import { requireBatteryZones, requireLegs, unusablePack } from "./preflight.ts";
import type { OnJobEvent } from "./progress.ts";

export { DEFAULT_BASELINE, DEFAULT_BATTERIES } from "./examples.ts";

/** Options of {@link runNightly}. */
export interface NightlyOptions {
  /** legs.json files, each planned on the base.nav.gz beside it. */
  batteries: readonly string[];
  /** The baseline folder (plans.log, stats.json, thresholds.json, machine.json). */
  baseline: string;
  /** Output folder (created): plans.log, machine.json, replay/, stats.json, diff.*, report.html. */
  out: string;
  /** Parallel planners (default 1). */
  jobs?: number;
  /** Planner profile of the plans and the replay (default spec). */
  profile?: PlanProfile | null;
  /** After the stats, copy this run into the baseline (thresholds.json kept or written). */
  updateBaseline?: boolean;
  /** After the report, add this run to the history store at this path. */
  history?: string;
  /** The checkout whose commit and branch name the history run (default this navscope's). */
  gitDir?: string;
  /** The steps' lines and the diff's warnings. */
  onProgress?: OnJobEvent;
}

/** What {@link runNightly} did. */
export interface NightlyResult {
  /** The gate's verdict (the diff's). */
  verdict: DiffReport["verdict"];
  /** The comparison (OUT/diff.json) and its Markdown (OUT/diff.md). */
  diff: DiffReport;
  markdown: string;
  /** Legs planned, and how many came out as their battery expects. */
  planned: number;
  matched: number;
  /** The replay of the baseline's failed legs (OUT/replay/). */
  replay: ReplayReport;
  /** OUT/stats.json without the machine. */
  stats: StatsReport;
  /** This machine. */
  machine: MachineFingerprint;
  /** OUT/report.html. */
  report: string;
  /** The history run id, with `history`. */
  historyRun?: number;
}

/** Runs the gate; throws when there is no baseline and `updateBaseline` is not set. */
export async function runNightly(o: NightlyOptions): Promise<NightlyResult> {
  const say = (text: string) => o.onProgress?.({ kind: "step", text });
  const { out, baseline } = o;
  await Deno.mkdir(out, { recursive: true });
  // 1. plan the batteries.
  const t0 = performance.now();
  const { packs, plansLog, matched, lines } = await planBatteries(o);
  const machine = machineFingerprint();
  await writeMachineFile(join(out, MACHINE_FILE), machine);
  say(
    `1/4 planned ${lines} legs of ${o.batteries.length} batteries in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s (${matched} as expected) on ${describeMachine(machine)} → ${plansLog}`,
  );

  // 2. replay the baseline's failed legs (this run's, when there is no baseline yet).
  const basePlans = join(baseline, "plans.log");
  const haveBase = await pathExists(basePlans);
  const allLegs = await readBatteries(o.batteries);
  const rep = await replayLogs([haveBase ? basePlans : plansLog], {
    packs: packs.map((path) => ({ path })),
    jobs: o.jobs ?? 1,
    batteries: allLegs,
    ...(o.profile ? { profile: o.profile } : {}),
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
  if (o.updateBaseline) await updateBaseline(out, baseline, say);
  else if (!haveBase) {
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
    (await pathExists(th)) ? th : undefined,
    undefined,
    { onProgress: o.onProgress },
  );
  await Deno.writeTextFile(join(out, "diff.md"), markdown);
  await Deno.writeTextFile(join(out, "diff.json"), JSON.stringify(report, null, 2) + "\n");
  say(`4/5 diff: ${report.verdict} → ${join(out, "diff.md")}, ${join(out, "diff.json")}`);
  if (!report.machines.timing_gated) say(report.machines.note);

  // 5. report: this diff on the page, so the report's verdict is the gate's.
  const page = await nightlyReport(
    [plansLog],
    join(out, "report.html"),
    report,
    basePlans,
    packs,
    allLegs,
  );
  say(`5/5 report → ${page}`);
  const result: NightlyResult = {
    verdict: report.verdict,
    diff: report,
    markdown,
    planned: lines,
    matched,
    replay: rep.report,
    stats,
    machine,
    report: join(out, "report.html"),
  };
  if (o.history !== undefined) {
    // The run joins the history (src/analyze/history.ts) whatever the verdict: a failing night
    // is exactly what the history must remember.
    result.historyRun = await addRunToHistory(o.history, [out], {
      gitDir: o.gitDir ?? fileURLToPath(new URL("../../", import.meta.url)),
    });
    say(`history: run ${result.historyRun} → ${o.history}`);
  }
  return result;
}

/** Step 1: every leg of the batteries planned on the pack beside it → OUT/plans.log. */
async function planBatteries(o: NightlyOptions) {
  const packs: string[] = [];
  const tasks = [];
  const legs: Array<{ leg: Leg; battery: string }> = [];
  for (const b of o.batteries) {
    const pack = join(dirname(b), "base.nav.gz");
    if (!packs.includes(pack)) packs.push(pack);
    const parsed = await readBatteries([b]);
    requireLegs(parsed, b);
    for (const leg of parsed) {
      legs.push({ leg, battery: b });
      const request = legRequest(leg);
      tasks.push({
        pack: packs.indexOf(pack),
        request: o.profile ? { ...request, profile: o.profile } : request,
      });
    }
  }
  const pool = await ReplayPool.open(packs.map((path) => ({ path })), o.jobs ?? 1);
  let planned;
  try {
    // Before planning: every pack loads and has the zones its battery names.
    for (const b of o.batteries) {
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
  const plansLog = join(o.out, "plans.log");
  await Deno.writeTextFile(plansLog, lines.map((l) => l + "\n").join(""));
  return { packs, legs, plansLog, matched, lines: lines.length };
}

/** `--update-baseline`: this run's plans, stats and machine become the baseline. */
async function updateBaseline(out: string, baseline: string, say: (s: string) => void) {
  const basePlans = join(baseline, "plans.log");
  await Deno.mkdir(baseline, { recursive: true });
  await Deno.copyFile(join(out, "plans.log"), basePlans);
  await Deno.copyFile(join(out, "stats.json"), join(baseline, "stats.json"));
  await Deno.copyFile(join(out, MACHINE_FILE), join(baseline, MACHINE_FILE));
  const th = join(baseline, "thresholds.json");
  if (!(await pathExists(th))) {
    await Deno.writeTextFile(th, JSON.stringify(NIGHTLY_THRESHOLDS, null, 2) + "\n");
  }
  say(
    `baseline updated: ${basePlans}, ${join(baseline, "stats.json")}, ${
      join(baseline, MACHINE_FILE)
    }`,
  );
}

/**
 * The nightly's report: `logs` with the gate's own diff result on the page (so its verdict is
 * the gate's), drill-downs replayed on `packs` with the batteries' overrides; written to `out`.
 * Resolves to a one-line summary.
 */
async function nightlyReport(
  logs: string[],
  out: string,
  diff: DiffReport,
  baseSource: string,
  packs: string[],
  batteries: readonly Leg[],
): Promise<string> {
  const { data, acc } = await reportFromLogs(logs);
  if (packs.length) await addDrilldowns(data, acc, packs, { maxLegs: 12, batteries });
  await setBaseline(data, acc, diff, baseSource);
  const html = await reportHtml(data, "navscope nightly");
  await writeFileAtomic(out, html);
  return `${out} (${(html.length / 1e6).toFixed(2)} MB, ${
    Object.values(data.drilldowns).filter((d) => d.svg).length
  } pictures)`;
}
