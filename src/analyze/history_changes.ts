/**
 * Change points of a run history (src/analyze/history.ts) per metric series, with the method of
 * src/analyze/change_points.ts: work counters over every run (machine-independent), each leg's
 * outcome (1 routed / 0 failed) over every run, and timings only within runs of one machine
 * fingerprint (a timing series never mixes machines; docs/gate.md says why). Each change point
 * names the metric, its magnitude, the first run after it and the commit range. Counter and
 * timing series hold a leg's routed runs only (its failed runs are in its outcome series).
 * @module
 */
import { type ChangePointOptions, changePoints } from "./change_points.ts";
import type { HistoryLeg, HistoryRun } from "./history.ts";

/** One change point found in the history. */
export interface HistoryChange {
  /** `battery/leg`. */
  leg: string;
  /** Metric: `outcome`, `counter:NAME` or `time:STAGE`. */
  metric: string;
  /** Machine id of a timing series ("" for counters and outcomes). */
  machine: string;
  /** Mean before. */
  before: number;
  /** Mean after. */
  after: number;
  /** (after − before) / |before|. */
  relative: number;
  /** Permutation p-value. */
  p: number;
  /** First run after the change. */
  run: HistoryRun;
  /** Last run before it. */
  previous: HistoryRun;
  /** `previous.commit..run.commit` (the commits to bisect). */
  commits: string;
}

/** Options of {@link historyChanges}. */
export interface HistoryChangeOptions extends ChangePointOptions {
  /** Timing stages to search (default `total`); [] for none. */
  timings?: string[];
  /** Counter names to search (default every counter seen). */
  counters?: string[];
}

/** A metric's series: run ids and values, in run order. */
export interface MetricSeries {
  /** `battery/leg`. */
  leg: string;
  /** Metric name. */
  metric: string;
  /** Machine id for a timing series. */
  machine: string;
  /** Run id of each value. */
  runs: number[];
  /** The values. */
  values: number[];
}

/** Every metric series of a history (legs grouped by battery/leg, in run order). */
export function historySeries(
  runs: readonly HistoryRun[],
  legs: ReadonlyArray<HistoryLeg & { runId: number }>,
  opts: HistoryChangeOptions = {},
): MetricSeries[] {
  const machineOf = new Map(runs.map((r) => [r.id, r.machineId]));
  const series = new Map<string, MetricSeries>();
  const push = (leg: string, metric: string, machine: string, run: number, v: number) => {
    const key = `${leg}\u0000${metric}\u0000${machine}`;
    let s = series.get(key);
    if (!s) series.set(key, s = { leg, metric, machine, runs: [], values: [] });
    s.runs.push(run);
    s.values.push(v);
  };
  const stages = opts.timings ?? ["total"];
  const wanted = opts.counters ? new Set(opts.counters) : null;
  const sorted = [...legs].sort((a, b) => a.runId - b.runId);
  for (const l of sorted) {
    const name = `${l.battery}/${l.leg}`;
    push(name, "outcome", "", l.runId, l.ok ? 1 : 0);
    // Counters and timings of routed plans only: a failed plan does other work, and its
    // outcome series already carries the flip (one change, reported once).
    if (!l.ok) continue;
    for (const [k, v] of Object.entries(l.counters)) {
      if (!wanted || wanted.has(k)) push(name, `counter:${k}`, "", l.runId, v);
    }
    const m = machineOf.get(l.runId) ?? "";
    for (const st of stages) {
      const v = l.timings[st];
      if (typeof v === "number") push(name, `time:${st}`, m, l.runId, v);
    }
  }
  return [...series.values()];
}

/** Change points of every series of a history, ordered by run then leg then metric. */
export function historyChanges(
  runs: readonly HistoryRun[],
  legs: ReadonlyArray<HistoryLeg & { runId: number }>,
  opts: HistoryChangeOptions = {},
): HistoryChange[] {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const out: HistoryChange[] = [];
  for (const s of historySeries(runs, legs, opts)) {
    // An outcome is 0/1: any lasting flip matters, so the magnitude floor is half a flip.
    const o = s.metric === "outcome" ? { ...opts, minAbsolute: 0.5, minRelative: 0 } : opts;
    for (const c of changePoints(s.values, o)) {
      const run = byId.get(s.runs[c.index])!, previous = byId.get(s.runs[c.index - 1])!;
      out.push({
        leg: s.leg,
        metric: s.metric,
        machine: s.machine,
        before: c.before,
        after: c.after,
        relative: c.relative,
        p: c.p,
        run,
        previous,
        commits: `${previous.commit || "?"}..${run.commit || "?"}`,
      });
    }
  }
  return out.sort((a, b) =>
    a.run.id - b.run.id || a.leg.localeCompare(b.leg) || a.metric.localeCompare(b.metric)
  );
}

/**
 * The run a failing leg has failed in since (every later run failed too), or null when the
 * leg's last run routed. legs: one leg's rows, in run order.
 */
export function failingSince(
  runs: readonly HistoryRun[],
  legs: ReadonlyArray<HistoryLeg & { runId: number }>,
): HistoryRun | null {
  if (legs.length === 0 || legs[legs.length - 1].ok) return null;
  let i = legs.length - 1;
  while (i > 0 && !legs[i - 1].ok) i--;
  return runs.find((r) => r.id === legs[i].runId) ?? null;
}
