/**
 * `navscope diff BASE CURRENT`: the regression gate. Each run is read from logs (files, dirs,
 * globs), a replay output directory (its `replay.log`) or a `stats --json` file, reduced to
 * {@link RunData}, and compared metric by metric under a thresholds document.
 *
 * Metrics (every gated one is "an increase is worse"):
 * - `plans`, `success_rate` (informational); `failure_rate` (share of failed plans, 0…1);
 *   `failures`; `failures.<class>` (classify's classes); `failing_legs` (distinct failing legs);
 *   `new_failing_legs` (failing in CURRENT, not in BASE; base value 0); `fixed_legs` (info);
 * - `escalated_share` (share of successful plans finished above tier 0), `tier_share.<t>`;
 * - `timing.<stage>.<p50|p90|max>` for the stages window, topology, geometry, pull, assemble,
 *   lift, other, total of successful plans (ms, nearest rank);
 * - the cost metrics of stats (`statsMetrics`, docs/counters.md): work counters
 *   `counters.<counter>.<sum|p50|p90|max>` and `tier_counters.<tier>.<counter>.<stat>`
 *   (machine-independent: gated on any machine), the sub-stages of other
 *   `timing.<sub-stage|unattributed>.<sum|p50|p90|max>` (ms) and `other_unattributed_share`.
 *
 * A metric regresses when Δ = current − base exceeds its `noise_floor` (default 0; a change at or
 * below the floor never fails) and either `max_increase_abs` (Δ > abs) or `max_increase_pct`
 * (Δ > base · pct / 100; any Δ > 0 when base is 0) is exceeded. Below `min_samples` samples on
 * either side it is not judged. See README "navscope diff" for the thresholds file.
 *
 * Timing metrics are gated only when both runs carry the same machine fingerprint
 * (machine.ts): a baseline timed on another CPU says nothing about this one, so such rows are
 * "not comparable" and never fail; the thresholds' `timing_gate` ("same_machine" default,
 * "always", "never") overrides that (docs/gate.md).
 * @module
 */
import { dirname, join } from "node:path";
import { NavscopeError } from "../errors.ts";
import { parseJson } from "../codec/json.ts";
import { readTextStrict } from "../codec/json_strict.ts";
import { parseLogs } from "../logs/reader.ts";
import type { ParseReport } from "../logs/types.ts";
import { factsFromLeg, legKey } from "./log_collectors.ts";
import { FAILURE_CLASSES } from "./classes.ts";
import { percentileSorted } from "./percentile.ts";
import { classifyFailure } from "./rules.ts";
import {
  describeMachine,
  MACHINE_FILE,
  machineDifference,
  type MachineFingerprint,
  parseFingerprint,
  readMachineFile,
  sameMachine,
} from "./machine.ts";
import { fileProblems, requireSomeInput } from "./log_pipeline.ts";
import {
  COUNTER_STATS,
  STAGES,
  stageValues,
  type StatsBody,
  StatsGroup,
  statsMetrics,
} from "./stats.ts";
import { COUNTER_NAMES, OTHER_STAGE_NAMES } from "../plan/counters.ts";

/** Percentiles of the timing metrics. */
export const TIMING_STATS = ["p50", "p90", "max"] as const;

/** One run reduced to what diff compares. */
export interface RunData {
  /** Path as given. */
  source: string;
  /** What it was read as. */
  kind: "logs" | "replay" | "stats";
  /** Plans (legs), or null when unknown. */
  plans: number | null;
  /** Successful plans. */
  ok: number | null;
  /** Failures per class, or null (a stats file has none). */
  classes: Map<string, number> | null;
  /** Distinct failing legs → class of their last failure, or null. */
  failingLegs: Map<string, string> | null;
  /** Successful plans per final tier (plan lines only). */
  tiers: Map<number, number>;
  /** Per stage, percentile values (or null) and sample count. */
  timing: Record<string, { p50: number | null; p90: number | null; max: number | null; n: number }>;
  /** Inputs skipped while reading (logs). */
  fileProblems: Array<{ file: string; error: string }>;
  /** The machine the run was timed on, or null when it recorded none. */
  machine: MachineFingerprint | null;
  /**
   * Cost metrics of the successful plans by name (`statsMetrics`: work counters, sub-stages of
   * other); empty when the run's plans carried none.
   */
  cost: Map<string, { value: number | null; n: number }>;
  /**
   * Planner profiles of the run's plan lines, sorted (a line without one: `spec`); empty when
   * unknown (stats file, MaaFramework logs only).
   */
  profiles: string[];
  /** Per leg (key, with `|leg=ID` when logged): its last outcome `ok t<tier> <n>pt <length>` or class. */
  legOutcomes: Map<string, string> | null;
}

