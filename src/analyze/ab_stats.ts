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

/** Verdict of one stage. */
export type AbVerdict = "slower" | "faster" | "same" | "too few legs";

/** One stage's comparison. */
export interface AbStageRow {
  /** Stage name (window … total). */
  stage: string;
  /** Legs counted (both versions planned them and the stage took ≥ the floor on one side). */
  legs: number;
  /** Median over legs of the per-leg median ratio current / ref (NaN when no legs). */
  ratio: number;
  /** Bootstrap interval of {@link AbStageRow.ratio}. */
  ci: [number, number];
  /** Median ref and current stage times over legs and rounds, ms. */
  ref_ms: number;
  /** Median current stage time, ms. */
  current_ms: number;
  /** The verdict. */
  verdict: AbVerdict;
}

/** Options of {@link compareStage}. */
export interface AbJudgeOptions extends BootstrapOptions {
  /** Smallest slowdown that counts (0.10 = 10 %; default 0.10). */
  threshold?: number;
  /** A leg counts for a stage only when its median time on either side is ≥ this (ms; 1). */
  floorMs?: number;
  /** Fewest legs for a verdict (default 3). */
  minLegs?: number;
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
 * Compares one stage. `pairs[leg][round]` is the leg's paired times in that round:
 * [ref ms, cur ms] (undefined: not measured in that round).
 */
export function compareStage(
  stage: string,
  pairs: ReadonlyArray<ReadonlyArray<readonly [number, number] | undefined>>,
  opts: AbJudgeOptions = {},
): AbStageRow {
  const { threshold = 0.1, floorMs = 1, minLegs = 3 } = opts;
  const nRounds = Math.max(0, ...pairs.map((p) => p.length));
  const rows: Float64Array[] = [];
  const refAll: number[] = [], curAll: number[] = [];
  for (const rounds of pairs) {
    const got = rounds.filter((p): p is readonly [number, number] => p !== undefined);
    if (got.length === 0) continue;
    const ref = median(got.map((p) => p[0])), cur = median(got.map((p) => p[1]));
    // Sub-millisecond stages are timer noise, not work: left out (docs/gate.md).
    if (Math.max(ref, cur) < floorMs) continue;
    const row = new Float64Array(nRounds).fill(NaN);
    rounds.forEach((p, k) => {
      if (p && p[0] > 0) row[k] = p[1] / p[0];
    });
    if (row.every(Number.isNaN)) continue;
    rows.push(row);
    for (const p of got) {
      refAll.push(p[0]);
      curAll.push(p[1]);
    }
  }
  const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
  const ratio = rows.length ? medianOfLegMedians(rows, all(rows.length), all(nRounds)) : NaN;
  const ci = crossedBootstrapCI(rows, nRounds, opts);
  let verdict: AbVerdict = "same";
  if (rows.length < minLegs) verdict = "too few legs";
  else if (ratio > 1 + threshold && ci[0] > 1) verdict = "slower";
  else if (ratio < 1 / (1 + threshold) && ci[1] < 1) verdict = "faster";
  return {
    stage,
    legs: rows.length,
    ratio,
    ci,
    ref_ms: median(refAll),
    current_ms: median(curAll),
    verdict,
  };
}
