/**
 * Property tests of the E-divisive change-point search (src/analyze/change_points.ts) on
 * synthetic series: what it must find (a step, a large drift) and what it must not (pure noise,
 * an outlier night, a drift below the minimum magnitude, a constant series).
 */
import { assert, assertEquals } from "./assert.ts";
import { changePoints } from "../src/analyze/change_points.ts";
import { mulberry32 } from "../src/rng.ts";

function noise(n: number, seed: number, level = 100, sd = 5): number[] {
  const r = mulberry32(seed);
  // Box–Muller: normal noise from the seeded uniform source.
  return Array.from({ length: n }, () => {
    const u = 1 - r(), v = r();
    return level + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  });
}

Deno.test("change points: a clean step is found at its first run, with its magnitude", () => {
  const x = Array.from({ length: 30 }, (_, i) => (i < 17 ? 1000 : 1300));
  const cps = changePoints(x);
  assertEquals(cps.map((c) => c.index), [17]);
  assertEquals(cps[0].before, 1000);
  assertEquals(cps[0].after, 1300);
  assert(Math.abs(cps[0].relative - 0.3) < 1e-12);
});

Deno.test("change points: a step in noise is found within one run of its place", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const x = noise(40, seed).map((v, i) => (i < 25 ? v : v + 40));
    const cps = changePoints(x);
    assertEquals(cps.length, 1, `seed ${seed}: ${JSON.stringify(cps)}`);
    assert(Math.abs(cps[0].index - 25) <= 1, `seed ${seed}: at ${cps[0].index}`);
  }
});

Deno.test("change points: pure noise and a constant series give none", () => {
  let alarms = 0;
  for (let seed = 1; seed <= 40; seed++) alarms += changePoints(noise(30, seed)).length;
  // alpha 0.01 per series and the 5 % minimum magnitude (noise sd 5 %): at most one alarm.
  assert(alarms <= 1, `${alarms} false alarms in 40 noise series`);
  assertEquals(changePoints(new Array(50).fill(7)), []);
  assertEquals(changePoints([1, 2, 3]), []);
});

Deno.test("change points: one outlier night is not a change point", () => {
  for (const seed of [1, 2, 3]) {
    const x = noise(30, seed, 100, 2);
    x[12] = 400;
    assertEquals(changePoints(x), [], `seed ${seed}`);
  }
  const flat = new Array(30).fill(500);
  flat[20] = 900;
  assertEquals(changePoints(flat), []);
});

Deno.test("change points: a drift is found only when it exceeds the minimum magnitude", () => {
  const small = Array.from({ length: 30 }, (_, i) => 1000 + i * 0.5); // 1.5 % overall
  assertEquals(changePoints(small), []);
  const large = Array.from({ length: 30 }, (_, i) => 1000 + i * 20); // 58 % overall
  const cps = changePoints(large);
  assert(cps.length >= 1, "a large drift is a change");
  for (const c of cps) assert(Math.abs(c.relative) >= 0.05, JSON.stringify(c));
});

Deno.test("change points: a 0/1 outcome flip is found; a flaky alternation is not", () => {
  const flip = Array.from({ length: 30 }, (_, i) => (i < 21 ? 1 : 0));
  assertEquals(changePoints(flip, { minAbsolute: 0.5, minRelative: 0 }).map((c) => c.index), [21]);
  const flaky = Array.from({ length: 30 }, (_, i) => i % 2);
  assertEquals(changePoints(flaky, { minAbsolute: 0.5, minRelative: 0 }), []);
});

Deno.test("change points: the same input gives the same answer (seeded shuffles)", () => {
  const x = noise(60, 9).map((v, i) => (i < 30 ? v : v * 1.2));
  assertEquals(changePoints(x), changePoints(x));
});
