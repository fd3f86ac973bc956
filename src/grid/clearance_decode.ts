/**
 * Clearance decode (spec 格图段; format-notes "GridClearance"): the pack stores the squared cell
 * distance q; the clearance in px is `min(sqrtf(q)·0.25f, 12)` computed entirely in float32
 * (formulas #10), bit-identical to the Clearance operator's last step.
 * @module
 */

import { kCS, kEdtCap } from "./constants.ts";

/** The formula itself (formulas #10), in float32. */
function clearanceFormula(q: number): number {
  const r = Math.fround(Math.fround(Math.sqrt(Math.fround(q))) * 0.25);
  return r < kEdtCap ? r : kEdtCap;
}

/** Largest stored squared clearance: (kEdtCap / kCS)² = 48² = 2304, which decodes to 12 px. */
export const CLR_CAP_SQ: number = (kEdtCap / kCS) * (kEdtCap / kCS);

/**
 * The formula's value for every integer q up to the cap: a window decodes one value per record
 * (millions), and a table read is the same float32 the sqrt would give.
 */
const TABLE: Float32Array = (() => {
  const t = new Float32Array(CLR_CAP_SQ + 1);
  for (let q = 0; q <= CLR_CAP_SQ; q++) t[q] = clearanceFormula(q);
  return t;
})();

/** `clr_px = min(sqrt_f32(f32(q)) ⊗ 0.25, 12)` in float32; q = 1 → 0.25, q ≥ 2304 → 12. */
export function clearancePx(q: number): number {
  if (q >= 0 && q <= CLR_CAP_SQ && (q | 0) === q) return TABLE[q];
  return clearanceFormula(q);
}

/** Decodes a whole `clr` column into px (Float32Array), one value per record. */
export function decodeClearanceColumn(clr: Uint16Array, out?: Float32Array): Float32Array {
  const r = out ?? new Float32Array(clr.length);
  for (let i = 0; i < clr.length; i++) r[i] = clearancePx(clr[i]);
  return r;
}
