/**
 * Statistics of an A/B timing comparison (`nightly --ab`): paired per-leg time ratios, their
 * median and a percentile-bootstrap confidence interval with a fixed seed, and the verdict.
 *
 * Why this design (docs/gate.md "nightly --ab"):
 * - Paired ratios: both versions plan the same leg in the same round, back to back, on the
 *   same machine, so machine drift and the leg's own cost cancel in cur / ref.
 * - Per leg, the median ratio over the rounds (robust to one descheduled run on a shared
 *   machine); across legs, the median of those (robust to one leg that happened to be noisy).
 * - The interval: a crossed percentile bootstrap that resamples legs AND rounds with
 *   replacement (a round's two runs share the machine's mood of that moment, so its legs are
 *   not independent; resampling legs only would call a burst of neighbour load significant).
 *   A fixed seed (mulberry32) makes the verdict a pure function of the measured times. A
 *   bootstrap, not a sign test: it gives an interval on the effect size (the ratio), which is
 *   what hyperfine and asv report, not only a p-value.
 * - The verdict, asv `continuous` style: slower only when the median ratio exceeds
 *   1 + threshold AND the whole interval lies above 1 (statistically significant); faster
 *   symmetric; everything else "same".
 * @module
 */
import { mulberry32 } from "../rng.ts";

/** Median of a sample (mean of the two middle values for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
}

/** Options of {@link crossedBootstrapCI}. */
export interface BootstrapOptions {
  /** Resamples (default 2000). */
  resamples?: number;
  /** Two-sided confidence level (default 0.95). */
  confidence?: number;
  /** PRNG seed (default 1). */
  seed?: number;
}

/** Verdict of one stage (docs/gate.md "The verdict rule"). */
export type AbVerdict = "slower" | "faster" | "same" | "not measurable here" | "too few legs";

/** The paired times of one stage: `pairs[leg][round]` = [ref ms, other ms] (undefined: missing). */
export type StagePairs = ReadonlyArray<ReadonlyArray<readonly [number, number] | undefined>>;

/**
 * A composite stage: its parts' paired times (`total`: the seven stages window … other, whose
 * sum it is). Per leg each side's cost is the sum of its parts' fast-half means (docs/gate.md
 * step 5): a preemption spike lands in one part of one run, and each part's fast half drops it,
 * where the fast half of the sums keeps every run that a spike hit anywhere.
 */
export interface CompositePairs {
  /** The parts, each `pairs[leg][round]` as {@link StagePairs}. */
  parts: readonly StagePairs[];
}

/** A stage's paired times, or a composite stage's parts. */
export type StageInput = StagePairs | CompositePairs;

/** One stage's ratio other / ref: the statistic and its interval, before any verdict. */
export interface RatioSummary {
  /** Legs counted (both sides planned them and the stage took ≥ the floor on one side). */
  legs: number;
  /** Median over legs of the per-leg ratio of fast-half means, other / ref (NaN: no legs). */
  ratio: number;
  /** Bootstrap interval of the ratio. */
  ci: [number, number];
  /** Median over legs of the per-leg difference of fast-half means other − ref, ms. */
  diff_ms: number;
  /** The per-leg differences themselves (the counted legs), ms. */
  leg_diffs: number[];
  /** Bootstrap interval of {@link RatioSummary.diff_ms} (the same resamples as `ci`). */
  diff_ci: [number, number];
  /** Median ref stage time over legs and rounds, ms. */
  ref_ms: number;
  /** Median other stage time over legs and rounds, ms. */
  other_ms: number;
}

