/**
 * Blocker segments (spec 视线 › 障碍线段, formulas.md #118–#121): the walls of the line of sight
 * — core contours, kept boundary edges and facade segments — as planar segments in px, with a
 * lazily built 4-px (16-cell) bucket index and epoch counters, so that a chord is tested only
 * against the segments of the buckets it sweeps, each once.
 * @module
 */

import type { CellBox } from "../../../grid/cell_box.ts";
import { kCS } from "../../../grid/constants.ts";

/** Bucket side, px (16 cells). */
const kBucketPx = 4;
/** Interval tolerance of the intersection test. */
const kEps = 1e-7;

/**
 * Core contour edges (TraceContours, formulas.md #118): every cell edge between a mask cell and a
 * cell outside the mask (or outside the window) is one 0.25-px segment. The spec traces them into
 * rings (right turn at diagonal pinches); the rings split back into exactly these cell edges, and
 * the line of sight only asks whether a chord meets any segment, so the grouping is not kept.
 * Returned as `ax, ay, bx, by` px per edge with the mask cell on the left of a → b (y up). With a
 * box only its cells' edges are emitted — a row-major subsequence of the full list; the neighbour
 * test still reads the whole mask, so each edge is the same as in the full pass.
 */
export function contourEdges(
  mask: Uint8Array,
  nx: number,
  ny: number,
  x0: number,
  y0: number,
  box: CellBox | null = null,
): Float64Array {
  const out = new SegmentStore();
  emitContourEdges(mask, nx, ny, x0, y0, clampBox(box, nx, ny), out);
  return out.seg.slice(0, 4 * out.n);
}

/** `box` clamped to the window (the whole window when null). */
function clampBox(box: CellBox | null, nx: number, ny: number): CellBox {
  return box
    ? {
      x0: Math.max(0, box.x0),
      y0: Math.max(0, box.y0),
      x1: Math.min(nx, box.x1),
      y1: Math.min(ny, box.y1),
    }
    : { x0: 0, y0: 0, x1: nx, y1: ny };
}

/** A growable list of `ax, ay, bx, by` segments. */
class SegmentStore {
  seg = new Float64Array(4096);
  n = 0;
  put(ax: number, ay: number, bx: number, by: number): void {
    let k = 4 * this.n;
    if (k + 4 > this.seg.length) {
      const bigger = new Float64Array(this.seg.length * 2);
      bigger.set(this.seg);
      this.seg = bigger;
    }
    const o = this.seg;
    (o[k++] = ax), (o[k++] = ay), (o[k++] = bx), (o[k] = by);
    this.n++;
  }
}

/**
 * The contour edges of the mask cells in `r` (row-major; per cell south, east, north, west), the
 * neighbour test reading the whole mask: the one rule behind both the whole table and the
 * per-bucket tables of {@link BlockerSegments}.
 */
function emitContourEdges(
  mask: Uint8Array,
  nx: number,
  ny: number,
  x0: number,
  y0: number,
  r: CellBox,
  out: SegmentStore,
): void {
  for (let y = r.y0; y < r.y1; y++) {
    for (let x = r.x0, c = y * nx + r.x0; x < r.x1; x++, c++) {
      if (!mask[c]) continue;
      const X = (x0 + x) * kCS, Y = (y0 + y) * kCS, X1 = X + kCS, Y1 = Y + kCS;
      if (y === 0 || !mask[c - nx]) out.put(X, Y, X1, Y); // south edge, eastwards
      if (x + 1 === nx || !mask[c + 1]) out.put(X1, Y, X1, Y1); // east edge, northwards
      if (y + 1 === ny || !mask[c + nx]) out.put(X1, Y1, X, Y1); // north edge, westwards
      if (x === 0 || !mask[c - 1]) out.put(X, Y1, X, Y); // west edge, southwards
    }
  }
}

/**
 * Core contours produced bucket by bucket on a chord's first visit instead of for the whole box
 * up front: the edges of the mask cells in `box` (see {@link contourEdges}).
 */
export interface ContourSource {
  /** The mask whose contours block (core). */
  mask: Uint8Array;
  /** Window columns. */
  nx: number;
  /** Window rows. */
  ny: number;
  /** Window origin, global cells. */
  x0: number;
  /** Window origin y, global cells. */
  y0: number;
  /** Only these cells' edges (null: the whole window). */
  box: CellBox | null;
}

/**
 * A blocker table with its bucket index. The fixed segments are bucketed on the first query; the
 * core contours of a {@link ContourSource}, when given, are produced for a bucket when a chord
 * first visits it. A hit does not depend on how segments are bucketed (the walk meets every
 * segment that meets the chord, formulas.md #119), so both give the answers of one whole table.
 */
