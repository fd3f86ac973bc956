/**
 * The report's cost tables, rendered on the server as plain HTML (they need no script):
 * - the **work counters** (issue 26, docs/counters.md): sum, p50, p90 and max of every counter over
 *   all successful plans and per final tier, grouped by stage (the name's prefix before the dot),
 *   straight from `stats`' aggregation ({@link ReportData.counters});
 * - the **breakdown of "other"** (issue 28): each sub-stage's share of the total plan time, its
 *   sum, p50, p90 and max, and the unattributed remainder ({@link ReportData.stages}).
 * @module
 */
import { COUNTERS, OTHER_STAGES } from "../src/plan/counters.ts";
import { UNATTRIBUTED } from "../src/analyze/stats.ts";
import type { ReportData } from "./report_data.ts";

const COUNTER_WHAT = new Map<string, string>(COUNTERS.map(([n, w]) => [n, w]));
const OTHER_WHAT = new Map<string, string>([
  ...OTHER_STAGES.map(([n, w]) => [n, w] as [string, string]),
  [
    UNATTRIBUTED,
    "the rest of \u201cother\u201d: total \u2212 the six stages \u2212 the sub-stages",
  ],
]);

function esc(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

/** A number for a table cell: "-" when null, ms with at most 3 decimals. */
function num(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "-";
  return String(Number(v.toFixed(3)));
}

function pct(v: number | null): string {
  // A share over zero plans or zero time is "n/a", never 0.0 % (issue 53).
  return v === null ? "n/a" : (v * 100).toFixed(1) + " %";
}

/** The work-counter table (in a `<details>`), or a note when no plan line carried counters. */
export function counterTableHtml(d: ReportData): string {
  const c = d.counters;
  const intro = `<p class="muted">Machine-independent work: the nightly gate's performance ` +
    `signal. Deterministic counts of what each stage did (cells, tiles, heap pops, sight checks, ` +
    `chords), identical on every machine and for any --workers/--jobs, where a timing is only ` +
    `comparable on one machine. Hover a counter for what it counts; all names: docs/counters.md.</p>`;
  if (c.plans === 0) {
    // The product's navigator lines never carry counters: say so, not "older logs" (issue 53).
    const why = d.stats_source?.not_in_logs;
    return `${intro}<p class="note" id="counter-none">${
      why ? esc(why) : "No successful plan line carried work " +
        "counters (logs written before counters existed)."
    }</p>`;
  }
  const groups = [{ name: "all", plans: c.plans, rows: c.all }].concat(
    c.by_tier.map((t) => ({ name: `tier ${t.tier}`, plans: t.plans, rows: t.counters })),
  );
  const stats = ["sum", "p50", "p90", "max"] as const;
  let h = `<table id="counter-matrix"><thead><tr><th rowspan="2">counter</th>`;
  for (const g of groups) {
    h += `<th colspan="4" class="n">${esc(g.name)} <span class="muted">(${g.plans})</span></th>`;
  }
  h += `</tr><tr>` +
    groups.map(() => stats.map((s) => `<th class="n">${s}</th>`).join("")).join("") +
    `</tr></thead><tbody>`;
  let stage = "";
  const span = 1 + 4 * groups.length;
  for (let i = 0; i < c.all.length; i++) {
    const name = c.all[i].counter;
    const s = name.slice(0, name.indexOf("."));
    if (s !== stage) {
      stage = s;
      h += `<tr class="group"><th colspan="${span}" scope="rowgroup">${esc(s)}</th></tr>`;
    }
    // What it counts on hover: a text column would squeeze the wide number grid.
    h += `<tr><th scope="row" title="${esc(COUNTER_WHAT.get(name) ?? "")}">${esc(name)}</th>`;
    for (const g of groups) {
      const r = g.rows.find((x) => x.counter === name);
      // The group's last column closes it with a rule, as in the stage × tier table.
      h += stats.map((st) =>
        `<td class="n${st === "max" ? " last" : ""}">${r ? num(r[st]) : "-"}</td>`
      ).join("");
    }
    h += `</tr>`;
  }
  return `${intro}<div class="scroll">${h}</tbody></table></div>`;
}

/** The "other" breakdown table, or a note when no plan line carried the breakdown. */
export function otherTableHtml(d: ReportData): string {
  const o = d.stages.other_breakdown;
  if (o.plans === 0) {
    const why = d.stats_source?.not_in_logs;
    return `<p class="note" id="other-none">${
      why ? esc(why) : "No successful plan line carried the breakdown of " +
        "\u201cother\u201d (logs written before it existed)."
    }</p>`;
  }
  let h = `<p class="muted">Over the ${o.plans} successful plans whose line carried it; share = ` +
    `the sub-stage's summed time / the summed total plan time. Unattributed: ` +
    `${pct(o.unattributed_share)} of the total.</p>`;
  h += `<table id="other-breakdown"><thead><tr><th>sub-stage of \u201cother\u201d</th>` +
    `<th class="n">share of total</th><th class="n">sum ms</th><th class="n">p50 ms</th>` +
    `<th class="n">p90 ms</th><th class="n">max ms</th><th>what it times</th></tr></thead><tbody>`;
  // Largest first so a reader sees at once what "other" is made of; the remainder last.
  const rows = o.rows.filter((r) => r.stage !== UNATTRIBUTED).sort((a, b) => b.sum_ms - a.sum_ms)
    .concat(o.rows.filter((r) => r.stage === UNATTRIBUTED));
  for (const r of rows) {
    const cls = r.stage === UNATTRIBUTED ? ` class="unattributed"` : "";
    h += `<tr${cls}><th scope="row">${esc(r.stage)}</th><td class="n">${pct(r.share)}</td>` +
      `<td class="n">${num(r.sum_ms)}</td><td class="n">${num(r.p50_ms)}</td>` +
      `<td class="n">${num(r.p90_ms)}</td><td class="n">${num(r.max_ms)}</td>` +
      `<td class="muted">${esc(OTHER_WHAT.get(r.stage) ?? "")}</td></tr>`;
  }
  return `<div class="scroll">${h}</tbody></table></div>`;
}
