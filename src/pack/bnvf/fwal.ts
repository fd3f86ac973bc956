/**
 * FWAL: the boundary-edge keep table of one zone (spec 旁包 › FWAL; format-notes FWAL).
 *
 * Zone block: `varint walls`, then one stream unit of key deltas (key = 3·t + k, t = zone-local
 * triangle, k = edge; formulas.md entry 13) — the first key as is, then strictly positive
 * differences — and one stream unit holding, per wall, `varint count` and that many region-id
 * deltas (first as is, then strictly positive). Lookup: binary search for the key, then binary
 * search in its region list. A key that is not in the table means the sidecar does not match the
 * zone mesh: an error, never "not kept" ("表里查不到某条边 … 直接报错").
 * @module
 */
import { ByteReader, ByteWriter, readStream, readVarint, writeStream } from "../../codec/mod.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import type { WallTable } from "./types.ts";

/** Decodes a zone's FWAL block; `base` is its absolute offset for error messages. */
export function decodeWallTable(block: Uint8Array, where: ErrorLocation, base = 0): WallTable {
  const r = new ByteReader(block, { ...where, section: "FWAL" }, base);
  const count = r.varint();
  let at = r.pos;
  const kraw = readStream(r, "key stream");
  if (count > kraw.length) {
    throw r.error(
      "stream_length",
      `key stream has ${kraw.length} bytes for ${count} walls`,
      `at least ${count} bytes`,
      at,
    );
  }
  const keys = new Uint32Array(count);
  const next = [0];
  let pos = readList(kraw, 0, count, keys, 0, -1, r, at, "key", next);
  if (pos !== kraw.length) {
    throw r.error(
      "stream_length",
      `key stream has ${kraw.length - pos} bytes left over`,
      "no leftover bytes",
      at,
    );
  }
  at = r.pos;
  const rraw = readStream(r, "region stream");
  r.expectEnd("the wall table");
  const ridStart = new Uint32Array(count + 1);
  let rids = new Uint32Array(Math.max(16, count));
  let nr = 0;
  pos = 0;
  for (let i = 0; i < count; i++) {
    let c: number;
    try {
      c = readVarint(rraw, pos, next);
    } catch (e) {
      throw inner(e, r, at, `region list of wall ${i}`);
    }
    pos = next[0];
    if (c > rraw.length - pos) {
      throw r.error(
        "stream_length",
        `wall ${i} claims ${c} regions but the stream is shorter`,
        `${c} more varints`,
        at,
      );
    }
    if (nr + c > rids.length) {
      const g = new Uint32Array(Math.max(rids.length * 2, nr + c));
      g.set(rids.subarray(0, nr));
      rids = g;
    }
    ridStart[i] = nr;
    pos = readList(rraw, pos, c, rids, nr, -1, r, at, `wall ${i} region`, next);
    nr += c;
  }
  ridStart[count] = nr;
  if (pos !== rraw.length) {
    throw r.error(
      "stream_length",
      `region stream has ${rraw.length - pos} bytes left over`,
      "no leftover bytes",
      at,
    );
  }
  return { count, keys, ridStart, rids: rids.slice(0, nr) };
}

function inner(e: unknown, r: ByteReader, at: number, what: string): unknown {
  if (e instanceof NavscopeError) return r.error(e.code, `${what}: ${e.what}`, e.expected, at);
  return e;
}

/** Reads `c` strictly ascending u32 values stored as deltas (first absolute) into `out[o..]`. */
function readList(
  raw: Uint8Array,
  pos: number,
  c: number,
  out: Uint32Array,
  o: number,
  prev: number,
  r: ByteReader,
  at: number,
  what: string,
  next: number[],
): number {
  for (let j = 0; j < c; j++) {
    let d: number;
    try {
      d = readVarint(raw, pos, next);
    } catch (e) {
      throw inner(e, r, at, `${what} ${j}`);
    }
    pos = next[0];
    const v = j === 0 ? d : prev + d;
    if ((j > 0 && d === 0) || v > 0xffffffff) {
      throw r.error(
        "bad_value",
        `${what} ${j} (${v}) is not strictly ascending u32`,
        "ascending distinct u32 values",
        at,
      );
    }
    out[o + j] = v;
    prev = v;
  }
  return pos;
}

/** Encodes a zone's FWAL block (deterministic). */
export function encodeWallTable(t: WallTable): Uint8Array {
  const w = new ByteWriter(32);
  w.varint(t.count);
  const k = new ByteWriter(t.count * 2 + 16);
  for (let i = 0; i < t.count; i++) k.varint(i === 0 ? t.keys[0] : t.keys[i] - t.keys[i - 1]);
  writeStream(w, k.view());
  const g = new ByteWriter(t.rids.length * 2 + t.count + 16);
  for (let i = 0; i < t.count; i++) {
    const a = t.ridStart[i], b = t.ridStart[i + 1];
    g.varint(b - a);
    for (let j = a; j < b; j++) g.varint(j === a ? t.rids[j] : t.rids[j] - t.rids[j - 1]);
  }
  writeStream(w, g.view());
  return w.finish();
}

/** Builds a wall table from (key, region list) pairs; sorts keys and regions. */
export function buildWallTable(
  entries: ReadonlyArray<{ key: number; rids: ReadonlyArray<number> }>,
): WallTable {
  const es = [...entries].sort((a, b) => a.key - b.key);
  const count = es.length;
  const keys = new Uint32Array(count);
  const ridStart = new Uint32Array(count + 1);
  const all: number[] = [];
  es.forEach((e, i) => {
    keys[i] = e.key;
    ridStart[i] = all.length;
    for (const r of [...new Set(e.rids)].sort((a, b) => a - b)) all.push(r);
  });
  ridStart[count] = all.length;
  return { count, keys, ridStart, rids: Uint32Array.from(all) };
}

/** Index of `key` (= 3·triangle + k) in the table, or -1 (binary search). */
export function wallIndexOf(t: WallTable, key: number): number {
  let lo = 0, hi = t.count - 1;
  const keys = t.keys;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = keys[mid];
    if (v === key) return mid;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * True if region `rid` keeps boundary edge `key`. A key missing from the table throws
 * `bad_value` ("旁包留墙表没有这条边 (tri t)"): the sidecar does not match the zone mesh.
 */
export function wallKeptFor(
  t: WallTable,
  key: number,
  rid: number,
  where: ErrorLocation = {},
): boolean {
  const i = wallIndexOf(t, key);
  if (i < 0) {
    throw new NavscopeError(
      "bad_value",
      `wall table has no boundary edge ${key} (tri ${Math.floor(key / 3)}, edge ${key % 3})`,
      { ...where, section: "FWAL" },
      "every boundary edge of the zone mesh to be listed",
    );
  }
  let lo = t.ridStart[i], hi = t.ridStart[i + 1] - 1;
  const rids = t.rids;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = rids[mid];
    if (v === rid) return true;
    if (v < rid) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
