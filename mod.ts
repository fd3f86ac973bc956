/**
 * navscope — the public library API. Commands in `commands/` are thin shells over these exports.
 * @module
 */
export * from "./src/errors.ts";
export * from "./src/version.ts";
export * from "./src/codec/mod.ts";
export * from "./src/rng.ts";

export * from "./src/pack/bnav/mod.ts";
export * from "./src/pack/bgrd/section.ts";
export * from "./src/pack/bgrd/summary.ts";
export * from "./src/pack/bgrd/guard.ts";
export { BgrdScratch, Predictor } from "./src/pack/bgrd/streams.ts";
export { type TileContext } from "./src/pack/bgrd/tile_common.ts";
export {
  decodeTileV3,
  encodeTileV3,
  V3_STREAM_NAMES,
  type V3EncodeOptions,
  V3Field,
} from "./src/pack/bgrd/tile_v3.ts";
export { decodeTileV2, encodeTileV2 } from "./src/pack/bgrd/tile_v2.ts";
export { OccupancyIndex, popcount32 } from "./src/pack/bgrd/occupancy.ts";
// pack: fields sidecar, occluder pack, no-go table, pairing
export * from "./src/pack/grid_types.ts";
export * from "./src/pack/bnvf/sidecar.ts";
export * from "./src/pack/bnvf/merge.ts";
export * from "./src/pack/ocls/pack.ts";
export { OccluderSceneBuilder, smallestThree } from "./src/pack/ocls/build.ts";
export { forEachOccluderTriangle, occluderWorldTriangles } from "./src/pack/ocls/geometry.ts";
export { buildOccluderIndex, type OccluderIndex } from "./src/pack/ocls/occluder_index.ts";
export * from "./src/pack/ocls/drop_blocked.ts";
export * from "./src/pack/nogo/table.ts";
export * from "./src/pack/set/pairing.ts";

// mesh and world
export * from "./src/mesh/mod.ts";
export * from "./src/world/mod.ts";

// grid rules and bake operators
export * as gridConstants from "./src/grid/constants.ts";
export {
  markFaces,
  occIndex,
  type SpanGrid,
  spanGridFromColumns,
  spanGridFromSorted,
  spanRange,
} from "./src/grid/span_grid.ts";
export {
  dropSeamBlocked,
  type FallGate,
  levelAt,
  rasterFace,
  riseOk,
  stepDownOk,
} from "./src/grid/rise_ok.ts";
export { type DropBlocked, type FallGateSetup, makeFallGate } from "./src/grid/fall_gate.ts";
export { digitalLineCells, lineEndCell, walkDigitalLine } from "./src/grid/digital_line.ts";
export { clearancePx, decodeClearanceColumn } from "./src/grid/clearance_decode.ts";
export { type BakeWindow, SampleBuffer } from "./src/bake/samples.ts";
export { rasterize, type RasterMesh } from "./src/bake/rasterize.ts";
export { appendSeamBridge } from "./src/bake/seam_bridge.ts";
export { buildSpans, type BuiltSpans } from "./src/bake/build_spans.ts";
export { collectWallEdges, stampWalls, type WallEdges, wallsAtLayer } from "./src/bake/walls.ts";
export { labelRegions } from "./src/bake/regions.ts";
export { closeCracks, fillHoles } from "./src/bake/morphology.ts";
export { regionFlags } from "./src/bake/flags.ts";
export { clearanceSq } from "./src/bake/clearance.ts";
export { medialAxis, nearestSource } from "./src/bake/medial.ts";
export { stepBans } from "./src/bake/step_bans.ts";
export { facadeSegments } from "./src/bake/facade.ts";
export { componentDag, regionComponents, tarjanScc } from "./src/bake/components.ts";
export { sealedClearance } from "./src/bake/sealed_clearance.ts";
export { wallKeepTable } from "./src/bake/wall_keep.ts";
export { bakeWindow, type WindowBake } from "./src/bake/bake_window.ts";

