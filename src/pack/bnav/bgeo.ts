/**
 * BGEO, the chunked geometry section of the v5 main pack (spec 数据包 › 几何段; format-notes
 * "BGEO (version 5)"). Offsets in the section header and in the chunk directories are relative
 * to the section start.
 *
 * Header (72 bytes): "BGEO", u32 version 1, u32 vertex/triangle/link totals, u32 chunk sizes
 * (records per chunk) for the three tables, u32 zone-table bytes, u32 reserved, u64 directory
 * offsets ×3, u64 zone-table offset. Directory entry (16 bytes): u64 offset, u32 size, u32 aux
 * (the link chunk's first source; 0 elsewhere).
 *
 * Chunk k of a table with chunk size B and N records covers `[k·B, k·B + min(B, N − k·B))`
 * (formulas.md 几何段 #6); there are `⌈N/B⌉` chunks. Deltas restart at every chunk start, so a
 * chunk decodes on its own. Every chunk is a run of stream units (varint length + zlib).
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { deflate, readStream } from "../../codec/stream.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, COORD_PX, firstOutside, HEIGHT } from "../bounds.ts";
import type { LinkColumns, TriangleColumns } from "./types.ts";
import { VarintCursor } from "./varint_cursor.ts";

/** BGEO section version. */
export const BGEO_VERSION = 1;
/** BGEO header size. */
export const BGEO_HEADER_SIZE = 72;
/** Chunk directory entry size. */
export const CHUNK_ENTRY_SIZE = 16;
/**
 * Default records per chunk. The spec leaves the chunk length to the header; 2^16 keeps four
 * chunks inside one 2^20-record decode batch (formulas.md 体积 #5: a batch holds at least as many
 * chunks as workers) and keeps per-zone loads from inflating much beyond the zone.
 */
export const DEFAULT_CHUNK_SIZE = 65536;
/** zlib cannot expand data by more than ~1032:1; used to reject absurd counts before allocating. */
const MAX_INFLATE_RATIO = 1032;

/** Records per chunk for the three tables. */
export interface ChunkSizes {
  /** Vertices per chunk. */
  vertex: number;
  /** Triangles per chunk. */
  triangle: number;
  /** Links per chunk. */
  link: number;
}

/** One chunk directory entry (offset relative to the BGEO section). */
export interface ChunkEntry {
  /** Offset from the section start. */
  offset: number;
  /** Byte size of the chunk. */
  size: number;
  /** Link chunks: the first source of the chunk; 0 elsewhere. */
  aux: number;
}

/** The parsed BGEO header and directories. */
export interface BgeoLayout {
  /** Absolute offset of the section in the file. */
  base: number;
  /** Section size. */
  size: number;
  /** Section version. */
  version: number;
  /** Vertex, triangle and link totals. */
  counts: { vertex: number; triangle: number; link: number };
  /** Chunk sizes. */
  chunkSizes: ChunkSizes;
  /** Zone table offset (relative) and size. */
  zoneTable: { offset: number; size: number };
  /** Directory offsets (relative). */
  dirOffsets: { vertex: number; triangle: number; link: number };
  /** Chunk directories. */
  dirs: { vertex: ChunkEntry[]; triangle: ChunkEntry[]; link: ChunkEntry[] };
}

/** Table names, for messages. */
export type TableName = "vertex" | "triangle" | "link";

/** Number of chunks of a table with `n` records and chunk size `b`. */
export function chunkCount(n: number, b: number): number {
  return n === 0 ? 0 : Math.ceil(n / b);
}

/** Record range `[start, end)` of chunk `k`. */
export function chunkRange(k: number, n: number, b: number): [number, number] {
  const start = k * b;
  return [start, start + Math.min(b, n - start)];
}

/**
 * Parses and validates the BGEO header and directories. `expect` holds the BNAV header counts,
 * which the section must repeat.
 */
