/**
 * BGRD grid section (spec 数据包 › 格图段): the public face of the codec. `parseBgrd` reads the
 * section header and the per-zone tile directory (section.ts); `decodeBgrdTile` decodes one tile
 * through the v3 (tile_v3.ts) or columnar v2 (tile_v2.ts) tile codec into span columns;
 * `encodeBgrd` writes a whole section; `summarizeBgrd` gives `navscope inspect` its per-field
 * byte accounting (summary.ts); `checkTileIds` / `checkGridIds` are the id guard run after a
 * tile decode (guard.ts); `OccupancyIndex` is the per-cell span index (occupancy.ts).
 *
 * Files: section.ts (header, directory, tile dispatch, encoder), tile_common.ts (tile context
 * shared by both tile codecs), tile_v3.ts, tile_v2.ts, streams.ts (residual predictors and
 * scratch), summary.ts, guard.ts, occupancy.ts. The span record shape is `../grid_types.ts`.
 * @module
 */
export * from "./section.ts";
export * from "./summary.ts";
export * from "./guard.ts";
export { BgrdScratch, Predictor } from "./streams.ts";
export { type TileContext } from "./tile_common.ts";
export {
  decodeTileV3,
  encodeTileV3,
  V3_STREAM_NAMES,
  type V3EncodeOptions,
  V3Field,
} from "./tile_v3.ts";
export { decodeTileV2, encodeTileV2 } from "./tile_v2.ts";
export { OccupancyIndex, popcount32 } from "./occupancy.ts";
