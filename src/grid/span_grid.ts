/**
 * The packed span table of a window (spec 预烘场 › span 合并, PackSpans): spans sorted by cell,
 * then by height in the bake, by (region, height) in a planner window (the record order); an occupancy bitmap with a prefix count every 64 cells turns a cell index into
 * the index of its occupied column. Both the bake and the runtime query spans through it.
 * @module
 */

/** Columnar span table over an `nx × ny` window (cell `y·nx + x`). */
export interface SpanGrid {
  /** Window width, cells. */
  nx: number;
  /** Window height, cells. */
  ny: number;
  /** occ_bits: bit `c & 63` of 64-bit word `c >> 6`, stored as (lo, hi) u32 pairs. */
  occBits: Uint32Array;
  /** occ_rank: number of occupied cells before word `w`. */
  occRank: Int32Array;
  /** cs: first span of occupied column `j`; `cs[nocc]` = span count. */
  cs: Int32Array;
  /** sp_cell: cell index of each span (ascending). */
  cell: Int32Array;
  /**
   * sp_h: span height, metres (f32). Within a cell: a window's table keeps the record order
   * (region, height) (spec 展开成栅格图层); tables built by {@link spanGridFromColumns} ascend.
   */
  h: Float32Array;
  /** face bit per occupied column (spec span 合并: face). */
  face: Uint8Array;
}

import { kClimb } from "./constants.ts";

/** Population count of a 32-bit integer. */
export function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * Occupied-column index of cell `c`, or −1 (formulas #33):
 * `j(c) = occ_rank[c>>6] + popcount(occ_bits[c>>6] & ((1<<(c&63)) − 1))`.
 */
export function occIndex(g: SpanGrid, c: number): number {
  const w = c >> 6;
  if (c < 0 || w >= g.occRank.length) return -1;
  const b = c & 63;
  const lo = g.occBits[2 * w], hi = g.occBits[2 * w + 1];
  if (b < 32) {
    if (((lo >>> b) & 1) === 0) return -1;
    return g.occRank[w] + popcount32(b === 0 ? 0 : lo & ((1 << b) - 1) >>> 0);
  }
  const bb = b - 32;
  if (((hi >>> bb) & 1) === 0) return -1;
  return g.occRank[w] + popcount32(lo) + popcount32(bb === 0 ? 0 : hi & ((1 << bb) - 1) >>> 0);
}

/**
 * Rank of cell `c` (inside the table) among the occupied cells: the column index it has when
 * occupied (= {@link occIndex}), else the index of the next occupied column. Neighbouring cells
 * of a row then follow by {@link occupiedBit}: rank(c + 1) = rank(c) + occupied(c).
 */
export function occRankOf(g: SpanGrid, c: number): number {
  const w = c >> 6, b = c & 63;
  const lo = g.occBits[2 * w];
  if (b < 32) return g.occRank[w] + popcount32(b === 0 ? 0 : lo & ((1 << b) - 1) >>> 0);
  const bb = b - 32, hi = g.occBits[2 * w + 1];
  return g.occRank[w] + popcount32(lo) + popcount32(bb === 0 ? 0 : hi & ((1 << bb) - 1) >>> 0);
}

/** 1 when cell `c` (inside the table) is occupied, else 0. */
export function occupiedBit(g: SpanGrid, c: number): number {
  const b = c & 63;
  return (g.occBits[2 * (c >> 6) + (b >> 5)] >>> (b & 31)) & 1;
}

/** Number of occupied columns of the table. */
export function occupiedCount(g: SpanGrid): number {
  return g.cs.length - 1;
}

/** Span index range `[start, end)` of cell `c` (empty range when unoccupied). */
export function spanRange(g: SpanGrid, c: number): [number, number] {
  const j = occIndex(g, c);
  if (j < 0) return [0, 0];
  return [g.cs[j], g.cs[j + 1]];
}

/**
 * Builds the occupancy bitmap, rank table and column starts from spans already sorted by cell.
 * `cell` must be ascending; `face` is given per occupied column (or all zero when omitted).
 */
export function spanGridFromSorted(
  nx: number,
  ny: number,
  cell: Int32Array,
  h: Float32Array,
  face?: Uint8Array,
): SpanGrid {
  const ncell = nx * ny;
  const nw = (ncell + 63) >> 6;
  const occBits = new Uint32Array(2 * nw);
  let nocc = 0;
  for (let i = 0; i < cell.length; i++) {
    if (i === 0 || cell[i] !== cell[i - 1]) nocc++;
  }
  const cs = new Int32Array(nocc + 1);
  let j = 0;
  for (let i = 0; i < cell.length; i++) {
    if (i === 0 || cell[i] !== cell[i - 1]) {
      const c = cell[i];
      cs[j++] = i;
      occBits[2 * (c >> 6) + ((c & 63) >> 5)] |= 1 << (c & 31);
    }
  }
  cs[nocc] = cell.length;
  const occRank = new Int32Array(nw);
  let run = 0;
  for (let w = 0; w < nw; w++) {
    occRank[w] = run;
    run += popcount32(occBits[2 * w]) + popcount32(occBits[2 * w + 1]);
  }
  return { nx, ny, occBits, occRank, cs, cell, h, face: face ?? new Uint8Array(nocc) };
}

/**
 * Sets `grid.face[j]` for every occupied column j (spec span 合并, formulas #34):
 * `face = (n ≠ 2) ∧ (h_max − h_min > kClimb)`. A column is a rasterised facade when its spans
 * stack higher than a wall and there are more than two of them (exactly two is a floor under a
 * roof: colonnade, bridge, eave). A window's column is in record order, (region, height) (spec
 * 展开成栅格图层), so the highest and lowest spans are looked for, not taken from the ends.
 */
export function markFaces(grid: SpanGrid): void {
  const nocc = grid.cs.length - 1, h = grid.h;
  for (let j = 0; j < nocc; j++) {
    const a = grid.cs[j], b = grid.cs[j + 1], n = b - a;
    let lo = h[a], hi = h[a];
    for (let s = a + 1; s < b; s++) {
      if (h[s] < lo) lo = h[s];
      else if (h[s] > hi) hi = h[s];
    }
    grid.face[j] = n !== 2 && hi - lo > kClimb ? 1 : 0;
  }
}

/**
 * Builds a span table from per-cell height lists (`columns[y·nx + x]`, any order; empty or
 * missing = no spans), heights rounded to f32 and sorted; face bits are marked. For tests,
 * fixtures and small tools.
 */
export function spanGridFromColumns(
  nx: number,
  ny: number,
  columns: ReadonlyArray<ReadonlyArray<number> | undefined>,
): SpanGrid {
  const cell: number[] = [], h: number[] = [];
  for (let c = 0; c < nx * ny; c++) {
    const col = columns[c];
    if (col === undefined || col.length === 0) continue;
    const sorted = Float32Array.from(col).sort();
    for (const v of sorted) {
      cell.push(c);
      h.push(v);
    }
  }
  const g = spanGridFromSorted(nx, ny, Int32Array.from(cell), Float32Array.from(h));
  markFaces(g);
  return g;
}