export function readBgeoLayout(
  file: Uint8Array,
  base: number,
  size: number,
  expect: { vertex: number; triangle: number; link: number },
  where: ErrorLocation,
): BgeoLayout {
  const w = { ...where, section: "BGEO" };
  const r = new ByteReader(file.subarray(base, base + size), w, base);
  r.need(BGEO_HEADER_SIZE, "BGEO header");
  const tag = r.tag();
  if (tag !== "BGEO") {
    throw new NavscopeError("bad_magic", `section tag is ${JSON.stringify(tag)}`, {
      ...w,
      offset: base,
    }, '"BGEO"');
  }
  const version = r.u32();
  if (version !== BGEO_VERSION) {
    throw r.error("bad_version", `BGEO version ${version}`, `${BGEO_VERSION}`, 4);
  }
  const counts = { vertex: r.u32(), triangle: r.u32(), link: r.u32() };
  for (const [i, k] of (["vertex", "triangle", "link"] as const).entries()) {
    if (counts[k] !== expect[k]) {
      throw r.error(
        "count_mismatch",
        `BGEO ${k} total ${counts[k]} differs from the BNAV header's ${expect[k]}`,
        `${expect[k]}`,
        8 + 4 * i,
      );
    }
  }
  const chunkSizes = { vertex: r.u32(), triangle: r.u32(), link: r.u32() };
  const zoneTableSize = r.u32();
  r.u32(); // reserved
  const dirOffsets = { vertex: r.u64(), triangle: r.u64(), link: r.u64() };
  const zoneTable = { offset: r.u64(), size: zoneTableSize };
  inSection(zoneTable.offset, zoneTable.size, size, "zone table", base, w);
  const minRaw = { vertex: 12, triangle: 3, link: 2 };
  const dirs = {
    vertex: [] as ChunkEntry[],
    triangle: [] as ChunkEntry[],
    link: [] as ChunkEntry[],
  };
  for (const [i, k] of (["vertex", "triangle", "link"] as const).entries()) {
    const n = counts[k];
    const b = chunkSizes[k];
    if (n > 0 && b === 0) {
      throw r.error(
        "bad_value",
        `${k} chunk size is 0 for ${n} records`,
        "a chunk size > 0",
        20 + 4 * i,
      );
    }
    // A chunk cannot inflate past ~1032× its size; reject counts no section could hold.
    if (n * minRaw[k] > size * MAX_INFLATE_RATIO) {
      throw r.error(
        "count_mismatch",
        `${n} ${k} records cannot fit in a ${size}-byte section`,
        `at most ${Math.floor((size * MAX_INFLATE_RATIO) / minRaw[k])}`,
        8 + 4 * i,
      );
    }
    const nc = chunkCount(n, b);
    inSection(dirOffsets[k], nc * CHUNK_ENTRY_SIZE, size, `${k} chunk directory`, base, w);
    const dr = new ByteReader(r.bytes, w, base, dirOffsets[k]);
    for (let c = 0; c < nc; c++) {
      const at = dr.pos;
      const e = { offset: dr.u64(), size: dr.u32(), aux: dr.u32() };
      inSection(e.offset, e.size, size, `${k} chunk ${c} (directory entry)`, base, w, base + at);
      const [s0, s1] = chunkRange(c, n, b);
      if ((s1 - s0) * minRaw[k] > e.size * MAX_INFLATE_RATIO) {
        throw new NavscopeError(
          "count_mismatch",
          `${k} chunk ${c} is ${e.size} bytes, too small to hold its ${s1 - s0} records`,
          { ...w, offset: base + at + 8 },
          `at least ${Math.ceil(((s1 - s0) * minRaw[k]) / MAX_INFLATE_RATIO)} bytes`,
        );
      }
      dirs[k].push(e);
    }
  }
  return { base, size, version, counts, chunkSizes, zoneTable, dirOffsets, dirs };
}

function inSection(
  off: number,
  len: number,
  size: number,
  what: string,
  base: number,
  where: ErrorLocation,
  errAt = base + off,
): void {
  if (off + len > size) {
    throw new NavscopeError(
      "offset_out_of_range",
      `${what} [${off}, ${off + len}) runs past the end of the ${size}-byte BGEO section`,
      { ...where, offset: errAt },
      `a range inside [0, ${size})`,
    );
  }
}

/** A reader over chunk `k` of `table`, located for errors. */
export function chunkReader(
  file: Uint8Array,
  layout: BgeoLayout,
  table: TableName,
  k: number,
  where: ErrorLocation,
): ByteReader {
  const e = layout.dirs[table][k];
  const abs = layout.base + e.offset;
  return new ByteReader(
    file.subarray(abs, abs + e.size),
    { ...where, section: `BGEO ${table} chunk ${k}` },
    abs,
  );
}

// ---------------------------------------------------------------------------------------------
// Vertex chunks: one stream, the n×12 record bytes transposed to 12×n.

/**
 * Decodes vertex chunk `k` into `out` starting at vertex `dst` (the bytes land in place, so on a
 * little-endian host the returned view of `out` is also the chunk's canonical bytes for hashing).
 */
