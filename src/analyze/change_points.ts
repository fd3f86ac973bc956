/**
 * Change points in one metric series: E-divisive means (Matteson & James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data", JASA 109(505), 2014), the
 * method Apache Otava (formerly Hunter; Fleming et al., ICPE 2023) and MongoDB's CI (Daly et
 * al., ICPE 2020) run on performance series. Pure typed-array code, no I/O.
 *
 * For a segment x[a..b) and a split τ the divergence is (α = 1)
 *
 *   Q(τ) = (m·k/(m+k)) · ( 2/(m·k)·Σ|xᵢ−yⱼ| − Σ_{i<j}|xᵢ−xⱼ|/C(m,2) − Σ_{i<j}|yᵢ−yⱼ|/C(k,2) )
 *
 * with x the m values left of τ and y the k values right of it (the paper's Ê scaled by
 * m·k/(m+k)). The within-sums for every τ come from two running Fenwick trees over the values'
 * ranks, so one scan is O(n log n) rather than the paper's O(n²).
 *
 * Significance (the paper's §3.1 permutation test): the segment is shuffled `permutations`
 * times with a seeded RNG (src/rng.ts, so results repeat exactly) and p = (1 + #{max Q of a
 * shuffle ≥ observed}) / (1 + permutations). A split is kept when p ≤ `alpha`; the search then
 * recurses into both sides (the paper's hierarchical bisection). Under pure noise
 * (exchangeable values) the test's level is exact, so a noise-only series yields a false alarm
 * with probability ≤ `alpha` at its first test; the minimum magnitude then drops steps too small
 * to matter (relative change of the segment means below `minRelative`, or absolute below
 * `minAbsolute`), re-fitting after each drop. A constant series never splits (every Q is 0).
 * @module
 */
import { mulberry32 } from "../rng.ts";

/** Options of {@link changePoints}. */
export interface ChangePointOptions {
  /** Significance level of the permutation test (default 0.01). */
  alpha?: number;
  /** Shuffles per test (default 199: p can reach 0.005). */
  permutations?: number;
  /** Fewest values on each side of a split (default 3: one outlier night never makes a segment). */
  minSize?: number;
  /** Smallest |after − before| / |before| reported (default 0.05). */
  minRelative?: number;
  /** Smallest |after − before| reported (default 0). */
  minAbsolute?: number;
  /** RNG seed of the shuffles (default 1). */
  seed?: number;
}

/** One change point. */
export interface ChangePoint {
  /** Index of the first value after the change. */
  index: number;
  /** Mean of the segment before. */
  before: number;
  /** Mean of the segment after. */
  after: number;
  /** after − before. */
  delta: number;
  /** (after − before) / |before| (Infinity when before is 0 and after is not). */
  relative: number;
  /** Permutation p-value of the split when it was found. */
  p: number;
}

const DEFAULTS: Required<ChangePointOptions> = {
  alpha: 0.01,
  permutations: 199,
  minSize: 3,
  minRelative: 0.05,
  minAbsolute: 0,
  seed: 1,
};

/** Scratch buffers reused across scans of one series. */
class Scratch {
  order: Int32Array;
  rank: Int32Array;
  cnt: Float64Array;
  sum: Float64Array;
  left: Float64Array;
  right: Float64Array;
  constructor(n: number) {
    this.order = new Int32Array(n);
    this.rank = new Int32Array(n);
    this.cnt = new Float64Array(n + 1);
    this.sum = new Float64Array(n + 1);
    this.left = new Float64Array(n + 1);
    this.right = new Float64Array(n + 1);
  }
}

/** Fills s.rank with the ranks (0-based, ties broken by position) of x[0..n). */
function ranks(x: Float64Array, n: number, s: Scratch): void {
  const o = s.order.subarray(0, n);
  for (let i = 0; i < n; i++) o[i] = i;
  o.sort((a, b) => x[a] - x[b] || a - b);
  for (let i = 0; i < n; i++) s.rank[o[i]] = i;
}

/**
 * Running within-set distance sums: out[t] = Σ_{i<j<t}|x_{π(i)}−x_{π(j)}| over the first t
 * values of the visiting order (forward when step = 1, from the end when step = −1).
 */
function withinSums(x: Float64Array, n: number, s: Scratch, out: Float64Array, fwd: boolean) {
  s.cnt.fill(0, 0, n + 1);
  s.sum.fill(0, 0, n + 1);
  let total = 0, totalCnt = 0, acc = 0;
  out[0] = 0;
  for (let t = 0; t < n; t++) {
    const i = fwd ? t : n - 1 - t;
    const v = x[i];
    // Count and sum of the values already added with a smaller rank (Fenwick prefix query).
    let c = 0, sm = 0;
    for (let r = s.rank[i]; r > 0; r -= r & -r) {
      c += s.cnt[r];
      sm += s.sum[r];
    }
    acc += v * c - sm + (total - sm) - v * (totalCnt - c);
    for (let r = s.rank[i] + 1; r <= n; r += r & -r) {
      s.cnt[r] += 1;
      s.sum[r] += v;
    }
    total += v;
    totalCnt++;
    out[t + 1] = acc;
  }
}

