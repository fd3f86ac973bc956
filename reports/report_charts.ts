/**
 * chart.js configurations of the HTML report, built from {@link ReportData} in the CLI (so the
 * page only instantiates them). Colours are theme tokens — `@0` … `@9` (series palette), `@fg`,
 * `@muted`, `@grid`, `@bad` — that the page replaces with the light or dark palette and
 * re-resolves when the colour scheme changes. Configs are plain JSON (no functions).
 * @module
 */
import type { ReportData } from "./report_data.ts";
import type { ReportHistory } from "./report_history.ts";
import { BAR_STAGES } from "./report_data.ts";
import { gloss, hasCjk } from "../src/logs/message_gloss.ts";

/** One chart of the page. */
export interface ChartSpec {
  /** Canvas id. */
  id: string;
  /** Section it belongs to. */
  section: "tiers" | "stages" | "history";
  /** Heading above the canvas. */
  title: string;
  /** chart.js config (type, data, options) with theme tokens. */
  config: Record<string, unknown>;
}

const pal = (i: number) => `@${i % 10}`;

function axes(x: string, y: string, extra: Record<string, unknown> = {}) {
  return {
    x: { title: { display: true, text: x }, ...(extra.x as object ?? {}) },
    y: { title: { display: true, text: y }, beginAtZero: true, ...(extra.y as object ?? {}) },
  };
}

const base = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  plugins: { legend: { position: "bottom" } },
};

/** The charts of a report. */
export function chartSpecs(d: ReportData): ChartSpec[] {
  const specs: ChartSpec[] = [];
  // No chart repeats a table: the failure classes and the per-tier total times are tables
  // (overview, tier section); the charts show what a table cannot (stacks, the scatter).
  const tiers = d.tiers.rows.map((r) => `tier ${r.tier}`);
  specs.push({
    id: "chart-tiers",
    section: "tiers",
    title: "Successful plans by final tier, stacked by escalation reasons",
    config: {
      type: "bar",
      data: {
        labels: tiers,
        datasets: d.tiers.stack_keys.map((k, i) => ({
          // Chinese reasons keep their wording, with the English gloss beside them.
          label: hasCjk(k) ? `${k} (${gloss(k)})` : k,
          data: d.tiers.rows.map((r) => r.stacks[k] ?? 0),
          backgroundColor: pal(i),
        })),
      },
      options: {
        ...base,
        scales: axes("final tier", "plans", { x: { stacked: true }, y: { stacked: true } }),
      },
    },
  });
  const byTier = new Map<number, Array<{ x: number; y: number }>>();
  for (const [x, y, t] of d.scatter.points) {
    let a = byTier.get(t);
    if (!a) byTier.set(t, a = []);
    a.push({ x, y });
  }
  const maxY = d.scatter.points.reduce((m, p) => Math.max(m, p[1]), 1);
  const scatterSets: Array<Record<string, unknown>> = [...byTier.keys()].sort((a, b) => a - b)
    .map((t, i) => ({
      label: `tier ${t}`,
      data: byTier.get(t),
      backgroundColor: pal(i),
      pointRadius: 2.5,
    }));
  scatterSets.push({
    type: "line",
    label: "3 M cells (kLocalMaxCells)",
    data: [{ x: d.scatter.line_cells, y: 0 }, { x: d.scatter.line_cells, y: maxY }],
    borderColor: "@bad",
    borderDash: [6, 4],
    borderWidth: 2,
    pointRadius: 0,
    showLine: true,
  });
  specs.push({
    id: "chart-scatter",
    section: "tiers",
    title: d.scatter.sampled
      ? `Window area vs total time (sample of ${d.scatter.points.length} of ${d.scatter.eligible} plans)`
      : "Window area vs total time",
    config: {
      type: "scatter",
      data: { datasets: scatterSets },
      options: { ...base, scales: axes("window cells", "total ms", { x: { beginAtZero: true } }) },
    },
  });
  specs.push({
    id: "chart-stages",
    section: "stages",
    title: "Mean stage time per final tier (ms, stacked)",
    config: {
      type: "bar",
      data: {
        labels: d.stages.per_tier.map((r) => `tier ${r.tier}`),
        datasets: BAR_STAGES.map((s, i) => ({
          label: s,
          data: d.stages.per_tier.map((r) => r.mean_ms[s]),
          backgroundColor: pal(i),
        })),
      },
      options: {
        ...base,
        scales: axes("final tier", "ms", { x: { stacked: true }, y: { stacked: true } }),
      },
    },
  });
  specs.push(...(d.history ? historyChartSpecs(d.history) : []));
  return specs;
}

/** The history section's charts: one trend per series, change points marked. */
export function historyChartSpecs(h: ReportHistory): ChartSpec[] {
  const specs: ChartSpec[] = [];
  // History trends (report --history): the series as a line, its change points as red
  // triangles on the first run after each change (a second dataset: plain JSON, no plugin).
  h.trends.forEach((t, i) => {
    specs.push({
      id: `chart-history-${i}`,
      section: "history",
      title: `${t.leg} ${t.metric}${t.machine ? ` (machine ${t.machine})` : ""}${
        t.changes.length
          ? `: change at run ${t.changes.map((c) => `${c.run} (${c.commits})`).join(", ")}`
          : ""
      }`,
      config: {
        type: "line",
        data: {
          labels: t.runs.map((r, j) =>
            `run ${r}${t.commits[j] ? ` ${t.commits[j].slice(0, 8)}` : ""}`
          ),
          datasets: [
            {
              label: t.metric,
              data: t.values,
              borderColor: pal(0),
              backgroundColor: pal(0),
              pointRadius: 2,
            },
            {
              label: "change point",
              data: t.values.map((v, j) => (t.changes.some((c) => c.index === j) ? v : null)),
              borderColor: "@bad",
              backgroundColor: "@bad",
              pointStyle: "triangle",
              pointRadius: 8,
              showLine: false,
            },
          ],
        },
        options: { ...base, scales: axes("run", t.metric) },
      },
    });
  });
  return specs;
}
