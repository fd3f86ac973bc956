/**
 * navscope against the C++ build it reproduces, calibrated (a benchmark, not a test; issue 36).
 *
 * Plans every leg of the named oracle-v2 sets under `--profile reference` (one engine per world,
 * one decode worker, one untimed warm-up pass, then RUNS timed passes, per leg the median of each
 * stage), and compares with the C++ build's `timing_cpp_ref.jsonl` beside the battery, scaled to
 * this box by `calib_here / calib_recorded` (`../shared/tools/calib`, run right before and right
 * after the measurement, the smaller kept: interference only ever slows a run). Never compare with
 * the unscaled recorded times, nor with the older `timing_cpp.jsonl` (another build, no
 * calibration, about 2× slower than that build is on this box today).
 *
 * Prints, per set, the table: legs both planners solve, per-leg total median (p90) of
 * navscope / C++, and the median over legs of each stage's ratio (topology, geometry, pull, lift);
 * then the calibration figures and the load (1-min loadavg before and after).
 *
 *     deno run -A bench/cpp_ratio.ts [--root CHECKOUT] [--runs 5] [--json OUT] nav_test:ex dungeon:rnd …
 *
 * With `--base BASE` (another checkout, e.g. a worktree of c174b6d) it compares instead ROOT with
 * BASE in one sitting, ABBA, and translates to the C++ build through BASE's recorded ratio
 * (`bench/abba.ts`): the calibration drifts between sittings, the base does not.
 *
 *     deno run -A bench/cpp_ratio.ts --base ../base [--runs 5] [--json OUT] nav_test:rnd …
 *
 * Sets: WORLD:ex (the example battery, WORLD/legs.json) or WORLD:rnd (WORLD/random/legs.json).
 * Env NAVSCOPE_SHARED: the shared root (default ../shared beside the checkout).
 * @module
 */
import { parseArgs } from "node:util";
import { checkoutPlanner, checkoutRoot } from "./lib/checkout_planner.ts";
import { type LegTimes, measureSet, q, type Stage } from "./leg_stages.ts";
import { abba } from "./abba.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

const { values: args, positionals: specs } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    root: { type: "string" },
    base: { type: "string" },
    runs: { type: "string" },
    json: { type: "string" },
  },
});
const root = checkoutRoot(args.root ?? new URL("..", import.meta.url).pathname);
const runs = Number(args.runs ?? 5);
const shared = Deno.env.get("NAVSCOPE_SHARED") ??
  new URL("../../shared/", import.meta.url).pathname;
const planner = await checkoutPlanner(root);
const { REFERENCE_PROFILE } = await import(
  `${root}/src/plan/profile.ts`
) as typeof import("../src/plan/profile.ts");
if (args.base !== undefined) {
  await abba({ root, base: checkoutRoot(args.base), runs, shared, specs, json: args.json });
  Deno.exit(0);
}

/** The calibration workload, built once per box (the C file is the recordings' own). */
const calibBin = "/tmp/navscope_calib";
async function calib(): Promise<number> {
  try {
    await Deno.stat(calibBin);
  } catch {
    const cc = new Deno.Command("cc", {
      args: ["-O2", "-o", calibBin, `${shared}/tools/calib/calib.c`],
    });
    if (!(await cc.output()).success) throw new Error("cc failed on calib.c");
  }
  const out = new TextDecoder().decode((await new Deno.Command(calibBin).output()).stdout);
  const m = /calib_ms ([\d.]+)/.exec(out);
  if (!m) throw new Error(`calib printed ${out}`);
  return Number(m[1]);
}
const loadavg = () => Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);

const load0 = loadavg();
const calib0 = await calib();
const t0 = new Date().toISOString();
const measured: Record<string, Map<string, LegTimes>> = {};
for (const spec of specs) {
  measured[spec] = await measureSet(planner, REFERENCE_PROFILE, shared, spec, runs);
}
const calib1 = await calib();
const load1 = loadavg();
const calibHere = Math.min(calib0, calib1);

const f = (x: number) => x.toFixed(2);
const rows: string[] = [];
const json: Record<string, unknown> = {};
let calibRec = NaN;
for (const spec of specs) {
  const [w, set] = spec.split(":");
  const p = `${shared}/oracle-v2/${w}/${set === "rnd" ? "random/" : ""}timing_cpp_ref.jsonl`;
  const lines = (await Deno.readTextFile(p)).trim().split("\n").map((l) => JSON.parse(l));
  const head = lines.find((r) => r.kind === "calibration");
  if (!head) throw new Error(`${p}: no calibration line`);
  calibRec = head.calib_ms;
  const scale = calibHere / head.calib_ms;
  const C = new Map<string, { ok: boolean; stages_ms: Record<string, number> }>(
    lines.filter((r) => r.id).map((r) => [r.id, r]),
  );
  const mine = measured[spec];
  const ids = [...mine.keys()].filter((i) => mine.get(i)!.ok && C.get(i)?.ok);
  const ratio = (s: Stage) =>
    ids.map((i) => mine.get(i)![s] / (C.get(i)!.stages_ms[s] * scale)).filter(Number.isFinite);
  const tot = ratio("total");
  const st = Object.fromEntries(
    STAGE_NAMES.filter((s) => s !== "window" && s !== "assemble").map((s) => [s, q(ratio(s), 50)]),
  );
  json[spec] = { legs: ids.length, median: q(tot, 50), p90: q(tot, 90), stages: st };
  rows.push(
    `| ${w} ${set === "rnd" ? "random" : "examples"} | ${ids.length} | ${f(q(tot, 50))} (${
      f(q(tot, 90))
    }) | ${f(st.topology)} | ${f(st.geometry)} | ${f(st.pull)} | ${f(st.lift)} |`,
  );
}
console.log(
  "| set | legs | per-leg median (p90) navscope / C++ | topology | geometry | pull | lift |",
);
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
const cal = {
  date: t0,
  runs,
  calib_before_ms: calib0,
  calib_after_ms: calib1,
  calib_here_ms: calibHere,
  calib_recorded_ms: calibRec,
  scale: calibHere / calibRec,
  load_before: load0,
  load_after: load1,
};
console.log(
  `\n${t0} runs ${runs}; calib before ${calib0} / after ${calib1} ms → here ${calibHere}, ` +
    `recorded ${calibRec}, C++ times × ${(calibHere / calibRec).toFixed(3)}; ` +
    `load (1-min) ${load0} → ${load1}`,
);
if (args.json) await Deno.writeTextFile(args.json, JSON.stringify({ ...cal, sets: json }, null, 1));
