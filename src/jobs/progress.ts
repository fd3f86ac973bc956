/**
 * How a workflow (src/jobs/) tells its caller what it is doing without printing: one event type
 * for every job — a progress line, a warning (a skipped or partly read input file, a bundle
 * problem) and a progress fraction for a bar. The commands print them (commands/support/
 * terminal.ts `printJobEvent`); a library user may log, count or ignore them.
 * @module
 */
import { fileProblems } from "../analyze/log_pipeline.ts";
import type { ParseReport } from "../logs/types.ts";

/** One thing a job reports while it runs. */
export type JobEvent =
  /** A line of progress ("1/4 planned 108 legs …"). */
  | { kind: "step"; text: string }
  /**
   * A warning; `from` names the step it comes from when that is not the job itself (the diff
   * inside nightly), so its line reads as the step's own.
   */
  | { kind: "warning"; text: string; from?: string }
  /** Progress of a long step: `fraction` in 0…1, a short label; `force` draws it now. */
  | { kind: "fraction"; fraction: number; label: string; force?: boolean };

/** The progress callback every job takes. */
export type OnJobEvent = (event: JobEvent) => void;

/** Warning texts of unreadable or partly read input files (a corrupt .gz is read up to the damage). */
export function fileProblemWarnings(
  problems: ReadonlyArray<{ file: string; error: string }>,
): string[] {
  return problems.map((p) => {
    const partly = /; read up to line [1-9]|dropped \(a crash|not valid UTF-8/.test(p.error);
    return `${partly ? "partly read" : "skipped"} ${p.file}: ${p.error}`;
  });
}

/** Emits a parse's bundle warnings, then (unless `files` is false) its file problems. */
export function warnParse(
  parse: ParseReport,
  emit: OnJobEvent | undefined,
  opts: { files?: boolean; from?: string } = {},
): void {
  if (!emit) return;
  const from = opts.from ? { from: opts.from } : {};
  for (const b of parse.bundles) {
    for (const w of b.warnings) emit({ kind: "warning", text: w, ...from });
  }
  if (opts.files !== false) warnFiles(fileProblems(parse), emit, opts.from);
}

/** Emits one warning per problem file. */
export function warnFiles(
  problems: ReadonlyArray<{ file: string; error: string }>,
  emit: OnJobEvent | undefined,
  from?: string,
): void {
  if (!emit) return;
  for (const text of fileProblemWarnings(problems)) {
    emit({ kind: "warning", text, ...(from ? { from } : {}) });
  }
}
