/**
 * Analytics over run logs: failure classification (ordered rules, user rules files), tier and
 * timing statistics (nearest-rank percentiles), table models, and one-call pipelines.
 * @module
 */
export * from "./classes.ts";
export * from "./rules.ts";
export * from "./log_collectors.ts";
export * from "./classify_report.ts";
export * from "./percentile.ts";
export * from "./stats.ts";
export * from "./tables.ts";
export * from "./log_pipeline.ts";
export * from "./stats_source.ts";
export {
  type ReplayedStats,
  ReplayServe,
  type ReplayServeOptions,
  type ReplayStatsOptions,
  type ReplayStatsResult,
  statsJson,
  statsWithReplay,
} from "./replay_stats.ts";
