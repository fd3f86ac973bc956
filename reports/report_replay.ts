/**
 * The report's tier, window, stage and counter sections through replay (issue 53): on the
 * product's logs (navigator lines carry no tier, window, reason or stage time) `report --pack`
 * replays every distinct leg once ({@link ReplayServe}, the records of `replay --all`) and
 * counts every log leg with its leg's replayed record, as `stats --pack` does. The sections then
 * say "replayed on PACK (build hash, profile, navscope version)"; the legs whose logged outcome
 * the replay contradicts get their own section. Without packs, on such logs, the sections say
 * "not in these logs — add --pack PACK to replay them".
 * @module
 */
import { parseLogs } from "../src/logs/reader.ts";
import type { LogEvent } from "../src/logs/types.ts";
import { ReplayServe, type ReplayServeOptions } from "../src/analyze/replay_stats.ts";
import { LOG_SOURCE, NOT_IN_LOGS, type ReportStatsSource } from "../src/analyze/stats_source.ts";

export type { ReportStatsSource } from "../src/analyze/stats_source.ts";
import { pct } from "../src/analyze/tables.ts";
import { ReportAccumulator, type ReportData } from "./report_data.ts";

/**
 * True when the logs carry no plan record (only navigator lines): the report's tier, window,
 * stage and counter sections have nothing from the log.
 */
export function logLacksPlans(d: ReportData): boolean {
  // Every plan record (navscope plan line) names its planner version; navigator lines none.
  return d.overview.versions.length === 0 && d.tiers.total_ms.length === 0;
}

/**
 * Replays the legs of `inputs` on the packs and replaces `d`'s tier, scatter, stage and counter
 * sections with the replayed ones; returns their source (also for the page's labels).
 */
export async function replayReportStats(
  d: ReportData,
  inputs: readonly string[],
  opts: ReplayServeOptions,
): Promise<ReportStatsSource> {
  const cache = await ReplayServe.open(inputs, opts);
  const acc = new ReportAccumulator();
  const stream = parseLogs(inputs, { strict: opts.strict, include: ["leg"] });
  for await (const ev of stream) {
    if (ev.type !== "leg") continue;
    const record = cache.serve(ev.leg);
    if (!record) continue;
    // The replayed record stands for this log leg, at the leg's own time and place.
    const plan: LogEvent = {
      type: "plan",
      record,
      src: ev.src,
      head: { ...ev.head, time: ev.leg.time },
    };
    acc.add(plan);
  }
  acc.finish();
  const r = acc.data(inputs, { unparsed: 0, problems: [] });
  d.tiers = r.tiers;
  d.scatter = r.scatter;
  d.stages = r.stages;
  d.counters = r.counters;
  return { source: cache.source, legs: cache.legCounts(), contradictions: cache.contradictions() };
}

/** The source when nothing was replayed: the log, and why the sections are empty if they are. */
export function logStatsSource(d: ReportData): ReportStatsSource {
  return logLacksPlans(d) ? { source: LOG_SOURCE, not_in_logs: NOT_IN_LOGS } : {
    source: LOG_SOURCE,
  };
}

function esc(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

/** The label paragraph under the tier and stage headings. */
export function sourceHtml(s: ReportStatsSource | undefined): string {
  if (!s) return "";
  let h = `<p class="source muted">Source: ${esc(s.source.label)}.</p>`;
  if (s.not_in_logs) h += `<p class="not-in-logs"><strong>${esc(s.not_in_logs)}</strong></p>`;
  if (s.legs) {
    const l = s.legs;
    h +=
      `<p class="muted">${l.served} of ${l.log_legs} log legs counted with the replay of their ` +
      `distinct leg: ${l.distinct} distinct legs replayed, ${l.cache_hits} served from the ` +
      `cache (hit rate ${pct(l.cache_hit_rate)})${
        l.not_replayed.map((n) => `; not replayed: ${n.legs} (${esc(n.reason)})`).join("")
      }.</p>`;
  }
  return h;
}

/** The section of the legs the replay contradicts ("" without a replay). */
export function contradictionsHtml(s: ReportStatsSource | undefined): string {
  if (!s?.contradictions) return "";
  const rows = s.contradictions.map((c) =>
    `<tr><td><code>${esc(c.key)}</code></td><td>${esc(c.what)}</td><td class="n">${c.logged_ok}` +
    `</td><td class="n">${c.logged_failed}</td><td>${esc(c.logged_class)}</td><td>${
      esc(c.replay_class === "ok" ? `ok (tier ${c.replay_tier})` : c.replay_class)
    }</td><td class="muted">${esc(c.where)}</td></tr>`
  ).join("");
  const body = s.contradictions.length
    ? `<table><thead><tr><th>leg</th><th>contradiction</th><th class="n">logged ok</th>` +
      `<th class="n">logged failed</th><th>logged class</th><th>replay</th><th>first seen</th>` +
      `</tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">None: every replayed leg agrees with its log.</p>`;
  return `<section id="contradictions"><h2>Legs the replay contradicts</h2>` +
    `<p class="source muted">Source: ${esc(s.source.label)}.</p>${body}</section>`;
}

/**
 * The replayed statistics in a few Markdown lines (the triage comment): the tier distribution,
 * the cache, and the legs whose logged outcome the replay contradicts. Empty without a replay.
 */
export function statsMarkdownLines(d: ReportData): string[] {
  const s = d.stats_source;
  if (!s?.legs) return [];
  const tiers = d.tiers.total_ms.map((t) => `tier ${t.tier}: ${t.count}`).join(", ") || "none";
  const l = s.legs;
  const out = [
    `**Tier distribution, ${s.source.label}:** ${tiers} successful plans; finished at tier 0: ` +
    `${pct(d.tiers.tier0_share)} (${l.served} of ${l.log_legs} log legs, ${l.distinct} ` +
    `distinct legs replayed).`,
  ];
  const c = s.contradictions ?? [];
  if (c.length) {
    out.push("", `**Legs the replay contradicts** (${c.length}):`, "");
    for (const x of c) {
      out.push(
        `- \`${x.key}\`: ${x.what} (logged ${x.logged_ok} ok / ${x.logged_failed} failed, ` +
          `${x.logged_class} → ${x.replay_class}; first seen ${x.where})`,
      );
    }
  }
  return out;
}
