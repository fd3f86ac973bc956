/**
 * The aggregated data of the HTML report (`navscope report`): one streaming pass over run logs
 * that feeds the analytics' own accumulators — {@link ClassifyAccumulator} for the failure
 * classes, {@link StatsAccumulator} for the overall tier/timing tables and one
 * {@link StatsGroup} per final tier for the per-tier breakdowns — plus what only the report
 * needs: the distinct failing legs with their endpoints, a bounded sample of scatter points
 * (reservoir sampling, seeded, so the data is deterministic), the time range, planner versions,
 * pack build hashes and zones.
 *
 * The page embeds this object as JSON and never sees a raw plan: its size is bounded by the
 * number of tiers, reason combinations, distinct failing legs (capped by `maxLegs`) and
 * `maxPoints`, not by the number of plans.
 * @module
 */
import {
  factsFromPlan,
  FailureCollector,
  legKey,
  PlanCollector,
} from "../src/analyze/log_collectors.ts";
import type { ClassifyReport } from "../src/analyze/classify_report.ts";
import { ClassifyAccumulator } from "../src/analyze/classify_report.ts";
import {
  addRunFacts,
  fileProblems,
  type ProgressFn,
  unparsedLines,
} from "../src/analyze/log_pipeline.ts";
import type {
  CounterRow,
  OtherStageRow,
  StageRow,
  StatsBody,
  TierCountersRow,
  TierRow,
  WindowBucketRow,
} from "../src/analyze/stats.ts";
import { CAPPED_WINDOW_MAX, round3, StatsAccumulator, StatsGroup } from "../src/analyze/stats.ts";
import { gloss, hasCjk } from "../src/logs/message_gloss.ts";
import { formatTimestamp } from "../src/logs/line.ts";
import { parseLogs } from "../src/logs/reader.ts";
import { type NavRun, RUN_EVENT_TYPES, RunCollector } from "../src/analyze/nav_runs.ts";
import { type ReportRuns, reportRuns } from "./report_runs.ts";
import type { BundleFacts } from "../src/analyze/bundle_facts.ts";
import type { LogEvent, ParseReport, PlanRecord, Point2 } from "../src/logs/types.ts";
import { mulberry32 } from "../src/rng.ts";
import type { DiffReport } from "../src/analyze/diff.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

/** Stages drawn in the stacked per-tier bars (the six timed stages and "other"). */
export const BAR_STAGES: readonly string[] = [...STAGE_NAMES, "other"];

/** Reason combinations shown as their own stack in the tier chart; the rest are "other". */
export const MAX_REASON_STACKS = 8;

/** One distinct failing leg (a row of the failure table). */
export interface FailingLeg {
  /** Row id (index in `failures.legs`), used by the drill-downs. */
  id: number;
  /** Distinct-leg key (classify's: zone + start + goal + deck, or zone + error text). */
  key: string;
  /** Battery leg id of the plan line (`[leg=…]`), "" when the log names none. */
  leg: string;
  /** Class of the leg's last failure. */
  class: string;
  /** Zone. */
  zone: string;
  /** Raw start, px, null when the log did not say. */
  start: Point2 | null;
  /** Raw goal, px, null when unknown. */
  goal: Point2 | null;
  /** Declared goal deck, null when none. */
  deck: number | null;
  /** Failures of this leg. */
  count: number;
  /** First / last failure (`YYYY-MM-DD HH:MM:SS.mmm`), null when undated. */
  first_seen: string | null;
  last_seen: string | null;
  /** Error text of the last failure. */
  error: string;
  /** Where it came from: a navscope plan line, navigator lines, or a pack-load failure. */
  origin: "plan_line" | "navigator" | "load";
  /** First failure's `file:line`. */
  example: string;
}

/** Plans finished in one tier, split by escalation-reason combination. */
export interface TierReasonRow {
  tier: number;
  plans: number;
  /** Plans per stack key (a combination or "other"). */
  stacks: Record<string, number>;
}