export function decodeVertexChunk(
  file: Uint8Array,
  layout: BgeoLayout,
  k: number,
  out: Float32Array,
  dst: number,
  where: ErrorLocation,
): Uint8Array {
  const [s, e] = chunkRange(k, layout.counts.vertex, layout.chunkSizes.vertex);
  const n = e - s;
  const r = chunkReader(file, layout, "vertex", k, where);
  const planes = readStream(r, "vertex stream", 12 * n);
  r.expectEnd("the vertex stream");
  const bytes = new Uint8Array(out.buffer, out.byteOffset + 12 * dst, 12 * n);
  for (let j = 0; j < 12; j++) {
    const src = j * n;
    for (let i = 0, o = j; i < n; i++, o += 12) bytes[o] = planes[src + i];
  }
  checkFiniteVertices(out, dst, dst + n, s, { ...where, section: `BGEO vertex chunk ${k}` });
  return bytes;
}

/**
 * Vertices `[from, to)` of `v` (3 floats each) are finite (issue 27: a NaN vertex made every
 * plan of its zone fail with zone_not_found while inspect said usable) and plausible (issue 55:
 * |u|, |v| ≤ 1e5 px, |height| ≤ 1e5 m, src/pack/bounds.ts). `first` is the global index of
 * vertex `from`, for the message. Used by the decoders and the encoder.
 */
export function checkFiniteVertices(
  v: Float32Array,
  from: number,
  to: number,
  first: number,
  where: ErrorLocation,
): void {
  for (let i = 3 * from; i < 3 * to; i++) {
    if (!Number.isFinite(v[i])) {
      const k = (i / 3) | 0;
      throw new NavscopeError(
        "bad_value",
        `vertex ${first + k - from} has ${"uvh"[i % 3]} = ${v[i]}`,
        where,
        "finite coordinates",
      );
    }
  }
  // One compare per value and axis (typed-array loops, negligible next to the inflate).
  for (let axis = 0; axis < 3; axis++) {
    const b = axis === 2 ? HEIGHT : COORD_PX;
    for (let i = 3 * from + axis; i < 3 * to;) {
      const j = firstOutside(v, b, i, 3 * to, 3);
      if (j < 0) break;
      const k = ((j / 3) | 0) - from + first;
      checkBound(v[j], b, where, `vertex ${k}`, "uvh"[axis]);
      i = j + 3;
    }
  }
}

/** Encodes vertices `[s, e)` as one vertex chunk. */
export function encodeVertexChunk(verts: Float32Array, s: number, e: number): Uint8Array {
  const n = e - s;
  const bytes = new Uint8Array(verts.buffer, verts.byteOffset + 12 * s, 12 * n);
  const planes = new Uint8Array(12 * n);
  for (let j = 0; j < 12; j++) {
    const dst = j * n;
    for (let i = 0, o = j; i < n; i++, o += 12) planes[dst + i] = bytes[o];
  }
  const w = new ByteWriter(planes.length / 2 + 16);
  writeUnit(w, planes);
  return w.finish();
}

function writeUnit(w: ByteWriter, raw: Uint8Array): void {
  const z = deflate(raw);
  w.varint(z.length);
  w.bytes(z);
}

// ---------------------------------------------------------------------------------------------
// Triangle chunks: seven streams.
//   0: run += unzig(p0), v0 = run        1, 2: v1, v2 as zigzag deltas from v0
//   3: neighbour-present bitmap, 3 bits per triangle, MSB first (pad bits must be 0)
//   4: present neighbours as zigzag deltas from the triangle's own global index
//   5, 6: component run-length encoding: 5 = run values as zigzag deltas from the previous run's
//         value (0 at chunk start), 6 = run lengths (≥ 1, summing to the chunk's count).
// The spec names streams 5–6 only as 「分量号的游程编码」 and format-notes as "zigzag values plus
// lengths"; the delta between run values is our reading (deltas restart per chunk, like the rest).

const TRI_STREAMS = [
  "stream 0 (v0 run)",
  "stream 1 (v1 delta)",
  "stream 2 (v2 delta)",
  "stream 3 (neighbour bitmap)",
  "stream 4 (neighbour deltas)",
  "stream 5 (component run values)",
  "stream 6 (component run lengths)",
];

/**
 * Decodes triangle chunk `k` into `out` at local index `dst` (centroids are not touched).
 * Indices are validated against the pack totals `vertexTotal` / `triangleTotal`.
 */
