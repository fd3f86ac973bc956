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
import type { LegOutcome, SliceTask } from "./oracle_runner.ts";

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

async function runSlice(t: SliceTask): Promise<LegOutcome[]> {
  const set = await loadSet(t.dir, t.name);
  const out: LegOutcome[] = [];
  for (let i = t.from; i < t.to; i++) {
    const { id, req } = set.legs[i];
    // The C++ build had no test overrides: every plan here runs without them.
    const q = { ...req };
    delete q.overrides;
    const ref = await set.engine.plan({ ...q, profile: REFERENCE_PROFILE });
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
    const spec = await set.engine.plan({ ...q, profile: SPEC_PROFILE }, { probeSwitches: true });
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
      o.probeChanged =
        signature(await set.engine.plan({ ...q, profile: SPEC_PROFILE })) !== specSig;
    }
    const explain = t.flips === "explain" && !sample;
    if (explain && !o.specDiffers) {
      out.push(o);
      continue;
    }
    for (const k of SWITCH_NAMES) {
      if (!sample && !touched.has(k)) continue;
      const p = customProfile(SPEC_PROFILE, { [k]: false });
      if (signature(await set.engine.plan({ ...q, profile: p })) === specSig) continue;
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
    self.postMessage({ key: e.data.key, outcomes: await runSlice(e.data) });
  } catch (err) {
    self.postMessage({ key: e.data.key, error: err instanceof Error ? err.stack : String(err) });
  }
};