// logs: run-log records, navscope plan line, streaming parser
export type * from "./src/logs/types.ts";
export {
  emptyPlanRecord,
  formatPlanLine,
  parsePlanLine,
  PLAN_KEYS,
  PLAN_MESSAGE,
  type PlanLineOptions,
  planRecordFromFields,
} from "./src/logs/plan_line.ts";
export { formatTimestamp, parseLooseTimestamp, parseTimestamp } from "./src/logs/line.ts";
export {
  collectLogs,
  expandInputs,
  type LogStream,
  parseLogReadable,
  parseLogs,
} from "./src/logs/reader.ts";
export {
  emptyReport,
  LogLineProcessor,
  parseLogText,
  type ParseOptions,
} from "./src/logs/parser.ts";
export { LegPairer } from "./src/logs/pairer.ts";
export { MESSAGES, navmeshZoneOf, routeTargets } from "./src/logs/messages.ts";

// analyze: failure classification, statistics
export * from "./src/analyze/mod.ts";

// pack set (engine load rules) for inspect
export * from "./src/pack/set/binding.ts";
export * from "./src/pack/set/pack_set.ts";

// worlds: generator, landmarks, leg batteries, real meshes
export {
  type GeneratedWorld,
  generateWorld,
  type GenOptions,
  type GenStats,
  WORLD_FILES,
  writeGeneratedWorld,
} from "./src/world/generator.ts";
export {
  encodeLandmarks,
  type Landmark,
  LANDMARKS_FORMAT,
  LandmarkSet,
  parseLandmarks,
} from "./src/world/landmarks.ts";
export {
  encodeLegs,
  generatedLegs,
  type Leg as WorldLeg,
  LEG_OUTCOMES,
  type LegChecks,
  type LegOutcome,
  type LegOverrides,
  LEGS_FORMAT,
  type NoGoDisc,
  parseLegs,
} from "./src/world/legs.ts";
export {
  geometryLegs,
  REAL_MESHES,
  realMesh,
  realMeshManifest,
  type RealMeshSpec,
  realMeshWorldFiles,
  recastTestLegs,
} from "./src/world/real_meshes.ts";

// pictures
export {
  CellClass,
  drawOverlays,
  type Overlay,
  paintRaster,
  rasterizeZone,
  worldPng,
  worldSvg,
  type ZoneRaster,
} from "./reports/render_world.ts";
export { Canvas, crc32, encodePng } from "./reports/svg_png.ts";

// world baker: manifest → packs
export {
  type BakeArtifacts,
  bakeManifestFile,
  bakeOutputPaths,
  type BakeReport,
  bakeToDirectory,
  type BakeToDirectoryOptions,
  bakeWorld,
  type BakeWorldOptions,
  FSPN_FIELDS,
  fspnStreamBytes,
  writeBakeOutputs,
  type ZoneReport,
} from "./src/world/bake_world.ts";
export {
  bakeZone,
  serialRunner,
  type TileRunner,
  type ZoneBake,
  type ZoneBakeStats,
} from "./src/bake/bake_zone.ts";
export {
  bakeTile,
  TILE_STAGES,
  type TileBake,
  type TileRegions,
  tileRegions,
  type ZoneMesh,
} from "./src/bake/bake_tile.ts";
export { BakeWorkerPool } from "./src/bake/worker_pool.ts";
export { ownerOf, type ZoneTiles, zoneTiles } from "./src/bake/tiles.ts";
export { nonManifoldEdges } from "./src/bake/mesh_checks.ts";

// planner: engine, plan requests/results, window tiers, buildWindow; batteries and plan lines
export * from "./src/plan/mod.ts";
export {
  type BatteryRow,
  type BatterySummary,
  planLeg,
  summarizeBattery,
} from "./src/analyze/battery.ts";
export { planRecordFromResult, type RecordContext } from "./src/logs/from_plan.ts";
