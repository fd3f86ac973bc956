/**
 * The region pick's box of one region, two checkouts in one sitting (a benchmark, not a test;
 * issue 57): rounds in the order base · current · current · base, each round RUNS times a fresh
 * engine (untimed load of the zone) and the timed `ZoneState.regionBox(rid)` — the cold box a
 * plan's region pick (选类) computes once per zone and region. Per side the fastest run (load only
 * ever slows a run); the boxes must be equal.
 *
 *     deno run -A bench/region_box_ab.ts --base ../c174b6d [--runs 3] PACK ZONE RID
 *
 * e.g. on `gen --seed 1 --scale 5 --out /tmp/s5 --bake`: `/tmp/s5/base.nav.gz map01base 1`
 * (region 1 is the one the leg `slope_65_up` picks; its box is the whole zone).
 * @module
 */
import { parseArgs } from "node:util";
import { checkoutPlanner, checkoutRoot } from "./lib/checkout_planner.ts";

const { values: args, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { base: { type: "string" }, runs: { type: "string" } },
});
const [pack, zone, ridArg] = positionals;
if (!args.base || !pack || !zone || !ridArg) {
  console.error("usage: region_box_ab.ts --base CHECKOUT [--runs N] PACK ZONE RID");
  Deno.exit(2);
}
const rid = Number(ridArg), runs = Number(args.runs ?? 3);
const sides = {
  base: await checkoutPlanner(checkoutRoot(args.base)),
  current: await checkoutPlanner(checkoutRoot(new URL("..", import.meta.url).pathname)),
};
const times: Record<string, number[]> = { base: [], current: [] };
const boxes: Record<string, string> = {};
const load = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
const before = load();
for (const side of ["base", "current", "current", "base"] as const) {
  for (let r = 0; r < runs; r++) {
    const engine = await sides[side].openEngine(pack, { workers: 1 });
    const zs = await engine.zoneState(zone);
    const t = performance.now();
    const box = zs.regionBox(rid);
    times[side].push(performance.now() - t);
    boxes[side] = JSON.stringify(box);
    engine.close();
  }
}
const best = (s: string) => Math.min(...times[s]);
console.log(
  `region ${rid} box ${boxes.current}; same on both sides: ${boxes.base === boxes.current}`,
);
for (const s of ["base", "current"]) {
  console.log(
    `${s.padEnd(7)} ms ${times[s].map((x) => x.toFixed(0)).join(" ")} (fastest ${
      best(s).toFixed(0)
    })`,
  );
}
console.log(
  `current / base ${(best("current") / best("base")).toFixed(2)}; ${
    new Date().toISOString()
  }; load before ${before}, after ${load()}`,
);
Deno.exit(0);
