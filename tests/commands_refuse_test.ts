/**
 * Bad input is refused before any work, and nothing is lost or half-written: plan --nogo /
 * --zone / --legs checks, output locations checked writable before planning, replay and report
 * refusing a missing or corrupt --pack before reading logs, report writing its files together
 * (parent folders created), one exit-code rule (0 done, 1 bad input, 2 usage, 130 interrupted)
 * and error lines that name the command once (docs/exit_codes.md).
 */
import { join } from "node:path";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { assertWritable } from "../src/codec/file.ts";
import { assert, assertEquals } from "./assert.ts";

const EX = new URL("../examples/", import.meta.url).pathname;
const DUN = join(EX, "dungeon/base.nav.gz");
const LOGS = new URL("./fixtures/logs/navigator_short.log", import.meta.url).pathname;
const ANALYZE = new URL("./fixtures/analyze/plans.log", import.meta.url).pathname;

/** Runs the CLI with stdout/stderr (console.error included) captured. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = console.error;
  let err = "";
  console.error = (...a: unknown[]) => void (err += a.join(" ") + "\n");
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: c.out, err: c.err + err };
  } finally {
    console.error = saved;
  }
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "refuse_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

/** The one error line of a refused run: names the command once. */
function assertErrorLine(cmd: string, err: string): string {
  const lines = err.trim().split("\n").filter((l) => l.includes(": error: "));
  assertEquals(lines.length, 1, err);
  const l = lines[0];
  assert(l.startsWith(`navscope ${cmd}: error: `), l);
  assert(!l.slice(`navscope ${cmd}: error: `.length).startsWith(`${cmd}: `), `doubled: ${l}`);
  return l;
}

const ONE_LEG = ["--zone", "dungeon", "--from", "10,10", "--to", "20,20"];

Deno.test("plan --nogo FILE that does not exist: exit 1 naming it, nothing planned", async () => {
  const r = await cli(["plan", DUN, ...ONE_LEG, "--nogo", "/nonexistent/nogo.json"]);
  assertEquals(r.code, 1);
  assert(assertErrorLine("plan", r.err).includes("/nonexistent/nogo.json"), r.err);
  assertEquals(r.out, "");
});

Deno.test("plan --zone NAME the pack lacks: exit 2 listing the zones", async () => {
  const r = await cli(["plan", DUN, "--zone", "nope", "--from", "1,1", "--to", "2,2"]);
  assertEquals(r.code, 2);
  const l = assertErrorLine("plan", r.err);
  assert(l.includes('"nope"') && l.includes("dungeon"), l);
  assert(l.endsWith("(see navscope plan --help)"), l);
  assertEquals(r.out, "");
});

Deno.test("plan --legs: 0 legs, or zones the pack lacks → exit 1 (zone_not_found legs pass)", async () => {
  await withTemp(async (dir) => {
    const empty = join(dir, "empty.json");
    await Deno.writeTextFile(
      empty,
      JSON.stringify({ format: "navscope-legs", version: 1, legs: [] }),
    );
    let r = await cli(["plan", DUN, "--legs", empty]);
    assertEquals(r.code, 1);
    assert(assertErrorLine("plan", r.err).includes("no legs"), r.err);
    const leg = (id: string, zone: string, expected: string) => ({
      id,
      zone,
      start: [10, 10],
      goal: [20, 20],
      expected,
      landmarks: [],
      note: "",
    });
    const bad = join(dir, "bad.json");
    await Deno.writeTextFile(
      bad,
      JSON.stringify({
        format: "navscope-legs",
        version: 1,
        legs: [leg("a", "dungeon", "snap_far_from_mesh"), leg("b", "atlantis", "ok")],
      }),
    );
    r = await cli(["plan", DUN, "--legs", bad]);
    assertEquals(r.code, 1);
    const l = assertErrorLine("plan", r.err);
    assert(l.includes("atlantis") && l.includes("legs b"), l);
    assertEquals(r.out, "", "nothing planned");
    const ok = join(dir, "ok.json");
    await Deno.writeTextFile(
      ok,
      JSON.stringify({
        format: "navscope-legs",
        version: 1,
        legs: [leg("b", "atlantis", "zone_not_found")],
      }),
    );
    r = await cli(["plan", DUN, "--legs", ok, "--check"]);
    assertEquals(r.code, 0, r.err);
  });
});

