/**
 * Drop margin (spec 后处理 › 落点留余量, formulas.md #134–#137, [I] where the reference predates it):
 * on a route whose consecutive points drop by more than kClimb, follow the upper surface along the
 * polyline at 1/16-px samples to find where the ledge ends, then move the landing away from the
 * upper surface by R = 3·kFallRadius/|s_x| px (kFallRadius = 0.41 m): a Dijkstra-like 4-neighbour
 * expansion on the lower surface by centre distance to the original landing (≤ 2R, [I]), each cell
 * needing a straight walk (layer oracle) to the next point, taking the first cell at ≥ R from the
 * upper surface, else the farthest checked one. Each landing is recorded as a drop.
 * @module
 */

import { kClimb, kCS } from "../../../grid/constants.ts";
import type { SpanGrid } from "../../../grid/span_grid.ts";
import { occIndex } from "../../../grid/span_grid.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import type { Pt, RouteDrop } from "../../types.ts";
import type { CellBox } from "../../../grid/cell_box.ts";
import type { Visibility } from "../visibility/visibility.ts";
import type { SwitchProbe } from "../../profile.ts";

/** kFallRadius: the character's radius, m. */
export const kFallRadius = 0.41;
/** Surface-follow tolerance, m (kQH). */
const kFollow = 1.0;

/** R = 3·kFallRadius / |s_x| px (formulas.md #134): how far a landing moves off the ledge. */
export function landingMargin(scaleX: number): number {
  return (3 * kFallRadius) / Math.abs(scaleX);
}

function spansAt(g: SpanGrid, c: number): number[] {
  const j = occIndex(g, c);
  if (j < 0) return [];
  const out: number[] = [];
  for (let s = g.cs[j]; s < g.cs[j + 1]; s++) out.push(g.h[s]);
  return out;
}

/** Heights of cell c's spans with their region bit (vis3). */
function regionSpansAt(w: WindowGrid, c: number): [number, boolean][] {
  const g = w.spans, j = occIndex(g, c);
  if (j < 0) return [];
  const out: [number, boolean][] = [];
  for (let s = g.cs[j]; s < g.cs[j + 1]; s++) out.push([g.h[s], w.vis3[s] === 1]);
  return out;
}

function cellOf(w: WindowGrid, p: Pt): number {
  const x = Math.floor((p[0] - w.x0 * kCS) / kCS), y = Math.floor((p[1] - w.y0 * kCS) / kCS);
  if (x < 0 || y < 0 || x >= w.nx || y >= w.ny) return -1;
  return y * w.nx + x;
}

/**
 * Finds and moves the landings of `pts` (heights `hs`, one per point) in place; returns the drop
 * records. `scaleX` is the zone's plane→world x scale (0: the step is skipped).
 */
