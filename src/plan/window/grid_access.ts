/**
 * Reading the zone's grid section for the planner: which tiles meet a cell rectangle (by their
 * owned area), decoding one tile with the region-id guard, and walking its owned records in
 * global cell coordinates (spec 数据包 › 格图段; 前置检查与选类 items 8–9; 建窗 step 3).
 * @module
 */

import {
  type BgrdSection,
  type BgrdTileEntry,
  bgrdTileRegions,
  decodeBgrdTile,
} from "../../pack/bgrd/section.ts";
import type { SpanColumns } from "../../pack/grid_types.ts";
import { NavscopeError } from "../../errors.ts";
import { checkTileIds } from "../../pack/bgrd/guard.ts";
import type { CellRect } from "./window_tiers.ts";

/** The owned rectangle of a tile in global cells, inclusive. */
export function ownedBox(t: BgrdTileEntry): { x0: number; y0: number; x1: number; y1: number } {
  return { x0: t.gx0 + t.px0, y0: t.gy0 + t.py0, x1: t.gx0 + t.px1, y1: t.gy0 + t.py1 };
}

/** Indices of the tiles whose owned rectangle meets `r` (directory order). Empty tiles too. */
export function tilesMeeting(section: BgrdSection, zone: number, r: CellRect): number[] {
  const out: number[] = [];
  const tiles = section.zones[zone].tiles;
  const rx1 = r.x0 + r.nx - 1, ry1 = r.y0 + r.ny - 1;
  for (let i = 0; i < tiles.length; i++) {
    const b = ownedBox(tiles[i]);
    if (b.x1 < r.x0 || b.x0 > rx1 || b.y1 < r.y0 || b.y0 > ry1) continue;
    out.push(i);
  }
  return out;
}

/**
 * Decodes one tile and runs the format-fidelity guard on it (region ids within the zone's
 * `global_regions`; src/pack/bgrd/guard.ts): a dictionary read the wrong way shows up here as an
 * error naming file, zone, tile and record, never as silently merged regions. `into` is reused
 * when large enough (the columns are then only valid until the next call with it).
 */
export function decodeTileChecked(
  section: BgrdSection,
  zone: number,
  tile: number,
  file: string,
  into?: SpanColumns,
): SpanColumns {
  const z = section.zones[zone];
  try {
    const cols = decodeBgrdTile(section, zone, tile, into);
    checkTileIds(cols, { file, zone: z.name, tile, globalRegions: z.globalRegions });
    return cols;
  } catch (e) {
    if (e instanceof NavscopeError) throw e.at({ file, section: "BGRD", zone: z.name, tile });
    throw e;
  }
}

/**
 * The region ids of one tile (its dictionary; null for a v2 tile), with the error located as
 * {@link decodeTileChecked} locates it.
 */
export function bgrdTileRegionsChecked(
  section: BgrdSection,
  zone: number,
  tile: number,
  file: string,
): Uint32Array | null {
  const z = section.zones[zone];
  try {
    return bgrdTileRegions(section, zone, tile);
  } catch (e) {
    if (e instanceof NavscopeError) throw e.at({ file, section: "BGRD", zone: z.name, tile });
    throw e;
  }
}

/** True when tile-local cell (lx, ly) lies in the tile's owned rectangle. */
export function isOwned(t: BgrdTileEntry, lx: number, ly: number): boolean {
  return lx >= t.px0 && lx <= t.px1 && ly >= t.py0 && ly <= t.py1;
}