/** Per-tier stage means and table. */
export interface TierStageRow {
  tier: number;
  plans: number;
  /** Mean ms of each {@link BAR_STAGES} stage. */
  mean_ms: Record<string, number | null>;
  /** classify/stats per-stage table of this tier (sum, p50, max). */
  stages: StageRow[];
}

/** The report's data (embedded in the page as JSON; golden-tested). */
export interface ReportData {
  format: "navscope-report";
  version: 1;
  /** Inputs as given. */
  inputs: string[];
  /** The bundles read (issue 35), absent for loose logs. */
  bundles?: BundleFacts[];
  /** Navigation runs, when the logs have them. */
  runs?: { total: number; failed: number; open: number; with_failed_legs: number };
  /** Legs and failed legs (with runs or bundles). */
  legs?: { total: number; failed: number };
  /** Failed runs with their causes (reports/report_runs.ts), when the logs have runs. */
  failed_runs?: ReportRuns;
  overview: {
    /** Plans (legs) seen, successful and failed. */
    plans: number;
    ok: number;
    failed: number;
    /** ok / plans, null when no plans. */
    success_rate: number | null;
    /** Pack-load failures (counted as failures, not plans). */
    load_failures: number;
    failures_by_class: Array<{ class: string; count: number; legs: number }>;
    distinct_failing_legs: number;
    time_range: { first: string; last: string } | null;
    versions: string[];
    /**
     * Planner profiles the plans ran under, with their plan counts, most plans first (a plan
     * line without `[profile=…]` ran under `spec`; docs/profiles.md).
     */
    profiles: Array<{ profile: string; plans: number }>;
    pack_hashes: string[];
    zones: Array<{ zone: string; plans: number; ok: number; failed: number }>;
    unparsed_lines: number;
    file_problems: Array<{ file: string; error: string }>;
  };
  tiers: {
    /** Stack keys in draw order (most plans first, "other" last when present). */
    stack_keys: string[];
    rows: TierReasonRow[];
    /** stats' per-tier table (total p50/p90/max, other p50). */
    total_ms: TierRow[];
    window_buckets: WindowBucketRow[];
    /** null: no successful plan (a share over zero plans, shown "n/a"). */
    tier0_share: number | null;
    tier0_small_share: number | null;
  };
  scatter: {
    /** `[window cells, total ms, tier]` of successful plans with a window (a sample). */
    points: Array<[number, number, number]>;
    /** Plans eligible for the scatter. */
    eligible: number;
    /** True when `points` is a sample of `eligible`. */
    sampled: boolean;
    max_points: number;
    /** The kLocalMaxCells line, cells. */
    line_cells: number;
  };
  stages: {
    /** stats' per-stage table over all successful plans. */
    table: StageRow[];
    per_tier: TierStageRow[];
    /** Sum of "other" / sum of total, null when no time. */
    other_share: number | null;
    /** "Other" broken down (issue 28): stats' `other_stages`, each with its share of the time. */
    other_breakdown: {
      /** Successful plans whose line carried the breakdown (stats' `other_plans`). */
      plans: number;
      /** Σ total plan time of those plans, ms. */
      total_ms: number;
      /** Every sub-stage, then `unattributed` (stats' order; empty when no plan had it). */
      rows: Array<OtherStageRow & { share: number | null }>;
      /** stats' `other_unattributed_share`. */
      unattributed_share: number | null;
    };
  };
  /** Work counters (issue 26, docs/counters.md), exactly as `stats` aggregates them. */
  counters: {
    /** Successful plans whose line carried counters (stats' `counter_plans`). */
    plans: number;
    /** Over all those plans (stats' `counters`). */
    all: CounterRow[];
    /** Per final tier (stats' `counters_by_tier`). */
    by_tier: TierCountersRow[];
  };
  failures: {
    /** Distinct failing legs, most failures first (at most `max_legs`). */
    legs: FailingLeg[];
    total_legs: number;
    max_legs: number;
  };
  /** Drill-downs by leg id (filled by the command with `--pack`). */
  drilldowns: Record<string, Drilldown>;
  /** Notes on how the page was built (drill-down limits, sampling). */
  notes: string[];
  /** `diff` against `--baseline`, or null. */
  baseline: DiffReport | null;
  /** Battery leg ids of the baseline's and this run's failing legs, by leg key (`[leg=…]`). */
  leg_ids: Record<string, string>;
  /** English gloss of every Chinese text on the page (errors, reasons), by text. */
  glosses: Record<string, string>;
  /** With `--history FILE`: trends and change points (reports/report_history.ts). */
  history?: import("./report_history.ts").ReportHistory;
  /**
   * Where the tier, stage and counter sections come from: the log, or a replay of its legs
   * (issue 53, reports/report_replay.ts); absent in data built before the command decides.
   */
  stats_source?: import("../src/analyze/stats_source.ts").ReportStatsSource;
}

