/**
 * The anchor picks of routeWindow (spec 掩膜与吸附锚点): the anchor cells nearest the raw
 * endpoints (or nearest on a declared deck), the start span in the start anchor cell, the goal set
 * in the goal anchor cell, and the target-deck message of a goal deck the window cannot reach.
 * Pure functions of the window; the solver (solver.ts) holds what they pick.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import { spanRangeOf, type WindowGrid } from "../window/build_window.ts";
import { cFixed } from "../diagnostics/format.ts";
import { PlanFailure } from "../types.ts";
import { type Anchor, Escalate, Reason } from "./route_types.ts";

/** Deck height band of anchors and goal sets, m. */
const kDeckBand = 2;

/** The two anchors of a window. */
export interface AnchorPair {
  /** Start anchor. */
  sa: Anchor;
  /** Goal anchor. */
  ga: Anchor;
}

/**
 * Anchor cells (掩膜与吸附锚点) on the cells of `m`: nearest the endpoint cells, or on the
 * declared decks. A goal deck with no anchor escalates a tentative window and fails a final one
 * (target_deck_unreachable); no anchor at all fails (walk_mask_empty).
 */
export function pickAnchors(
  w: WindowGrid,
  usable: Uint8Array,
  m: Uint8Array,
  sCell: [number, number],
  gCell: [number, number],
  startDeckY: number | null,
  goalDeckY: number | null,
  tentative: boolean,
): AnchorPair {
  const sa = startDeckY !== null
    ? deckAnchor(w, usable, m, sCell, startDeckY)
    : nearestCell(m, w.nx, w.ny, sCell);
  const ga = goalDeckY !== null
    ? deckAnchor(w, usable, m, gCell, goalDeckY)
    : nearestCell(m, w.nx, w.ny, gCell);
  if (!ga && goalDeckY !== null) {
    if (tentative) throw new Escalate(Reason.DeckBlocked);
    throw new PlanFailure("target_deck_unreachable", Reason.DeckBlocked);
  }
  if (!sa || !ga) throw new PlanFailure("walk_mask_empty", "窗口里没有可吸附的格");
  return { sa, ga };
}

/**
 * The cell of `m` nearest p holding a usable span within kDeckBand of the deck: the smaller
 * squared cell distance, then the smaller height difference, then the first span in span order.
 */
function deckAnchor(
  w: WindowGrid,
  usable: Uint8Array,
  m: Uint8Array,
  p: [number, number],
  deck: number,
): Anchor | null {
  const sp = w.spans, nx = w.nx;
  let best = -1, bd = Infinity, bh = Infinity;
  for (let s = 0; s < sp.h.length; s++) {
    if (!usable[s] || !m[sp.cell[s]]) continue;
    const dh = Math.abs(sp.h[s] - deck);
    if (!(dh <= kDeckBand)) continue;
    const c = sp.cell[s], dx = (c % nx) - p[0], dy = ((c / nx) | 0) - p[1];
    const d = dx * dx + dy * dy;
    if (d < bd || (d === bd && dh < bh)) (bd = d), (bh = dh), (best = c);
  }
  return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
}

/**
 * nearestCell: the mask cell with the smallest squared cell distance, row-major first. Rows are
 * visited outward from p and the scan stops once a row's dy² exceeds the best distance (no cell
 * there can equal or beat it); ties keep the lowest cell index, as a row-major scan would.
 */
export function nearestCell(
  mask: Uint8Array,
  nx: number,
  ny: number,
  p: [number, number],
): Anchor | null {
  let best = -1, bd = Infinity;
  const scanRow = (y: number) => {
    const dy = y - p[1], row = y * nx;
    for (let x = 0; x < nx; x++) {
      if (!mask[row + x]) continue;
      const dx = x - p[0], d = dx * dx + dy * dy;
      if (d < bd || (d === bd && row + x < best)) (bd = d), (best = row + x);
    }
  };
  let lo = Math.min(Math.floor(p[1]), ny - 1), hi = Math.max(Math.floor(p[1]) + 1, 0);
  while (lo >= 0 || hi < ny) {
    const elo = lo - p[1], ehi = hi - p[1];
    const dlo = lo >= 0 ? elo * elo : Infinity, dhi = hi < ny ? ehi * ehi : Infinity;
    if (dlo > bd && dhi > bd) break;
    if (dlo <= dhi) scanRow(lo--);
    else scanRow(hi++);
  }
  return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
}

/** Start span: nearest to h0 (`|h ⊖ f32(h0)|`), or to the deck (≤ 2 m). */
export function pickSpan(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  h0: number,
): number {
  const [a, b] = spanRangeOf(w.spans, cell);
  let best = -1, bd = Infinity;
  const hf = Math.fround(h0);
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = deck !== null
      ? Math.abs(w.spans.h[s] - deck)
      : Math.abs(Math.fround(w.spans.h[s] - hf));
    if (deck !== null && !(d <= kDeckBand)) continue;
    if (d < bd) (bd = d), (best = s);
  }
  return best;
}

/**
 * Goal set: every usable span of the anchor cell; with a deck only the nearest within 2 m. `out`
 * covers the cell's span range (`out[s − a]` for span s).
 */
export function markGoalSet(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  out: Uint8Array,
): void {
  const [a, b] = spanRangeOf(w.spans, cell);
  if (deck === null) {
    for (let s = a; s < b; s++) if (usable[s]) out[s - a] = 1;
    return;
  }
  let best = -1, bd = Infinity;
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = Math.abs(w.spans.h[s] - deck);
    if (d <= kDeckBand && d < bd) (bd = d), (best = s);
  }
  if (best >= 0) out[best - a] = 1;
}

/** `目标面不可达 (声明 %.2f, 终点格里的面 无|[h, …])` (maaend-runlogs.md §2). */
export function deckMessage(
  w: WindowGrid,
  usable: Uint8Array,
  goalCell: number,
  deck: number,
): string {
  const [a, b] = spanRangeOf(w.spans, goalCell);
  const hs: string[] = [];
  for (let s = a; s < b; s++) if (usable[s]) hs.push(cFixed(w.spans.h[s], 2));
  return `目标面不可达 (声明 ${cFixed(deck, 2)}, 终点格里的面 ${
    hs.length ? `[${hs.join(", ")}]` : "无"
  })`;
}
