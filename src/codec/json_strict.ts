/**
 * The strict JSON reader every navscope JSON input goes through (no-go table, legs.json, world
 * manifest, landmarks, thresholds, rules, baselines and reports read back). `JSON.parse` alone
 * accepts things no correct writer produces and that change what navscope does:
 *
 * - a duplicate key — the last value wins silently (a no-go table naming a zone twice drops the
 *   first polygons);
 * - an integer literal beyond 2^53 — rounded to a different integer;
 * - a number literal beyond the f64 range — becomes ±Infinity;
 * - a lone surrogate (`"\ud800"`) — a string no UTF-8 file can hold;
 * - U+FFFD — what a lossy UTF-8 decode leaves where the file had invalid bytes.
 *
 * {@link checkJsonText} is a one-pass scanner (RFC 8259 grammar, iterative, so depth cannot blow
 * the stack) that refuses all of those and every syntax error with ONE line: the JSON path, the
 * 1-based line and column, and the offending character with control bytes escaped.
 * {@link parseJsonStrict} runs it and then `JSON.parse` (which then cannot fail). Files are read
 * with {@link readJsonFile}: bytes → strict UTF-8 (the byte offset of the first invalid byte).
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../errors.ts";
import { readFileBytes } from "./file.ts";

/** Options of the strict reader. */
export interface StrictJsonOptions {
  /** Accept integer literals beyond 2^53 (rounded): for documents with no integer meaning. */
  allowUnsafeIntegers?: boolean;
  /** Accept U+FFFD in strings (documents that carry text copied from lossily decoded logs). */
  allowReplacementChar?: boolean;
  /** Deepest nesting accepted (default 256; navscope's own files nest ≤ 8 deep). */
  maxDepth?: number;
  /** What the message calls a syntax error (default "not valid JSON"). */
  what?: string;
  /** JSON path of the text's root in a larger document (default `$`), e.g. `$.legs[3]`. */
  pathPrefix?: string;
}

/** Default nesting limit. */
export const JSON_MAX_DEPTH = 256;

const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text made safe for a one-line message: control characters (C0, DEL, C1), line/paragraph
 * separators, bidi overrides and lone surrogates become `\uXXXX` escapes.
 */
export function escapeControls(s: string): string {
  return s.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The character at `i` for a message: quoted and escaped, or "the end of the text". */
function describeAt(text: string, i: number): string {
  if (i >= text.length) return "the end of the text";
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  return `"${escapeControls(ch)}" (U+${cp.toString(16).toUpperCase().padStart(4, "0")})`;
}

/** One frame of the scanner's explicit stack. */
interface Frame {
  /** True for an object, false for an array. */
  obj: boolean;
  /** Current key (object) or index (array). */
  key: string | number;
  /** Keys seen so far (objects). */
  keys: Set<string> | null;
}

/** `$.a[3].b` from the scanner's stack; keys that are not identifiers are quoted. */
function pathOf(stack: readonly Frame[], root = "$"): string {
  let p = root;
  // Deep documents: the first levels and the depth are enough to find the place.
  const shown = stack.length > 24 ? stack.slice(0, 16) : stack;
  for (const f of shown) {
    if (!f.obj) p += `[${f.key}]`;
    else if (f.key === "") continue;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.key as string)) p += `.${f.key}`;
    else p += `[${JSON.stringify(escapeControls((f.key as string).slice(0, 60)))}]`;
  }
  return shown === stack ? p : `${p}… (depth ${stack.length})`;
}

/** 1-based line and column of offset `pos`. */
function lineCol(text: string, pos: number): { line: number; column: number } {
  let line = 1, start = 0;
  const p = Math.min(pos, text.length);
  for (let i = text.indexOf("\n"); i >= 0 && i < p; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: p - start + 1 };
}

/**
 * Checks `text` against the JSON grammar and navscope's rules (see the module note) without
 * building values; throws one NavscopeError (`bad_value`) naming `where`, the line and column and
 * the JSON path.
 */
