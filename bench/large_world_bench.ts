/**
 * Tier-0 timings on a large generated world (the spec's 分档实测 table: plans finished at tier 0,
 * total p50 ≤ 71 ms and p90 ≤ 422 ms; 其余耗时 = total − window − topology − geometry). Plans every
 * leg of the world's battery once with one engine (one warm-up plan of the first leg), then reports
 * per stage sum / p50 / p90 / max over the legs that ended `ok` at tier 0, and the median window.
 *
 *     deno run -A commands/main.ts gen --seed 1 --scale 5 --out /tmp/s5 --bake
 *     deno run -A bench/large_world_bench.ts /tmp/s5/base.nav.gz /tmp/s5/legs.json [--skip ID,…] [--workers N]
 * @module
 */
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import { STAGES } from "../src/analyze/stats.ts";

const [pack, legsFile] = Deno.args.filter((a, i, all) =>
  !a.startsWith("--") && !all[i - 1]?.startsWith("--")
);
const opt = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const skip = new Set((opt("--skip") ?? "").split(",").filter(Boolean));
const workers = Number(opt("--workers") ?? 1);
const perLeg = Deno.args.includes("--per-leg");
const legs = parseLegs(await Deno.readTextFile(legsFile), legsFile).filter((l) => !skip.has(l.id));
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]
    : NaN;
};
const engine = await openEngine(pack, { workers });
await engine.plan(legRequest(legs[0]));
const stages = [...STAGES];
const t: Record<string, number[]> = Object.fromEntries(stages.map((s) => [s, []]));
const cells: number[] = [];
for (const leg of legs) {
  const r = await engine.plan(legRequest(leg));
  const tm = r.debug.timing as unknown as Record<string, number>;
  if (!r.ok || r.debug.tier !== 0) continue;
  if (perLeg) console.log(`${leg.id}\t${r.debug.nx * r.debug.ny}\t${tm.total.toFixed(1)}`);
  cells.push(r.debug.nx * r.debug.ny);
  let rest = tm.total;
  for (const s of stages) {
    if (s === "other" || s === "total") continue;
    t[s].push(tm[s]);
    rest -= tm[s];
  }
  t.other.push(rest);
  t.total.push(tm.total);
}
engine.close();
const f = (x: number) => x.toFixed(1);
console.log(
  `${legs.length} legs, ${t.total.length} ok at tier 0; median window ${q(cells, 50)} cells`,
);
console.log("stage\tsum ms\tp50\tp90\tmax");
for (const s of stages) {
  const xs = t[s];
  console.log(
    `${s}\t${f(xs.reduce((a, b) => a + b, 0))}\t${f(q(xs, 50))}\t${f(q(xs, 90))}\t${
      f(Math.max(...xs))
    }`,
  );
}
