/**
 * Streaming front end of the run-log parser: files, directories and globs in; typed events out
 * as an async iterable, one pass, constant memory in the size of the logs.
 *
 * - Inputs: files (any name), directories (log-like names: `*.log`, `*.txt`, `*.gz`, and
 *   `maafw*`, recursively by default) and globs (`*`, `?`, `**`).
 * - gzip is detected by its magic bytes (not the name) and decoded with the web
 *   `DecompressionStream('gzip')`; a truncated or corrupt .gz keeps what decoded before the
 *   damage and is counted as `bad_gzip`.
 * - Order: files are read in order of their first timestamp (then path). MaaFramework rotates
 *   `maafw.log` to `maafw.bak.<stamp>.log` at 16 MiB (maaend-runlogs.md §1.1), so each file
 *   is one contiguous time range and this gives timestamp order across rotations; pairing state
 *   carries across files, so a plan whose lines straddle a rotation still pairs.
 * - Bytes are read in 1 MiB chunks through a `ReadableStream`, decoded in whole lines by a
 *   streaming `TextDecoder` (UTF-8, invalid bytes → U+FFFD), then split into lines.
 * @module
 */
import zlib from "node:zlib";
import { NavscopeError } from "../errors.ts";
import { gzipHeaderProblem, gzipHeaderSize } from "../codec/gzip.ts";
import {
  type BlockResult,
  emptyFileReport,
  emptyReport,
  LogLineProcessor,
  type ParseOptions,
  pushText,
} from "./parser.ts";
import { emptyHead, parseHead } from "./line.ts";
import type { FileReport, LogEvent, ParseReport } from "./types.ts";
import { type LogSourceFile, resolveSources, roleOf } from "./bundle.ts";
import { LineTextDecoder } from "./line_decoder.ts";
import { BLOCK_BYTES, ParsePool, parseWorkerCount } from "./parse_pool.ts";
import { isZip } from "../codec/zip.ts";

/** Chunk size of plain file reads. */
const CHUNK = 1 << 20;
/** Chunk size of compressed reads (see openBytes). */
const GZ_CHUNK = 64 << 10;
/** How much decoded text is searched for a file's first timestamp. */
const PEEK_BYTES = 256 << 10;

/** An async iterable of events whose `report` is complete once iteration has finished. */
export interface LogStream extends AsyncIterable<LogEvent> {
  /** Counts so far; final after the iteration ends. */
  readonly report: ParseReport;
}

/**
 * A byte stream over an open file; closes the file at the end or on cancel. `size()` gives the
 * read size for the next pull, so the caller can shrink it for gzip (see openBytes).
 */
function fileStream(file: Deno.FsFile, size: () => number): ReadableStream<Uint8Array> {
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      file.close();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const buf = new Uint8Array(size());
      let n: number | null;
      try {
        n = await file.read(buf);
      } catch (e) {
        close();
        throw e;
      }
      if (n === null) {
        close();
        c.close();
      } else c.enqueue(buf.subarray(0, n));
    },
    cancel: close,
  }, { highWaterMark: 0 });
}

/** What the gzip layer found besides the data (filled in as the stream is read). */
export interface GzipTail {
  /** Bytes after the last complete gzip member that are not a gzip member (ignored), or 0. */
  trailingBytes: number;
  /** Compressed offset where they start (approximate: zlib's consumed-bytes count). */
  trailingAt: number;
}

/**
 * Opens `path` as a stream of decompressed bytes (gzip detected by magic). The first chunk is
 * read eagerly to sniff the magic and is re-emitted. Compressed input is read in 64 KiB
 * pieces: logs compress ~10×, and a 1 MiB piece would inflate to one ~10 MiB chunk (and a
 * ~10 MiB string), which is what bounds peak memory.
 */
