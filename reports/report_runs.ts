/**
 * The report's runs section (issue 53): every failed navigation run with its terminal cause and
 * cause chain, node, zone, duration, replans and zipline hops; the data (embedded in the page's
 * JSON as `failed_runs`) and its server-rendered table.
 * @module
 */
import type { NavRun } from "../src/analyze/nav_runs.ts";
import type { RuleSet } from "../src/analyze/rules.ts";
import { runCause, runEnd } from "../src/analyze/run_causes.ts";

/** Failed runs listed at most (the counts by cause cover all). */
export const MAX_RUN_ROWS = 500;

/** One failed run of the report (stable JSON shape). */
export interface RunRow {
  /** 1-based index of the run among all runs, in log order. */
  run: number;
  node: string;
  task: string;
  /** Terminal cause (docs/run_causes.md). */
  cause: string;
  /** Causes in order, terminal last. */
  chain: string[];
  /** Navmesh zone ("" when the log names none). */
  zone: string;
  /** Request time as written. */
  start: string;
  /** Request to end, s; null when a time is missing. */
  duration_s: number | null;
  /** `Navigation route replaced.` lines. */
  replans: number;
  /** `NavRunController soft replan.` lines. */
  soft_replans: number;
  /** Zipline hops and their outcomes. */
  zipline_hops: number;
  hop_outcomes: string[];
  /** Distance of the last fix off the last planned path, px; null when unknown. */
  off_route_px: number | null;
  /** `file:line` of the request. */
  at: string;
}

/** The runs section's data. */
export interface ReportRuns {
  /** Runs in the logs. */
  total: number;
  /** Failed runs (`Node.Action.Failed`). */
  failed: number;
  /** Failed runs by terminal cause, most first. */
  by_cause: Array<{ cause: string; runs: number }>;
  /** The failed runs (at most {@link MAX_RUN_ROWS}). */
  rows: RunRow[];
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** The runs section's data of `runs`. */
export function reportRuns(runs: readonly NavRun[], rules?: RuleSet): ReportRuns {
  const rows: RunRow[] = [];
  const by = new Map<string, number>();
  let failed = 0;
  for (const r of runs) {
    const c = runCause(r, rules);
    if (!c) continue;
    failed++;
    by.set(c.cause, (by.get(c.cause) ?? 0) + 1);
    if (rows.length >= MAX_RUN_ROWS) continue;
    const e = runEnd(r);
    const d = r.endMs - r.startMs;
    rows.push({
      run: r.index,
      node: r.nodeName,
      task: r.taskId,
      cause: c.cause,
      chain: c.chain.map((l) => l.cause),
      zone: e.zone || r.zone,
      start: r.start,
      duration_s: Number.isFinite(d) ? r1(d / 1000) : null,
      replans: r.replans,
      soft_replans: r.softReplans,
      zipline_hops: r.hops.length,
      hop_outcomes: r.hops.map((h) => h.outcome),
      off_route_px: e.offRoutePx === null ? null : r1(e.offRoutePx),
      at: r.at,
    });
  }
  return {
    total: runs.length,
    failed,
    by_cause: [...by].map(([cause, n]) => ({ cause, runs: n }))
      .sort((a, b) => b.runs - a.runs || (a.cause < b.cause ? -1 : 1)),
    rows,
  };
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The runs section of the page ("" when the logs have no runs). */
export function runsSectionHtml(d: ReportRuns | undefined): string {
  if (!d) return "";
  const head = ["run", "node", "cause", "chain", "zone", "duration", "replans", "zipline hops"];
  const rows = d.rows.map((r) =>
    `<tr><td>${r.run}</td><td>${esc(r.node)}</td><td><code>${esc(r.cause)}</code></td><td>${
      esc(r.chain.join(" → "))
    }</td><td>${esc(r.zone || "-")}</td><td>${
      r.duration_s === null ? "-" : `${r.duration_s} s`
    }</td><td>${r.replans} (+${r.soft_replans} soft)</td><td>${r.zipline_hops}${
      r.hop_outcomes.length ? ` (${esc(r.hop_outcomes.join("; "))})` : ""
    }</td></tr>`
  ).join("\n");
  const causes = d.by_cause.map((c) => `<code>${esc(c.cause)}</code> ${c.runs}`).join(", ");
  return `<section id="runs-section"><h2>Failed runs (${d.failed} of ${d.total} runs)</h2>
<p class="muted">Every navigation run that ended in Node.Action.Failed, with its terminal cause; the chain lists the causes in order, terminal last (docs/run_causes.md).${
    d.failed > d.rows.length ? ` The first ${d.rows.length} are listed.` : ""
  }</p>
<p>${causes || "No failed run."}</p>
${
    d.rows.length
      ? `<table id="runs"><thead><tr>${
        head.map((h) => `<th>${h}</th>`).join("")
      }</tr></thead><tbody>
${rows}
</tbody></table>`
      : ""
  }
</section>`;
}
