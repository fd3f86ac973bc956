/**
 * `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE]`: the nightly regression gate.
 * Prints a Markdown summary (for a CI comment); exit 0 pass, 1 input error, 2 usage, 3
 * regression.
 * @module
 */
import {
  DEFAULT_THRESHOLDS,
  type DiffOptions,
  type DiffReport,
  diffRuns,
  isCostMetric,
  loadThresholds,
  type MetricRow,
  readRun,
  REBASELINE_HINT,
  TIMING_GATES,
  type TimingGate,
} from "../src/analyze/diff.ts";
import { describeMachine, MACHINE_FILE, machineDifference } from "../src/analyze/machine.ts";
import { NavscopeError } from "../src/errors.ts";
import { writeFileAtomic } from "../src/codec/file.ts";
import { requireWritable } from "./support/preflight.ts";
import {
  fmtNum,
  io,
  parseFlags,
  renderMarkdown,
  type TableModel,
  warnFileProblems,
} from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Compare two runs (logs, replay dir, stats --json): the nightly gate";

/** Usage text. */
export const help = `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE]
                    [--timing-gate same_machine|always|never] [--across-profiles]

Compares two runs, each given as run logs (file, directory or glob), a replay output directory
(replay.json + replay.log) or a stats --json file: plans and success rate, failures per class,
distinct failing legs added and removed, tier distribution, per-stage timing p50/p90/max of the
successful plans. Prints a Markdown summary (verdict, metric table base → current with Δ, the
new failing legs) for a CI comment.

  --across-profiles   compare runs planned under different planner profiles (refused
                      otherwise) and list the legs whose outcome, tier, points or length
                      changed (docs/profiles.md)
  --thresholds FILE   navscope-thresholds JSON (see README "navscope diff"); merged over the
                      defaults: outcomes strict, timings +25/50/100 % over a 2/5/20 ms noise
                      floor for p50/p90/max. A threshold naming an unknown metric is an error.
  --json FILE         also write the comparison as JSON to FILE
  --timing-gate G     when timing.* metrics are judged (overrides the thresholds file's
                      "timing_gate"): same_machine (default: only when both runs carry the
                      same machine fingerprint, machine.json beside the logs or "machine" in a
                      stats file; otherwise they are shown as "not comparable across
                      machines" and never fail), always, never. See docs/gate.md.

Exit status: 0 pass; 1 input error (unreadable run, bad thresholds file); 2 usage;
3 regression (a metric over its threshold).`;

/** Runs diff; exit 0 pass, 1 input error, 2 usage, 3 regression. */
export async function run(args: string[]): Promise<number> {
  try {
    return await runDiff(args);
  } catch (e) {
    if (e instanceof NavscopeError) {
      // The exit-code rule of every command (docs/exit_codes.md): 2 usage, 1 bad input.
      io.err.write(`navscope diff: error: ${e.message.replace(/^diff: /, "")}\n`);
      return e.code === "usage" ? 2 : 1;
    }
    throw e;
  }
}

async function runDiff(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("diff", args, {
    thresholds: { type: "string" },
    json: { type: "string" },
    "timing-gate": { type: "string" },
    "across-profiles": { type: "boolean" },
  });
  if (positionals.length !== 2) {
    throw new NavscopeError(
      "usage",
      `diff needs BASE and CURRENT, got ${positionals.length} argument${
        positionals.length === 1 ? "" : "s"
      } (see navscope diff --help)`,
    );
  }
  await requireWritable([{ path: values.json, what: "the comparison (--json)" }]);
  const gate = values["timing-gate"];
  if (gate !== undefined && !TIMING_GATES.includes(gate as TimingGate)) {
    throw new NavscopeError(
      "usage",
      `unknown --timing-gate "${gate}"`,
      {},
      TIMING_GATES.join(", "),
    );
  }
  const { report, markdown } = await diffPaths(
    positionals[0],
    positionals[1],
    values.thresholds,
    gate as TimingGate | undefined,
    { acrossProfiles: values["across-profiles"] === true },
  );
  if (values.json) await writeFileAtomic(values.json, JSON.stringify(report, null, 2) + "\n");
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
}

/** Reads both runs, compares them and renders the Markdown summary. */
export async function diffPaths(
  base: string,
  current: string,
  thresholds?: string,
  timingGate?: TimingGate,
  opts: DiffOptions = {},
): Promise<{ report: DiffReport; markdown: string }> {
  let doc = thresholds ? await loadThresholds(thresholds) : DEFAULT_THRESHOLDS;
  if (timingGate) doc = { ...doc, timing_gate: timingGate };
  const b = await readRun(base);
  const c = await readRun(current);
  warnFileProblems("diff", [...b.fileProblems, ...c.fileProblems]);
  const report = diffRuns(b, c, doc, thresholds ?? "(defaults)", opts);
  return { report, markdown: diffMarkdown(report) };
}

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
