/**
 * The demo as a workflow (navscope demo): the main job on the embedded example worlds — plan
 * the five example batteries (the nightly's) to `OUT/logs/WORLD.log`, replay the failures,
 * classify and aggregate the logs, write `OUT/report.html` (the verdict against
 * examples/baseline/, drill-downs on every world's pack with its battery's overrides) and
 * triage the example bug-report bundle into `OUT/triage/`. Each step's result is handed to the
 * caller as it finishes (the command prints its tables), and returned at the end.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { readBatteries } from "../legs/read.ts";
import { openEngine } from "../plan/engine.ts";
import { formatPlanLine } from "../logs/plan_line.ts";
import {
  type BatteryRow,
  type BatterySummary,
  planLeg,
  summarizeBattery,
} from "../analyze/battery.ts";
import { classifyLogs, requireSomeInput, statsLogs } from "../analyze/log_pipeline.ts";
import type { ClassifyReport } from "../analyze/classify_report.ts";
import type { StatsReport } from "../analyze/stats.ts";
import { type MachineFingerprint, machineFingerprint } from "../analyze/machine.ts";
import type { ReplayReport } from "../analyze/replay_run.ts";
import { cwdRelative } from "../util/shown_paths.ts";
import { EXAMPLE_WORLDS, examplePath } from "./examples.ts";
import { requireBatteryZones, requireLegs } from "./preflight.ts";
import { type JobEvent, warnParse } from "./progress.ts";
import { runReplay } from "./replay.ts";
import { runReport } from "./report.ts";
import { runTriage } from "./triage.ts";

/** The batteries the demo plans: the five the nightly gate plans (examples/NAME/legs.json). */
export const DEMO_WORLDS: readonly string[] = EXAMPLE_WORLDS;

/** One world's battery as planned (what `plan --legs … --json` prints). */
export interface DemoBattery {
  world: string;
  /** The legs.json, relative to the working directory. */
  path: string;
  /** The plan-line log written. */
  log: string;
  profile: string;
  legs: BatteryRow[];
  summary: BatterySummary;
  machine: MachineFingerprint;
}

/** A step's result, handed over as the step finishes. */
export type DemoStep =
  | { kind: "battery"; battery: DemoBattery }
  | { kind: "replay"; report: ReplayReport; out: string }
  | { kind: "classify"; report: ClassifyReport }
  | { kind: "stats"; report: StatsReport };

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Output folder (created): logs/, replay/, report.html, triage/. */
  out: string;
  /** Replay the failed legs (default true). */
  replay?: boolean;
  /**
   * The example worlds to plan (default all five, {@link DEMO_WORLDS}); fewer make a quick demo
   * whose report then counts the baseline's other legs as gone.
   */
  worlds?: readonly string[];
  /** Steps' lines, warnings and each step's result as it finishes. */
  onProgress?: (event: JobEvent | DemoStep) => void;
}

/** What {@link runDemo} produced. */
export interface DemoResult {
  batteries: DemoBattery[];
  replay: ReplayReport | null;
  classify: ClassifyReport;
  stats: StatsReport;
  /** OUT/report.html and OUT/triage/triage.md. */
  report: string;
  triage: string;
}

/** The packs and batteries the demo's replay and report get, relative to the working directory. */
export function demoInputs(
  worlds: readonly string[] = DEMO_WORLDS,
): { packs: string[]; batteries: string[] } {
  return {
    packs: worlds.map((w) => cwdRelative(examplePath(`${w}/base.nav.gz`))),
    batteries: worlds.map((w) => cwdRelative(examplePath(`${w}/legs.json`))),
  };
}

