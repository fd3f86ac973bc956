/**
 * Clearance (spec 预烘场 › 净空): truncated Euclidean distance transform, exact up to kEdtCap =
 * 12 px (48 cells). Pass 1 per column: distance in cells to the nearest obstacle above/below,
 * capped at 196. Pass 2 per row: `D² = min_{|k|≤49} g(x+k)² + k²` in float32 (integers, exact).
 * The stored value is D² (the squared cell distance); {@link clearancePx} decodes it.
 * Reconstruction: formulas.md #41–#43.
 * @module
 */

import { kEdtColCap, kEdtWin } from "../grid/constants.ts";

/**
 * Squared clearance per cell: 0 on obstacles (`obstacle[c] ≠ 0`), otherwise D² as above;
 * cells outside the window count as obstacle-free. D² ≤ 196² = 38416 fits a u16.
 */
export function clearanceSq(obstacle: Uint8Array, nx: number, ny: number): Uint16Array {
  const g = new Int32Array(nx * ny);
  // Pass 1: column distance, two sweeps per column.
  for (let x = 0; x < nx; x++) {
    let d = kEdtColCap;
    for (let y = 0; y < ny; y++) {
      const c = y * nx + x;
      d = obstacle[c] !== 0 ? 0 : Math.min(d + 1, kEdtColCap);
      g[c] = d;
    }
    d = kEdtColCap;
    for (let y = ny - 1; y >= 0; y--) {
      const c = y * nx + x;
      d = obstacle[c] !== 0 ? 0 : Math.min(d + 1, kEdtColCap);
      if (d < g[c]) g[c] = d;
    }
  }
  // Pass 2: min over the ±49-cell row window (at most 99 terms per cell).
  const out = new Uint16Array(nx * ny);
  for (let y = 0; y < ny; y++) {
    const row = y * nx;
    for (let x = 0; x < nx; x++) {
      if (g[row + x] === 0) continue;
      let best = g[row + x] * g[row + x];
      // Walk outwards; once k² ≥ best no farther term can win, so stopping early gives the
      // same minimum as scanning all 99 terms.
      for (let k = 1; k <= kEdtWin && k * k < best; k++) {
        if (x - k >= 0) {
          const gv = g[row + x - k], v = gv * gv + k * k;
          if (v < best) best = v;
        }
        if (x + k < nx) {
          const gv = g[row + x + k], v = gv * gv + k * k;
          if (v < best) best = v;
        }
      }
      out[row + x] = best;
    }
  }
  return out;
}