function isDir(p: string): boolean {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
}

/**
 * Reads one run: a replay dir (has replay.json), a `.json` stats file, or logs. Its machine
 * fingerprint is the stats file's `machine` field, else the `machine.json` in the run's folder
 * (a directory given, or the folder of a single file given); a glob has none.
 */
export async function readRun(source: string): Promise<RunData> {
  let run: RunData;
  if (isDir(source) && isFile(`${source}/replay.json`)) {
    run = await runFromLogs(source, [`${source}/replay.log`], "replay");
  } else if (source.endsWith(".json") && isFile(source)) {
    run = await runFromStatsFile(source);
  } else run = await runFromLogs(source, [source], "logs");
  if (run.machine === null) {
    const dir = isDir(source) ? source : isFile(source) ? dirname(source) : null;
    if (dir !== null) run.machine = await readMachineFile(join(dir, MACHINE_FILE));
  }
  return run;
}

async function runFromLogs(
  source: string,
  inputs: string[],
  kind: "logs" | "replay",
): Promise<RunData> {
  const stream = parseLogs(inputs, { include: ["leg"] });
  let plans = 0, ok = 0;
  const classes = new Map<string, number>();
  const failing = new Map<string, string>();
  const tiers = new Map<number, number>();
  const samples: number[][] = STAGES.map(() => []);
  const group = new StatsGroup();
  const profiles = new Set<string>();
  const outcomes = new Map<string, string>();
  for await (const ev of stream) {
    if (ev.type !== "leg") continue;
    const leg = ev.leg;
    plans++;
    const p = leg.plan;
    if (p) profiles.add(p.profile ?? "spec");
    const deckY = p ? p.goalDeckY : leg.goalDeckY;
    // A leg is told apart by its battery leg id where the line names one (legs that share
    // their endpoints but differ in overrides), as classify and the report key it.
    const id = legKey(leg.zone, leg.start, leg.goal, deckY, leg.error) +
      (p?.leg ? `|leg=${p.leg}` : "");
    outcomes.set(
      id,
      leg.ok
        ? p ? `ok t${p.tier} ${p.points}pt ${p.length}` : "ok"
        : classifyFailure(factsFromLeg(leg)).class + (p ? ` t${p.tier}` : ""),
    );
    if (leg.ok) {
      ok++;
      if (p) {
        group.add(p);
        tiers.set(p.tier, (tiers.get(p.tier) ?? 0) + 1);
        stageValues(p.timing).forEach((v, i) => {
          if (Number.isFinite(v)) samples[i].push(v);
        });
      }
      continue;
    }
    const cls = classifyFailure(factsFromLeg(leg)).class;
    classes.set(cls, (classes.get(cls) ?? 0) + 1);
    failing.set(id, cls);
  }
  const report: ParseReport = stream.report;
  requireSomeInput(report, inputs);
  const timing: RunData["timing"] = {};
  STAGES.forEach((s, i) => {
    const a = samples[i].sort((x, y) => x - y);
    timing[s] = a.length
      ? {
        p50: percentileSorted(a, 50),
        p90: percentileSorted(a, 90),
        max: a[a.length - 1],
        n: a.length,
      }
      : { p50: null, p90: null, max: null, n: 0 };
  });
  return {
    source,
    kind,
    plans,
    ok,
    classes,
    failingLegs: failing,
    tiers,
    timing,
    fileProblems: fileProblems(report),
    machine: null,
    cost: costMetrics(group.body()),
    profiles: [...profiles].sort(),
    legOutcomes: outcomes,
  };
}

