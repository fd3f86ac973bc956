/**
 * Where a statistics table's figures come from (issue 53): the log lines themselves, or a replay
 * of the logs' legs on a pack. Shared by stats, report and triage so every table, chart and JSON
 * field carries the same label, and by the "not in these logs" placeholder that replaces a table
 * whose data the logs lack.
 * @module
 */
import type { ReplayReport } from "./replay_run.ts";
import type { Point2 } from "../logs/types.ts";
import type { StatsReport } from "./stats.ts";

/** Where a table's figures come from. */
export type StatsSource =
  | { kind: "log"; label: string }
  | {
    kind: "replay";
    label: string;
    /** The packs replayed on, with their build hashes. */
    packs: Array<{ path: string; build_hash: string }>;
    /** Planner profile of the re-plans. */
    profile: string;
    /** `navscope/<version>` that re-planned. */
    planner: string;
  };

/** The label of figures read from the log lines themselves. */
export const LOG_SOURCE: StatsSource = { kind: "log", label: "from the log" };

/** What a table says when the logs lack its data and no pack was given. */
export const NOT_IN_LOGS = "not in these logs — add --pack PACK to replay them";

/** The same, when packs were given: the replayed table stands beside it. */
export const NOT_IN_LOGS_REPLAYED = "not in these logs — see the replayed table";

/** The source of figures replayed as `report` says (packs, build hashes, profile, planner). */
export function replaySource(r: Pick<ReplayReport, "packs" | "profile" | "planner">): StatsSource {
  const packs = r.packs.map((p) => ({ path: p.path, build_hash: p.build_hash }));
  const profile = r.profile ?? "spec";
  const label = `replayed on ${
    packs.map((p) => `${p.path} (build ${p.build_hash}, profile ${profile}, ${r.planner})`).join(
      " + ",
    )
  }`;
  return { kind: "replay", label, packs, profile, planner: r.planner };
}

/**
 * True when the logs hold no plan record at all (before any filter): the tier, reason, window and
 * stage tables have nothing to show because the log lines do not carry them (navigator logs),
 * not because a filter left nothing or every plan failed.
 */
export function lacksPlanData(r: Pick<StatsReport, "plan_records">): boolean {
  return r.plan_records === 0;
}

/** The stats fields the log lacks when {@link lacksPlanData}: null in the JSON. */
export const PLAN_DATA_FIELDS = [
  "tier0_share",
  "tier0_small_share",
  "tiers",
  "reason_names",
  "reasons",
  "window_buckets",
  "stages",
] as const;

/** A leg whose logged outcome the replay contradicts. */
export interface Contradiction {
  /** Distinct-leg key. */
  key: string;
  zone: string;
  start: Point2 | null;
  goal: Point2 | null;
  /** `file:line` of the first occurrence. */
  where: string;
  /** `logged failure, replay ok` or `logged ok, replay failed`. */
  what: "logged failure, replay ok" | "logged ok, replay failed";
  /** Occurrences logged ok / failed (within the filter). */
  logged_ok: number;
  logged_failed: number;
  /** Logged class (classify's, of the last failure; `ok` when none failed). */
  logged_class: string;
  /** Class of the replay (`ok` or classify's). */
  replay_class: string;
  /** Final tier of the replay. */
  replay_tier: number;
  /** Occurrences the replay contradicts. */
  contradicted: number;
}

/** How the log legs were served by the replay. */
export interface ReplayLegCounts {
  /** Log legs (occurrences) that pass the filter. */
  log_legs: number;
  /** Of those, counted with a replayed record. */
  served: number;
  /** Distinct legs replayed that served them. */
  distinct: number;
  /** Log legs served by a distinct leg replayed already: served − distinct. */
  cache_hits: number;
  /** cache_hits / served (null when none served: a share over zero legs). */
  cache_hit_rate: number | null;
  /** Log legs without a replay (no coordinates, zone in no pack), by reason. */
  not_replayed: Array<{ reason: string; legs: number; distinct: number }>;
}

/** What a report says about the source of its tier, stage and counter sections. */
export interface ReportStatsSource {
  /** Where the figures come from. */
  source: StatsSource;
  /** Set when the logs hold no plan record and nothing was replayed: why the sections are empty. */
  not_in_logs?: string;
  /** With a replay: how the log legs were served, and the contradicted legs. */
  legs?: ReplayLegCounts;
  contradictions?: Contradiction[];
}
