/**
 * Two checkouts in one sitting, ABBA (a benchmark, not a test; issue 57): `bench/cpp_ratio.ts
 * --base BASE` lands here. Per set, four rounds in the order base · current · current · base, each
 * round one engine (one decode worker, `--profile reference`), one untimed warm-up pass, then RUNS
 * timed passes, per leg the median of each stage (`bench/leg_stages.ts`). Per leg and stage each
 * side keeps its faster round (interference only ever slows a round); the ratio is current / base.
 *
 * Prints per set: the legs both sides solve, the per-leg total ratio's median and p90, the median
 * over legs of each stage's ratio (topology, geometry, pull, lift, total), the legs whose route
 * differs between the two checkouts (must be 0), and the translation to the C++ build through
 * the base's recorded ratio (CPP_TABLE); then the date and the load before and after.
 * @module
 */
import { checkoutPlanner } from "./lib/checkout_planner.ts";
import { type LegTimes, measureSet, q, type Stage } from "./leg_stages.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

/**
 * navscope c174b6d `--profile reference` / the C++ build, per set: per-leg ratio median, p90,
 * and the stage medians (issue 57's table: one sitting on an idle box, four rounds C++ · navscope
 * · navscope · C++, each one thread, warm, median of 5 per leg, per leg each side's faster round;
 * identical routes on all 820 legs). A set's ratio to the C++ build is its ratio to c174b6d times
 * this one — a product of medians, so an estimate, not a per-leg figure.
 */
export const CPP_TABLE: Record<string, Partial<Record<"median" | "p90" | Stage, number>>> = {
  "nav_test:ex": {
    median: 0.81,
    p90: 1.30,
    topology: 1.32,
    geometry: 1.15,
    pull: 2.71,
    lift: 1.52,
  },
  "tower_big:ex": {
    median: 1.22,
    p90: 1.61,
    topology: 1.28,
    geometry: 1.67,
    pull: 5.07,
    lift: 3.23,
  },
  "nav_test:rnd": {
    median: 0.95,
    p90: 1.29,
    topology: 1.42,
    geometry: 1.39,
    pull: 1.98,
    lift: 1.71,
  },
  "dungeon:rnd": {
    median: 0.77,
    p90: 1.05,
    topology: 1.03,
    geometry: 0.99,
    pull: 0.74,
    lift: 1.19,
  },
  "proto_level:rnd": {
    median: 0.62,
    p90: 0.95,
    topology: 0.73,
    geometry: 1.18,
    pull: 1.28,
    lift: 1.17,
  },
  "tower_big:rnd": {
    median: 0.80,
    p90: 1.14,
    topology: 0.81,
    geometry: 1.06,
    pull: 1.21,
    lift: 1.00,
  },
  "bridges:rnd": {
    median: 0.83,
    p90: 1.13,
    topology: 1.10,
    geometry: 1.22,
    pull: 0.39,
    lift: 1.02,
  },
  "tower_small:rnd": {
    median: 1.02,
    p90: 1.42,
    topology: 1.06,
    geometry: 1.22,
    pull: 1.52,
    lift: 1.03,
  },
  "tower_middle:rnd": {
    median: 0.96,
    p90: 1.28,
    topology: 0.99,
    geometry: 1.15,
    pull: 1.74,
    lift: 1.19,
  },
  "dungeon:ex": { median: 0.75 },
  "proto_level:ex": { median: 0.62 },
};

/** The base commit CPP_TABLE was measured on. */
export const CPP_TABLE_BASE = "c174b6d";

/** The stages of the table: the six but the window build and assembly (both small). */
const TABLE_STAGES = STAGE_NAMES.filter((s) => s !== "window" && s !== "assemble");
const SHOWN: Stage[] = [...TABLE_STAGES, "total"];

/** Options of one ABBA sitting. */
export interface AbbaOptions {
  /** This checkout. */
  root: string;
  /** The base checkout. */
  base: string;
  /** Timed passes per round. */
  runs: number;
  /** The shared root holding oracle-v2/. */
  shared: string;
  /** Sets, WORLD:ex | WORLD:rnd. */
  specs: string[];
  /** Where to write the figures as JSON, if anywhere. */
  json?: string;
}

