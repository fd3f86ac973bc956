/**
 * Check 8 (spec 端点到核心可走区的距离, formulas.md #66): both endpoints' planar distance to the
 * nearest Core record on the whole-zone grid, in one pass (#6219). Each endpoint's box is its
 * cell ± 64 cells; every non-empty tile whose owned area meets a box is decoded once, and its
 * owned Core records (not clipped to the box) give the smallest squared cell distance to the
 * endpoint's centre cell. No Core record in any such tile → 16 px.
 *
 * Tiles are decoded nearest first (by the squared distance from each endpoint's centre cell to
 * the tile's owned rectangle, a lower bound of any of its records' distances) and a tile is
 * skipped once no endpoint it serves can still improve: the result is the same minimum, but an
 * endpoint standing on core decodes one tile instead of nine. A skipped tile is still decoded
 * (and checked) by the grid patches and the window when they need it.
 * @module
 */

import { kCS } from "../grid/constants.ts";
import { SpanFlag } from "../pack/grid_types.ts";
import { isOwned, ownedBox, tilesMeeting } from "./grid_access.ts";
import { PlanTiles } from "./plan_tiles.ts";
import { boxAround } from "./grid_patch.ts";
import type { ZoneState } from "./zone_state.ts";

/** Half side of the core-anchor box, cells: ⌈2·kSnapRadius/kCS⌉. */
export const kCoreBoxCells = 64;
/** Distance reported when no Core record was found, px. */
export const kCoreNone = 16;
/** The gate, px (kSnapRadius). */
export const kCoreGate = 8;

/** Core-anchor distances (px) of the given endpoints (px), in order. */
export function coreAnchorPx(
  zs: ZoneState,
  pts: ReadonlyArray<readonly [number, number]>,
  tiles: PlanTiles = new PlanTiles(zs),
): number[] {
  const z = zs.section.zones[zs.gridZone];
  const centres = pts.map(([x, y]) => [Math.floor(x / kCS), Math.floor(y / kCS)] as const);
  // tile → which endpoints' boxes it meets (each tile decoded once).
  const owners = new Map<number, number[]>();
  centres.forEach(([cx, cy], e) => {
    for (const t of tilesMeeting(zs.section, zs.gridZone, boxAround(cx, cy, kCoreBoxCells))) {
      if (z.tiles[t].records === 0) continue;
      const list = owners.get(t);
      if (list) list.push(e);
      else owners.set(t, [e]);
    }
  });
  const best = centres.map(() => Infinity);
  // Lower bound of tile t's squared cell distance to endpoint e.
  const bound = (t: number, e: number) => {
    const b = ownedBox(z.tiles[t]), [cx, cy] = centres[e];
    const dx = cx < b.x0 ? b.x0 - cx : cx > b.x1 ? cx - b.x1 : 0;
    const dy = cy < b.y0 ? b.y0 - cy : cy > b.y1 ? cy - b.y1 : 0;
    return dx * dx + dy * dy;
  };
  const order = [...owners.keys()].map((t) => ({
    t,
    key: Math.min(...owners.get(t)!.map((e) => bound(t, e))),
  })).sort((a, b) => a.key - b.key || a.t - b.t);
  for (const { t } of order) {
    const who = owners.get(t)!.filter((e) => bound(t, e) < best[e]);
    if (who.length === 0) continue;
    const te = z.tiles[t];
    const cols = tiles.records(t);
    for (let i = 0; i < cols.n; i++) {
      if (!(cols.flags[i] & SpanFlag.Core)) continue;
      const lx = cols.cell[i] % te.nx, ly = (cols.cell[i] / te.nx) | 0;
      if (!isOwned(te, lx, ly)) continue;
      const gx = te.gx0 + lx, gy = te.gy0 + ly;
      for (const e of who) {
        const dx = gx - centres[e][0], dy = gy - centres[e][1];
        const d2 = dx * dx + dy * dy;
        if (d2 < best[e]) best[e] = d2;
      }
    }
  }
  return best.map((d2) => (d2 === Infinity ? kCoreNone : Math.sqrt(d2) * kCS));
}
