/**
 * Tier and timing statistics of successful plans (spec 分档实测, 搜索实测, 实测 › 分段耗时).
 *
 * Tables produced, for all plans and optionally per zone:
 * - escalation-reason combinations per plan (`tierNotes` counted per reason, order ignored);
 * - per final tier: plans, total p50/p90/max, and "other" p50 where
 *   `other = total − window − topology − geometry` (spec 分档实测: 其余耗时);
 * - window area buckets by final tier: ≤ 2.9 M cells (tentative or small full windows),
 *   2.9–3 M (capped windows, bisected to just under kLocalMaxCells = 3 M), > 3 M (segment-capped
 *   or full-region windows);
 * - the share of plans finished at tier 0 (and at tier 0 with a window ≤ 2.9 M);
 * - per stage: sum, p50, max of window/topology/geometry/pull/assemble/lift, "other" and total,
 *   where here `other = total − the six stages` (spec 实测 › 分段耗时: 「其余」是总计减去前六项).
 *
 * - work counters (issue 26, docs/counters.md): sum, p50, p90, max of every counter, over all plans
 *   and per final tier, from the plans whose line carried them;
 * - "other" broken down (issue 28): sum, p50, p90, max of every sub-stage of "other" and of the
 *   unattributed remainder (other − Σ sub-stages), and the remainder's share of the total time.
 *
 * Every figure has a stable metric name ({@link statsMetrics}): `counters.<counter>.<stat>`,
 * `tier_counters.<tier>.<counter>.<stat>`, `timing.<sub-stage>.<stat>` (the timing metrics'
 * naming), `other_unattributed_share`; `diff`, `nightly` and `report` read them.
 *
 * Failed plans are counted but excluded ("失败的规划不在统计内"). Percentiles are nearest rank
 * (see percentile.ts). Samples are kept in flat Float64 columns, not per-plan objects.
 * @module
 */
import type { BundleFacts } from "./bundle_facts.ts";
import type { PlanRecord, PlanTimings } from "../logs/types.ts";
import { SampleColumn } from "./percentile.ts";
import {
  COUNTER_NAMES,
  OTHER_STAGE_NAMES,
  otherAttributed,
  type OtherTimings,
  STAGE_NAMES,
} from "../plan/counters.ts";

/** Upper bound of the small-window bucket, cells (spec: 290 万格). */
export const SMALL_WINDOW_MAX = 2_900_000;
/** Upper bound of the capped-window bucket, cells (kLocalMaxCells, spec: 300 万格). */
export const CAPPED_WINDOW_MAX = 3_000_000;

/** Stage names of the per-stage table, in print order. */
export const STAGES = [...STAGE_NAMES, "other", "total"] as const;

/**
 * One plan's timings in {@link STAGES} order; "other" is the total less the six timed stages
 * (loading, snapping, pre-checks).
 */
export function stageValues(t: PlanTimings): number[] {
  const six = t.window + t.topology + t.geometry + t.pull + t.assemble + t.lift;
  return [t.window, t.topology, t.geometry, t.pull, t.assemble, t.lift, t.total - six, t.total];
}

/** p50/p90/max of one sample set (null when empty). */
export interface P5090Max {
  /** Median (nearest rank). */
  p50: number | null;
  /** 90th percentile (nearest rank). */
  p90: number | null;
  /** Maximum. */
  max: number | null;
}

/** One row of the per-tier table. */
export interface TierRow {
  /** Final tier (loop round). */
  tier: number;
  /** Plans that finished in this tier. */
  count: number;
  /** Total plan time, ms. */
  total_ms: P5090Max;
  /** Median of total − window − topology − geometry, ms. */
  other_ms_p50: number | null;
}

/** One escalation-reason combination. */
export interface ReasonRow {
  /** Occurrences of each reason in the plan's tier notes (keys sorted). */
  reasons: Record<string, number>;
  /** Human key, e.g. `walk 断开×2 + 搜索碰边×1`, or `(none)`. */
  key: string;
  /** Plans with exactly this combination. */
  plans: number;
}

/** Window-area buckets of one final tier. */
export interface WindowBucketRow {
  /** Final tier. */
  tier: number;
  /** Windows ≤ 2.9 M cells. */
  le_2_9m: number;
  /** Windows in (2.9 M, 3 M]. */
  from_2_9m_to_3m: number;
  /** Windows > 3 M. */
  gt_3m: number;
  /** Plans whose record had no window. */
  unknown: number;
}