Deno.test("plan: --log and --svg are checked writable before planning; --svg says where", async () => {
  await withTemp(async (dir) => {
    let r = await cli(["plan", DUN, ...ONE_LEG, "--log", join(dir, "no/such/dir/p.log")]);
    assertEquals(r.code, 1);
    assert(assertErrorLine("plan", r.err).includes("--log"), r.err);
    assertEquals(r.out, "");
    r = await cli(["plan", DUN, ...ONE_LEG, "--svg", dir]);
    assertEquals(r.code, 1);
    assert(assertErrorLine("plan", r.err).includes("is a directory"), r.err);
    assertEquals([...Deno.readDirSync(dir)].length, 0, "no probe or temp file left");
    const svg = join(dir, "leg.svg");
    const leg = JSON.parse(Deno.readTextFileSync(join(EX, "dungeon/legs.json"))).legs
      .find((l: { expected: string }) => l.expected === "ok");
    r = await cli([
      "plan",
      DUN,
      "--zone",
      leg.zone,
      "--from",
      leg.start.join(","),
      "--to",
      leg.goal.join(","),
      "--svg",
      svg,
    ]);
    assertEquals(r.code, 0, r.err);
    assert(r.err.includes(`wrote the picture to ${svg}`), r.err);
    assert(await exists(svg));
  });
});

Deno.test("replay --pack missing or corrupt: exit 1 naming the file, before any leg or output", async () => {
  await withTemp(async (dir) => {
    const corrupt = join(dir, "base.nav.gz");
    await Deno.writeFile(corrupt, (await Deno.readFile(DUN)).slice(0, 3000));
    for (const pack of [join(dir, "missing.nav.gz"), corrupt]) {
      const out = join(dir, "out");
      const r = await cli(["replay", ANALYZE, "--pack", pack, "--out", out, "--jobs", "1"]);
      assertEquals(r.code, 1, r.err);
      assert(assertErrorLine("replay", r.err).includes(pack), r.err);
      assert(!r.err.includes("to replay"), `replayed before refusing: ${r.err}`);
      assert(!(await exists(out)), "no output folder for a refused run");
    }
  });
});

Deno.test("report: bad --pack refused before work; outputs written together, parents created", async () => {
  await withTemp(async (dir) => {
    const corrupt = join(dir, "base.nav.gz");
    await Deno.writeTextFile(corrupt, "not a pack");
    const html = join(dir, "a/b/report.html");
    let r = await cli(["report", LOGS, "--out", html, "--pack", corrupt]);
    assertEquals(r.code, 1);
    assert(assertErrorLine("report", r.err).includes(corrupt), r.err);
    assert(!(await exists(join(dir, "a"))), "nothing created for a refused run");
    // An unwritable trace: refused before reading the logs, no HTML written without its trace.
    r = await cli(["report", LOGS, "--out", html, "--trace", dir]);
    assertEquals(r.code, 1);
    assert(assertErrorLine("report", r.err).includes("--trace"), r.err);
    assert(!(await exists(html)));
    const trace = join(dir, "t/trace.json");
    r = await cli(["report", LOGS, "--out", html, "--trace", trace]);
    assertEquals(r.code, 0, r.err);
    assert((await exists(html)) && (await exists(trace)));
  });
});

Deno.test("assertWritable: refuses what cannot be written, creates nothing", async () => {
  await withTemp(async (dir) => {
    const refused = async (p: string, o = {}) => {
      try {
        await assertWritable(p, o);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    };
    assert((await refused(dir)).includes("is a directory"));
    assert((await refused(join(dir, "x/y.txt"))).includes("does not exist"));
    assertEquals(await refused(join(dir, "x/y.txt"), { createParents: true }), "");
    assertEquals(await refused(join(dir, "x/y"), { dir: true }), "");
    await Deno.writeTextFile(join(dir, "f"), "keep");
    assert((await refused(join(dir, "f"), { dir: true })).includes("not a folder"));
    assert(
      /not a (folder|directory)/.test(await refused(join(dir, "f/g.txt"), { createParents: true })),
    );
    assertEquals(await refused(join(dir, "f"), { append: true }), "");
    assertEquals(Deno.readTextFileSync(join(dir, "f")), "keep");
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["f"]);
  });
});