async function runFromStatsFile(source: string): Promise<RunData> {
  let j: {
    plans?: unknown;
    failed_excluded?: unknown;
    failures?: unknown;
    tiers?: Array<{ tier: number; count: number; total_ms?: { p90?: number | null } }>;
    stages?: Array<{ stage: string; p50_ms: number | null; max_ms: number | null }>;
    machine?: unknown;
  };
  try {
    // Stats carry text copied from logs: U+FFFD may be in it legitimately.
    j = parseJson(await readTextStrict(source), { file: source }, "not valid JSON", {
      allowReplacementChar: true,
    }) as typeof j;
  } catch (e) {
    if (e instanceof NavscopeError) throw e;
    throw new NavscopeError("io", `cannot read the stats file: ${(e as Error).message}`, {
      file: source,
    }, "a stats --json file");
  }
  if (typeof j?.plans !== "number" || !Array.isArray(j.stages) || !Array.isArray(j.tiers)) {
    throw new NavscopeError(
      "bad_value",
      "not a stats --json file",
      { file: source },
      "{plans, tiers, stages, …}",
    );
  }
  const okN = j.plans;
  // `failures` (classify's count, navigator legs included) when the file has it.
  const failed = typeof j.failures === "number"
    ? j.failures
    : typeof j.failed_excluded === "number"
    ? j.failed_excluded
    : 0;
  const tiers = new Map<number, number>();
  for (const t of j.tiers) tiers.set(t.tier, t.count);
  const timing: RunData["timing"] = {};
  for (const s of STAGES) {
    const row = j.stages.find((x) => x.stage === s);
    // Only one tier: its total p90 is the total p90 of all plans.
    const p90 = s === "total" && j.tiers.length === 1 ? j.tiers[0].total_ms?.p90 ?? null : null;
    timing[s] = { p50: row?.p50_ms ?? null, p90, max: row?.max_ms ?? null, n: okN };
  }
  return {
    source,
    kind: "stats",
    plans: okN + failed,
    ok: okN,
    classes: null,
    failingLegs: null,
    tiers,
    timing,
    fileProblems: [],
    machine: j.machine === undefined ? null : parseFingerprint(j.machine, `${source}: $.machine`),
    cost: costMetrics({
      counter_plans: 0,
      counters: [],
      counters_by_tier: [],
      other_plans: 0,
      other_stages: [],
      other_unattributed_share: null,
      ...(j as Partial<StatsBody>),
    } as StatsBody),
    profiles: [],
    legOutcomes: null,
  };
}

/**
 * True for the metrics measured with a clock (stage and sub-stage times, the unattributed share
 * of the time): comparable only on one machine. Counters and outcomes are not.
 */
export function isTimingMetric(name: string): boolean {
  return name.startsWith("timing.") || name === "other_unattributed_share";
}

/** True for the cost metrics of statsMetrics (counters, sub-stages, unattributed share). */
export function isCostMetric(name: string): boolean {
  return name.startsWith("counters.") || name.startsWith("tier_counters.") ||
    name === "other_unattributed_share" ||
    (name.startsWith("timing.") && !(STAGES as readonly string[]).includes(name.split(".")[1]));
}

/** The stats body's cost metrics, those with no plan behind them left out. */
function costMetrics(b: StatsBody): RunData["cost"] {
  const m = statsMetrics(b);
  for (const [k, v] of m) if (v.n === 0) m.delete(k);
  return m;
}

/** One threshold entry. */
export interface Threshold {
  max_increase_pct?: number | null;
  max_increase_abs?: number | null;
  noise_floor?: number;
  min_samples?: number;
}

/** The thresholds document. */
export interface ThresholdsDoc {
  format: "navscope-thresholds";
  version: 1;
  /** `extend` (default): merged over the defaults; `replace`: only these. */
  mode?: "extend" | "replace";
  /** When timing metrics are gated (default `same_machine`; see {@link TimingGate}). */
  timing_gate?: TimingGate;
  metrics: Record<string, Threshold>;
}

/**
 * When `timing.*` metrics are judged: `same_machine` (default) only when both runs carry equal
 * machine fingerprints, else they are "not comparable" and never fail; `always` judges them
 * whatever the machines (a known-identical fleet without fingerprints); `never` reports them
 * only (gate on counters and `nightly --ab`).
 */
export type TimingGate = "same_machine" | "always" | "never";

/** The values of {@link TimingGate}. */
export const TIMING_GATES: readonly TimingGate[] = ["same_machine", "always", "never"];

/** The outcome gates of both threshold sets: any new failure, class count or failing leg fails. */
const OUTCOME_GATES = {
  failure_rate: { max_increase_abs: 0 },
  failures: { max_increase_abs: 0 },
  "failures.*": { max_increase_abs: 0 },
  failing_legs: { max_increase_abs: 0 },
  new_failing_legs: { max_increase_abs: 0 },
  escalated_share: { max_increase_abs: 0 },
};

/**
 * The work-counter gates of both threshold sets. Work counters are exact (same input, same count
 * on any machine): no noise to absorb, but a planner change may trade a little work for a better
 * route, hence a few per cent.
 */
const COUNTER_GATES = {
  "counters.*.*.sum": { max_increase_pct: 5, noise_floor: 2 },
  "counters.*.*.p50": { max_increase_pct: 10, noise_floor: 2, min_samples: 5 },
  "counters.*.*.p90": { max_increase_pct: 10, noise_floor: 2, min_samples: 10 },
};

