/**
 * Order statistics used by every analytics table.
 *
 * Percentile definition: **nearest rank** on the ascending sort. For n ≥ 1 samples and
 * 0 < p ≤ 100 the p-th percentile is the value at 1-based rank `⌈p/100 · n⌉`; p = 0 gives the
 * minimum. It is always one of the samples (never interpolated), so the tables print the same
 * numbers the logs contain. It matches the spec's 分档实测 table: the tier-8 row has three
 * samples and reports p90 = max (rank ⌈2.7⌉ = 3) and p50 = the middle one (rank ⌈1.5⌉ = 2).
 * An empty sample set has no percentile: the functions return `NaN` and the printers show "-".
 * @module
 */
import { TypedList } from "../util/typed_list.ts";

/** Rank (1-based) of the p-th percentile among n sorted samples, nearest-rank definition. */
export function nearestRank(p: number, n: number): number {
  if (n <= 0) return 0;
  if (!(p > 0)) return 1;
  if (p >= 100) return n;
  // p/100·n in floating point can land a hair above an integer (e.g. 0.29·100 = 29.000000000000004);
  // round to 1e-9 first so ranks of exact products are exact.
  const x = Math.round((p / 100) * n * 1e9) / 1e9;
  return Math.min(n, Math.max(1, Math.ceil(x)));
}

/** The p-th percentile of an ascending-sorted array (nearest rank); `NaN` when empty. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  return sorted[nearestRank(p, n) - 1];
}

/** A sorted copy as a Float64Array (numeric order; NaN samples are dropped). */
export function sortedSamples(values: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) n++;
  const out = new Float64Array(n);
  let j = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) out[j++] = values[i];
  return out.sort();
}

/** The p-th percentile of unsorted values (nearest rank); `NaN` when empty. */
export function percentile(values: ArrayLike<number>, p: number): number {
  return percentileSorted(sortedSamples(values), p);
}

/** Summary of one sample set: count, sum, min, p50, p90, max (nearest rank). */
export interface Summary {
  /** Number of samples. */
  count: number;
  /** Sum of the samples (0 when empty). */
  sum: number;
  /** Smallest sample (`NaN` when empty). */
  min: number;
  /** Median, nearest rank (`NaN` when empty). */
  p50: number;
  /** 90th percentile, nearest rank (`NaN` when empty). */
  p90: number;
  /** Largest sample (`NaN` when empty). */
  max: number;
}

/** Summarises a sample set in one sort. */
export function summarize(values: ArrayLike<number>): Summary {
  const s = sortedSamples(values);
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += s[i];
  const n = s.length;
  return {
    count: n,
    sum,
    min: n ? s[0] : NaN,
    p50: percentileSorted(s, 50),
    p90: percentileSorted(s, 90),
    max: n ? s[n - 1] : NaN,
  };
}

/**
 * A growable column of float64 samples: the stats pass appends one number per plan without
 * allocating a per-record object (ARCHITECTURE: flat data on hot paths).
 */
export class SampleColumn extends TypedList<Float64Array> {
  constructor() {
    super((k) => new Float64Array(k), 64);
  }

  /** Number of samples pushed. */
  get length(): number {
    return this.n;
  }

  /** The samples pushed so far (a view; copy before mutating). */
  values(): Float64Array {
    return this.view();
  }

  /** Summary of the samples pushed so far. */
  summary(): Summary {
    return summarize(this.values());
  }
}
