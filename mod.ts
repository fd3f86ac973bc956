/**
 * navscope — the public library API. Every command in `commands/` is a thin shell over work that
 * is exported here, grouped by what a user does:
 *
 * - **Packs**: open, decode and inspect a main pack (BNAV), its grid section and tiles (BGRD), the
 *   fields sidecar (BNVF), the occluder pack (OCLS) and the author no-go table; check a pack set.
 * - **Worlds and baking**: read a world manifest and its OBJ meshes, generate a procedural world,
 *   bake a manifest into packs.
 * - **Planning**: open an engine on a pack, plan legs and leg batteries.
 * - **Run logs and analytics**: parse logs, classify failures, tier and timing statistics.
 * - **Pictures**: top-down PNG/SVG of a baked zone.
 * - **Workflows** (`src/jobs/`): what each command runs, one typed function each — the nightly
 *   gate, A/B, demo, replay, report, diff, triage and the issue bot, history, bisect — taking an
 *   options object, reporting progress by callback, resolving to a result (docs/library.md).
 *
 * Internals — the bake operators (`src/bake/*.ts`), the grid rules (`src/grid/*.ts`), tile and
 * stream codecs (`src/pack/bgrd/tile_v3.ts`, …), zone-mesh cleaning helpers (`src/zone_mesh/*.ts`)
 * and the test-data generators (`testing/`) — are not re-exported; import them by path.
 * @module
 */

// ── Errors, version, files ───────────────────────────────────────────────────────────────────
export { type ErrorCode, type ErrorLocation, formatMessage, NavscopeError } from "./src/errors.ts";
export { NAVSCOPE_VERSION } from "./src/version.ts";
export {
  assertWritable,
  DEFAULT_MAX_INFLATE,
  gunzip,
  gzip,
  isGzip,
  maxInflate,
  readMaybeGzip,
  setMaxInflate,
  writeFileAtomic,
  writeFilesAtomic,
} from "./src/codec/mod.ts";
export {
  parseJsonStrict,
  readJsonFile,
  readTextStrict,
  type StrictJsonOptions,
} from "./src/codec/json_strict.ts";

// ── Packs: BNAV main pack (src/pack/bnav/) ───────────────────────────────────────────────────
export {
  type ChunkSummary,
  decodeMainPack,
  type DecodeOptions,
  describeMainPack,
  encodeMainPack,
  type EncodeOptions,
  loadZone,
  loadZoneFile,
  type MainPack,
  type MainPackHeader,
  type MainPackLoad,
  type MainPackSummary,
  type OffMeshLink,
  type OffMeshLinkEnds,
  readMainPackFile,
  sliceZone,
  type TriangleColumns,
  validatePack,
  type ZoneLoad,
  type ZoneRecord,
  type ZoneSlice,
  type ZoneSummary,
} from "./src/pack/bnav/mod.ts";

// ── Packs: BGRD grid section and tiles (src/pack/bgrd/) ──────────────────────────────────────
export {
  type BgrdSection,
  type BgrdSummary,
  bgrdSummaryRows,
  type BgrdTileEntry,
  type BgrdZoneEntry,
  checkGridIds,
  checkTileIds,
  decodeBgrd,
  decodeBgrdTile,
  encodeBgrd,
  findBgrdZone,
  OccupancyIndex,
  parseBgrd,
  summarizeBgrd,
} from "./src/pack/bgrd/mod.ts";
export { type SpanColumns, SpanFlag } from "./src/pack/grid_types.ts";

// ── Packs: BNVF fields sidecar (src/pack/bnvf/) ──────────────────────────────────────────────
export {
  type ComponentGraphs,
  decodeSidecar,
  encodeSidecar,
  type FieldsTile,
  formatSidecarSummary,
  loadSidecarFile,
  mergeFields,
  openSidecar,
  readComponentGraphs,
  readFieldsTile,
  readWallTable,
  readZoneFields,
  type SidecarExpectations,
  type SidecarModel,
  type SidecarPack,
  sidecarPathFor,
  type SidecarSummary,
  summarizeSidecar,
  type WallTable,
  type ZoneFields,
} from "./src/pack/bnvf/mod.ts";

