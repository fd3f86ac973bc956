/**
 * Region pick (spec 选类, formulas.md #67–#68): pickStartRec / pickDeckRec search the
 * (2r+1)² box around a centre cell, r = ⌈kSnapRadius/kCS⌉ = 32, scanning by y, then x, then
 * record order, for the record with the smallest (squared cell distance, |Δh|), strict `<`.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import { SpanFlag } from "../../pack/grid_types.ts";
import type { GridPatch } from "../window/grid_patch.ts";

/** Half side of the region-pick box, cells: ⌈kSnapRadius / kCS⌉. */
export const kPickRadius = 32;
/** Height band of the start pick (kClimb), m. */
export const kStartBand = 3;
/** Height band of the deck pick, m. */
export const kDeckBand = 2;

/** A picked record. */
export interface PickedRecord {
  /** Global cell x. */
  gx: number;
  /** Global cell y. */
  gy: number;
  /** Region id. */
  rid: number;
  /** Height (f32 value). */
  h: number;
  /** Flags. */
  flags: number;
}

/** Global cell of a px coordinate: ⌊p / kCS⌋ (the patch origin sits on the global lattice). */
export function cellOf(p: number): number {
  return Math.floor(p / kCS);
}

function pick(
  patch: GridPatch,
  cx: number,
  cy: number,
  href: number,
  band: number,
  exclude: number,
): PickedRecord | null {
  const { rect } = patch;
  let best: PickedRecord | null = null, bd = Infinity, bh = Infinity;
  for (let y = cy - kPickRadius; y <= cy + kPickRadius; y++) {
    const by = y - rect.y0;
    if (by < 0 || by >= rect.ny) continue;
    for (let x = cx - kPickRadius; x <= cx + kPickRadius; x++) {
      const bx = x - rect.x0;
      if (bx < 0 || bx >= rect.nx) continue;
      const k = by * rect.nx + bx;
      const d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      for (let i = patch.start[k]; i < patch.start[k + 1]; i++) {
        const f = patch.flags[i];
        if (!(f & SpanFlag.Walk) || (f & exclude)) continue;
        const dh = Math.abs(patch.h[i] - href);
        if (!(dh <= band)) continue;
        if (d2 < bd || (d2 === bd && dh < bh)) {
          bd = d2, bh = dh;
          best = { gx: x, gy: y, rid: patch.rid[i], h: patch.h[i], flags: f };
        }
      }
    }
  }
  return best;
}

/** pickStartRec: Walk, not Ghost/Fill, |h − h0| ≤ kClimb, around global cell (cx, cy). */
export function pickStartRec(
  patch: GridPatch,
  cx: number,
  cy: number,
  h0: number,
): PickedRecord | null {
  return pick(patch, cx, cy, h0, kStartBand, SpanFlag.Ghost | SpanFlag.Fill);
}

/** pickDeckRec: Walk, not Fill, |h − deck| ≤ 2, around global cell (cx, cy). */
export function pickDeckRec(
  patch: GridPatch,
  cx: number,
  cy: number,
  deck: number,
): PickedRecord | null {
  return pick(patch, cx, cy, deck, kDeckBand, SpanFlag.Fill);
}

/** Does global cell (gx, gy) hold a record of region `rid` without Fill? (起点所在的面 step 2) */
export function cellHasRegion(patch: GridPatch, gx: number, gy: number, rid: number): boolean {
  const { rect } = patch;
  const bx = gx - rect.x0, by = gy - rect.y0;
  if (bx < 0 || by < 0 || bx >= rect.nx || by >= rect.ny) return false;
  const k = by * rect.nx + bx;
  for (let i = patch.start[k]; i < patch.start[k + 1]; i++) {
    if (patch.rid[i] === rid && !(patch.flags[i] & SpanFlag.Fill)) return true;
  }
  return false;
}
