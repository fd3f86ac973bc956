/**
 * Statistics of the product's logs through replay (issue 53): `stats --pack`, `report --pack`
 * and `triage --pack`.
 *
 * MaaEnd's navigator lines carry no tier, window, escalation reason or stage time
 * (maaend-runlogs.md §1.2), so those tables cannot come from the log. With packs, every
 * distinct leg the logs give coordinates for (failed legs, and successful ones from
 * `NAVMESH generated path.` start/goal with the request's declared deck) is re-planned once by
 * {@link replayLogs} with `all` — the very call and records of `replay --all` — and every log leg
 * is then counted with the replayed record of its distinct leg ({@link replayKey}). So a leg
 * planned 50 times in the logs counts 50 times, served 49 times by the cache (the cache hit
 * rate), with the timings of its one replay.
 *
 * Every figure says where it comes from ({@link StatsSource}): "from the log" or "replayed on
 * PACK (build hash, profile, navscope version)". Where the replay contradicts the logged outcome
 * of a leg (logged failure, replay ok, or the reverse) the leg is listed
 * ({@link Contradiction}).
 * @module
 */
import type { Leg, ParseReport, PlanRecord } from "../logs/types.ts";
import type { PlanProfile } from "../plan/profile.ts";
import { recordClass, replayKey } from "./replay.ts";
import { replayLogs, type ReplayResult, type ReplayRow } from "./replay_run.ts";
import type { PoolPack } from "./replay_pool.ts";
import { type PipelineOptions, statsLogs } from "./log_pipeline.ts";
import {
  type Contradiction,
  lacksPlanData,
  LOG_SOURCE,
  NOT_IN_LOGS,
  NOT_IN_LOGS_REPLAYED,
  PLAN_DATA_FIELDS,
  type ReplayLegCounts,
  replaySource,
  type StatsSource,
} from "./stats_source.ts";
import {
  passes,
  StatsAccumulator,
  type StatsBody,
  type StatsFilter,
  type StatsReport,
} from "./stats.ts";

export type { Contradiction, ReplayLegCounts } from "./stats_source.ts";

/** The statistics of the replayed plans (`replayed` in `stats --json`). */
export interface ReplayedStats extends StatsBody {
  /** Where the figures come from. */
  source: StatsSource;
  /** Per-zone bodies (with `--by zone`). */
  zones?: Array<{ zone: string } & StatsBody>;
  legs: ReplayLegCounts;
  /** Legs whose logged outcome the replay contradicts, by key. */
  contradictions: Contradiction[];
}

/** Options of {@link statsWithReplay}. */
export interface ReplayStatsOptions extends PipelineOptions, ReplayServeOptions {
  filter?: StatsFilter;
  byZone?: boolean;
}

/** Result of {@link statsWithReplay}. */
export interface ReplayStatsResult {
  /** The statistics from the log lines (as `stats` without packs). */
  report: StatsReport;
  /** The statistics of the replayed plans. */
  replayed: ReplayedStats;
  /** The replay (`replay --all`'s result on the same inputs and packs). */
  replay: ReplayResult;
  parse: ParseReport;
}

class KeyTally {
  ok = 0;
  failed = 0;
  served = 0;
}

/** Options of {@link ReplayServe.open}. */
export interface ReplayServeOptions {
  packs: PoolPack[];
  jobs?: number;
  gateCells?: number;
  profile?: PlanProfile;
  strict?: boolean;
  signal?: AbortSignal;
  /** After the legs are known and after each replayed distinct leg. */
  onReplayProgress?: (done: number, total: number) => void;
}

/**
 * The replayed record of every distinct leg, served to each log leg that has it: the cache that
 * `stats`, `report` and `triage` count the log's legs with. Tallies what it served (per distinct
 * leg: logged ok / failed) for the cache hit rate and the contradicted legs.
 */
export class ReplayServe {
  private readonly byKey = new Map<string, { row: ReplayRow; record: PlanRecord | null }>();
  private readonly tally = new Map<string, KeyTally>();
  private readonly unserved = new Map<string, { legs: number; keys: Set<string> }>();
  private logLegs = 0;
  /** Where the served records come from. */
  readonly source: StatsSource;

  private constructor(readonly replay: ReplayResult) {
    replay.report.rows.forEach((row, i) =>
      this.byKey.set(row.key, { row, record: replay.records?.[i] ?? null })
    );
    this.source = replaySource(replay.report);
  }

  /** Replays every distinct leg of the logs on the packs (`replay --all`'s call). */
  static async open(inputs: readonly string[], opts: ReplayServeOptions): Promise<ReplayServe> {
    const replay = await replayLogs(inputs, {
      packs: opts.packs,
      all: true,
      jobs: opts.jobs,
      gateCells: opts.gateCells,
      strict: opts.strict,
      signal: opts.signal,
      ...(opts.profile ? { profile: opts.profile } : {}),
      onProgress: opts.onReplayProgress,
    });
    return new ReplayServe(replay);
  }