/** Runs the demo (a few minutes: it plans every example leg). */
export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const emit = o.onProgress;
  const say = (text: string) => emit?.({ kind: "step", text });
  const logs = `${o.out}/logs`;
  await Deno.mkdir(logs, { recursive: true });
  const batteries: DemoBattery[] = [];
  const worlds = o.worlds ?? DEMO_WORLDS;
  for (const w of worlds) {
    if (!DEMO_WORLDS.includes(w)) {
      throw new NavscopeError(
        "usage",
        `demo: no example world ${JSON.stringify(w)}`,
        {},
        DEMO_WORLDS.join(", "),
      );
    }
    const b = await planWorld(w, `${logs}/${w}.log`, say);
    batteries.push(b);
    emit?.({ kind: "battery", battery: b });
  }
  // Each world's pack and legs.json: the legs' test overrides (window, max_cells,
  // cancel_before_tier) apply on replay as they did when planned; without them an unchanged
  // planner would report spurious changes.
  const inputs = demoInputs(worlds);
  const legs = await readBatteries(inputs.batteries);
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  let replay: ReplayReport | null = null;
  if (o.replay !== false) {
    say(`demo: replaying the failed legs → ${o.out}/replay/`);
    const out = `${o.out}/replay`;
    const r = await step(
      "replay",
      () => runReplay({ logs: [logs], packs: inputs.packs, out, jobs: cores, batteries: legs }),
    );
    replay = r.result.report;
    emit?.({ kind: "replay", report: replay, out });
  }
  const classify = await step("classify", async () => {
    const { report, parse } = await classifyLogs([logs], { by: "class" });
    warnParse(parse, emit, { from: "classify" });
    requireSomeInput(parse, [logs]);
    return report;
  });
  emit?.({ kind: "classify", report: classify });
  const stats = await step("stats", async () => {
    const { report, parse } = await statsLogs([logs], { filter: {}, byZone: false });
    warnParse(parse, emit, { from: "stats" });
    requireSomeInput(parse, [logs]);
    return report;
  });
  emit?.({ kind: "stats", report: stats });
  const report = `${o.out}/report.html`;
  await step("report", () =>
    runReport({
      logs: [logs],
      out: report,
      // Drill-downs on every world's pack, with the batteries' test overrides; the verdict
      // against the committed nightly baseline, with its thresholds (as nightly judges).
      packs: inputs.packs,
      batteries: legs,
      baseline: cwdRelative(examplePath("baseline/plans.log")),
      thresholds: cwdRelative(examplePath("baseline/thresholds.json")),
      drill: 30,
      jobs: cores,
    }));
  // A bug report as it arrives: the example bundle's zip volumes triaged on city_small's pack.
  const bundleDir = cwdRelative(examplePath("bundle"));
  const vols = [...Deno.readDirSync(bundleDir)].map((e) => e.name).filter((n) => n.endsWith(".zip"))
    .sort().map((n) => `${bundleDir}/${n}`);
  say(`demo: triaging the example bug-report bundle → ${o.out}/triage/`);
  await step("triage", () =>
    runTriage({
      inputs: vols,
      packs: [cwdRelative(examplePath("city_small/base.nav.gz"))],
      out: `${o.out}/triage`,
      maxLegs: 50,
      jobs: cores,
    }));
  return { batteries, replay, classify, stats, report, triage: `${o.out}/triage/triage.md` };
}

/** Plans one example world's battery on its pack, appending plan lines to `log`. */
async function planWorld(w: string, log: string, say: (s: string) => void): Promise<DemoBattery> {
  const dir = cwdRelative(examplePath(`${w}/`)) + "/";
  const path = dir + "legs.json";
  await Deno.writeTextFile(log, "");
  const engine = await openEngine(dir + "base.nav.gz");
  if (engine.info.error) {
    throw new NavscopeError("bad_value", `engine unusable: ${engine.info.error}`, {
      file: dir + "base.nav.gz",
    });
  }
  say(`demo: planning examples/${w}/legs.json → ${log}`);
  try {
    const legs = await readBatteries([path]);
    requireLegs(legs, path);
    requireBatteryZones(legs, engine.info.zones, path, engine.info.mainPack);
    const rows: BatteryRow[] = [];
    const lines: string[] = [];
    for (const leg of legs) {
      const { row, record } = await planLeg(engine, leg);
      rows.push(row);
      lines.push(formatPlanLine(record, { time: new Date() }));
    }
    if (lines.length) await Deno.writeTextFile(log, lines.join("\n") + "\n", { append: true });
    return {
      world: w,
      path,
      log,
      profile: engine.opts.profile?.name ?? "spec",
      legs: rows,
      summary: summarizeBattery(rows),
      machine: machineFingerprint(),
    };
  } finally {
    engine.close();
  }
}

/** A step's error named once: "demo: replay failed: …", never "… replay failed: replay: …". */
async function step<T>(name: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof NavscopeError) {
      const why = e.message.startsWith(`${name}: `) ? e.message.slice(name.length + 2) : e.message;
      throw new NavscopeError("io", `demo: ${name} failed: ${why}`);
    }
    throw e;
  }
}
