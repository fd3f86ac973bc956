/**
 * Low-level reading of one MaaFramework log line (maaend-runlogs.md §1.1):
 * `[YYYY-MM-DD HH:MM:SS.mmm][LVL][Px…][Tx…][file][Lnnn][function] message [key=value] …`,
 * with the `[Px][Tx][file][Lnnn][function]` part optional (MaaEnd's fixtures print only
 * `[file]`). Values may contain brackets (`目标面不可达 (…, 终点格里的面 [263.12, 271.50])`) and
 * JSON (`[[x,y],…]`, `{…}`), so items are delimited by bracket-depth matching, JSON-string
 * aware for JSON values, with a boundary check and a fallback for unbalanced raw text.
 *
 * Hot path: `scanHead` runs on every line, so it uses charCode checks at fixed offsets, no
 * regular expressions and no allocation; `scanFields` runs only on lines whose message was recognised.
 * @module
 */
import type { LineHead, LogLevel, Point2 } from "./types.ts";

const LB = 91; // [
const RB = 93; // ]
const LC = 123; // {
const RC = 125; // }
const QUOTE = 34; // "
const BSLASH = 92; // \
const SPACE = 32;
const EQ = 61; // =

/** Marker MaaUtils appends to an over-long entry (maaend-runlogs.md §1.1 "Size limit"). */
export const TRUNCATED_MARKER = " ... [TRUNCATED: ";

/**
 * Where a MaaUtils truncation tail (` ... [TRUNCATED: N bytes total, …]`) starts in `s`, or −1.
 * The marker must be the line's last item so text that merely quotes it is not cut.
 */
export function truncationCut(s: string): number {
  const i = s.lastIndexOf(TRUNCATED_MARKER);
  if (i < 0) return -1;
  const d = s.charCodeAt(i + TRUNCATED_MARKER.length) - 48;
  if (d < 0 || d > 9 || s.indexOf("]", i + TRUNCATED_MARKER.length) < s.length - 3) return -1;
  return i;
}

/** A fresh, empty head (all parts unknown). */
export function emptyHead(): LineHead {
  return {
    time: NaN,
    timeText: "",
    level: "",
    pid: -1,
    tid: -1,
    srcFile: "",
    srcLine: -1,
    func: "",
    truncated: false,
  };
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000000;
}

function num2(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

/**
 * Parses `YYYY-MM-DD HH:MM:SS.mmm` starting at `i` (23 chars) to naive epoch ms; NaN if the
 * text is not in that shape. Fixed offsets, no allocation.
 */
export function parseTimestamp(s: string, i: number): number {
  if (
    s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45 || s.charCodeAt(i + 10) !== SPACE ||
    s.charCodeAt(i + 13) !== 58 || s.charCodeAt(i + 16) !== 58 || s.charCodeAt(i + 19) !== 46
  ) return NaN;
  const y = num2(s, i) * 100 + num2(s, i + 2);
  const mo = num2(s, i + 5);
  const d = num2(s, i + 8);
  const h = num2(s, i + 11);
  const mi = num2(s, i + 14);
  const sec = num2(s, i + 17);
  const ms = digit(s, i + 20) * 100 + num2(s, i + 21);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59) {
    return NaN;
  }
  if (sec < 0 || sec > 60 || ms < 0) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms);
}

/** Formats naive epoch ms as `YYYY-MM-DD HH:MM:SS.mmm` (the inverse of parseTimestamp). */
export function formatTimestamp(t: number): string {
  const d = new Date(t);
  const p2 = (n: number) => (n < 10 ? "0" : "") + n;
  const ms = d.getUTCMilliseconds();
  return `${String(d.getUTCFullYear()).padStart(4, "0")}-${p2(d.getUTCMonth() + 1)}-${
    p2(d.getUTCDate())
  } ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${
    ms < 10 ? "00" : ms < 100 ? "0" : ""
  }${ms}`;
}

