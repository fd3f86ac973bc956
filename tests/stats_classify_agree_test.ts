/**
 * `stats` and `classify` count the same failures in the same logs: navscope plan lines,
 * MaaFramework navigator lines (which carry no plan record) and a mix, also per zone and under a
 * zone filter.
 */
import { classifyLogs, statsLogs } from "../src/analyze/log_pipeline.ts";
import { assert, assertEquals } from "./assert.ts";

const FX = new URL("./fixtures/", import.meta.url).pathname;
const INPUTS = [
  `${FX}logs/navigator_full.log`,
  `${FX}logs/navigator_short.log`,
  `${FX}analyze/failures.log`,
  `${FX}analyze/plans.log`,
];

Deno.test("stats: failures excluded = classify's failures, on every fixture log", async () => {
  for (const input of INPUTS) {
    const c = (await classifyLogs([input])).report;
    const s = (await statsLogs([input])).report;
    assertEquals(s.failures, c.total, input);
  }
  // The MaaFramework navigator log: failures classify sees, although no failed plan record.
  const nav = (await statsLogs([INPUTS[0]])).report;
  assert(nav.failures > 0 && nav.failed_excluded === 0, JSON.stringify(nav.failures));
  const all = (await statsLogs(INPUTS)).report;
  assertEquals(all.failures, (await classifyLogs(INPUTS)).report.total);
});

Deno.test("stats: per-zone failures add up to classify's per-zone counts", async () => {
  const c = (await classifyLogs(INPUTS, { by: "zone" })).report;
  const s = (await statsLogs(INPUTS, { byZone: true })).report;
  for (const g of c.groups!) {
    if (g.key === "?") continue;
    assertEquals(s.zones!.find((z) => z.zone === g.key)?.failures, g.total, g.key);
    const only = (await statsLogs(INPUTS, { filter: { zones: [g.key] } })).report;
    assertEquals(only.failures, g.total, `--zone ${g.key}`);
  }
});

Deno.test("classify: plan lines naming their battery leg are distinct legs, examples name the id", async () => {
  const { emptyPlanRecord, formatPlanLine } = await import("../src/logs/plan_line.ts");
  const dir = await Deno.makeTempDir({ prefix: "classify_leg_" });
  try {
    let text = "";
    for (const [i, id] of ["cancelled", "cancelled_again"].entries()) {
      const r = emptyPlanRecord("map01base", [24, 40], [66, 12]);
      Object.assign(r, { code: "cancelled", error: "规划被取消", leg: id });
      text += formatPlanLine(r, { time: Date.UTC(2026, 9, 1, 8, 0, i) }) + "\n";
    }
    await Deno.writeTextFile(`${dir}/plans.log`, text);
    const c = (await classifyLogs([`${dir}/plans.log`])).report;
    assertEquals(c.total, 2);
    assertEquals(c.classes[0].legs, 2);
    assertEquals(c.classes[0].examples.map((e) => e.leg), ["cancelled", "cancelled_again"]);
    assertEquals((await statsLogs([`${dir}/plans.log`])).report.failures, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
