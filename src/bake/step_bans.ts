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
import { flatStep, riseOk } from "../grid/rise_ok.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";
import type { CellBox } from "../grid/cell_box.ts";

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

/**
 * The steps byte per span: bit 2d = ¬RiseOk(s → partner), bit 2d+1 = ¬RiseOk(partner → s).
 * With `box`, only spans in its cells are judged (the others get 0; each span's byte depends
 * on the grid only, not on other spans' bytes, so the judged ones are unchanged).
 */
export function stepBans(grid: SpanGrid, rid: Uint32Array, box?: CellBox): Uint8Array {
  const out = new Uint8Array(grid.h.length);
  const { nx, ny, cs, h } = grid;
  const nocc = cs.length - 1;
  // The neighbour column of each direction is looked up once per column (not per span); the
  // partner search is stepPartner's, inlined.
  // Neighbour cells c + off[d] grow with c, so one forward pointer per direction finds each
  // neighbour column (the first column at or after the cell) without rank lookups.
  const nbJ = new Int32Array(4), ptr = new Int32Array(4), off = new Int32Array(4);
  const DX = new Int32Array(4), DY = new Int32Array(4);
  for (let d = 0; d < 4; d++) {
    (DX[d] = STEP_DIRS[d][0]), (DY[d] = STEP_DIRS[d][1]), (off[d] = DY[d] * nx + DX[d]);
  }
  const climb = kClimb;
  const cellOf = grid.cell;
  for (let j = 0; j < nocc; j++) {
    const s0 = cs[j], s1 = cs[j + 1];
    const c = cellOf[s0], x = c % nx, y = (c - x) / nx;
    if (box && (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1)) continue;
    for (let d = 0; d < 4; d++) {
      const target = c + off[d];
      let p = ptr[d];
      while (p < nocc && cellOf[cs[p]] < target) p++;
      ptr[d] = p;
      const qx = x + DX[d], qy = y + DY[d];
      nbJ[d] = qx < 0 || qy < 0 || qx >= nx || qy >= ny || p >= nocc || cellOf[cs[p]] !== target
        ? -1
        : p;
    }
    for (let s = s0; s < s1; s++) {
      const r = rid[s], hs = h[s];
      let bits = 0;
      for (let d = 0; d < 4; d++) {
        const jq = nbJ[d];
        if (jq < 0) continue;
        let t = -1, bd = Infinity;
        for (let u = cs[jq], e = cs[jq + 1]; u < e; u++) {
          if (rid[u] !== r) continue;
          const dd = Math.abs(Math.fround(h[u] - hs));
          if (dd < bd) (bd = dd), (t = u);
        }
        if (t < 0 || !(bd <= climb)) continue;
        const ht = h[t], up = ht - hs, down = hs - ht;
        if (flatStep(up) && flatStep(down)) continue; // both pass
        const dx = DX[d], dy = DY[d];
        if (
          !flatStep(up) && !riseOk(grid, x, y, hs, dx, dy, ht)
        ) bits |= 1 << (2 * d);
        if (
          !flatStep(down) &&
          !riseOk(grid, x + dx, y + dy, ht, -dx, -dy, hs)
        ) bits |= 2 << (2 * d);
      }
      out[s] = bits;
    }
  }
  return out;
}
