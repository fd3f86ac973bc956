/**
 * LabelRegions (spec 预烘场 › 类号): union-find over spans. Spans in 4-adjacent cells whose
 * heights differ by at most kClimb (|h_u ⊖ h_v| ≤ 3 in float32, formulas #38) join; only the +x
 * and +y neighbours are compared since the relation is symmetric.
 * @module
 */

import { kClimb } from "../grid/constants.ts";
import type { SpanGrid } from "../grid/span_grid.ts";
import { ufFind, ufInit, ufUnion } from "../util/union_find.ts";

/** Region labels: `rid[s]` from 1 (numbered by each region's lowest span index) and the count. */
export interface RegionLabels {
  /** Region id per span, 1-based. */
  rid: Uint32Array;
  /** Number of regions. */
  count: number;
}

const F32_CLIMB = Math.fround(kClimb);

/** Labels every span of `grid`; ids run 1..count in order of each region's first span. */
export function labelRegions(grid: SpanGrid): RegionLabels {
  const n = grid.h.length;
  // The root is the smaller span index, so labels do not depend on union order.
  const parent = ufInit(n);
  const { nx, ny, h } = grid;
  const nocc = grid.cs.length - 1;
  const cs = grid.cs, cellOf = grid.cell;
  let below = 0; // first column at or after cell c + nx (grows with c)
  for (let j = 0; j < nocc; j++) {
    const a0 = cs[j], a1 = cs[j + 1];
    const c = cellOf[a0], x = c % nx, y = (c - x) / nx;
    while (below < nocc && cellOf[cs[below]] < c + nx) below++;
    for (let d = 0; d < 2; d++) {
      if (d === 0 ? x + 1 >= nx : y + 1 >= ny) continue;
      // The +x neighbour, when occupied, is the next occupied column; the +y one is found by
      // the forward pointer (no rank lookups).
      const jb = d === 0
        ? (j + 1 < nocc && cellOf[cs[j + 1]] === c + 1 ? j + 1 : -1)
        : (below < nocc && cellOf[cs[below]] === c + nx ? below : -1);
      if (jb < 0) continue;
      for (let u = a0; u < a1; u++) {
        for (let v = grid.cs[jb]; v < grid.cs[jb + 1]; v++) {
          if (Math.abs(Math.fround(h[u] - h[v])) <= F32_CLIMB) ufUnion(parent, u, v);
        }
      }
    }
  }
  const rid = new Uint32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = ufFind(parent, i);
    rid[i] = r === i ? ++count : rid[r];
  }
  return { rid, count };
}
