/**
 * Test helper (not a test): runs the oracle sets of tests/plan_profiles_test.ts on a pool of
 * workers (tests/oracle_worker.ts), one per core, in slices of a few legs, the costliest sets
 * first, and counts where the time goes (plans and worker ms per kind, per set). Per leg: the `reference` plan compared with the C++ output, whether `spec`
 * differs from `reference`, the switches the `spec` plan touched (SwitchProbe), and the switches
 * whose turning off alone changes it.
 * @module
 */
import type { Field } from "./oracle_compare.ts";

/** One oracle set to run. */
export interface SetSpec {
  /** Label, e.g. `v2/city_small/random`. */
  name: string;
  /** Directory with `legs.json` and `reference.jsonl[.gz]` (the packs beside it, or one up). */
  dir: string;
  /** Its first `sample` legs flip every switch (the probes' soundness check), not only touched. */
  sample: number;
  /**
   * `all`: every touched switch is flipped (per-switch counts); `explain`: only on legs where
   * `spec` ≠ `reference`, touched switches in table order until one changes the leg (for sets
   * whose legs take a second each).
   */
  flips: "all" | "explain";
  /**
   * Attribute (spec plan with probes, flips) every `stride`-th leg only (1: every leg); the
   * `reference` plan and its comparison run on every leg.
   */
  stride: number;
  /** Relative cost per leg (scheduling only: costlier sets start first). */
  cost: number;
}

/** A slice of a set, as the worker gets it. */
export interface SliceTask {
  key: string;
  name: string;
  dir: string;
  from: number;
  to: number;
  sample: number;
  flips: "all" | "explain";
  stride: number;
}

/** What the worker found for one leg. */
export interface LegOutcome {
  id: string;
  /** Fields in which the `reference` plan differs from the C++ output (empty: equal). */
  refDiff: Field[];
  /** The leg was attributed (spec plan, probes, flips); false: only its reference plan ran. */
  attributed: boolean;
  /** The `spec` plan differs from the `reference` plan. */
  specDiffers: boolean;
  /** Switches the `spec` plan's probes touched. */
  touched: string[];
  /**
   * Switches whose turning off alone (on top of `spec`) changes the plan (with `explain`: the
   * first one found, if any).
   */
  changedBy: string[];
  /** Sample legs: switches that changed the plan although the probe did not touch them. */
  unsound: string[];
  /** Sample legs: probing changed the plan (it must only read). */
  probeChanged: boolean;
}

/**
 * The plans a leg may cost: `reference` (every leg, compared with the C++ output), `spec` (the
 * attributed legs, with the switch probes), `probe` (sample legs: `spec` again without probes),
 * `flip` (one switch off alone on top of `spec`).
 */
export const PLAN_KINDS = ["reference", "spec", "probe", "flip"] as const;

/** One kind of plan. */
export type PlanKind = typeof PLAN_KINDS[number];

/** Where a slice's (or a set's) time went: plans and worker ms per kind, and set loading. */
export interface SliceCost {
  /** Plans run, per kind. */
  plans: Record<PlanKind, number>;
  /** Worker milliseconds, per plan kind, and `load` (reading the set, opening its engine). */
  ms: Record<PlanKind | "load", number>;
}

/** A cost of nothing. */
export function emptyCost(): SliceCost {
  return {
    plans: { reference: 0, spec: 0, probe: 0, flip: 0 },
    ms: { reference: 0, spec: 0, probe: 0, flip: 0, load: 0 },
  };
}

/** Adds `b` into `a`. */
export function addCost(a: SliceCost, b: SliceCost): void {
  for (const k of PLAN_KINDS) a.plans[k] += b.plans[k];
  for (const k of [...PLAN_KINDS, "load"] as const) a.ms[k] += b.ms[k];
}

/** One line of where a set's time went: legs, then plans and worker seconds per kind. */
export function formatCost(name: string, legs: number, c: SliceCost): string {
  const total = Object.values(c.ms).reduce((x, y) => x + y, 0);
  const kinds = PLAN_KINDS.filter((k) => c.plans[k] > 0)
    .map((k) => `${k} ${c.plans[k]} plans ${(c.ms[k] / 1000).toFixed(1)} s`);
  return `  time ${name}: ${legs} legs, ${(total / 1000).toFixed(1)} s of worker time (` +
    `${kinds.join(", ")}, load ${(c.ms.load / 1000).toFixed(1)} s; ` +
    `${(total / Math.max(1, legs)).toFixed(0)} ms per leg)`;
}

