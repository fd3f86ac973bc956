/**
 * Clearance (spec 预烘场 › 净空): truncated Euclidean distance transform, exact up to kEdtCap =
 * 12 px (48 cells). Pass 1 per column: distance in cells to the nearest obstacle above/below,
 * capped at 196. Pass 2 per row: `D² = min_{|k|≤49} g(x+k)² + k²` in float32 (integers, exact).
 * The stored value is `min(D², 48²)` (the squared cell distance); {@link clearancePx} decodes it.
 * Reconstruction: formulas.md #41–#43.
 *
 * Choice [I]: the stored value is capped at {@link CLR_CAP_SQ} = 48² (spec 净空: 「超过 12 的
 * 记为 12」). Above 48 cells the truncated D² is only known to exceed 48² (formulas #43): its
 * value depends on obstacles up to 196 cells up or down the column and on where the window
 * ends (「窗口外的格按无障碍处理」), so a tile window (64-cell apron) and a whole-zone window
 * would store different numbers for the same cell. Capped, the stored value depends on the
 * obstacles within 48 cells only, and it decodes to the same px as D² (both give 12).
 * @module
 */

import { CLR_CAP_SQ } from "../grid/clearance_decode.ts";
import type { CellBox } from "../grid/cell_box.ts";
import { kEdtColCap, kEdtWin } from "../grid/constants.ts";

/**
 * Squared clearance per cell: 0 on obstacles (`obstacle[c] ≠ 0`), otherwise `min(D², 48²)` as
 * above; cells outside the window count as obstacle-free.
 * With `box`, only the cells inside it are computed (the rest stay 0): the column sweeps still
 * cover the whole window, so every value inside the box is the whole-window value.
 */
export function clearanceSq(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
  box?: CellBox,
): Uint16Array {
  const cap = kEdtColCap, outCap = CLR_CAP_SQ;
  // Column distances ≤ 196 fit a byte; the sweeps run row by row (one running distance per
  // column) so memory is walked in order — same values as two sweeps per column.
  const g = new Uint8Array(nx * ny);
  const run = new Int32Array(nx).fill(cap);
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      const d = obstacle[c] !== 0 ? 0 : Math.min(run[x] + 1, cap);
      run[x] = d;
      g[c] = d;
    }
  }
  run.fill(cap);
  for (let y = ny - 1; y >= 0; y--) {
    const row = y * nx;
    for (let x = 0; x < nx; x++) {
      const c = row + x;
      const d = obstacle[c] !== 0 ? 0 : Math.min(run[x] + 1, cap);
      run[x] = d;
      if (d < g[c]) g[c] = d;
    }
  }
  // Pass 2: min over the ±49-cell row window (at most 99 terms per cell), then capped at 48². A
  // capped column (g = 196) never beats a cell's own term when that cell is capped too
  // (196² + k² > 196²) and never beats an uncapped own term, so a capped cell with no uncapped
  // cell within ±49 is 196² before the cap, 48² after; `lastNear` holds the closest uncapped
  // cell on the left.
  const out = new Uint16Array(nx * ny);
  const W = kEdtWin;
  const bx0 = box ? Math.max(0, box.x0) : 0, bx1 = box ? Math.min(nx, box.x1) : nx;
  const by0 = box ? Math.max(0, box.y0) : 0, by1 = box ? Math.min(ny, box.y1) : ny;
  for (let y = by0; y < by1; y++) {
    const row = y * nx;
    // x of the last uncapped cell left of x (seeded from the ±W cells left of the box)
    let lastNear = -1 - 2 * W;
    for (let x = Math.max(0, bx0 - W); x < bx0; x++) if (g[row + x] < cap) lastNear = x;
    let nextNear = -1; // x of the next uncapped cell at or right of x (lazily advanced)
    for (let x = bx0; x < bx1; x++) {
      const gx = g[row + x];
      if (gx === 0) {
        lastNear = x;
        continue;
      }
      if (gx < cap) lastNear = x;
      else {
        if (nextNear < x) {
          nextNear = x + 1;
          while (nextNear < nx && g[row + nextNear] >= cap) nextNear++;
        }
        if (x - lastNear > W && (nextNear >= nx || nextNear - x > W)) {
          out[row + x] = outCap;
          continue;
        }
      }
      let best = gx * gx < outCap ? gx * gx : outCap;
      // Walk outwards; once k² ≥ best no farther term can win, so stopping early gives the
      // same capped minimum as scanning all 99 terms.
      for (let k = 1; k <= W && k * k < best; k++) {
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
