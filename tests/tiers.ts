/**
 * The test suite in two tiers, from one list. `deno task test` runs every test file (CI, the
 * README's set-up); `deno task test:quick` runs all but {@link SLOW_TESTS}: the unit, golden,
 * parser, format and property tests, a few minutes on two cores. `deno task golden:update`
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
};

/**
 * The quick tier's environment: the random-leg property test (tests/plan_property_test.ts)
 * samples 40 legs per world (city_small's count) instead of 200; the full suite runs them all.
 */
export const QUICK_ENV: Readonly<Record<string, string>> = { NAVSCOPE_PROPERTY_LEGS: "40" };

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

if (import.meta.main) {
  const [tier, ...rest] = Deno.args;
  if (tier !== "quick" && tier !== "golden") {
    console.error("usage: tests/tiers.ts quick|golden [deno test flags…]");
    Deno.exit(2);
  }
  const files = tier === "quick" ? await quickFiles() : await goldenFiles();
  const env = tier === "golden" ? { UPDATE_GOLDEN: "1" } : { ...QUICK_ENV };
  console.error(
    tier === "quick"
      ? `test:quick: ${files.length} test files (${Object.keys(SLOW_TESTS).length} slow ones ` +
        "left to deno task test: tests/tiers.ts)"
      : `golden:update: rewriting tests/golden/ from ${files.join(", ")}`,
  );
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", ...PERMISSIONS, ...rest, ...files],
    cwd: ROOT,
    env,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}
