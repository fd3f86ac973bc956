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
 * (and checked) by the grid patches and the window when they need it. Within a tile the rows are
 * scanned outward from the endpoint's row and the scan ends at the first row no nearer than the
 * best so far (records are in row-major cell order), so a tile costs a few rows, not 641².
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import { type SpanColumns, SpanFlag } from "../../pack/grid_types.ts";
import { ownedBox, tilesMeeting } from "../window/grid_access.ts";
import type { BgrdTileEntry } from "../../pack/bgrd/section.ts";
import { PlanTiles } from "../window/plan_tiles.ts";
import { boxAround } from "../window/grid_patch.ts";
import type { ZoneState } from "../window/zone_state.ts";

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
    for (const e of who) best[e] = nearestCoreSq(cols, te, centres[e][0], centres[e][1], best[e]);
  }
  return best.map((d2) => (d2 === Infinity ? kCoreNone : Math.sqrt(d2) * kCS));
}

/**
 * The smallest squared cell distance from global cell (cx, cy) to an owned Core record of the
 * tile, or `best` when none is nearer. Records are in cell order (row-major), so rows are scanned
 * outward from the endpoint's row and the scan stops at the first row whose distance alone is no
 * smaller than the best so far: the same minimum as a scan of every record.
 */
function nearestCoreSq(
  cols: SpanColumns,
  te: BgrdTileEntry,
  cx: number,
  cy: number,
  best: number,
): number {
  const rowAt = (ly: number) => {
    // First record of tile-local row ly (binary search on the sorted cell column).
    let lo = 0, hi = cols.n;
    const key = ly * te.nx;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cols.cell[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const row = (ly: number) => {
    const dy = te.gy0 + ly - cy;
    let b = best;
    for (let i = rowAt(ly), end = rowAt(ly + 1); i < end; i++) {
      if (!(cols.flags[i] & SpanFlag.Core)) continue;
      const lx = cols.cell[i] - ly * te.nx;
      if (lx < te.px0 || lx > te.px1) continue;
      const dx = te.gx0 + lx - cx, d2 = dx * dx + dy * dy;
      if (d2 < b) b = d2;
    }
    best = b;
  };
  const start = Math.min(te.py1, Math.max(te.py0, cy - te.gy0));
  for (let k = 0;; k++) {
    const up = start - k, down = start + k + 1;
    const dUp = te.gy0 + up - cy, dDown = te.gy0 + down - cy;
    const liveUp = up >= te.py0 && dUp * dUp < best;
    const liveDown = down <= te.py1 && dDown * dDown < best;
    // |dy| only grows in each direction and best only shrinks: a dead direction stays dead.
    if (!liveUp && !liveDown) break;
    if (liveUp) row(up);
    if (liveDown) row(down);
  }
  return best;
}
