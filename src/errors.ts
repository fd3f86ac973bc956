/**
 * One error type for every bad input navscope meets. Each error says what went wrong, where
 * (file, section, zone, tile, byte offset or line) and what was expected, so a planner engineer
 * can find the broken byte without a debugger.
 * @module
 */

/** Where in an input an error was found. Every field is optional; set what is known. */
export interface ErrorLocation {
  /** File path (or a label such as `<memory>`). */
  file?: string;
  /** Section tag or logical part, e.g. `BNAV header`, `BGRD`, `FSPN`. */
  section?: string;
  /** Zone name or id. */
  zone?: string | number;
  /** Tile index within the zone. */
  tile?: number;
  /** Byte offset (absolute within the file, or within the section when `section` says so). */
  offset?: number;
  /** 1-based line number for text inputs. */
  line?: number;
  /** 1-based column for text inputs (with `line`). */
  column?: number;
}

/** Stable error codes: callers and tests match on these, never on message text. */
export type ErrorCode =
  | "truncated"
  | "bad_magic"
  | "bad_version"
  | "varint_overflow"
  | "stream_length"
  | "count_mismatch"
  | "offset_out_of_range"
  | "hash_mismatch"
  | "bad_value"
  | "constants_mismatch"
  | "io"
  | "usage"
  | "cancelled";

/** The error every navscope decoder and command throws for bad input. */
export class NavscopeError extends Error {
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** Where the problem is. */
  readonly where: ErrorLocation;
  /** What was found, in words. */
  readonly what: string;
  /** What was expected, if it can be said. */
  readonly expected?: string;

  constructor(code: ErrorCode, what: string, where: ErrorLocation = {}, expected?: string) {
    super(formatMessage(what, where, expected));
    this.name = "NavscopeError";
    this.code = code;
    this.where = { ...where };
    this.what = what;
    this.expected = expected;
  }

  /** A copy of this error with more location facts filled in (outer layers add the file name). */
  at(more: ErrorLocation): NavscopeError {
    const where: ErrorLocation = { ...more, ...stripUndefined(this.where) };
    const e = new NavscopeError(this.code, this.what, where, this.expected);
    e.stack = this.stack;
    return e;
  }
}

function stripUndefined(w: ErrorLocation): ErrorLocation {
  const out: ErrorLocation = {};
  for (const [k, v] of Object.entries(w)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** `file: section, zone Z, tile T, offset 0x1f (31): what (expected …)` */
export function formatMessage(what: string, where: ErrorLocation, expected?: string): string {
  const parts: string[] = [];
  if (where.section !== undefined) parts.push(where.section);
  if (where.zone !== undefined) parts.push(`zone ${where.zone}`);
  if (where.tile !== undefined) parts.push(`tile ${where.tile}`);
  if (where.offset !== undefined) {
    parts.push(`offset ${where.offset} (0x${where.offset.toString(16)})`);
  }
  if (where.line !== undefined) {
    parts.push(`line ${where.line}${where.column !== undefined ? `, column ${where.column}` : ""}`);
  }
  const head = (where.file ?? "") + (where.line !== undefined && where.file ? "" : "");
  let msg = head ? `${head}: ` : "";
  if (parts.length) msg += `${parts.join(", ")}: `;
  msg += what;
  if (expected !== undefined) msg += ` (expected ${expected})`;
  return msg;
}

/** Adds file (and other) location facts to a NavscopeError thrown inside `fn`. */
export function withLocation<T>(where: ErrorLocation, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof NavscopeError) throw e.at(where);
    throw e;
  }
}