/** Level of the 3 chars at `a`, by char codes (no slicing on the hot path); null if none. */
function levelAt(s: string, a: number): LogLevel | null {
  const c0 = s.charCodeAt(a), c1 = s.charCodeAt(a + 1), c2 = s.charCodeAt(a + 2);
  if (c0 === 73 && c1 === 78 && c2 === 70) return "INF";
  if (c0 === 68 && c1 === 66 && c2 === 71) return "DBG";
  if (c0 === 87 && c1 === 82 && c2 === 78) return "WRN";
  if (c0 === 69 && c1 === 82 && c2 === 82) return "ERR";
  if (c0 === 84 && c1 === 82 && c2 === 67) return "TRC";
  if (c0 === 70 && c1 === 84 && c2 === 76) return "FTL";
  return null;
}

/**
 * Index of the `]` that closes the `[` at `open`, counting nested brackets (function names
 * such as `f() [with T = int]` nest); −1 when the line ends first.
 */
export function matchBracket(s: string, open: number): number {
  let depth = 0;
  const n = s.length;
  for (let i = open; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === LB) depth++;
    else if (c === RB && --depth === 0) return i;
  }
  return -1;
}

function hasChar(s: string, a: number, b: number, c: number): boolean {
  for (let i = a; i < b; i++) if (s.charCodeAt(i) === c) return true;
  return false;
}

