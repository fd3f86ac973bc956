/**
 * The run comparison as a workflow (navscope diff, and the gate inside nightly and report):
 * read both runs (logs, a replay folder or a stats --json file), compare them under the
 * thresholds (src/analyze/diff.ts) and render the Markdown summary (reports/diff_markdown.ts).
 * @module
 */
import {
  DEFAULT_THRESHOLDS,
  type DiffOptions,
  type DiffReport,
  diffRuns,
  loadThresholds,
  readRun,
  type TimingGate,
} from "../analyze/diff.ts";
import { diffMarkdown } from "../../reports/diff_markdown.ts";
import { type OnJobEvent, warnFiles } from "./progress.ts";

/** Options of {@link diffPaths} beyond the comparison's own. */
export interface DiffPathsOptions extends DiffOptions {
  /** Warnings (unreadable or partly read files of either run), as `from: "diff"`. */
  onProgress?: OnJobEvent;
}

/** What {@link diffPaths} returns: the comparison and its Markdown summary. */
export interface DiffPathsResult {
  report: DiffReport;
  markdown: string;
}

/**
 * Reads both runs, compares them and renders the Markdown summary. `thresholds` is a
 * navscope-thresholds file (default: the built-in thresholds); `timingGate` overrides its
 * `timing_gate`.
 */
export async function diffPaths(
  base: string,
  current: string,
  thresholds?: string,
  timingGate?: TimingGate,
  opts: DiffPathsOptions = {},
): Promise<DiffPathsResult> {
  let doc = thresholds ? await loadThresholds(thresholds) : DEFAULT_THRESHOLDS;
  if (timingGate) doc = { ...doc, timing_gate: timingGate };
  const b = await readRun(base);
  const c = await readRun(current);
  warnFiles([...b.fileProblems, ...c.fileProblems], opts.onProgress, "diff");
  const { onProgress: _, ...diffOpts } = opts;
  const report = diffRuns(b, c, doc, thresholds ?? "(defaults)", diffOpts);
  return { report, markdown: diffMarkdown(report) };
}
