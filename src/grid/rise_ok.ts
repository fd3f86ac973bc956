/**
 * RiseOk: may one step go from a span of height h0 in cell (cx, cy) along the cell step
 * (dx, dy) to a span of height h1 in the neighbour column? (spec 垂直可达判据 › 向上一步 and
 * 向下一步). One implementation, shared by the bake (step bans, components) and the runtime
 * search. The thresholds are those of formulas.md #47–#57.
 * @module
 */

import {
  kBumpCells,
  kBumpUp,
  kClimb,
  kCS,
  kDipCells,
  kDrop,
  kSeamCells,
  kSlope,
  kStepUp,
} from "./constants.ts";
import { occIndex, type SpanGrid } from "./span_grid.ts";

/**
 * Collider check for a ledge drop (spec 台沿下落 › FallGate): returns true when the drop from
 * the span at window cell `fromCell` (height h0) to `toCell` (height h1) is blocked.
 * `null` means "no colliders": drops pass unchecked.
 */
export type FallGate = (fromCell: number, toCell: number, h0: number, h1: number) => boolean;

/** The occupied column `s` cells along (dx, dy) from (cx, cy), or −1 (outside the window / empty). */
function columnAlong(
  g: SpanGrid,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
  s: number,
): number {
  const x = cx + s * dx, y = cy + s * dy;
  if (x < 0 || y < 0 || x >= g.nx || y >= g.ny) return -1;
  return occIndex(g, y * g.nx + x);
}

/**
 * levelAt(s, h, tol) (formulas #48): does the column `s` cells along (dx, dy) from (cx, cy)
 * hold a span with `|f32(h_span ⊖ h)| ≤ tol`? The subtraction is float32, the compare double;
 * columns outside the window and empty columns answer false.
 */
export function levelAt(
  g: SpanGrid,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
  s: number,
  h: number,
  tol: number,
): boolean {
  const j = columnAlong(g, cx, cy, dx, dy, s);
  if (j < 0) return false;
  const hf = Math.fround(h);
  const hs = g.h;
  for (let k = g.cs[j], e = g.cs[j + 1]; k < e; k++) {
    if (Math.abs(Math.fround(hs[k] - hf)) <= tol) return true;
  }
  return false;
}

/** rasterFace(s): the face bit of the column `s` cells along the step; false outside / empty. */
export function rasterFace(
  g: SpanGrid,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
  s: number,
): boolean {
  const j = columnAlong(g, cx, cy, dx, dy, s);
  return j >= 0 && g.face[j] !== 0;
}

/**
 * The drop look-ahead of 向下一步 (formulas #55/#56): a step with dh < −kClimb is a seam, not a
 * ledge, when the departure layer (any span within h0 ± kClimb) shows up again in one of the
 * columns s = 1..kSeamCells ahead; then the step is blocked.
 */
export function dropSeamBlocked(
  g: SpanGrid,
  cx: number,
  cy: number,
  h0: number,
  dx: number,
  dy: number,
): boolean {
  for (let s = 1; s <= kSeamCells; s++) {
    if (levelAt(g, cx, cy, dx, dy, s, h0, kClimb)) return true;
  }
  return false;
}

/**
 * Step-down rule (spec 向下一步, RiseOk rules 1–2) for dh = h1 − h0 < 0: a drop down to kClimb
 * passes directly; a deeper drop passes when the look-ahead finds no seam and the FallGate (if
 * any) does not block it. kDrop = +∞, so rule 1 never fires.
 */
export function stepDownOk(
  g: SpanGrid,
  cx: number,
  cy: number,
  h0: number,
  dx: number,
  dy: number,
  h1: number,
  gate: FallGate | null,
): boolean {
  const dh = h1 - h0;
  if (dh < -kDrop) return false; // rule 1
  if (dh < -kClimb) { // rule 2
    if (dropSeamBlocked(g, cx, cy, h0, dx, dy)) return false;
    if (gate !== null) {
      const from = cy * g.nx + cx;
      const to = (cy + dy) * g.nx + (cx + dx);
      if (gate(from, to, h0, h1)) return false;
    }
  }
  return true;
}

