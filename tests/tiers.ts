/**
 * The test suite in two tiers, from one list. `deno task test` runs every test file (CI, the
 * README's set-up); `deno task test:quick` runs all but {@link SLOW_TESTS}: the unit, golden,
 * parser, format and property tests, under three minutes on two cores (its files split into one
 * `deno test` process per core, balanced by {@link QUICK_COSTS}). `deno task golden:update`
 * reruns the golden-file tests with `UPDATE_GOLDEN=1`, which rewrites `tests/golden/*` instead of
 * comparing (tests/fixtures/analyze/golden.ts).
 *
 * A test file lands in the quick tier unless it is listed here, so a new test is quick until
 * someone measures otherwise; `tests/tiers_test.ts` checks that every listed file exists.
 *
 * Usage: `deno run --allow-read --allow-run tests/tiers.ts quick|golden [deno test flags…]`
 * @module
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The slow tier, each file with why it is slow (measured in the full suite). Everything else is
 * the quick tier.
 */
export const SLOW_TESTS: Readonly<Record<string, string>> = {
  "tests/plan_profiles_test.ts": "the oracle sweep: every golden leg under two profiles + flips",
  "tests/report_browser_test.ts": "Chromium: the demo's report rendered and clicked",
  "tests/triage_browser_test.ts": "Chromium: a triage's report.html rendered, its pictures read",
  "tests/nightly_fresh_clone_test.ts": "a fresh clone, install and deno task nightly",
  "tests/nightly_test.ts": "nightly end to end on the example batteries",
  "tests/ab_test.ts": "nightly --ab: the example batteries planned in rounds at two commits",
  "tests/bisect_test.ts": "git worktrees at several commits, each planning a battery",
  "tests/demo_test.ts": "navscope demo end to end: five batteries, replay, report",
  "tests/bake_stitching_dungeon_test.ts": "dungeon.obj baked twice: 3 × 3 tiles and whole-zone",
  "tests/logs_bundle_test.ts": "triage end to end on the example bundle, with and without replay",
  "tests/stats_replay_test.ts": "stats / report / triage --pack: the example bundle replayed",
  "tests/library_use_test.ts": "examples/library_use.ts run as a user would, planning batteries",
  "tests/library_docs_test.ts":
    "docs/library.md's workflow examples type-checked and run: nightly, demo, triage (~60-90 s)",
  "tests/no_absolute_paths_test.ts": "replay, stats, diff and report end to end on the examples",
};

/** The variable that tells a test process it runs the quick tier, and its value there. */
export const TIER_VAR = "NAVSCOPE_TEST_TIER";

/**
 * The quick tier's environment. Under it a few heavy tests inside quick files sample less (the
 * random-leg property test: 40 legs per real-mesh world instead of 200; the fuzz run 2 s; the
 * scratch-arena check on two legs) or are skipped with `ignore: QUICK` and left to the full
 * suite (the worker-count and shard identities, the city_small property legs, the
 * tentative-equals-full check and the full-window gap legs of plan_engine and plan --svg, a
 * second or more per city_small leg).
 */
export const QUICK_ENV: Readonly<Record<string, string>> = { [TIER_VAR]: "quick" };

/** This test process runs the quick tier (`deno task test:quick`). */
export const QUICK = Deno.env.get(TIER_VAR) === "quick";

/** Deno's test-file pattern (`deno test DIR` runs these): `*_test.ts`, `*.test.ts`, `test.ts`. */
export const TEST_FILE_RE = /(?:^|[/_.])test\.(?:ts|tsx|mts|js|mjs|jsx)$/;

/** Every test file `deno test tests/` runs, repo-relative, sorted. */
export async function testFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(ROOT + rel)) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (TEST_FILE_RE.test(p)) out.push(p);
    }
  };
  await walk("tests");
  return out.sort();
}

/** The quick tier: every test file not in {@link SLOW_TESTS}. */
export async function quickFiles(): Promise<string[]> {
  return (await testFiles()).filter((f) => !(f in SLOW_TESTS));
}

/** The golden-file tests: the test files that call `assertGolden` (tests/fixtures/analyze/golden.ts). */
export async function goldenFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const f of await testFiles()) {
    if ((await Deno.readTextFile(ROOT + f)).includes("assertGolden(")) out.push(f);
  }
  return out;
}

/** The permissions of `deno task test`. */
const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

/**
 * About the seconds of the quick tier's heaviest files (2026-12-07: the sum of each file's test
 * times in `deno task test:quick`'s output, two processes on two cores); an unlisted file
 * counts {@link DEFAULT_COST}. Only the balance of the processes depends on them: a stale figure
 * costs wall time, never a test.
 */
