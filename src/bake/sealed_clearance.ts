/**
 * Clearance with kept boundary edges (旁包 FSPN `clr2d`, spec 旁包: "把保留下来的区网格边界边也
 * 当作障碍求出的净空,不大于主包里的净空"). The kept wall edges of a region are rasterised with
 * the StampWalls sampling (≤ 0.1 px) into extra obstacle cells; the clearance is recomputed and
 * `clr2d = clr_main − clr_sealed` (≥ 0 by construction, since obstacles only grow).
 * @module
 */

import { clearanceSq } from "./clearance.ts";
import type { BakeWindow } from "./samples.ts";
import { forEachWallSample, type WallEdges } from "./walls.ts";

/** Obstacle mask plus the sample cells of every edge with `keep[i] ≠ 0`. */
export function sealObstacles(
  obstacle: Uint8Array,
  edges: WallEdges,
  keep: Uint8Array,
  win: BakeWindow,
): Uint8Array {
  const out = obstacle.slice();
  for (let i = 0; i < edges.n; i++) {
    if (keep[i] === 0) continue;
    forEachWallSample(edges, i, win, (c) => {
      out[c] = 1;
    });
  }
  return out;
}

/** Per-cell `clr2d = clr_main − clr_sealed` and the sealed clearance itself (both D² cells). */
export function sealedClearance(
  obstacle: Uint8Array,
  edges: WallEdges,
  keep: Uint8Array,
  win: BakeWindow,
): { sealed: Uint16Array; clr2d: Uint16Array } {
  const main = clearanceSq(obstacle, win.nx, win.ny);
  const sealed = clearanceSq(sealObstacles(obstacle, edges, keep, win), win.nx, win.ny);
  const clr2d = new Uint16Array(main.length);
  for (let c = 0; c < main.length; c++) clr2d[c] = main[c] - sealed[c];
  return { sealed, clr2d };
}