/** Memory a worker may take with every set's engines open (city_small's windows), bytes. */
const WORKER_BYTES = 2 * 1024 ** 3;

/**
 * Worker threads: one per core, as many as the memory holds (NAVSCOPE_ORACLE_WORKERS
 * overrides). Each worker opens its own engines, so the sweep scales with the cores.
 */
export function oracleWorkers(): number {
  const env = Number(Deno.env.get("NAVSCOPE_ORACLE_WORKERS") ?? "");
  if (Number.isInteger(env) && env > 0) return env;
  let byMemory = Infinity;
  try {
    byMemory = Math.max(1, Math.floor(Deno.systemMemoryInfo().total / WORKER_BYTES));
  } catch { /* no --allow-sys: cores only */ }
  return Math.max(1, Math.min(navigator.hardwareConcurrency ?? 1, byMemory));
}

/** The legs of one set file (count only). */
async function legCount(dir: string): Promise<number> {
  const j = JSON.parse(await Deno.readTextFile(dir + "legs.json"));
  return (Array.isArray(j) ? j : j.legs).length;
}

/**
 * Starts every set; resolves, per set name, to its leg outcomes in leg order. The workers stop
 * when the last slice is done (or on the first error, which rejects that set and the rest).
 */
export async function runOracleSets(
  sets: readonly SetSpec[],
  slice = 4,
): Promise<{
  results: Map<string, Promise<LegOutcome[]>>;
  costs: Map<string, SliceCost>;
  workers: number;
  done: Promise<void>;
}> {
  const tasks: (SliceTask & { cost: number })[] = [];
  const parts = new Map<string, LegOutcome[][]>();
  const resolvers = new Map<string, { ok: (v: LegOutcome[]) => void; fail: (e: Error) => void }>();
  const results = new Map<string, Promise<LegOutcome[]>>();
  const costs = new Map<string, SliceCost>();
  const left = new Map<string, number>();
  for (const s of sets) {
    costs.set(s.name, emptyCost());
    const n = await legCount(s.dir);
    const k = Math.ceil(n / slice);
    parts.set(s.name, new Array(k));
    left.set(s.name, k);
    const p = new Promise<LegOutcome[]>((ok, fail) => resolvers.set(s.name, { ok, fail }));
    p.catch(() => {}); // awaited by the test; a set nobody awaits must not crash the run
    results.set(s.name, p);
    for (let i = 0; i < k; i++) {
      tasks.push({
        key: `${s.name}#${i}`,
        name: s.name,
        dir: s.dir,
        from: i * slice,
        to: Math.min(n, (i + 1) * slice),
        sample: s.sample,
        flips: s.flips,
        stride: s.stride,
        cost: s.cost,
      });
    }
  }
  // Costliest first (stable: set order, then slice order).
  tasks.sort((a, b) => b.cost - a.cost);
  const nWorkers = oracleWorkers();
  let next = 0, failed: Error | null = null;
  const url = new URL("./oracle_worker.ts", import.meta.url).href;
  const one = () =>
    new Promise<void>((finish) => {
      const w = new Worker(url, { type: "module" });
      const give = () => {
        if (failed || next >= tasks.length) {
          w.terminate();
          finish();
          return;
        }
        const { cost: _c, ...t } = tasks[next++];
        w.postMessage(t);
      };
      w.onmessage = (
        e: MessageEvent<{ key: string; outcomes?: LegOutcome[]; cost?: SliceCost; error?: string }>,
      ) => {
        const [name, idx] = e.data.key.split("#");
        if (e.data.error !== undefined) {
          failed = new Error(`${e.data.key}: ${e.data.error}`);
          for (const r of resolvers.values()) r.fail(failed);
        } else {
          parts.get(name)![Number(idx)] = e.data.outcomes!;
          addCost(costs.get(name)!, e.data.cost!);
          const l = left.get(name)! - 1;
          left.set(name, l);
          if (l === 0) resolvers.get(name)!.ok(parts.get(name)!.flat());
        }
        give();
      };
      w.onerror = (e) => {
        e.preventDefault();
        failed = new Error(`oracle worker: ${e.message}`);
        for (const r of resolvers.values()) r.fail(failed);
        w.terminate();
        finish();
      };
      give();
    });
  const done = Promise.all(Array.from({ length: nWorkers }, one)).then(() => {});
  return { results, costs, workers: nWorkers, done };
}