export function decodeTriangleChunk(
  file: Uint8Array,
  layout: BgeoLayout,
  k: number,
  out: TriangleColumns,
  dst: number,
  where: ErrorLocation,
): void {
  const total = layout.counts.triangle;
  const vtotal = layout.counts.vertex;
  const [g0, g1] = chunkRange(k, total, layout.chunkSizes.triangle);
  const n = g1 - g0;
  const r = chunkReader(file, layout, "triangle", k, where);
  const cw = { ...r.where, offset: r.base };
  const s: VarintCursor[] = [];
  let bitmap: Uint8Array | null = null;
  for (let i = 0; i < 7; i++) {
    if (i === 3) bitmap = readStream(r, TRI_STREAMS[3], Math.ceil((3 * n) / 8));
    else s.push(new VarintCursor(readStream(r, TRI_STREAMS[i]), TRI_STREAMS[i], cw));
  }
  r.expectEnd("the seven triangle streams");
  const [s0, s1, s2, s4, s5, s6] = s;
  const tv = out.vertices;
  const nb = out.neighbours;
  let run = 0;
  for (let i = 0; i < n; i++) {
    run += s0.nextSigned();
    const v1 = run + s1.nextSigned();
    const v2 = run + s2.nextSigned();
    if (!(run >= 0 && run < vtotal && v1 >= 0 && v1 < vtotal && v2 >= 0 && v2 < vtotal)) {
      throw s0.error(
        "bad_value",
        `triangle ${g0 + i} has vertex indices (${run}, ${v1}, ${v2})`,
        `indices in [0, ${vtotal})`,
      );
    }
    const o = 3 * (dst + i);
    tv[o] = run;
    tv[o + 1] = v1;
    tv[o + 2] = v2;
  }
  const bm = bitmap!;
  for (let i = 0; i < n; i++) {
    const g = g0 + i;
    for (let c = 0; c < 3; c++) {
      const bit = 3 * i + c;
      if (bm[bit >> 3] & (0x80 >> (bit & 7))) {
        const t = g + s4.nextSigned();
        if (!(t >= 0 && t < total)) {
          throw s4.error(
            "bad_value",
            `triangle ${g} has neighbour ${t}`,
            `a triangle in [0, ${total})`,
          );
        }
        nb[3 * (dst + i) + c] = t;
      } else nb[3 * (dst + i) + c] = -1;
    }
  }
  const used = 3 * n;
  if (used & 7 && bm[used >> 3] & (0xff >> (used & 7))) {
    throw s4.error("bad_value", "neighbour bitmap has non-zero pad bits", "pad bits 0");
  }
  decodeComponentRuns(s5, s6, out.component, dst, n);
  for (const c of s) c.end();
}

function decodeComponentRuns(
  vals: VarintCursor,
  lens: VarintCursor,
  out: Uint32Array,
  dst: number,
  n: number,
): void {
  let value = 0;
  let i = 0;
  while (i < n) {
    value += vals.nextSigned();
    const len = lens.next();
    if (len === 0 || len > n - i) {
      throw lens.error(
        "count_mismatch",
        `component run of length ${len} at triangle ${i} of ${n}`,
        `a length in [1, ${n - i}]`,
      );
    }
    if (!(value >= 0 && value <= 0xffffffff)) {
      throw vals.error("bad_value", `component id ${value}`, "a u32");
    }
    out.fill(value, dst + i, dst + i + len);
    i += len;
  }
}