// ── Packs: OCLS occluder pack (src/pack/ocls/) ───────────────────────────────────────────────
export {
  buildOccluderIndex,
  decodeOccluderPack,
  decodeOccluderPackAll,
  dropBlocked,
  encodeOccluderPack,
  loadOccluderScene,
  type OccluderIndex,
  type OccluderScene,
  OccluderSceneBuilder,
  summarizeOccluderPack,
} from "./src/pack/ocls/mod.ts";

// ── Packs: author no-go table (src/pack/nogo/) ───────────────────────────────────────────────
export {
  emptyNoGoTable,
  encodeNoGoTable,
  inAuthorNoGo,
  loadNoGoTable,
  type NoGoTable,
  type NoGoZone,
  parseNoGoTable,
} from "./src/pack/nogo/mod.ts";

// ── Packs: plausibility bounds of the numeric fields (src/pack/bounds.ts, issue 55) ──────────
export {
  AFFINE_SCALE,
  boundText,
  collectBoundViolations,
  COORD_PX,
  COST_MODIFIER,
  F32_MIN_NORMAL,
  type FieldBound,
  HEIGHT,
  LINK_RADIUS,
  outside,
  POSITIVE_SCALE,
  WORLD_COORD,
  ZONE_SIDE,
} from "./src/pack/bounds.ts";

// ── Packs: pack sets — pairing, binding, the engine's load rules (src/pack/set/) ─────────────
export {
  checkNoGoAgainstPack,
  checkOccluderAgainstPack,
  fitNoGoToPack,
  inspectPackSet,
  type PackSetReport,
  pairSidecars,
  type SidecarPaths,
  sidecarStatus,
} from "./src/pack/set/mod.ts";

// ── Worlds: manifest, OBJ import, zone cleaning and snapping ─────────────────────────────────
export {
  importObj,
  loadManifest,
  loadZoneGeometry,
  loadZoneOccluders,
  parseManifest,
  parseObj,
  readObj,
  validateManifest,
  type WorldManifest,
  type ZoneGeometry,
  type ZoneSpec,
} from "./src/world/mod.ts";
export {
  buildTriangleBuckets,
  cleanZone,
  resolveLinkEnds,
  type SnapHit,
  snapPoint,
  type ZoneClean,
} from "./src/zone_mesh/mod.ts";

// ── Worlds: procedural generator, landmarks, leg batteries, real meshes ──────────────────────
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
export { generatedLegs } from "./src/world/legs.ts";
export {
  encodeLegs,
  type Leg as WorldLeg,
  LEG_OUTCOMES,
  type LegChecks,
  type LegOutcome,
  type LegOverrides,
  LEGS_FORMAT,
  loadLegs,
  type NoGoDisc,
  parseLegs,
} from "./src/legs/format.ts";
export { countLegs, streamLegs } from "./src/legs/stream.ts";
export {
  geometryLegs,
  REAL_MESHES,
  realMesh,
  realMeshManifest,
  realMeshSourceDir,
  type RealMeshSpec,
  realMeshWorldFiles,
  recastTestLegs,
} from "./src/world/real_meshes.ts";

// ── Baking: manifest → packs (src/world/bake_world.ts over src/bake/) ────────────────────────
export {
  type BakeArtifacts,
  bakeManifestFile,
  bakeOutputPaths,
  type BakeProgress,
  type BakeReport,
  bakeToDirectory,
  type BakeToDirectoryOptions,
  bakeWorld,
  type BakeWorldOptions,
  writeBakeOutputs,
  type ZoneReport,
} from "./src/world/bake_world.ts";
export { BakeContext } from "./src/bake/context.ts";

// ── Planning: engine, requests and results, window tiers, buildWindow; batteries ─────────────
export * from "./src/plan/mod.ts";
export {
  type BatteryRow,
  type BatterySummary,
  planLeg,
  summarizeBattery,
} from "./src/analyze/battery.ts";
export { planRecordFromResult, type RecordContext } from "./src/logs/from_plan.ts";

