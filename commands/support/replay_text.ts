/**
 * The replay summary as tables (navscope replay, merge and demo print it): outcome counts and
 * one row per leg, after the bundle facts.
 * @module
 */
import { bundleTable } from "../../src/analyze/tables.ts";
import { outcomeLabel, REPLAY_OUTCOMES } from "../../src/analyze/replay.ts";
import type { ReplayReport } from "../../src/analyze/replay_run.ts";
import { type Format, printTables, type TableModel } from "./terminal.ts";

/** Prints a replay summary in the chosen format. */
export function printReplay(
  format: Format,
  r: ReplayReport,
  out: string,
): void {
  printTables(format, replaySummaryTables(r, out), r);
}

/** The bundle facts, then the replay tables. */
export function replaySummaryTables(r: ReplayReport, out: string): TableModel[] {
  return [...bundleTable(r.bundles ?? []), ...replayTables(r, out)];
}

/** The replay tables: outcome counts and one row per leg. */
export function replayTables(r: ReplayReport, out: string): TableModel[] {
  const notes = [
    `${r.done} of ${r.legs} legs${
      r.shard ? ` (shard ${r.shard.index}/${r.shard.count} of ${r.legs_total})` : ""
    }${
      r.interrupted ? `; interrupted: ${r.pending} not replayed` : ""
    }; ${r.partial_requests} partial requests; exact replays identical ${r.identical}, not identical ${r.not_identical}`,
    `planner profile ${r.profile ?? "spec"}`,
    `wrote ${out}/replay.log and ${out}/replay.json`,
  ];
  const counts: TableModel = {
    title: r.interrupted ? "replay (interrupted)" : "replay",
    head: ["outcome", "legs"],
    rows: REPLAY_OUTCOMES.map((o) => [outcomeLabel(o), r.counts[o]]),
    notes,
  };
  const legs: TableModel = {
    title: "legs",
    head: [
      "leg",
      "request",
      "old class",
      "new class",
      "outcome",
      "tier",
      "kind",
      "total ms",
      "failed",
    ],
    rows: r.rows.map((x) => [
      // A leg the plan lines name is reported by its battery id (zone beside it).
      x.leg ? `${x.leg} (${x.zone})` : x.key,
      x.request === "none" ? `- (${x.reason})` : x.request,
      x.old.class,
      x.new ? x.new.class : "-",
      outcomeLabel(x.outcome),
      x.new ? x.new.tier : null,
      x.new?.kind || "-",
      x.new ? x.new.total_ms : null,
      `${x.failures}/${x.occurrences}`,
    ]),
    align: ["left", "left", "left", "left", "left", "right", "left", "right", "right"],
  };
  return [counts, legs];
}
