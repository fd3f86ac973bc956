/**
 * The corridor band and the open area of the geometry pass (spec 两段搜索 › 几何层,
 * formulas.md #107–#109): a feature transform from the topology path's cells (the bake's
 * NearestSource sweeps), the half-width `W(c) = d(seed(c))`, the band
 * `((Δx·kCS)² + (Δy·kCS)² ≤ W(c)²) ∨ seed(c)`, and the open area
 * `solidc(c) ⇔ d(c) ≥ max(kClrPref + kGeoMargin, 0.8·W(c))` with kGeoMargin = 0.
 * @module
 */

import { sourcePacked } from "../../bake/medial.ts";
import { kCS } from "../../grid/constants.ts";
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
}

/** The corridor of the seed cells `path` over clearance `dist`. */
export function corridor(
  dist: Float32Array,
  nx: number,
  ny: number,
  path: ArrayLike<number>,
): Corridor {
  const n = nx * ny;
  const seed = new Uint8Array(n);
  for (let i = 0; i < path.length; i++) seed[path[i]] = 1;
  const P = sourcePacked(seed, nx, ny);
  const band = new Uint8Array(n), solidc = new Uint8Array(n);
  const floor = kClrPref + kGeoMargin;
  // Row by row with the sources' packed (x, y) from the sweeps: no index → coordinate division.
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      const v = P[c];
      if (v < 0) continue;
      const px = v & 0xffff, py = v >> 16, W = dist[py * nx + px];
      const dx = (x - px) * kCS, dy = (y - py) * kCS;
      if (seed[c] || dx * dx + dy * dy <= W * W) band[c] = 1;
      const t = kChordFrac * W;
      if (dist[c] >= (t > floor ? t : floor)) solidc[c] = 1;
    }
  }
  return { band, solidc };
}