export class BlockerSegments {
  /** `ax, ay, bx, by` per fixed segment, px. */
  readonly seg: Float64Array;
  /** Number of fixed segments. */
  readonly n: number;
  private built = false;
  private bx0 = 0;
  private by0 = 0;
  private bnx = 0;
  private bny = 0;
  private start = new Int32Array(1);
  private items = new Int32Array(0);
  private segEpoch = new Uint32Array(0);
  /** Number of buckets (0 until built, or when there is nothing to bucket). */
  private nb = 0;
  private epoch = 0;
  /** The segment that met the last chord that hit (−1: none yet; ≥ n: a contour edge). */
  private lastHit = -1;
  /** Contour edges made so far (ids n + k) and each bucket's range of them (−1: not yet). */
  private readonly edges = new SegmentStore();
  private edgeFrom = new Int32Array(0);
  private edgeTo = new Int32Array(0);
  /** The contour source's box, clamped (cells). */
  private cbox: CellBox | null = null;

  constructor(seg: Float64Array, readonly contours: ContourSource | null = null) {
    this.seg = seg;
    this.n = seg.length / 4;
  }

  /** Builds the CSR bucket index (on the first query, formulas.md #119). */
  private build(): void {
    this.built = true;
    const s = this.seg, C = this.contours;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < s.length; i += 4) {
      minX = Math.min(minX, s[i], s[i + 2]);
      maxX = Math.max(maxX, s[i], s[i + 2]);
      minY = Math.min(minY, s[i + 1], s[i + 3]);
      maxY = Math.max(maxY, s[i + 1], s[i + 3]);
    }
    if (C) {
      const r = (this.cbox = clampBox(C.box, C.nx, C.ny));
      if (r.x1 > r.x0 && r.y1 > r.y0) {
        minX = Math.min(minX, (C.x0 + r.x0) * kCS), maxX = Math.max(maxX, (C.x0 + r.x1) * kCS);
        minY = Math.min(minY, (C.y0 + r.y0) * kCS), maxY = Math.max(maxY, (C.y0 + r.y1) * kCS);
      }
    }
    if (!isFinite(minX)) return;
    this.bx0 = minX - kBucketPx;
    this.by0 = minY - kBucketPx;
    if (C) {
      // Buckets on whole cells of the window (16 a side), so a bucket's contour edges are those
      // of a cell rectangle: the origin moves down to the nearest cell boundary.
      this.bx0 = (C.x0 + Math.floor(this.bx0 / kCS - C.x0)) * kCS;
      this.by0 = (C.y0 + Math.floor(this.by0 / kCS - C.y0)) * kCS;
    }
    this.bnx = Math.floor((maxX + kBucketPx - this.bx0) / kBucketPx) + 1;
    this.bny = Math.floor((maxY + kBucketPx - this.by0) / kBucketPx) + 1;
    const nb = this.bnx * this.bny;
    const start = new Int32Array(nb + 1);
    const range = (i: number, f: (b: number) => void) => {
      const lx = Math.min(s[i], s[i + 2]), hx = Math.max(s[i], s[i + 2]);
      const ly = Math.min(s[i + 1], s[i + 3]), hy = Math.max(s[i + 1], s[i + 3]);
      const x0 = Math.trunc((lx - 1e-6 - this.bx0) / kBucketPx);
      const x1 = Math.trunc((hx + 1e-6 - this.bx0) / kBucketPx);
      const y0 = Math.trunc((ly - 1e-6 - this.by0) / kBucketPx);
      const y1 = Math.trunc((hy + 1e-6 - this.by0) / kBucketPx);
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) f(y * this.bnx + x);
    };
    for (let i = 0; i < s.length; i += 4) range(i, (b) => start[b + 1]++);
    for (let b = 0; b < nb; b++) start[b + 1] += start[b];
    const fill = start.slice(0, nb);
    const items = new Int32Array(start[nb]);
    for (let i = 0; i < s.length; i += 4) range(i, (b) => (items[fill[b]++] = i >> 2));
    this.start = start;
    this.items = items;
    this.segEpoch = new Uint32Array(this.n);
    this.nb = nb;
    if (C) this.edgeFrom = new Int32Array(nb).fill(-1), this.edgeTo = new Int32Array(nb);
  }

  /**
   * Makes bucket b's contour edges: those of the box's mask cells among its 16 × 16 cells. Each
   * edge is listed once, in its own cell's bucket, where the whole table lists it also in the
   * buckets its end points touch. That loses nothing: a chord point X on the edge lies in that
   * bucket's closed square, and {@link BlockerSegments.hits} visits every bucket whose closed
   * square the chord touches (± 1e-6 px).
   */
  private makeEdges(b: number): void {
    const C = this.contours!, r = this.cbox!;
    const bx = b % this.bnx, by = (b - bx) / this.bnx;
    const k = kBucketPx / kCS;
    const cx = Math.round(this.bx0 / kCS) - C.x0 + bx * k;
    const cy = Math.round(this.by0 / kCS) - C.y0 + by * k;
    const rect = {
      x0: Math.max(r.x0, cx),
      y0: Math.max(r.y0, cy),
      x1: Math.min(r.x1, cx + k),
      y1: Math.min(r.y1, cy + k),
    };
    this.edgeFrom[b] = this.edges.n;
    if (rect.x1 > rect.x0 && rect.y1 > rect.y0) {
      emitContourEdges(C.mask, C.nx, C.ny, C.x0, C.y0, rect, this.edges);
    }
    this.edgeTo[b] = this.edges.n;
  }

  /** Does the chord p → q meet any segment (formulas.md #120–#121)? */
  hits(px: number, py: number, qx: number, qy: number): boolean {
    if (this.n === 0 && !this.contours) return false;
    if (!this.built) this.build();
    if (this.nb === 0) return false;
    if (++this.epoch === 0) {
      this.segEpoch.fill(0);
      this.epoch = 1;
    }
    const ep = this.epoch, lazy = this.contours !== null;
    const rx = qx - px, ry = qy - py;
    const cminX = Math.min(px, qx) - kEps, cmaxX = Math.max(px, qx) + kEps;
    const cminY = Math.min(py, qy) - kEps, cmaxY = Math.max(py, qy) + kEps;
    // The answer is "does any segment meet the chord", so the segment that stopped the previous
    // chord is tried first: StringPull scans one anchor's chords from the far end down, and on a
    // long taut chain thousands of them in a row end on the same wall corner. A hit here is the
    // same answer the walk would give, found without walking up to that corner each time.
    if (this.lastHit >= 0 && this.meets(this.lastHit, px, py, rx, ry, cminX, cmaxX, cminY, cmaxY)) {
      return true;
    }
    // The buckets the chord passes through (its supercover on the 4-px grid, widened by 1e-6
    // px), column by column from p's side. A segment that meets the chord at X is listed in the
    // bucket holding X (a fixed segment in every bucket its box touches ± 1e-6, a contour edge
    // in its cell's bucket, which holds the whole edge), and the chord passes through that
    // bucket. formulas.md #119 walks 3 × 3 buckets around samples 2 px apart instead: more
    // buckets, the same answer (issue 36: fewer contour buckets made, fewer segment tests).
    const B = kBucketPx, sl = 1e-6, bx0 = this.bx0, by0 = this.by0, bnx = this.bnx;
    const lo = Math.min(px, qx), hi = Math.max(px, qx);
    const ca = Math.max(0, Math.floor((lo - sl - bx0) / B));
    const cb = Math.min(bnx - 1, Math.floor((hi + sl - bx0) / B));
    const cStep = px <= qx ? 1 : -1, rStep = ry >= 0 ? 1 : -1;
    for (let c = cStep > 0 ? ca : cb; cStep > 0 ? c <= cb : c >= ca; c += cStep) {
      // The chord's y extent within the column's x-range.
      let ylo: number, yhi: number;
      if (rx === 0) (ylo = Math.min(py, qy)), (yhi = Math.max(py, qy));
      else {
        const ua = Math.max(lo, bx0 + c * B), ub = Math.min(hi, bx0 + (c + 1) * B);
        const ya = py + ry * ((ua - px) / rx), yb = py + ry * ((ub - px) / rx);
        (ylo = Math.min(ya, yb)), (yhi = Math.max(ya, yb));
      }
      const ra = Math.max(0, Math.floor((ylo - sl - by0) / B));
      const rb = Math.min(this.bny - 1, Math.floor((yhi + sl - by0) / B));
      for (let r = rStep > 0 ? ra : rb; rStep > 0 ? r <= rb : r >= ra; r += rStep) {
        const b = r * bnx + c;
        for (let q = this.start[b]; q < this.start[b + 1]; q++) {
          const i = this.items[q];
          if (this.segEpoch[i] === ep) continue;
          this.segEpoch[i] = ep;
          if (this.meets(i, px, py, rx, ry, cminX, cmaxX, cminY, cmaxY)) {
            this.lastHit = i;
            return true;
          }
        }
        if (!lazy) continue;
        if (this.edgeFrom[b] < 0) this.makeEdges(b);
        for (let e = this.edgeFrom[b], end = this.edgeTo[b]; e < end; e++) {
          if (this.meets(this.n + e, px, py, rx, ry, cminX, cmaxX, cminY, cmaxY)) {
            this.lastHit = this.n + e;
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Does segment i meet the chord p + t·r (formulas.md #121)? Open in t (a chord ending on a
   * segment passes), closed in the segment's parameter (a chord through its end point hits);
   * `cmin*`/`cmax*` are the chord's bounding box widened by kEps.
   */
  private meets(
    i: number,
    px: number,
    py: number,
    rx: number,
    ry: number,
    cminX: number,
    cmaxX: number,
    cminY: number,
    cmaxY: number,
  ): boolean {
    const s = i < this.n ? this.seg : this.edges.seg, o = 4 * (i < this.n ? i : i - this.n);
    const ax = s[o], ay = s[o + 1], bx = s[o + 2], by = s[o + 3];
    if (Math.max(ax, bx) < cminX || Math.min(ax, bx) > cmaxX) return false;
    if (Math.max(ay, by) < cminY || Math.min(ay, by) > cmaxY) return false;
    const sx = bx - ax, sy = by - ay;
    const rxs = rx * sy - ry * sx;
    if (Math.abs(rxs) <= 1e-12) return false;
    const apx = ax - px, apy = ay - py;
    const t1 = (apx * sy - apy * sx) / rxs;
    const w1 = (apx * ry - apy * rx) / rxs;
    return t1 > kEps && t1 < 1 - kEps && w1 > -kEps && w1 < 1 + kEps;
  }
}