async function openBytes(
  src: string | LogSourceFile,
): Promise<{ gzip: boolean; stream: ReadableStream<Uint8Array>; tail: GzipTail }> {
  let size = GZ_CHUNK;
  const path = typeof src === "string" ? src : src.path;
  const raw = path !== undefined
    ? fileStream(await Deno.open(path, { read: true }), () => size)
    : await (src as LogSourceFile).open();
  const reader = raw.getReader();
  const first = await reader.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip) size = CHUNK;
  let sentFirst = first.done;
  const next = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    if (!sentFirst) {
      sentFirst = true;
      return { done: false, value: head };
    }
    return await reader.read();
  };
  const tail: GzipTail = { trailingBytes: 0, trailingAt: 0 };
  if (gzip) return { gzip, stream: gunzipMembers(next, () => reader.cancel(), tail), tail };
  const joined = new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await next();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { gzip, stream: joined, tail };
}

/** Largest gzip member header accepted (file name and comment included). */
const MAX_GZIP_HEADER = 1 << 20;

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const o = new Uint8Array(a.length + b.length);
  o.set(a);
  o.set(b, a.length);
  return o;
}

/**
 * Inflates a gzip byte source member after member (RFC 1952 §2.2: a gzip file is a series of
 * members; `cat a.gz b.gz` is valid). The web DecompressionStream stops at the first member
 * with an error and loses its last output, so each member's header and trailer (CRC-32, ISIZE)
 * are read here and its deflate data goes through a node:zlib raw inflater, fed one piece per
 * pull (bounded memory). Bytes after the last complete member that are not a member are not
 * data damage: they are recorded in `tail` and the stream ends normally. Real damage (bad
 * header, CRC, truncation) errors the stream after everything that decoded before it.
 */
function gunzipMembers(
  next: () => Promise<ReadableStreamReadResult<Uint8Array>>,
  cancelSource: () => Promise<void>,
  tail: GzipTail,
): ReadableStream<Uint8Array> {
  let pending: Uint8Array = new Uint8Array(0); // compressed bytes read but not yet consumed
  let offset = 0; // compressed offset of pending[0]
  let eof = false, members = 0;
  let inf: ReturnType<typeof zlib.createInflateRaw> | null = null;
  let crc = 0, size = 0;
  const queue: Uint8Array[] = [];
  let memberEnded = false, infBase = 0;
  let error: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const more = async (): Promise<boolean> => {
    if (eof) return false;
    const r = await next();
    if (r.done) {
      eof = true;
      return false;
    }
    pending = concatBytes(pending, r.value);
    return true;
  };
  const take = (n: number) => {
    pending = pending.subarray(n);
    offset += n;
  };
  const damaged = (what: string) => new Error(`${what} (member ${members + 1}, offset ${offset})`);
  /** Starts the next member; false at a clean end (or trailing bytes, recorded in `tail`). */
  const startMember = async (): Promise<boolean> => {
    while (pending.length < 10 && await more());
    if (pending.length === 0 && members > 0) return false;
    const bad = pending.length >= 2 ? gzipHeaderProblem(pending) : "no gzip magic";
    if (bad !== null || pending.length < 10) {
      if (members === 0) throw damaged(bad ?? "truncated gzip header");
      // Non-gzip bytes after the last complete member: count them all.
      tail.trailingAt = offset;
      let n = pending.length;
      for (let r = await next(); !r.done; r = await next()) n += r.value.length;
      tail.trailingBytes = n;
      pending = new Uint8Array(0);
      eof = true;
      return false;
    }
    let h: number;
    while ((h = gzipHeaderSize(pending)) < 0) {
      if (pending.length > MAX_GZIP_HEADER) throw damaged("gzip header longer than 1 MiB");
      if (!await more()) throw damaged("truncated gzip header");
    }
    take(h);
    crc = 0, size = 0, memberEnded = false, infBase = 0;
    inf = zlib.createInflateRaw();
    inf.on("data", (c: Uint8Array) => {
      const u = new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
      crc = zlib.crc32(u, crc);
      size += u.length;
      queue.push(u);
      poke();
    });
    inf.on("end", () => {
      memberEnded = true;
      poke();
    });
    inf.on("error", (e: Error) => {
      error = damaged(e.message);
      poke();
    });
    return true;
  };
  /** After a member's deflate data: its unconsumed input, then the 8-byte trailer. */
  const endMember = async () => {
    // `pending` still holds the last piece fed; the inflater used part of it.
    take(Math.min(pending.length, inf!.bytesWritten - infBase));
    inf = null;
    while (pending.length < 8 && await more());
    if (pending.length < 8) throw damaged("truncated gzip trailer");
    const dv = new DataView(pending.buffer, pending.byteOffset, 8);
    if (dv.getUint32(0, true) !== crc >>> 0) throw damaged("CRC-32 mismatch");
    if (dv.getUint32(4, true) !== size % 4294967296) throw damaged("ISIZE mismatch");
    take(8);
    members++;
  };
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        for (;;) {
          if (queue.length) return c.enqueue(queue.shift()!);
          if (error) throw error;
          if (inf === null) {
            if (!await startMember()) return c.close();
            continue;
          }
          if (memberEnded) {
            await endMember();
            continue;
          }
          // Feed the inflater: what is pending, else the next piece of the file.
          if (pending.length === 0 && !await more()) {
            // The deflate data ended early: zlib says so on end().
            await new Promise<void>((res) => {
              wake = res;
              inf!.end();
            });
            if (!memberEnded && !error) error = damaged("unexpected end of file");
            continue;
          }
          const chunk = pending;
          // `pending` keeps the bytes until the inflater says how many it used.
          await new Promise<void>((res) => {
            wake = res;
            inf!.write(chunk, () => poke());
          });
          // Node emits "end" on a later tick than the write callback may come: let it.
          await new Promise((r) => setTimeout(r, 0));
          if (!memberEnded && !error) {
            take(chunk.length);
            infBase += chunk.length;
          }
        }
      } catch (e) {
        inf?.destroy();
        c.error(e);
      }
    },
    async cancel() {
      inf?.destroy();
      await cancelSource();
    },
  }, { highWaterMark: 0 });
}