/** A failing leg replayed for its picture. */
export interface Drilldown {
  /** The replayed outcome (`ok` or the planner's code; "-" when not replayed). */
  outcome: string;
  /** The replay's message. */
  message: string;
  /** The replay's class (`ok` or classify's class), absent when not replayed. */
  class?: string;
  /** The class and message the log recorded for the leg (its last failure). */
  logged_class?: string;
  logged_message?: string;
  /** True when the replay's class is not the logged one. */
  differs?: boolean;
  /**
   * Why the replay may differ from the log, in plain words (pack changed, planner version
   * changed, overrides missing, partial request, …); empty when the replay is exact.
   */
  caveats?: string[];
  /** How the leg was replayed (pack, exact or partial request, battery overrides). */
  how?: string;
  /** The window SVG (reports/leg_svg.ts), absent when no window was built or it was too big. */
  svg?: string;
  /** Why there is no SVG. */
  why?: string;
  /** Hover data of the picture's cells (reports/hover_spans.ts), absent over the hover budget. */
  spans?: PackedSpans;
}

/** The spans of a picture's crop cells, packed for the page (reports/hover_spans.ts). */
export interface PackedSpans {
  /** Crop origin (global cells) and size. */
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  /** Spans in all. */
  spans: number;
  /** base64 of the gzip of the packed columns (layout: reports/hover_spans.ts). */
  gz: string;
}

/** Options of {@link ReportAccumulator} / {@link reportFromLogs}. */
export interface ReportDataOptions {
  /** Scatter points embedded at most (default 2000). */
  maxPoints?: number;
  /** Failing legs embedded at most (default 2000). */
  maxLegs?: number;
  /** Seed of the scatter sample (default 1). */
  seed?: number;
}

/** One plan record with where it ran (for the trace export). */
export interface PlanSighting {
  record: PlanRecord;
  /** Naive epoch ms of the line, NaN when unknown. */
  time: number;
  pid: number;
  tid: number;
}

interface LegAcc {
  key: string;
  cls: string;
  zone: string;
  start: Point2 | null;
  goal: Point2 | null;
  deck: number | null;
  count: number;
  first: number;
  last: number;
  error: string;
  origin: FailingLeg["origin"];
  example: string;
  order: number;
  record: PlanRecord | null;
  leg: string;
}

interface Endpoints {
  zone: string;
  start: Point2 | null;
  goal: Point2 | null;
  deck: number | null;
  origin: FailingLeg["origin"];
  record: PlanRecord | null;
}

/** Accumulates log events into {@link ReportData}. */
export class ReportAccumulator {
  private readonly failures = new FailureCollector();
  private readonly plansCol = new PlanCollector();
  private readonly classify = new ClassifyAccumulator();
  private readonly stats = new StatsAccumulator();
  private readonly tierGroups = new Map<number, StatsGroup>();
  private readonly legs = new Map<string, LegAcc>();
  private readonly pendingEndpoints = new Map<string, Endpoints>();
  private readonly zones = new Map<string, { plans: number; ok: number; failed: number }>();
  private readonly versions = new Set<string>();
  private readonly profiles = new Map<string, number>();
  private readonly hashes = new Set<string>();
  private readonly points: Array<[number, number, number]> = [];
  private readonly rand: () => number;
  private readonly maxPoints: number;
  private readonly maxLegs: number;
  private eligible = 0;
  /** Σ total ms of the successful plans carrying the "other" breakdown (the shares' base). */
  private otherTotal = 0;
  private legEvents = 0;
  private legOk = 0;
  private planEvents = 0;
  private planOk = 0;
  private loadFailures = 0;
  private first = NaN;
  private last = NaN;
  /** Called with every plan record counted by the statistics (for `--trace`). */
  onPlan?: (p: PlanSighting) => void;

