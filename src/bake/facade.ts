/**
 * Facade segment bits (旁包 FSPN `seg`; spec 建窗 › 禁步与立面段). For the two orthogonal
 * directions, a banned step whose departure or arrival column is a rasterised facade (face bit)
 * is a facade step: its shared cell edge becomes a blocker segment for visibility. The runtime
 * reads bit i for direction i (i = 0: +x, 1: +y) and places one segment on the edge between c
 * and b (spec 禁步与立面段 step 3: "只有正交两向(i < 2)且立面段位 bit i 为 1"); the article wins
 * over format-notes' "bit 0 c→b, bit 1 b→c" reading, which would collide with direction 1.
 *
 * The article names the bit but not the rule; ours (choice): seg bit i = (either steps bit of
 * direction i set) ∧ (face(c) ∨ face(b)). Diagonals never get segments.
 * @module
 */

import { STEP_DIRS } from "../pack/grid_types.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";

/**
 * seg byte per span from the steps byte and the face bits (a span's byte reads its own steps
 * byte only). Spans whose steps byte is 0 get 0 without a lookup.
 */
export function facadeSegments(grid: SpanGrid, steps: Uint8Array): Uint8Array {
  const out = new Uint8Array(grid.h.length);
  const nx = grid.nx;
  for (let s = 0; s < grid.h.length; s++) {
    if ((steps[s] & 15) === 0) continue; // no orthogonal ban: no segment
    const c = grid.cell[s], x = c % nx, y = (c - x) / nx;
    const fc = grid.face[occIndex(grid, c)] !== 0;
    let bits = 0;
    for (let i = 0; i < 2; i++) {
      const m = (steps[s] >> (2 * i)) & 3;
      if (m === 0) continue;
      const dx = STEP_DIRS[i][0], dy = STEP_DIRS[i][1];
      const qx = x + dx, qy = y + dy;
      if (qx >= nx || qy >= grid.ny) continue;
      const jb = occIndex(grid, qy * nx + qx);
      const fb = jb >= 0 && grid.face[jb] !== 0;
      if (fc || fb) bits |= 1 << i;
    }
    out[s] = bits;
  }
  return out;
}
