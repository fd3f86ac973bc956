/**
 * `navscope diff` on constructed run pairs (tests/fixtures/diff/, written by make.ts): an
 * injected slowdown above and below the noise floor, a new failure class, an improvement and an
 * unknown threshold name, each with its exit code and Markdown (golden files tests/golden/diff_*).
 */
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/diff.ts";
import { main } from "../commands/main.ts";
import { diffRuns, parseThresholds, readRun } from "../src/analyze/diff.ts";
import { assert, assertEquals } from "./assert.ts";
import { assertGolden } from "./fixtures/analyze/golden.ts";

const DIR = new URL("./fixtures/diff/", import.meta.url);

async function diffIn(args: string[]) {
  const old = Deno.cwd();
  Deno.chdir(DIR);
  try {
    return await captureOutput(() => run(args));
  } finally {
    Deno.chdir(old);
  }
}

Deno.test("diff: a slowdown above the noise floor is a regression (exit 3)", async () => {
  const c = await diffIn(["base.log", "slow.log"]);
  assertEquals(c.value, 3);
  assert(c.out.includes("## navscope diff: REGRESSION"), c.out);
  assert(/\| timing\.total\.p50 +\| +10 \| +40 \| +\+30 \|/.test(c.out), c.out);
  await assertGolden("diff_slow.md", c.out);
});

Deno.test("diff: a slowdown below the noise floor passes (exit 0)", async () => {
  const c = await diffIn(["base.log", "noise.log"]);
  assertEquals(c.value, 0);
  assert(c.out.startsWith("## navscope diff: PASS"), c.out);
  await assertGolden("diff_noise.md", c.out);
});

Deno.test("diff: a new failure class and its leg are reported (exit 3)", async () => {
  const c = await diffIn(["base.log", "newclass.log", "--json", "/dev/null"]);
  assertEquals(c.value, 3);
  assert(c.out.includes("`failures.route_disconnected`"), c.out);
  assert(c.out.includes("### New failing legs (1)"), c.out);
  assert(c.out.includes("map01base\\|0.00,1.00\\|0.00,50.00\\|-"), c.out); // Markdown-escaped
  await assertGolden("diff_newclass.md", c.out);
});

Deno.test("diff: an improvement passes and is marked improved (exit 0)", async () => {
  const c = await diffIn(["base.log", "better.log"]);
  assertEquals(c.value, 0);
  assert(c.out.includes("improved"), c.out);
  assert(c.out.includes("### Fixed legs (2)"), c.out);
  await assertGolden("diff_better.md", c.out);
});

Deno.test("diff: a threshold naming an unknown metric is an error (exit 1)", async () => {
  const c = await diffIn(["base.log", "slow.log", "--thresholds", "unknown_metric.json"]);
  assertEquals(c.value, 1);
  assertEquals(c.out, "");
  await assertGolden("diff_unknown_metric.txt", c.err);
});

Deno.test("diff: usage errors exit 2 (the rule of every command), bad input 1", async () => {
  const c = await captureOutput(() => run(["only-one"]));
  assertEquals(c.value, 2);
  assert(c.err.trim().endsWith("(see navscope diff --help)"), c.err);
  assertEquals(c.err.match(/diff: /g)?.length, 1, c.err);
  const code = await main(["diff", "a", "b", "c"]);
  assertEquals(code, 2);
  const missing = await captureOutput(() => run(["/nonexistent-a.log", "/nonexistent-b.log"]));
  assertEquals(missing.value, 1);
});

Deno.test("diff: thresholds validation names the JSON path", () => {
  const bad = (doc: unknown, re: RegExp) => {
    try {
      parseThresholds(JSON.stringify(doc), "t.json");
    } catch (e) {
      assert(re.test((e as Error).message), (e as Error).message);
      return;
    }
    throw new Error("no error for " + JSON.stringify(doc));
  };
  const h = { format: "navscope-thresholds", version: 1 };
  bad(
    { ...h, metrics: { "failures.nope": {} } },
    /\$\.metrics\["failures\.nope"\]: unknown failure class/,
  );
  bad({ ...h, metrics: { latency: {} } }, /unknown metric/);
  bad({ ...h, metrics: { plans: {} } }, /informational/);
  bad({ ...h, metrics: { failures: { max_pct: 1 } } }, /\.max_pct: unknown field/);
  bad({ ...h, metrics: { failures: { noise_floor: -1 } } }, /must be a number ≥ 0/);
  bad({ ...h, version: 2, metrics: {} }, /\$\.version/);
  parseThresholds(
    JSON.stringify({ ...h, metrics: { "timing.*.p90": { max_increase_pct: 5 } } }),
    "t",
  );
});

Deno.test("diff: a stats --json file compares its timings; classes are n/a", async () => {
  const old = Deno.cwd();
  Deno.chdir(DIR);
  try {
    const b = await readRun("base.log");
    const s = await readRun("../analyze/../../golden/stats.json");
    assertEquals(s.kind, "stats");
    const r = diffRuns(b, s);
    const m = r.metrics.find((x) => x.metric === "failing_legs")!;
    assertEquals(m.verdict, "n/a");
  } finally {
    Deno.chdir(old);
  }
});
