/**
 * History-store figures for BENCHMARKS.md (issue 38): `history add` of one 10 000-leg run
 * (24 counters and 8 stage times a leg, as nightly's plan lines carry) into a store already
 * holding one run, and the change-point search over 365 nights × 1 000 metric series (E-divisive
 * means, 199 shuffles, alpha 0.01), with three kinds of series: constant (a counter that never
 * moved), a planted step, and noise. Prints times and the store size.
 *
 *   deno run --allow-read --allow-write bench/history_bench.ts [--legs N] [--nights N] [--metrics N]
 * @module
 */
import { join } from "node:path";
import { HistoryStore } from "../src/analyze/history.ts";
import { changePoints } from "../src/analyze/change_points.ts";
import { syntheticHistory } from "../testing/history_gen.ts";
import { mulberry32 } from "../src/rng.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

const arg = (name: string, d: number) => {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Number(Deno.args[i + 1]) : d;
};
const legs = arg("legs", 10000), nights = arg("nights", 365), metrics = arg("metrics", 1000);

const dir = await Deno.makeTempDir({ prefix: "navscope_history_bench_" });
try {
  const path = join(dir, "h.sqlite");
  const runs = syntheticHistory({ nights: 2, legs, counters: 24 });
  for (const r of runs) {
    for (const l of r.legs) {
      for (const k of [...STAGE_NAMES, "other.zone"]) {
        l.timings[k] = l.timings.total / 7;
      }
    }
  }
  const h = HistoryStore.open(path);
  h.addRun(runs[0]);
  const t0 = performance.now();
  h.addRun(runs[1]);
  const addMs = performance.now() - t0;
  h.close();
  const size = (await Deno.stat(path)).size + await Deno.stat(`${path}-wal`).then((s) => s.size)
    .catch(() => 0);
  console.log(
    `history add: ${legs} legs in ${(addMs / 1000).toFixed(2)} s; store of 2 runs ${
      (size / 2 ** 20).toFixed(1)
    } MiB (${(size / 2 / legs).toFixed(0)} B per leg-run)`,
  );

  const rand = mulberry32(7);
  const series: Float64Array[] = [];
  for (let m = 0; m < metrics; m++) {
    const x = new Float64Array(nights);
    const kind = m % 10; // 7 in 10 constant, 1 in 10 stepped, 2 in 10 noisy
    for (let i = 0; i < nights; i++) {
      if (kind < 7) x[i] = 1000 + m;
      else if (kind === 7) x[i] = i < nights / 2 ? 1000 : 1200;
      else x[i] = 1000 * (1 + 0.05 * (rand() - 0.5));
    }
    series.push(x);
  }
  const t1 = performance.now();
  let found = 0;
  for (const x of series) found += changePoints(x).length;
  const cpMs = performance.now() - t1;
  console.log(
    `change points: ${nights} nights × ${metrics} metrics in ${
      (cpMs / 1000).toFixed(2)
    } s (${found} change points; ${metrics / 10} planted)`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
