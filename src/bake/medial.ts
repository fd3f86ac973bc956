/**
 * λ-medial axis (spec 预烘场 › 中轴). NearestSource propagates each cell's nearest obstacle
 * cell in two 8SSEDT-style raster sweeps; a free cell is medial when some 8-neighbour's nearest
 * obstacle lies at squared cell distance ≥ ⌈(λ/kCS)²⌉ = 4 from its own (formulas #44).
 * @module
 */

import { kMedialSq } from "../grid/constants.ts";
import type { CellBox } from "./clearance.ts";

/**
 * NearestSource: `src[c]` = index of an (approximately) nearest obstacle cell, −1 if none.
 * Sweep 1 rows top (y = 0) to bottom: left→right taking N, NW, NE, W, then right→left taking E.
 * Sweep 2 rows bottom to top: right→left taking S, SW, SE, E, then left→right taking W.
 * A candidate replaces the current source only when strictly nearer (ties keep the old one).
 */
export function nearestSource(obstacle: Uint8Array, nx: number, ny: number): Int32Array {
  return sourceXY(obstacle, nx, ny).src;
}

/** Distance sentinel (no source yet); every real squared distance in a window is smaller. */
const FAR = 0x7fffffff;

/**
 * {@link nearestSource} plus each cell's source as (x, y) — the sweeps compare squared
 * distances as integers (exact, so the same strict-improvement ties as in double) and never
 * divide a cell index back into coordinates. `sx`/`sy` are meaningful where `src ≥ 0`.
 */
export function sourceXY(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
): { src: Int32Array; sx: Int32Array; sy: Int32Array } {
  const n = nx * ny;
  const src = new Int32Array(n).fill(-1);
  const sx = new Int32Array(n), sy = new Int32Array(n);
  const dist = new Int32Array(n).fill(FAR);
  let firstRow = ny; // first row holding an obstacle
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      if (obstacle[c] !== 0) {
        (src[c] = c), (sx[c] = x), (sy[c] = y), (dist[c] = 0);
        if (firstRow === ny) firstRow = y;
      }
    }
  }
  // No obstacle: no source anywhere. Above the first obstacle row sweep 1 has nothing to
  // propagate (every cell it reads is still sourceless), so it starts there.
  if (firstRow === ny) return { src, sx, sy };
  // take(c ← q), written out: adopt q's source when strictly nearer, in the order of the
  // module doc (each candidate compares against the current best, as sequential takes do).
  // Obstacle cells are skipped: their distance 0 cannot be beaten strictly.
  let q = 0, dc = 0, sc = 0, scx = 0, scy = 0;
  for (let y = firstRow; y < ny; y++) {
    const row = y * nx;
    for (let x = 0; x < nx; x++) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      if (y > 0) {
        q = c - nx;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
        if (x > 0) {
          q = c - nx - 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
        if (x + 1 < nx) {
          q = c - nx + 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
      }
      if (x > 0) {
        q = c - 1;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
    for (let x = nx - 2; x >= 0; x--) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      q = c + 1;
      if (src[q] >= 0) {
        const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
        if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
  }
  for (let y = ny - 1; y >= 0; y--) {
    const row = y * nx;
    for (let x = nx - 1; x >= 0; x--) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      if (y + 1 < ny) {
        q = c + nx;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
        if (x > 0) {
          q = c + nx - 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
        if (x + 1 < nx) {
          q = c + nx + 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
      }
      if (x + 1 < nx) {
        q = c + 1;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
    for (let x = 1; x < nx; x++) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      q = c - 1;
      if (src[q] >= 0) {
        const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
        if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
  }
  return { src, sx, sy };
}

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
