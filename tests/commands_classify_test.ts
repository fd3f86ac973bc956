/**
 * `navscope classify`: golden outputs in every format, JSON interface, flag errors, unreadable
 * files (skipped with a warning, or exit 1 with --strict), rules files.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/classify.ts";
import { NavscopeError } from "../src/errors.ts";
import { assertGolden, inFixtureDir } from "./fixtures/analyze/golden.ts";

async function classify(...args: string[]) {
  return await inFixtureDir(() => captureOutput(() => run(args)));
}

Deno.test("classify golden: text, json, csv, md, --by zone, --by day", async () => {
  const cases: Array<[string, string[]]> = [
    ["classify.txt", []],
    ["classify.json", ["--json"]],
    ["classify.csv", ["--csv"]],
    ["classify.md", ["--md"]],
    ["classify_by_zone.md", ["--md", "--by", "zone"]],
    ["classify_by_day.json", ["--json", "--by", "day"]],
  ];
  for (const [golden, flags] of cases) {
    const r = await classify("failures.log", ...flags);
    assertEquals(r.value, 0, golden);
    assertEquals(r.err, "", golden);
    await assertGolden(golden, r.out);
  }
});

Deno.test("classify --json is the stable CI shape", async () => {
  const r = await classify("failures.log", "--json");
  const j = JSON.parse(r.out);
  assertEquals(Object.keys(j), ["total", "unparsed_lines", "file_problems", "classes", "by"]);
  assertEquals(j.total, 33);
  assertEquals(j.unparsed_lines, 1);
  const sum = j.classes.reduce((s: number, c: { count: number }) => s + c.count, 0);
  assertEquals(sum, j.total);
  const goal = j.classes.find((c: { class: string }) => c.class === "goal_outside_reach");
  // Two plans of the same leg → 4 failures, 3 legs.
  assertEquals([goal.count, goal.legs], [4, 3]);
  assertEquals(Object.keys(goal), [
    "class",
    "count",
    "legs",
    "first_seen",
    "last_seen",
    "examples",
  ]);
  assertEquals(goal.examples[0], {
    file: "failures.log",
    line: 2,
    text: "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 26.0px)",
  });
});

Deno.test("classify: bad flags are usage errors", async () => {
  const cases: string[][] = [
    ["failures.log", "--bogus"],
    ["failures.log", "--by", "week"],
    ["failures.log", "--json", "--csv"],
    ["failures.log", "--rules"],
    [],
  ];
  for (const args of cases) {
    const e = (await assertRejects(classify(...args))) as NavscopeError;
    assert(e instanceof NavscopeError, String(e));
    assertEquals(e.code, "usage", args.join(" "));
  }
});

Deno.test("classify: an unreadable file is skipped with a warning; --strict fails", async () => {
  const r = await classify("failures.log", "missing.log", "--json");
  assertEquals(r.value, 0);
  assert(r.err.startsWith("navscope classify: warning: skipped missing.log:"), r.err);
  const j = JSON.parse(r.out);
  assertEquals(j.total, 33);
  assertEquals(j.file_problems.length, 1);
  assertEquals(j.file_problems[0].file, "missing.log");
  const e =
    (await assertRejects(classify("failures.log", "missing.log", "--strict"))) as NavscopeError;
  assertEquals(e.code, "io");
  assertEquals(e.where.file, "missing.log");
});

Deno.test("classify --rules: user rules win; bad rules file names the JSON path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const good = `${dir}/rules.json`;
    await Deno.writeTextFile(
      good,
      JSON.stringify({
        version: 1,
        rules: [{ id: "far_goal", class: "far_goal", match: { message: "终 (26|600)\\.0px" } }],
      }),
    );
    const r = await classify("failures.log", "--rules", good, "--json");
    const j = JSON.parse(r.out);
    const far = j.classes.find((c: { class: string }) => c.class === "far_goal");
    assertEquals(far.count, 3);
    const goal = j.classes.find((c: { class: string }) => c.class === "goal_outside_reach");
    assertEquals(goal.count, 1);
    const bad = `${dir}/bad.json`;
    await Deno.writeTextFile(
      bad,
      JSON.stringify({ version: 1, rules: [{ id: "x", class: "x", match: { code: 1 } }] }),
    );
    const e = (await assertRejects(classify("failures.log", "--rules", bad))) as NavscopeError;
    assertEquals(e.code, "bad_value");
    assertEquals(e.where.section, "$.rules[0].match.code");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
