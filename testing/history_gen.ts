/**
 * Synthetic run histories for tests and benches of the history store and its change points
 * (src/analyze/history.ts, history_changes.ts): nights of legs with known steps planted.
 * Seeded (src/rng.ts): the same arguments give the same history.
 * @module
 */
import { mulberry32 } from "../src/rng.ts";
import { makeFingerprint } from "../src/analyze/machine.ts";
import type { HistoryLeg, NewRun } from "../src/analyze/history.ts";

/** What to plant in a synthetic history. */
export interface SyntheticHistoryOptions {
  /** Nights (runs). */
  nights: number;
  /** Legs per night. */
  legs: number;
  /** Counters per leg (named c0, c1, …). */
  counters: number;
  /** Seed. */
  seed?: number;
  /** Counter steps: from night `night` (1-based) the counter of the leg is × factor. */
  steps?: Array<{ leg: number; counter: number; night: number; factor: number }>;
  /** Outcome flips: from night `night` (1-based) the leg fails with `code`. */
  flips?: Array<{ leg: number; night: number; code: string }>;
  /** Timing noise, relative sd (default 0.05); night `outlierNight` is 4× slower on every leg. */
  timingNoise?: number;
  /** A night (1-based) whose timings are all 4× (a busy machine), or 0 for none. */
  outlierNight?: number;
}

/** The runs of a synthetic history, oldest first (commit `cNN` = night NN). */
export function syntheticHistory(o: SyntheticHistoryOptions): NewRun[] {
  const rand = mulberry32(o.seed ?? 1);
  const machine = makeFingerprint({
    cpu: "Synthetic CPU",
    cores: 2,
    os: "linux",
    arch: "x86_64",
    deno: "2.9.6",
    v8: "14.0",
  });
  const base = Array.from(
    { length: o.legs },
    (_, l) =>
      Array.from({ length: o.counters }, (_, c) => 1000 + ((l * 7919 + c * 104729) % 50000)),
  );
  const runs: NewRun[] = [];
  for (let n = 1; n <= o.nights; n++) {
    const legs: HistoryLeg[] = [];
    for (let l = 0; l < o.legs; l++) {
      const counters: Record<string, number> = {};
      for (let c = 0; c < o.counters; c++) {
        let v = base[l][c];
        for (const s of o.steps ?? []) {
          if (s.leg === l && s.counter === c && n >= s.night) v = Math.round(v * s.factor);
        }
        counters[`c${c}`] = v;
      }
      const flip = (o.flips ?? []).find((f) => f.leg === l && n >= f.night);
      const u = 1 - rand(), w = rand();
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
      const total = (50 + l) * (1 + (o.timingNoise ?? 0.05) * z) *
        (n === o.outlierNight ? 4 : 1);
      legs.push({
        battery: "synthetic",
        leg: `leg${String(l).padStart(4, "0")}`,
        ok: !flip,
        code: flip ? flip.code : "",
        tier: 0,
        kind: "capped",
        windowCells: 10000 + l,
        route: flip ? "" : `5:${(100 + l).toFixed(3)}:0`,
        counters,
        timings: { total },
      });
    }
    runs.push({
      time: new Date(Date.UTC(2026, 0, n)).toISOString(),
      commit: `c${String(n).padStart(2, "0")}`,
      branch: "main",
      machine,
      source: `synthetic night ${n}`,
      profile: "spec",
      plannerVersion: "navscope/0.1.0",
      packHashes: ["0000000000000000"],
      legs,
    });
  }
  return runs;
}

/**
 * The acceptance history of issue 38: thirty nights of 6 legs, a counter step (leg 2, c1,
 * ×1.3) from night 18, leg 4 failing (`disconnected`) from night 22, 5 % timing noise and one
 * 4× outlier night (9).
 */
export function thirtyNights(): NewRun[] {
  return syntheticHistory({
    nights: 30,
    legs: 6,
    counters: 4,
    seed: 38,
    steps: [{ leg: 2, counter: 1, night: 18, factor: 1.3 }],
    flips: [{ leg: 4, night: 22, code: "disconnected" }],
    timingNoise: 0.05,
    outlierNight: 9,
  });
}