  constructor(opts: ReportDataOptions = {}) {
    this.maxPoints = opts.maxPoints ?? 2000;
    this.maxLegs = opts.maxLegs ?? 2000;
    this.rand = mulberry32(opts.seed ?? 1);
  }

  private seen(t: number): void {
    if (Number.isNaN(t)) return;
    if (!(t >= this.first)) this.first = t;
    if (!(t <= this.last)) this.last = t;
  }

  private zone(z: string) {
    let a = this.zones.get(z);
    if (!a) this.zones.set(z, a = { plans: 0, ok: 0, failed: 0 });
    return a;
  }

  /** Feeds one event. */
  add(ev: LogEvent): void {
    let endpoints: Endpoints | null = null;
    if (ev.type === "leg") {
      const l = ev.leg;
      this.legEvents++;
      if (l.ok) this.legOk++;
      this.seen(l.time);
      const z = this.zone(l.zone);
      z.plans++;
      if (l.ok) z.ok++;
      else z.failed++;
      endpoints = {
        zone: l.zone,
        start: l.start,
        goal: l.goal,
        deck: l.plan ? l.plan.goalDeckY : l.goalDeckY,
        origin: l.origin,
        record: l.plan,
      };
    } else if (ev.type === "plan") {
      this.planEvents++;
      if (ev.record.ok) this.planOk++;
      this.seen(ev.head.time);
      const r = ev.record;
      if (!r.ok) {
        this.pendingEndpoints.set(
          legKey(r.zone, r.start, r.goal, r.goalDeckY, factsFromPlan(r).message),
          {
            zone: r.zone,
            start: r.start,
            goal: r.goal,
            deck: r.goalDeckY,
            origin: "plan_line",
            record: r,
          },
        );
      }
    } else if (ev.type === "navmesh_load_failed") {
      this.loadFailures++;
      this.seen(ev.head.time);
      endpoints = {
        zone: ev.zone,
        start: null,
        goal: null,
        deck: null,
        origin: "load",
        record: null,
      };
    }
    for (const f of this.failures.add(ev)) this.addFailure(f, endpoints);
    const p = this.plansCol.add(ev);
    if (p) this.addPlan(p.record, p.time, ev);
  }

  private addFailure(
    f: ReturnType<FailureCollector["add"]>[number],
    ep: Endpoints | null,
  ): void {
    const cls = this.classify.add(f);
    const text = f.facts.message || f.facts.status || f.facts.event;
    let a = this.legs.get(f.leg);
    if (!a) {
      const e = ep ?? this.pendingEndpoints.get(f.leg) ??
        {
          zone: f.facts.zone,
          start: null,
          goal: null,
          deck: null,
          origin: "navigator" as const,
          record: null,
        };
      a = {
        key: f.leg,
        cls,
        zone: e.zone,
        start: e.start,
        goal: e.goal,
        deck: e.deck,
        count: 0,
        first: NaN,
        last: NaN,
        error: text,
        origin: e.origin,
        example: `${f.file}:${f.line}`,
        order: this.legs.size,
        record: e.record,
        leg: e.record?.leg ?? "",
      };
      this.legs.set(f.leg, a);
    }
    a.count++;
    a.cls = cls;
    if (ep?.record) {
      a.record = ep.record;
      if (ep.record.leg) a.leg = ep.record.leg;
    }
    a.error = text;
    if (!Number.isNaN(f.time)) {
      if (!(f.time >= a.first)) a.first = f.time;
      if (!(f.time <= a.last)) a.last = f.time;
    }
  }