  /** The replayed record of a log leg (null: not replayed, counted by reason). */
  serve(leg: Leg): PlanRecord | null {
    this.logLegs++;
    const key = replayKey(leg);
    const hit = this.byKey.get(key);
    if (!hit?.record) {
      const reason = hit?.row.reason || (hit ? "not replayed" : "not collected");
      let u = this.unserved.get(reason);
      if (!u) this.unserved.set(reason, u = { legs: 0, keys: new Set() });
      u.legs++;
      u.keys.add(key);
      return null;
    }
    let t = this.tally.get(key);
    if (!t) this.tally.set(key, t = new KeyTally());
    t.served++;
    if (leg.ok) t.ok++;
    else t.failed++;
    return hit.record;
  }

  /** How the log legs served so far were served. */
  legCounts(): ReplayLegCounts {
    let served = 0;
    for (const t of this.tally.values()) served += t.served;
    const distinct = this.tally.size;
    return {
      log_legs: this.logLegs,
      served,
      distinct,
      cache_hits: served - distinct,
      cache_hit_rate: served ? (served - distinct) / served : null,
      not_replayed: [...this.unserved].map(([reason, u]) => ({
        reason,
        legs: u.legs,
        distinct: u.keys.size,
      })).sort((a, b) => b.legs - a.legs || (a.reason < b.reason ? -1 : 1)),
    };
  }

  /** The legs whose logged outcome the replay contradicts, in key order. */
  contradictions(): Contradiction[] {
    const out: Contradiction[] = [];
    for (const [key, t] of this.tally) {
      const { row, record } = this.byKey.get(key)!;
      const rec = record!;
      const contradicted = rec.ok ? t.failed : t.ok;
      if (contradicted === 0) continue;
      out.push({
        key,
        zone: row.zone,
        start: row.start,
        goal: row.goal,
        where: row.where,
        what: rec.ok ? "logged failure, replay ok" : "logged ok, replay failed",
        logged_ok: t.ok,
        logged_failed: t.failed,
        logged_class: row.old.class,
        replay_class: recordClass(rec),
        replay_tier: rec.tier,
        contradicted,
      });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}

/**
 * Replays every distinct leg of the logs on the packs and aggregates the log's legs with their
 * replayed records (see the module doc). Two passes over the logs: the replay's (distinct legs),
 * then the statistics' (every occurrence, the filter applied to its log time).
 */
export async function statsWithReplay(
  inputs: readonly string[],
  opts: ReplayStatsOptions,
): Promise<ReplayStatsResult> {
  const cache = await ReplayServe.open(inputs, opts);
  const filter = opts.filter ?? {};
  const acc = new StatsAccumulator(filter, opts.byZone ?? false);
  const onLeg = (leg: Leg) => {
    if (!passes(filter, leg.zone, leg.time)) return;
    const rec = cache.serve(leg);
    // The replayed record stands for this log leg: counted at the leg's own log time.
    if (rec) acc.add(rec, leg.time);
  };
  const { report, parse } = await statsLogs(inputs, {
    filter,
    byZone: opts.byZone,
    strict: opts.strict,
    onProgress: opts.onProgress,
    onLeg,
  });
  const rep = acc.report();
  const replayed: ReplayedStats = {
    source: cache.source,
    ...bodyOf(rep),
    ...(rep.zones ? { zones: rep.zones } : {}),
    legs: cache.legCounts(),
    contradictions: cache.contradictions(),
  };
  return { report, replayed, replay: cache.replay, parse };
}

function bodyOf(r: StatsReport): StatsBody {
  const {
    plan_records: _p,
    unparsed_lines: _u,
    file_problems: _f,
    zones: _z,
    legs: _l,
    runs: _r,
    bundles: _b,
    ...body
  } = r;
  return body;
}

/**
 * `stats --json`: the report with its `source`; when the log holds no plan record, the fields
 * it lacks are null and `not_in_logs` says why (issue 53: no empty table, no "0.0 %"); with a
 * replay, `replayed` beside it.
 */
export function statsJson(report: StatsReport, replayed?: ReplayedStats): Record<string, unknown> {
  const reason = lacksPlanData(report) ? (replayed ? NOT_IN_LOGS_REPLAYED : NOT_IN_LOGS) : null;
  const out: Record<string, unknown> = { source: LOG_SOURCE, ...nullLacking(report, reason) };
  if (report.zones) out.zones = report.zones.map((z) => nullLacking(z, reason));
  if (replayed) out.replayed = replayed;
  return out;
}

function nullLacking<T extends StatsBody>(b: T, reason: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = { ...b } as Record<string, unknown>;
  if (reason === null) return out;
  for (const f of PLAN_DATA_FIELDS) out[f] = null;
  out.not_in_logs = { reason, fields: [...PLAN_DATA_FIELDS] };
  return out;
}
