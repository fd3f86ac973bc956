/**
 * Blocker segments (spec 视线 › 障碍线段, formulas.md #118–#121): the walls of the line of sight
 * — core contours, kept boundary edges and facade segments — as planar segments in px, with a
 * lazily built 4-px (16-cell) bucket index and epoch counters, so that a chord is tested only
 * against the segments of the buckets it sweeps, each once.
 * @module
 */

import { kCS } from "../../grid/constants.ts";

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
  const ya = box ? Math.max(0, box.y0) : 0, yb = box ? Math.min(ny, box.y1) : ny;
  const xa = box ? Math.max(0, box.x0) : 0, xb = box ? Math.min(nx, box.x1) : nx;
  let out = new Float64Array(4096), k = 0;
  const put = (ax: number, ay: number, bx: number, by: number) => {
    if (k + 4 > out.length) {
      const bigger = new Float64Array(out.length * 2);
      bigger.set(out);
      out = bigger;
    }
    (out[k++] = ax), (out[k++] = ay), (out[k++] = bx), (out[k++] = by);
  };
  for (let y = ya; y < yb; y++) {
    for (let x = xa, c = y * nx + xa; x < xb; x++, c++) {
      if (!mask[c]) continue;
      const X = (x0 + x) * kCS, Y = (y0 + y) * kCS, X1 = X + kCS, Y1 = Y + kCS;
      if (y === 0 || !mask[c - nx]) put(X, Y, X1, Y); // south edge, eastwards
      if (x + 1 === nx || !mask[c + 1]) put(X1, Y, X1, Y1); // east edge, northwards
      if (y + 1 === ny || !mask[c + nx]) put(X1, Y1, X, Y1); // north edge, westwards
      if (x === 0 || !mask[c - 1]) put(X, Y1, X, Y); // west edge, southwards
    }
  }
  return out.slice(0, k);
}

/** A window-cell rectangle `[x0, x1) × [y0, y1)`. */
export interface CellBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A blocker table with its bucket index. */
export class BlockerSegments {
  /** `ax, ay, bx, by` per segment, px. */
  readonly seg: Float64Array;
  /** Number of segments. */
  readonly n: number;
  private built = false;
  private bx0 = 0;
  private by0 = 0;
  private bnx = 0;
  private bny = 0;
  private start = new Int32Array(1);
  private items = new Int32Array(0);
  private segEpoch = new Uint32Array(0);
  private bucketEpoch = new Uint32Array(0);
  private epoch = 0;

  constructor(seg: Float64Array) {
    this.seg = seg;
    this.n = seg.length / 4;
  }

  /** Builds the CSR bucket index (on the first query, formulas.md #119). */
  private build(): void {
    this.built = true;
    if (this.n === 0) return;
    const s = this.seg;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < s.length; i += 4) {
      minX = Math.min(minX, s[i], s[i + 2]);
      maxX = Math.max(maxX, s[i], s[i + 2]);
      minY = Math.min(minY, s[i + 1], s[i + 3]);
      maxY = Math.max(maxY, s[i + 1], s[i + 3]);
    }
    this.bx0 = minX - kBucketPx;
    this.by0 = minY - kBucketPx;
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
    this.bucketEpoch = new Uint32Array(nb);
  }

  /** Does the chord p → q meet any segment (formulas.md #120–#121)? */
  hits(px: number, py: number, qx: number, qy: number): boolean {
    if (this.n === 0) return false;
    if (!this.built) this.build();
    if (++this.epoch === 0) {
      this.segEpoch.fill(0);
      this.bucketEpoch.fill(0);
      this.epoch = 1;
    }
    const ep = this.epoch, s = this.seg;
    const rx = qx - px, ry = qy - py;
    const L = Math.sqrt(rx * rx + ry * ry);
    const ns = Math.floor(L / 2) + 1;
    const cminX = Math.min(px, qx) - kEps, cmaxX = Math.max(px, qx) + kEps;
    const cminY = Math.min(py, qy) - kEps, cmaxY = Math.max(py, qy) + kEps;
    // Consecutive points < 2 px apart often share a 4-px bucket; their 3×3 neighbourhoods are
    // then the same buckets, all visited already, so the scan is skipped (same buckets in the
    // same order as #119's walk).
    let lastX = NaN, lastY = NaN;
    for (let k = 0; k <= ns; k++) {
      const t = k / ns;
      const cx = Math.trunc((px + rx * t - this.bx0) / kBucketPx);
      const cy = Math.trunc((py + ry * t - this.by0) / kBucketPx);
      if (cx === lastX && cy === lastY) continue;
      lastX = cx;
      lastY = cy;
      for (let y = cy - 1; y <= cy + 1; y++) {
        if (y < 0 || y >= this.bny) continue;
        for (let x = cx - 1; x <= cx + 1; x++) {
          if (x < 0 || x >= this.bnx) continue;
          const b = y * this.bnx + x;
          if (this.bucketEpoch[b] === ep) continue;
          this.bucketEpoch[b] = ep;
          for (let q = this.start[b]; q < this.start[b + 1]; q++) {
            const i = this.items[q];
            if (this.segEpoch[i] === ep) continue;
            this.segEpoch[i] = ep;
            const o = 4 * i;
            const ax = s[o], ay = s[o + 1], bx = s[o + 2], by = s[o + 3];
            if (Math.max(ax, bx) < cminX || Math.min(ax, bx) > cmaxX) continue;
            if (Math.max(ay, by) < cminY || Math.min(ay, by) > cmaxY) continue;
            const sx = bx - ax, sy = by - ay;
            const rxs = rx * sy - ry * sx;
            if (Math.abs(rxs) <= 1e-12) continue;
            const apx = ax - px, apy = ay - py;
            const t1 = (apx * sy - apy * sx) / rxs;
            const w1 = (apx * ry - apy * rx) / rxs;
            if (t1 > kEps && t1 < 1 - kEps && w1 > -kEps && w1 < 1 + kEps) return true;
          }
        }
      }
    }
    return false;
  }
}