  private addPlan(r: PlanRecord, time: number, ev: LogEvent): void {
    if (!this.stats.add(r, time)) return;
    if (r.version) this.versions.add(r.version);
    const profile = r.profile ?? "spec";
    this.profiles.set(profile, (this.profiles.get(profile) ?? 0) + 1);
    if (r.packHash) this.hashes.add(r.packHash);
    if (this.onPlan) {
      const pid = ev.type === "plan" ? ev.head.pid : ev.head.pid;
      const tid = ev.type === "leg" ? ev.leg.tid : ev.head.tid;
      this.onPlan({ record: r, time, pid, tid });
    }
    if (!r.ok) return;
    if (r.otherTiming) this.otherTotal += r.timing.total;
    let g = this.tierGroups.get(r.tier);
    if (!g) this.tierGroups.set(r.tier, g = new StatsGroup());
    g.add(r);
    if (r.window) {
      // Reservoir sampling (algorithm R) with a seeded generator: deterministic.
      const pt: [number, number, number] = [r.window.cells, round3(r.timing.total) ?? 0, r.tier];
      this.eligible++;
      if (this.points.length < this.maxPoints) this.points.push(pt);
      else {
        const j = Math.floor(this.rand() * this.eligible);
        if (j < this.maxPoints) this.points[j] = pt;
      }
    }
  }

  /** The battery leg id (`[leg=…]`) of a failing leg, by key; "" when none. */
  legIdOf(key: string): string {
    return this.legs.get(key)?.leg ?? "";
  }

  /** The last plan record of a failing leg (by key), for replaying it; null for navigator legs. */
  recordOf(key: string): PlanRecord | null {
    return this.legs.get(key)?.record ?? null;
  }

  /** Flushes the collectors (call once, after the last event). */
  finish(): void {
    for (const f of this.failures.finish()) this.addFailure(f, null);
  }

