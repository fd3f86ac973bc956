/**
 * `navscope stats`: golden outputs in every format (small corpus and the spec corpus),
 * JSON interface, filters, flag errors, unreadable files.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/stats.ts";
import { NavscopeError } from "../src/errors.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";
import { emptyCounters, emptyOtherTimings } from "../src/plan/counters.ts";
import { gzip } from "../src/codec/gzip.ts";
import { assertGolden, inFixtureDir } from "./fixtures/analyze/golden.ts";
import { specTierCorpus } from "./fixtures/analyze/spec_corpus.ts";
import { plansLog } from "./fixtures/analyze/make_fixtures.ts";

async function stats(...args: string[]) {
  return await inFixtureDir(() => captureOutput(() => run(args)));
}

Deno.test("plans.log on disk equals a fresh generation", async () => {
  const disk = await inFixtureDir(() => Deno.readTextFile("plans.log"));
  assertEquals(disk, plansLog());
});

Deno.test("stats golden: text, json, csv, md, --by zone", async () => {
  const cases: Array<[string, string[]]> = [
    ["stats.txt", ["--by-tier"]],
    ["stats.json", ["--by-tier", "--json"]],
    ["stats.csv", ["--csv"]],
    ["stats.md", ["--md"]],
    ["stats_by_zone.md", ["--md", "--by", "zone"]],
  ];
  for (const [golden, flags] of cases) {
    const r = await stats("plans.log", ...flags);
    assertEquals(r.value, 0, golden);
    assertEquals(r.err, "", golden);
    await assertGolden(golden, r.out);
  }
});

Deno.test("stats golden: the spec's 分档实测 corpus (gzip, two files)", async () => {
  const corpus = specTierCorpus();
  const lines = corpus.map((p) => formatPlanLine(p.record, { time: p.time }));
  const half = Math.floor(lines.length / 2);
  const dir = await Deno.makeTempDir();
  try {
    const enc = new TextEncoder();
    await Deno.writeFile(
      `${dir}/maafw.bak.1.log.gz`,
      gzip(enc.encode(lines.slice(0, half).join("\n") + "\n")),
    );
    await Deno.writeTextFile(`${dir}/maafw.log`, lines.slice(half).join("\n") + "\n");
    const r = await captureOutput(() => run([dir, "--md"]));
    assertEquals(r.value, 0);
    await assertGolden("stats_spec.md", r.out);
    const j = JSON.parse((await captureOutput(() => run([dir, "--json"]))).out);
    assertEquals(j.plans, 3567);
    assertEquals(j.tiers[0], {
      tier: 0,
      count: 2767,
      total_ms: { p50: 71, p90: 422, max: 6647 },
      other_ms_p50: 26,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stats --json shape and filters", async () => {
  const j = JSON.parse((await stats("plans.log", "--json")).out);
  for (const k of ["plans", "tiers", "reasons", "window_buckets", "stages"]) assert(k in j, k);
  assertEquals(j.plans, 10);
  const z = JSON.parse((await stats("plans.log", "--json", "--zone", "map01base")).out);
  assertEquals(z.plans, 4);
  const zz = JSON.parse((await stats("plans.log", "--json", "--zone", "map01base,map02base")).out);
  assertEquals(zz.plans, 10);
  const t = JSON.parse(
    (await stats(
      "plans.log",
      "--json",
      "--since",
      "2026-10-01 08:10",
      "--until",
      "2026-10-01 08:30:00",
    )).out,
  );
  assertEquals(t.plans, 2);
  const d = JSON.parse((await stats("plans.log", "--json", "--until", "2026-10-01")).out);
  assertEquals(d.plans, 10); // a date alone includes that whole day
  const none = JSON.parse((await stats("plans.log", "--json", "--since", "2026-10-02")).out);
  assertEquals(none.plans, 0);
  assertEquals(none.tiers, []);
});

Deno.test("stats: bad flags are usage errors", async () => {
  const cases: string[][] = [
    ["plans.log", "--by", "day"],
    ["plans.log", "--since", "yesterday"],
    ["plans.log", "--since", "2026-02-30"],
    ["plans.log", "--since", "2026-10-02", "--until", "2026-10-01 12:00"],
    ["plans.log", "--md", "--json"],
    ["plans.log", "--zone"],
    ["plans.log", "-x"],
    [],
  ];
  for (const args of cases) {
    const e = (await assertRejects(stats(...args))) as NavscopeError;
    assert(e instanceof NavscopeError, String(e));
    assertEquals(e.code, "usage", args.join(" "));
  }
});

Deno.test("stats: unreadable file skipped with a warning; --strict fails", async () => {
  const r = await stats("plans.log", "nope.log", "--json");
  assertEquals(r.value, 0);
  assert(r.err.includes("warning: skipped nope.log"), r.err);
  assertEquals(JSON.parse(r.out).plans, 10);
  const e = (await assertRejects(stats("plans.log", "nope.log", "--strict"))) as NavscopeError;
  assertEquals(e.code, "io");
});

Deno.test("stats: plan lines with work counters and the other breakdown get their tables and JSON", async () => {
  const lines = [10, 30, 20].map((pops, i) => {
    const r = emptyPlanRecord("map01base", [1, 2], [3, 4]);
    r.ok = true;
    r.tier = i === 2 ? 1 : 0;
    r.timing = { window: 5, topology: 5, geometry: 5, pull: 1, assemble: 1, lift: 1, total: 40 };
    r.counters = emptyCounters();
    r.counters["topology.pops"] = pops;
    r.otherTiming = emptyOtherTimings();
    r.otherTiming.region_pick = 20;
    return formatPlanLine(r, { time: Date.UTC(2026, 9, 1, 8, i) });
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/c.log`, lines.join("\n") + "\n");
    const text = await captureOutput(() => run([`${dir}/c.log`]));
    assertEquals(text.value, 0);
    for (const title of ["Other broken down", "Work counters (", "Work counters by final tier"]) {
      assert(text.out.includes(title), title);
    }
    // other = 40 − 18 = 22; region_pick 20; unattributed 2 of 40 per plan.
    assert(text.out.includes("unattributed = other − Σ sub-stages: 5.00% of the total time"));
    const j = JSON.parse((await captureOutput(() => run([`${dir}/c.log`, "--json"]))).out);
    assertEquals(j.counter_plans, 3);
    assertEquals(
      j.counters.find((c: { counter: string }) => c.counter === "topology.pops"),
      { counter: "topology.pops", sum: 60, p50: 20, p90: 30, max: 30 },
    );
    assertEquals(j.counters_by_tier.map((t: { tier: number }) => t.tier), [0, 1]);
    assertEquals(j.other_stages.at(-1), {
      stage: "unattributed",
      sum_ms: 6,
      p50_ms: 2,
      p90_ms: 2,
      max_ms: 2,
    });
    assertEquals(j.other_unattributed_share, 0.05);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