/** Encodes triangles `[g0, g1)` as one triangle chunk (seven streams). */
export function encodeTriangleChunk(t: TriangleColumns, g0: number, g1: number): Uint8Array {
  const n = g1 - g0;
  const s = Array.from({ length: 7 }, () => new ByteWriter(n + 16));
  const tv = t.vertices;
  const nb = t.neighbours;
  const bitmap = new Uint8Array(Math.ceil((3 * n) / 8));
  let run = 0;
  for (let i = 0; i < n; i++) {
    const g = g0 + i;
    const v0 = tv[3 * g];
    s[0].svarint(v0 - run);
    run = v0;
    s[1].svarint(tv[3 * g + 1] - v0);
    s[2].svarint(tv[3 * g + 2] - v0);
    for (let c = 0; c < 3; c++) {
      const x = nb[3 * g + c];
      if (x >= 0) {
        const bit = 3 * i + c;
        bitmap[bit >> 3] |= 0x80 >> (bit & 7);
        s[4].svarint(x - g);
      }
    }
  }
  s[3].bytes(bitmap);
  const comp = t.component;
  let prev = 0;
  for (let i = g0; i < g1;) {
    let j = i + 1;
    while (j < g1 && comp[j] === comp[i]) j++;
    s[5].svarint(comp[i] - prev);
    s[6].varint(j - i);
    prev = comp[i];
    i = j;
  }
  const w = new ByteWriter(n * 4 + 64);
  for (const x of s) writeUnit(w, x.view());
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// Link chunks: two streams. 0 = source: the chunk's first source absolute, then non-negative
// steps; 1 = target as a zigzag delta from its own source.

/**
 * Decodes link chunk `k` into `out` at index `dst`; checks the directory `aux` equals the first
 * source and every index is a triangle. Returns the last source (for cross-chunk order checks).
 */
export function decodeLinkChunk(
  file: Uint8Array,
  layout: BgeoLayout,
  k: number,
  out: LinkColumns,
  dst: number,
  where: ErrorLocation,
): void {
  const total = layout.counts.triangle;
  const [g0, g1] = chunkRange(k, layout.counts.link, layout.chunkSizes.link);
  const n = g1 - g0;
  const r = chunkReader(file, layout, "link", k, where);
  const cw = { ...r.where, offset: r.base };
  const src = new VarintCursor(readStream(r, "stream 0 (sources)"), "stream 0 (sources)", cw);
  const tgt = new VarintCursor(readStream(r, "stream 1 (targets)"), "stream 1 (targets)", cw);
  r.expectEnd("the two link streams");
  const so = out.source;
  const to = out.target;
  let s = 0;
  for (let i = 0; i < n; i++) {
    s += src.next();
    const t = s + tgt.nextSigned();
    if (s >= total || !(t >= 0 && t < total)) {
      throw src.error(
        "bad_value",
        `link ${g0 + i} runs ${s} → ${t}`,
        `triangles in [0, ${total})`,
      );
    }
    so[dst + i] = s;
    to[dst + i] = t;
  }
  src.end();
  tgt.end();
  const aux = layout.dirs.link[k].aux;
  if (n > 0 && so[dst] !== aux) {
    throw src.error(
      "count_mismatch",
      `link chunk's first source is ${so[dst]} but its directory aux says ${aux}`,
      `${so[dst]}`,
    );
  }
}

/** Encodes links `[g0, g1)` as one link chunk. */
export function encodeLinkChunk(l: LinkColumns, g0: number, g1: number): Uint8Array {
  const a = new ByteWriter(g1 - g0 + 16);
  const b = new ByteWriter(g1 - g0 + 16);
  let prev = 0;
  for (let i = g0; i < g1; i++) {
    const s = l.source[i];
    a.varint(s - prev);
    prev = s;
    b.svarint(l.target[i] - s);
  }
  const w = new ByteWriter(2 * (g1 - g0) + 32);
  writeUnit(w, a.view());
  writeUnit(w, b.view());
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// Section assembly.

/**
 * Assembles a BGEO section: header, zone table, (pad to 8), three directories, then the vertex,
 * triangle and link chunks in order. `chunks` holds the encoded chunk bytes per table.
 */
export function assembleBgeo(
  counts: { vertex: number; triangle: number; link: number },
  sizes: ChunkSizes,
  zoneTable: Uint8Array,
  chunks: { vertex: Uint8Array[]; triangle: Uint8Array[]; link: Uint8Array[] },
  linkAux: number[],
): Uint8Array {
  const tables = ["vertex", "triangle", "link"] as const;
  const zoneOff = BGEO_HEADER_SIZE;
  let off = zoneOff + zoneTable.length;
  off += (8 - (off % 8)) % 8;
  const dirOff = { vertex: 0, triangle: 0, link: 0 };
  for (const t of tables) {
    dirOff[t] = off;
    off += chunks[t].length * CHUNK_ENTRY_SIZE;
  }
  const w = new ByteWriter(off + chunks.triangle.reduce((a, c) => a + c.length, 0) * 2 + 1024);
  w.tag("BGEO").u32(BGEO_VERSION).u32(counts.vertex).u32(counts.triangle).u32(counts.link);
  w.u32(sizes.vertex).u32(sizes.triangle).u32(sizes.link).u32(zoneTable.length).u32(0);
  w.u64(dirOff.vertex).u64(dirOff.triangle).u64(dirOff.link).u64(zoneOff);
  w.bytes(zoneTable).align(8);
  let data = off;
  for (const t of tables) {
    chunks[t].forEach((c, k) => {
      w.u64(data).u32(c.length).u32(t === "link" ? linkAux[k] : 0);
      data += c.length;
    });
  }
  for (const t of tables) for (const c of chunks[t]) w.bytes(c);
  return w.finish();
}
