/**
 * Bench helper (not a bench): per-leg stage times of one checkout's planner on one oracle-v2
 * battery, as `bench/cpp_ratio.ts` measures them (one engine, one decode worker, the reference
 * profile, one untimed warm-up pass, then RUNS timed passes over the whole battery, per leg the
 * median of each stage).
 * @module
 */
import type { checkoutPlanner } from "./lib/checkout_planner.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

/** The stages of `PlanResult.debug.timing` the benches read: the six stages and the total. */
export const STAGES = [...STAGE_NAMES, "total"] as const;
/** One stage name. */
export type Stage = typeof STAGES[number];
/** One leg's medians, whether it found a route, and its route (points) as a key. */
export type LegTimes = { ok: boolean; route: string } & Record<Stage, number>;

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export function q(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p / 100 * s.length) - 1))] : NaN;
}

/** The battery directory of a set `WORLD:ex` or `WORLD:rnd` under the oracle root `shared`. */
export function setDirs(shared: string, spec: string): { pack: string; legs: string } {
  const [w, set] = spec.split(":");
  if (!w || (set !== "ex" && set !== "rnd")) {
    throw new Error(`set ${spec}: want WORLD:ex|WORLD:rnd`);
  }
  const dir = `${shared}/oracle-v2/${w}/`;
  return { pack: dir + "base.nav.gz", legs: (set === "rnd" ? dir + "random/" : dir) + "legs.json" };
}

/** Plans every leg of `spec` RUNS times (after a warm-up pass); per leg the stage medians. */
export async function measureSet(
  planner: Awaited<ReturnType<typeof checkoutPlanner>>,
  profile: unknown,
  shared: string,
  spec: string,
  runs: number,
): Promise<Map<string, LegTimes>> {
  const { openEngine, legRequest, parseLegs } = planner;
  const d = setDirs(shared, spec);
  const legs = parseLegs(await Deno.readTextFile(d.legs), d.legs);
  const engine = await openEngine(d.pack, { workers: 1, profile: profile as never });
  try {
    for (const l of legs) await engine.plan(legRequest(l));
    const per = new Map<string, Record<Stage, number[]>>();
    const res = new Map<string, { ok: boolean; route: string }>();
    // Passes over the whole battery rather than RUNS back-to-back per leg: a burst of load then
    // spreads over many legs instead of spoiling every run of one.
    for (let k = 0; k < runs; k++) {
      for (const l of legs) {
        const p = await engine.plan(legRequest(l));
        if (k === 0) res.set(l.id, { ok: p.ok, route: JSON.stringify(p.points) });
        const timing = p.debug.timing as unknown as Record<Stage, number>;
        let t = per.get(l.id);
        if (!t) per.set(l.id, t = Object.fromEntries(STAGES.map((s) => [s, []])) as never);
        for (const s of STAGES) t[s].push(timing[s]);
      }
    }
    const m = new Map<string, LegTimes>();
    for (const [id, t] of per) {
      const r = { ...res.get(id)! } as LegTimes;
      for (const s of STAGES) r[s] = q(t[s], 50);
      m.set(id, r);
    }
    return m;
  } finally {
    engine.close();
  }
}