  /** The report data. */
  data(
    inputs: readonly string[],
    parse: { unparsed: number; problems: Array<{ file: string; error: string }> },
  ): ReportData {
    const cr: ClassifyReport = this.classify.report(parse.unparsed, parse.problems);
    const body: StatsBody = this.stats.report();
    const paired = this.legEvents > 0;
    const plans = paired ? this.legEvents : this.planEvents;
    const ok = paired ? this.legOk : this.planOk;
    const tiersSorted = [...this.tierGroups.keys()].sort((a, b) => a - b);
    const bodies = tiersSorted.map((t) => ({ tier: t, body: this.tierGroups.get(t)!.body() }));
    // Stack keys: the most common combinations over all tiers, the rest folded into "other".
    const comboTotals = new Map<string, number>();
    for (const { body: b } of bodies) {
      for (const r of b.reasons) comboTotals.set(r.key, (comboTotals.get(r.key) ?? 0) + r.plans);
    }
    const ranked = [...comboTotals].sort((a, b) =>
      b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
    ).map(([k]) => k);
    const kept = ranked.slice(0, MAX_REASON_STACKS);
    const keptSet = new Set(kept);
    const stackKeys = ranked.length > kept.length ? [...kept, "other"] : kept;
    const rows: TierReasonRow[] = bodies.map(({ tier, body: b }) => {
      const stacks: Record<string, number> = {};
      for (const r of b.reasons) {
        const k = keptSet.has(r.key) ? r.key : "other";
        stacks[k] = (stacks[k] ?? 0) + r.plans;
      }
      return { tier, plans: b.plans, stacks };
    });
    const perTier: TierStageRow[] = bodies.map(({ tier, body: b }) => {
      const mean: Record<string, number | null> = {};
      for (const s of BAR_STAGES) {
        const row = b.stages.find((x) => x.stage === s);
        mean[s] = row && b.plans > 0 ? round3(row.sum_ms / b.plans) : null;
      }
      return { tier, plans: b.plans, mean_ms: mean, stages: b.stages };
    });
    const otherSum = body.stages.find((s) => s.stage === "other")?.sum_ms ?? 0;
    const totalSum = body.stages.find((s) => s.stage === "total")?.sum_ms ?? 0;
    const legs = [...this.legs.values()].sort((a, b) =>
      b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
    );
    const ts = (t: number) => Number.isNaN(t) ? null : formatTimestamp(t);
    const notes: string[] = [];
    if (this.eligible > this.points.length) {
      notes.push(
        `The window-area scatter shows a random sample of ${this.points.length} of ${this.eligible} successful plans; every other figure counts all plans.`,
      );
    }
    if (legs.length > this.maxLegs) {
      notes.push(
        `The failure table lists the ${this.maxLegs} legs with the most failures of ${legs.length} distinct failing legs.`,
      );
    }
    const failed = cr.total - this.loadFailures;
    const out: ReportData = {
      format: "navscope-report",
      version: 1,
      inputs: [...inputs],
      overview: {
        plans,
        ok,
        failed: Math.max(0, failed),
        success_rate: plans > 0 ? round3(ok / plans) : null,
        load_failures: this.loadFailures,
        failures_by_class: cr.classes.map((c) => ({
          class: c.class,
          count: c.count,
          legs: c.legs,
        })),
        distinct_failing_legs: legs.length,
        time_range: Number.isNaN(this.first)
          ? null
          : { first: formatTimestamp(this.first), last: formatTimestamp(this.last) },
        versions: [...this.versions].sort(),
        profiles: [...this.profiles]
          .map(([profile, plans]) => ({ profile, plans }))
          .sort((a, b) => b.plans - a.plans || (a.profile < b.profile ? -1 : 1)),
        pack_hashes: [...this.hashes].sort(),
        zones: [...this.zones].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
          .map(([zone, z]) => ({ zone, ...z })),
        unparsed_lines: parse.unparsed,
        file_problems: parse.problems,
      },
      tiers: {
        stack_keys: stackKeys,
        rows,
        total_ms: body.tiers,
        window_buckets: body.window_buckets,
        tier0_share: body.tier0_share,
        tier0_small_share: body.tier0_small_share,
      },
      scatter: {
        points: this.points,
        eligible: this.eligible,
        sampled: this.eligible > this.points.length,
        max_points: this.maxPoints,
        line_cells: CAPPED_WINDOW_MAX,
      },
      stages: {
        table: body.stages,
        per_tier: perTier,
        other_share: totalSum > 0 ? round3(otherSum / totalSum) : null,
        other_breakdown: {
          plans: body.other_plans,
          total_ms: round3(this.otherTotal) ?? 0,
          rows: body.other_stages.map((r) => ({
            ...r,
            share: this.otherTotal > 0 ? round4(r.sum_ms / this.otherTotal) : null,
          })),
          unattributed_share: body.other_unattributed_share,
        },
      },
      counters: {
        plans: body.counter_plans,
        all: body.counters,
        by_tier: body.counters_by_tier,
      },
      failures: {
        legs: legs.slice(0, this.maxLegs).map((a, id) => ({
          id,
          key: a.key,
          leg: a.leg,
          class: a.cls,
          zone: a.zone,
          start: a.start,
          goal: a.goal,
          deck: a.deck,
          count: a.count,
          first_seen: ts(a.first),
          last_seen: ts(a.last),
          error: a.error,
          origin: a.origin,
          example: a.example,
        })),
        total_legs: legs.length,
        max_legs: this.maxLegs,
      },
      drilldowns: {},
      notes,
      baseline: null,
      leg_ids: {},
      glosses: {},
    };
    addGlosses(out);
    return out;
  }
}

/** Rounds a share to 1e-4 (0.01 %), so the JSON carries no float noise. */
function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}

/**
 * Fills `d.glosses` with the English gloss (src/logs/message_gloss.ts) of every Chinese text the page
 * shows: failure errors, escalation-reason stacks and drill-down messages.
 */
export function addGlosses(d: ReportData): void {
  const add = (t: string | undefined) => {
    if (!t || d.glosses[t] !== undefined || !hasCjk(t)) return;
    d.glosses[t] = gloss(t);
  };
  for (const l of d.failures.legs) add(l.error);
  for (const k of d.tiers.stack_keys) add(k);
  for (const dd of Object.values(d.drilldowns)) {
    add(dd.message);
    add(dd.logged_message);
  }
}

