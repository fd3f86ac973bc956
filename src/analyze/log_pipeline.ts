/**
 * One-call pipelines over run logs: parse (streaming) → adapt → classify / aggregate. The
 * commands are thin shells over these; the library exports them for scripts and CI.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { parseLooseTimestamp } from "../logs/line.ts";
import { parseLogs } from "../logs/reader.ts";
import { RUN_EVENT_TYPES, RunCollector } from "./nav_runs.ts";
import { addRunCauses } from "./classify_runs.ts";
import { bundleFacts } from "./bundle_facts.ts";
import type { Leg, ParseReport } from "../logs/types.ts";
import { FailureCollector, PlanCollector } from "./log_collectors.ts";
import type { ClassifyBy, ClassifyReport } from "./classify_report.ts";
import { ClassifyAccumulator } from "./classify_report.ts";
import type { RuleSet } from "./rules.ts";
import { DEFAULT_RULE_SET } from "./rules.ts";
import type { StatsFilter, StatsReport } from "./stats.ts";
import { StatsAccumulator } from "./stats.ts";

/** Progress callback: fraction of input done (0…1, approximate) and a short label. */
export type ProgressFn = (fraction: number, label: string) => void;

/** Options common to the pipelines. */
export interface PipelineOptions {
  /** Stop with a NavscopeError at the first unreadable file or corrupt gzip. */
  strict?: boolean;
  /** Called every few thousand events. */
  onProgress?: ProgressFn;
}

/**
 * Lines the parser could not read: not in the logger layout, binary, truncated, or a
 * recognised message with a malformed value. (Whole-file problems are counted in
 * `report.problems.unreadable` / `bad_gzip`, not here.)
 */
export function unparsedLines(r: ParseReport): number {
  const p = r.problems;
  return p.garbage + p.binary + p.truncated + p.bad_field;
}

/** Files that could not be read (or gzip that broke), with the reason. */
export function fileProblems(r: ParseReport): Array<{ file: string; error: string }> {
  const out: Array<{ file: string; error: string }> = [];
  for (const f of r.files) {
    if (f.error !== "") out.push({ file: f.file, error: f.error });
    // Not valid UTF-8: messages in those lines may not be recognised (spec notes no legacy
    // encoding, so they are read with U+FFFD).
    if (f.nulChars > 0) {
      out.push({
        file: f.file,
        error: `${f.nulChars} NUL characters in ${f.nulRuns} run${f.nulRuns === 1 ? "" : "s"} ` +
          `dropped (a crash leaves them; the lines around them were read)`,
      });
    }
    if (f.nonUtf8Lines > 0) {
      out.push({
        file: f.file,
        error: `${f.nonUtf8Lines} line${f.nonUtf8Lines === 1 ? " is" : "s are"} not valid UTF-8 ` +
          `(read with U+FFFD; their messages may go unrecognised)`,
      });
    }
  }
  return out;
}

/**
 * Throws an `io` NavscopeError when no input could be read at all (missing files, globs that
 * matched nothing, unreadable or binary files, a broken .gz of which nothing decoded): "0
 * failures" would then say nothing about the logs. Some input read → the others are warnings.
 */
export function requireSomeInput(r: ParseReport, inputs: readonly string[]): void {
  if (r.files.some((f) => f.error === "" || f.lines > 0)) return;
  const first = r.files.find((f) => f.error !== "");
  const why = first
    ? `${r.files.length} input${
      r.files.length === 1 ? "" : "s"
    }, none readable; first: ${first.file}: ${first.error}`
    : `no log files found in ${inputs.join(", ")}`;
  throw new NavscopeError(
    "io",
    `no input could be read (${why})`,
    {},
    "at least one readable log file (*.log, *.txt, *.gz, maafw*)",
  );
}

function progressOf(r: ParseReport, sizes: Map<string, number>): [number, string] {
  const n = Math.max(1, sizes.size);
  const done = Math.max(0, r.files.length - 1);
  const cur = r.files[r.files.length - 1];
  const size = cur ? sizes.get(cur.file) ?? 0 : 0;
  const part = cur && size > 0 ? Math.min(1, cur.bytes / size) : 0;
  return [(done + part) / n, `${Math.min(r.files.length, n)}/${n} files, ${r.lines} lines`];
}

async function fileSizes(inputs: readonly string[]): Promise<Map<string, number>> {
  // Only for the progress bar: plain file arguments; directories/globs count as one unit each.
  const m = new Map<string, number>();
  for (const i of inputs) {
    try {
      const st = await Deno.stat(i);
      m.set(i, st.isFile ? st.size : 0);
    } catch {
      m.set(i, 0);
    }
  }
  return m;
}

const PROGRESS_EVERY = 4096;

