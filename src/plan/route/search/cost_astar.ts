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
  const parent = scratch.i32(n, -1);
  const closed = scratch.u8(n);
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
    if (closed[c]) continue;
    if (f > g[c] + hOf(x, y) + 1e-9) continue;
    if (c === goal) {
      popsOut[0] = pops;
      const out: number[] = [];
      for (let k = c; k >= 0; k = parent[k]) out.push(k);
      return { cells: Int32Array.from(out.reverse()), cost: g[c] };
    }
    closed[c] = 1;
    for (let k = 0; k < 8; k++) {
      const dx = DX[k], dy = DY[k], bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const b = by * nx + bx;
      if (!mask[b] || closed[b]) continue;
      if (k >= 4 && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      if (stepBannedK(w.steps, c, b, k)) continue;
      const nd = g[c] + (k < 4 ? 1 : DIAG);
      if (nd < g[b] - 1e-12) {
        g[b] = nd;
        parent[b] = c;
        heap.push(nd + hOf(bx, by), bx * ny + by);
      }
    }
    for (const [b, cost] of links.get(c) ?? []) {
      if (!mask[b] || closed[b]) continue;
      const nd = g[c] + cost;
      if (nd < g[b] - 1e-12) {
        g[b] = nd;
        parent[b] = c;
        const bx = b % nx, by = (b / nx) | 0;
        heap.push(nd + hOf(bx, by), bx * ny + by);
      }
    }
  }
  popsOut[0] = pops;
  return null;
}