/** One row of the per-stage table. */
export interface StageRow {
  /** Stage name (see {@link STAGES}). */
  stage: string;
  /** Sum, ms. */
  sum_ms: number;
  /** Median, ms. */
  p50_ms: number | null;
  /** Maximum, ms. */
  max_ms: number | null;
}

/** One work counter over a plan population (integers; null when no plan carried counters). */
export interface CounterRow {
  /** Counter name (`<stage>.<what>`, docs/counters.md). */
  counter: string;
  /** Sum over the plans. */
  sum: number;
  /** Median (nearest rank). */
  p50: number | null;
  /** 90th percentile (nearest rank). */
  p90: number | null;
  /** Maximum. */
  max: number | null;
}

/** The counters of the plans that finished in one tier. */
export interface TierCountersRow {
  /** Final tier. */
  tier: number;
  /** Plans of this tier that carried counters. */
  plans: number;
  /** One row per counter, in {@link COUNTER_NAMES} order. */
  counters: CounterRow[];
}

/** One sub-stage of "other" (or `unattributed`), ms. */
export interface OtherStageRow {
  /** Sub-stage name (docs/counters.md) or `unattributed`. */
  stage: string;
  /** Sum, ms. */
  sum_ms: number;
  /** Median, ms. */
  p50_ms: number | null;
  /** 90th percentile, ms. */
  p90_ms: number | null;
  /** Maximum, ms. */
  max_ms: number | null;
}

/** Name of the remainder row of the "other" breakdown: other − Σ sub-stages. */
export const UNATTRIBUTED = "unattributed";

/** Statistics of one plan population. */
export interface StatsBody {
  /** Successful plans counted. */
  plans: number;
  /** Failed plans seen and excluded. */
  failed_excluded: number;
  /**
   * Failures as `classify` counts them in the same logs (failed legs, navigator or plan line,
   * plus pack-load failures; src/analyze/log_collectors.ts counting policy), excluded from every
   * timing. Equals `failed_excluded` when only plan records were added.
   */
  failures: number;
  /** Share of counted plans finished at tier 0 (null when none: a share over zero plans). */
  tier0_share: number | null;
  /** Share finished at tier 0 with a window ≤ 2.9 M cells (null when no plan). */
  tier0_small_share: number | null;
  /** Per final tier, ascending. */
  tiers: TierRow[];
  /** Reason names in column order (most occurrences first, then name). */
  reason_names: string[];
  /** Reason combinations, most plans first. */
  reasons: ReasonRow[];
  /** Window buckets per final tier, ascending. */
  window_buckets: WindowBucketRow[];
  /** Per-stage timings. */
  stages: StageRow[];
  /** Successful plans whose line carried work counters (the counter rows' population). */
  counter_plans: number;
  /** Work counters over those plans ({@link COUNTER_NAMES} order; empty when none). */
  counters: CounterRow[];
  /** Work counters per final tier, ascending (tiers without counters left out). */
  counters_by_tier: TierCountersRow[];
  /** Successful plans whose line carried the "other" breakdown. */
  other_plans: number;
  /** "Other" broken down: every sub-stage, then `unattributed` (empty when no plan had it). */
  other_stages: OtherStageRow[];
  /** Σ unattributed / Σ total over those plans (null when none). */
  other_unattributed_share: number | null;
}

/** The stats report (`navscope stats --json`). */
export interface StatsReport extends StatsBody {
  /**
   * Plan records read, before any filter (navscope plan lines). 0: the logs carry no tier,
   * window, reason or stage time at all (MaaEnd navigator logs), so those tables are "not in
   * these logs" (src/analyze/stats_source.ts), not empty.
   */
  plan_records: number;
  /** Lines the log parser could not read. */
  unparsed_lines: number;
  /** Inputs that could not be read (or whose gzip broke). */
  file_problems: Array<{ file: string; error: string }>;
  /** Per-zone bodies (only with `--by zone`), sorted by zone. */
  zones?: Array<{ zone: string } & StatsBody>;
  /** Legs planned and failed (present when the logs have navigation runs or a bundle). */
  legs?: { total: number; failed: number };
  /** Navigation runs, when the logs have them (see classify). */
  runs?: { total: number; failed: number; open: number; with_failed_legs: number };
  /** The bundles read; absent for loose logs. */
  bundles?: BundleFacts[];
}