/**
 * Built-in thresholds: outcomes strict (any new failure, class count, failing leg, escalation
 * fails), timings relative with a noise floor in ms and a minimum sample count.
 */
export const DEFAULT_THRESHOLDS: ThresholdsDoc = {
  format: "navscope-thresholds",
  version: 1,
  metrics: {
    ...OUTCOME_GATES,
    "timing.*.p50": { max_increase_pct: 25, noise_floor: 2, min_samples: 5 },
    "timing.*.p90": { max_increase_pct: 50, noise_floor: 5, min_samples: 10 },
    "timing.*.max": { max_increase_pct: 100, noise_floor: 20, min_samples: 10 },
    ...COUNTER_GATES,
  },
};

/**
 * The nightly gate's committed thresholds (`examples/baseline/thresholds.json`, written by
 * `nightly --update-baseline`): outcomes strict, tier shares too; work counters (the same on any
 * machine) the default performance gate; timings loose, and judged only on the baseline's machine.
 */
export const NIGHTLY_THRESHOLDS: ThresholdsDoc & { comment: string } = {
  format: "navscope-thresholds",
  version: 1,
  comment: "nightly gate: outcomes strict; work counters (machine-independent) the performance " +
    "gate; timings loose and judged only against a baseline timed on this machine (docs/gate.md)",
  metrics: {
    ...OUTCOME_GATES,
    "tier_share.*": { max_increase_abs: 0 },
    "timing.*.p50": { max_increase_pct: 300, noise_floor: 50, min_samples: 5 },
    "timing.*.p90": { max_increase_pct: 400, noise_floor: 200, min_samples: 10 },
    "timing.*.max": { max_increase_pct: 600, noise_floor: 1000, min_samples: 10 },
    ...COUNTER_GATES,
  },
};

const THRESHOLD_FIELDS = ["max_increase_pct", "max_increase_abs", "noise_floor", "min_samples"];
const INFO_METRICS = new Set(["plans", "success_rate", "fixed_legs"]);
const SIMPLE_METRICS = new Set([
  "failure_rate",
  "failures",
  "failing_legs",
  "new_failing_legs",
  "escalated_share",
  "other_unattributed_share",
]);

/** Why `name` (a metric name or a `*` pattern) is not a gateable metric, or "" when it is. */
export function checkMetricName(name: string): string {
  if (INFO_METRICS.has(name)) return `${name} is informational and cannot be gated`;
  if (SIMPLE_METRICS.has(name)) return "";
  const p = name.split(".");
  const known = "failure_rate, failures, failures.<class>, failing_legs, new_failing_legs, " +
    "escalated_share, tier_share.<tier>, timing.<stage>.<p50|p90|max>, " +
    "timing.<sub-stage>.<sum|p50|p90|max>, counters.<counter>.<sum|p50|p90|max>, " +
    "tier_counters.<tier>.<counter>.<stat>, other_unattributed_share (* for any part)";
  const bad = `unknown metric (known: ${known})`;
  if (p[0] === "failures" && p.length === 2) {
    return p[1] === "*" || (FAILURE_CLASSES as readonly string[]).includes(p[1])
      ? ""
      : `unknown failure class "${p[1]}" (${FAILURE_CLASSES.join(", ")})`;
  }
  const tier = (t: string) => t === "*" || /^(-1|0|[1-9][0-9]*)$/.test(t) ? "" : `bad tier "${t}"`;
  if (p[0] === "tier_share" && p.length === 2) return tier(p[1]);
  if (p[0] === "timing" && p.length === 3) {
    const sub = [...OTHER_STAGE_NAMES, "unattributed"] as readonly string[];
    const isStage = (STAGES as readonly string[]).includes(p[1]);
    if (p[1] !== "*" && !isStage && !sub.includes(p[1])) {
      return `unknown stage "${p[1]}" (${STAGES.join(", ")}; sub-stages ${sub.join(", ")})`;
    }
    // The six stages have no sum metric; the sub-stages of other have.
    const stats: readonly string[] = p[1] === "*" || !isStage ? COUNTER_STATS : TIMING_STATS;
    if (p[2] !== "*" && !stats.includes(p[2])) {
      return `unknown statistic "${p[2]}" (${stats.join(", ")})`;
    }
    return "";
  }
  const counter = (a: string, b: string, st: string) => {
    const c = `${a}.${b}`;
    const ok = COUNTER_NAMES.some((n) => {
      const [x, y] = n.split(".");
      return (a === "*" || a === x) && (b === "*" || b === y);
    });
    if (!ok) return `unknown counter "${c}" (${COUNTER_NAMES.join(", ")})`;
    if (st !== "*" && !(COUNTER_STATS as readonly string[]).includes(st)) {
      return `unknown statistic "${st}" (${COUNTER_STATS.join(", ")})`;
    }
    return "";
  };
  if (p[0] === "counters" && p.length === 4) return counter(p[1], p[2], p[3]);
  if (p[0] === "tier_counters" && p.length === 5) return tier(p[1]) || counter(p[2], p[3], p[4]);
  return bad;
}

