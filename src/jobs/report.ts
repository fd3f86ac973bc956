/**
 * The report workflow (navscope report; the report steps of nightly, demo and triage): run logs
 * → the self-contained HTML page (reports/report_page.ts) with, as asked, drill-downs replayed
 * on packs, the verdict against a baseline (the same comparison as navscope diff:
 * src/jobs/diff.ts), a history's trends, replayed statistics for logs without plan lines, the
 * report data as JSON and a Chrome trace — all written together or not at all (docs/report.md).
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { writeFilesAtomic } from "../codec/file.ts";
import type { Leg } from "../legs/format.ts";
import { requireSomeInput } from "../analyze/log_pipeline.ts";
import {
  type ReportData,
  reportFromLogs,
  type ReportFromLogsOptions,
  setBaseline,
} from "../../reports/report_data.ts";
import { logLacksPlans, logStatsSource, replayReportStats } from "../../reports/report_replay.ts";
import { addDrilldowns } from "../../reports/report_drill.ts";
import { logLayers } from "../../reports/log_layers.ts";
import { reportHistory } from "../../reports/report_history.ts";
import { reportHtml } from "../../reports/report_page.ts";
import { TraceBuilder, traceJson } from "../../reports/trace.ts";
import { diffPaths } from "./diff.ts";
import { type OnJobEvent, warnParse } from "./progress.ts";

/** Options of {@link runReport}. */
export interface ReportJobOptions {
  /** Run logs: files, directories, globs, .gz, bundles. */
  logs: readonly string[];
  /** The HTML file to write. */
  out: string;
  /** Page title (default "navscope report"). */
  title?: string;
  /** Compare with this run (logs, replay folder, stats --json) as navscope diff does. */
  baseline?: string;
  /** The diff's thresholds file (default: the built-in thresholds). */
  thresholds?: string;
  /** With `baseline`: compare runs of different planner profiles. */
  acrossProfiles?: boolean;
  /** Replay failing legs on these packs for the drill-downs' pictures. */
  packs?: readonly string[];
  /** Battery legs whose test overrides apply on replay. */
  batteries?: readonly Leg[];
  /** Notes added to the page after the drill-downs (e.g. where the batteries came from). */
  notes?: readonly string[];
  /** Legs replayed for drill-downs at most (default 25). */
  drill?: number;
  /** Replay workers for the replayed statistics (default 1). */
  jobs?: number;
  /** A history store: trend charts and change points. */
  history?: string;
  /** The history series to chart (default: every series with a change point). */
  historyMetrics?: string[];
  /** Also write the report data as JSON here. */
  json?: string;
  /** Also write the stage timings as Chrome Trace Event JSON here. */
  trace?: string;
  /** Scatter points embedded at most (default 2000). */
  maxPoints?: number;
  /** Failing legs listed at most (default 2000). */
  maxLegs?: number;
  /** Stop at the first unreadable file or corrupt .gz. */
  strict?: boolean;
  /** The read's progress fraction and its warnings. */
  onProgress?: OnJobEvent;
}

/** What {@link runReport} wrote. */
export interface ReportJobResult {
  /** The page's data (as written with `json`). */
  data: ReportData;
  /** The page. */
  html: string;
}

/** Reads the logs, builds the page and writes it (with its data and trace) atomically. */
export async function runReport(o: ReportJobOptions): Promise<ReportJobResult> {
  const emit = o.onProgress;
  const packs = o.packs ?? [];
  const opts: ReportFromLogsOptions = {
    strict: o.strict,
    maxPoints: o.maxPoints ?? 2000,
    maxLegs: o.maxLegs ?? 2000,
    // The drill-down draws the log's planned path and observed track of each failing leg's run.
    runDetail: packs.length ? "failed" : undefined,
    onProgress: (fraction, label) => emit?.({ kind: "fraction", fraction, label }),
  };
  const trace = o.trace ? new TraceBuilder() : null;
  if (trace) opts.onPlan = (p) => trace.add(p);
  const { data, parse, acc, runs } = await reportFromLogs(o.logs, opts);
  warnParse(parse, emit);
  requireSomeInput(parse, o.logs);
  // Where the tier/stage/counter sections come from (issue 53): the log, or a replay of its legs
  // when the log carries no plan record and packs are given.
  data.stats_source = packs.length && logLacksPlans(data)
    ? await replayReportStats(data, o.logs, {
      packs: packs.map((path) => ({ path })),
      jobs: o.jobs ?? 1,
      strict: o.strict,
    })
    : logStatsSource(data);
  if (packs.length) {
    await addDrilldowns(data, acc, packs, {
      maxLegs: o.drill ?? 25,
      batteries: o.batteries ?? [],
      extraRoutes: logLayers(runs).routes,
    });
    data.notes.push(...(o.notes ?? []));
  }
  if (o.baseline !== undefined) {
    // The same comparison as navscope diff and nightly (src/jobs/diff.ts → src/analyze/diff.ts
    // diffRuns), so the report's verdict is theirs.
    const { report } = await diffPaths(o.baseline, o.logs[0], o.thresholds, undefined, {
      acrossProfiles: o.acrossProfiles === true,
      onProgress: emit,
    });
    await setBaseline(data, acc, report, o.baseline);
  }
  if (o.history !== undefined) {
    try {
      await Deno.stat(o.history);
    } catch {
      throw new NavscopeError(
        "io",
        "no history store",
        { file: o.history },
        "a store navscope history add wrote",
      );
    }
    data.history = reportHistory(o.history, { metrics: o.historyMetrics });
  }
  const html = await reportHtml(data, o.title ?? "navscope report");
  // The report, its data and its trace are written together or not at all.
  const files = [{ path: o.out, data: html }];
  if (o.json) files.push({ path: o.json, data: JSON.stringify(data, null, 2) + "\n" });
  if (trace && o.trace) files.push({ path: o.trace, data: traceJson(trace.trace()) });
  await writeFilesAtomic(files);
  return { data, html };
}

/** The legs.json files beside the packs (when they exist): the examples' layout. */
export async function batteriesBesidePacks(
  packs: readonly string[] | undefined,
): Promise<string[]> {
  const out: string[] = [];
  for (const p of packs ?? []) {
    const f = p.replace(/[^/]*$/, "") + "legs.json";
    try {
      if ((await Deno.stat(f)).isFile && !out.includes(f)) out.push(f);
    } catch {
      // No battery beside this pack.
    }
  }
  return out;
}
