/**
 * Failure classification report: counts per class, distinct legs per class, first/last seen and
 * example locations, optionally grouped by zone or day. Streaming: failures are added one at a
 * time and only per-class aggregates (plus a set of leg keys) are kept.
 * @module
 */
import { formatTimestamp } from "../logs/line.ts";
import type { BundleFacts } from "./bundle_facts.ts";
import type { Failure } from "./log_collectors.ts";
import type { RuleSet } from "./rules.ts";
import type { RunCauseFields } from "./classify_runs.ts";
import { classifyFailure, DEFAULT_RULE_SET } from "./rules.ts";

/** How many example locations each class keeps (the first ones, in input order). */
export const MAX_EXAMPLES = 3;

/** One example failure: where it is and what it said. */
export interface ClassExample {
  /** Log file. */
  file: string;
  /** 1-based line. */
  line: number;
  /** Error text (or the route status when the log gave no text). */
  text: string;
  /** Battery leg id the plan line names (`[leg=…]`); absent when the line names none. */
  leg?: string;
}

/** One row of the report (stable JSON shape). */
export interface ClassRow {
  /** Class name. */
  class: string;
  /** Number of failures. */
  count: number;
  /** Number of distinct legs (zone + start + goal + deck, + the battery leg id when named). */
  legs: number;
  /** Earliest timestamp (`YYYY-MM-DD HH:MM:SS.mmm`, naive local time), null when unknown. */
  first_seen: string | null;
  /** Latest timestamp, null when unknown. */
  last_seen: string | null;
  /** The first {@link MAX_EXAMPLES} failures. */
  examples: ClassExample[];
}

/** A group of rows (`--by zone` / `--by day`). */
export interface ClassGroup {
  /** Zone name or day `YYYY-MM-DD` ("?" when unknown). */
  key: string;
  /** Failures in the group. */
  total: number;
  /** Rows of the group. */
  classes: ClassRow[];
}

/** Grouping of a classification report. */
export type ClassifyBy = "class" | "zone" | "day";

/** The report (`navscope classify --json`); run causes: src/analyze/classify_runs.ts. */
export interface ClassifyReport extends RunCauseFields {
  /** Failures classified. */
  total: number;
  /** Lines the log parser could not read (garbage, binary, truncated, bad fields). */
  unparsed_lines: number;
  /** Inputs that could not be read (or whose gzip broke; data before the damage is kept). */
  file_problems: Array<{ file: string; error: string }>;
  /** Rows over all failures, by count descending then class name. */
  classes: ClassRow[];
  /** Grouping used. */
  by: ClassifyBy;
  /** Groups, sorted by key; present only when `by` is `zone` or `day`. */
  groups?: ClassGroup[];
  /** Legs planned and failed, beside the failures (a failure is a failed leg or a load error). */
  legs?: { total: number; failed: number };
  /** Navigation runs (MapNavigateAction request → Node.Action result), when the logs have them. */
  runs?: { total: number; failed: number; open: number; with_failed_legs: number };
  /** The bundles read (MaaEnd log zips, extracted folders); absent for loose logs. */
  bundles?: BundleFacts[];
}

class RowAcc {
  count = 0;
  legs = new Set<string>();
  first = NaN;
  last = NaN;
  examples: ClassExample[] = [];

  add(f: Failure, text: string): void {
    this.count++;
    this.legs.add(f.leg);
    if (!Number.isNaN(f.time)) {
      if (!(f.time >= this.first)) this.first = f.time;
      if (!(f.time <= this.last)) this.last = f.time;
    }
    if (this.examples.length < MAX_EXAMPLES) {
      this.examples.push(
        f.legId ? { file: f.file, line: f.line, text, leg: f.legId } : {
          file: f.file,
          line: f.line,
          text,
        },
      );
    }
  }

  row(cls: string): ClassRow {
    return {
      class: cls,
      count: this.count,
      legs: this.legs.size,
      first_seen: Number.isNaN(this.first) ? null : formatTimestamp(this.first),
      last_seen: Number.isNaN(this.last) ? null : formatTimestamp(this.last),
      examples: this.examples,
    };
  }
}

function rowsOf(m: Map<string, RowAcc>): ClassRow[] {
  const rows = [...m].map(([k, a]) => a.row(k));
  rows.sort((a, b) => b.count - a.count || (a.class < b.class ? -1 : a.class > b.class ? 1 : 0));
  return rows;
}

/** Day of a naive epoch time, `YYYY-MM-DD`, or "?" when unknown. */
export function dayOf(t: number): string {
  return Number.isNaN(t) ? "?" : formatTimestamp(t).slice(0, 10);
}

/** Accumulates failures into a {@link ClassifyReport}. */
export class ClassifyAccumulator {
  private readonly all = new Map<string, RowAcc>();
  private readonly groups = new Map<string, Map<string, RowAcc>>();
  private total = 0;

  /** @param rules rule set to classify with; @param by grouping. */
  constructor(readonly rules: RuleSet = DEFAULT_RULE_SET, readonly by: ClassifyBy = "class") {}

  /** Classifies and counts one failure; returns its class. */
  add(f: Failure): string {
    const cls = classifyFailure(f.facts, this.rules).class;
    const text = f.facts.message || f.facts.status || f.facts.event;
    this.total++;
    acc(this.all, cls).add(f, text);
    if (this.by !== "class") {
      const key = this.by === "zone" ? (f.facts.zone || "?") : dayOf(f.time);
      let g = this.groups.get(key);
      if (!g) this.groups.set(key, g = new Map());
      acc(g, cls).add(f, text);
    }
    return cls;
  }

  /** The report so far. */
  report(
    unparsedLines = 0,
    fileProblems: Array<{ file: string; error: string }> = [],
  ): ClassifyReport {
    const out: ClassifyReport = {
      total: this.total,
      unparsed_lines: unparsedLines,
      file_problems: fileProblems,
      classes: rowsOf(this.all),
      by: this.by,
    };
    if (this.by !== "class") {
      const keys = [...this.groups.keys()].sort();
      out.groups = keys.map((key) => {
        const classes = rowsOf(this.groups.get(key)!);
        return { key, total: classes.reduce((s, r) => s + r.count, 0), classes };
      });
    }
    return out;
  }
}

function acc(m: Map<string, RowAcc>, k: string): RowAcc {
  let a = m.get(k);
  if (!a) m.set(k, a = new RowAcc());
  return a;
}