function parseUint(s: string, a: number, b: number): number {
  if (a >= b) return -1;
  let v = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Positions found by {@link scanHead}: the prefix of one line as offsets, so the hot path
 * allocates nothing. `…A`/`…B` are [start, end) of a bracket's content, −1 when absent.
 */
export class HeadScan {
  /** End of the timestamp text (index of its `]`). */
  tsEnd = 0;
  /** Level. */
  level: LogLevel = "";
  pid = -1;
  tid = -1;
  fileA = -1;
  fileB = -1;
  srcLine = -1;
  funcA = -1;
  funcB = -1;
}

/**
 * True when `s[i..i+23)` is a well-formed `YYYY-MM-DD HH:MM:SS.mmm` (separators, digits,
 * field ranges) — the cheap check of the hot path; the epoch value is computed only on demand.
 */
function tsShape(s: string, i: number): boolean {
  if (
    s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45 || s.charCodeAt(i + 10) !== SPACE ||
    s.charCodeAt(i + 13) !== 58 || s.charCodeAt(i + 16) !== 58 || s.charCodeAt(i + 19) !== 46
  ) return false;
  const y = num2(s, i) + num2(s, i + 2);
  const mo = num2(s, i + 5);
  const d = num2(s, i + 8);
  const ms = digit(s, i + 20) + num2(s, i + 21);
  return y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && num2(s, i + 11) >= 0 &&
    num2(s, i + 11) <= 23 && num2(s, i + 14) >= 0 && num2(s, i + 14) <= 59 &&
    num2(s, i + 17) >= 0 && num2(s, i + 17) <= 60 && ms >= 0;
}

/**
 * Scans the bracket prefix of `s` into `h` and returns the index where the message starts, or
 * −1 when the line is not in the logger layout (`[timestamp][LVL]` required). Contiguous `[…]`
 * groups after the level are the prefix: `Px…`, `Tx…`, then file, `Lnnn`, function.
 * No allocation; the timestamp's digits are only converted by {@link headFromScan}.
 */
export function scanHead(s: string, h: HeadScan): number {
  if (s.charCodeAt(0) !== LB) return -1;
  let close: number;
  if (s.charCodeAt(24) === RB && tsShape(s, 1)) close = 24;
  else {
    // Uncommon timestamp width: accept `[date time(.frac)?]` up to 40 chars.
    close = s.indexOf("]", 1);
    if (close < 20 || close > 40 || Number.isNaN(parseLooseTimestamp(s.slice(1, close)))) {
      return -1;
    }
  }
  if (s.charCodeAt(close + 1) !== LB || s.charCodeAt(close + 5) !== RB) return -1;
  const level = levelAt(s, close + 2);
  if (level === null) return -1;
  h.tsEnd = close;
  h.level = level;
  h.pid = h.tid = h.srcLine = -1;
  h.fileA =
    h.fileB =
    h.funcA =
    h.funcB =
      -1;
  let pos = close + 6;
  let slot = 0; // 0: Px, 1: Tx, 2: file, 3: Lnnn, 4: function, 5: done
  const n = s.length;
  while (pos < n && s.charCodeAt(pos) === LB) {
    const e = matchBracket(s, pos);
    if (e < 0) break;
    const a = pos + 1;
    if (slot === 0 && s.charCodeAt(a) === 80 && s.charCodeAt(a + 1) === 120) { // Px
      h.pid = parseUint(s, a + 2, e);
      slot = 1;
    } else if (slot <= 1 && s.charCodeAt(a) === 84 && s.charCodeAt(a + 1) === 120) { // Tx
      h.tid = parseUint(s, a + 2, e);
      slot = 2;
    } else if (slot <= 2) {
      // A VAR item right after the level (`[req={…}]` without a space) is not a file name.
      if (hasChar(s, a, e, EQ)) break;
      h.fileA = a;
      h.fileB = e;
      slot = 3;
    } else if (slot === 3 && s.charCodeAt(a) === 76 && parseUint(s, a + 1, e) >= 0) { // Lnnn
      h.srcLine = parseUint(s, a + 1, e);
      slot = 4;
    } else if (slot <= 4) {
      h.funcA = a;
      h.funcB = e;
      slot = 5;
    } else break;
    pos = e + 1;
  }
  if (pos < n && s.charCodeAt(pos) === SPACE) pos++;
  return pos;
}

/**
 * The cheap per-line check of the hot path: −1 when `s` is not in the logger layout, else a
 * candidate message start — just after the first `"] "` following the level. That is exact
 * unless a prefix bracket itself contains `"] "` (never seen in MaaFramework names); callers
 * confirm recognised lines with {@link scanHead}. Costs a fixed-offset timestamp check and one
 * native `indexOf`, no bracket matching and no allocation.
 */
export function quickScan(s: string): number {
  if (s.charCodeAt(0) !== LB) return -1;
  let close = 24;
  if (s.charCodeAt(24) !== RB || !tsShape(s, 1)) {
    close = s.indexOf("]", 1);
    if (close < 20 || close > 40 || Number.isNaN(parseLooseTimestamp(s.slice(1, close)))) {
      return -1;
    }
  }
  if (s.charCodeAt(close + 1) !== LB || s.charCodeAt(close + 5) !== RB) return -1;
  if (levelAt(s, close + 2) === null) return -1;
  const q = s.indexOf("] ", close + 5);
  if (q >= 0) return q + 2;
  // No space anywhere after the prefix: the message (if any) follows the last bracket.
  return s.length;
}

/** True when the scanned source-file bracket of `s` starts with `prefix`. */
export function scanFileStartsWith(s: string, h: HeadScan, prefix: string): boolean {
  return h.fileA >= 0 && h.fileB - h.fileA >= prefix.length && s.startsWith(prefix, h.fileA);
}

/** Naive epoch ms of a scanned line's timestamp. */
export function scanTime(s: string, h: HeadScan): number {
  return h.tsEnd === 24 ? parseTimestamp(s, 1) : parseLooseTimestamp(s.slice(1, h.tsEnd));
}

/** Fills `out` from a scan (allocates the strings; called only for emitted lines). */
export function headFromScan(s: string, h: HeadScan, out: LineHead): LineHead {
  out.time = scanTime(s, h);
  out.timeText = s.slice(1, h.tsEnd);
  out.level = h.level;
  out.pid = h.pid;
  out.tid = h.tid;
  out.srcFile = h.fileA >= 0 ? s.slice(h.fileA, h.fileB) : "";
  out.srcLine = h.srcLine;
  out.func = h.funcA >= 0 ? s.slice(h.funcA, h.funcB) : "";
  out.truncated = false;
  return out;
}

const SCRATCH = new HeadScan();

/**
 * Reads the bracket prefix of `s` into `head` and returns the index where the message starts,
 * or −1 when the line is not in the logger layout. (scanHead + headFromScan.)
 */
export function parseHead(s: string, head: LineHead): number {
  const m = scanHead(s, SCRATCH);
  if (m < 0) return -1;
  headFromScan(s, SCRATCH, head);
  return Number.isNaN(head.time) ? -1 : m;
}

/** Lenient timestamp: `YYYY-MM-DD[ T]HH:MM:SS[.fff…]`; NaN otherwise. */
export function parseLooseTimestamp(t: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?$/.exec(t);
  if (!m) return NaN;
  const mo = +m[2], d = +m[3];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || +m[4] > 23 || +m[5] > 59 || +m[6] > 60) return NaN;
  const frac = m[7] ? Math.floor(Number("0." + m[7]) * 1000) : 0;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], frac);
}