/**
 * Battery leg ids (`[leg=…]`) of the failing legs of a run as `navscope diff` reads it (logs, a
 * replay dir's replay.log; a stats file has none), by diff's leg key.
 */
export async function failingLegIds(source: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let inputs = [source];
  try {
    const st = await Deno.stat(source);
    if (st.isDirectory) {
      try {
        await Deno.stat(`${source}/replay.json`);
        inputs = [`${source}/replay.log`];
      } catch { /* a log directory */ }
    } else if (source.endsWith(".json")) return out;
  } catch {
    // A glob or a missing path: diff reads it (and reports what is wrong).
  }
  for await (const ev of parseLogs(inputs, { include: ["leg"] })) {
    if (ev.type !== "leg" || ev.leg.ok || !ev.leg.plan?.leg) continue;
    const l = ev.leg;
    out.set(legKey(l.zone, l.start, l.goal, l.plan!.goalDeckY, l.error), l.plan!.leg);
  }
  return out;
}

/**
 * Puts a `navscope diff` result on the page (`data.baseline`) with the battery leg ids of its
 * new and fixed failing legs (this run's from `acc`, the baseline's read from `baseSource`).
 */
export async function setBaseline(
  data: ReportData,
  acc: ReportAccumulator,
  diff: DiffReport,
  baseSource: string,
): Promise<void> {
  data.baseline = diff;
  const ids = await failingLegIds(baseSource);
  for (const l of diff.new_failing_legs) {
    const id = acc.legIdOf(l.leg);
    if (id) ids.set(l.leg, id);
  }
  for (const l of [...diff.new_failing_legs, ...diff.fixed_legs]) {
    const id = ids.get(l.leg);
    if (id) data.leg_ids[l.leg] = id;
  }
}

/** Options of {@link reportFromLogs}. */
export interface ReportFromLogsOptions extends ReportDataOptions {
  strict?: boolean;
  onProgress?: ProgressFn;
  onPlan?: (p: PlanSighting) => void;
  /**
   * Keep each navigation run's detail (the log's planned paths, the observed track, zipline
   * decisions, …) for the pictures: `"failed"` for runs with a failed leg only (the report's
   * drill-down), `"all"` for every run (triage); default none (counts only, and the parser
   * skips the position lines).
   */
  runDetail?: "failed" | "all";
}

/** Event types the report's accumulator reads. */
const REPORT_EVENTS = new Set(["plan", "leg", "navmesh_load_failed"]);

/** Reads run logs once and aggregates them into {@link ReportData} (and the runs). */
export async function reportFromLogs(
  inputs: readonly string[],
  opts: ReportFromLogsOptions = {},
): Promise<{ data: ReportData; parse: ParseReport; acc: ReportAccumulator; runs: NavRun[] }> {
  const stream = parseLogs(inputs, {
    strict: opts.strict,
    include: opts.runDetail ? undefined : ["plan", "navmesh_load_failed", ...RUN_EVENT_TYPES],
  });
  const acc = new ReportAccumulator(opts);
  acc.onPlan = opts.onPlan;
  const runs = new RunCollector(opts.runDetail !== undefined, opts.runDetail === "failed");
  let n = 0;
  for await (const ev of stream) {
    runs.add(ev);
    if (!REPORT_EVENTS.has(ev.type)) continue;
    acc.add(ev);
    if (opts.onProgress && ++n % 4096 === 0) {
      opts.onProgress(0, `${stream.report.lines} lines`);
    }
  }
  acc.finish();
  const parse = stream.report;
  const data = acc.data(inputs, { unparsed: unparsedLines(parse), problems: fileProblems(parse) });
  addRunFacts(data, parse, runs);
  const all = runs.finish();
  if (all.length > 0) data.failed_runs = reportRuns(all);
  return { data, parse, acc, runs: all };
}