// ── The triangle-mesh planner (baseline, issue 14): polygon A* + corner-point funnel ─────────
export {
  buildMeshGraph,
  buildPolyGraph,
  compareLeg,
  type Corridor,
  findCorridor,
  funnel,
  type FunnelEvent,
  type FunnelResult,
  type LegComparison,
  type MeshGraph,
  type MeshMode,
  type MeshPlanDebug,
  type MeshPlanOptions,
  type MeshPlanResult,
  MeshSearch,
  planMesh,
  type PolyGraph,
  PolySearch,
  type Portal,
  type RouteClearance,
  routeClearance,
} from "./src/plan/mesh/mod.ts";

// ── Run logs: records, the navscope plan line, streaming parser ──────────────────────────────
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
export { gloss, GLOSSARY, hasCjk, unglossed } from "./src/logs/message_gloss.ts";

// ── Analytics: failure classification, tier and timing statistics ────────────────────────────
export * from "./src/analyze/mod.ts";

// ── Replay, shards and the regression gate (navscope replay / merge / diff / nightly) ─────────
export {
  batteryMatch,
  CHANGE_OUTCOMES,
  checkReplayInvariant,
  collectReplayLegs,
  comparableRecord,
  judge as judgeReplay,
  parseShard,
  recordClass,
  REPLAY_OUTCOMES,
  replayKey,
  type ReplayLeg,
  type ReplayOutcome,
  shardOf,
  stripLineTimings,
  TIMING_FIELDS,
} from "./src/analyze/replay.ts";
export {
  canonicalReplayJson,
  mergeReplayDirs,
  readReplayDir,
  replayLogs,
  type ReplayOptions,
  type ReplayReport,
  type ReplayResult,
  type ReplayRow,
  writeReplayDir,
} from "./src/analyze/replay_run.ts";
export { type PoolPack, type PoolTask, ReplayPool } from "./src/analyze/replay_pool.ts";
export {
  Handout,
  type HandoutPlan,
  HEAVY_SHARE,
  planHandout,
} from "./src/analyze/replay_handout.ts";
export {
  checkMetricName,
  DEFAULT_THRESHOLDS,
  type DiffReport,
  diffRuns,
  loadThresholds,
  type MetricRow,
  parseThresholds,
  readRun,
  type RunData,
  type Threshold,
  type ThresholdsDoc,
  TIMING_GATES,
  type TimingGate,
  timingVerdict,
} from "./src/analyze/diff.ts";
export {
  describeMachine,
  type MachineFingerprint,
  machineFingerprint,
  parseFingerprint,
  readMachineFile,
  sameMachine,
  writeMachineFile,
} from "./src/analyze/machine.ts";
export {
  abCompare,
  type AbOptions,
  type AbReport,
  type AbSide,
  judgeStages,
  roundOrder,
} from "./src/jobs/ab.ts";
export {
  type AbStageRow,
  type AbVerdict,
  compareStage,
  judgeStage,
  type StagePairs,
} from "./src/analyze/ab_stats.ts";

// ── Pictures ─────────────────────────────────────────────────────────────────────────────────
export { rasterizeZone, worldPng, worldSvg, type ZoneRaster } from "./reports/render_world.ts";
export { type ExtraRoute, kCellUnits, legSvg } from "./reports/leg_svg.ts";

