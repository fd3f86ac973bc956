/**
 * Zone-wide assembly of the tile stage results: span lookup across tiles, zone-wide region
 * numbering (spec 类号: 「包里存的 rid 是全区统一编号后的类号」) and the FWAL keep table with
 * zone-wide region ids.
 * @module
 */

import { NavscopeError } from "../errors.ts";
import { BGRD_APRON_CELLS, BGRD_TILE_CELLS } from "../pack/bgrd/section.ts";
import { borderIndex, type TileBake, type TileRegions } from "./bake_tile.ts";
import { ownerOf, type ZoneTiles } from "./tiles.ts";
import { ufFind, ufInit, ufUnion } from "../util/union_find.ts";

const T = BGRD_TILE_CELLS;

/** What span lookups need of a tile: owned cell ranges, heights, Ghost/Fill marks. */
export interface OwnedSpans {
  /** `ownStart[c] .. ownStart[c+1]`: records of owned cell c. */
  ownStart: Int32Array;
  /** Heights. */
  h: Float32Array;
  /** 1 = Ghost/Fill record (absent: spans only). */
  extra?: Uint8Array;
}

/**
 * The owned record of tile `owner` at global cell (gx, gy) with height `h`: the record with
 * the same f32 height, else the closest span within kMergeH (0.25 m), else −1. Ghost/Fill
 * records are never matched (they are not spans).
 */
export function findRecord(
  zt: ZoneTiles,
  tiles: readonly OwnedSpans[],
  owner: number,
  gx: number,
  gy: number,
  h: number,
): number {
  const tb = tiles[owner];
  const g = zt.tiles[owner];
  const ox = gx - g.gx0 - BGRD_APRON_CELLS, oy = gy - g.gy0 - BGRD_APRON_CELLS;
  if (ox < 0 || oy < 0 || ox >= T || oy >= T) return -1;
  const c = oy * T + ox;
  let best = -1, bestD = 0.25;
  for (let k = tb.ownStart[c]; k < tb.ownStart[c + 1]; k++) {
    if (tb.extra !== undefined && tb.extra[k] !== 0) continue;
    if (tb.h[k] === h) return k;
    const d = Math.abs(tb.h[k] - h);
    if (d <= bestD) (best = k), (bestD = d);
  }
  return best;
}

/** Resolves a tile's ref (owned index ≥ 0, or external −1 − k) to [tile, record] or null. */
export function resolveRef(
  zt: ZoneTiles,
  tiles: readonly (OwnedSpans & { extGx: Int32Array; extGy: Int32Array; extH: Float32Array })[],
  t: number,
  ref: number,
): [number, number] | null {
  if (ref >= 0) return [t, ref];
  const tb = tiles[t], k = -1 - ref;
  const gx = tb.extGx[k], gy = tb.extGy[k];
  const o = ownerOf(zt, gx, gy);
  if (o < 0) return null;
  const r = findRecord(zt, tiles, o, gx, gy, tb.extH[k]);
  return r < 0 ? null : [o, r];
}

/** Zone-wide region ids: `gid[t][localRid]` (0 = the local region owns no record). */
export interface ZoneRegions {
  /** Per tile: window-local region id → zone region id. */
  gid: Uint32Array[];
  /** Number of zone regions. */
  count: number;
}

/**
 * Unites window-local regions that share a span across tile seams (each tile's ring spans are
 * matched with the owner's spans), then numbers the zone regions from 1 in (tile, local id)
 * order of first appearance — fixed by the layout, so independent of the worker count. Works
 * on pass 1 of the tile stage; `gid[t]` maps tile t's window-local regions to zone regions.
 */
export function zoneRegions(zt: ZoneTiles, tiles: readonly TileRegions[]): ZoneRegions {
  const base = new Int32Array(tiles.length + 1);
  tiles.forEach((t, i) => (base[i + 1] = base[i] + t.regionCount + 1));
  const parent = ufInit(base[tiles.length]);
  tiles.forEach((tb, t) => {
    for (let i = 0; i < tb.ringGx.length; i++) {
      const gx = tb.ringGx[i], gy = tb.ringGy[i];
      const o = ownerOf(zt, gx, gy);
      if (o < 0) continue;
      const r = borderSpan(zt, tiles[o], o, gx, gy, tb.ringH[i]);
      if (r >= 0) ufUnion(parent, base[t] + tb.ringRid[i], base[o] + tiles[o].borderRid[r]);
    }
  });
  const idOfRoot = new Uint32Array(parent.length);
  let count = 0;
  tiles.forEach((tb, t) => {
    for (let r = 1; r <= tb.regionCount; r++) {
      const root = ufFind(parent, base[t] + r);
      if (tb.owns[r] && idOfRoot[root] === 0) idOfRoot[root] = ++count;
    }
  });
  const gid = tiles.map((tb, t) => {
    const m = new Uint32Array(tb.regionCount + 1);
    for (let r = 1; r <= tb.regionCount; r++) m[r] = idOfRoot[ufFind(parent, base[t] + r)];
    return m;
  });
  return { gid, count };
}

/**
 * The border span of tile `o` at global cell (gx, gy) with height `h` (same rule as
 * {@link findRecord}: equal f32 height, else the closest within 0.25 m), or −1.
 */
function borderSpan(
  zt: ZoneTiles,
  tr: TileRegions,
  o: number,
  gx: number,
  gy: number,
  h: number,
): number {
  const g = zt.tiles[o];
  const b = borderIndex(gx - g.gx0 - BGRD_APRON_CELLS, gy - g.gy0 - BGRD_APRON_CELLS);
  if (b < 0) return -1;
  let best = -1, bestD = 0.25;
  for (let k = tr.borderStart[b]; k < tr.borderStart[b + 1]; k++) {
    if (tr.borderH[k] === h) return k;
    const d = Math.abs(tr.borderH[k] - h);
    if (d <= bestD) (best = k), (bestD = d);
  }
  return best;
}

/** Zone regions of pass 2: each tile's window labels → zone ids; checks every record has one. */
export function labelRegionsOf(tiles: readonly TileBake[], count: number): ZoneRegions {
  tiles.forEach((tb, t) => {
    for (let k = 0; k < tb.n; k++) {
      if (tb.gidOfLabel[tb.rid[k]] === 0) {
        throw new NavscopeError("bad_value", `record ${k} has no zone region`, { tile: t });
      }
    }
  });
  return { gid: tiles.map((tb) => tb.gidOfLabel), count };
}

/** The zone's FWAL rows: every boundary edge seen by any tile, with zone region ids. */
export function zoneWallRows(
  tiles: readonly TileBake[],
  regions: ZoneRegions,
): { key: number; rids: number[] }[] {
  const byKey = new Map<number, Set<number>>();
  tiles.forEach((tb, t) => {
    for (let i = 0; i < tb.wallKey.length; i++) {
      let s = byKey.get(tb.wallKey[i]);
      if (s === undefined) byKey.set(tb.wallKey[i], s = new Set());
      for (let j = tb.wallStart[i]; j < tb.wallStart[i + 1]; j++) {
        const g = regions.gid[t][tb.wallRids[j]];
        if (g !== 0) s.add(g);
      }
    }
  });
  return [...byKey.entries()].sort((a, b) => a[0] - b[0]).map(([key, s]) => ({
    key,
    rids: [...s].sort((a, b) => a - b),
  }));
}
