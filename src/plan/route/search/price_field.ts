/**
 * PriceField (spec 拓扑层 › 单价, formulas.md #104): `m(c) = f32(hi / min(max(double(d(c)), lo), hi))`
 * per cell, from the window's clearance. multw (topology): lo 1.0, hi 4.0 → prices 1..4;
 * mult (geometry): lo kCS = 0.25, hi kClrPref = 1.75 → prices 1..7. The unit field is 1.
 * @module
 */

import type { CellBox } from "../../../grid/cell_box.ts";
import { scratch } from "../../scratch.ts";

/** kClrPref = kR: the character's half width, px; the channel and open-area threshold. */
export const kClrPref = 1.75;
/** multw bounds (kClrNarrow, kClrWide), px. */
export const kMultwLo = 1.0;
/** Upper bound of multw, px. */
export const kMultwHi = 4.0;
/** mult bounds, px. */
export const kMultLo = 0.25;
/** Upper bound of mult, px. */
export const kMultHi = kClrPref;

/** The price of clearance d (px). */
export function price(d: number, lo: number, hi: number): number {
  return Math.fround(hi / Math.min(Math.max(d, lo), hi));
}

/**
 * The price field of a window's clearance layer. With `only` just the cells of its box (in a
 * window `nx` columns wide) are priced, the rest left 0: for a search whose mask lies inside the
 * box, which reads prices only at mask cells.
 */
export function priceField(
  dist: Float32Array,
  lo: number,
  hi: number,
  only: { nx: number; box: CellBox } | null = null,
): Float32Array {
  // Window-sized: scratch inside routeWindow's frame (scratch.ts), so unpriced cells are 0.
  const out = scratch.f32(dist.length);
  if (!only) {
    for (let c = 0; c < dist.length; c++) out[c] = price(dist[c], lo, hi);
    return out;
  }
  const { nx, box } = only;
  for (let y = box.y0; y < box.y1; y++) {
    for (let c = y * nx + box.x0, e = y * nx + box.x1; c < e; c++) out[c] = price(dist[c], lo, hi);
  }
  return out;
}