export const QUICK_COSTS: Readonly<Record<string, number>> = {
  "tests/plan_engine_test.ts": 15,
  "tests/plan_property_test.ts": 10,
  "tests/plan_scratch_test.ts": 4,
  "tests/plan_svg_test.ts": 8,
  "tests/plan_waypoints_anchor_property_test.ts": 14,
  "tests/plan_waypoints_index_property_test.ts": 14,
  "tests/plan_search_test.ts": 6,
  "tests/fuzz_test.ts": 10,
  "tests/world_examples_test.ts": 12,
  "tests/plan_tiles_test.ts": 12,
  "tests/plan_counters_test.ts": 10,
  "tests/replay_test.ts": 10,
  "tests/pack_bounds_test.ts": 9,
  "tests/bake_world_test.ts": 8,
  "tests/plan_drop_property_test.ts": 8,
  "tests/commands_inspect_test.ts": 8,
  "tests/bake_assembly_scc_test.ts": 7,
  "tests/plan_picture_test.ts": 7,
  "tests/commands_refuse_test.ts": 7,
  "tests/history_test.ts": 6,
  "tests/commands_bake_render_test.ts": 6,
  "tests/plan_post_test.ts": 6,
  "tests/picture_png_test.ts": 6,
  "tests/render_world_test.ts": 5,
  "tests/plan_gap_test.ts": 4,
  "tests/pack_bgrd_test.ts": 4,
  "tests/replay_truth_test.ts": 4,
  "tests/report_drill_test.ts": 4,
};

/** The cost of a quick file {@link QUICK_COSTS} does not list. */
export const DEFAULT_COST = 1;

/**
 * The files split into `n` shards of about equal cost (longest first, each to the lightest shard),
 * every file in exactly one, each shard in file order.
 */
export function shards(files: readonly string[], n: number): string[][] {
  const cost = (f: string) => QUICK_COSTS[f] ?? DEFAULT_COST;
  const out = Array.from({ length: Math.max(1, n) }, () => ({ files: [] as string[], sum: 0 }));
  for (const f of [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const s = out.reduce((a, b) => (b.sum < a.sum ? b : a));
    s.files.push(f), s.sum += cost(f);
  }
  return out.map((s) => s.files.sort()).filter((s) => s.length > 0);
}

/**
 * How many `deno test` processes the quick tier runs side by side: `NAVSCOPE_TEST_JOBS`, else one
 * per core. Processes, not `deno test --parallel`: that runs the files as threads of one process,
 * which share the working directory and the environment, and some tests set those
 * (tests/diff_test.ts changes directory, tests/codec_inflate_cap_test.ts sets the inflate cap).
 */
export function quickJobs(): number {
  const env = Number(Deno.env.get("NAVSCOPE_TEST_JOBS"));
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, navigator.hardwareConcurrency ?? 1);
}

/** Copies `from` to `to` line by line, each line prefixed with `tag` (whole lines, unmixed). */
async function prefixed(from: ReadableStream<Uint8Array>, to: typeof Deno.stdout, tag: string) {
  const enc = new TextEncoder();
  let rest = "";
  for await (const chunk of from.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    if (lines.length) await to.write(enc.encode(lines.map((l) => tag + l + "\n").join("")));
  }
  if (rest) await to.write(enc.encode(tag + rest + "\n"));
}

/**
 * Runs `deno test` on each shard as its own process, side by side; their output is interleaved
 * line by line, each line tagged with its shard. A `--junit-path=P` flag becomes `P.<shard>.xml`.
 * Returns the first non-zero exit code (0 when every shard passed).
 */
async function runShards(
  parts: string[][],
  flags: string[],
  env: Record<string, string>,
): Promise<number> {
  const codes = await Promise.all(parts.map(async (files, k) => {
    const own = flags.map((f) => f.startsWith("--junit-path=") ? `${f}.${k}.xml` : f);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["test", ...PERMISSIONS, ...own, ...files],
      cwd: ROOT,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const tag = parts.length > 1 ? `[${k + 1}/${parts.length}] ` : "";
    await Promise.all([
      prefixed(child.stdout, Deno.stdout, tag),
      prefixed(child.stderr, Deno.stderr, tag),
    ]);
    const { code } = await child.status;
    console.error(`${tag}${files.length} files: ${code === 0 ? "ok" : `exit ${code}`}`);
    return code;
  }));
  return codes.find((c) => c !== 0) ?? 0;
}

if (import.meta.main) {
  const [tier, ...rest] = Deno.args;
  if (tier !== "quick" && tier !== "golden") {
    console.error("usage: tests/tiers.ts quick|golden [deno test flags…]");
    Deno.exit(2);
  }
  if (tier === "golden") {
    const files = await goldenFiles();
    console.error(`golden:update: rewriting tests/golden/ from ${files.join(", ")}`);
    Deno.exit(await runShards([files], rest, { UPDATE_GOLDEN: "1" }));
  }
  const parts = shards(await quickFiles(), quickJobs());
  console.error(
    `test:quick: ${parts.flat().length} test files in ${parts.length} processes ` +
      `(${Object.keys(SLOW_TESTS).length} slow ones left to deno task test: tests/tiers.ts)`,
  );
  Deno.exit(await runShards(parts, rest, { ...QUICK_ENV }));
}