/** One stage's comparison. */
export interface AbStageRow {
  /** Stage name (window … total). */
  stage: string;
  /** Legs counted (both versions planned them and the stage took ≥ the floor on one side). */
  legs: number;
  /** Median over legs of the per-leg ratio of fast-half means, current / ref (NaN: no legs). */
  ratio: number;
  /** Bootstrap interval of {@link AbStageRow.ratio}. */
  ci: [number, number];
  /** Median ref stage time over legs and rounds, ms. */
  ref_ms: number;
  /** Median current stage time, ms. */
  current_ms: number;
  /** Median over legs of the per-leg difference of medians current − ref, ms. */
  diff_ms: number;
  /** Bootstrap interval of {@link AbStageRow.diff_ms}, ms. */
  diff_ci: [number, number];
  /** The A/A calibration (ref against ref in the same rounds): its ratio. */
  aa_ratio: number;
  /** The A/A interval. */
  aa_ci: [number, number];
  /**
   * This machine's noise for the stage: how far from 1 the A/A comparison reached, as a
   * fraction (max of the A/A interval's ends and ratio, in either direction, minus 1; Infinity
   * when the A/A had too few legs). An A/B ratio must lie beyond 1 + noise to be judged.
   */
  noise: number;
  /**
   * The same noise in milliseconds: how far the A/A median difference or its interval reached
   * from 0 (Infinity when the A/A had too few legs). A slower verdict needs a difference beyond
   * it; a stage whose noise stays under the absolute floor can show every change that counts.
   */
  noise_ms: number;
  /** Smallest absolute difference that counts for this stage, ms (the floor rule). */
  min_diff_ms: number;
  /** The verdict. */
  verdict: AbVerdict;
}

/** Options of {@link compareStage}. */
export interface AbJudgeOptions extends BootstrapOptions {
  /** Smallest relative change that counts (0.10 = 10 %; default 0.10). */
  threshold?: number;
  /** A leg counts for a stage only when its median time on either side is ≥ this (ms; 1). */
  floorMs?: number;
  /** Smallest median absolute difference that counts, ms (default 2). */
  minDiffMs?: number;
  /** Smallest absolute difference as a share of the median total time (default 0.05). */
  minTotalShare?: number;
  /** Fewest legs for a verdict (default 3). */
  minLegs?: number;
  /**
   * Rounds repeat their run order every `period` rounds (3 for abCompare's roundOrder; default
   * 1): the bootstrap draws each round among the rounds of the same order.
   */
  period?: number;
}

/**
 * The statistic of a ratio matrix: per leg the median over its rounds, then the median over
 * legs. `rows[leg][round]` is cur / ref (NaN: not measured); `legs` and `rounds` pick (with
 * repetition) which rows and columns count.
 */
function medianOfLegMedians(
  rows: ReadonlyArray<ArrayLike<number>>,
  legs: ArrayLike<number>,
  rounds: ArrayLike<number>,
): number {
  const perLeg: number[] = [];
  const buf: number[] = [];
  for (let i = 0; i < legs.length; i++) {
    const row = rows[legs[i]];
    buf.length = 0;
    for (let k = 0; k < rounds.length; k++) {
      const v = row[rounds[k]];
      if (!Number.isNaN(v)) buf.push(v);
    }
    if (buf.length) perLeg.push(median(buf));
  }
  return median(perLeg);
}

/**
 * Crossed (two-way) percentile bootstrap of {@link medianOfLegMedians}: each resample draws the
 * legs AND the rounds with replacement. Legs alone are not independent: one run of a version
 * that a neighbour slowed down slows every leg of that round, so the rounds must be resampled
 * too or such a burst would look significant. Fixed seed: the same times give the same interval.
 */
export function crossedBootstrapCI(
  rows: ReadonlyArray<ArrayLike<number>>,
  nRounds: number,
  opts: BootstrapOptions = {},
): [number, number] {
  const { resamples = 2000, confidence = 0.95, seed = 1 } = opts;
  if (rows.length === 0 || nRounds === 0) return [NaN, NaN];
  const rnd = mulberry32(seed);
  const stats: number[] = [];
  const legs = new Int32Array(rows.length), rounds = new Int32Array(nRounds);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < legs.length; i++) legs[i] = Math.floor(rnd() * rows.length);
    for (let k = 0; k < nRounds; k++) rounds[k] = Math.floor(rnd() * nRounds);
    const m = medianOfLegMedians(rows, legs, rounds);
    if (!Number.isNaN(m)) stats.push(m);
  }
  if (stats.length === 0) return [NaN, NaN];
  stats.sort((x, y) => x - y);
  const q = (p: number) =>
    stats[Math.min(stats.length - 1, Math.max(0, Math.ceil(p * stats.length) - 1))];
  return [q((1 - confidence) / 2), q((1 + confidence) / 2)];
}

/**
 * A side's time of one leg from its rounds: the mean of the faster half (at least one; 3 rounds:
 * the fastest, 9: the mean of the fastest 4). On a shared machine timing noise only ever adds
 * time (a neighbour's burst, a descheduled moment, a GC pause from another isolate), so the slow
 * rounds are where the noise is and the fast half measures the planner's cost: on the 2-core box
 * under a CPU hog the A/A ratio of `total` stayed within 3 % over 7 sessions of 9 rounds with it
 * and reached 7.5 % with the median (issue 37, docs/gate.md). The price: a slowdown that strikes
 * fewer than half of the rounds is not seen.
 */
