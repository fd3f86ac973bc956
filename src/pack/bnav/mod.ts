/**
 * BNAV main pack (spec 数据包 › 主包头与段目录, 几何段, 面属性与离网连接, 读取路径, 包的内存):
 * the public entry point of the codec. `encodeMainPack` writes v5; `decodeMainPack` reads a whole
 * pack of version 1–5 and checks `build_hash` while decoding; `loadZone` decodes one zone (and
 * its tier children) from only the chunks it needs; `describeMainPack` summarises a pack for
 * `navscope inspect`.
 * @module
 */
export {
  allocTriangles,
  BGEO_SINCE,
  BGRD_REQUIRED_SINCE,
  BSRF_WALKABLE_MASK,
  fillCentroids,
  FLOOR_Y_SINCE,
  isWalkable,
  type LinkColumns,
  MAIN_PACK_MIN_VERSION,
  MAIN_PACK_VERSION,
  type MainPack,
  mainPackCounts,
  NO_TRIANGLE,
  type OffMeshLink,
  type RawSection,
  SECTION_DIR_SINCE,
  type SurfaceColumns,
  tierChildren,
  type TriangleColumns,
  ZONE_FLAG_TIER,
  type ZoneAffine,
  type ZoneRecord,
} from "./types.ts";
export {
  decodeMainPack,
  type DecodeOptions,
  encodeMainPack,
  type EncodeOptions,
  type MainPackLoad,
  type OffMeshLinkEnds,
  readMainPackFile,
  validatePack,
} from "./codec.ts";
export { loadZone, loadZoneFile, sliceZone, type ZoneLoad, type ZoneSlice } from "./zone.ts";
export {
  type ChunkSummary,
  describeMainPack,
  type MainPackSummary,
  type ZoneSummary,
} from "./describe.ts";
export type { MainPackHeader, SectionInfo } from "./header.ts";
export { type ChunkSizes, DEFAULT_CHUNK_SIZE } from "./bgeo.ts";
export { encodeLegacyMainPack } from "./legacy.ts";
export { BOML_VERSION } from "./boml.ts";