/**
 * Validates a thresholds document; errors name the file and JSON path
 * (`t.json: $.metrics["timing.totl.p50"]: unknown stage …`) and are `bad_value` NavscopeErrors.
 */
export function parseThresholds(text: string, file: string): ThresholdsDoc {
  const fail = (path: string, what: string) =>
    new NavscopeError("bad_value", `${file}: ${path}: ${what}`);
  const j = parseJson(text, { file }, "not JSON");
  if (typeof j !== "object" || j === null || Array.isArray(j)) throw fail("$", "not an object");
  const d = j as Record<string, unknown>;
  for (const k of Object.keys(d)) {
    if (!["format", "version", "mode", "timing_gate", "metrics", "comment"].includes(k)) {
      throw fail(`$.${k}`, "unknown key (format, version, mode, timing_gate, metrics, comment)");
    }
  }
  if (d.format !== "navscope-thresholds") throw fail("$.format", `must be "navscope-thresholds"`);
  if (d.version !== 1) throw fail("$.version", "must be 1");
  if (d.mode !== undefined && d.mode !== "extend" && d.mode !== "replace") {
    throw fail("$.mode", `must be "extend" or "replace"`);
  }
  if (d.timing_gate !== undefined && !TIMING_GATES.includes(d.timing_gate as TimingGate)) {
    throw fail("$.timing_gate", `must be ${TIMING_GATES.map((g) => `"${g}"`).join(", ")}`);
  }
  const m = d.metrics;
  if (typeof m !== "object" || m === null || Array.isArray(m)) {
    throw fail("$.metrics", "not an object");
  }
  const metrics: Record<string, Threshold> = {};
  for (const [name, v] of Object.entries(m as Record<string, unknown>)) {
    const path = `$.metrics[${JSON.stringify(name)}]`;
    const why = checkMetricName(name);
    if (why) throw fail(path, why);
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw fail(path, "not an object");
    const t: Threshold = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!THRESHOLD_FIELDS.includes(k)) {
        throw fail(`${path}.${k}`, `unknown field (${THRESHOLD_FIELDS.join(", ")})`);
      }
      const nullable = k === "max_increase_pct" || k === "max_increase_abs";
      if (x === null && nullable) {
        (t as Record<string, unknown>)[k] = null;
        continue;
      }
      if (typeof x !== "number" || !Number.isFinite(x) || x < 0) {
        throw fail(`${path}.${k}`, `must be a number ≥ 0${nullable ? " or null" : ""}`);
      }
      if (k === "min_samples" && !Number.isInteger(x)) {
        throw fail(`${path}.${k}`, "must be an integer");
      }
      (t as Record<string, unknown>)[k] = x;
    }
    metrics[name] = t;
  }
  return {
    format: "navscope-thresholds",
    version: 1,
    mode: d.mode as ThresholdsDoc["mode"],
    ...(d.timing_gate === undefined ? {} : { timing_gate: d.timing_gate as TimingGate }),
    metrics,
  };
}

/** Reads and validates a thresholds file. */
export async function loadThresholds(path: string): Promise<ThresholdsDoc> {
  return parseThresholds(await readTextStrict(path), path);
}

function matches(pattern: string, name: string): boolean {
  const a = pattern.split("."), b = name.split(".");
  return a.length === b.length && a.every((x, i) => x === "*" || x === b[i]);
}

function specificity(pattern: string): number {
  return pattern.split(".").filter((x) => x !== "*").join(".").length +
    (pattern.includes("*") ? 0 : 1000);
}

/** The threshold that applies to a metric: user entries before defaults, then most specific. */
export function thresholdFor(
  name: string,
  doc: ThresholdsDoc,
): { key: string; t: Threshold } | null {
  const pick = (metrics: Record<string, Threshold>) => {
    let best: { key: string; t: Threshold } | null = null;
    for (const [k, t] of Object.entries(metrics)) {
      if (!matches(k, name)) continue;
      if (!best || specificity(k) >= specificity(best.key)) best = { key: k, t };
    }
    return best;
  };
  return pick(doc.metrics) ??
    (doc.mode === "replace" || doc === DEFAULT_THRESHOLDS
      ? null
      : pick(DEFAULT_THRESHOLDS.metrics));
}

