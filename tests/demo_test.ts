/**
 * `navscope demo` end to end (slow tier, tests/tiers.ts: it plans the five example batteries,
 * replays the failures and writes the report): `--json` carries the batteries, the replay, the
 * classify and stats tables, and a bad flag is a usage error; with `--no-replay` it still writes
 * the logs and the report and says where the report is.
 */
import { assert, assertEquals } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";

/** Runs the CLI entry with stdout/stderr captured; `err` also gets console.error. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = [console.log, console.error];
  let out = "", err = "";
  console.log = (...a: unknown[]) => void (out += a.join(" ") + "\n");
  console.error = (...a: unknown[]) => void (err += a.join(" ") + "\n");
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: out + c.out, err: err + c.err };
  } finally {
    [console.log, console.error] = saved;
  }
}

Deno.test("demo: --json prints the batteries, replay, classify and stats; a bad flag is a usage error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const j = await cli(["demo", "--json", "--out", dir]);
    assertEquals(j.code, 0, j.err);
    const out = JSON.parse(j.out);
    const city = out.city_small;
    assertEquals(city.summary.legs, city.legs.length);
    assert(city.legs.some((l: { id: string }) => l.id === "plaza_cross"));
    assert(out.classify.total > 0 && out.stats.plans > 0);
    assert(out.replay, "the replay summary");
    // The planner did not change between planning and replay (the batteries' overrides apply):
    // no leg may be reported changed, and every exact replay is identical.
    const c = out.replay.counts;
    assertEquals([c.fixed, c.failing_differently, c.newly_failing], [0, 0, 0]);
    assertEquals(out.replay.not_identical, 0);
    assertEquals(out.classify.total, out.stats.failures, "stats and classify count alike");
    assertEquals(out.report, `${dir}/report.html`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals((await cli(["demo", "--bogus"])).code, 2);
});

Deno.test("demo: plans the example batteries, writes out/logs and out/report.html", async () => {
  const dir = await Deno.makeTempDir();
  const r = await captureOutput(() => main(["demo", "--out", dir, "--no-replay"]));
  assertEquals(r.value, 0, r.err);
  assert(r.out.includes("plaza_cross") && r.out.includes("summary"), r.out.slice(-300));
  assert(r.out.includes("tier") && r.out.includes("stage"), "classify and stats tables");
  assert((await Deno.readTextFile(`${dir}/logs/city_small.log`)).includes("NAVSCOPE plan."));
  const html = await Deno.readTextFile(`${dir}/report.html`);
  assert(html.includes('id="report-data"'), "the report");
  assert(r.err.includes(`${dir}/report.html`), "says where the report is");
  await Deno.remove(dir, { recursive: true });
});
