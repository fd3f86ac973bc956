/**
 * Where a statistics table's figures come from (issue 53): the log lines themselves, or a replay
 * of the logs' legs on a pack. Shared by stats, report and triage so every table, chart and JSON
 * field carries the same label, and by the "not in these logs" placeholder that replaces a table
 * whose data the logs lack.
 * @module
 */
import type { ReplayReport } from "./replay_run.ts";
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
