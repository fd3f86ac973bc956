/**
 * Replay's hand-out (src/analyze/replay_handout.ts): the heavy legs split over the workers against
 * brute-force optima and an independent longest-processing-time schedule, the light legs left
 * in hand-out order, and the dispenser's lane / shared / steal order, each task exactly once.
 */
import { Handout, HEAVY_SHARE, planHandout } from "../src/analyze/replay_handout.ts";
import { mulberry32 } from "./rng.ts";
import { assert, assertEquals } from "./assert.ts";

const loads = (lanes: number[][], cost: number[]) =>
  lanes.map((l) => l.reduce((s, i) => s + cost[i], 0));

/** The best makespan of `items` over `jobs` workers, by trying every assignment. */
function bruteForce(items: number[], cost: number[], jobs: number): number {
  let best = Infinity;
  const load = new Array<number>(jobs).fill(0);
  const rec = (k: number) => {
    if (k === items.length) {
      best = Math.min(best, Math.max(...load));
      return;
    }
    for (let w = 0; w < jobs; w++) {
      load[w] += cost[items[k]];
      rec(k + 1);
      load[w] -= cost[items[k]];
    }
  };
  rec(0);
  return best;
}

/** Longest-processing-time list scheduling, written out again for the test. */
function lpt(items: number[], cost: number[], jobs: number): number {
  const load = new Array<number>(jobs).fill(0);
  for (const i of [...items].sort((a, b) => cost[b] - cost[a] || a - b)) {
    load[load.indexOf(Math.min(...load))] += cost[i];
  }
  return Math.max(...load);
}

Deno.test("handout: the large world's five whole-map legs split 247 / 227 s, not 264 / 210 s", () => {
  // Replay times of the fifth session (s), in hand-out order, then 40 light legs of 0.45 s.
  const cost = [63.9, 87.7, 95.5, 104.3, 122.7, ...new Array(40).fill(0.45)];
  const order = cost.map((_, i) => i);
  const plan = planHandout(order, (i) => cost[i], 2);
  const heavy = plan.lanes.map((l) => l.map((i) => cost[i]));
  assertEquals(heavy, [[122.7, 104.3], [95.5, 87.7, 63.9]]);
  const span = Math.max(...loads(plan.lanes, cost));
  assert(Math.abs(span - bruteForce([0, 1, 2, 3, 4], cost, 2)) < 1e-9, `makespan ${span}`);
  assert(lpt([0, 1, 2, 3, 4], cost, 2) > 263, "plain longest-first is the 264-s split");
  assertEquals(plan.shared, order.slice(5), "light legs stay in hand-out order");
});

Deno.test("handout: one job, or no logged times, is the plain queue", () => {
  const order = [4, 2, 0, 1, 3];
  assertEquals(planHandout(order, () => 7, 1), { lanes: [[]], shared: order });
  const unknown = [NaN, 0, -3, Infinity, NaN];
  assertEquals(planHandout(order, (i) => unknown[i], 3), { lanes: [[], [], []], shared: order });
});

Deno.test("handout: random loads — a partition, heavy means ≥ 1/8 of a fair share, never worse than LPT", () => {
  const rnd = mulberry32(15);
  let optimal = 0, cases = 0;
  for (let rep = 0; rep < 300; rep++) {
    const jobs = 2 + (rep % 3);
    const n = 1 + Math.floor(rnd() * 40);
    // Heavy-tailed times: most legs short, a few giant.
    const cost = Array.from({ length: n }, () => (rnd() < 0.15 ? 20 + rnd() * 100 : rnd() * 2));
    const order = cost.map((_, i) => i).sort(() => rnd() - 0.5);
    const plan = planHandout(order, (i) => cost[i], jobs);
    const seen = [...plan.lanes.flat(), ...plan.shared].sort((a, b) => a - b);
    assertEquals(seen, cost.map((_, i) => i), "every task exactly once");
    const floor = (cost.reduce((s, v) => s + v, 0) / jobs) * HEAVY_SHARE;
    const heavy = plan.lanes.flat();
    for (const i of heavy) assert(cost[i] >= floor, `task ${i} is light`);
    for (const i of plan.shared) assert(cost[i] < floor, `task ${i} is heavy`);
    assertEquals(plan.shared, order.filter((i) => cost[i] < floor), "shared keeps hand-out order");
    for (const l of plan.lanes) {
      for (let k = 1; k < l.length; k++) assert(cost[l[k - 1]] >= cost[l[k]], "lane longest first");
    }
    const span = Math.max(...loads(plan.lanes, cost));
    assert(span <= lpt(heavy, cost, jobs) + 1e-9, `rep ${rep}: worse than LPT`);
    if (heavy.length <= 9) {
      const best = bruteForce(heavy, cost, jobs);
      assert(span >= best - 1e-9);
      cases++;
      if (span <= best + 1e-9) optimal++;
    }
  }
  // The local search reaches the optimum on nearly every small case.
  assert(cases > 200 && optimal / cases > 0.95, `${optimal} of ${cases} optimal`);
});

Deno.test("handout: own lane, then the shared queue, then the busiest lane's last task", () => {
  const cost = [50, 40, 30, 1, 1, 1];
  const h = new Handout({ lanes: [[0, 2], [1]], shared: [3, 4, 5] }, (i) => cost[i]);
  assertEquals([h.next(1), h.next(1), h.next(1), h.next(1), h.next(1)], [1, 3, 4, 5, 2]);
  assertEquals([h.next(0), h.next(0), h.next(1)], [0, -1, -1]);
});

Deno.test("handout: any interleaving of workers takes each task exactly once", () => {
  const rnd = mulberry32(7);
  for (let rep = 0; rep < 100; rep++) {
    const jobs = 2 + (rep % 3);
    const cost = Array.from({ length: 30 }, () => (rnd() < 0.2 ? 50 : rnd()));
    const order = cost.map((_, i) => i);
    const h = new Handout(planHandout(order, (i) => cost[i], jobs), (i) => cost[i]);
    const got: number[] = [];
    const done = new Array<boolean>(jobs).fill(false);
    while (done.includes(false)) {
      const w = Math.floor(rnd() * jobs);
      if (done[w]) continue;
      const i = h.next(w);
      if (i < 0) done[w] = true;
      else got.push(i);
    }
    assertEquals(got.sort((a, b) => a - b), order);
  }
});
