/**
 * λ-medial axis (spec 预烘场 › 中轴). NearestSource propagates each cell's nearest obstacle
 * cell in two 8SSEDT-style raster sweeps; a free cell is medial when some 8-neighbour's nearest
 * obstacle lies at squared cell distance ≥ ⌈(λ/kCS)²⌉ = 4 from its own (formulas #44).
 * @module
 */

import { kMedialSq } from "../grid/constants.ts";

/**
 * NearestSource: `src[c]` = index of an (approximately) nearest obstacle cell, −1 if none.
 * Sweep 1 rows top (y = 0) to bottom: left→right taking N, NW, NE, W, then right→left taking E.
 * Sweep 2 rows bottom to top: right→left taking S, SW, SE, E, then left→right taking W.
 * A candidate replaces the current source only when strictly nearer (ties keep the old one).
 */
export function nearestSource(obstacle: Uint8Array, nx: number, ny: number): Int32Array {
  const src = new Int32Array(nx * ny).fill(-1);
  const dist = new Float64Array(nx * ny).fill(Infinity);
  for (let c = 0; c < nx * ny; c++) {
    if (obstacle[c] !== 0) {
      src[c] = c;
      dist[c] = 0;
    }
  }
  const take = (c: number, x: number, y: number, qx: number, qy: number) => {
    if (qx < 0 || qy < 0 || qx >= nx || qy >= ny) return;
    const s = src[qy * nx + qx];
    if (s < 0) return;
    const sx = s % nx, sy = (s - sx) / nx;
    const d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
    if (d < dist[c]) {
      dist[c] = d;
      src[c] = s;
    }
  };
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const c = y * nx + x;
      take(c, x, y, x, y - 1);
      take(c, x, y, x - 1, y - 1);
      take(c, x, y, x + 1, y - 1);
      take(c, x, y, x - 1, y);
    }
    for (let x = nx - 1; x >= 0; x--) take(y * nx + x, x, y, x + 1, y);
  }
  for (let y = ny - 1; y >= 0; y--) {
    for (let x = nx - 1; x >= 0; x--) {
      const c = y * nx + x;
      take(c, x, y, x, y + 1);
      take(c, x, y, x - 1, y + 1);
      take(c, x, y, x + 1, y + 1);
      take(c, x, y, x + 1, y);
    }
    for (let x = 0; x < nx; x++) take(y * nx + x, x, y, x - 1, y);
  }
  return src;
}

/**
 * Medial bits: 1 for a free cell (not an obstacle) with a known source and some in-window
 * 8-neighbour with a known source at squared cell distance ≥ `lambdaSq` from its own source.
 * `lambdaSq` defaults to the spec's 4 (λ = kClrLambda = 0.5 px = 2 cells).
 */
export function medialAxis(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
  lambdaSq = kMedialSq,
): Uint8Array {
  const src = nearestSource(obstacle, nx, ny);
  const out = new Uint8Array(nx * ny);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const c = y * nx + x;
      const s = src[c];
      if (obstacle[c] !== 0 || s < 0) continue;
      const sx = s % nx, sy = (s - sx) / nx;
      search: for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const qx = x + dx, qy = y + dy;
          if (qx < 0 || qy < 0 || qx >= nx || qy >= ny) continue;
          const t = src[qy * nx + qx];
          if (t < 0) continue;
          const tx = t % nx, ty = (t - tx) / nx;
          if ((tx - sx) * (tx - sx) + (ty - sy) * (ty - sy) >= lambdaSq) {
            out[c] = 1;
            break search;
          }
        }
      }
    }
  }
  return out;
}