/** How many leading decoded bytes are checked for binary content. */
const BINARY_PEEK = 4096;

/**
 * First timestamp of a file (naive epoch ms), NaN when none within the first 256 KiB, and
 * whether it looks binary: NUL bytes in its first 4 KiB (decompressed) and no log line there —
 * a pack, an image or a zip, not a log (a log with a few NULs later, e.g. after a crash, is
 * still read line by line).
 */
async function peekFirstTime(
  src: LogSourceFile,
): Promise<{ time: number; gzip: boolean; binary: boolean }> {
  const { gzip, stream } = await openBytes(src);
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let text = "";
  let time = NaN;
  let nul = false, peeked = 0;
  const head = emptyHead();
  try {
    while (text.length < PEEK_BYTES) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch {
        break; // corrupt gzip: the main pass reports it
      }
      if (r.done) break;
      if (peeked < BINARY_PEEK) {
        nul ||= r.value.subarray(0, BINARY_PEEK - peeked).includes(0);
        peeked += Math.min(r.value.length, BINARY_PEEK - peeked);
      }
      text += dec.decode(r.value, { stream: true });
      let start = 0;
      for (;;) {
        const nl = text.indexOf("\n", start);
        if (nl < 0) break;
        if (parseHead(text.slice(start, nl), head) >= 0) {
          time = head.time;
          break;
        }
        start = nl + 1;
      }
      if (!Number.isNaN(time)) break;
    }
    if (Number.isNaN(time) && parseHead(text, head) >= 0) time = head.time;
  } finally {
    await reader.cancel().catch(() => {});
  }
  return { time, gzip, binary: nul && Number.isNaN(time) };
}

const LOG_NAME = /(\.(log|txt|gz|zip)$)|(^maafw)/i;

function hasGlob(p: string): boolean {
  return /[*?]/.test(p);
}