/** Verdict of one metric. */
export type MetricVerdict =
  | "pass"
  | "regression"
  | "improved"
  | "info"
  | "n/a"
  | "too few samples"
  | "not comparable";

/** One compared metric. */
export interface MetricRow {
  metric: string;
  /** `rate` (0…1), `count` or `ms`. */
  unit: "rate" | "count" | "ms";
  base: number | null;
  current: number | null;
  delta: number | null;
  /** Δ / base · 100, null when base is 0 or unknown. */
  delta_pct: number | null;
  samples: [number, number];
  /** The threshold key applied ("" none) and its text. */
  threshold_key: string;
  threshold: string;
  verdict: MetricVerdict;
}

/** The diff result (`--json FILE`). */
export interface DiffReport {
  format: "navscope-diff";
  version: 1;
  verdict: "pass" | "regression";
  regressions: string[];
  base: { source: string; kind: string; plans: number | null };
  current: { source: string; kind: string; plans: number | null };
  thresholds: string;
  /** The machines both runs were timed on and whether their timings were gated. */
  machines: DiffMachines;
  metrics: MetricRow[];
  new_failing_legs: Array<{ leg: string; class: string }>;
  fixed_legs: Array<{ leg: string; class: string }>;
  /** Planner profiles of both runs (docs/profiles.md). */
  profiles: { base: string[]; current: string[] };
  /**
   * With `acrossProfiles` and runs of different profiles: the legs whose outcome (class, tier,
   * points, length) differs, i.e. the legs the profiles' switches change.
   */
  changed_legs?: Array<{ leg: string; base: string; current: string }>;
}

/** Options of {@link diffRuns}. */
export interface DiffOptions {
  /** Compare runs of different planner profiles (else a usage error); lists the changed legs. */
  acrossProfiles?: boolean;
}

/** The machines of a diff and what that meant for its timing metrics. */
export interface DiffMachines {
  /** Base run's fingerprint (null: none recorded). */
  base: MachineFingerprint | null;
  /** Current run's fingerprint (null: none recorded). */
  current: MachineFingerprint | null;
  /** Both known and equal. */
  same: boolean;
  /** The timing gate in force. */
  timing_gate: TimingGate;
  /** Whether `timing.*` metrics were judged. */
  timing_gated: boolean;
  /** One sentence: why timings were or were not gated, and how to make them comparable. */
  note: string;
}

/** How to record a base on this machine, quoted when timings are not comparable. */
export const REBASELINE_HINT = "deno task nightly --update-baseline";

/** Decides whether timing metrics are judged, and says why. */
export function timingVerdict(
  base: MachineFingerprint | null,
  cur: MachineFingerprint | null,
  gate: TimingGate = "same_machine",
): DiffMachines {
  const same = sameMachine(base, cur);
  const both = `base: ${describeMachine(base)}; current: ${describeMachine(cur)}`;
  let note: string;
  let gated: boolean;
  if (gate === "never") {
    gated = false;
    note = `timing metrics not gated (timing_gate "never"); ${both}`;
  } else if (gate === "always") {
    gated = true;
    note = same
      ? `timing metrics gated: same machine (${describeMachine(cur)})`
      : `timing metrics gated although the machines differ (timing_gate "always"); ${both}`;
  } else if (same) {
    gated = true;
    note = `timing metrics gated: same machine (${describeMachine(cur)})`;
  } else {
    gated = false;
    const differ = base && cur ? machineDifference(base, cur) : "";
    const why = base && cur
      ? differ
        ? `the machines differ (${differ})`
        : `the CPU model is unknown (recorded without --allow-sys=cpus)`
      : `${base ? "the current run" : cur ? "the base" : "neither run"} recorded no machine ` +
        `fingerprint (${MACHINE_FILE})`;
    note = `timing metrics not comparable across machines: ${why}; ${both}. They are shown, ` +
      `never failed on. To gate timings, re-record the base on this machine ` +
      `(nightly: \`${REBASELINE_HINT}\`), or compare both versions here with ` +
      `\`deno task nightly --ab REF\`; \`--timing-gate always\` forces the gate.`;
  }
  return { base, current: cur, same, timing_gate: gate, timing_gated: gated, note };
}

