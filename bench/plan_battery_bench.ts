/**
 * Per-stage planner timings over the golden-route batteries, beside the C++ planner's own times
 * from reference.jsonl (median of 5 runs on the same 2-core machine type): window, topology,
 * geometry and total — sum, p50, p90, max — the median final window, and the per-leg ratio
 * navscope / C++ on comparable legs (median and p90). One warm-up plan per world first.
 *
 * With `--tier0-clean` only the legs the reference finished at tier 0 without warnings (the
 * spec's second set of targets: topology ≤ 8.8 ms, geometry ≤ 6.9 ms p50).
 *
 * The C++ figures are a compiled planner's; by default every selected world's legs are planned
 * once untimed first, so the JIT has compiled every stage before anything is measured (a planner
 * process plans many legs). `--cold` measures the first pass instead (the first world then pays
 * the compilation). `--runs N` plans each measured leg N times and takes each stage's median,
 * as the reference did with 5.
 *
 *     deno run -A bench/plan_battery_bench.ts [WORLD …] [--workers N] [--tier0-clean] [--cold] [--runs N]
 * @module
 */
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import { goldenRouteDir } from "../testing/golden_routes.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
const wi = Deno.args.indexOf("--workers");
const workers = wi >= 0 ? Number(Deno.args[wi + 1]) : 1;
const clean = Deno.args.includes("--tier0-clean");
const cold = Deno.args.includes("--cold");
const ri = Deno.args.indexOf("--runs");
const runs = ri >= 0 ? Number(Deno.args[ri + 1]) : 1;
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
console.log(
  `workers ${workers}${cold ? ", cold (first pass)" : ", after one untimed pass over every world"}`,
);
console.log(
  "world\tlegs\tstage\tsum ms\tp50\tp90\tmax\t| C++ p50\tC++ p90\t| ratio p50\tratio p90\t| median window cells",
);
type World = {
  w: string;
  legs: ReturnType<typeof parseLegs>;
  refs: Ref[];
  engine: Awaited<ReturnType<typeof openEngine>>;
};
type Ref = {
  comparable: boolean;
  ok: boolean;
  tier: number;
  warnings: string[];
  timing: Record<string, number>;
};
const selected: World[] = [];
for (const w of worlds) {
  const dir = goldenRouteDir(w);
  const legs = parseLegs(await Deno.readTextFile(dir + "legs.json"), "legs.json");
  const refs = (await Deno.readTextFile(dir + "reference.jsonl")).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const engine = await openEngine(dir + "base.nav.gz", { workers });
  selected.push({ w, legs, refs, engine });
}
const measured = (r: Ref) =>
  r.comparable && r.ok && !(clean && (r.tier !== 0 || r.warnings.length > 0));
if (!cold) {
  for (const x of selected) {
    for (let i = 0; i < x.legs.length; i++) {
      if (measured(x.refs[i])) await x.engine.plan(legRequest(x.legs[i]));
    }
  }
}
for (const { w, legs, refs, engine } of selected) {
  if (cold) await engine.plan(legRequest(legs[0]));
  const ours: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const theirs: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const ratio: Record<string, number[]> = { window: [], topology: [], geometry: [], total: [] };
  const cells: number[] = [];
  for (let i = 0; i < legs.length; i++) {
    if (!measured(refs[i])) continue;
    // Each stage's time is the median of `runs` plans of the leg (the reference's are of 5).
    const rs = [];
    for (let k = 0; k < runs; k++) rs.push(await engine.plan(legRequest(legs[i])));
    cells.push(rs[0].debug.nx * rs[0].debug.ny);
    for (const k of Object.keys(ours)) {
      const a = q(rs.map((r) => r.debug.timing[k as "total"]), 50), b = refs[i].timing[k];
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