/**
 * Upper end of the flat band: for `−kClimb ≤ h1 − h0 ≤ RISE_FLAT_MAX` (double) {@link riseOk}
 * is true by rules 2–3 whatever the grid, so hot loops may test the band first and call
 * riseOk only outside it (same verdicts, no call per flat step).
 */
export const RISE_FLAT_MAX: number = kSlope * kCS;

/**
 * True when a step of height change dh = h1 − h0 (double) lies in the flat band
 * −kClimb ≤ dh ≤ {@link RISE_FLAT_MAX}, where {@link riseOk} answers yes by rules 2–3 without
 * looking at the grid. The bake's innermost loops test it before calling riseOk (same verdicts).
 */
export function flatStep(dh: number): boolean {
  return dh >= -kClimb && dh <= RISE_FLAT_MAX;
}

/**
 * Above this rise (double dh = h1 − h0) {@link riseOk} is false whatever the grid: rules 3–4 need
 * dh ≤ kSlope·√2·kCS, rule 6 dh ≤ kStepUp, and rule 5 or 7 refuses the rest (7: dh > kBumpUp).
 * A search scanning a column skips a span above it without calling riseOk (the window's columns
 * are in (region, height) order, so later spans may still be lower).
 */
export const RISE_NEVER_ABOVE: number = Math.max(kBumpUp, kStepUp, kSlope * Math.SQRT2 * kCS);

/**
 * RiseOk, the ten ordered rules of 向上一步 (formulas #49); the first matching rule decides.
 * h0, h1 are the f32 span heights; dh is computed in double.
 *
 *  1. dh < −kDrop → no (never: kDrop = ∞)
 *  2. dh < −kClimb → look 4 cells ahead, then the FallGate; on pass fall through to 3
 *  3. dh ≤ kSlope·kCS → yes
 *  4. dh ≤ kSlope·√(dx² + dy²)·kCS → yes (diagonals get up to 0.3536)
 *  5. face(0) ∨ face(1) → no
 *  6. dh ≤ kStepUp → yes
 *  7. dh > kBumpUp → no
 *  8. ∃ s∈2..kBumpCells: levelAt(s,h0,kStepUp) ∧ ¬levelAt(s,h1,kStepUp) → yes (bump)
 *  9. ∃ s∈1..kDipCells: levelAt(−s,h1,kStepUp) ∧ ¬levelAt(−s,h0,kStepUp) → yes (dip)
 * 10. otherwise no
 */
export function riseOk(
  g: SpanGrid,
  cx: number,
  cy: number,
  h0: number,
  dx: number,
  dy: number,
  h1: number,
  gate: FallGate | null = null,
): boolean {
  const dh = h1 - h0;
  if (dh < 0 && !stepDownOk(g, cx, cy, h0, dx, dy, h1, gate)) return false; // rules 1–2
  if (dh <= kSlope * kCS) return true; // rule 3
  // Rule 4; the step length as sqrt(dx² + dy²), correctly rounded (Math.hypot need not be).
  if (dh <= kSlope * Math.sqrt(dx * dx + dy * dy) * kCS) return true;
  if (rasterFace(g, cx, cy, dx, dy, 0) || rasterFace(g, cx, cy, dx, dy, 1)) return false; // 5
  if (dh <= kStepUp) return true; // rule 6
  if (dh > kBumpUp) return false; // rule 7
  for (let s = 2; s <= kBumpCells; s++) { // rule 8: narrow bump
    if (
      levelAt(g, cx, cy, dx, dy, s, h0, kStepUp) && !levelAt(g, cx, cy, dx, dy, s, h1, kStepUp)
    ) return true;
  }
  for (let s = 1; s <= kDipCells; s++) { // rule 9: shallow dip
    if (
      levelAt(g, cx, cy, dx, dy, -s, h1, kStepUp) && !levelAt(g, cx, cy, dx, dy, -s, h0, kStepUp)
    ) return true;
  }
  return false; // rule 10
}
