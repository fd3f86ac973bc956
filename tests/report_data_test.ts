/**
 * The HTML report's aggregated data (reports/report_data.ts): golden JSON on the analytics
 * fixtures (not HTML bytes), agreement with `classify` / `stats` (the report reuses their
 * accumulators), the bounded scatter sample on many plans, and the command's outputs.
 */
import { assert, assertEquals } from "./assert.ts";
import { assertGolden, inFixtureDir } from "./fixtures/analyze/golden.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { chartSpecs } from "../reports/report_charts.ts";
import { reportHtml } from "../reports/report_page.ts";
import { classifyLogs, statsLogs } from "../src/analyze/log_pipeline.ts";
import { syntheticLog } from "../testing/plan_lines_synth.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";

const INPUTS = ["plans.log", "failures.log"];

Deno.test("report data: golden JSON on the analytics fixtures", async () => {
  const { data } = await inFixtureDir(() => reportFromLogs(INPUTS));
  await assertGolden("report_data.json", JSON.stringify(data, null, 2) + "\n");
  // The chart configs are data too: one per chart, with theme tokens only.
  const specs = chartSpecs(data);
  // No chart repeats a table (the classes and per-tier totals are tables).
  assertEquals(specs.map((s) => s.id), ["chart-tiers", "chart-scatter", "chart-stages"]);
  // Chinese escalation reasons keep their wording, with the gloss beside them.
  const labels = JSON.stringify(specs[0].config);
  assert(labels.includes("walk 断开×1 (walk broken×1)"), labels);
  // Every Chinese text of the page has its gloss.
  for (const l of data.failures.legs) {
    if (/[\u4e00-\u9fff]/.test(l.error)) assert(data.glosses[l.error], l.error);
  }
  assert(!JSON.stringify(specs).includes("#"), "colours are theme tokens, not literals");
});

Deno.test("report data: same classes and statistics as classify and stats", async () => {
  await inFixtureDir(async () => {
    const { data } = await reportFromLogs(INPUTS);
    const c = (await classifyLogs(INPUTS)).report;
    const s = (await statsLogs(INPUTS)).report;
    assertEquals(
      data.overview.failures_by_class,
      c.classes.map((r) => ({ class: r.class, count: r.count, legs: r.legs })),
    );
    assertEquals(data.tiers.total_ms, s.tiers);
    assertEquals(data.tiers.window_buckets, s.window_buckets);
    assertEquals(data.stages.table, s.stages);
    assertEquals(data.tiers.tier0_share, s.tier0_share);
    // Per-tier bodies add up to the whole.
    assertEquals(data.tiers.rows.reduce((n, r) => n + r.plans, 0), s.plans);
    for (const r of data.tiers.rows) {
      assertEquals(Object.values(r.stacks).reduce((a, b) => a + b, 0), r.plans);
    }
    // Distinct failing legs: their failures add up to classify's total.
    assertEquals(data.failures.legs.reduce((n, l) => n + l.count, 0), c.total);
  });
});

Deno.test("report data: many plans give a bounded sample and a small page", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${dir}/big.log`;
  await Deno.writeTextFile(log, syntheticLog(6000));
  const { data } = await reportFromLogs([log], { maxPoints: 500, maxLegs: 100 });
  assertEquals(data.overview.plans, 6000);
  assertEquals(data.scatter.points.length, 500);
  assert(data.scatter.sampled && data.scatter.eligible > 5000);
  assert(data.notes.some((n) => n.includes("sample of 500")), data.notes.join("\n"));
  assertEquals(data.failures.legs.length, 100);
  assert(data.failures.total_legs > 100);
  // Deterministic sample.
  const again = (await reportFromLogs([log], { maxPoints: 500, maxLegs: 100 })).data;
  assertEquals(again.scatter.points, data.scatter.points);
  const html = await reportHtml(data);
  assert(html.length < 1_000_000, `page ${html.length} bytes`);
  assert(
    !/https?:\/\/[^"' ]*\.(js|css|woff2?)/.test(html.replace(/<script>[\s\S]*?<\/script>/g, "")),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("report command: writes HTML, --json data and --trace; usage errors exit 2", async () => {
  const dir = await Deno.makeTempDir();
  await inFixtureDir(async () => {
    const r = await captureOutput(() =>
      main([
        "report",
        ...INPUTS,
        "--out",
        `${dir}/r.html`,
        "--json",
        `${dir}/r.json`,
        "--trace",
        `${dir}/t.json`,
      ])
    );
    assertEquals(r.value, 0, r.err);
  });
  const html = await Deno.readTextFile(`${dir}/r.html`);
  assert(html.startsWith("<!doctype html>"));
  assert(html.includes("Content-Security-Policy") && html.includes("prefers-color-scheme"));
  const embedded = JSON.parse(
    html.match(/<script id="report-data" type="application\/json">(.*?)<\/script>/s)![1],
  );
  assertEquals(embedded, JSON.parse(await Deno.readTextFile(`${dir}/r.json`)));
  const trace = JSON.parse(await Deno.readTextFile(`${dir}/t.json`));
  assert(Array.isArray(trace.traceEvents) && trace.traceEvents.length > 0);
  const noLogs = await captureOutput(() => main(["report", "--out", `${dir}/x.html`]));
  assertEquals(noLogs.value, 2);
  const noOut = await captureOutput(() => main(["report", "x.log"]));
  assertEquals(noOut.value, 2);
  const missing = await captureOutput(() =>
    main(["report", `${dir}/none.log`, "--out", `${dir}/x.html`])
  );
  assertEquals(missing.value, 1);
  await Deno.remove(dir, { recursive: true });
});
