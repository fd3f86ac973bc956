/**
 * BakeWalls / StampWalls / WallsAtLayer (spec 预烘场 › 标墙). Every boundary edge of a walkable
 * triangle is a wall. Walls are sampled every ≤ 0.1 px; in each sample's cell every span within
 * kMcHBand = 8 m of the edge's mean height turns Dead (formulas #35–#37).
 * @module
 */

import { kCS, kMcHBand, kWallSampleStep } from "../grid/constants.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";
import type { WallEdges } from "../grid/wall_edges.ts";
import type { BakeWindow } from "./samples.ts";

export {
  collectWallEdges,
  type WallEdgeIndex,
  wallEdgeIndex,
  type WallEdges,
} from "../grid/wall_edges.ts";

/**
 * Visits the sample cells of edge `i`: `n = max(⌈L/(0.4·kCS)⌉, 1) + 1` points at
 * `t = k/(n−1)` (spacing ≤ 0.1 px), cell `⌊(p − o)/kCS⌋`, skipping samples outside the window.
 */
export function forEachWallSample(
  edges: WallEdges,
  i: number,
  win: BakeWindow,
  visit: (cell: number) => void,
): void {
  const e = edges.xyz, o = 6 * i;
  const ax = e[o], ay = e[o + 1], bx = e[o + 3], by = e[o + 4];
  const len = Math.hypot(bx - ax, by - ay);
  const n = Math.max(Math.ceil(len / (kWallSampleStep * kCS)), 1) + 1;
  for (let k = 0; k < n; k++) {
    const t = k / (n - 1);
    const gx = Math.floor((ax + (bx - ax) * t - win.x0) / kCS);
    const gy = Math.floor((ay + (by - ay) * t - win.y0) / kCS);
    if (gx < 0 || gy < 0 || gx >= win.nx || gy >= win.ny) continue;
    visit(gy * win.nx + gx);
  }
}

/** Mean height of edge i: `h̄ = (h_a + h_b)/2` (formulas #35). */
export function wallMeanHeight(edges: WallEdges, i: number): number {
  return (edges.xyz[6 * i + 2] + edges.xyz[6 * i + 5]) / 2;
}

/**
 * StampWalls: sets `dead[s] = 1` for every span s in a sampled cell with
 * `|double(h_s) − h̄| ≤ kMcHBand` (formulas #36). Returns `dead` (new when omitted).
 */
export function stampWalls(
  grid: SpanGrid,
  edges: WallEdges,
  win: BakeWindow,
  dead?: Uint8Array,
): Uint8Array {
  const out = dead ?? new Uint8Array(grid.h.length);
  for (let i = 0; i < edges.n; i++) {
    const hm = wallMeanHeight(edges, i);
    forEachWallSample(edges, i, win, (c) => {
      const j = occIndex(grid, c);
      if (j < 0) return;
      for (let s = grid.cs[j]; s < grid.cs[j + 1]; s++) {
        if (Math.abs(grid.h[s] - hm) <= kMcHBand) out[s] = 1;
      }
    });
  }
  return out;
}

/**
 * WallsAtLayer (formulas #37): keep[i] = 1 when some sample cell of edge i has a layer height
 * `lh` (per cell; NaN = no layer) with `|lh − h̄| ≤ 8`.
 */
export function wallsAtLayer(edges: WallEdges, lh: Float32Array, win: BakeWindow): Uint8Array {
  const keep = new Uint8Array(edges.n);
  for (let i = 0; i < edges.n; i++) {
    const hm = wallMeanHeight(edges, i);
    forEachWallSample(edges, i, win, (c) => {
      const v = lh[c];
      if (v === v && Math.abs(v - hm) <= kMcHBand) keep[i] = 1;
    });
  }
  return keep;
}
