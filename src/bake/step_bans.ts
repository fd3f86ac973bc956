/**
 * Step bans (spec 预烘场: "逐方向判能否向上一步 → 禁步位"; 格图段 steps byte). For each span and
 * each of the four STEP_DIRS directions, bit 2d forbids the step from this span to its partner
 * in the neighbour cell, bit 2d+1 the reverse step, both decided by the shared RiseOk.
 *
 * The article does not spell out which neighbour span is the partner (the bits are per record,
 * the search reads them per cell); our choice, deterministic: the span of the SAME region in the
 * neighbour cell with the smallest `|h_t ⊖ h_s|` (lowest index on ties) and `≤ kClimb`. With no
 * partner there is no step to ban, so both bits stay 0. Drops deeper than kClimb never pair, so
 * no FallGate is involved (the search skips step bits for pure drops anyway, spec 向下一步).
 * @module
 */

import { STEP_DIRS } from "../pack/grid_types.ts";
import { kClimb } from "../grid/constants.ts";
import { riseOk } from "../grid/rise_ok.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";

/** Partner of span s in the column at (x, y) of the same region, or −1 (see module doc). */
export function stepPartner(
  grid: SpanGrid,
  rid: Uint32Array,
  s: number,
  x: number,
  y: number,
): number {
  if (x < 0 || y < 0 || x >= grid.nx || y >= grid.ny) return -1;
  const j = occIndex(grid, y * grid.nx + x);
  if (j < 0) return -1;
  let best = -1, bd = Infinity;
  for (let t = grid.cs[j]; t < grid.cs[j + 1]; t++) {
    if (rid[t] !== rid[s]) continue;
    const d = Math.abs(Math.fround(grid.h[t] - grid.h[s]));
    if (d < bd) {
      bd = d;
      best = t;
    }
  }
  return bd <= kClimb ? best : -1;
}

/** The steps byte per span: bit 2d = ¬RiseOk(s → partner), bit 2d+1 = ¬RiseOk(partner → s). */
export function stepBans(grid: SpanGrid, rid: Uint32Array): Uint8Array {
  const out = new Uint8Array(grid.h.length);
  const nx = grid.nx;
  for (let s = 0; s < grid.h.length; s++) {
    const c = grid.cell[s], x = c % nx, y = (c - x) / nx;
    let bits = 0;
    for (let d = 0; d < 4; d++) {
      const [dx, dy] = STEP_DIRS[d];
      const t = stepPartner(grid, rid, s, x + dx, y + dy);
      if (t < 0) continue;
      if (!riseOk(grid, x, y, grid.h[s], dx, dy, grid.h[t])) bits |= 1 << (2 * d);
      if (!riseOk(grid, x + dx, y + dy, grid.h[t], -dx, -dy, grid.h[s])) bits |= 2 << (2 * d);
    }
    out[s] = bits;
  }
  return out;
}