/** Glob pattern (relative, `/`-separated) → RegExp over relative paths. */
export function globToRegExp(pattern: string): RegExp {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        i++;
        if (pattern[i + 1] === "/") {
          i++;
          re += "(?:[^/]*/)*";
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(re + "$");
}

async function walk(dir: string, recursive: boolean, out: string[], rel = ""): Promise<void> {
  const entries: Deno.DirEntry[] = [];
  for await (const e of Deno.readDir(dir + (rel ? "/" + rel : ""))) entries.push(e);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (recursive) await walk(dir, recursive, out, r);
    } else if (e.isFile || e.isSymlink) out.push(r);
  }
}

/**
 * Expands inputs to a sorted, de-duplicated file list. Missing inputs and unreadable
 * directories come back in `missing` with the reason.
 */
export async function expandInputs(
  inputs: readonly string[],
  recursive = true,
): Promise<{
  files: string[];
  missing: { path: string; error: string }[];
  bundleFolders: Map<string, string[]>;
}> {
  const files = new Set<string>();
  const missing: { path: string; error: string }[] = [];
  const bundleFolders = new Map<string, string[]>();
  for (const input of inputs) {
    try {
      if (hasGlob(input)) {
        const parts = input.split("/");
        const k = parts.findIndex(hasGlob);
        const base = parts.slice(0, k).join("/") || (input.startsWith("/") ? "/" : ".");
        const re = globToRegExp(parts.slice(k).join("/"));
        const found: string[] = [];
        await walk(base, true, found);
        let n = 0;
        for (const r of found) {
          if (re.test(r)) {
            files.add(
              base === "." && !input.startsWith("./") ? r : `${base.replace(/\/$/, "")}/${r}`,
            );
            n++;
          }
        }
        if (n === 0) missing.push({ path: input, error: "glob matched no file" });
        continue;
      }
      const st = await Deno.stat(input);
      if (st.isDirectory) {
        const found: string[] = [];
        await walk(input, recursive, found);
        // An extracted bundle (it holds a cpp-algo/debug navigator log): the bundle rules pick
        // its files (maaend-bundles.md §6), not the log-name filter.
        if (found.some((r) => roleOf(r) === "navigator")) {
          bundleFolders.set(input, found);
          continue;
        }
        for (const r of found) {
          if (LOG_NAME.test(r.slice(r.lastIndexOf("/") + 1))) {
            files.add(`${input.replace(/\/$/, "")}/${r}`);
          }
        }
      } else files.add(input);
    } catch (e) {
      missing.push({ path: input, error: (e as Error).message });
    }
  }
  return { files: [...files].sort(), missing, bundleFolders };
}

/** Zip volumes among `files`: by magic (a renamed zip is still a zip), else by name. */
async function zipsOf(files: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const f of files) {
    try {
      const h = new Uint8Array(4);
      const file = await Deno.open(f, { read: true });
      try {
        await file.read(h);
      } finally {
        file.close();
      }
      if (isZip(h) || /\.zip$/i.test(f)) out.add(f);
    } catch {
      if (/\.zip$/i.test(f)) out.add(f); // the open error is reported when it is read
    }
  }
  return out;
}

/**
 * Parses run logs from files, directories and globs, in timestamp order, streaming. Never
 * throws for bad input unless `opts.strict` (then a NavscopeError `io` names the file); the
 * `report` counts everything that was skipped, with file:line for the first few.
 *
 * ```ts
 * const logs = parseLogs(["logs/", "old/*.log.gz"]);
 * for await (const ev of logs) if (ev.type === "leg" && !ev.leg.ok) console.log(ev.leg);
 * console.log(logs.report);
 * ```
 */
export function parseLogs(inputs: string | readonly string[], opts: ParseOptions = {}): LogStream {
  const report = emptyReport();
  const list = typeof inputs === "string" ? [inputs] : inputs;
  return {
    report,
    [Symbol.asyncIterator]: () => run(list, opts, report)[Symbol.asyncIterator](),
  };
}

