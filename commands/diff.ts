/**
 * `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE]`: the nightly regression gate.
 * Prints a Markdown summary (for a CI comment); exit 0 pass, 1 usage or input error, 3
 * regression.
 * @module
 */
import {
  DEFAULT_THRESHOLDS,
  type DiffOptions,
  type DiffReport,
  diffRuns,
  loadThresholds,
  type MetricRow,
  readRun,
} from "../src/analyze/diff.ts";
import { NavscopeError } from "../src/errors.ts";
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
export const help =
  `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE] [--across-profiles]

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

Exit status: 0 pass; 1 usage or input error (unreadable run, bad thresholds file);
3 regression (a metric over its threshold).`;

/** Runs diff; exit 0 pass, 1 usage/input error, 3 regression. */
export async function run(args: string[]): Promise<number> {
  try {
    return await runDiff(args);
  } catch (e) {
    if (e instanceof NavscopeError) {
      // diff's contract: usage errors exit 1, like input errors (3 is the regression).
      io.err.write(`navscope diff: error: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

async function runDiff(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("diff", args, {
    thresholds: { type: "string" },
    json: { type: "string" },
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
  const { report, markdown } = await diffPaths(positionals[0], positionals[1], values.thresholds, {
    acrossProfiles: values["across-profiles"] === true,
  });
  if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(report, null, 2) + "\n");
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
}

/** Reads both runs, compares them and renders the Markdown summary. */
export async function diffPaths(
  base: string,
  current: string,
  thresholds?: string,
  opts: DiffOptions = {},
): Promise<{ report: DiffReport; markdown: string }> {
  const doc = thresholds ? await loadThresholds(thresholds) : DEFAULT_THRESHOLDS;
  const b = await readRun(base);
  const c = await readRun(current);
  warnFileProblems("diff", [...b.fileProblems, ...c.fileProblems]);
  const report = diffRuns(b, c, doc, thresholds ?? "(defaults)", opts);
  return { report, markdown: diffMarkdown(report) };
}

function val(unit: MetricRow["unit"], v: number | null, signed = false): string {
  if (v === null) return "-";
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
};

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
  if (r.regressions.length) {
    lines.push("Regressed:", "", ...r.regressions.map((m) => `- \`${m}\``), "");
  }
  const tables: TableModel[] = [{
    title: "Metrics",
    head: ["metric", "base", "current", "Δ", "Δ %", "threshold", "verdict"],
    rows: r.metrics.filter((m) => m.base !== null || m.current !== null).map((m) => [
      m.metric,
      val(m.unit, m.base),
      val(m.unit, m.current),
      val(m.unit, m.delta, true),
      m.delta_pct === null ? "-" : `${m.delta_pct > 0 ? "+" : ""}${m.delta_pct.toFixed(1)} %`,
      m.threshold,
      VERDICT[m.verdict],
    ]),
    align: ["left", "right", "right", "right", "right", "left", "left"],
  }];
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