export function dropMargin(
  w: WindowGrid,
  pts: Pt[],
  hs: number[],
  scaleX: number,
  line: Visibility,
  margin = true,
  probe: SwitchProbe | null = null,
): RouteDrop[] {
  const drops: RouteDrop[] = [];
  if (!(scaleX !== 0) || pts.length < 3 || hs.length !== pts.length) return drops;
  const R = landingMargin(scaleX);
  for (let k = 1; k < pts.length - 1; k++) {
    const a = pts[k - 1], b = pts[k];
    if (!(hs[k - 1] - hs[k] > kClimb) || (a[0] === b[0] && a[1] === b[1])) continue;
    // Follow the upper surface from a towards b (and beyond while it covers the next points).
    let upper = hs[k - 1], landing = -1;
    for (let seg = k; seg < pts.length - 1 && landing < 0; seg++) {
      const p = pts[seg - 1], q = pts[seg];
      const L = Math.sqrt((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2);
      const n = Math.max(1, Math.ceil(L * 16));
      let broke = false;
      for (let i = 0; i <= n; i++) {
        const c = cellOf(w, [p[0] + (q[0] - p[0]) * (i / n), p[1] + (q[1] - p[1]) * (i / n)]);
        if (c < 0) continue;
        let next = NaN, bd = Infinity;
        for (const v of spansAt(w.spans, c)) {
          const d = Math.abs(v - upper);
          if (d <= kFollow && d < bd) (bd = d), (next = v);
        }
        if (Number.isNaN(next)) {
          broke = true;
          break;
        }
        upper = next;
      }
      if (broke) {
        if (upper - hs[seg] > kClimb) landing = seg;
        break;
      }
      if (upper - hs[seg] <= kClimb) break; // a ramp, not a ledge
      hs[seg] = upper; // the upper surface covers this point
    }
    if (landing < 0 || landing >= pts.length - 1) continue;
    // #6147: the reference build (profile switch landingMargin off) keeps the raw landing.
    const moved = margin
      ? moveLanding(w, pts[landing], hs[landing], upper, pts[landing + 1], R, line)
      : null;
    if (moved) {
      probe?.touch("landingMargin");
      pts[landing] = moved.p;
      hs[landing] = moved.h;
    }
    drops.push({ index: landing, fromH: upper, toH: hs[landing] });
    k = landing;
  }
  return drops;
}

function moveLanding(
  w: WindowGrid,
  land: Pt,
  h: number,
  edgeH: number,
  next: Pt,
  R: number,
  line: Visibility,
): { p: Pt; h: number } | null {
  const c0 = cellOf(w, land);
  if (c0 < 0) return null;
  // formulas.md #135 [?] (the value was lost): 2R — straight out needs R + kCS, an inside
  // corner ≈ 1.5R; why not more: docs/profiles.md "Drops".
  const nx = w.nx, limit = 2 * R;
  const centre = (
    c: number,
  ): Pt => [(w.x0 + (c % nx) + 0.5) * kCS, (w.y0 + ((c / nx) | 0) + 0.5) * kCS];
  const dist = (c: number) => {
    const q = centre(c);
    return Math.sqrt((q[0] - land[0]) ** 2 + (q[1] - land[1]) ** 2);
  };
  const hOf = new Map<number, number>([[c0, h]]);
  const open: number[] = [c0];
  const seen = new Set([c0]);
  let best: { c: number; d: number } | null = null;
  const rCells = Math.ceil(R / kCS) + 1;
  const openD: number[] = [dist(c0)];
  // Every cell a checked cell's ring scan can reach: within 2R of the landing, then rCells.
  const reach = Math.ceil(limit / kCS) + rCells + 1, lx = c0 % nx, ly = (c0 / nx) | 0;
  const upper = new UpperHeights(w, edgeH, {
    x0: Math.max(0, lx - reach),
    y0: Math.max(0, ly - reach),
    x1: Math.min(nx, lx + reach + 1),
    y1: Math.min(w.ny, ly + reach + 1),
  });
  while (open.length > 0) {
    // Take the open cell nearest the landing (ties: lower cell index); the rest keep no order.
    let m = 0;
    for (let i = 1; i < open.length; i++) {
      if (openD[i] < openD[m] || (openD[i] === openD[m] && open[i] < open[m])) m = i;
    }
    const c = open[m];
    open[m] = open[open.length - 1];
    openD[m] = openD[open.length - 1];
    open.pop();
    openD.pop();
    const hc = hOf.get(c)!;
    const q = centre(c);
    // A cell counts only if one can walk straight on from it; that check (a layer walk to the
    // next point) is skipped where its answer changes nothing: a cell nearer the upper surface
    // than R and no farther than the best so far is neither taken nor the new best.
    const d = upperDistance(w, c, hc, edgeH, rCells, upper);
    if (d >= R || !best || d > best.d) {
      const walkable = c === c0 || line.heightsAlong(q[0], q[1], next[0], next[1], hc) !== null;
      if (walkable) {
        if (d >= R) return { p: q, h: hc };
        best = { c, d };
      }
    }
    const x = c % nx, y = (c / nx) | 0;
    for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      const bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= w.ny) continue;
      const b = by * nx + bx;
      // "下层" is the lower walkable surface: only the region's core cells and spans. A wall-
      // stamped Dead cell (clearance 0) next to the landing would otherwise win as the farthest
      // from the ledge, leaving the character standing in the wall (found by the property test).
      const db = dist(b);
      if (seen.has(b) || db > limit || !w.core[b]) continue;
      let hb = NaN, bd = Infinity;
      for (const [v, own] of regionSpansAt(w, b)) {
        const dd = Math.abs(v - hc);
        // …and it stays the lower layer: more than kClimb below the ledge. Following spans
        // within 1.0 of each other could otherwise climb a ramp back towards the ledge, where no
        // surface counts as "upper" any more and the first cell up there would be taken.
        if (own && dd <= kFollow && dd < bd && edgeH - v > kClimb) (bd = dd), (hb = v);
      }
      if (Number.isNaN(hb)) continue;
      seen.add(b);
      hOf.set(b, hb);
      open.push(b);
      openD.push(db);
    }
  }
  return best ? { p: centre(best.c), h: hOf.get(best.c)! } : null;
}

