/**
 * FSCC: per-region component DAGs of one zone (spec 旁包 › FSCC; format-notes FSCC).
 *
 * Zone block: `varint regions`, then per region `varint rid, n_scc, n_edges`, four more varints
 * when header flag bit 0 is set, and one stream unit of `n_edges` edges `(Δsrc, dst)` sorted by
 * (src, dst). Δsrc is the difference to the previous edge's source (the first edge's source is
 * stored as is). Component ids are 1-based, as in the FSPN `scc` column ("分量号为 0 或超出集合
 * 范围时报错", spec 可达域) — [I] reconstructed: the article does not say whether edges use the
 * same numbering; we use the one the scc column uses.
 *
 * The DAG is kept in CSR form (row pointers + destinations) so reachFrom is a flat DFS.
 * @module
 */
import { ByteReader, ByteWriter, readStream, readVarint, writeStream } from "../../codec/mod.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import type { ComponentGraphs } from "./types.ts";

/** Growable u32 buffer (no per-element objects). */
class U32Buf {
  a = new Uint32Array(64);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Uint32Array {
    return this.a.slice(0, this.n);
  }
}

/**
 * Decodes a zone's FSCC block. `maxScc` bounds the total component count over all regions (a
 * component holds at least one span, so the zone's record count is a safe bound, and it keeps a
 * corrupt count from allocating gigabytes); `base` is the block's absolute offset for errors.
 */
export function decodeComponentGraphs(
  block: Uint8Array,
  extraVarints: boolean,
  maxScc: number,
  where: ErrorLocation,
  base = 0,
): ComponentGraphs {
  const r = new ByteReader(block, { ...where, section: "FSCC" }, base);
  const count = r.varint();
  // Each region needs at least 4 bytes: three varints and a stream length.
  if (count * 4 > r.remaining) {
    throw r.error(
      "truncated",
      `region count ${count} cannot fit in ${r.remaining} bytes`,
      "fewer regions",
      0,
    );
  }
  const rid = new Uint32Array(count);
  const nScc = new Uint32Array(count);
  const nEdges = new Uint32Array(count);
  const extra = extraVarints ? new Float64Array(count * 4) : null;
  const rowBase = new Uint32Array(count);
  const rowPtr = new U32Buf();
  const dst = new U32Buf();
  let totalScc = 0;
  for (let k = 0; k < count; k++) {
    const at = r.pos;
    const id = r.varint();
    if (id > 0xffffffff || (k > 0 && id <= rid[k - 1])) {
      throw r.error("bad_value", `region id ${id} out of order`, `ascending u32 region ids`, at);
    }
    rid[k] = id;
    const ns = r.varint();
    // Components are disjoint sets of the zone's spans: their total cannot pass the records.
    totalScc += ns;
    if (totalScc > maxScc) {
      throw r.error(
        "bad_value",
        `region ${id} brings the component total to ${totalScc}`,
        `at most ${maxScc} (the zone's record count)`,
        at,
      );
    }
    nScc[k] = ns;
    const ne = r.varint();
    nEdges[k] = ne;
    if (extra) { for (let j = 0; j < 4; j++) extra[k * 4 + j] = r.varint(); }
    const sAt = r.pos;
    const raw = readStream(r, `region ${id} edge stream`);
    rowBase[k] = rowPtr.n;
    decodeEdges(raw, id, ns, ne, rowPtr, dst, r, sAt);
  }
  r.expectEnd("the component graphs");
  return { count, rid, nScc, nEdges, extra, rowBase, rowPtr: rowPtr.done(), dst: dst.done() };
}

function decodeEdges(
  raw: Uint8Array,
  rid: number,
  ns: number,
  ne: number,
  rowPtr: U32Buf,
  dst: U32Buf,
  r: ByteReader,
  at: number,
): void {
  if (ne * 2 > raw.length) {
    throw r.error(
      "stream_length",
      `region ${rid} edge stream has ${raw.length} bytes for ${ne} edges`,
      `at least ${ne * 2} bytes`,
      at,
    );
  }
  const next = [0];
  let pos = 0;
  let src = 0;
  let prevDst = 0;
  const edgeBase = dst.n;
  // rowPtr[s - 1] starts component s; component 1's row starts at the first edge.
  rowPtr.push(edgeBase);
  let row = 1;
  for (let e = 0; e < ne; e++) {
    let d: number, t: number;
    try {
      d = readVarint(raw, pos, next);
      pos = next[0];
      t = readVarint(raw, pos, next);
      pos = next[0];
    } catch (err) {
      if (err instanceof NavscopeError) {
        throw r.error(err.code, `region ${rid} edge ${e}: ${err.what}`, err.expected, at);
      }
      throw err;
    }
    const s = src + d;
    const bad = s < 1 || s > ns || t < 1 || t > ns || s === t ||
      (e > 0 && d === 0 && t <= prevDst);
    if (bad) {
      throw r.error(
        "bad_value",
        `region ${rid} edge ${e} (${s} → ${t}) is out of range or out of order`,
        `distinct components in [1, ${ns}], edges ascending by (src, dst)`,
        at,
      );
    }
    while (row < s) {
      rowPtr.push(edgeBase + e);
      row++;
    }
    dst.push(t);
    src = s;
    prevDst = t;
  }
  while (row <= ns) {
    rowPtr.push(edgeBase + ne);
    row++;
  }
  if (pos !== raw.length) {
    throw r.error(
      "stream_length",
      `region ${rid} edge stream has ${raw.length - pos} bytes left over`,
      "no leftover bytes",
      at,
    );
  }
}