/** Best split of x[0..n): [τ, Q(τ)], τ = −1 when no split leaves minSize on both sides. */
function bestSplit(x: Float64Array, n: number, minSize: number, s: Scratch): [number, number] {
  if (n < 2 * minSize) return [-1, 0];
  ranks(x, n, s);
  withinSums(x, n, s, s.left, true);
  withinSums(x, n, s, s.right, false);
  const all = s.left[n];
  let best = -1, bestQ = -Infinity;
  for (let t = minSize; t <= n - minSize; t++) {
    const m = t, k = n - t;
    const wl = s.left[m], wr = s.right[k];
    const cross = all - wl - wr;
    const e = (2 * cross) / (m * k) - wl / ((m * (m - 1)) / 2 || 1) -
      wr / ((k * (k - 1)) / 2 || 1);
    const q = ((m * k) / (m + k)) * e;
    if (best < 0 || q > bestQ + 1e-12 * Math.abs(bestQ)) {
      bestQ = q;
      best = t;
    }
  }
  return [best, bestQ];
}

/** Permutation p-value of the best split of seg (stops early once it cannot reach alpha). */
function permutationP(
  seg: Float64Array,
  q: number,
  o: Required<ChangePointOptions>,
  rand: () => number,
  s: Scratch,
): number {
  const n = seg.length;
  const buf = Float64Array.from(seg);
  const give = Math.floor(o.alpha * (o.permutations + 1)) - 1; // exceedances allowed
  let hits = 0;
  for (let r = 0; r < o.permutations; r++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = buf[i];
      buf[i] = buf[j];
      buf[j] = t;
    }
    const [, pq] = bestSplit(buf, n, o.minSize, s);
    if (pq >= q - 1e-9 * Math.abs(q)) {
      hits++;
      if (hits > give) return 1; // not significant whatever the rest would say
    }
  }
  return (1 + hits) / (1 + o.permutations);
}

function mean(x: Float64Array, a: number, b: number): number {
  let s = 0;
  for (let i = a; i < b; i++) s += x[i];
  return s / (b - a);
}

/**
 * Change points of one series (values in run order), earliest first. Deterministic: the same
 * series and options give the same answer on every machine.
 */
export function changePoints(
  series: ArrayLike<number>,
  options: ChangePointOptions = {},
): ChangePoint[] {
  const o = { ...DEFAULTS, ...options };
  const x = Float64Array.from(series);
  const n = x.length;
  const out: Array<{ index: number; p: number }> = [];
  if (n < 2 * o.minSize) return [];
  let constant = true;
  for (let i = 1; i < n && constant; i++) constant = x[i] === x[0];
  if (constant) return [];
  const rand = mulberry32(o.seed);
  const s = new Scratch(n);
  const stack: Array<[number, number]> = [[0, n]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const seg = x.subarray(a, b);
    const [t, q] = bestSplit(seg, b - a, o.minSize, s);
    if (t < 0 || !(q > 0)) continue;
    const p = permutationP(seg, q, o, rand, s);
    if (p > o.alpha) continue;
    out.push({ index: a + t, p });
    stack.push([a + t, b], [a, a + t]);
  }
  out.sort((u, v) => u.index - v.index);
  // Minimum magnitude: drop the smallest step below it, re-measure its neighbours, repeat.
  for (;;) {
    const cps = measure(x, out);
    let worst = -1, worstRel = Infinity;
    cps.forEach((c, i) => {
      const small = Math.abs(c.delta) < o.minAbsolute || Math.abs(c.relative) < o.minRelative;
      if (small && Math.abs(c.relative) < worstRel) {
        worst = i;
        worstRel = Math.abs(c.relative);
      }
    });
    if (worst < 0) return cps;
    out.splice(worst, 1);
  }
}

function measure(x: Float64Array, cps: Array<{ index: number; p: number }>): ChangePoint[] {
  return cps.map((c, i) => {
    const a = i === 0 ? 0 : cps[i - 1].index;
    const b = i === cps.length - 1 ? x.length : cps[i + 1].index;
    const before = mean(x, a, c.index), after = mean(x, c.index, b);
    const delta = after - before;
    const relative = before === 0 ? (delta === 0 ? 0 : Infinity) : delta / Math.abs(before);
    return { index: c.index, before, after, delta, relative, p: c.p };
  });
}
