/**
 * BakeWalls / StampWalls / WallsAtLayer (spec 预烘场 › 标墙). Every boundary edge of a walkable
 * triangle is a wall. Walls are sampled every ≤ 0.1 px; in each sample's cell every span within
 * kMcHBand = 8 m of the edge's mean height turns Dead (formulas #35–#37).
 * @module
 */

import { kCS, kMcHBand, kWallBoxPad, kWallSampleStep } from "../grid/constants.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";
import type { RasterMesh } from "./rasterize.ts";
import type { BakeWindow } from "./samples.ts";

/** Wall edges, columnar: edge i is `(ax, ay, ah, bx, by, bh) = xyz[6i .. 6i+5]`, id tri·3+k. */
export interface WallEdges {
  /** Number of edges. */
  n: number;
  /** Endpoints: ax, ay (px), ah (m), bx, by (px), bh (m) per edge. */
  xyz: Float64Array;
  /** Edge key `3·t + k` (formulas #13: the FWAL key). */
  key: Int32Array;
}

/**
 * Collects the boundary edges (BakeWalls): edge k of walkable triangle t (vertex k → k+1) whose
 * bit k of `boundary[t]` is set, when the edge's bounding box meets the window grown by 4 px.
 * Non-walkable triangles give no edges. Edges come out in (t, k) order.
 */
export function collectWallEdges(
  mesh: RasterMesh,
  boundary: Uint8Array,
  win: BakeWindow,
): WallEdges {
  const lx = win.x0 - kWallBoxPad, hx = win.x0 + win.nx * kCS + kWallBoxPad;
  const ly = win.y0 - kWallBoxPad, hy = win.y0 + win.ny * kCS + kWallBoxPad;
  const xyz: number[] = [], key: number[] = [];
  const v = mesh.verts, nt = Math.floor(mesh.tris.length / 3);
  for (let t = 0; t < nt; t++) {
    if (mesh.walkable !== undefined && mesh.walkable[t] === 0) continue;
    const bits = boundary[t];
    if (bits === 0) continue;
    for (let k = 0; k < 3; k++) {
      if (((bits >> k) & 1) === 0) continue;
      const a = 3 * mesh.tris[3 * t + k], b = 3 * mesh.tris[3 * t + ((k + 1) % 3)];
      if (Math.max(v[a], v[b]) < lx || Math.min(v[a], v[b]) > hx) continue;
      if (Math.max(v[a + 1], v[b + 1]) < ly || Math.min(v[a + 1], v[b + 1]) > hy) continue;
      xyz.push(v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2]);
      key.push(3 * t + k);
    }
  }
  return { n: key.length, xyz: Float64Array.from(xyz), key: Int32Array.from(key) };
}

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
