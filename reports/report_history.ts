/**
 * The report's history section (`report … --history FILE`): one trend per chosen metric series
 * of the run-history store (src/analyze/history.ts) with its change points
 * (src/analyze/history_changes.ts) marked, and "failing since run N (commit C)" for every leg
 * whose last stored run failed. Plain data; reports/report_charts.ts turns it into charts.
 * @module
 */
import { HistoryStore } from "../src/analyze/history.ts";
import { failingSince, historyChanges, historySeries } from "../src/analyze/history_changes.ts";

/** One trend chart. */
export interface HistoryTrend {
  /** `battery/leg`. */
  leg: string;
  /** Metric (`outcome`, `counter:NAME`, `time:STAGE`). */
  metric: string;
  /** Machine id of a timing series. */
  machine: string;
  /** Run ids (x axis). */
  runs: number[];
  /** Commits of those runs. */
  commits: string[];
  /** Values. */
  values: number[];
  /** Change points: index into runs of the first run after each, and its commit range. */
  changes: Array<{ index: number; run: number; commits: string; before: number; after: number }>;
}

/** The history section's data. */
export interface ReportHistory {
  /** The store. */
  store: string;
  /** Runs stored. */
  runs: number;
  /** Trends shown. */
  trends: HistoryTrend[];
  /** Legs failing in their last run, with the run they have failed since. */
  failing: Array<{ leg: string; since: number; commit: string; code: string }>;
}

/**
 * Reads the history section from a store. metrics: series to chart (`metric` or
 * `battery/leg metric`); default every series with a change point (at most `maxTrends`).
 */
export function reportHistory(
  path: string,
  opts: { metrics?: string[]; maxTrends?: number; timings?: string[] } = {},
): ReportHistory {
  const h = HistoryStore.open(path);
  try {
    const runs = h.runs(), legs = h.legs();
    const commit = new Map(runs.map((r) => [r.id, r.commit]));
    const cfg = { timings: opts.timings ?? ["total"] };
    const changes = historyChanges(runs, legs, cfg);
    const key = (leg: string, metric: string, machine: string) => `${leg} ${metric} ${machine}`;
    const chosen = opts.metrics?.length ? opts.metrics : null;
    const trends: HistoryTrend[] = [];
    for (const s of historySeries(runs, legs, cfg)) {
      const mine = changes.filter((c) =>
        key(c.leg, c.metric, c.machine) === key(s.leg, s.metric, s.machine)
      );
      const want = chosen
        ? chosen.some((m) => m === s.metric || m === `${s.leg} ${s.metric}`)
        : mine.length > 0;
      if (!want) continue;
      trends.push({
        leg: s.leg,
        metric: s.metric,
        machine: s.machine,
        runs: s.runs,
        commits: s.runs.map((r) => commit.get(r) ?? ""),
        values: s.values,
        changes: mine.map((c) => ({
          index: s.runs.indexOf(c.run.id),
          run: c.run.id,
          commits: c.commits,
          before: c.before,
          after: c.after,
        })),
      });
      if (trends.length >= (opts.maxTrends ?? 12)) break;
    }
    const failing: ReportHistory["failing"] = [];
    const byLeg = new Map<string, typeof legs>();
    for (const l of legs) {
      const k = `${l.battery}/${l.leg}`;
      if (!byLeg.has(k)) byLeg.set(k, []);
      byLeg.get(k)!.push(l);
    }
    for (const [leg, rows] of byLeg) {
      const since = failingSince(runs, rows);
      if (since) {
        failing.push({ leg, since: since.id, commit: since.commit, code: rows.at(-1)!.code });
      }
    }
    return { store: path, runs: runs.length, trends, failing };
  } finally {
    h.close();
  }
}
