/**
 * Per-leg stage times of one checkout on the oracle-v2 batteries (a benchmark, not a test): opens
 * each world's pack with the planner of checkout ROOT, plans every leg once untimed (JIT warm-up),
 * then RUNS times, and writes per leg the median and minimum of the window, topology, geometry and
 * total stage times. Run it for two checkouts alternately (A B A B …) in one sitting, then compare
 * them and the C++ build with `bench/stage_ab_stats.ts`:
 *
 *     for i in 1 2 3; do
 *       deno run -A bench/stage_times.ts ../base /tmp/ab/A$i.json 2 nav_test:rnd proto_level:rnd
 *       deno run -A bench/stage_times.ts .       /tmp/ab/B$i.json 2 nav_test:rnd proto_level:rnd
 *     done
 *     deno run -A bench/stage_ab_stats.ts /tmp/ab
 *
 * usage: stage_times.ts ROOT OUT.json RUNS WORLD:ex|WORLD:rnd … (env NAVSCOPE_SHARED: the oracle
 * root, default ../shared beside the checkout)
 * @module
 */
import { checkoutPlanner, checkoutRoot } from "./lib/checkout_planner.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";
const [rootArg, out, runsS, ...specs] = Deno.args;
const root = checkoutRoot(rootArg);
const shared = Deno.env.get("NAVSCOPE_SHARED") ??
  new URL("../../shared/", import.meta.url).pathname;
const runs = Number(runsS);
const { openEngine, legRequest, parseLegs } = await checkoutPlanner(root);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const STAGES = [...STAGE_NAMES.slice(0, 3), "total"] as const;
const res: Record<string, Record<string, Record<string, number>>> = {};
for (const spec of specs) {
  const [w, set] = spec.split(":");
  const dir = `${shared}/oracle-v2/${w}/`;
  const ldir = set === "rnd" ? dir + "random/" : dir;
  const legs = parseLegs(await Deno.readTextFile(ldir + "legs.json"), ldir + "legs.json");
  const engine = await openEngine(dir + "base.nav.gz", { workers: 1 });
  for (const l of legs) await engine.plan(legRequest(l));
  const r: Record<string, Record<string, number>> = {};
  for (const l of legs) {
    const t: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
    let ok = false;
    for (let k = 0; k < runs; k++) {
      const p = await engine.plan(legRequest(l));
      ok = p.ok;
      const timing = p.debug.timing as unknown as Record<string, number>;
      for (const s of STAGES) t[s].push(timing[s]);
    }
    r[l.id] = { ok: ok ? 1 : 0 };
    for (const s of STAGES) (r[l.id][s] = med(t[s])), (r[l.id][s + "_min"] = Math.min(...t[s]));
  }
  engine.close();
  res[spec] = r;
}
await Deno.writeTextFile(out, JSON.stringify(res));
