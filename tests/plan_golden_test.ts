/**
 * Golden routes (tests/fixtures/oracle, vendored from MaaEnd's C++ planner on frozen copies of the
 * example packs): for every `comparable` leg, compare navscope's plan field by field. The test
 * prints, per world and field, how many comparable legs match, and fails on any mismatch in the
 * fields the implemented stages own (Planner I): the class of every pre-check failure, the snap
 * distances, and the final window of every leg the reference finished at tier 0. The other
 * fields are counted (they belong to the search and post-processing stages still to come).
 */
import { assertEquals } from "./assert.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/world/legs.ts";

const WORLDS = ["dungeon", "nav_test", "proto_level", "tower_big", "city_small"];
const dir = (w: string) => new URL(`./fixtures/oracle/${w}/`, import.meta.url).pathname;

interface Ref {
  id: string;
  ok: boolean;
  ref_class: string;
  tier: number;
  tier_notes: string[];
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  snap_start: number;
  snap_goal: number;
  comparable: boolean;
  error: string;
}

for (const w of WORLDS) {
  Deno.test(`golden routes: ${w} (Planner I fields)`, async () => {
    const d = dir(w);
    const legs = parseLegs(await Deno.readTextFile(d + "legs.json"), d + "legs.json");
    const refs: Ref[] = (await Deno.readTextFile(d + "reference.jsonl")).trim().split("\n").map((
      l,
    ) => JSON.parse(l));
    assertEquals(refs.length, legs.length, "one reference row per leg");
    const engine = await openEngine(d + "base.nav.gz");
    const count = { legs: 0, class: 0, precheck: 0, precheckOk: 0, snap: 0, tier0: 0, tier0Ok: 0 };
    const fails: string[] = [];
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i], ref = refs[i];
      assertEquals(ref.id, leg.id);
      if (!ref.comparable) continue;
      count.legs++;
      const r = await engine.plan(legRequest(leg));
      const cls = r.ok ? "ok" : r.error;
      if (cls === ref.ref_class) count.class++;
      // A pre-check failure: the reference built no window.
      if (!ref.ok && ref.nx === 0) {
        count.precheck++;
        if (cls === ref.ref_class && r.message === ref.error) count.precheckOk++;
        else {fails.push(
            `${leg.id}: pre-check ${cls} "${r.message}" ≠ ${ref.ref_class} "${ref.error}"`,
          );}
      }
      const ss = r.debug.snapStart ?? 0, sg = r.debug.snapGoal ?? 0;
      if (ss === ref.snap_start && sg === ref.snap_goal) count.snap++;
      else fails.push(`${leg.id}: snap ${ss}/${sg} ≠ ${ref.snap_start}/${ref.snap_goal}`);
      if (ref.ok && ref.tier === 0) {
        count.tier0++;
        const got = [r.debug.x0, r.debug.y0, r.debug.nx, r.debug.ny];
        const want = [ref.x0, ref.y0, ref.nx, ref.ny];
        if (JSON.stringify(got) === JSON.stringify(want) && r.debug.tier === 0) count.tier0Ok++;
        else fails.push(`${leg.id}: tier-0 window ${got} (tier ${r.debug.tier}) ≠ ${want}`);
      }
    }
    console.log(
      `${w}: ${count.legs} comparable legs; outcome class ${count.class}/${count.legs}; ` +
        `pre-check failures ${count.precheckOk}/${count.precheck}; snap ${count.snap}/${count.legs}; ` +
        `tier-0 window ${count.tier0Ok}/${count.tier0}`,
    );
    assertEquals(fails, [], `mismatches on ${w}`);
  });
}
