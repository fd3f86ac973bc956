/**
 * Leg batteries of any size, streamed: {@link streamLegs} reads a legs.json file in chunks
 * (strict UTF-8), finds each element of `$.legs` with a small top-level scanner, parses it
 * strictly (src/codec/json_strict.ts) and validates it as {@link parseLegs} does, holding one
 * chunk and one leg at a time — a 10^6-leg battery never sits in memory whole. The first pass
 * of a caller validates the whole file (`streamLegs(path)` to the end) before any planning; the
 * header (`format`, `version`, no other key) is checked whatever the key order.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { escapeControls, firstInvalidUtf8, parseJsonStrict } from "../codec/json_strict.ts";
import { checkLegsHeader, type Leg, validateLeg } from "./format.ts";

/** Bytes read per chunk. */
const CHUNK = 1 << 20;

/** A text buffer over a file read in chunks, with the line and column of its start. */
class ChunkText {
  buf = "";
  pos = 0;
  /** Line and column (1-based) of buf[0]. */
  line = 1;
  col = 1;
  eof = false;
  #file: Deno.FsFile;
  #dec = new TextDecoder("utf-8", { fatal: true });
  #bytes = 0;

  constructor(file: Deno.FsFile, readonly path: string) {
    this.#file = file;
  }

  /** Appends the next chunk; false at the end of the file. */
  async more(): Promise<boolean> {
    if (this.eof) return false;
    // Drop what is consumed (its lines counted) so the buffer holds ~one chunk.
    if (this.pos > 0) {
      const gone = this.buf.slice(0, this.pos);
      const nl = gone.lastIndexOf("\n");
      if (nl >= 0) {
        this.line += gone.split("\n").length - 1;
        this.col = gone.length - nl;
      } else this.col += gone.length;
      this.buf = this.buf.slice(this.pos);
      this.pos = 0;
    }
    const b = new Uint8Array(CHUNK);
    const n = await this.#file.read(b);
    let text: string;
    try {
      text = n === null ? this.#dec.decode() : this.#dec.decode(b.subarray(0, n), { stream: true });
    } catch {
      const off = n === null ? this.#bytes : this.#bytes + firstInvalidUtf8(b.subarray(0, n));
      throw new NavscopeError(
        "bad_value",
        "invalid UTF-8",
        { file: this.path, offset: off },
        "UTF-8 text",
      );
    }
    if (n === null) this.eof = true;
    else this.#bytes += n;
    this.buf += text;
    return n !== null || text !== "";
  }

  /** Line and column of buffer position `p`. */
  at(p: number): { line: number; column: number } {
    const head = this.buf.slice(0, p);
    const nl = head.lastIndexOf("\n");
    if (nl < 0) return { line: this.line, column: this.col + p };
    return { line: this.line + head.split("\n").length - 1, column: p - nl };
  }

  /** Skips white space (reading on); the next character, or "" at the end. */
  async peek(): Promise<string> {
    for (;;) {
      while (this.pos < this.buf.length && " \t\r\n".includes(this.buf[this.pos])) this.pos++;
      if (this.pos < this.buf.length) return this.buf[this.pos];
      if (!await this.more()) return "";
    }
  }

  fail(p: number, why: string, path: string): never {
    throw new NavscopeError(
      "bad_value",
      `not valid JSON: ${why} at ${path}`,
      { file: this.path, ...this.at(p) },
      "a JSON document",
    );
  }

  /** Expects `c` next (after white space). */
  async expect(c: string, path: string): Promise<void> {
    const got = await this.peek();
    if (got !== c) {
      const what = got === "" ? "end of the text" : `"${escapeControls(got)}"`;
      this.fail(this.pos, `unexpected ${what} (expected "${c}")`, path);
    }
    this.pos++;
  }

