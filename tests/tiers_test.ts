/**
 * The two test tiers (tests/tiers.ts) come from one list: every slow file exists and is a test
 * file, every other test file runs in the quick tier, and the tasks are wired to the list
 * (`test` runs all of tests/, `test:quick` the rest of the list, `golden:update` the golden tests).
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_COST,
  goldenFiles,
  QUICK_COSTS,
  quickFiles,
  shards,
  SLOW_TESTS,
  TEST_FILE_RE,
  testFiles,
} from "./tiers.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

Deno.test("tiers: every slow file is a test file; every other test file is quick", async () => {
  const all = await testFiles();
  for (const f of Object.keys(SLOW_TESTS)) assert(all.includes(f), `${f}: no such test file`);
  const quick = await quickFiles();
  assertEquals([...quick, ...Object.keys(SLOW_TESTS)].sort(), all);
  assert(quick.includes("tests/tiers_test.ts"), "this test is quick");
  assert(all.length > 100, `only ${all.length} test files found`);
});

Deno.test("tiers: the file pattern is deno test's", () => {
  for (const f of ["tests/a_test.ts", "tests/a.test.ts", "tests/test.ts", "tests/x/b_test.mts"]) {
    assert(TEST_FILE_RE.test(f), f);
  }
  for (const f of ["tests/tiers.ts", "tests/oracle_runner.ts", "tests/contest.ts"]) {
    assert(!TEST_FILE_RE.test(f), f);
  }
});

Deno.test("tiers: the tasks run the full suite, the quick tier and the golden rewrite", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks;
  const cmd = (t: string) => typeof tasks[t] === "string" ? tasks[t] : tasks[t].command;
  assert(/deno test [^&]* tests\/$/.test(cmd("test")), "test runs every file of tests/");
  assert(cmd("test:quick").includes("tests/tiers.ts quick"), "test:quick runs the tier list");
  assert(cmd("golden:update").includes("tests/tiers.ts golden"), "golden:update");
  const golden = await goldenFiles();
  assert(golden.includes("tests/diff_test.ts") && golden.includes("tests/plan_picture_test.ts"));
  for (const f of golden) assert(!(f in SLOW_TESTS), `${f}: a golden test in the slow tier`);
});

Deno.test("tiers: the quick tier's shards hold every quick file once, balanced by cost", async () => {
  const quick = await quickFiles();
  for (const f of Object.keys(QUICK_COSTS)) assert(quick.includes(f), `${f}: not a quick file`);
  const cost = (fs: string[]) => fs.reduce((a, f) => a + (QUICK_COSTS[f] ?? DEFAULT_COST), 0);
  for (const n of [1, 2, 3]) {
    const parts = shards(quick, n);
    assertEquals(parts.length, n);
    assertEquals(parts.flat().sort(), quick);
    const sums = parts.map(cost);
    // Longest first onto the lightest shard: no shard exceeds another by more than its dearest file.
    const dearest = Math.max(...quick.map((f) => QUICK_COSTS[f] ?? DEFAULT_COST));
    assert(Math.max(...sums) - Math.min(...sums) <= dearest, `${n} shards: ${sums.join(", ")}`);
  }
  // Five unlisted files of equal cost on two shards: three and two, each in file order.
  assertEquals(shards(["e", "d", "c", "b", "a"], 2), [["a", "c", "e"], ["b", "d"]]);
});