async function* run(
  inputs: readonly string[],
  opts: ParseOptions,
  report: ParseReport,
): AsyncGenerator<LogEvent> {
  const p = new LogLineProcessor(opts, report);
  const { files, missing, bundleFolders } = await expandInputs(inputs, opts.recursive ?? true);
  for (const m of missing) {
    if (opts.strict) {
      throw new NavscopeError("io", `cannot read log input: ${m.error}`, { file: m.path });
    }
    const rep = emptyFileReport(m.path);
    rep.error = m.error;
    report.files.push(rep);
    p.problem("unreadable", 0, m.error, m.path);
  }
  const { sources, bundles } = await resolveSources(
    files,
    await zipsOf(files),
    bundleFolders,
    { strict: opts.strict },
  );
  report.bundles = bundles;
  for (const b of bundles) {
    for (const q of b.problems) {
      const rep = emptyFileReport(q.entry ? `${q.file}!${q.entry}` : q.file);
      rep.error = q.error;
      report.files.push(rep);
      p.problem("unreadable", 0, q.error, rep.file);
    }
  }
  const order: { rep: FileReport; src: LogSourceFile }[] = [];
  for (const src of sources) {
    const f = src.name;
    const rep = emptyFileReport(f);
    rep.role = src.role;
    try {
      const { time, gzip, binary } = await peekFirstTime(src);
      rep.firstTime = time;
      rep.gzip = gzip;
      if (binary) {
        const what = `binary content${gzip ? " inside the gzip" : ""} (NUL bytes, no log line ` +
          `in the first ${BINARY_PEEK} bytes): not a text log`;
        if (opts.strict) throw new NavscopeError("io", what, { file: f });
        rep.error = what;
        report.files.push(rep);
        p.problem("binary_file", 0, what, f);
        continue;
      }
      order.push({ rep, src });
    } catch (e) {
      if (e instanceof NavscopeError && (opts.strict || e.code !== "bad_value")) throw e;
      if (opts.strict) {
        throw new NavscopeError("io", `cannot read log file: ${(e as Error).message}`, { file: f });
      }
      rep.error = (e as Error).message;
      report.files.push(rep);
      p.problem("unreadable", 0, rep.error, f);
    }
  }
  // Timestamp order; files without any timestamp go last; ties by path (deterministic). A
  // bundle's navigator logs keep their rotation order (never mtime or a guessed time): the
  // bundle takes the place of its earliest file.
  const groupTime = new Map<unknown, number>();
  for (const { rep, src } of order) {
    const t = Number.isNaN(rep.firstTime) ? Infinity : rep.firstTime;
    const k = src.rotationOrder ? src.bundle! : src;
    groupTime.set(k, Math.min(groupTime.get(k) ?? Infinity, t));
  }
  order.sort((a, b) => {
    const ka = a.src.rotationOrder ? a.src.bundle! : a.src;
    const kb = b.src.rotationOrder ? b.src.bundle! : b.src;
    if (ka === kb) return a.src.rank - b.src.rank;
    const ta = groupTime.get(ka)!, tb = groupTime.get(kb)!;
    const na = a.src.rotationOrder ? a.src.bundle!.label : a.rep.file;
    const nb = b.src.rotationOrder ? b.src.bundle!.label : b.rep.file;
    return ta !== tb ? ta - tb : na < nb ? -1 : na > nb ? 1 : 0;
  });
  yield* withPool(opts, (poolOf) => readInOrder(p, order, opts, poolOf));
  p.finish();
  yield* drain(p);
}

/**
 * Runs `body` with a lazy pool of parse workers: they start at the first file large enough
 * to need them and stop when `body` ends (or its consumer stops early).
 */
async function* withPool(
  opts: ParseOptions,
  body: (poolOf: () => ParsePool | null) => AsyncGenerator<LogEvent>,
): AsyncGenerator<LogEvent> {
  let pool: ParsePool | null = null;
  const workers = parseWorkerCount(opts);
  try {
    yield* body(() => (workers > 0 ? pool ??= new ParsePool(workers) : null));
  } finally {
    (pool as ParsePool | null)?.close();
  }
}

