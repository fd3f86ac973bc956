/**
 * SpanAstar with the unit price (spec 两段搜索 › 求解器 / 基线): A* over the window's spans, 8
 * neighbours, a diagonal only when both orthogonal cells are in the mask (no corner cutting),
 * step bans, RiseOk, and the off-mesh links. The price is 1 everywhere, so a step costs
 * `f32(w·0.5) ⊗ (1 ⊕ 1)` (1 orthogonal, 1.41421354 diagonal, formulas.md #98/#106); the heuristic
 * is the Euclidean cell distance to the goal cell. Ties pop by span index. Updates need an
 * improvement of more than 1e-12; stale entries (f > g + h + 1e-9) are skipped.
 *
 * This is Planner I's search: the baseline of routeWindow. The topology and geometry passes of
 * Planner II reuse it with other masks and prices.
 * @module
 */

import { riseOk } from "../../grid/rise_ok.ts";
import { occIndex } from "../../grid/span_grid.ts";
import type { WindowGrid } from "../build_window.ts";
import { KeyIdHeap } from "./heap.ts";

const DIAG = Math.fround(Math.fround(Math.SQRT2 * 0.5) * Math.fround(2));
const DX = [1, 0, -1, 0, 1, -1, -1, 1];
const DY = [0, 1, 0, -1, 1, 1, -1, -1];

/** Result of one search. */
export interface SpanPath {
  /** Spans from start to goal. */
  spans: Int32Array;
  /** Cost of the goal. */
  cost: number;
}

/** Search options. */
export interface SpanSearchOptions {
  /** Cell mask (1 = allowed). */
  mask: Uint8Array;
  /** Usable spans (region ∧ reach domain). */
  usable: Uint8Array;
  /** Start span. */
  start: number;
  /** Goal spans (1 = goal). */
  goal: Uint8Array;
  /** Goal cell (window cell index), for the heuristic. */
  goalCell: number;
  /** Abandon when a popped f reaches this (early abandon); Infinity for none. */
  abandonAt?: number;
}

/** Reusable work buffers of a window's searches. */
export class SpanSearch {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly closed: Uint8Array;
  private readonly heap = new KeyIdHeap(4096);
  private readonly linkStart: Int32Array;
  private readonly linkOrder: Int32Array;
  /** Set when the last search stopped by the abandon threshold. */
  abandoned = false;

  constructor(readonly win: WindowGrid) {
    const n = win.spans.h.length;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.closed = new Uint8Array(n);
    // Links in CSR by source span, table order kept within a source.
    const L = win.links;
    this.linkStart = new Int32Array(n + 1);
    for (let i = 0; i < L.n; i++) this.linkStart[L.fromSpan[i] + 1]++;
    for (let s = 0; s < n; s++) this.linkStart[s + 1] += this.linkStart[s];
    const fill = this.linkStart.slice(0, n);
    this.linkOrder = new Int32Array(L.n);
    for (let i = 0; i < L.n; i++) this.linkOrder[fill[L.fromSpan[i]]++] = i;
  }

  /** Runs one search; null when the goal cannot be reached (or the search was abandoned). */
  run(o: SpanSearchOptions): SpanPath | null {
    const w = this.win, sp = w.spans, nx = w.nx, ny = w.ny;
    const { g, parent, closed, heap } = this;
    g.fill(Infinity);
    closed.fill(0);
    heap.clear();
    this.abandoned = false;
    const gx = o.goalCell % nx, gy = (o.goalCell / nx) | 0;
    const hOf = (c: number) => {
      const dx = (c % nx) - gx, dy = ((c / nx) | 0) - gy;
      return Math.sqrt(dx * dx + dy * dy);
    };
    const abandonAt = o.abandonAt ?? Infinity;
    g[o.start] = 0;
    parent[o.start] = -1;
    heap.push(hOf(sp.cell[o.start]), o.start);
    while (heap.size > 0) {
      const f = heap.topKey(), u = heap.topId();
      heap.pop();
      if (closed[u]) continue;
      const cu = sp.cell[u];
      if (f > g[u] + hOf(cu) + 1e-9) continue;
      if (o.goal[u]) return { spans: this.trace(u), cost: g[u] };
      if (f >= abandonAt) {
        this.abandoned = true;
        return null;
      }
      closed[u] = 1;
      const x = cu % nx, y = (cu / nx) | 0, hu = sp.h[u];
      for (let k = 0; k < 8; k++) {
        const dx = DX[k], dy = DY[k];
        const bx = x + dx, by = y + dy;
        if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
        const cb = by * nx + bx;
        if (!o.mask[cb]) continue;
        if (k >= 4 && (!o.mask[y * nx + bx] || !o.mask[by * nx + x])) continue;
        if (stepBanned(w.steps, cu, cb, dx, dy)) continue;
        const j = occIndex(sp, cb);
        if (j < 0) continue;
        const step = k < 4 ? 1 : DIAG;
        for (let v = sp.cs[j]; v < sp.cs[j + 1]; v++) {
          if (!o.usable[v] || closed[v]) continue;
          if (!riseOk(sp, x, y, hu, dx, dy, sp.h[v])) continue;
          const nd = g[u] + step;
          if (nd < g[v] - 1e-12) {
            g[v] = nd;
            parent[v] = u;
            heap.push(nd + hOf(cb), v);
          }
        }
      }
      for (let q = this.linkStart[u]; q < this.linkStart[u + 1]; q++) {
        const i = this.linkOrder[q], v = w.links.toSpan[i];
        if (!o.usable[v] || closed[v] || !o.mask[sp.cell[v]]) continue;
        const nd = g[u] + w.links.cost[i];
        if (nd < g[v] - 1e-12) {
          g[v] = nd;
          parent[v] = u;
          heap.push(nd + hOf(sp.cell[v]), v);
        }
      }
    }
    return null;
  }

  private trace(u: number): Int32Array {
    const out: number[] = [];
    for (let s = u; s >= 0; s = this.parent[s]) out.push(s);
    return Int32Array.from(out.reverse());
  }
}

/**
 * Is the step from window cell a to its 8-neighbour b banned? Direction d of STEP_DIRS
 * ((1,0), (0,1), (1,1), (1,−1)) is stored on the cell it starts from: bit 2d forbids c → c+dir,
 * bit 2d+1 forbids c+dir → c.
 */
export function stepBanned(
  steps: Uint8Array,
  a: number,
  b: number,
  dx: number,
  dy: number,
): boolean {
  const d = dirIndex(dx, dy);
  if (d >= 0) return ((steps[a] >> (2 * d)) & 1) !== 0;
  const r = dirIndex(-dx, -dy);
  return ((steps[b] >> (2 * r + 1)) & 1) !== 0;
}

function dirIndex(dx: number, dy: number): number {
  if (dx === 1 && dy === 0) return 0;
  if (dx === 0 && dy === 1) return 1;
  if (dx === 1 && dy === 1) return 2;
  if (dx === 1 && dy === -1) return 3;
  return -1;
}