  /**
   * The text of the JSON value starting at the current position (strings, nesting and escapes
   * followed; not validated here) and where it starts.
   */
  async value(path: string): Promise<Value> {
    await this.peek();
    let i = this.pos, depth = 0, inStr = false;
    for (;;) {
      if (i >= this.buf.length) {
        const rel = i - this.pos;
        if (!await this.more()) break;
        i = this.pos + rel;
        continue;
      }
      const c = this.buf.charCodeAt(i);
      if (inStr) {
        if (c === 92) i++;
        else if (c === 34) {
          inStr = false;
          if (depth === 0) {
            i++;
            break;
          }
        }
      } else if (c === 34) inStr = true;
      else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        if (depth === 0) break;
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && (c === 44 || c === 32 || c === 10 || c === 13 || c === 9)) break;
      i++;
    }
    if (i === this.pos) this.fail(i, "a value is missing", path);
    const start = this.pos;
    const text = this.buf.slice(start, Math.min(i, this.buf.length));
    this.pos = Math.min(i, this.buf.length);
    // Line and column only when an error needs them (counting lines per leg is quadratic).
    return { text, at: () => this.at(start) };
  }
}

/** A value's text and, on demand, where it starts (valid until the buffer moves on). */
interface Value {
  text: string;
  at: () => { line: number; column: number };
}

/** Parses one value's text strictly, locating errors in the whole file. */
function parseAt(v: Value, path: string, file: string): unknown {
  try {
    return parseJsonStrict(v.text, { file }, { pathPrefix: path });
  } catch (e) {
    if (!(e instanceof NavscopeError) || e.where.line === undefined) throw e;
    const l = e.where.line, c = e.where.column ?? 1, start = v.at();
    throw new NavscopeError(e.code, e.what, {
      ...e.where,
      line: start.line + l - 1,
      column: l === 1 ? start.column + c - 1 : c,
    }, e.expected);
  }
}

/**
 * Streams the legs of a legs.json file, validated; throws one NavscopeError (file, line,
 * column, JSON path) at the first problem. Memory: one chunk and one leg (plus the set of ids).
 */
export async function* streamLegs(path: string): AsyncGenerator<Leg> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
      file: path,
    });
  }
  try {
    const t = new ChunkText(file, path);
    await t.more();
    if (t.buf.charCodeAt(0) === 0xfeff) t.pos = 1;
    await t.expect("{", "$");
    const header: Record<string, unknown> = {};
    const ids = new Set<string>();
    let first = true;
    for (;;) {
      if (first && await t.peek() === "}") {
        t.pos++;
        break;
      }
      first = false;
      if (await t.peek() !== '"') await t.expect('"', "$");
      const kv = await t.value("$");
      const key = parseAt(kv, "$", path) as string;
      const kp = /^[A-Za-z_]\w*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;
      if (Object.hasOwn(header, key)) {
        t.fail(t.pos - kv.text.length, `duplicate key ${JSON.stringify(escapeControls(key))}`, kp);
      }
      if (!["format", "version", "legs"].includes(key)) {
        throw new NavscopeError(
          "bad_value",
          `${kp}: is unknown`,
          { file: path },
          "format, version, legs",
        );
      }
      await t.expect(":", kp);
      if (key === "legs" && await t.peek() === "[") {
        t.pos++;
        header.legs = [];
        let i = 0;
        if (await t.peek() === "]") t.pos++;
        else {
          for (;; i++) {
            const lp = `$.legs[${i}]`;
            const leg = validateLeg(parseAt(await t.value(lp), lp, path), lp, path);
            if (ids.has(leg.id)) {
              throw new NavscopeError(
                "bad_value",
                `${lp}.id: repeats id ${leg.id}`,
                { file: path },
                "unique ids",
              );
            }
            ids.add(leg.id);
            yield leg;
            const c = await t.peek();
            if (c === "]") {
              t.pos++;
              break;
            }
            await t.expect(",", `$.legs[${i + 1}]`);
          }
        }
      } else header[key] = parseAt(await t.value(kp), kp, path);
      const c = await t.peek();
      if (c === "}") {
        t.pos++;
        break;
      }
      await t.expect(",", "$");
    }
    if (await t.peek() !== "") t.fail(t.pos, "unexpected text after the document", "$");
    checkLegsHeader(header, path);
  } finally {
    file.close();
  }
}

/** Validates a whole legs file without keeping its legs; returns how many it holds. */
export async function countLegs(path: string): Promise<number> {
  let n = 0;
  for await (const _ of streamLegs(path)) n++;
  return n;
}
