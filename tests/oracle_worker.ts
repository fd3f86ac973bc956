/**
 * Worker of tests/oracle_runner.ts (not a test): plans a slice of an oracle set's legs under the
 * `reference` profile (compared field by field with the C++ output), under `spec` with the switch
 * probes, and under `spec` with each touched switch off alone (every switch, on the sample legs;
 * with `flips: "explain"` only until one changes a leg where spec ≠ reference), and posts one
 * {@link LegOutcome} per leg.
 * @module
 */
/// <reference lib="deno.worker" />
import { differingFields, loadSet } from "./oracle_compare.ts";
import {
  customProfile,
  REFERENCE_PROFILE,
  SPEC_PROFILE,
  SWITCH_NAMES,
  type SwitchName,
} from "../src/plan/profile.ts";
import type { PlanResult } from "../src/plan/types.ts";
import {
  emptyCost,
  type LegOutcome,
  type PlanKind,
  type SliceCost,
  type SliceTask,
} from "./oracle_runner.ts";

/** Everything a switch may change: outcome, tier, notes, window, warnings, every stage's points. */
function signature(r: PlanResult): string {
  const d = r.debug;
  return JSON.stringify([
    r.ok,
    r.error,
    r.message,
    d.tier,
    d.tierNotes,
    [d.x0, d.y0, d.nx, d.ny],
    r.warnings,
    d.warnings,
    d.topologyCells,
    d.tautPoints,
    d.pulledPoints,
    d.assembledPoints,
    r.points,
    r.clearance,
    r.waypoints,
    r.length,
  ]);
}

/**
 * Sets loaded by this worker, by directory: a set's legs and reference rows are read and parsed
 * once per worker, not once per slice (city_small's reference files are 2.7 MB of JSON each).
 */
const sets = new Map<string, ReturnType<typeof loadSet>>();

/** Runs `plan` and adds its count and time to `cost[kind]`. */
async function timed<T>(cost: SliceCost, kind: PlanKind, plan: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await plan();
  } finally {
    cost.plans[kind]++;
    cost.ms[kind] += performance.now() - t0;
  }
}

async function runSlice(t: SliceTask, cost: SliceCost): Promise<LegOutcome[]> {
  const t0 = performance.now();
  if (!sets.has(t.dir)) sets.set(t.dir, loadSet(t.dir, t.name));
  const set = await sets.get(t.dir)!;
  cost.ms.load += performance.now() - t0;
  const out: LegOutcome[] = [];
  for (let i = t.from; i < t.to; i++) {
    const { id, req } = set.legs[i];
    // The C++ build had no test overrides: every plan here runs without them.
    const q = { ...req };
    delete q.overrides;
    const ref = await timed(
      cost,
      "reference",
      () => set.engine.plan({ ...q, profile: REFERENCE_PROFILE }),
    );
    if (i % t.stride !== 0 && i >= t.sample) {
      out.push({
        id,
        refDiff: differingFields(ref, set.refs[i]),
        attributed: false,
        specDiffers: false,
        touched: [],
        changedBy: [],
        unsound: [],
        probeChanged: false,
      });
      continue;
    }
    const spec = await timed(
      cost,
      "spec",
      () => set.engine.plan({ ...q, profile: SPEC_PROFILE }, { probeSwitches: true }),
    );
    const specSig = signature(spec);
    const touched = new Set(spec.switchesTouched as SwitchName[]);
    const sample = i < t.sample;
    const o: LegOutcome = {
      id,
      refDiff: differingFields(ref, set.refs[i]),
      attributed: true,
      specDiffers: signature(ref) !== specSig,
      touched: [...touched],
      changedBy: [],
      unsound: [],
      probeChanged: false,
    };
    if (sample) {
      const again = await timed(
        cost,
        "probe",
        () => set.engine.plan({ ...q, profile: SPEC_PROFILE }),
      );
      o.probeChanged = signature(again) !== specSig;
    }
    const explain = t.flips === "explain" && !sample;
    if (explain && !o.specDiffers) {
      out.push(o);
      continue;
    }
    for (const k of SWITCH_NAMES) {
      if (!sample && !touched.has(k)) continue;
      const p = customProfile(SPEC_PROFILE, { [k]: false });
      const flipped = await timed(cost, "flip", () => set.engine.plan({ ...q, profile: p }));
      if (signature(flipped) === specSig) continue;
      o.changedBy.push(k);
      if (!touched.has(k)) o.unsound.push(k);
      if (explain) break;
    }
    out.push(o);
  }
  return out;
}

self.onmessage = async (e: MessageEvent<SliceTask>) => {
  try {
    const cost = emptyCost();
    const outcomes = await runSlice(e.data, cost);
    self.postMessage({ key: e.data.key, outcomes, cost });
  } catch (err) {
    self.postMessage({ key: e.data.key, error: err instanceof Error ? err.stack : String(err) });
  }
};
