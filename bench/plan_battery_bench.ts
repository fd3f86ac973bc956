/**
 * Per-stage planner timings over the golden-route batteries, beside the C++ planner's own times
 * from reference.jsonl (median of 5 runs on the same 2-core machine type): window, topology,
 * geometry and total — sum, p50, p90, max — the median final window, and the per-leg ratio
 * navscope / C++ on comparable legs (median and p90). One warm-up plan per world first.
 *
 * With `--tier0-clean` only the legs the reference finished at tier 0 without warnings (the
 * spec's second set of targets: topology ≤ 8.8 ms, geometry ≤ 6.9 ms p50).
 *
 *     deno run -A bench/plan_battery_bench.ts [WORLD …] [--workers N] [--tier0-clean]
 * @module
 */
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/world/legs.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
const wi = Deno.args.indexOf("--workers");
const workers = wi >= 0 ? Number(Deno.args[wi + 1]) : 1;
const clean = Deno.args.includes("--tier0-clean");
const worlds = args.filter((a) => isNaN(Number(a))).length
  ? args.filter((a) => isNaN(Number(a)))
  : ["dungeon", "nav_test", "proto_level", "tower_big", "city_small"];
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
    : NaN;
};
const f = (x: number) => x.toFixed(1);
console.log(`workers ${workers}`);
console.log(
  "world\tlegs\tstage\tsum ms\tp50\tp90\tmax\t| C++ p50\tC++ p90\t| ratio p50\tratio p90\t| median window cells",
);
for (const w of worlds) {
  const dir = new URL(`../tests/fixtures/oracle/${w}/`, import.meta.url).pathname;
  const legs = parseLegs(await Deno.readTextFile(dir + "legs.json"), "legs.json");
  const refs = (await Deno.readTextFile(dir + "reference.jsonl")).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const engine = await openEngine(dir + "base.nav.gz", { workers });
  await engine.plan(legRequest(legs[0]));
  const ours: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const theirs: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const ratio: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const cells: number[] = [];
  for (let i = 0; i < legs.length; i++) {
    if (!refs[i].comparable || !refs[i].ok) continue;
    if (clean && (refs[i].tier !== 0 || refs[i].warnings.length > 0)) continue;
    const r = await engine.plan(legRequest(legs[i]));
    cells.push(r.debug.nx * r.debug.ny);
    for (const k of Object.keys(ours)) {
      const a = r.debug.timing[k as "total"], b = refs[i].timing[k];
      ours[k].push(a);
      theirs[k].push(b);
      if (b > 0) ratio[k].push(a / b);
    }
  }
  engine.close();
  for (const k of Object.keys(ours)) {
    const xs = ours[k];
    console.log(
      `${w}\t${xs.length}\t${k}\t${f(xs.reduce((a, b) => a + b, 0))}\t${f(q(xs, 50))}\t${
        f(q(xs, 90))
      }\t${f(Math.max(...xs))}\t| ${f(q(theirs[k], 50))}\t${f(q(theirs[k], 90))}\t| ${
        q(ratio[k], 50).toFixed(2)
      }\t${q(ratio[k], 90).toFixed(2)}\t| ${q(cells, 50)}`,
    );
  }
}