/** Rounds to 1e-3 so sums print without float noise; NaN becomes null. */
export function round3(v: number): number | null {
  if (Number.isNaN(v)) return null;
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

class TierAcc {
  total = new SampleColumn();
  other = new SampleColumn();
  buckets = [0, 0, 0, 0];
  counters = new CounterSamples();
}

function nullIfNaN(v: number): number | null {
  return Number.isNaN(v) ? null : v;
}

/**
 * Work-counter samples of a plan population: one flat column per counter. Add the records to
 * aggregate (the caller picks them: stats takes the successful ones); records without counters
 * are skipped. The aggregation `stats`, `diff` and `report` share.
 */
export class CounterSamples {
  private readonly cols = COUNTER_NAMES.map(() => new SampleColumn());
  /** Plans added that carried counters. */
  plans = 0;

  /** Adds one record's counters (none: skipped). */
  add(r: PlanRecord): void {
    const c = r.counters;
    if (!c) return;
    this.plans++;
    for (let i = 0; i < COUNTER_NAMES.length; i++) this.cols[i].push(c[COUNTER_NAMES[i]]);
  }

  /** One row per counter ({@link COUNTER_NAMES} order); empty when no plan carried counters. */
  rows(): CounterRow[] {
    if (this.plans === 0) return [];
    return COUNTER_NAMES.map((counter, i) => {
      const s = this.cols[i].summary();
      return {
        counter,
        sum: s.sum,
        p50: nullIfNaN(s.p50),
        p90: nullIfNaN(s.p90),
        max: nullIfNaN(s.max),
      };
    });
  }
}

/**
 * "Other" breakdown samples: one column per sub-stage and one for the unattributed remainder
 * (total − the six stages − Σ sub-stages). Records without the breakdown are skipped.
 */
export class OtherSamples {
  private readonly cols = [...OTHER_STAGE_NAMES, UNATTRIBUTED].map(() => new SampleColumn());
  private total = 0;
  private rest = 0;
  /** Plans added that carried the breakdown. */
  plans = 0;

  /** Adds one record's breakdown (none: skipped). */
  add(r: PlanRecord): void {
    const o: OtherTimings | null = r.otherTiming;
    if (!o) return;
    this.plans++;
    const n = OTHER_STAGE_NAMES.length;
    for (let i = 0; i < n; i++) this.cols[i].push(o[OTHER_STAGE_NAMES[i]]);
    const vals = stageValues(r.timing);
    const rest = vals[6] - otherAttributed(o);
    this.cols[n].push(rest);
    this.rest += rest;
    this.total += r.timing.total;
  }

  /** Rows: every sub-stage, then `unattributed`; empty when no plan carried the breakdown. */
  rows(): OtherStageRow[] {
    if (this.plans === 0) return [];
    return [...OTHER_STAGE_NAMES, UNATTRIBUTED].map((stage, i) => {
      const s = this.cols[i].summary();
      return {
        stage,
        sum_ms: round3(s.sum) ?? 0,
        p50_ms: round3(s.p50),
        p90_ms: round3(s.p90),
        max_ms: round3(s.max),
      };
    });
  }

  /** Σ unattributed / Σ total (null when no plan, or no time). */
  unattributedShare(): number | null {
    return this.plans && this.total > 0 ? this.rest / this.total : null;
  }
}

/** The statistics a counter metric can take. */
export const COUNTER_STATS = ["sum", "p50", "p90", "max"] as const;

/**
 * The stats body's cost figures as named metrics (the names `diff` and `nightly` gate on):
 * `counters.<counter>.<sum|p50|p90|max>` (e.g. `counters.topology.pops.p50`),
 * `tier_counters.<tier>.<counter>.<stat>`, `timing.<sub-stage|unattributed>.<sum|p50|p90|max>`
 * and `other_unattributed_share`. Each with its sample count `n`.
 */
export function statsMetrics(b: StatsBody): Map<string, { value: number | null; n: number }> {
  const out = new Map<string, { value: number | null; n: number }>();
  const counterRows = (prefix: string, rows: CounterRow[], n: number) => {
    for (const r of rows) {
      for (const st of COUNTER_STATS) out.set(`${prefix}.${r.counter}.${st}`, { value: r[st], n });
    }
  };
  counterRows("counters", b.counters, b.counter_plans);
  for (const t of b.counters_by_tier) counterRows(`tier_counters.${t.tier}`, t.counters, t.plans);
  for (const r of b.other_stages) {
    out.set(`timing.${r.stage}.sum`, { value: r.sum_ms, n: b.other_plans });
    out.set(`timing.${r.stage}.p50`, { value: r.p50_ms, n: b.other_plans });
    out.set(`timing.${r.stage}.p90`, { value: r.p90_ms, n: b.other_plans });
    out.set(`timing.${r.stage}.max`, { value: r.max_ms, n: b.other_plans });
  }
  out.set("other_unattributed_share", { value: b.other_unattributed_share, n: b.other_plans });
  return out;
}

/** Accumulates plan records of one population. */
export class StatsGroup {
  private plans = 0;
  private failed = 0;
  /** Failures counted by {@link StatsGroup.addFailure}, null while plan records stand in. */
  private failures: number | null = null;
  private tier0Small = 0;
  private readonly tiers = new Map<number, TierAcc>();
  private readonly combos = new Map<string, { reasons: Record<string, number>; plans: number }>();
  private readonly reasonTotals = new Map<string, number>();
  private readonly stages = STAGES.map(() => new SampleColumn());
  private readonly counters = new CounterSamples();
  private readonly others = new OtherSamples();

  /**
   * Counts one failure as classify counts it (a failed leg or a pack-load failure); once called,
   * the body's `failures` are these, not the failed plan records.
   */
  addFailure(): void {
    this.failures = (this.failures ?? 0) + 1;
  }

  /** Switches `failures` to {@link StatsGroup.addFailure}'s count (0 until one is added). */
  countFailures(): void {
    this.failures ??= 0;
  }

  /** Adds one plan record (failed records are only counted). */
  add(r: PlanRecord): void {
    if (!r.ok) {
      this.failed++;
      return;
    }
    this.plans++;
    const t = r.timing;
    let ta = this.tiers.get(r.tier);
    if (!ta) this.tiers.set(r.tier, ta = new TierAcc());
    ta.total.push(t.total);
    ta.other.push(t.total - t.window - t.topology - t.geometry);
    const cells = r.window ? r.window.cells : NaN;
    const b = Number.isNaN(cells)
      ? 3
      : cells <= SMALL_WINDOW_MAX
      ? 0
      : cells <= CAPPED_WINDOW_MAX
      ? 1
      : 2;
    ta.buckets[b]++;
    if (r.tier === 0 && b === 0) this.tier0Small++;
    this.addReasons(r.tierNotes);
    const vals = stageValues(t);
    for (let i = 0; i < vals.length; i++) this.stages[i].push(vals[i]);
    this.counters.add(r);
    ta.counters.add(r);
    this.others.add(r);
  }

  private addReasons(notes: readonly string[]): void {
    // Fast path: most plans finish at tier 0 without notes (spec: 77.6 %).
    if (notes.length === 0) {
      this.bumpCombo("(none)", notes);
      return;
    }
    for (const n of notes) this.reasonTotals.set(n, (this.reasonTotals.get(n) ?? 0) + 1);
    // Key: reasons in code-unit order with their run lengths, e.g. `walk 断开×2 + 搜索碰边×1`.
    const sorted = notes.length === 1 ? notes : [...notes].sort();
    let key = "";
    for (let i = 0; i < sorted.length;) {
      let j = i + 1;
      while (j < sorted.length && sorted[j] === sorted[i]) j++;
      key += (key ? " + " : "") + `${sorted[i]}×${j - i}`;
      i = j;
    }
    this.bumpCombo(key, sorted);
  }

  private bumpCombo(key: string, sorted: readonly string[]): void {
    const c = this.combos.get(key);
    if (c) {
      c.plans++;
      return;
    }
    const reasons: Record<string, number> = {};
    for (const n of sorted) reasons[n] = (reasons[n] ?? 0) + 1;
    this.combos.set(key, { reasons, plans: 1 });
  }

  /** The statistics of the plans added so far. */
  body(): StatsBody {
    const tiersSorted = [...this.tiers.keys()].sort((a, b) => a - b);
    const tiers: TierRow[] = tiersSorted.map((tier) => {
      const a = this.tiers.get(tier)!;
      const s = a.total.summary();
      return {
        tier,
        count: s.count,
        total_ms: { p50: round3(s.p50), p90: round3(s.p90), max: round3(s.max) },
        other_ms_p50: round3(a.other.summary().p50),
      };
    });
    const reasonNames = [...this.reasonTotals].sort((a, b) =>
      b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
    ).map(([k]) => k);
    const reasons: ReasonRow[] = [...this.combos].map(([key, c]) => ({
      reasons: c.reasons,
      key,
      plans: c.plans,
    }));
    reasons.sort((a, b) => b.plans - a.plans || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const window_buckets = tiersSorted.map((tier) => {
      const b = this.tiers.get(tier)!.buckets;
      return { tier, le_2_9m: b[0], from_2_9m_to_3m: b[1], gt_3m: b[2], unknown: b[3] };
    });
    const stages: StageRow[] = STAGES.map((stage, i) => {
      const s = this.stages[i].summary();
      return { stage, sum_ms: round3(s.sum) ?? 0, p50_ms: round3(s.p50), max_ms: round3(s.max) };
    });
    const tier0 = this.tiers.get(0)?.total.length ?? 0;
    return {
      plans: this.plans,
      failed_excluded: this.failed,
      failures: this.failures ?? this.failed,
      // A share over zero plans is no figure at all (issue 53): null, printed "n/a".
      tier0_share: this.plans ? tier0 / this.plans : null,
      tier0_small_share: this.plans ? this.tier0Small / this.plans : null,
      tiers,
      reason_names: reasonNames,
      reasons,
      window_buckets,
      stages,
      counter_plans: this.counters.plans,
      counters: this.counters.rows(),
      counters_by_tier: tiersSorted.flatMap((tier) => {
        const c = this.tiers.get(tier)!.counters;
        return c.plans ? [{ tier, plans: c.plans, counters: c.rows() }] : [];
      }),
      other_plans: this.others.plans,
      other_stages: this.others.rows(),
      other_unattributed_share: this.others.unattributedShare(),
    };
  }
}

/** Filters applied before counting (`--since`, `--until`, `--zone`). */
export interface StatsFilter {
  /** Keep plans at or after this naive epoch ms. */
  since?: number;
  /** Keep plans strictly before this naive epoch ms. */
  until?: number;
  /** Keep only these zones. */
  zones?: readonly string[];
}

/** True when a plan passes the filter. Undated plans fail any time bound. */
export function passes(f: StatsFilter, zone: string, time: number): boolean {
  if (f.zones && f.zones.length && !f.zones.includes(zone)) return false;
  if (f.since !== undefined && !(time >= f.since)) return false;
  if (f.until !== undefined && !(time < f.until)) return false;
  return true;
}

/** Accumulates plans into a {@link StatsReport}, optionally per zone. */
export class StatsAccumulator {
  private readonly all = new StatsGroup();
  private readonly zones = new Map<string, StatsGroup>();

  /** @param filter what to keep; @param byZone also keep per-zone groups. */
  constructor(readonly filter: StatsFilter = {}, readonly byZone = false) {}

  /**
   * Counts one failure (classify's: a failed leg or pack-load failure) of `zone` at `time` if it
   * passes the filter. After the first call (or {@link StatsAccumulator.countFailures}) the
   * report's `failures` are these.
   */
  addFailure(zone: string, time: number): boolean {
    if (!passes(this.filter, zone, time)) return false;
    this.all.addFailure();
    if (this.byZone) this.zoneGroup(zone).addFailure();
    return true;
  }

  /** Makes `failures` count {@link StatsAccumulator.addFailure} calls only (0 when none). */
  countFailures(): void {
    this.all.countFailures();
    this.failureCounting = true;
  }

  private failureCounting = false;

  private zoneGroup(zone: string): StatsGroup {
    let g = this.zones.get(zone);
    if (!g) {
      this.zones.set(zone, g = new StatsGroup());
      if (this.failureCounting) g.countFailures();
    }
    return g;
  }

  private seen = 0;

  /** Adds one plan if it passes the filter; returns whether it was kept. */
  add(r: PlanRecord, time: number): boolean {
    this.seen++;
    if (!passes(this.filter, r.zone, time)) return false;
    this.all.add(r);
    if (this.byZone) this.zoneGroup(r.zone).add(r);
    return true;
  }

  /** The report. */
  report(
    unparsedLines = 0,
    fileProblems: Array<{ file: string; error: string }> = [],
  ): StatsReport {
    const out: StatsReport = {
      ...this.all.body(),
      plan_records: this.seen,
      unparsed_lines: unparsedLines,
      file_problems: fileProblems,
    };
    if (this.byZone) {
      out.zones = [...this.zones.keys()].sort().map((zone) => ({
        zone,
        ...this.zones.get(zone)!.body(),
      }));
    }
    return out;
  }
}