/**
 * Index of the `]` that ends a JSON value starting at `i` (`[`, `{` or `"`), skipping
 * brackets inside JSON strings; −1 when unclosed.
 */
function scanJson(s: string, i: number): number {
  const n = s.length;
  let depth = 0;
  let inStr = false;
  for (let k = i; k < n; k++) {
    const c = s.charCodeAt(k);
    if (inStr) {
      if (c === BSLASH) k++;
      else if (c === QUOTE) {
        inStr = false;
        if (depth === 0) return k + 1 < n ? k + 1 : -1;
      }
    } else if (c === QUOTE) inStr = true;
    else if (c === LB || c === LC) depth++;
    else if (c === RB || c === RC) {
      depth--;
      if (depth === 0) return k + 1 < n ? k + 1 : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** Raw value: the first `]` at bracket depth 0. */
function scanRaw(s: string, i: number): number {
  const n = s.length;
  let depth = 0;
  for (let k = i; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c === LB) depth++;
    else if (c === RB) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return -1;
}

/** True when what follows `i` can start a `key=` item. */
function looksLikeKey(s: string, i: number): boolean {
  const lim = Math.min(s.length, i + 160);
  for (let k = i; k < lim; k++) {
    const c = s.charCodeAt(k);
    if (c === EQ) return k > i;
    if (c === LB || c === RB) return false;
  }
  return false;
}

/** True when an item may end at `e` (`]`): end of line, or spaces then `[`/end. */
function isBoundary(s: string, e: number): boolean {
  const n = s.length;
  let k = e + 1;
  if (k >= n) return true;
  if (s.charCodeAt(k) !== SPACE && s.charCodeAt(k) !== 13) return false;
  while (k < n && (s.charCodeAt(k) === SPACE || s.charCodeAt(k) === 13)) k++;
  return k >= n || (s.charCodeAt(k) === LB && looksLikeKey(s, k + 1));
}

/** The item end for a value starting at `v`; −1 when the item never closes (cut line). */
function itemEnd(s: string, v: number): number {
  const c = s.charCodeAt(v);
  let e = c === LB || c === LC || c === QUOTE ? scanJson(s, v) : scanRaw(s, v);
  if (e >= 0 && s.charCodeAt(e) === RB && isBoundary(s, e)) return e;
  // Unbalanced raw text: take the next `] [key=` boundary, or the line's last `]`.
  let p = e >= 0 ? e : v;
  for (;;) {
    const q = s.indexOf("] [", p);
    if (q < 0) break;
    if (looksLikeKey(s, q + 3)) return q;
    p = q + 1;
  }
  e = s.length - 1;
  while (e >= v && (s.charCodeAt(e) === SPACE || s.charCodeAt(e) === 13)) e--;
  return e >= v && s.charCodeAt(e) === RB ? e : -1;
}

/**
 * Collects the ` [key=value]` items of `s` from `pos` into `out` as a flat list
 * `[k0, v0, k1, v1, …]` (cleared first). Groups without `=` (such as `[TRUNCATED: …]`) are
 * skipped. Returns false when an item was left unclosed (a cut line).
 */
export function scanFields(s: string, pos: number, out: string[]): boolean {
  out.length = 0;
  const n = s.length;
  for (;;) {
    while (pos < n && s.charCodeAt(pos) !== LB) {
      // Items follow the message; text between items would be unusual, skip it.
      const q = s.indexOf("[", pos);
      if (q < 0) return true;
      pos = q;
    }
    if (pos >= n) return true;
    const eq = s.indexOf("=", pos + 1);
    const rb = s.indexOf("]", pos + 1);
    if (eq < 0 || (rb >= 0 && rb < eq)) {
      // Not a key=value item: skip the group.
      const e = matchBracket(s, pos);
      if (e < 0) return rb >= 0;
      pos = e + 1;
      continue;
    }
    const e = itemEnd(s, eq + 1);
    if (e < 0) return false;
    out.push(s.slice(pos + 1, eq), s.slice(eq + 1, e));
    pos = e + 1;
  }
}

/** The value for `key` in a flat field list, or undefined. */
export function field(fields: string[], key: string): string | undefined {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === key) return fields[i + 1];
  return undefined;
}

/**
 * Parses a number in any format the loggers print: `355.899450`, `940.5`, `1e-3`, `-0`,
 * `0x1f`, and C's `nan`/`-nan(ind)`/`inf`/`-inf`; NaN when it is not a number.
 */
export function parseNumber(t: string): number {
  const s = t.trim();
  if (s === "") return NaN;
  const v = Number(s);
  if (!Number.isNaN(v)) return v;
  const l = s.toLowerCase();
  if (l === "inf" || l === "+inf" || l === "infinity") return Infinity;
  if (l === "-inf" || l === "-infinity") return -Infinity;
  if (l.startsWith("nan") || l.startsWith("-nan")) return NaN;
  return NaN;
}

/** Parses `true`/`false`/`1`/`0`; null otherwise. */
export function parseBool(t: string | undefined): boolean | null {
  if (t === undefined) return null;
  const s = t.trim();
  if (s === "true" || s === "1") return true;
  if (s === "false" || s === "0") return false;
  return null;
}

/**
 * Parses a nested array of numbers (`[1,2]`, `[[1,2],[3,4]]`, any number format, `nan`
 * allowed); null when malformed. Hand-written because JSON.parse rejects the `nan`/`inf`
 * that C++ prints and the `NaN`/`Infinity` that the plan-line writer prints.
 */
export function parseNumberArray(t: string): unknown[] | null {
  let i = 0;
  const n = t.length;
  const skip = () => {
    while (i < n && (t.charCodeAt(i) === SPACE || t.charCodeAt(i) === 9)) i++;
  };
  const value = (): unknown => {
    skip();
    if (t.charCodeAt(i) === LB) {
      i++;
      const arr: unknown[] = [];
      skip();
      if (t.charCodeAt(i) === RB) {
        i++;
        return arr;
      }
      for (;;) {
        const v = value();
        if (v === undefined) return undefined;
        arr.push(v);
        skip();
        const c = t.charCodeAt(i);
        if (c === 44) i++;
        else if (c === RB) {
          i++;
          return arr;
        } else return undefined;
      }
    }
    const a = i;
    while (i < n) {
      const c = t.charCodeAt(i);
      if (c === 44 || c === RB || c === SPACE) break;
      i++;
    }
    if (i === a) return undefined;
    const tok = t.slice(a, i);
    const v = parseNumber(tok);
    if (Number.isNaN(v) && !/^[-+]?nan/i.test(tok)) return undefined;
    return v;
  };
  const v = value();
  skip();
  return Array.isArray(v) && i === n ? v : null;
}

/** Parses `[x,y]` (extra coordinates ignored); null when malformed. */
export function parsePoint(t: string | undefined): Point2 | null {
  if (t === undefined) return null;
  const a = parseNumberArray(t);
  if (!a || a.length < 2 || typeof a[0] !== "number" || typeof a[1] !== "number") return null;
  return [a[0], a[1]];
}

/** Parses `[[x,y],…]`; null when malformed. */
export function parsePoints(t: string | undefined): Point2[] | null {
  if (t === undefined) return null;
  const a = parseNumberArray(t);
  if (!a) return null;
  const out: Point2[] = [];
  for (const p of a) {
    if (!Array.isArray(p) || p.length < 2) return null;
    out.push([p[0] as number, p[1] as number]);
  }
  return out;
}