/** Text of a threshold entry, e.g. `+25 % / +2 abs, floor 2, n ≥ 5`. */
export function thresholdText(t: Threshold): string {
  const parts = [];
  if (t.max_increase_pct !== undefined && t.max_increase_pct !== null) {
    parts.push(`+${t.max_increase_pct} %`);
  }
  if (t.max_increase_abs !== undefined && t.max_increase_abs !== null) {
    parts.push(`+${t.max_increase_abs}`);
  }
  let s = parts.join(" or ");
  if (t.noise_floor) s += `${s ? ", " : ""}floor ${t.noise_floor}`;
  if (t.min_samples) s += `${s ? ", " : ""}n ≥ ${t.min_samples}`;
  return s || "-";
}

function judgeMetric(
  base: number | null,
  cur: number | null,
  n: [number, number],
  t: Threshold | null,
): MetricVerdict {
  if (base === null || cur === null) return "n/a";
  const gated = t &&
    ((t.max_increase_abs ?? null) !== null || (t.max_increase_pct ?? null) !== null);
  if (!gated) return "info";
  if (Math.min(n[0], n[1]) < (t.min_samples ?? 0)) return "too few samples";
  const d = cur - base;
  const floor = t.noise_floor ?? 0;
  const eps = 1e-12;
  if (d > floor + eps) {
    const abs = t.max_increase_abs ?? null, pct = t.max_increase_pct ?? null;
    const overAbs = abs !== null && d > abs + eps;
    const overPct = pct !== null && (base > 0 ? d > (base * pct) / 100 + eps : d > eps);
    return overAbs || overPct ? "regression" : "pass";
  }
  return -d > floor + eps ? "improved" : "pass";
}

