/**
 * One timed pass for an A/B comparison of two checkouts (not a test): opens the v2 oracle packs of
 * nav_test, dungeon and tower_big with the planner of checkout REPO, plans their 360 random legs
 * once untimed (JIT warm-up) and once timed, and prints the timed pass in ms. Alternate two
 * checkouts in one sitting and compare the per-pair ratios:
 *
 *     for i in 1 2 3 4 5; do
 *       a=$(deno run -A bench/plan_ab_pass.ts ../base); b=$(deno run -A bench/plan_ab_pass.ts .)
 *       echo "$a $b"
 *     done
 *
 *     deno run -A bench/plan_ab_pass.ts REPO [SHARED]   (SHARED: the oracle root, default ../shared)
 * @module
 */
import { checkoutPlanner, checkoutRoot } from "./lib/checkout_planner.ts";
const repo = checkoutRoot(Deno.args[0]);
const shared = Deno.args[1] ?? new URL("../../shared/", import.meta.url).pathname;
const { openEngine, legRequest, parseLegs } = await checkoutPlanner(repo);
type Eng = Awaited<ReturnType<typeof openEngine>>;
const sets: { e: Eng; reqs: ReturnType<typeof legRequest>[] }[] = [];
for (const w of ["nav_test", "dungeon", "tower_big"]) {
  const d = `${shared}/oracle-v2/${w}/`;
  const legs = parseLegs(await Deno.readTextFile(d + "random/legs.json"), d + "random/legs.json");
  sets.push({ e: await openEngine(d + "base.nav.gz"), reqs: legs.map((l) => legRequest(l)) });
}
for (const { e, reqs } of sets) for (const q of reqs) await e.plan(q);
const t0 = performance.now();
for (const { e, reqs } of sets) for (const q of reqs) await e.plan(q);
console.log((performance.now() - t0).toFixed(0));
