/**
 * PriceField (spec 拓扑层 › 单价, formulas.md #104): `m(c) = f32(hi / min(max(double(d(c)), lo), hi))`
 * per cell, from the window's clearance. multw (topology): lo 1.0, hi 4.0 → prices 1..4;
 * mult (geometry): lo kCS = 0.25, hi kClrPref = 1.75 → prices 1..7. The unit field is 1.
 * @module
 */

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

/** The price field of a window's clearance layer. */
export function priceField(dist: Float32Array, lo: number, hi: number): Float32Array {
  const out = new Float32Array(dist.length);
  for (let c = 0; c < dist.length; c++) out[c] = price(dist[c], lo, hi);
  return out;
}
