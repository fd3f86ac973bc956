/**
 * Streaming BGRD section writer for the baker: each tile is encoded (the codec's
 * `encodeTileV3`) as soon as its window is assembled, and only the payload bytes are kept, so
 * the decoded columns of every tile never sit in memory together. The section layout is exactly
 * `encodeBgrd`'s (spec 格图段; src/pack/bgrd/section.ts): 40-byte header, per zone the name (padded to
 * 4), x0, y0, global_regions, tile count and 48-byte tile entries, then the payloads in
 * directory order. The round-trip tests decode it with `parseBgrd`/`decodeBgrdTile` and compare
 * with `encodeBgrd` of the same tiles.
 * @module
 */

import { ByteWriter } from "../codec/mod.ts";
import {
  BGRD_APRON_PX,
  BGRD_HEADER_SIZE,
  BGRD_TAG,
  BGRD_TILE_ENTRY_SIZE,
  BGRD_TILE_PX,
  type BgrdTileGeometry,
  checkBgrdTileGeometry,
} from "../pack/bgrd/section.ts";
import { encodeTileV3 } from "../pack/bgrd/tile_v3.ts";
import { K_CS, type SpanColumns } from "../pack/grid_types.ts";

/** One encoded tile: geometry, record count and payload. */
export interface EncodedTile extends BgrdTileGeometry {
  /** Records in the tile. */
  records: number;
  /** The v3 payload. */
  payload: Uint8Array;
}

/** One zone of encoded tiles. */
export interface EncodedGridZone {
  /** Zone name. */
  name: string;
  /** Zone origin, px. */
  x0: number;
  /** Zone origin, px. */
  y0: number;
  /** Regions in the zone. */
  globalRegions: number;
  /** Tiles in directory order. */
  tiles: EncodedTile[];
}

/** Encodes one tile's records (v3), checking its geometry like `encodeBgrd` does. */
export function encodeGridTile(
  zone: string,
  index: number,
  g: BgrdTileGeometry,
  spans: SpanColumns,
): EncodedTile {
  const where = { section: BGRD_TAG, zone, tile: index };
  checkBgrdTileGeometry(g, where);
  return {
    gx0: g.gx0,
    gy0: g.gy0,
    nx: g.nx,
    ny: g.ny,
    px0: g.px0,
    px1: g.px1,
    py0: g.py0,
    py1: g.py1,
    records: spans.n,
    payload: encodeTileV3(spans, g.nx, g.ny, where),
  };
}

/** Writes the BGRD section (version 3, 128-px tiles, 16-px apron) from encoded tiles. */
export function writeBgrdSection(zones: readonly EncodedGridZone[]): Uint8Array {
  const enc = new TextEncoder();
  const names = zones.map((z) => enc.encode(z.name));
  let dirSize = BGRD_HEADER_SIZE;
  zones.forEach((z, i) => {
    dirSize += 4 + pad4(names[i].length) + 24 + z.tiles.length * BGRD_TILE_ENTRY_SIZE;
  });
  let total = dirSize;
  for (const z of zones) for (const t of z.tiles) total += t.payload.length;
  const w = new ByteWriter(total);
  w.tag(BGRD_TAG).u32(3).f64(K_CS).f64(BGRD_TILE_PX).f64(BGRD_APRON_PX);
  w.u32(zones.length).u32(0);
  let offset = dirSize;
  zones.forEach((z, i) => {
    w.u32(names[i].length).bytes(names[i]).align(4);
    w.f64(z.x0).f64(z.y0).u32(z.globalRegions).u32(z.tiles.length);
    for (const t of z.tiles) {
      w.i32(t.gx0).i32(t.gy0).i32(t.nx).i32(t.ny);
      w.i32(t.px0).i32(t.px1).i32(t.py0).i32(t.py1);
      w.u64(offset).u32(t.payload.length).u32(t.records);
      offset += t.payload.length;
    }
  });
  for (const z of zones) for (const t of z.tiles) w.bytes(t.payload);
  return w.finish();
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
