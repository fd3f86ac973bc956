/**
 * JSON text in with located errors: `JSON.parse` says only "position N" (or nothing at all at the
 * end of the input); {@link parseJson} turns that into a NavscopeError with the 1-based line and
 * column, so a syntax error in a manifest or a no-go table reads `w.json: line 3, column 2: …`.
 * @module
 */
import type { ErrorLocation } from "../errors.ts";
import { parseJsonStrict, type StrictJsonOptions } from "./json_strict.ts";

/** Where a `JSON.parse` error happened, and its message without V8's position suffix. */
export interface JsonSyntaxProblem {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units, as editors count them for BMP text). */
  column: number;
  /** The parser's message, position suffix removed. */
  message: string;
}

/** 1-based line and column of character offset `pos` in `text`. */
export function lineColumnAt(text: string, pos: number): { line: number; column: number } {
  const p = Math.max(0, Math.min(pos, text.length));
  let line = 1, lineStart = 0;
  for (let i = 0; i < p; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: p - lineStart + 1 };
}

/**
 * Locates a `JSON.parse` error in `text`: from V8's "(line L column C)" or "position N", else
 * (e.g. "Unexpected end of JSON input") the end of the text.
 */
export function jsonSyntaxProblem(text: string, err: unknown): JsonSyntaxProblem {
  const raw = err instanceof Error ? err.message : String(err);
  const message =
    raw.replace(/\s*(?:in JSON\s*)?at position \d+(?:\s*\(line \d+ column \d+\))?/, "")
      .replace(/\s+in JSON$/, "").trim() || "not valid JSON";
  const lc = /\(line (\d+) column (\d+)\)/.exec(raw);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]), message };
  const p = /position (\d+)/.exec(raw);
  const at = lineColumnAt(text, p ? Number(p[1]) : jsonErrorOffset(text));
  return { ...at, message };
}

/**
 * Offset of the first JSON syntax error in `text` (`text.length` when the text ends too early),
 * found by a small RFC 8259 scanner — V8 leaves the position out of some messages
 * ("Unexpected token 'x', … is not valid JSON"). Only called once a parse has failed.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && " \t\n\r".includes(text[i])) i++;
  };
  class Bad {
    constructor(readonly at: number) {}
  }
  const bad = (): never => {
    throw new Bad(Math.min(i, n));
  };
  const lit = (w: string) => {
    if (text.startsWith(w, i)) i += w.length;
    else bad();
  };
  const str = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) bad();
      if (c === 92) {
        i++;
        if (i >= n) bad();
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) bad();
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i])) i++;
        else bad();
      } else i++;
    }
    bad();
  };
  const num = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) bad();
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10000) bad();
    ws();
    if (i >= n) bad();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') bad();
        str();
        ws();
        if (text[i] !== ":") bad();
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else bad();
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else bad();
      }
    } else if (c === '"') str();
    else if (c === "t") lit("true");
    else if (c === "f") lit("false");
    else if (c === "n") lit("null");
    else num();
  };
  try {
    value(0);
    ws();
    return i < n ? i : n;
  } catch (e) {
    if (e instanceof Bad) return e.at;
    throw e;
  }
}

/**
 * The strict reader ({@link parseJsonStrict}): syntax errors, duplicate keys, inexact integers,
 * out-of-range numbers, lone surrogates and U+FFFD are one NavscopeError (`bad_value`) naming
 * `where` (file, section) plus the line, column and JSON path: `what: message at $.path`.
 */
export function parseJson(
  text: string,
  where: ErrorLocation,
  what = "not valid JSON",
  opts: StrictJsonOptions = {},
): unknown {
  return parseJsonStrict(text, where, { ...opts, what });
}