/** Encodes a zone's FSCC block (deterministic). */
export function encodeComponentGraphs(g: ComponentGraphs, extraVarints: boolean): Uint8Array {
  if (extraVarints && !g.extra) {
    throw new NavscopeError(
      "bad_value",
      "header flag bit 0 set but graphs carry no extra varints",
      {
        section: "FSCC",
      },
    );
  }
  const w = new ByteWriter(64 + g.dst.length * 3);
  w.varint(g.count);
  const e = new ByteWriter(64);
  for (let k = 0; k < g.count; k++) {
    const ns = g.nScc[k];
    w.varint(g.rid[k]).varint(ns).varint(g.nEdges[k]);
    if (extraVarints) { for (let j = 0; j < 4; j++) w.varint(g.extra![k * 4 + j]); }
    e.length = 0;
    let prevSrc = 0;
    for (let s = 1; s <= ns; s++) {
      const a = g.rowPtr[g.rowBase[k] + s - 1];
      const b = g.rowPtr[g.rowBase[k] + s];
      for (let i = a; i < b; i++) {
        e.varint(s - prevSrc).varint(g.dst[i]);
        prevSrc = s;
      }
    }
    writeStream(w, e.view());
  }
  return w.finish();
}

/**
 * Builds CSR graphs from plain edge lists (used by the baker and by tests). Edges are sorted
 * here; duplicates are dropped.
 */
export function buildComponentGraphs(
  regions: ReadonlyArray<
    { rid: number; nScc: number; edges: ReadonlyArray<[number, number]>; extra?: number[] }
  >,
  withExtra = false,
): ComponentGraphs {
  const sorted = [...regions].sort((a, b) => a.rid - b.rid);
  const count = sorted.length;
  const rid = new Uint32Array(count);
  const nScc = new Uint32Array(count);
  const nEdges = new Uint32Array(count);
  const extra = withExtra ? new Float64Array(count * 4) : null;
  const rowBase = new Uint32Array(count);
  const rowPtr = new U32Buf();
  const dst = new U32Buf();
  sorted.forEach((reg, k) => {
    rid[k] = reg.rid;
    nScc[k] = reg.nScc;
    if (extra) { for (let j = 0; j < 4; j++) extra[k * 4 + j] = reg.extra?.[j] ?? 0; }
    const es = [...reg.edges].sort((x, y) => x[0] - y[0] || x[1] - y[1])
      .filter((x, i, arr) => i === 0 || x[0] !== arr[i - 1][0] || x[1] !== arr[i - 1][1]);
    nEdges[k] = es.length;
    rowBase[k] = rowPtr.n;
    let i = 0;
    for (let s = 1; s <= reg.nScc + 1; s++) {
      rowPtr.push(dst.n);
      while (s <= reg.nScc && i < es.length && es[i][0] === s) dst.push(es[i++][1]);
    }
    if (i !== es.length) throw new RangeError(`region ${reg.rid}: edge source out of range`);
  });
  return { count, rid, nScc, nEdges, extra, rowBase, rowPtr: rowPtr.done(), dst: dst.done() };
}

/** Index of region `rid` in the graphs (binary search), or -1. */
export function graphIndexOf(g: ComponentGraphs, rid: number): number {
  let lo = 0, hi = g.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = g.rid[mid];
    if (v === rid) return mid;
    if (v < rid) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Marks every component reachable from `seed` in region index `k` (spec 可达域 step 1: DFS on
 * the component DAG). `mark` has `nScc + 1` entries (index = component id); already-marked
 * components are not re-entered, so repeated calls accumulate (step 3's link closure).
 * Throws when the seed is 0 or past `nScc` ("旁包分量号越界").
 */
export function reachFrom(g: ComponentGraphs, k: number, seed: number, mark: Uint8Array): void {
  const ns = g.nScc[k];
  if (seed < 1 || seed > ns) {
    throw new NavscopeError(
      "bad_value",
      `component ${seed} is out of range for region ${g.rid[k]}`,
      { section: "FSCC" },
      `1..${ns}`,
    );
  }
  if (mark[seed]) return;
  const base = g.rowBase[k];
  const stack = new Uint32Array(ns);
  let top = 0;
  mark[seed] = 1;
  stack[top++] = seed;
  while (top > 0) {
    const s = stack[--top];
    for (let i = g.rowPtr[base + s - 1], end = g.rowPtr[base + s]; i < end; i++) {
      const t = g.dst[i];
      if (!mark[t]) {
        mark[t] = 1;
        stack[top++] = t;
      }
    }
  }
}
