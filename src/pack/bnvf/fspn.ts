/**
 * FSPN tile payloads (spec 旁包 › FSPN; format-notes "FSPN zone block"): `varint n` followed by
 * six stream units, aligned record for record with the BGRD tile's decode order:
 *
 * 1. `scc`: zigzag varints of the difference to the previous record's component id (first
 *    record: difference to 0);
 * 2. `steps2x`, 3. `seg`, 4. `tax`: one byte per record;
 * 5. `clr2d`: one varint per record;
 * 6. `medial`: one byte per record.
 *
 * A stream that inflates to the wrong size, or whose varints leave bytes over or run short, is
 * corruption; so is a payload with bytes after the sixth stream.
 * @module
 */
import { ByteReader, ByteWriter, readStream, readVarint, writeStream } from "../../codec/mod.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import type { FieldsTile } from "./types.ts";

const I32_MAX = 0x7fffffff;

/**
 * Bound on records per payload byte: each byte column inflates to n bytes and deflate cannot
 * exceed about 1032:1, so a larger claim is corruption (and would allocate gigabytes).
 */
export const MAX_DEFLATE_RATIO = 1100;

/** Allocates an all-zero fields tile of `n` records. */
export function allocFieldsTile(n: number): FieldsTile {
  return {
    n,
    scc: new Int32Array(n),
    steps2x: new Uint8Array(n),
    seg: new Uint8Array(n),
    tax: new Uint8Array(n),
    clr2d: new Uint16Array(n),
    medial: new Uint8Array(n),
  };
}

/**
 * Decodes one FSPN tile payload. `expectedRecords` is the tile-table (= BGRD) record count;
 * `base` is the payload's absolute offset in the file, for error messages.
 */
export function decodeFieldsTile(
  payload: Uint8Array,
  expectedRecords: number,
  where: ErrorLocation,
  base = 0,
): FieldsTile {
  const r = new ByteReader(payload, { ...where, section: "FSPN" }, base);
  const n = r.varint();
  if (n !== expectedRecords) {
    throw r.error(
      "count_mismatch",
      `tile payload holds ${n} records`,
      `${expectedRecords} records (tile table / BGRD tile)`,
      0,
    );
  }
  if (n > payload.length * MAX_DEFLATE_RATIO) {
    throw r.error(
      "bad_value",
      `tile payload of ${payload.length} bytes cannot hold ${n} records`,
      `at most ${MAX_DEFLATE_RATIO} records per payload byte`,
      0,
    );
  }
  const t = allocFieldsTile(n);
  if (n === 0) {
    // An empty tile is the single varint 0 (same convention as BGRD's "0 表示空瓦").
    r.expectEnd("empty tile payload");
    return t;
  }
  let at = r.pos;
  decodeScc(readStream(r, "scc stream"), t.scc, r, at);
  t.steps2x.set(readStream(r, "steps2x stream", n));
  t.seg.set(readStream(r, "seg stream", n));
  t.tax.set(readStream(r, "tax stream", n));
  at = r.pos;
  decodeClr2d(readStream(r, "clr2d stream"), t.clr2d, r, at);
  t.medial.set(readStream(r, "medial stream", n));
  r.expectEnd("the six FSPN streams");
  return t;
}

function streamError(
  r: ByteReader,
  at: number,
  code: "truncated" | "stream_length" | "bad_value" | "varint_overflow",
  what: string,
  expected?: string,
): NavscopeError {
  return r.error(code, what, expected, at);
}

/** Re-raises a varint error from inside an inflated stream at the stream's file offset. */
function wrapInner(e: unknown, r: ByteReader, at: number, name: string): never {
  if (e instanceof NavscopeError) {
    throw streamError(
      r,
      at,
      e.code as "truncated",
      `${name}: ${e.what} (inflated byte ${e.where.offset ?? "?"})`,
      e.expected,
    );
  }
  throw e;
}

function decodeScc(raw: Uint8Array, out: Int32Array, r: ByteReader, at: number): void {
  const next = [0];
  let pos = 0;
  let prev = 0;
  const n = out.length;
  try {
    for (let i = 0; i < n; i++) {
      const u = readVarint(raw, pos, next);
      pos = next[0];
      // zigzag: even → +u/2, odd → −(u+1)/2 (spec 公共编码).
      const v = prev + (u % 2 === 0 ? u / 2 : -(u + 1) / 2);
      if (v < 0 || v > I32_MAX) {
        throw streamError(
          r,
          at,
          "bad_value",
          `scc of record ${i} is ${v}`,
          "a component id in [0, 2^31)",
        );
      }
      out[i] = v;
      prev = v;
    }
  } catch (e) {
    if (e instanceof NavscopeError && e.where.section === "FSPN") throw e;
    wrapInner(e, r, at, "scc stream");
  }
  if (pos !== raw.length) {
    throw streamError(
      r,
      at,
      "stream_length",
      `scc stream has ${raw.length - pos} bytes left over after ${n} records`,
      "no leftover bytes",
    );
  }
}

function decodeClr2d(raw: Uint8Array, out: Uint16Array, r: ByteReader, at: number): void {
  const next = [0];
  let pos = 0;
  const n = out.length;
  try {
    for (let i = 0; i < n; i++) {
      const v = readVarint(raw, pos, next);
      pos = next[0];
      if (v > 0xffff) {
        throw streamError(
          r,
          at,
          "bad_value",
          `clr2d of record ${i} is ${v}`,
          "a value ≤ 65535 (clearance is a u16)",
        );
      }
      out[i] = v;
    }
  } catch (e) {
    if (e instanceof NavscopeError && e.where.section === "FSPN") throw e;
    wrapInner(e, r, at, "clr2d stream");
  }
  if (pos !== raw.length) {
    throw streamError(
      r,
      at,
      "stream_length",
      `clr2d stream has ${raw.length - pos} bytes left over after ${n} records`,
      "no leftover bytes",
    );
  }
}

/** Encodes one FSPN tile payload (deterministic: fixed zlib level). */
export function encodeFieldsTile(t: FieldsTile): Uint8Array {
  const w = new ByteWriter(64 + t.n * 2);
  w.varint(t.n);
  if (t.n === 0) return w.finish();
  const v = new ByteWriter(t.n * 2 + 16);
  let prev = 0;
  for (let i = 0; i < t.n; i++) {
    v.svarint(t.scc[i] - prev);
    prev = t.scc[i];
  }
  writeStream(w, v.view());
  writeStream(w, t.steps2x.subarray(0, t.n));
  writeStream(w, t.seg.subarray(0, t.n));
  writeStream(w, t.tax.subarray(0, t.n));
  const c = new ByteWriter(t.n * 2 + 16);
  for (let i = 0; i < t.n; i++) c.varint(t.clr2d[i]);
  writeStream(w, c.view());
  writeStream(w, t.medial.subarray(0, t.n));
  return w.finish();
}

/** Throws `bad_value` unless every column of `t` has at least `t.n` entries and scc ≥ 0. */
export function checkFieldsTile(t: FieldsTile, where: ErrorLocation): void {
  const cols = [t.scc, t.steps2x, t.seg, t.tax, t.clr2d, t.medial];
  for (const c of cols) {
    if (c.length < t.n) {
      throw new NavscopeError("bad_value", `fields column shorter than n = ${t.n}`, {
        ...where,
        section: "FSPN",
      });
    }
  }
  for (let i = 0; i < t.n; i++) {
    if (t.scc[i] < 0) {
      throw new NavscopeError("bad_value", `scc of record ${i} is negative`, {
        ...where,
        section: "FSPN",
      });
    }
  }
}
