/**
 * The layer oracle (spec 视线 › 高度连续检查, formulas.md #124–#126): follow the set of reachable
 * heights along a chord's digital line, column by column, so that a chord whose plan view is half
 * on a bridge and half under it is not taken for one layer.
 * @module
 */

import { kClimb, kCS, kSlope, kStepUp } from "../../grid/constants.ts";
import { occIndex, type SpanGrid } from "../../grid/span_grid.ts";

/** kQH: the height tolerance of voxel sampling, m. */
export const kQH = 1.0;
const NEG_CLIMB = -Math.fround(kClimb);

/**
 * walk(cells, h): `cells` are window cells (x, y pairs) of a digital line; consecutive
 * duplicates and cells outside the window are dropped; the first cell is not checked. Returns
 * the heights the chord may end on, or null when a column keeps none. Empty columns are skipped
 * without moving the reference cell. With `drop`, any downward step is allowed (drop-margin mode).
 */
export function layerWalk(
  g: SpanGrid,
  cells: ArrayLike<number>,
  h: number | readonly number[],
  drop = false,
): number[] | null {
  let cur = typeof h === "number" ? [Math.fround(h)] : h.map((v) => Math.fround(v));
  let pcx = NaN, pcy = NaN, lastX = NaN, lastY = NaN;
  for (let k = 0; k < cells.length; k += 2) {
    const x = cells[k], y = cells[k + 1];
    if (x === lastX && y === lastY) continue;
    lastX = x, lastY = y;
    if (x < 0 || y < 0 || x >= g.nx || y >= g.ny) continue;
    if (Number.isNaN(pcx)) {
      pcx = x, pcy = y;
      continue;
    }
    const j = occIndex(g, y * g.nx + x);
    if (j < 0) continue;
    const dx = x - pcx, dy = y - pcy;
    const w = Math.sqrt(dx * dx + dy * dy);
    const up = Math.max(kStepUp, kSlope * w * kCS) + kQH;
    const kept: number[] = [];
    for (let s = g.cs[j]; s < g.cs[j + 1]; s++) {
      const t = g.h[s];
      for (const c of cur) {
        const dh = Math.fround(t - c);
        if (dh <= up && (drop || dh >= NEG_CLIMB)) {
          kept.push(t);
          break;
        }
      }
    }
    if (kept.length === 0) return null;
    cur = kept;
    pcx = x, pcy = y;
  }
  return cur;
}

/** Does `heights` hold a value within 1e-3 of hq (`|v ⊖ hq| ≤ 1e-3` in float32)? */
export function reachesHeight(heights: readonly number[], hq: number): boolean {
  for (const v of heights) if (Math.abs(Math.fround(v - hq)) <= 1e-3) return true;
  return false;
}