Deno.test("exit codes: usage 2 with the --help pointer, the command named once, everywhere", async () => {
  const cases: Array<[string, string[]]> = [
    ["plan", ["plan", "--bogus"]],
    ["plan", ["plan", DUN, "--zone", "dungeon", "--check"]],
    ["replay", ["replay"]],
    ["replay", ["replay", LOGS, "--jobs", "0"]],
    ["diff", ["diff", "a"]],
    ["report", ["report", LOGS]],
    ["classify", ["classify", LOGS, "--by", "week"]],
    ["stats", ["stats"]],
    ["merge", ["merge"]],
    ["nightly", ["nightly", "--jobs", "x"]],
    ["demo", ["demo", "extra"]],
    ["inspect", ["inspect"]],
  ];
  for (const [cmd, args] of cases) {
    const r = await cli(args);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.err}`);
    const l = assertErrorLine(cmd, r.err);
    assert(l.endsWith(`(see navscope ${cmd} --help)`), l);
  }
  // Bad input: 1, no --help pointer needed.
  const r = await cli(["classify", "/nonexistent-dir/x.log"]);
  assertEquals(r.code, 1);
  assertErrorLine("classify", r.err);
});

Deno.test({
  name: "exit codes: SIGINT stops a battery with 130 and no half-written log",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withTemp(async (dir) => {
      const log = join(dir, "p.log");
      const main = new URL("../commands/main.ts", import.meta.url).pathname;
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          main,
          "plan",
          "--legs",
          join(EX, "city_small/legs.json"),
          "--log",
          log,
        ],
        stdout: "null",
        stderr: "piped",
      }).spawn();
      // Long enough to start planning (city_small's battery takes minutes), not to finish.
      await new Promise((r) => setTimeout(r, 4000));
      child.kill("SIGINT");
      const st = await child.output();
      assertEquals(st.code, 130);
      assert(!(await exists(log)) || (await Deno.readTextFile(log)) === "", "no partial log");
    });
  },
});

Deno.test("diff --json FILE that cannot be written: exit 1 before comparing", async () => {
  const base = new URL("./fixtures/diff/base.log", import.meta.url).pathname;
  const r = await cli(["diff", base, base, "--json", "/nonexistent-dir/diff.json"]);
  assertEquals(r.code, 1);
  assert(assertErrorLine("diff", r.err).includes("--json"), r.err);
  assertEquals(r.out, "", "no verdict printed for a refused run");
});

Deno.test("nightly: a battery naming zones its pack lacks is refused before planning", async () => {
  await withTemp(async (dir) => {
    // The battery's pack is the base.nav.gz beside it: the dungeon pack set, linked.
    for (const f of Deno.readDirSync(join(EX, "dungeon"))) {
      if (f.name.startsWith("base.")) {
        await Deno.symlink(join(EX, "dungeon", f.name), join(dir, f.name));
      }
    }
    const legs = join(dir, "legs.json");
    await Deno.writeTextFile(
      legs,
      JSON.stringify({
        format: "navscope-legs",
        version: 1,
        legs: [{
          id: "lost",
          zone: "atlantis",
          start: [1, 1],
          goal: [2, 2],
          expected: "ok",
          landmarks: [],
          note: "",
        }],
      }),
    );
    const out = join(dir, "out");
    const r = await cli(["nightly", "--battery", legs, "--out", out, "--jobs", "1"]);
    assertEquals(r.code, 1, r.err);
    assert(assertErrorLine("nightly", r.err).includes("atlantis"), r.err);
    assert(!(await exists(join(out, "plans.log"))), "nothing planned");
  });
});

Deno.test("the default output folders are git-ignored", async () => {
  const ignore = (await Deno.readTextFile(new URL("../.gitignore", import.meta.url)))
    .split("\n").map((l) => l.trim());
  for (const d of ["/out/", "/nightly-out/", "/replay-out/"]) assert(ignore.includes(d), d);
});
