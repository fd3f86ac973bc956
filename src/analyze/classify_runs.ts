/**
 * `classify`'s failed runs by cause (issue 53) and the message kinds the parser could not
 * place: the JSON fields and the tables, beside the planner classes.
 * @module
 */
import type { ParseReport } from "../logs/types.ts";
import { topUnknownKinds } from "../logs/run_messages.ts";
import type { RuleSet } from "./rules.ts";
import { type RunCauseRow, runCauseRows } from "./run_causes.ts";
import type { NavRun } from "./nav_runs.ts";

/** How many unknown message kinds a report lists (the most frequent). */
export const MAX_LISTED_KINDS = 20;

/** The run fields of a classification report (both absent when the logs have no runs). */
export interface RunCauseFields {
  /** Failed runs by terminal cause (docs/run_causes.md). */
  run_causes?: RunCauseRow[];
  /** Logger lines no message matched, by kind, most first (at most {@link MAX_LISTED_KINDS}). */
  unknown_kinds?: Array<{ kind: string; lines: number }>;
}

/** Adds the failed runs by cause and the unknown kinds (when the logs have runs). */
export function addRunCauses(
  report: RunCauseFields,
  runs: readonly NavRun[],
  parse: ParseReport,
  rules?: RuleSet,
): void {
  if (runs.length === 0) return;
  report.run_causes = runCauseRows(runs, rules);
  report.unknown_kinds = topUnknownKinds(parse.unknownKinds, MAX_LISTED_KINDS);
}

/** The tables of {@link addRunCauses}' fields (none when absent). */
export function runCauseTables(rep: RunCauseFields): Array<{
  title: string;
  head: string[];
  rows: Array<Array<string | number | null>>;
  notes?: string[];
}> {
  if (!rep.run_causes) return [];
  const out = [{
    title: "Failed runs by cause",
    head: ["cause", "runs", "chains", "example"],
    rows: rep.run_causes.map((r) => [
      r.cause,
      r.runs,
      r.chains.map((c) => `${c.chain} ×${c.runs}`).join("; "),
      r.examples[0] ? `${r.examples[0].node || "?"} (${r.examples[0].at})` : "",
    ]),
    notes: [
      "cause = the terminal cause; chain = causes in order, terminal last (docs/run_causes.md)",
    ],
  }];
  if (rep.unknown_kinds && rep.unknown_kinds.length > 0) {
    out.push({
      title: "Lines not placed, by message kind",
      head: ["kind", "lines"],
      rows: rep.unknown_kinds.map((k) => [k.kind, k.lines]),
      notes: ["log lines no navscope message matched (digits masked as #)"],
    });
  }
  return out;
}