export function fastHalfMean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  const v = Float64Array.from(xs).sort();
  const k = Math.max(1, Math.floor(n / 2));
  let sum = 0;
  for (let i = 0; i < k; i++) sum += v[i];
  return sum / k;
}

/**
 * {@link fastHalfMean} of a scratch array, sorting it in place (insertion sort: a leg has a few
 * rounds, and the bootstrap calls this 2000 × legs × parts times per stage).
 */
function fastHalfMeanInPlace(v: number[]): number {
  for (let i = 1; i < v.length; i++) {
    const x = v[i];
    let j = i - 1;
    for (; j >= 0 && v[j] > x; j--) v[j + 1] = v[j];
    v[j + 1] = x;
  }
  const k = Math.max(1, Math.floor(v.length / 2));
  let sum = 0;
  for (let i = 0; i < k; i++) sum += v[i];
  return sum / k;
}

/**
 * One leg's cost on each side over the rounds `rounds` picks: per part (a stage, or the parts of
 * a composite), each side's {@link fastHalfMean} over the rounds where both sides were measured,
 * summed over the parts. [NaN, NaN] when no part has a measured round. Per side first, then the
 * comparison: with the run order rotating through the slots of a round (src/jobs/ab.ts
 * roundOrder), every side's rounds see the same slots, so an order effect cancels, and one
 * descheduled run is one slow sample of one side, which its fast half discards.
 */
function legCost(
  ref: ReadonlyArray<ArrayLike<number>>,
  other: ReadonlyArray<ArrayLike<number>>,
  rounds: ArrayLike<number>,
  a: number[],
  b: number[],
): [number, number] {
  let x = 0, y = 0, any = false;
  for (let p = 0; p < ref.length; p++) {
    const u0 = ref[p], v0 = other[p];
    a.length = 0;
    b.length = 0;
    for (let k = 0; k < rounds.length; k++) {
      const u = u0[rounds[k]], v = v0[rounds[k]];
      if (!Number.isNaN(u) && !Number.isNaN(v)) {
        a.push(u);
        b.push(v);
      }
    }
    if (a.length === 0) continue;
    any = true;
    x += fastHalfMeanInPlace(a);
    y += fastHalfMeanInPlace(b);
  }
  return any ? [x, y] : [NaN, NaN];
}

/**
 * Per leg the {@link legCost} of each side, then their ratio other / ref (`diff`: difference
 * other − ref, ms); the median of those over legs. `ref[leg][part][round]`,
 * `other[leg][part][round]` (NaN: not measured); `legs` and `rounds` pick (with repetition)
 * which legs and rounds count.
 */
function medianSide(
  ref: ReadonlyArray<ReadonlyArray<ArrayLike<number>>>,
  other: ReadonlyArray<ReadonlyArray<ArrayLike<number>>>,
  legs: ArrayLike<number>,
  rounds: ArrayLike<number>,
  diff: boolean,
): number {
  const perLeg: number[] = [];
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < legs.length; i++) {
    const [x, y] = legCost(ref[legs[i]], other[legs[i]], rounds, a, b);
    if (Number.isNaN(x)) continue;
    if (diff) perLeg.push(y - x);
    else if (x > 0) perLeg.push(y / x);
  }
  return median(perLeg);
}

/**
 * The ratio other / ref of one stage's paired times, with its crossed-bootstrap interval.
 */
