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
import { countUnknownKind, unknownKindOf } from "./run_messages.ts";
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
  /**
   * Parse workers for large files (lines are read in parallel blocks, events paired in order;
   * the result is the same for any number). Default: up to 2, as the machine has cores; 0 reads
   * every file on the calling thread.
   */
  workers?: number;
  /** Bytes per parse-worker block (default 2 MiB; tests use small blocks). */
  blockBytes?: number;
}

/**
 * What a block of whole lines gave a processor in collect mode (a parse worker): the events
 * before pairing, in line order, and the counts, with line numbers from 1 at the block start.
 * {@link LogLineProcessor.absorb} adds them to a processor as if it had read the lines itself.
 */
export interface BlockResult {
  /** Accepted events (not yet paired), `src.line` relative to the block. */
  events: LogEvent[];
  /** Counts of the block: lines, layoutLines, recognized, problems, and `events` of the
   * recognised-but-not-built messages; firstProblems located within the block. */
  report: ParseReport;
  /** The block's file counters: lines, nonUtf8Lines, nulChars, nulRuns, firstTime, boundaries. */
  file: FileReport;
}

/** How many confirmed line prefixes the parser remembers. */
const CONFIRMED_PREFIXES = 4;

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
    unknownKinds: {},
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
  /** Line prefixes (level to message) already confirmed by the exact scan; see #dispatch. */
  #confirmed: string[] = [];
  #confirmedNext = 0;
  /** The next line is its file's first (a byte-order mark there is dropped). */
  #atFileStart = true;
  /** Collect mode: accepted events are kept here for a later absorb, not emitted or paired. */
  readonly #collected: LogEvent[] | null;

  /**
   * `collect`: the processor of a parse worker — events are kept for {@link takeBlock}, never
   * emitted or paired (pairing needs every block in order: the owner's processor does it).
   */
  constructor(opts: ParseOptions = {}, report: ParseReport = emptyReport(), collect = false) {
    this.report = report;
    this.#collected = collect ? [] : null;
    this.#opts = {
      maxLineLength: opts.maxLineLength ?? DEFAULT_MAX_LINE,
      maxProblems: opts.maxProblems ?? 5,
    };
    this.#include = opts.include ? new Set(opts.include) : null;
    this.#pairer = new LegPairer((e) => this.#emit(e));
  }

  /**
   * Starts a new file (line numbers restart; pairing state carries over, as rotation does).
   * `atStart` false: the text begins inside the file (a parse worker's later block).
   */
  beginFile(rep: FileReport, atStart = true): void {
    this.#file = rep.file;
    this.#fileRep = rep;
    this.#lineNo = 0;
    this.#carry = "";
    this.#carryCut = false;
    this.#atFileStart = atStart;
  }

  /** Collect mode: the block's result (events and counts so far). */
  takeBlock(): BlockResult {
    return { events: this.#collected ?? [], report: this.report, file: this.#fileRep };
  }

  /**
   * Adds a block that a collect-mode processor read from the current file, right after the
   * lines read so far: counts, located problems (under this processor's per-kind limit, in
   * line order), then its events in order through emission and pairing — the same state as
   * reading the block's lines here.
   */
  absorb(b: BlockResult): void {
    const off = this.#lineNo;
    const r = this.report, br = b.report;
    r.lines += br.lines;
    r.layoutLines += br.layoutLines;
    r.recognized += br.recognized;
    for (const k of Object.keys(br.problems) as ProblemKind[]) r.problems[k] += br.problems[k];
    for (const [t, n] of Object.entries(br.events)) {
      r.events[t as LogEventType] = (r.events[t as LogEventType] ?? 0) + (n ?? 0);
    }
    for (const [k, n] of Object.entries(br.unknownKinds)) countUnknownKind(r.unknownKinds, k, n);
    for (const q of br.firstProblems) this.#locate(q.kind, q.line + off, q.detail, q.file);
    const f = this.#fileRep, bf = b.file;
    f.lines += bf.lines;
    f.nonUtf8Lines += bf.nonUtf8Lines;
    f.nulChars += bf.nulChars;
    f.nulRuns += bf.nulRuns;
    if (Number.isNaN(f.firstTime)) f.firstTime = bf.firstTime;
    if (bf.boundaries) {
      const a = f.boundaries ??= {
        tasksStarted: 0,
        tasksSucceeded: 0,
        tasksFailed: 0,
        nodeActionsFailed: 0,
      };
      a.tasksStarted += bf.boundaries.tasksStarted;
      a.tasksSucceeded += bf.boundaries.tasksSucceeded;
      a.tasksFailed += bf.boundaries.tasksFailed;
      a.nodeActionsFailed += bf.boundaries.nodeActionsFailed;
    }
    this.#lineNo += bf.lines;
    if (bf.lines > 0) this.#atFileStart = false;
    for (const ev of b.events) {
      ev.src.line += off;
      this.#deliver(ev);
    }
  }

  /** Records a problem: counted always, located for the first few of each kind. */
  problem(kind: ProblemKind, line: number, detail: string, file: string = this.#file): void {
    this.report.problems[kind]++;
    this.#locate(kind, line, detail, file);
  }

  /** Keeps the location of a counted problem while its kind is under the limit. */
  #locate(kind: ProblemKind, line: number, detail: string, file: string): void {
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
    if (this.#atFileStart) {
      this.#atFileStart = false;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1); // byte-order mark (kept by the decoder)
    }
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
    if (s.charCodeAt(m0) === 91) {
      if (!this.#framing(s, m0, lineNo, truncated)) this.#unknown(s, m0);
      return;
    }
    // Run framing lines from EventDispatcher/AgentServer: search the prefix only (backwards).
    if (s.lastIndexOf("[EventDispatcher", m0) > 0 || s.lastIndexOf("[AgentServer", m0) > 0) {
      if (this.#framing(s, m0, lineNo, truncated)) return;
    }
    this.#unknown(s, m0);
  }

  /** A logger line no message matched: counted per message kind (ParseReport.unknownKinds). */
  #unknown(s: string, m: number): void {
    countUnknownKind(this.report.unknownKinds, unknownKindOf(s, m));
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
      const only = spec.only;
      const skip = only !== undefined && this.#include !== null && !this.#include.has(only);
      // Confirm the candidate with the exact bracket scan (a prefix bracket holding "] " would
      // move the message start; GCC's `f() [with T = …]` ends in "]]", so it does not). A
      // line whose prefix after the timestamp is one already confirmed needs no scan: the
      // scan's result depends on those characters only.
      if (!(skip && this.#confirmedBefore(s, m))) {
        const exact = scanHead(s, this.#scan);
        if (exact !== m) return exact > m ? this.#dispatch(s, exact, lineNo, truncated) : false;
        if (skip) this.#rememberConfirmed(s, m);
      }
      if (skip) {
        // Recognised, counted, not built: nothing downstream reads it (see MessageSpec.only).
        this.report.recognized++;
        this.report.events[only!] = (this.report.events[only!] ?? 0) + 1;
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

  /**
   * True when `s` has a standard 23-character timestamp and its text from index 25 (the level
   * bracket) up to the message start `m` equals a prefix {@link scanHead} confirmed before.
   */
  #confirmedBefore(s: string, m: number): boolean {
    if (s.charCodeAt(24) !== 93) return false;
    const c = this.#confirmed;
    for (let i = 0; i < c.length; i++) {
      if (c[i].length === m - 25 && s.startsWith(c[i], 25)) return true;
    }
    return false;
  }

  #rememberConfirmed(s: string, m: number): void {
    if (s.charCodeAt(24) !== 93) return;
    // A few prefixes (position fixes come from several threads); the oldest is replaced.
    this.#confirmed[this.#confirmedNext] = s.slice(25, m);
    this.#confirmedNext = (this.#confirmedNext + 1) % CONFIRMED_PREFIXES;
  }

  #fillHead(s: string, truncated: boolean): LineHead {
    const head = headFromScan(s, this.#scan, this.#head);
    head.truncated = truncated;
    return head;
  }

  /**
   * Run framing: `[req={…}]` (MapNavigateAction start) and `[msg=Node.Action.…]` (end). False
   * when the line is neither (the caller counts it as an unknown kind).
   */
  #framing(s: string, m: number, lineNo: number, truncated: boolean): boolean {
    const q = s.indexOf("[req=", m);
    const g = q < 0 ? s.indexOf("[msg=Node.Action.", m) : -1;
    if (q < 0 && g < 0) return false;
    // Another action's request, or a node result of another kind: framing, known, not a run.
    if (q >= 0 && s.indexOf("MapNavigateAction", q) < 0) return true;
    // The head comes from this line's own prefix scan (no message matched, so none ran yet).
    scanHead(s, this.#scan);
    scanFields(s, q >= 0 ? q : g, this.#fields);
    const base = eventBase({ file: this.#file, line: lineNo }, this.#fillHead(s, truncated));
    if (q >= 0) {
      const req = field(this.#fields, "req");
      if (req === undefined) {
        this.problem("bad_field", lineNo, "[req=…] unclosed");
        return true;
      }
      const ev = buildRequestEvent(req, base);
      if (ev !== null) this.#accept(ev, lineNo, "request");
    } else {
      const ev = buildNodeResult(this.#fields, base);
      if (ev !== null) this.#accept(ev, lineNo, "node result");
    }
    return true;
  }

  #accept(ev: LogEvent | string, lineNo: number, what: string): void {
    if (typeof ev === "string") {
      // A cut line is already counted as truncated; its missing fields are no surprise.
      if (!this.#head.truncated) this.problem("bad_field", lineNo, `${what}: ${ev}`);
      return;
    }
    this.report.recognized++;
    this.#deliver(ev);
  }

  /** An accepted event: kept (collect mode), or emitted and paired. */
  #deliver(ev: LogEvent): void {
    if (this.#collected !== null) {
      this.#collected.push(ev);
      return;
    }
    this.#emit(ev);
    this.#pairer.push(ev);
  }
}

/** Characters per {@link LogLineProcessor.push} call of {@link pushText} (about 40 lines). */
const PIECE = 8 << 10;

/**
 * Feeds a large text to `p` a few lines at a time. Many short `push` calls let the JIT compile
 * all of it early; one call over megabytes runs in on-stack-replaced code that deoptimises at
 * every exit (measured: the first, cold pass over the 130-MB bench bundle 0.8–0.98× the time).
 */
export function pushText(p: LogLineProcessor, text: string): void {
  for (let a = 0; a < text.length;) {
    const nl = text.indexOf("\n", Math.min(a + PIECE, text.length - 1));
    const b = nl < 0 ? text.length : nl + 1;
    p.push(a === 0 && b === text.length ? text : text.slice(a, b));
    a = b;
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