const loadavg = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const f = (x: number) => Number.isFinite(x) ? x.toFixed(2) : "–";

/** Runs the sitting and prints the table. */
export async function abba(o: AbbaOptions): Promise<void> {
  const cur = await checkoutPlanner(o.root), base = await checkoutPlanner(o.base);
  const profileOf = async (root: string) =>
    ((await import(`${root}/src/plan/profile.ts`)) as typeof import("../src/plan/profile.ts"))
      .REFERENCE_PROFILE;
  const pc = await profileOf(o.root), pb = await profileOf(o.base);
  const load0 = loadavg(), date = new Date().toISOString();
  const rows: string[] = [], json: Record<string, unknown> = {};
  for (const spec of o.specs) {
    const b1 = await measureSet(base, pb, o.shared, spec, o.runs);
    const c1 = await measureSet(cur, pc, o.shared, spec, o.runs);
    const c2 = await measureSet(cur, pc, o.shared, spec, o.runs);
    const b2 = await measureSet(base, pb, o.shared, spec, o.runs);
    const r = compare(b1, b2, c1, c2);
    json[spec] = r;
    const t = CPP_TABLE[spec] ?? {};
    const cpp = (x: number, k: "median" | "p90" | Stage) => f(x * (t[k] ?? NaN));
    rows.push(
      `| ${spec} | ${r.legs} | ${f(r.median)} | ${f(r.p90)} | ` +
        SHOWN.map((s) => f(r.stages[s])).join(" | ") +
        ` | ${r.routeDiffs} | ${cpp(r.median, "median")} | ${cpp(r.p90, "p90")} | ` +
        TABLE_STAGES.map((s) => cpp(r.stages[s], s))
          .join(" | ") +
        " |",
    );
  }
  const load1 = loadavg();
  console.log(
    `current / base (ABBA, runs ${o.runs}); then × the base's recorded ratio to C++ ` +
      `(${CPP_TABLE_BASE}, issue 57)\n`,
  );
  console.log(
    "| set | legs | median | p90 | topology | geometry | pull | lift | total | route diffs " +
      "| ≈C++ median | ≈C++ p90 | ≈C++ topology | ≈C++ geometry | ≈C++ pull | ≈C++ lift |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  console.log(`\n${date}; load (1/5/15-min) before ${load0}, after ${load1}`);
  console.log(`current ${o.root}\nbase    ${o.base}`);
  if (o.json) {
    await Deno.writeTextFile(
      o.json,
      JSON.stringify(
        { date, runs: o.runs, load_before: load0, load_after: load1, sets: json },
        null,
        1,
      ),
    );
  }
}

/** Per leg each side's faster round, per stage; the ratios' median / p90 over the legs. */
function compare(
  b1: Map<string, LegTimes>,
  b2: Map<string, LegTimes>,
  c1: Map<string, LegTimes>,
  c2: Map<string, LegTimes>,
): {
  legs: number;
  median: number;
  p90: number;
  stages: Record<string, number>;
  routeDiffs: number;
} {
  const ids = [...b1.keys()].filter((i) => b1.get(i)!.ok && c1.get(i)?.ok);
  let routeDiffs = 0;
  for (const i of b1.keys()) {
    if (b1.get(i)!.ok !== c1.get(i)?.ok || b1.get(i)!.route !== c1.get(i)?.route) routeDiffs++;
  }
  const ratios = (s: Stage) =>
    ids.map((i) => Math.min(c1.get(i)![s], c2.get(i)![s]) / Math.min(b1.get(i)![s], b2.get(i)![s]))
      .filter(Number.isFinite);
  const tot = ratios("total");
  const stages = Object.fromEntries(SHOWN.map((s) => [s, q(ratios(s), 50)]));
  return { legs: ids.length, median: q(tot, 50), p90: q(tot, 90), stages, routeDiffs };
}
