/**
 * The boundary-edge keep table (旁包 FWAL; spec 标墙 › WallsAtLayer): for each wall edge, the
 * sorted list of region ids on which it is kept. Keys are `3·t + k` (formulas #13), ascending.
 * @module
 */

import { SpanFlag } from "../pack/grid_types.ts";
import type { SpanGrid } from "../grid/span_grid.ts";
import type { BakeWindow } from "./samples.ts";
import { type WallEdges, wallsAtLayer } from "./walls.ts";

/**
 * Layer height per cell for region r: the highest non-Ghost, non-Fill span of r, NaN for none
 * (formulas #37). `flags` may be null when no Ghost/Fill records exist yet.
 */
export function layerHeights(
  grid: SpanGrid,
  rid: Uint32Array,
  r: number,
  flags: Uint8Array | null,
): Float32Array {
  const lh = new Float32Array(grid.nx * grid.ny).fill(NaN);
  for (let s = 0; s < grid.h.length; s++) {
    if (rid[s] !== r) continue;
    if (flags !== null && (flags[s] & (SpanFlag.Ghost | SpanFlag.Fill)) !== 0) continue;
    const c = grid.cell[s];
    if (!(lh[c] >= grid.h[s])) lh[c] = grid.h[s];
  }
  return lh;
}

/** FWAL rows: `key` ascending (distinct) and, per key, the ascending region ids keeping it. */
export interface WallKeepTable {
  /** Edge keys `3·t + k`, ascending. */
  key: Int32Array;
  /** Region ids per key, ascending. */
  rids: Uint32Array[];
}

/** Builds the FWAL table for regions 1..regionCount (edges kept nowhere still get a row). */
export function wallKeepTable(
  grid: SpanGrid,
  rid: Uint32Array,
  regionCount: number,
  flags: Uint8Array | null,
  edges: WallEdges,
  win: BakeWindow,
): WallKeepTable {
  const lists: number[][] = Array.from({ length: edges.n }, () => []);
  for (let r = 1; r <= regionCount; r++) {
    const keep = wallsAtLayer(edges, layerHeights(grid, rid, r, flags), win);
    for (let i = 0; i < edges.n; i++) if (keep[i] !== 0) lists[i].push(r);
  }
  const order = Array.from({ length: edges.n }, (_, i) => i).sort((a, b) =>
    edges.key[a] - edges.key[b]
  );
  const key: number[] = [], rids: Uint32Array[] = [];
  for (const i of order) {
    if (key.length > 0 && key[key.length - 1] === edges.key[i]) {
      // The same edge collected twice: merge the region lists.
      const merged = new Set([...rids[rids.length - 1], ...lists[i]]);
      rids[rids.length - 1] = Uint32Array.from([...merged].sort((a, b) => a - b));
      continue;
    }
    key.push(edges.key[i]);
    rids.push(Uint32Array.from(lists[i]));
  }
  return { key: Int32Array.from(key), rids };
}
