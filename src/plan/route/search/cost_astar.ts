/**
 * CostAstar (spec 两段搜索 › 格级回退): A* over cells, used only by the baseline's cell-level
 * fallback. No layers, no RiseOk, no line of sight; 8 neighbours without corner cutting, step
 * bans, links that only need their target cell in the mask. Ties pop by (f, x, y).
 * @module
 */

import type { WorkCounters } from "../../counters.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import { KeyIdHeap } from "./heap.ts";
import { DX, DY, stepBannedK } from "./span_astar.ts";
import { scratch } from "../../scratch.ts";

const DIAG = Math.fround(Math.fround(Math.SQRT2 * 0.5) * Math.fround(2));
/** Parent codes of the search's byte per cell (see `search`). */
const PAR_NONE = 0, PAR_LINK = 9, CLOSED = 0x80;

/** The parent cell of c from its code, or −1 (the start). */
function parentOf(par: Uint8Array, links: Map<number, number>, c: number, nx: number): number {
  const code = par[c] & ~CLOSED;
  if (code === PAR_NONE) return -1;
  if (code === PAR_LINK) return links.get(c)!;
  return c - DY[code - 1] * nx - DX[code - 1];
}

/** A cell path (window cells) and its cost, or null. */
export function costAstar(
  w: WindowGrid,
  mask: Uint8Array,
  start: number,
  goal: number,
  counters: WorkCounters | null = null,
): { cells: Int32Array; cost: number } | null {
  // Its window-sized state is scratch (scratch.ts); the path is copied out.
  const pops = [0];
  try {
    return scratch.frame(() => search(w, mask, start, goal, pops));
  } finally {
    if (counters) counters["topology.cell_pops"] += pops[0];
  }
}

function search(
  w: WindowGrid,
  mask: Uint8Array,
  start: number,
  goal: number,
  popsOut: number[],
): { cells: Int32Array; cost: number } | null {
  const nx = w.nx, ny = w.ny, n = nx * ny;
  const g = scratch.f64(n, Infinity);
  // One byte per cell for the parent and the closed flag (issue 36, docs/memory.md: 13 → 9
  // B/cell on the full window): PAR_NONE, 1 + k for a step of direction k (the parent is the
  // cell one step back), PAR_LINK for a link arrival (its source cell in `linkParent`), and the
  // CLOSED bit. Parents are set only on open cells, so the bit never has to be kept.
  const par = scratch.u8(n);
  const linkParent = new Map<number, number>();
  // Heap id = x·ny + y: ascending ids order by x, then y (格级搜索按 (f, x, y)).
  const heap = new KeyIdHeap(1024);
  const gx = goal % nx, gy = (goal / nx) | 0;
  const hOf = (x: number, y: number) => Math.sqrt((x - gx) * (x - gx) + (y - gy) * (y - gy));
  // Cell-level links: source cell → (target cell, cost).
  const links = new Map<number, Array<[number, number]>>();
  for (let i = 0; i < w.links.n; i++) {
    const a = w.spans.cell[w.links.fromSpan[i]], b = w.spans.cell[w.links.toSpan[i]];
    const l = links.get(a) ?? [];
    l.push([b, w.links.cost[i]]);
    links.set(a, l);
  }
  const sx = start % nx, sy = (start / nx) | 0;
  g[start] = 0;
  heap.push(hOf(sx, sy), sx * ny + sy);
  let pops = 0;
  while (heap.size > 0) {
    const f = heap.topKey(), id = heap.topId();
    heap.pop();
    pops++;
    const x = Math.floor(id / ny), y = id - x * ny, c = y * nx + x;
    if (par[c] & CLOSED) continue;
    if (f > g[c] + hOf(x, y) + 1e-9) continue;
    if (c === goal) {
      popsOut[0] = pops;
      const out: number[] = [];
      for (let k = c; k >= 0; k = parentOf(par, linkParent, k, nx)) out.push(k);
      return { cells: Int32Array.from(out.reverse()), cost: g[c] };
    }
    par[c] |= CLOSED;
    for (let k = 0; k < 8; k++) {
      const dx = DX[k], dy = DY[k], bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const b = by * nx + bx;
      if (!mask[b] || par[b] & CLOSED) continue;
      if (k >= 4 && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      if (stepBannedK(w.steps, c, b, k)) continue;
      const nd = g[c] + (k < 4 ? 1 : DIAG);
      if (nd < g[b] - 1e-12) {
        g[b] = nd;
        par[b] = 1 + k;
        heap.push(nd + hOf(bx, by), bx * ny + by);
      }
    }
    for (const [b, cost] of links.get(c) ?? []) {
      if (!mask[b] || par[b] & CLOSED) continue;
      const nd = g[c] + cost;
      if (nd < g[b] - 1e-12) {
        g[b] = nd;
        par[b] = PAR_LINK;
        linkParent.set(b, c);
        const bx = b % nx, by = (b / nx) | 0;
        heap.push(nd + hOf(bx, by), bx * ny + by);
      }
    }
  }
  popsOut[0] = pops;
  return null;
}