export function checkJsonText(
  text: string,
  where: ErrorLocation,
  opts: StrictJsonOptions = {},
): void {
  const maxDepth = opts.maxDepth ?? JSON_MAX_DEPTH;
  const what = opts.what ?? "not valid JSON";
  const n = text.length;
  const stack: Frame[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a BOM is allowed (RFC 8259 §8.1)
  const fail = (at: number, why: string, head = what): never => {
    const lc = lineCol(text, at);
    throw new NavscopeError(
      "bad_value",
      `${head}: ${why} at ${pathOf(stack, opts.pathPrefix)}`,
      { ...where, line: lc.line, column: lc.column },
      "a JSON document",
    );
  };
  const ws = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    }
  };
  /** Scans a string at `i` (on the quote); returns its value when `want`, else "". */
  const str = (want: boolean): string => {
    const start = ++i;
    let escaped = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 0x20) fail(i, `control character ${describeAt(text, i)} inside a string`);
      if (c === 92) {
        escaped = true;
        const e = text.charCodeAt(++i);
        if (e === 117) {
          const hex = text.slice(i + 1, i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(i - 1, "bad \\u escape");
          i += 4;
        } else if (
          !(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 ||
            e === 114 || e === 116)
        ) {
          fail(i - 1, `bad escape \\${escapeControls(text[i] ?? "")}`);
        }
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = text.charCodeAt(i + 1);
        if (c >= 0xdc00 || !(d >= 0xdc00 && d <= 0xdfff)) {
          fail(i, "lone surrogate in a string (not valid Unicode)");
        }
        i++;
      } else if (c === 0xfffd && !opts.allowReplacementChar) {
        fail(
          i,
          "U+FFFD (replacement character) in a string: the file is not valid UTF-8, or was decoded lossily",
        );
      }
    }
    if (i >= n) fail(start - 1, "unterminated string");
    i++;
    if (!escaped) return want ? text.slice(start, i - 1) : "";
    // Escapes: decode to check surrogates and U+FFFD written as \u escapes.
    let v: string;
    try {
      v = JSON.parse(text.slice(start - 1, i));
    } catch {
      return fail(start - 1, "bad string");
    }
    for (let k = 0; k < v.length; k++) {
      const c = v.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = v.charCodeAt(k + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          k++;
          continue;
        }
        fail(start - 1, "lone surrogate escape in a string (not valid Unicode)");
      }
      if (c >= 0xdc00 && c <= 0xdfff) {
        fail(start - 1, "lone surrogate escape in a string (not valid Unicode)");
      }
      if (c === 0xfffd && !opts.allowReplacementChar) {
        fail(start - 1, "U+FFFD (replacement character) in a string");
      }
    }
    return v;
  };
  const num = () => {
    const s = i;
    let integer = true, exp = false;
    if (text.charCodeAt(i) === 45) i++;
    let c = text.charCodeAt(i);
    if (c === 48) i++;
    else if (c >= 49 && c <= 57) { for (; c >= 48 && c <= 57; c = text.charCodeAt(++i)); }
    else fail(i, `unexpected ${describeAt(text, i)}`);
    c = text.charCodeAt(i);
    if (c === 46) {
      integer = false;
      c = text.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) fail(i, `unexpected ${describeAt(text, i)} in a number`);
      for (; c >= 48 && c <= 57; c = text.charCodeAt(++i));
    }
    if (c === 101 || c === 69) {
      integer = false;
      exp = true;
      c = text.charCodeAt(++i);
      if (c === 43 || c === 45) c = text.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) fail(i, `unexpected ${describeAt(text, i)} in a number`);
      for (; c >= 48 && c <= 57; c = text.charCodeAt(++i));
    }
    // Up to 15 digits is exact; without an exponent, fewer than 300 digits is finite.
    if (integer ? i - s < 16 : !exp && i - s < 300) return;
    const lit = text.slice(s, i);
    const v = Number(lit);
    if (!Number.isFinite(v)) fail(s, `number ${lit.slice(0, 40)} is beyond the 64-bit float range`);
    if (integer && !Number.isSafeInteger(v) && !opts.allowUnsafeIntegers) {
      fail(
        s,
        `integer ${lit.slice(0, 40)} is beyond ±(2^53 − 1): a 64-bit float cannot hold it exactly`,
      );
    }
  };
  const lit = (w: string) => {
    if (text.startsWith(w, i)) i += w.length;
    else fail(i, `unexpected ${describeAt(text, i)}`);
  };
  // value → (after value) loop with an explicit stack.
  for (;;) {
    // A value is expected at i.
    ws();
    const c = text.charCodeAt(i);
    let opened = false;
    if (c === 123 || c === 91) {
      if (stack.length >= maxDepth) fail(i, `nested deeper than ${maxDepth} levels`);
      const obj = c === 123;
      i++;
      ws();
      if (text.charCodeAt(i) === (obj ? 125 : 93)) i++;
      else {
        const f: Frame = { obj, key: obj ? "" : 0, keys: obj ? new Set() : null };
        stack.push(f);
        if (obj) key(f);
        opened = true;
      }
    } else if (c === 34) str(false);
    else if (c === 116) lit("true");
    else if (c === 102) lit("false");
    else if (c === 110) lit("null");
    else if (c === 45 || (c >= 48 && c <= 57)) num();
    else fail(i, `unexpected ${describeAt(text, i)}`);
    if (opened) continue;
    // After a value: close containers or move to the next member.
    let next = false;
    while (stack.length) {
      const f = stack[stack.length - 1];
      ws();
      const d = text.charCodeAt(i);
      if (d === 44) {
        i++;
        if (f.obj) key(f);
        else (f.key as number)++;
        next = true;
        break;
      }
      if (d === (f.obj ? 125 : 93)) {
        i++;
        stack.pop();
        continue;
      }
      fail(i, `unexpected ${describeAt(text, i)} (expected "," or "${f.obj ? "}" : "]"}")`);
    }
    if (next) continue;
    ws();
    if (i < n) fail(i, `unexpected ${describeAt(text, i)} after the document`);
    return;
  }

  function key(f: Frame): void {
    ws();
    if (text.charCodeAt(i) !== 34) {
      fail(i, `unexpected ${describeAt(text, i)} (expected a "key")`);
    }
    const at = i;
    const k = str(true);
    if (f.keys!.has(k)) {
      f.key = k;
      fail(at, `duplicate key ${JSON.stringify(escapeControls(k))}`, "invalid JSON object");
    }
    f.keys!.add(k);
    f.key = k;
    ws();
    if (text.charCodeAt(i) !== 58) fail(i, `unexpected ${describeAt(text, i)} (expected ":")`);
    i++;
  }
}

