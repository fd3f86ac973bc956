/**
 * Test and benchmark helper: every grid record of a pack's zone exactly once, straight from the
 * BGRD tiles (each tile's owned rectangle only — the apron repeats its neighbours' records), in
 * global cells. Route checkers use it so they do not go through the planner's window build.
 * @module
 */

import { readMaybeGzip } from "../src/codec/file.ts";
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { decodeBgrdTile, parseBgrd } from "../src/pack/bgrd/section.ts";

/** One owned record: global cell, region id, flags, height (m), clearance (px, main pack). */
export interface OwnedRecord {
  gx: number;
  gy: number;
  rid: number;
  flags: number;
  h: number;
  clr: number;
}

/** The owned records of zone `zone` (directory index) of the main pack at `path`. */
export async function ownedRecords(path: string, zone = 0): Promise<{
  name: string;
  records: OwnedRecord[];
}> {
  const section = parseBgrd(decodeMainPack(await readMaybeGzip(path)).pack.grid!);
  const z = section.zones[zone];
  const records: OwnedRecord[] = [];
  for (let t = 0; t < z.tiles.length; t++) {
    const te = z.tiles[t];
    if (te.records === 0) continue;
    const cols = decodeBgrdTile(section, zone, t);
    for (let i = 0; i < cols.n; i++) {
      const lx = cols.cell[i] % te.nx, ly = Math.floor(cols.cell[i] / te.nx);
      if (lx < te.px0 || lx > te.px1 || ly < te.py0 || ly > te.py1) continue;
      records.push({
        gx: te.gx0 + lx,
        gy: te.gy0 + ly,
        rid: cols.rid[i],
        flags: cols.flags[i],
        h: cols.h[i],
        clr: Math.sqrt(cols.clr[i]) * 0.25,
      });
    }
  }
  return { name: z.name, records };
}
