/**
 * The synchronous core of the run-log parser: text chunks in, typed events out. It splits
 * lines (LF or CRLF, a cap on line length), reads the logger prefix, recognises the navigator
 * messages and navscope plan lines, pairs them into legs, and counts every bad line in a
 * {@link ParseReport}. It never throws for bad input; the async front end (`reader.ts`) feeds
 * it from files, gzip and globs.
 *
 * Cost model: an uninteresting line costs one `indexOf("\n")`, a slice, the prefix checks at
 * fixed offsets and one dispatch-table lookup; only recognised lines are scanned for fields.
 * @module
 */
import {
  emptyHead,
  headFromScan,
  HeadScan,
  quickScan,
  scanFields,
  scanHead,
  scanTime,
  truncationCut,
} from "./line.ts";
import { buildNodeResult, buildRequestEvent, eventBase, MESSAGES_BY_FIRST } from "./messages.ts";
import { LegPairer } from "./pairer.ts";
import type {
  FileReport,
  LineHead,
  LogEvent,
  LogEventType,
  ParseReport,
  ProblemKind,
} from "./types.ts";
import { field } from "./line.ts";

/** Options of every parse entry point. */
export interface ParseOptions {
  /** Throw a NavscopeError on an unreadable file or a corrupt .gz instead of counting it. */
  strict?: boolean;
  /** Longest line kept, in UTF-16 code units; longer lines are cut and counted as truncated. Default 1 MiB. */
  maxLineLength?: number;
  /** How many problems of each kind are kept with their file:line. Default 5. */
  maxProblems?: number;
  /** Event types to emit (default: all). Pairing still sees every event. */
  include?: readonly LogEventType[];
  /** Recurse into sub-directories of directory inputs. Default true. */
  recursive?: boolean;
}

/** Default line cap: MaaUtils itself cuts entries over 1 MiB (maaend-runlogs.md §1.1). */
export const DEFAULT_MAX_LINE = 1 << 20;

/** A report with all counts at zero. */
export function emptyReport(): ParseReport {
  return {
    files: [],
    bundles: [],
    bytes: 0,
    lines: 0,
    layoutLines: 0,
    recognized: 0,
    problems: {
      garbage: 0,
      binary: 0,
      non_utf8: 0,
      truncated: 0,
      bad_field: 0,
      bad_gzip: 0,
      binary_file: 0,
      unreadable: 0,
    },
    firstProblems: [],
    events: {},
    legs: 0,
    failedLegs: 0,
    replayableLegs: 0,
  };
}

/** A file entry with zero counts. */
export function emptyFileReport(file: string): FileReport {
  return {
    file,
    gzip: false,
    bytes: 0,
    lines: 0,
    firstTime: NaN,
    error: "",
    nonUtf8Lines: 0,
    nulChars: 0,
    nulRuns: 0,
    role: "log",
  };
}

/**
 * Line processor shared by every front end. Feed decoded text with `push` (any chunking), call
 * `endFile` at each file end and `finish` once at the very end; take events from `queue`.
 */
export class LogLineProcessor {
  /** Counts and first problems so far. */
  readonly report: ParseReport;
  /** Events produced and not yet taken (the caller drains it). */
  queue: LogEvent[] = [];
  #opts: Required<Pick<ParseOptions, "maxLineLength" | "maxProblems">>;
  #include: Set<LogEventType> | null;
  #pairer: LegPairer;
  #head: LineHead = emptyHead();
  #scan = new HeadScan();
  #fields: string[] = [];
  #file = "<memory>";
  #fileRep: FileReport = emptyFileReport("<memory>");
  #lineNo = 0;
  #carry = "";
  #carryCut = false;
  #perKind = new Map<ProblemKind, number>();

