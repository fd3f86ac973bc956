/**
 * How replay hands its legs to the workers (issue 15).
 *
 * A plain queue in hand-out order (pack, zone, longest logged plan first) keeps each worker's
 * zone cache warm, but it balances badly when a few legs are most of the run. On the generated
 * large world, five whole-map legs of 64–123 s are 96 % of the work, and taking them longest
 * first from one queue splits them 210 / 264 s over two workers where 227 / 247 s is possible.
 *
 * So the heavy legs are split over the workers up front. A heavy leg is one whose logged plan time
 * is at least an eighth of a worker's fair share. They are assigned by longest-processing-time
 * list scheduling and then improved by moves and swaps out of the busiest lane. Each worker runs
 * its own lane, longest first. After that it takes the light legs from the shared queue, in
 * hand-out order, so they fill whatever gap the split left. A worker with nothing left takes the
 * last (shortest) leg of the lane with the most logged time remaining, so a logged time that no
 * longer holds cannot leave a worker idle while legs wait.
 *
 * Only the order of work depends on this; results go back by task index, so the output never
 * does.
 * @module
 */

/** Lanes (heavy tasks per worker, longest first) and the shared queue (hand-out order). */
export interface HandoutPlan {
  /** Per worker, the task indices it runs first. */
  lanes: number[][];
  /** The other task indices, taken by whichever worker is free. */
  shared: number[];
}

/** Share of a worker's fair load from which a task is heavy. */
export const HEAVY_SHARE = 1 / 8;

/** Local-search rounds at most (each strictly lowers the busiest lane). */
const MAX_ROUNDS = 1000;

/**
 * Splits `order` (task indices in hand-out order) into lanes and a shared queue for `jobs`
 * workers; `cost(i)` is task i's logged plan time (≤ 0 or not finite: unknown, never heavy).
 */
export function planHandout(
  order: readonly number[],
  cost: (i: number) => number,
  jobs: number,
): HandoutPlan {
  const n = Math.max(1, Math.floor(jobs));
  const c = (i: number) => loggedCost(cost(i));
  const lanes: number[][] = Array.from({ length: n }, () => []);
  if (n === 1) return { lanes, shared: [...order] };
  let total = 0;
  for (const i of order) total += c(i);
  const floor = (total / n) * HEAVY_SHARE;
  const pos = new Map(order.map((i, k) => [i, k]));
  const byCost = (a: number, b: number) => c(b) - c(a) || pos.get(a)! - pos.get(b)!;
  const heavy = order.filter((i) => c(i) > 0 && c(i) >= floor).sort(byCost);
  if (heavy.length === 0) return { lanes, shared: [...order] };
  const load = new Array<number>(n).fill(0);
  for (const t of heavy) {
    const w = argMin(load);
    lanes[w].push(t);
    load[w] += c(t);
  }
  improve(lanes, load, c);
  for (const lane of lanes) lane.sort(byCost);
  const isHeavy = new Set(heavy);
  return { lanes, shared: order.filter((i) => !isHeavy.has(i)) };
}

/** A logged plan time as the hand-out counts it: unknown (not finite, ≤ 0) is 0. */
export function loggedCost(v: number): number {
  return Number.isFinite(v) && v > 0 ? v : 0;
}

function argMin(v: readonly number[]): number {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (v[i] < v[k]) k = i;
  return k;
}

function argMax(v: readonly number[]): number {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (v[i] > v[k]) k = i;
  return k;
}

/**
 * Moves one task out of the busiest lane, or swaps it for a shorter one of another lane, while
 * that lowers the larger of the two lanes' loads; the best such change each round (first lane,
 * then first task, on ties).
 */
function improve(lanes: number[][], load: number[], c: (i: number) => number): void {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const hi = argMax(load);
    let best = load[hi], bw = -1, bt = -1, bu = -1;
    for (let w = 0; w < lanes.length; w++) {
      if (w === hi) continue;
      for (let ti = 0; ti < lanes[hi].length; ti++) {
        const ct = c(lanes[hi][ti]);
        // A move: the task alone.
        const mv = Math.max(load[hi] - ct, load[w] + ct);
        if (mv < best) [best, bw, bt, bu] = [mv, w, ti, -1];
        for (let ui = 0; ui < lanes[w].length; ui++) {
          const d = ct - c(lanes[w][ui]);
          if (d <= 0) continue;
          const sw = Math.max(load[hi] - d, load[w] + d);
          if (sw < best) [best, bw, bt, bu] = [sw, w, ti, ui];
        }
      }
    }
    if (bw < 0) return;
    const t = lanes[hi][bt];
    lanes[hi].splice(bt, 1);
    load[hi] -= c(t);
    if (bu >= 0) {
      const u = lanes[bw][bu];
      lanes[bw].splice(bu, 1);
      load[bw] -= c(u);
      lanes[hi].push(u);
      load[hi] += c(u);
    }
    lanes[bw].push(t);
    load[bw] += c(t);
  }
}

/**
 * Hands out the tasks of a {@link HandoutPlan}: a worker's own lane first, then the shared
 * queue, then the last task of the lane with the most logged time left.
 */
export class Handout {
  private readonly lanes: number[][];
  private readonly shared: number[];
  private sharedAt = 0;

  constructor(plan: HandoutPlan, private readonly cost: (i: number) => number) {
    this.lanes = plan.lanes.map((l) => [...l]);
    this.shared = plan.shared;
  }

  /** The next task for worker `w`, or -1 when none is left. */
  next(w: number): number {
    const own = this.lanes[w];
    if (own && own.length > 0) return own.shift()!;
    if (this.sharedAt < this.shared.length) return this.shared[this.sharedAt++];
    let from = -1, left = 0;
    this.lanes.forEach((l, k) => {
      const s = l.reduce((a, i) => a + loggedCost(this.cost(i)), 0);
      if (l.length > 0 && (from < 0 || s > left)) [from, left] = [k, s];
    });
    return from < 0 ? -1 : this.lanes[from].pop()!;
  }
}
