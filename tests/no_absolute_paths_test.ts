/**
 * No output names the checkout by its absolute path (issue 37): replay.json, stats and diff
 * JSON, the report and the demo's inputs carry paths relative to the working directory (or as
 * given). Runs with the checkout as the working directory, as `deno task …` does, and looks for
 * that directory's absolute path in every output.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { demoReplayInputs } from "../commands/demo.ts";
import { cwdRelative } from "../src/util/shown_paths.ts";
import { assert, assertEquals } from "./assert.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const saved = console.error;
  console.error = () => {};
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: c.out };
  } finally {
    console.error = saved;
  }
}

function noRoot(what: string, text: string): void {
  assert(!text.includes(ROOT), `${what} names the checkout's absolute path ${ROOT}`);
}

Deno.test("outputs carry no absolute path of the checkout", async () => {
  const before = Deno.cwd();
  const tmp = await Deno.makeTempDir({ prefix: "no_abs_" });
  Deno.chdir(ROOT);
  try {
    assertEquals(cwdRelative(join(ROOT, "examples", "baseline")), "examples/baseline");
    assertEquals(cwdRelative("a/b"), "a/b");
    noRoot("the demo's replay inputs", demoReplayInputs().join(" "));

    const log = "tests/fixtures/diff/base.log";
    // replay with the default pack (found by the command itself).
    const rep = await cli(["replay", log, "--all", "--out", join(tmp, "replay")]);
    assertEquals(rep.code, 0, rep.out);
    noRoot("replay.json", await Deno.readTextFile(join(tmp, "replay", "replay.json")));
    const stats = await cli(["stats", log, "--json"]);
    assertEquals(stats.code, 0);
    noRoot("stats --json", stats.out);
    await cli(["diff", log, "tests/fixtures/diff/slow.log", "--json", join(tmp, "diff.json")]);
    noRoot("diff --json", await Deno.readTextFile(join(tmp, "diff.json")));
    const html = join(tmp, "report.html");
    const r = await cli([
      "report",
      log,
      "--out",
      html,
      "--baseline",
      "examples/baseline/plans.log",
    ]);
    assert(r.code === 0 || r.code === 3, `report exit ${r.code}`);
    noRoot("the report", await Deno.readTextFile(html));
  } finally {
    Deno.chdir(before);
    await Deno.remove(tmp, { recursive: true });
  }
});