  constructor(opts: ParseOptions = {}, report: ParseReport = emptyReport()) {
    this.report = report;
    this.#opts = {
      maxLineLength: opts.maxLineLength ?? DEFAULT_MAX_LINE,
      maxProblems: opts.maxProblems ?? 5,
    };
    this.#include = opts.include ? new Set(opts.include) : null;
    this.#pairer = new LegPairer((e) => this.#emit(e));
  }

  /** Starts a new file (line numbers restart; pairing state carries over, as rotation does). */
  beginFile(rep: FileReport): void {
    this.#file = rep.file;
    this.#fileRep = rep;
    this.#lineNo = 0;
    this.#carry = "";
    this.#carryCut = false;
  }

  /** Records a problem: counted always, located for the first few of each kind. */
  problem(kind: ProblemKind, line: number, detail: string, file: string = this.#file): void {
    this.report.problems[kind]++;
    const seen = this.#perKind.get(kind) ?? 0;
    if (seen < this.#opts.maxProblems) {
      this.#perKind.set(kind, seen + 1);
      this.report.firstProblems.push({ kind, file, line, detail });
    }
  }

  /** Feeds decoded text; lines may span calls. */
  push(text: string): void {
    const cap = this.#opts.maxLineLength;
    let start = 0;
    const n = text.length;
    if (this.#carry !== "" || this.#carryCut) {
      const nl = text.indexOf("\n");
      if (nl < 0) {
        this.#append(text);
        return;
      }
      this.#append(text.slice(0, nl));
      const line = this.#carry;
      const cut = this.#carryCut;
      this.#carry = "";
      this.#carryCut = false;
      this.#line(line, cut);
      start = nl + 1;
    }
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      if (nl - start > cap) this.#line(text.slice(start, start + cap), true);
      else this.#line(text.slice(start, nl), false);
      start = nl + 1;
    }
    if (start < n) this.#append(text.slice(start));
  }

  #append(t: string): void {
    const room = this.#opts.maxLineLength - this.#carry.length;
    if (t.length <= room) this.#carry += t;
    else {
      if (room > 0) this.#carry += t.slice(0, room);
      this.#carryCut = true;
    }
  }

  /**
   * Ends the current file: a last line without a newline is still a line. `damaged` (the
   * bytes stopped early: a corrupt .gz) marks that last line as cut.
   */
  endFile(damaged = false): void {
    if (this.#carry !== "" || this.#carryCut) {
      const line = this.#carry;
      // The bytes stop inside a UTF-8 character (the decoder's final U+FFFD): the file was cut
      // mid-write, so its last line is incomplete.
      if (!damaged && line.endsWith("\ufffd")) {
        this.problem("truncated", this.#lineNo + 1, "the file ends inside a UTF-8 character");
      }
      const cut = this.#carryCut || damaged;
      this.#carry = "";
      this.#carryCut = false;
      this.#line(line, cut);
    }
  }

  /** Ends the input: emits every leg still waiting for a possible follow-up line. */
  finish(): void {
    this.endFile();
    this.#pairer.finish();
  }

  #emit(e: LogEvent): void {
    const r = this.report;
    r.events[e.type] = (r.events[e.type] ?? 0) + 1;
    if (e.type === "leg") {
      r.legs++;
      if (!e.leg.ok) r.failedLegs++;
      if (e.leg.replayable) r.replayableLegs++;
    }
    if (this.#include === null || this.#include.has(e.type)) this.queue.push(e);
  }

  #line(raw: string, cut: boolean): void {
    const lineNo = ++this.#lineNo;
    this.report.lines++;
    this.#fileRep.lines++;
    let s = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (lineNo === 1 && s.charCodeAt(0) === 0xfeff) s = s.slice(1); // BOM of in-memory text
    // NUL runs: a crash leaves the pre-allocated tail of the log as NULs (maaend-bundles.md
    // §1.5, MaaEndBot drops them too); they are dropped and counted, the rest of the line read.
    if (s.indexOf("\0") >= 0) s = this.#dropNuls(s);
    if (s.length === 0) return;
    if (this.#fileRep.role === "pipeline") return this.#boundary(s);
    // Invalid UTF-8 (a log written in a legacy code page, or damage): the decoder put U+FFFD
    // in; the spec records no legacy encoding for MaaFramework logs (maaend-runlogs.md §1.1),
    // so the line is not re-decoded, but it is counted so a message that no longer matches
    // is not silently "unclassified".
    const nonUtf8 = s.indexOf("\ufffd") >= 0;
    if (nonUtf8) this.#fileRep.nonUtf8Lines++;
    const m0 = quickScan(s);
    if (nonUtf8 && m0 >= 0) this.problem("non_utf8", lineNo, "invalid UTF-8 in a logger line");
    if (m0 < 0) {
      // deno-lint-ignore no-control-regex
      if (/[\u0000\ufffd]/.test(s)) this.problem("binary", lineNo, "binary or invalid UTF-8");
      else this.problem("garbage", lineNo, `not a log line: ${JSON.stringify(s.slice(0, 40))}`);
      return;
    }
    this.report.layoutLines++;
    const scan = this.#scan;
    if (Number.isNaN(this.#fileRep.firstTime)) {
      scanHead(s, scan);
      this.#fileRep.firstTime = scanTime(s, scan);
    }
    let truncated = false;
    if (cut) {
      truncated = true;
      this.problem("truncated", lineNo, `line longer than ${this.#opts.maxLineLength}; cut`);
    } else if (s.length >= 1024) {
      const c = truncationCut(s);
      if (c >= 0) {
        truncated = true;
        s = s.slice(0, c);
        this.problem("truncated", lineNo, "logger [TRUNCATED: …] entry");
      }
    }
    if (this.#dispatch(s, m0, lineNo, truncated)) return;
    if (s.charCodeAt(m0) === 91) return this.#framing(s, m0, lineNo, truncated);
    // Run framing lines from EventDispatcher/AgentServer: search the prefix only (backwards).
    if (s.lastIndexOf("[EventDispatcher", m0) > 0 || s.lastIndexOf("[AgentServer", m0) > 0) {
      this.#framing(s, m0, lineNo, truncated);
    }
  }

  #dropNuls(s: string): string {
    const rep = this.#fileRep;
    // deno-lint-ignore no-control-regex
    return s.replace(/\u0000+/g, (run) => {
      rep.nulChars += run.length;
      rep.nulRuns++;
      return "";
    });
  }

  /**
   * The pipeline log (top-level `maafw.log` of a bundle) gives task and node boundaries only
   * (maaend-bundles.md §6): its lines are counted, never parsed as plan lines.
   */
  #boundary(s: string): void {
    const b = this.#fileRep.boundaries ??= {
      tasksStarted: 0,
      tasksSucceeded: 0,
      tasksFailed: 0,
      nodeActionsFailed: 0,
    };
    const t = s.indexOf("Tasker.Task.");
    if (t >= 0) {
      if (s.startsWith("Starting", t + 12)) b.tasksStarted++;
      else if (s.startsWith("Succeeded", t + 12)) b.tasksSucceeded++;
      else if (s.startsWith("Failed", t + 12)) b.tasksFailed++;
    } else if (s.indexOf("Node.Action.Failed") >= 0) b.nodeActionsFailed++;
  }

  /** Recognises the message at `m`; false when none matched (nothing emitted). */
  #dispatch(s: string, m: number, lineNo: number, truncated: boolean): boolean {
    const c0 = s.charCodeAt(m);
    if (!(c0 < 128)) return false; // also NaN: an empty message at the end of the line
    const list = MESSAGES_BY_FIRST[c0];
    for (let i = 0; i < list.length; i++) {
      const spec = list[i];
      if (!s.startsWith(spec.text, m)) continue;
      // Confirm the candidate with the exact bracket scan (a prefix bracket holding "] " would
      // move the message start; GCC's `f() [with T = …]` ends in "]]", so it does not).
      const exact = scanHead(s, this.#scan);
      if (exact !== m) return exact > m ? this.#dispatch(s, exact, lineNo, truncated) : false;
      if (spec.only !== undefined && this.#include !== null && !this.#include.has(spec.only)) {
        // Recognised, counted, not built: nothing downstream reads it (see MessageSpec.only).
        this.report.recognized++;
        this.report.events[spec.only] = (this.report.events[spec.only] ?? 0) + 1;
        return true;
      }
      scanFields(s, m + spec.text.length, this.#fields);
      const head = this.#fillHead(s, truncated);
      const ev = spec.build(this.#fields, eventBase({ file: this.#file, line: lineNo }, head));
      this.#accept(ev, lineNo, spec.text);
      return true;
    }
    return false;
  }

  #fillHead(s: string, truncated: boolean): LineHead {
    const head = headFromScan(s, this.#scan, this.#head);
    head.truncated = truncated;
    return head;
  }

  /** Run framing: `[req={…}]` (MapNavigateAction start) and `[msg=Node.Action.…]` (end). */
  #framing(s: string, m: number, lineNo: number, truncated: boolean): void {
    const q = s.indexOf("[req=", m);
    const g = q < 0 ? s.indexOf("[msg=Node.Action.", m) : -1;
    if (q < 0 && g < 0) return;
    if (q >= 0 && s.indexOf("MapNavigateAction", q) < 0) return;
    scanFields(s, q >= 0 ? q : g, this.#fields);
    const base = eventBase({ file: this.#file, line: lineNo }, this.#fillHead(s, truncated));
    if (q >= 0) {
      const req = field(this.#fields, "req");
      if (req === undefined) return this.problem("bad_field", lineNo, "[req=…] unclosed");
      const ev = buildRequestEvent(req, base);
      if (ev !== null) this.#accept(ev, lineNo, "request");
    } else {
      const ev = buildNodeResult(this.#fields, base);
      if (ev !== null) this.#accept(ev, lineNo, "node result");
    }
  }

  #accept(ev: LogEvent | string, lineNo: number, what: string): void {
    if (typeof ev === "string") {
      // A cut line is already counted as truncated; its missing fields are no surprise.
      if (!this.#head.truncated) this.problem("bad_field", lineNo, `${what}: ${ev}`);
      return;
    }
    this.report.recognized++;
    this.#emit(ev);
    this.#pairer.push(ev);
  }
}

/**
 * Parses a whole log held in memory (tests, small logs, a pasted excerpt). Same rules as the
 * streaming parser; returns every event and the report.
 */
export function parseLogText(
  text: string,
  file = "<memory>",
  opts: ParseOptions = {},
): { events: LogEvent[]; report: ParseReport } {
  const p = new LogLineProcessor(opts);
  const rep = emptyFileReport(file);
  rep.bytes = new TextEncoder().encode(text).length;
  p.report.files.push(rep);
  p.report.bytes = rep.bytes;
  p.beginFile(rep);
  p.push(text);
  p.finish();
  return { events: p.queue, report: p.report };
}