/** Reads each file of `order` in turn through the processor. */
async function* readInOrder(
  p: LogLineProcessor,
  order: readonly { rep: FileReport; src: LogSourceFile }[],
  opts: ParseOptions,
  poolOf: () => ParsePool | null,
): AsyncGenerator<LogEvent> {
  const report = p.report;
  for (const { rep, src } of order) {
    rep.firstTime = NaN; // recomputed by the main pass
    report.files.push(rep);
    let stream: ReadableStream<Uint8Array>;
    let tail: GzipTail | undefined;
    try {
      ({ stream, tail } = await openBytes(src));
    } catch (e) {
      if (opts.strict) {
        throw new NavscopeError("io", `cannot read log file: ${(e as Error).message}`, {
          file: rep.file,
        });
      }
      rep.error = (e as Error).message;
      p.problem("unreadable", 0, rep.error, rep.file);
      continue;
    }
    yield* feed(p, stream, rep, opts, tail, poolOf);
  }
}

function* drain(p: LogLineProcessor): Generator<LogEvent> {
  if (p.queue.length === 0) return;
  const q = p.queue;
  p.queue = [];
  yield* q;
}

/** Byte pieces of a file waiting to be cut into blocks of whole lines. */
class LineBlocks {
  #pieces: Uint8Array[] = [];
  /** Bytes held. */
  length = 0;

  add(b: Uint8Array): void {
    this.#pieces.push(b);
    this.length += b.length;
  }

  /** The held bytes up to the last LF, as one new buffer; null when they hold no LF. */
  cut(): Uint8Array | null {
    const ps = this.#pieces;
    for (let i = ps.length - 1; i >= 0; i--) {
      const lf = ps[i].lastIndexOf(10);
      if (lf < 0) continue;
      const head = [...ps.slice(0, i), ps[i].subarray(0, lf + 1)];
      const rest = [ps[i].subarray(lf + 1), ...ps.slice(i + 1)].filter((b) => b.length > 0);
      this.#pieces = rest;
      this.length = rest.reduce((n, b) => n + b.length, 0);
      return join(head);
    }
    return null;
  }

  /** Every held byte (as pieces, in order); nothing is held afterwards. */
  take(): Uint8Array[] {
    const ps = this.#pieces;
    this.#pieces = [];
    this.length = 0;
    return ps;
  }
}

