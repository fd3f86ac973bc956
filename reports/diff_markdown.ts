/**
 * The Markdown summary of a run comparison (navscope diff, nightly, the report's verdict): the
 * verdict, both sides, the machines and whether timings were gated, the metric tables and the
 * new, fixed and changed legs — for a CI comment (docs/diff_and_nightly.md, docs/gate.md).
 * @module
 */
import {
  type DiffReport,
  isCostMetric,
  type MetricRow,
  REBASELINE_HINT,
} from "../src/analyze/diff.ts";
import { describeMachine, MACHINE_FILE, machineDifference } from "../src/analyze/machine.ts";
import { fmtNum, renderMarkdown, type TableModel } from "./table_text.ts";

function val(unit: MetricRow["unit"], v: number | null, signed = false): string {
  // A rate over zero plans is null: "n/a", never 0.00 % (issue 53).
  if (v === null) return unit === "rate" ? "n/a" : "-";
  const sign = signed && v > 0 ? "+" : "";
  if (unit === "rate") return `${sign}${(v * 100).toFixed(2)} %`;
  return sign + fmtNum(v);
}

const VERDICT: Record<MetricRow["verdict"], string> = {
  pass: "pass",
  regression: "**REGRESSION**",
  improved: "improved",
  info: "info",
  "n/a": "n/a",
  "too few samples": "too few samples",
  "not comparable": "not comparable across machines",
};

/** The machine lines of the summary (short: the Markdown stays within deno fmt's width). */
function machineLines(m: DiffReport["machines"]): string[] {
  const out = m.same ? [`- machine: ${describeMachine(m.current)}`] : [
    `- base machine: ${describeMachine(m.base)}`,
    `- current machine: ${describeMachine(m.current)}`,
  ];
  if (m.timing_gated) {
    out.push(`- timings: gated (${m.same ? "same machine" : `timing_gate "${m.timing_gate}"`})`);
  } else if (m.timing_gate === "never") {
    out.push(`- timings: not gated (timing_gate "never")`);
  } else {
    const why = m.base && m.current
      ? machineDifference(m.base, m.current) || "CPU model unknown"
      : `${m.base ? "current" : m.current ? "base" : "neither"} run has no ${MACHINE_FILE}`;
    out.push(`- timings: not comparable across machines (${why}): shown, never failed on`);
  }
  return out;
}

/** The Markdown summary of a diff. */
export function diffMarkdown(r: DiffReport): string {
  const head = r.verdict === "pass"
    ? "## navscope diff: PASS"
    : `## navscope diff: REGRESSION (${r.regressions.length} metric${
      r.regressions.length === 1 ? "" : "s"
    } over threshold)`;
  const side = (s: DiffReport["base"]) =>
    `\`${s.source}\` (${s.kind}, ${s.plans === null ? "?" : s.plans} plans)`;
  const lines = [
    head,
    "",
    `- base: ${side(r.base)}`,
    `- current: ${side(r.current)}`,
    `- thresholds: ${r.thresholds}`,
    `- new failing legs: ${r.new_failing_legs.length}; fixed legs: ${r.fixed_legs.length}`,
    ...machineLines(r.machines),
  ];
  // The profile line only when a run is not plain `spec` (older summaries stay as they were).
  if ([...r.profiles.base, ...r.profiles.current].some((p) => p !== "spec")) {
    lines.push(
      `- planner profiles: base ${r.profiles.base.join(", ") || "?"}, current ${
        r.profiles.current.join(", ") || "?"
      }${r.changed_legs ? `; legs changed across profiles: ${r.changed_legs.length}` : ""}`,
    );
  }
  lines.push("");
  if (!r.machines.timing_gated && r.machines.timing_gate === "same_machine") {
    lines.push(
      "To gate timings: re-record the base on this machine (nightly:",
      `\`${REBASELINE_HINT}\`), compare both versions here with`,
      "`deno task nightly --ab REF`, or force the gate with `--timing-gate always`.",
      "",
    );
  }
  if (r.regressions.length) {
    lines.push("Regressed:", "", ...r.regressions.map((m) => `- \`${m}\``), "");
  }
  const row = (m: MetricRow) => [
    m.metric,
    val(m.unit, m.base),
    val(m.unit, m.current),
    val(m.unit, m.delta, true),
    // A change relative to a zero base is no percentage at all: n/a, never 0.0 % (issue 53).
    m.delta_pct === null
      ? (m.base === 0 ? "n/a" : "-")
      : `${m.delta_pct > 0 ? "+" : ""}${m.delta_pct.toFixed(1)} %`,
    m.threshold,
    VERDICT[m.verdict],
  ];
  const cols = ["metric", "base", "current", "Δ", "Δ %", "threshold", "verdict"];
  const align: TableModel["align"] = ["left", "right", "right", "right", "right", "left", "left"];
  const present = r.metrics.filter((m) => m.base !== null || m.current !== null);
  const tables: TableModel[] = [{
    title: "Metrics",
    head: cols,
    rows: present.filter((m) => !isCostMetric(m.metric)).map(row),
    align,
  }];
  const cost = present.filter((m) => isCostMetric(m.metric));
  if (cost.length) {
    // Hundreds of cost metrics: show what moved a verdict, and the counters that changed.
    const shown = cost.filter((m) =>
      m.verdict === "regression" || m.verdict === "improved" ||
      (m.metric.startsWith("counters.") && m.delta !== null && m.delta !== 0)
    );
    const gated = cost.filter((m) => m.threshold_key !== "" && m.verdict !== "info");
    const counters = cost.filter((m) => m.metric.startsWith("counters."));
    const changed = counters.filter((m) => m.delta !== null && m.delta !== 0).length;
    tables.push({
      title: "Work counters and other cost metrics",
      head: cols,
      rows: shown.map(row),
      align,
      notes: [
        `${cost.length} cost metrics compared (${gated.length} gated); work counters: ${
          counters.length === 0
            ? "none recorded"
            : `${changed} of ${counters.length} counter metrics changed`
        }. Shown: the changed counters and every regression or improvement (all in --json).`,
      ],
    });
  }
  if (r.new_failing_legs.length) {
    tables.push({
      title: `New failing legs (${r.new_failing_legs.length})`,
      head: ["leg", "class"],
      rows: r.new_failing_legs.map((l) => [l.leg, l.class]),
    });
  }
  if (r.fixed_legs.length) {
    tables.push({
      title: `Fixed legs (${r.fixed_legs.length})`,
      head: ["leg", "class before"],
      rows: r.fixed_legs.map((l) => [l.leg, l.class]),
    });
  }
  if (r.changed_legs?.length) {
    tables.push({
      title: `Legs changed across profiles (${r.changed_legs.length})`,
      head: ["leg", "base", "current"],
      rows: r.changed_legs.map((l) => [l.leg, l.base, l.current]),
    });
  }
  return lines.join("\n") + "\n" + renderMarkdown(tables);
}