export function summarizeRatio(
  pairs: StageInput,
  opts: { floorMs?: number; period?: number } & BootstrapOptions = {},
): RatioSummary {
  const { floorMs = 1, resamples = 2000, confidence = 0.95, seed = 1, period = 1 } = opts;
  const parts = asParts(pairs);
  const nLegs = Math.max(0, ...parts.map((p) => p.length));
  const nRounds = Math.max(0, ...parts.flatMap((p) => p.map((r) => r.length)));
  const refRows: Float64Array[][] = [], curRows: Float64Array[][] = [];
  const refAll: number[] = [], curAll: number[] = [], diffs: number[] = [];
  const all = (k: number) => Int32Array.from({ length: k }, (_, i) => i);
  for (let li = 0; li < nLegs; li++) {
    const a = parts.map(() => new Float64Array(nRounds).fill(NaN));
    const b = parts.map(() => new Float64Array(nRounds).fill(NaN));
    parts.forEach((part, pi) =>
      (part[li] ?? []).forEach((p, k) => {
        if (p) {
          a[pi][k] = p[0];
          b[pi][k] = p[1];
        }
      })
    );
    const [ref, cur] = legCost(a, b, all(nRounds), [], []);
    // Sub-millisecond stages are timer noise, not work: left out (docs/gate.md). Judged on
    // each side's fastest run (per part, summed): noise only adds time, and a 0.5-ms stage
    // that preemption spikes pushed past 1 ms in half the runs is still a 0.5-ms stage.
    if (Number.isNaN(ref) || Math.max(fastest(a), fastest(b)) < floorMs || !(ref > 0)) continue;
    refRows.push(a);
    curRows.push(b);
    diffs.push(cur - ref);
    // The median times: a composite's per round sums (rounds where every part was measured).
    for (let k = 0; k < nRounds; k++) {
      let x = 0, y = 0;
      for (let pi = 0; pi < parts.length; pi++) (x += a[pi][k]), (y += b[pi][k]);
      if (!Number.isNaN(x) && !Number.isNaN(y)) refAll.push(x), curAll.push(y);
    }
  }
  const n = refRows.length;
  let ci: [number, number] = [NaN, NaN], diffCi: [number, number] = [NaN, NaN];
  if (n > 0 && nRounds > 0) {
    // Crossed bootstrap: legs AND rounds drawn with replacement (see crossedBootstrapCI).
    // Round k is drawn among the rounds of its slot order (k mod period), so that every
    // resample keeps each side in each slot equally often and an order effect still cancels.
    const strata = Array.from(
      { length: period },
      (_, c) => Array.from({ length: nRounds }, (_, k) => k).filter((k) => k % period === c),
    );
    const rnd = mulberry32(seed);
    const stats: number[] = [], dstats: number[] = [];
    const legs = new Int32Array(n), rounds = new Int32Array(nRounds);
    for (let r = 0; r < resamples; r++) {
      for (let i = 0; i < n; i++) legs[i] = Math.floor(rnd() * n);
      for (let k = 0; k < nRounds; k++) {
        const st = strata[k % period];
        rounds[k] = st[Math.floor(rnd() * st.length)];
      }
      const m = medianSide(refRows, curRows, legs, rounds, false);
      if (!Number.isNaN(m)) stats.push(m);
      const d = medianSide(refRows, curRows, legs, rounds, true);
      if (!Number.isNaN(d)) dstats.push(d);
    }
    const interval = (xs: number[]): [number, number] => {
      xs.sort((x, y) => x - y);
      const q = (p: number) =>
        xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];
      return [q((1 - confidence) / 2), q((1 + confidence) / 2)];
    };
    if (stats.length) ci = interval(stats);
    if (dstats.length) diffCi = interval(dstats);
  }
  return {
    legs: n,
    ratio: n ? medianSide(refRows, curRows, all(n), all(nRounds), false) : NaN,
    ci,
    diff_ms: median(diffs),
    leg_diffs: diffs,
    diff_ci: diffCi,
    ref_ms: median(refAll),
    other_ms: median(curAll),
  };
}

/** Sum over the parts of each part's fastest measured round (parts with none left out). */
function fastest(parts: readonly Float64Array[]): number {
  let sum = 0;
  for (const p of parts) {
    let m = Infinity;
    for (const v of p) if (v < m) m = v;
    if (m < Infinity) sum += m;
  }
  return sum;
}

/** One stage as a one-part composite; a composite's parts. */
function asParts(p: StageInput): readonly StagePairs[] {
  return "parts" in p ? p.parts : [p];
}

/**
 * The noise of an A/A comparison as a fraction: how far its ratio or interval reached from 1,
 * in either direction (1.06 and 0.95 both count as 6 % / 5.3 %). Infinity without a measurement.
 */
export function aaNoise(aa: RatioSummary, minLegs = 3): number {
  if (aa.legs < minLegs || !Number.isFinite(aa.ci[0]) || aa.ci[0] <= 0) return Infinity;
  const far = Math.max(aa.ci[1], 1 / aa.ci[0], aa.ratio, 1 / aa.ratio);
  return far - 1;
}