/** Classifies every failure in the logs. */
export async function classifyLogs(
  inputs: readonly string[],
  opts: PipelineOptions & { rules?: RuleSet; by?: ClassifyBy } = {},
): Promise<{ report: ClassifyReport; parse: ParseReport }> {
  const stream = parseLogs(inputs, {
    strict: opts.strict,
    // Run machinery too: a failed run's cause (src/analyze/run_causes.ts).
    include: ["leg", "navmesh_load_failed", ...RUN_EVENT_TYPES],
  });
  const collector = new FailureCollector();
  const acc = new ClassifyAccumulator(opts.rules ?? DEFAULT_RULE_SET, opts.by ?? "class");
  const runs = new RunCollector(false);
  const sizes = opts.onProgress ? await fileSizes(inputs) : new Map();
  let n = 0;
  for await (const ev of stream) {
    runs.add(ev);
    for (const f of collector.add(ev)) acc.add(f);
    if (opts.onProgress && ++n % PROGRESS_EVERY === 0) {
      opts.onProgress(...progressOf(stream.report, sizes));
    }
  }
  for (const f of collector.finish()) acc.add(f);
  const report = acc.report(unparsedLines(stream.report), fileProblems(stream.report));
  addRunFacts(report, stream.report, runs);
  addRunCauses(report, runs.finish(), stream.report, opts.rules);
  return { report, parse: stream.report };
}

/** Legs, runs and bundles beside the failure counts (issue 35: runs beside legs). */
export function addRunFacts(
  report: { legs?: unknown; runs?: unknown; bundles?: unknown },
  parse: ParseReport,
  runs: RunCollector,
): void {
  const c = runs.counts();
  if (c.runs === 0 && parse.bundles.length === 0) return;
  report.legs = { total: parse.legs, failed: parse.failedLegs };
  if (c.runs > 0) {
    report.runs = {
      total: c.runs,
      failed: c.failedRuns,
      open: c.openRuns,
      with_failed_legs: c.runsWithFailedLegs,
    };
  }
  if (parse.bundles.length > 0) report.bundles = bundleFacts(parse);
}

/** Aggregates tier/timing statistics of the plan records in the logs. */
export async function statsLogs(
  inputs: readonly string[],
  opts: PipelineOptions & {
    filter?: StatsFilter;
    byZone?: boolean;
    /** Called with every leg of the logs (`stats --pack` looks up its replay, replay_stats.ts). */
    onLeg?: (leg: Leg) => void;
  } = {},
): Promise<{ report: StatsReport; parse: ParseReport }> {
  // Failures are counted as classify counts them (same events, same collector), so stats and
  // classify agree on the same logs, navigator lines included.
  const stream = parseLogs(inputs, {
    strict: opts.strict,
    include: ["plan", "leg", "navmesh_load_failed", "request", "node_result"],
  });
  const collector = new PlanCollector();
  const failures = new FailureCollector();
  const runs = new RunCollector(false);
  const acc = new StatsAccumulator(opts.filter ?? {}, opts.byZone ?? false);
  acc.countFailures();
  const sizes = opts.onProgress ? await fileSizes(inputs) : new Map();
  let n = 0;
  for await (const ev of stream) {
    runs.add(ev);
    if (opts.onLeg && ev.type === "leg") opts.onLeg(ev.leg);
    const p = collector.add(ev);
    if (p) acc.add(p.record, p.time);
    for (const f of failures.add(ev)) acc.addFailure(f.facts.zone, f.time);
    if (opts.onProgress && ++n % PROGRESS_EVERY === 0) {
      opts.onProgress(...progressOf(stream.report, sizes));
    }
  }
  for (const f of failures.finish()) acc.addFailure(f.facts.zone, f.time);
  const report = acc.report(unparsedLines(stream.report), fileProblems(stream.report));
  addRunFacts(report, stream.report, runs);
  return { report, parse: stream.report };
}

/**
 * Parses a `--since`/`--until` value to naive epoch ms (log timestamps are local time without a
 * zone and are read as if UTC, see src/logs/types.ts). Accepts `YYYY-MM-DD`,
 * `YYYY-MM-DD HH:MM`, `YYYY-MM-DD[ T]HH:MM:SS[.fff]`. A date alone means the start of that day,
 * or with `endOfDay` the start of the next day (so `--until 2026-10-03` includes Oct 3).
 */
export function parseTimeArg(flag: string, v: string, endOfDay = false): number {
  const s = v.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const t = Date.UTC(+m[1], +m[2] - 1, +m[3] + (endOfDay ? 1 : 0));
    if (validDate(+m[1], +m[2], +m[3])) return t;
  }
  m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/.exec(s);
  const t = parseLooseTimestamp(m ? `${m[1]} ${m[2]}:00` : s);
  if (!Number.isNaN(t) && validDate(+s.slice(0, 4), +s.slice(5, 7), +s.slice(8, 10))) return t;
  throw new NavscopeError(
    "usage",
    `${flag}: cannot read time "${v}"`,
    {},
    "YYYY-MM-DD, YYYY-MM-DD HH:MM or YYYY-MM-DD HH:MM:SS[.mmm]",
  );
}

function validDate(y: number, mo: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}
