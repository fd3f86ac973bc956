/**
 * The corridor band and the open area of the geometry pass (spec 两段搜索 › 几何层,
 * formulas.md #107–#109): a feature transform from the topology path's cells (the bake's
 * NearestSource sweeps), the half-width `W(c) = d(seed(c))`, the band
 * `((Δx·kCS)² + (Δy·kCS)² ≤ W(c)²) ∨ seed(c)`, and the open area
 * `solidc(c) ⇔ d(c) ≥ max(kClrPref + kGeoMargin, 0.8·W(c))` with kGeoMargin = 0.
 * @module
 */

import { sourcePacked } from "../../../grid/nearest_source.ts";
import { scratch } from "../../scratch.ts";
import { kCS } from "../../../grid/constants.ts";
import type { CellBox } from "../../../grid/cell_box.ts";
import { kClrPref } from "./price_field.ts";

/** kChordFrac: the open-area threshold as a fraction of the corridor half-width. */
export const kChordFrac = 0.8;
/** kGeoMargin: extra corner margin, px. */
export const kGeoMargin = 0;

/** Band and open area of a window. */
export interface Corridor {
  /** 1 = in the corridor band. */
  band: Uint8Array;
  /** 1 = open area (solidc). */
  solidc: Uint8Array;
  /** The cells the band can hold (null: no seeds, no band). */
  box: CellBox | null;
}

/** The corridor of the seed cells `path` over clearance `dist`. */
export function corridor(
  dist: Float32Array,
  nx: number,
  ny: number,
  path: ArrayLike<number>,
): Corridor {
  const n = nx * ny;
  // Window-sized: scratch inside routeWindow's frame (scratch.ts).
  const seed = scratch.u8(n);
  // The widest half-width of any seed, and the seeds' bounding box.
  let wMax = 0, x0 = nx, y0 = ny, x1 = -1, y1 = -1;
  for (let i = 0; i < path.length; i++) {
    const c = path[i], x = c % nx, y = (c - x) / nx;
    seed[c] = 1;
    if (dist[c] > wMax) wMax = dist[c];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const P = sourcePacked(seed, nx, ny, scratch.i32(n, -1));
  const band = scratch.u8(n), solidc = scratch.u8(n);
  if (x1 < 0) return { band, solidc, box: null };
  const floor = kClrPref + kGeoMargin;
  // solidc needs the cell's seed only where its clearance lies between the floor and the
  // widest threshold: below the floor it is never open, at or above 0.8·wMax always (t grows
  // with W, and no seed is wider than wMax).
  const tMax = kChordFrac * wMax, always = tMax > floor ? tMax : floor;
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      const d = dist[c];
      if (d < floor) continue;
      if (d >= always) {
        solidc[c] = 1;
        continue;
      }
      const v = P[c];
      if (v < 0) continue;
      const t = kChordFrac * dist[(v >> 16) * nx + (v & 0xffff)];
      if (d >= (t > floor ? t : floor)) solidc[c] = 1;
    }
  }
  // The band lies within wMax of a seed (a cell's source is never nearer than its nearest
  // seed): only the seeds' box widened by wMax is scanned.
  const m = Math.ceil(wMax / kCS) + 1;
  const xa = Math.max(0, x0 - m), xb = Math.min(nx - 1, x1 + m);
  const ya = Math.max(0, y0 - m), yb = Math.min(ny - 1, y1 + m);
  for (let y = ya; y <= yb; y++) {
    for (let x = xa, c = y * nx + xa; x <= xb; x++, c++) {
      const v = P[c];
      if (v < 0) continue;
      const px = v & 0xffff, py = v >> 16, W = dist[py * nx + px];
      const dx = (x - px) * kCS, dy = (y - py) * kCS;
      if (seed[c] || dx * dx + dy * dy <= W * W) band[c] = 1;
    }
  }
  return { band, solidc, box: { x0: xa, y0: ya, x1: xb + 1, y1: yb + 1 } };
}