// ── Bug-report bundles, navigation runs, triage (issue 35) ───────────────────────────────────
export {
  type BundleInfo,
  type BundleProblem,
  type LogSourceFile,
  parseBundleName,
  resolveSources,
  roleOf,
  rotationKey,
  ziplinesFromConfig,
} from "./src/logs/bundle.ts";
export { entryStream, isZip, openZip, type ZipArchive, type ZipEntry } from "./src/codec/zip.ts";
export {
  type NavRun,
  RUN_EVENT_TYPES,
  RunCollector,
  type RunCounts,
  type TrackSegment,
} from "./src/analyze/nav_runs.ts";
// ── Every failed run explained (issue 53) ────────────────────────────────────────────────────
export {
  type CauseLink,
  causeWords,
  chainWords,
  pointPolylineDistance,
  type RunCause,
  runCause,
  type RunCauseRow,
  runCauseRows,
  type RunEnd,
  runEnd,
} from "./src/analyze/run_causes.ts";
export {
  DEFAULT_RUN_CAUSE_RULES,
  RUN_CAUSES,
  type RunCauseDef,
  type RunCauseRule,
} from "./src/analyze/run_cause_rules.ts";
export { type RunSignal, type RunStep, type ZiplineHop } from "./src/analyze/run_events.ts";
export { RUN_MESSAGES, unknownKindOf } from "./src/logs/run_messages.ts";
export { type RunPictureData, runPictureSvg } from "./reports/run_picture.ts";
export { failedRuns, runsVerdict, type TriageRun } from "./reports/triage_runs.ts";
export { type ReportRuns, reportRuns, type RunRow } from "./reports/report_runs.ts";
export { type BundleFacts, bundleFacts } from "./src/analyze/bundle_facts.ts";
export {
  COMMENT_LIMIT,
  type TriageLeg,
  triageMarkdown,
  type TriageResult,
  verdictLine,
} from "./reports/triage.ts";
export { legPictureSvg, legPng, type LegPngInput } from "./reports/leg_png.ts";
export { logLegSvg, type LogPictureInput } from "./reports/log_picture.ts";
export { type RasterFont, rasterFont, svgToPng } from "./reports/svg_raster.ts";
export {
  type ChangePoint,
  type ChangePointOptions,
  changePoints,
} from "./src/analyze/change_points.ts";
export {
  HISTORY_FILE,
  HISTORY_SCHEMA_VERSION,
  type HistoryLeg,
  historyLegOf,
  type HistoryRun,
  HistoryStore,
  MIGRATIONS,
  type NewRun,
  newRunOf,
} from "./src/analyze/history.ts";
export { readRunInput, type RunInput } from "./src/analyze/history_read.ts";
export {
  failingSince,
  type HistoryChange,
  type HistoryChangeOptions,
  historyChanges,
  historySeries,
  type MetricSeries,
} from "./src/analyze/history_changes.ts";
export {
  bisectLeg,
  type BisectOptions,
  type BisectReport,
  type LegResult,
  legResultOf,
  sameResult,
} from "./src/jobs/bisect.ts";

// ── Workflows (src/jobs/, issue 54): what each command runs, one typed function each ────────
// Each takes an options object, reports progress through `onProgress` (JobEvent) instead of
// printing, and resolves to a result object; docs/library.md shows one example per workflow.
export { fileProblemWarnings, type JobEvent, type OnJobEvent } from "./src/jobs/progress.ts";
export {
  DEFAULT_BASELINE,
  DEFAULT_BATTERIES,
  EXAMPLE_WORLDS,
  examplePath,
  EXAMPLES,
} from "./src/jobs/examples.ts";
export { type NightlyOptions, type NightlyResult, runNightly } from "./src/jobs/nightly.ts";
export { type AbJobOptions, type AbJobResult, runAb } from "./src/jobs/ab.ts";
export {
  DEMO_WORLDS,
  type DemoBattery,
  demoInputs,
  type DemoOptions,
  type DemoResult,
  type DemoStep,
  runDemo,
} from "./src/jobs/demo.ts";
export { type ReplayJobOptions, type ReplayJobResult, runReplay } from "./src/jobs/replay.ts";
export {
  batteriesBesidePacks,
  type ReportJobOptions,
  type ReportJobResult,
  runReport,
} from "./src/jobs/report.ts";
export { runTriage, triage, type TriageJobOptions, type TriageOptions } from "./src/jobs/triage.ts";
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  triageIssue,
  type TriageIssueOptions,
  type TriageIssueResult,
  type TriageRunner,
} from "./src/jobs/triage_issue.ts";
export {
  addRunToHistory,
  exportHistory,
  gitFacts,
  type HistoryFacts,
  requireHistoryStore,
} from "./src/jobs/history.ts";
export { diffPaths, type DiffPathsOptions, type DiffPathsResult } from "./src/jobs/diff.ts";
export {
  requireBatteryZones,
  requireLegs,
  requireUsablePack,
  unusablePack,
} from "./src/jobs/preflight.ts";
export { readBatteries } from "./src/legs/read.ts";
export { cwdRelative, relPath } from "./src/util/shown_paths.ts";
export { diffMarkdown } from "./reports/diff_markdown.ts";
export { abMarkdown } from "./reports/ab_markdown.ts";