/**
 * Parses JSON text strictly (see the module note): one NavscopeError `bad_value` naming `where`,
 * the line, column and JSON path for a syntax error, a duplicate key, an inexact integer, an
 * out-of-range number, a lone surrogate or U+FFFD.
 */
export function parseJsonStrict(
  text: string,
  where: ErrorLocation,
  opts: StrictJsonOptions = {},
): unknown {
  checkJsonText(text, where, opts);
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/**
 * Bytes → text, strictly UTF-8: an invalid sequence is one NavscopeError naming the byte offset
 * of the first bad byte (a lossy decode would put U+FFFD into names silently).
 */
export function decodeUtf8Strict(bytes: Uint8Array, where: ErrorLocation): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const off = firstInvalidUtf8(bytes);
    throw new NavscopeError(
      "bad_value",
      `invalid UTF-8 byte 0x${bytes[off].toString(16).padStart(2, "0")}`,
      { ...where, offset: off },
      "UTF-8 text",
    );
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let need = 0, min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) need = 1, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) need = 2, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) need = 3, min = 0x10000;
    else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return b.length;
}

/** Reads a JSON file strictly: whole file, strict UTF-8, then {@link parseJsonStrict}. */
export async function readJsonFile(path: string, opts: StrictJsonOptions = {}): Promise<unknown> {
  return parseJsonStrict(await readTextStrict(path), { file: path }, opts);
}

/** Reads a whole text file as strict UTF-8 (one NavscopeError naming the file and offset). */
export async function readTextStrict(path: string): Promise<string> {
  return decodeUtf8Strict(await readFileBytes(path), { file: path });
}

/**
 * A name a pack can hold (zone names in legs, no-go tables): not empty, no control characters
 * (C0, DEL, C1) or invisible format characters (bidi overrides, zero-width marks: Unicode Cf),
 * no leading or trailing white space. Anything else names no zone a baker writes.
 */
export function isPlausibleName(s: string): boolean {
  return nameFault(s) === null;
}

/** What {@link isPlausibleName} asks of a name, for the `expected` part of an error. */
export const PLAUSIBLE_NAME =
  "a zone name: not empty, no control (C0, DEL, C1) or format (Unicode Cf) characters, no white " +
  "space at either end";

/**
 * Why `s` is not a plausible name ({@link isPlausibleName}), in words (`it is empty`, `it holds
 * control character U+0007 at index 2`, …), or null when it is one.
 */
export function nameFault(s: string): string | null {
  if (s === "") return "it is empty";
  if (s.trim() !== s) return "it has white space at the start or end";
  // deno-lint-ignore no-control-regex
  const m = /[\x00-\x1f\x7f-\x9f]|\p{Cf}/u.exec(s);
  if (!m) return null;
  const cp = m[0].codePointAt(0)!;
  const kind = cp <= 0x9f ? "control" : "format";
  return `it holds ${kind} character U+${
    cp.toString(16).toUpperCase().padStart(4, "0")
  } at index ${m.index}`;
}

/**
 * Why free text `s` (a leg's note, a landmark) is not text a writer produces, or null: control
 * characters (C0 but tab and line feed, DEL, C1) only get into such text by damage or by copying
 * binary data, and they garble every table and log line that shows it.
 */
export function textFault(s: string): string | null {
  // deno-lint-ignore no-control-regex
  const m = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(s);
  if (!m) return null;
  const cp = m[0].codePointAt(0)!;
  return `it holds control character U+${
    cp.toString(16).toUpperCase().padStart(4, "0")
  } at index ${m.index}`;
}
