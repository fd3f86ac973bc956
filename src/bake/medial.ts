/**
 * λ-medial axis (spec 预烘场 › 中轴). NearestSource propagates each cell's nearest obstacle
 * cell in two 8SSEDT-style raster sweeps; a free cell is medial when some 8-neighbour's nearest
 * obstacle lies at squared cell distance ≥ ⌈(λ/kCS)²⌉ = 4 from its own (formulas #44).
 * @module
 */

import { kMedialSq } from "../grid/constants.ts";
import type { CellBox } from "../grid/cell_box.ts";
import { sourceXY } from "../grid/nearest_source.ts";

export { nearestSource, sourcePacked, sourceXY } from "../grid/nearest_source.ts";

/**
 * Medial bits: 1 for a free cell (not an obstacle) with a known source and some in-window
 * 8-neighbour with a known source at squared cell distance ≥ `lambdaSq` from its own source.
 * `lambdaSq` defaults to the spec's 4 (λ = kClrLambda = 0.5 px = 2 cells). With `box`, cells
 * outside it stay 0.
 */
export function medialAxis(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
  lambdaSq = kMedialSq,
  box?: CellBox,
): Uint8Array {
  const { src, sx: srcX, sy: srcY } = sourceXY(obstacle, nx, ny);
  const out = new Uint8Array(nx * ny);
  // With `box`, only its cells get their bit (the sweeps still cover the whole window).
  const x0 = box ? Math.max(0, box.x0) : 0, x1 = box ? Math.min(nx, box.x1) : nx;
  const y0 = box ? Math.max(0, box.y0) : 0, y1 = box ? Math.min(ny, box.y1) : ny;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const c = y * nx + x;
      if (obstacle[c] !== 0 || src[c] < 0) continue;
      const sx = srcX[c], sy = srcY[c];
      search: for (let dy = -1; dy <= 1; dy++) {
        const qy = y + dy;
        if (qy < 0 || qy >= ny) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if (dx === 0 && dy === 0) continue;
          const qx = x + dx;
          if (qx < 0 || qx >= nx) continue;
          const q = qy * nx + qx;
          if (src[q] < 0) continue;
          const ex = srcX[q] - sx, ey = srcY[q] - sy;
          if (ex * ex + ey * ey >= lambdaSq) {
            out[c] = 1;
            break search;
          }
        }
      }
    }
  }
  return out;
}
