/**
 * LiftCorners (spec 后处理 › 拐点抬升, formulas.md #130–#132): each middle corner, in order and in
 * place, moves to the clearest cell centre within 2 cells (12 candidates, clearance strictly above
 * the corner cell's, by clearance descending then linear index) whose two new chords keep the
 * old chords' minimum clearance (SegMinClr, 1e-9 slack), do not cross the polyline's next-but-one
 * segments (SegCross), pass the layer oracle, and pass vis_hard; a corner already at the local
 * maximum stays. A failed height walk on an old chord ends the whole step.
 * @module
 */

import { kCS } from "../../../grid/constants.ts";
import { digitalLineMin } from "../../../grid/digital_line.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import type { Pt } from "../../types.ts";
import type { Visibility } from "../visibility/visibility.ts";

/** kLiftMax = 0.5 px: the search radius in cells is round(kLiftMax/kCS) = 2. */
const kLiftCells = 2;

/** SegMinClr: the smallest clearance over the chord's digital line (window cells only). */
export function segMinClr(w: WindowGrid, a: Pt, b: Pt): number {
  const x0 = w.x0 * kCS, y0 = w.y0 * kCS;
  const ax = Math.trunc((a[0] - x0) / kCS), ay = Math.trunc((a[1] - y0) / kCS);
  const bx = Math.trunc((b[0] - x0) / kCS), by = Math.trunc((b[1] - y0) / kCS);
  // walkDigitalLine's line by integers (formulas #116), cell for cell, taken while walking.
  return digitalLineMin(w.dist, w.nx, w.ny, ax, ay, bx, by);
}

function side(a: Pt, b: Pt, c: Pt): boolean {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0;
}

/** SegCross: proper crossing of pq and rs (> 0 one side, ≤ 0 the other; collinear never). */
export function segCross(p: Pt, q: Pt, r: Pt, s: Pt): boolean {
  return side(r, s, p) !== side(r, s, q) && side(p, q, r) !== side(p, q, s);
}

/** The height in `hs` nearest `h` (the first minimum). */
function nearest(hs: readonly number[], h: number): number {
  let best = hs[0], bd = Infinity;
  for (const v of hs) {
    const d = Math.abs(v - h);
    if (d < bd) (bd = d), (best = v);
  }
  return best;
}

/**
 * Lifts the corners of `pts` in place; returns the per-point heights the walk produced (the start
 * height first) and the number of points moved. `hard` is vis_hard.
 */
export function liftCorners(
  w: WindowGrid,
  pts: Pt[],
  h0: number,
  hard: Visibility,
): { moved: number; heights: number[] | null; corners: number; candidates: number } {
  const n = pts.length;
  const heights: number[] = [h0];
  let moved = 0, ha = h0, corners = 0, candidates = 0;
  const x0 = w.x0 * kCS, y0 = w.y0 * kCS;
  for (let i = 1; i < n - 1; i++) {
    const prev = pts[i - 1];
    const hs = hard.heightsAlong(prev[0], prev[1], pts[i][0], pts[i][1], ha);
    corners++;
    if (!hs) return { moved, heights: null, corners, candidates };
    let hi = nearest(hs, ha);
    const cx = Math.floor((pts[i][0] - x0) / kCS), cy = Math.floor((pts[i][1] - y0) / kCS);
    if (cx >= 0 && cy >= 0 && cx < w.nx && cy < w.ny) {
      const here = w.dist[cy * w.nx + cx];
      const next = pts[i + 1];
      const keep = Math.min(segMinClr(w, prev, pts[i]), segMinClr(w, pts[i], next));
      const cand: number[] = [];
      for (let dy = -kLiftCells; dy <= kLiftCells; dy++) {
        for (let dx = -kLiftCells; dx <= kLiftCells; dx++) {
          if ((dx === 0 && dy === 0) || dx * dx + dy * dy > kLiftCells * kLiftCells) continue;
          const x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= w.nx || y >= w.ny) continue;
          if (w.dist[y * w.nx + x] > here) cand.push(y * w.nx + x);
        }
      }
      cand.sort((a, b) => w.dist[b] - w.dist[a] || a - b);
      const dist = (a: Pt, b: Pt) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2);
      for (const c of cand) {
        candidates++;
        const q: Pt = [x0 + ((c % w.nx) + 0.5) * kCS, y0 + (((c / w.nx) | 0) + 0.5) * kCS];
        if (dist(q, prev) < 0.125 || dist(q, next) < 0.125) continue;
        if (Math.min(segMinClr(w, prev, q), segMinClr(w, q, next)) < keep - 1e-9) continue;
        if (i >= 2 && segCross(q, next, pts[i - 2], prev)) continue;
        if (i + 2 < n && segCross(prev, q, next, pts[i + 2])) continue;
        const hq = hard.heightsAlong(prev[0], prev[1], q[0], q[1], ha);
        if (!hq) continue;
        const hw = nearest(hq, ha);
        // One height walk of q → next serves both the check and the second chord's end height:
        // heightsAlong is a pure function of its arguments (it returns a fresh array), so this is
        // the value the reference's second walk after the first chord's check gives.
        const hn = hard.heightsAlong(q[0], q[1], next[0], next[1], hw);
        if (!hn) continue;
        if (!hard.ok(prev[0], prev[1], q[0], q[1], ha, hw)) continue;
        if (!hard.ok(q[0], q[1], next[0], next[1], hw, nearest(hn, hw))) continue;
        pts[i] = q;
        hi = hw;
        moved++;
        break;
      }
    }
    heights.push(hi);
    ha = hi;
  }
  if (n >= 2) {
    const a = pts[n - 2], b = pts[n - 1];
    const hs = hard.heightsAlong(a[0], a[1], b[0], b[1], ha);
    heights.push(hs ? nearest(hs, ha) : ha);
  }
  return { moved, heights, corners, candidates };
}