/** Compares two runs under a thresholds document. */
export function diffRuns(
  base: RunData,
  cur: RunData,
  doc: ThresholdsDoc = DEFAULT_THRESHOLDS,
  thresholdsSource = "(defaults)",
  opts: DiffOptions = {},
): DiffReport {
  const machines = timingVerdict(base.machine, cur.machine, doc.timing_gate ?? "same_machine");
  const across = base.profiles.length > 0 && cur.profiles.length > 0 &&
    base.profiles.join(",") !== cur.profiles.join(",");
  if (across && !opts.acrossProfiles) {
    throw new NavscopeError(
      "usage",
      `runs of different planner profiles (base ${base.profiles.join(", ")}, current ${
        cur.profiles.join(", ")
      }): pass --across-profiles to compare them`,
    );
  }
  const rows: MetricRow[] = [];
  const add = (
    metric: string,
    unit: MetricRow["unit"],
    b: number | null,
    c: number | null,
    n: [number, number],
  ) => {
    const th = INFO_METRICS.has(metric) ? null : thresholdFor(metric, doc);
    const delta = b !== null && c !== null ? c - b : null;
    rows.push({
      metric,
      unit,
      base: b,
      current: c,
      delta,
      delta_pct: delta !== null && b !== null && b !== 0 ? (delta / b) * 100 : null,
      samples: n,
      threshold_key: th?.key ?? "",
      threshold: th ? thresholdText(th.t) : "-",
      verdict: judgeMetric(b, c, n, th?.t ?? null),
    });
  };
  const nPlans: [number, number] = [base.plans ?? 0, cur.plans ?? 0];
  const rate = (r: RunData, f: (r: RunData) => number | null) =>
    r.plans === null || r.plans === 0 ? null : f(r);
  add("plans", "count", base.plans, cur.plans, nPlans);
  add(
    "success_rate",
    "rate",
    rate(base, (r) => r.ok! / r.plans!),
    rate(cur, (r) => r.ok! / r.plans!),
    nPlans,
  );
  add(
    "failure_rate",
    "rate",
    rate(base, (r) => (r.plans! - r.ok!) / r.plans!),
    rate(cur, (r) => (r.plans! - r.ok!) / r.plans!),
    nPlans,
  );
  const fails = (r: RunData) => (r.plans === null || r.ok === null ? null : r.plans - r.ok);
  add("failures", "count", fails(base), fails(cur), nPlans);
  const classNames = new Set([...(base.classes?.keys() ?? []), ...(cur.classes?.keys() ?? [])]);
  for (const c of [...classNames].sort()) {
    add(
      `failures.${c}`,
      "count",
      base.classes ? base.classes.get(c) ?? 0 : null,
      cur.classes ? cur.classes.get(c) ?? 0 : null,
      nPlans,
    );
  }
  const newLegs: DiffReport["new_failing_legs"] = [];
  const fixedLegs: DiffReport["fixed_legs"] = [];
  if (base.failingLegs && cur.failingLegs) {
    for (const [k, c] of cur.failingLegs) {
      if (!base.failingLegs.has(k)) newLegs.push({ leg: k, class: c });
    }
    for (const [k, c] of base.failingLegs) {
      if (!cur.failingLegs.has(k)) fixedLegs.push({ leg: k, class: c });
    }
    newLegs.sort((a, b) => (a.leg < b.leg ? -1 : 1));
    fixedLegs.sort((a, b) => (a.leg < b.leg ? -1 : 1));
  }
  const known = !!(base.failingLegs && cur.failingLegs);
  add(
    "failing_legs",
    "count",
    base.failingLegs?.size ?? null,
    cur.failingLegs?.size ?? null,
    nPlans,
  );
  add("new_failing_legs", "count", known ? 0 : null, known ? newLegs.length : null, nPlans);
  add("fixed_legs", "count", known ? 0 : null, known ? fixedLegs.length : null, nPlans);
  const tierN = (r: RunData) => [...r.tiers.values()].reduce((s, v) => s + v, 0);
  const nTier: [number, number] = [tierN(base), tierN(cur)];
  const share = (r: RunData, f: (t: number) => boolean) => {
    const n = tierN(r);
    if (n === 0) return null;
    let s = 0;
    for (const [t, c] of r.tiers) if (f(t)) s += c;
    return s / n;
  };
  add("escalated_share", "rate", share(base, (t) => t > 0), share(cur, (t) => t > 0), nTier);
  const tierNames = new Set([...base.tiers.keys(), ...cur.tiers.keys()]);
  for (const t of [...tierNames].sort((a, b) => a - b)) {
    add(`tier_share.${t}`, "rate", share(base, (x) => x === t), share(cur, (x) => x === t), nTier);
  }
  for (const s of STAGES) {
    const b = base.timing[s], c = cur.timing[s];
    for (const st of TIMING_STATS) add(`timing.${s}.${st}`, "ms", b[st], c[st], [b.n, c.n]);
  }
  // Cost metrics (work counters, sub-stages of other) in statsMetrics order.
  const costNames = [...base.cost.keys()];
  for (const k of cur.cost.keys()) if (!base.cost.has(k)) costNames.push(k);
  // Per-tier counters (5 tiers × 96 rows) only when a thresholds entry asks for them.
  const tierCounters = Object.keys(doc.metrics).some((k) => k.startsWith("tier_counters."));
  for (const k of costNames) {
    if (!tierCounters && k.startsWith("tier_counters.")) continue;
    const b = base.cost.get(k), c = cur.cost.get(k);
    const unit = k.startsWith("timing.")
      ? "ms"
      : k === "other_unattributed_share"
      ? "rate"
      : "count";
    add(k, unit, b?.value ?? null, c?.value ?? null, [b?.n ?? 0, c?.n ?? 0]);
  }
  if (!machines.timing_gated) {
    // Timings of two machines (or of an unknown one) are shown, never judged (docs/gate.md).
    for (const r of rows) {
      if (isTimingMetric(r.metric) && r.verdict !== "n/a" && r.verdict !== "info") {
        r.verdict = "not comparable";
      }
    }
  }
  const regressions = rows.filter((r) => r.verdict === "regression").map((r) => r.metric);
  return {
    format: "navscope-diff",
    version: 1,
    verdict: regressions.length ? "regression" : "pass",
    regressions,
    base: { source: base.source, kind: base.kind, plans: base.plans },
    current: { source: cur.source, kind: cur.kind, plans: cur.plans },
    thresholds: thresholdsSource,
    machines,
    metrics: rows,
    new_failing_legs: newLegs,
    fixed_legs: fixedLegs,
    profiles: { base: base.profiles, current: cur.profiles },
    ...(across ? { changed_legs: changedLegs(base, cur) } : {}),
  };
}

/** Legs present in both runs whose outcome signature differs, sorted by key. */
function changedLegs(base: RunData, cur: RunData): NonNullable<DiffReport["changed_legs"]> {
  const out: NonNullable<DiffReport["changed_legs"]> = [];
  if (!base.legOutcomes || !cur.legOutcomes) return out;
  for (const [k, c] of cur.legOutcomes) {
    const b = base.legOutcomes.get(k);
    if (b !== undefined && b !== c) out.push({ leg: k, base: b, current: c });
  }
  return out.sort((a, b) => (a.leg < b.leg ? -1 : 1));
}
