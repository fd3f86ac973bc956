/**
 * CPU time of the two search kernels of one checkout on the oracle-v2 batteries (a benchmark, not
 * a test): opens each world's pack with the planner of checkout ROOT, plans every leg once
 * untimed, then ROUNDS times, and prints per battery the median over rounds of the process CPU
 * time (user + system) spent in `AccessSearch.run` (endpoint access, 端点接入), in
 * `SpanSearch.run` without and with Lazy Theta* (topology, geometry), the summed topology and
 * geometry stage wall times, and the CPU time of the whole round. CPU time rather than wall time
 * because the box is shared (docs/search_speed.md). Alternate two checkouts in one sitting:
 *
 *     for i in 1 2; do for r in ../base .; do
 *       deno run -A bench/search_cpu_ab.ts $r 3 proto_level:rnd tower_big:rnd nav_test:ex
 *     done; done
 *
 * usage: search_cpu_ab.ts ROOT ROUNDS WORLD:ex|WORLD:rnd … (env NAVSCOPE_SHARED: the oracle root,
 * default ../shared beside the checkout)
 * @module
 */
import { checkoutPlanner, checkoutRoot } from "./lib/checkout_planner.ts";
import process from "node:process";

const [rootArg, roundsS, ...specs] = Deno.args;
const root = checkoutRoot(rootArg);
const shared = Deno.env.get("NAVSCOPE_SHARED") ??
  new URL("../../shared/", import.meta.url).pathname;
const { openEngine, legRequest, parseLegs } = await checkoutPlanner(root);
const { AccessSearch } = await import(
  `${root}/src/plan/route/search/access.ts`
) as typeof import("../src/plan/route/search/access.ts");
const { SpanSearch } = await import(
  `${root}/src/plan/route/search/span_astar.ts`
) as typeof import("../src/plan/route/search/span_astar.ts");

/** Process CPU time so far, ms. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const spent = { access: 0, topology: 0, geometry: 0 };
const accessRun = AccessSearch.prototype.run;
AccessSearch.prototype.run = function (...a: Parameters<typeof accessRun>) {
  const t0 = cpu();
  try {
    return accessRun.apply(this, a);
  } finally {
    spent.access += cpu() - t0;
  }
};
const spanRun = SpanSearch.prototype.run;
SpanSearch.prototype.run = function (o: Parameters<typeof spanRun>[0]) {
  const t0 = cpu();
  try {
    return spanRun.call(this, o);
  } finally {
    if (o.theta) spent.geometry += cpu() - t0;
    else spent.topology += cpu() - t0;
  }
};
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
for (const spec of specs) {
  const [w, set] = spec.split(":");
  const dir = `${shared}/oracle-v2/${w}/`;
  const ldir = set === "rnd" ? dir + "random/" : dir;
  const legs = parseLegs(await Deno.readTextFile(ldir + "legs.json"), ldir + "legs.json");
  const engine = await openEngine(dir + "base.nav.gz", { workers: 1 });
  for (const l of legs) await engine.plan(legRequest(l));
  const rows: Record<string, number[]> = {
    access: [],
    spanTopo: [],
    spanGeo: [],
    wallTopo: [],
    wallGeo: [],
    cpuAll: [],
  };
  for (let r = 0; r < Number(roundsS); r++) {
    spent.access = spent.topology = spent.geometry = 0;
    let wallTopo = 0, wallGeo = 0;
    const c0 = cpu();
    for (const l of legs) {
      const p = await engine.plan(legRequest(l));
      const t = p.debug.timing as unknown as Record<string, number>;
      wallTopo += t.topology;
      wallGeo += t.geometry;
    }
    rows.access.push(spent.access), rows.spanTopo.push(spent.topology);
    rows.spanGeo.push(spent.geometry), rows.wallTopo.push(wallTopo), rows.wallGeo.push(wallGeo);
    rows.cpuAll.push(cpu() - c0);
  }
  engine.close();
  console.log(
    spec + "\t" + Object.entries(rows).map(([k, v]) => `${k} ${med(v).toFixed(0)}`).join("\t"),
  );
}