function join(ps: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(ps.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of ps) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

/**
 * Feeds one decompressed byte stream through the processor, yielding events as they come.
 * A file of at least {@link BLOCK_BYTES} is read in blocks of whole lines by the parse
 * workers `poolOf` gives (null: none), absorbed in order; a smaller file, or the rest of a
 * file after a line longer than two blocks, is read on this thread (line_decoder.ts).
 */
async function* feed(
  p: LogLineProcessor,
  stream: ReadableStream<Uint8Array>,
  rep: FileReport,
  opts: ParseOptions,
  tail?: GzipTail,
  poolOf: () => ParsePool | null = () => null,
): AsyncGenerator<LogEvent> {
  p.beginFile(rep);
  const reader = stream.getReader();
  const report = p.report;
  const blocks = new LineBlocks();
  const blockBytes = opts.blockBytes ?? BLOCK_BYTES;
  const inflight: Promise<BlockResult>[] = [];
  const blockOpts = {
    maxLineLength: opts.maxLineLength,
    maxProblems: opts.maxProblems,
    include: opts.include,
  };
  let pool: ParsePool | null = null;
  let text: LineTextDecoder | null = null;
  let atStart = true;
  const push = (t: string) => pushText(p, t);
  const submit = (bytes: Uint8Array, last: boolean, damaged: boolean) => {
    const role = rep.role;
    inflight.push(
      pool!.parse({ file: rep.file, role, atStart, last, damaged, bytes, opts: blockOpts }),
    );
    atStart = false;
  };
  async function* settle(keep: number): AsyncGenerator<LogEvent> {
    while (inflight.length > keep) {
      p.absorb(await inflight.shift()!);
      yield* drain(p);
    }
  }
  /** From here on this thread reads the file (after every block sent out is absorbed). */
  async function* local(): AsyncGenerator<LogEvent> {
    yield* settle(0);
    text = new LineTextDecoder();
    for (const b of blocks.take()) text.decode(b, push);
    yield* drain(p);
  }
  /** Ends the file: the last bytes, then every block still out. */
  async function* end(damaged: boolean): AsyncGenerator<LogEvent> {
    if (text === null && pool === null) yield* local();
    if (text !== null) {
      p.push((text as LineTextDecoder).end());
      p.endFile(damaged);
    } else {
      const rest = blocks.take();
      if (rest.length > 0) submit(join(rest), true, damaged);
      yield* settle(0);
    }
    yield* drain(p);
  }
  let finished = false;
  try {
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        const msg = (e as Error).message;
        // Keep what decoded before the damage; the partial last line is still a line.
        yield* end(true);
        // What decoded before the damage was parsed and counted: say how far that went.
        rep.error = `${rep.gzip ? "corrupt or truncated gzip" : "read failed"}: ${msg}; ` +
          `read up to line ${rep.lines}`;
        if (opts.strict) {
          throw new NavscopeError(
            "io",
            `${rep.gzip ? "corrupt or truncated gzip" : "read failed"}: ${msg}`,
            { file: rep.file, line: rep.lines },
          );
        }
        p.problem(rep.gzip ? "bad_gzip" : "unreadable", rep.lines, msg);
        finished = true;
        yield* drain(p);
        return;
      }
      if (r.done) break;
      rep.bytes += r.value.length;
      report.bytes += r.value.length;
      if (text !== null) {
        (text as LineTextDecoder).decode(r.value, push);
        yield* drain(p);
        continue;
      }
      blocks.add(r.value);
      if (blocks.length < blockBytes) continue;
      pool ??= poolOf();
      if (pool === null) {
        yield* local();
        continue;
      }
      const b = blocks.cut();
      if (b !== null) {
        submit(b, false, false);
        // Two blocks per worker in flight: the workers stay busy, memory stays bounded.
        yield* settle(2 * pool.size);
      } else if (blocks.length > 2 * blockBytes) yield* local();
    }
    yield* end(false);
    finished = true;
    if (tail && tail.trailingBytes > 0) trailingProblem(p, rep, tail, opts);
    yield* drain(p);
  } finally {
    // The consumer may stop early (break out of for-await): close the file now, not at GC.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Bytes after the last gzip member: every member was read, but the file is not what a gzip
 * writer produces (appended garbage, padding) — a file problem, not data damage.
 */
function trailingProblem(
  p: LogLineProcessor,
  rep: FileReport,
  tail: GzipTail,
  opts: ParseOptions,
): void {
  const what = `${tail.trailingBytes} bytes after the last gzip member (from compressed ` +
    `offset ${tail.trailingAt}) are not gzip data; ignored, every member before them was read`;
  if (opts.strict) throw new NavscopeError("bad_value", what, { file: rep.file, section: "gzip" });
  rep.error = what;
  p.problem("bad_gzip", 0, what);
}

/** Parses a single byte stream (e.g. stdin or a fetch body) the same way. */
export function parseLogReadable(
  stream: ReadableStream<Uint8Array>,
  name = "<stream>",
  opts: ParseOptions = {},
): LogStream {
  const report = emptyReport();
  return {
    report,
    [Symbol.asyncIterator]: () =>
      (async function* () {
        const p = new LogLineProcessor(opts, report);
        const rep = emptyFileReport(name);
        report.files.push(rep);
        yield* withPool(opts, (poolOf) => feed(p, stream, rep, opts, undefined, poolOf));
        p.finish();
        yield* drain(p);
      })()[Symbol.asyncIterator](),
  };
}

/** Collects every event of `parseLogs` into an array (small logs, tests). */
export async function collectLogs(
  inputs: string | readonly string[],
  opts: ParseOptions = {},
): Promise<{ events: LogEvent[]; report: ParseReport }> {
  const s = parseLogs(inputs, opts);
  const events: LogEvent[] = [];
  for await (const e of s) events.push(e);
  return { events, report: s.report };
}