/**
 * The upper surface's heights near one landing, per cell: the highest span within kFollow of the
 * ledge's edge height (−∞: none), read once for every cell of `box` (cells outside it are read on
 * each visit). A cell is upper for a lower height h ⇔ that height − h > kClimb: some span passes
 * both tests exactly when the highest of the spans passing the first does (subtraction is
 * monotone). The landing search asks about the same cells hundreds of times.
 */
export class UpperHeights {
  private readonly top: Float64Array;
  private readonly bw: number;

  constructor(
    readonly w: WindowGrid,
    readonly edgeH: number,
    readonly box: CellBox,
  ) {
    this.bw = Math.max(0, box.x1 - box.x0);
    const bh = Math.max(0, box.y1 - box.y0);
    this.top = new Float64Array(this.bw * bh);
    for (let y = 0, k = 0; y < bh; y++) {
      for (let x = 0; x < this.bw; x++, k++) this.top[k] = this.read(box.x0 + x, box.y0 + y);
    }
  }

  /** The highest span of window cell (x, y) within kFollow of the edge height, or −∞. */
  at(x: number, y: number): number {
    const b = this.box;
    if (x >= b.x0 && y >= b.y0 && x < b.x1 && y < b.y1) {
      return this.top[(y - b.y0) * this.bw + (x - b.x0)];
    }
    return this.read(x, y);
  }

  private read(x: number, y: number): number {
    const g = this.w.spans, j = occIndex(g, y * this.w.nx + x);
    let top = -Infinity;
    if (j >= 0) {
      for (let s = g.cs[j]; s < g.cs[j + 1]; s++) {
        const v = g.h[s];
        if (Math.abs(v - this.edgeH) <= kFollow && v > top) top = v;
      }
    }
    return top;
  }

  /**
   * `best` lowered by the distance from (cx, cy)'s centre to each upper cell square (for the
   * lower height h) of the in-window cells [x0, x1] × [y0, y1] (one row or column of a ring).
   */
  nearest(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    cx: number,
    cy: number,
    h: number,
    best: number,
  ): number {
    const b = this.box, top = this.top, bw = this.bw;
    const inBox = x0 >= b.x0 && y0 >= b.y0 && x1 < b.x1 && y1 < b.y1;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0, k = (y - b.y0) * bw + (x0 - b.x0); x <= x1; x++, k++) {
        if (!((inBox ? top[k] : this.at(x, y)) - h > kClimb)) continue;
        const ex = Math.max(0, Math.abs((x - cx) * kCS) - kCS / 2),
          ey = Math.max(0, Math.abs((y - cy) * kCS) - kCS / 2);
        best = Math.min(best, Math.sqrt(ex * ex + ey * ey));
      }
    }
    return best;
  }
}

/** No cached cells: every visit reads the grid. */
const NO_BOX: CellBox = { x0: 0, y0: 0, x1: 0, y1: 0 };

/**
 * Distance from cell c's centre to the nearest upper-surface cell square within r cells, px
 * (Infinity: none). Scanned in Chebyshev rings outward: a cell of ring k is at least (k − ½)·kCS
 * away, so once the best is no farther than the next ring can be, the rest of the box cannot
 * lower it — the same minimum as a scan of the whole (2r + 1)² box.
 */
export function upperDistance(
  w: WindowGrid,
  c: number,
  h: number,
  edgeH: number,
  r: number,
  upper: UpperHeights = new UpperHeights(w, edgeH, NO_BOX),
): number {
  const nx = w.nx, ny = w.ny, cx = c % nx, cy = (c / nx) | 0;
  let best = Infinity;
  for (let k = 0; k <= r; k++) {
    if (best <= (k - 0.5) * kCS) break;
    // Ring k, clipped to the window: its top and bottom rows (one row when k = 0), then its
    // left and right columns between them.
    const xa = Math.max(0, cx - k), xb = Math.min(nx - 1, cx + k);
    if (cy - k >= 0) best = upper.nearest(xa, cy - k, xb, cy - k, cx, cy, h, best);
    if (k === 0) continue;
    if (cy + k < ny) best = upper.nearest(xa, cy + k, xb, cy + k, cx, cy, h, best);
    const ya = Math.max(0, cy - k + 1), yb = Math.min(ny - 1, cy + k - 1);
    if (cx - k >= 0) best = upper.nearest(cx - k, ya, cx - k, yb, cx, cy, h, best);
    if (cx + k < nx) best = upper.nearest(cx + k, ya, cx + k, yb, cx, cy, h, best);
  }
  return best;
}