/**
 * {@link aaNoise} in milliseconds: how far the A/A median difference or its interval reached
 * from 0. Infinity without a measurement.
 */
export function aaNoiseMs(aa: RatioSummary, minLegs = 3): number {
  if (aa.legs < minLegs || !Number.isFinite(aa.diff_ci[0])) return Infinity;
  return Math.max(Math.abs(aa.diff_ci[0]), Math.abs(aa.diff_ci[1]), Math.abs(aa.diff_ms));
}

/**
 * Judges one stage (docs/gate.md "The verdict rule"). `ab[leg][round]` = [ref, current] and
 * `aa[leg][round]` = [ref, ref again] from the same rounds; `totalMs` is the median total time
 * of a leg at ref (the absolute floor is a share of it). SLOWER needs both: the whole interval
 * above 1 + max(threshold, A/A noise), and a median difference ≥ max(minDiffMs, minTotalShare ×
 * totalMs) and beyond the A/A noise in ms. FASTER symmetric. SAME only when the data rule out
 * a change that counts, in either direction: relatively (the interval within 1 ± threshold and
 * the A/A noise under the threshold) or absolutely (the difference's interval within ± the floor
 * and the A/A noise in ms under it) — or when no leg reaches the 1 ms leg floor on either side
 * (the stage is under it everywhere: no change reaches the absolute floor). Otherwise NOT
 * MEASURABLE HERE: this machine cannot tell, right now, whether such a change happened.
 */
export function judgeStage(
  stage: string,
  ab: StageInput,
  aa: StageInput,
  totalMs: number,
  opts: AbJudgeOptions = {},
): AbStageRow {
  const { threshold = 0.1, minDiffMs = 2, minTotalShare = 0.05, minLegs = 3 } = opts;
  const s = summarizeRatio(ab, opts);
  const a = summarizeRatio(aa, opts);
  const noise = aaNoise(a, minLegs), noiseMs = aaNoiseMs(a, minLegs);
  const minDiff = Math.max(minDiffMs, Number.isFinite(totalMs) ? minTotalShare * totalMs : 0);
  const bar = 1 + Math.max(threshold, noise);
  const barMs = Math.max(minDiff, noiseMs);
  // Equivalence, the mirror of the slower rule: the whole interval inside the band that counts.
  const sameRel = noise < threshold && s.ci[1] < 1 + threshold && s.ci[0] > 1 / (1 + threshold);
  const sameAbs = noiseMs < minDiff && s.diff_ci[1] < minDiff && s.diff_ci[0] > -minDiff;
  let verdict: AbVerdict;
  // Few legs reach the leg floor (the rest is under 1 ms on both sides, so under the absolute
  // floor): same when each of those few moved less than the floor, else no verdict. Slower needs
  // the whole interval beyond the bar, not only the ratio: one A/A pair is one draw of this
  // machine's noise, and an A/B ratio just past it is as likely the next draw (docs/gate.md).
  if (s.legs === 0) verdict = "same";
  else if (s.legs < minLegs) {
    verdict = s.leg_diffs.every((d) => Math.abs(d) < minDiff) ? "same" : "too few legs";
  } else if (s.ci[0] > bar && s.diff_ms >= barMs) verdict = "slower";
  else if (s.ci[1] < 1 / bar && -s.diff_ms >= barMs) verdict = "faster";
  else if (sameRel || sameAbs) verdict = "same";
  else verdict = "not measurable here";
  return {
    stage,
    legs: s.legs,
    ratio: s.ratio,
    ci: s.ci,
    ref_ms: s.ref_ms,
    current_ms: s.other_ms,
    diff_ms: s.diff_ms,
    diff_ci: s.diff_ci,
    aa_ratio: a.ratio,
    aa_ci: a.ci,
    noise,
    noise_ms: noiseMs,
    min_diff_ms: minDiff,
    verdict,
  };
}

/**
 * Compares one stage without a calibration (the pre-calibration rule, kept for callers with
 * only A/B pairs): judged as if the A/A had been exact, with the absolute floor taken from the
 * stage's own median time.
 */
export function compareStage(
  stage: string,
  pairs: StagePairs,
  opts: AbJudgeOptions = {},
): AbStageRow {
  const exact = pairs.map((rounds) =>
    rounds.map((p) => (p ? [p[0], p[0]] as [number, number] : undefined))
  );
  return judgeStage(stage, pairs, exact, NaN, opts);
}
