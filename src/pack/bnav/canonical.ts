/**
 * Canonical record bytes behind `build_hash` (spec 几何段: 「build_hash 按 36 字节的规范记录算」;
 * format-notes "Hashes"): FNV-1a 64 over the zone table, then vertices (12 bytes each), then
 * triangles as 36-byte records (3×u32 vertex, 3×i32 neighbour, u32 component, 2×f32 centroid),
 * then links (u32 source, u32 target). From v5 the centroid is recomputed as `((a+b)+c)/3` in
 * f32 before hashing. Records are produced a chunk at a time into a reused scratch buffer, so no
 * second full copy of the geometry is ever built.
 * @module
 */
import { Fnv1a64 } from "../../codec/fnv.ts";
import { NavscopeError } from "../../errors.ts";
import type { LinkColumns, TriangleColumns } from "./types.ts";

/** True on little-endian hosts; the typed-array views below assume it. */
export const IS_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Throws on a big-endian host (every supported Deno target is little-endian). */
export function requireLittleEndian(): void {
  if (!IS_LITTLE_ENDIAN) {
    throw new NavscopeError("bad_value", "big-endian hosts are not supported by the BNAV codec");
  }
}

/** The little-endian bytes of vertices `[from, to)` (a view, no copy). */
export function vertexBytes(verts: Float32Array, from: number, to: number): Uint8Array {
  return new Uint8Array(verts.buffer, verts.byteOffset + 12 * from, 12 * (to - from));
}

/** Reusable scratch space for canonical records. */
export class RecordScratch {
  #buf = new ArrayBuffer(0);

  /** A buffer of at least `n` bytes (grown, never shrunk). */
  get(n: number): ArrayBuffer {
    if (this.#buf.byteLength < n) this.#buf = new ArrayBuffer(Math.max(n, 1024));
    return this.#buf;
  }
}

/**
 * 36-byte canonical records of triangles `[from, to)`. With `verts` the centroid is recomputed
 * from the vertices (`vertexBase` = index of `verts[0]`); without it the stored centroid is used.
 */
export function triangleRecords(
  tris: TriangleColumns,
  from: number,
  to: number,
  scratch: RecordScratch,
  verts?: Float32Array,
  vertexBase = 0,
): Uint8Array {
  const n = to - from;
  const buf = scratch.get(36 * n);
  const u = new Uint32Array(buf, 0, 9 * n);
  const i32 = new Int32Array(buf, 0, 9 * n);
  const f = new Float32Array(buf, 0, 9 * n);
  const tv = tris.vertices;
  const nb = tris.neighbours;
  const comp = tris.component;
  const cen = tris.centroid;
  const fr = Math.fround;
  for (let i = 0, t = from, o = 0; i < n; i++, t++, o += 9) {
    const a = tv[3 * t];
    const b = tv[3 * t + 1];
    const c = tv[3 * t + 2];
    u[o] = a;
    u[o + 1] = b;
    u[o + 2] = c;
    i32[o + 3] = nb[3 * t];
    i32[o + 4] = nb[3 * t + 1];
    i32[o + 5] = nb[3 * t + 2];
    u[o + 6] = comp[t];
    if (verts) {
      const pa = 3 * (a - vertexBase);
      const pb = 3 * (b - vertexBase);
      const pc = 3 * (c - vertexBase);
      f[o + 7] = fr(fr(fr(verts[pa] + verts[pb]) + verts[pc]) / 3);
      f[o + 8] = fr(fr(fr(verts[pa + 1] + verts[pb + 1]) + verts[pc + 1]) / 3);
    } else {
      f[o + 7] = cen[2 * t];
      f[o + 8] = cen[2 * t + 1];
    }
  }
  return new Uint8Array(buf, 0, 36 * n);
}

/** 8-byte canonical records of links `[from, to)`. */
export function linkRecords(
  links: LinkColumns,
  from: number,
  to: number,
  scratch: RecordScratch,
): Uint8Array {
  const n = to - from;
  const u = new Uint32Array(scratch.get(8 * n), 0, 2 * n);
  for (let i = 0, j = from; i < n; i++, j++) {
    u[2 * i] = links.source[j];
    u[2 * i + 1] = links.target[j];
  }
  return new Uint8Array(u.buffer, 0, 8 * n);
}

/**
 * Streaming v5 build hash of a pack's geometry: zone-table bytes, vertices, triangles with
 * recomputed centroids (in `step`-record batches), links.
 */
export function buildHashV5(
  zoneTable: Uint8Array,
  verts: Float32Array,
  tris: TriangleColumns,
  links: LinkColumns,
  step = 65536,
): bigint {
  requireLittleEndian();
  const h = new Fnv1a64().update(zoneTable);
  h.update(vertexBytes(verts, 0, verts.length / 3));
  const scratch = new RecordScratch();
  const nt = tris.component.length;
  for (let s = 0; s < nt; s += step) {
    h.update(triangleRecords(tris, s, Math.min(nt, s + step), scratch, verts));
  }
  const nl = links.source.length;
  for (let s = 0; s < nl; s += step) {
    h.update(linkRecords(links, s, Math.min(nl, s + step), scratch));
  }
  return h.digest();
}
