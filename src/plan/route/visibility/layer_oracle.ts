/**
 * The layer oracle (spec 视线 › 高度连续检查, formulas.md #124–#126): follow the set of reachable
 * heights along a chord's digital line, column by column, so that a chord whose plan view is half
 * on a bridge and half under it is not taken for one layer.
 *
 * The height sets live in two scratch buffers swapped column by column (a chord is checked on
 * every Lazy Theta* pop and every pull probe, so no per-column arrays are allocated).
 * @module
 */

import { kClimb, kCS, kSlope, kStepUp } from "../../../grid/constants.ts";
import { occIndex, type SpanGrid } from "../../../grid/span_grid.ts";

/** kQH: the height tolerance of voxel sampling, m. */
export const kQH = 1.0;
const NEG_CLIMB = -Math.fround(kClimb);
/** `max(kStepUp, kSlope·w·kCS) + kQH` for an orthogonal step (w = sqrt(1)). */
const UP_ORTH = Math.max(kStepUp, kSlope * Math.sqrt(1) * kCS) + kQH;
/** The same for a diagonal step (w = sqrt(2)). */
const UP_DIAG = Math.max(kStepUp, kSlope * Math.sqrt(2) * kCS) + kQH;

let setA: Float64Array = new Float64Array(64);
let setB: Float64Array = new Float64Array(64);
/** Heights of the last {@link walkInto}: `setA[0 .. n)`. */
let out: Float64Array = setA;

function grow(buf: Float64Array, n: number): Float64Array {
  return buf.length >= n ? buf : new Float64Array(Math.max(n, 2 * buf.length));
}

/**
 * The walk of {@link layerWalk} over `cells[0 .. len)`; the kept heights end in `out[0 .. n)`.
 * Returns n, or −1 when a column keeps none.
 */
function walkInto(
  g: SpanGrid,
  cells: ArrayLike<number>,
  len: number,
  h: number | readonly number[],
  drop: boolean,
): number {
  let cur: Float64Array = setA, next: Float64Array = setB, n: number;
  if (typeof h === "number") {
    cur[0] = Math.fround(h);
    n = 1;
  } else {
    cur = setA = grow(setA, h.length);
    for (let i = 0; i < h.length; i++) cur[i] = Math.fround(h[i]);
    n = h.length;
  }
  let pcx = NaN, pcy = NaN, lastX = NaN, lastY = NaN;
  const H = g.h;
  for (let k = 0; k < len; k += 2) {
    const x = cells[k], y = cells[k + 1];
    if (x === lastX && y === lastY) continue;
    lastX = x, lastY = y;
    if (x < 0 || y < 0 || x >= g.nx || y >= g.ny) continue;
    if (Number.isNaN(pcx)) {
      pcx = x, pcy = y;
      continue;
    }
    const j = occIndex(g, y * g.nx + x);
    if (j < 0) continue;
    const dx = x - pcx, dy = y - pcy, d2 = dx * dx + dy * dy;
    // The usual steps to a neighbour column take the precomputed values (the same doubles).
    const up = d2 === 1
      ? UP_ORTH
      : d2 === 2
      ? UP_DIAG
      : Math.max(kStepUp, kSlope * Math.sqrt(d2) * kCS) + kQH;
    const s0 = g.cs[j], s1 = g.cs[j + 1];
    if (next.length < s1 - s0) {
      next = grow(next, s1 - s0);
      if (cur === setA) setB = next;
      else setA = next;
    }
    let m = 0;
    if (n === 1) {
      // One height kept (most chords): no inner loop.
      const c0 = cur[0];
      for (let s = s0; s < s1; s++) {
        const t = H[s];
        const dh = Math.fround(t - c0);
        if (dh <= up && (drop || dh >= NEG_CLIMB)) next[m++] = t;
      }
    } else {
      for (let s = s0; s < s1; s++) {
        const t = H[s];
        for (let i = 0; i < n; i++) {
          const dh = Math.fround(t - cur[i]);
          if (dh <= up && (drop || dh >= NEG_CLIMB)) {
            next[m++] = t;
            break;
          }
        }
      }
    }
    if (m === 0) return -1;
    const tmp = cur;
    cur = next, next = tmp, n = m;
    pcx = x, pcy = y;
  }
  out = cur;
  return n;
}

/**
 * walk(cells, h): `cells` are window cells (x, y pairs) of a digital line; consecutive
 * duplicates and cells outside the window are dropped; the first cell is not checked. Returns
 * the heights the chord may end on, or null when a column keeps none. Empty columns are skipped
 * without moving the reference cell. With `drop`, any downward step is allowed (drop-margin mode).
 * Only `cells[0 .. len)` is read (default: all).
 */
export function layerWalk(
  g: SpanGrid,
  cells: ArrayLike<number>,
  h: number | readonly number[],
  drop = false,
  len: number = cells.length,
): number[] | null {
  const n = walkInto(g, cells, len, h, drop);
  if (n < 0) return null;
  // A plain copy: Array.from over a typed subarray goes through the iterator protocol and was a
  // third of LiftCorners' time (issue 36).
  const r = new Array<number>(n);
  for (let i = 0; i < n; i++) r[i] = out[i];
  return r;
}

/**
 * Does the walk from height hp over `cells[0 .. len)` keep a height within 1e-3 of hq
 * (`|v ⊖ hq| ≤ 1e-3` in float32), without building the height list?
 */
export function layerReaches(
  g: SpanGrid,
  cells: ArrayLike<number>,
  len: number,
  hp: number,
  hq: number,
): boolean {
  const n = walkInto(g, cells, len, hp, false);
  for (let i = 0; i < n; i++) if (Math.abs(Math.fround(out[i] - hq)) <= 1e-3) return true;
  return false;
}
