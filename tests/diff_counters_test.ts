/**
 * `navscope diff` gates the work counters (docs/counters.md) like any metric, on any machine:
 * they count work, not time. Constructed runs: more topology pops across machines is a
 * regression; the same counters with slower clocks on another machine pass; metric names of
 * counters, tier counters and sub-stages are validated.
 */
import { join } from "node:path";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/diff.ts";
import { NIGHTLY_THRESHOLDS } from "../src/analyze/diff.ts";
import { checkMetricName, diffRuns, parseThresholds, readRun } from "../src/analyze/diff.ts";
import { statsLogs } from "../src/analyze/log_pipeline.ts";
import { makeFingerprint, writeMachineFile } from "../src/analyze/machine.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";
import { emptyCounters } from "../src/plan/counters.ts";
import { assert, assertEquals } from "./assert.ts";

const A = makeFingerprint({
  cpu: "Fixture CPU 3000",
  cores: 4,
  os: "linux",
  arch: "x86_64",
  deno: "2.9.6",
  v8: "15.0.245.2-rusty",
});
const B = makeFingerprint({ ...A, cpu: "Other CPU 9", cores: 16 });

/** Ten ok plans whose topology pops are `pops` and total time `ms`. */
function plans(pops: number, ms: number): string {
  const lines = [];
  for (let i = 0; i < 10; i++) {
    const r = emptyPlanRecord("map01base", [i, 1], [i, 50]);
    r.version = "navscope/0.1.0";
    r.ok = true;
    r.tier = 0;
    r.kind = "tentative";
    r.points = 2;
    r.length = 49;
    r.timing = {
      window: ms / 2,
      topology: ms / 4,
      geometry: ms / 8,
      pull: 0,
      assemble: 0,
      lift: 0,
      total: ms,
    };
    const c = emptyCounters();
    c["tiers.tried"] = 1;
    c["window.cells"] = 50_000 + i;
    c["topology.pops"] = pops + i;
    r.counters = c;
    lines.push(formatPlanLine(r, { time: 0 }) + "\n");
  }
  return lines.join("");
}

async function runs(base: string, cur: string): Promise<{ tmp: string; b: string; c: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "diff_counters_" });
  for (const [d, text, m] of [["base", base, A], ["cur", cur, B]] as const) {
    await Deno.mkdir(join(tmp, d));
    await Deno.writeTextFile(join(tmp, d, "plans.log"), text);
    await writeMachineFile(join(tmp, d, "machine.json"), m);
  }
  return { tmp, b: join(tmp, "base", "plans.log"), c: join(tmp, "cur", "plans.log") };
}

Deno.test("diff: more work counted is a regression, whatever the machines", async () => {
  const { tmp, b, c } = await runs(plans(1000, 20), plans(1500, 20));
  const r = await captureOutput(() => run([b, c, "--json", join(tmp, "d.json")]));
  assertEquals(r.value, 3, r.out);
  assert(r.out.includes("`counters.topology.pops.sum`"), r.out);
  assert(r.out.includes("`counters.topology.pops.p50`"), r.out);
  assert(r.out.includes("### Work counters and other cost metrics"), r.out);
  assert(/\| counters\.topology\.pops\.p50 +\| +1,?004 \| +1,?504 \|/.test(r.out), r.out);
  // Only topology.pops changed: its sum, p50, p90, max.
  assert(r.out.includes("work counters: 4 of 96 counter metrics changed"), r.out);
  const j = JSON.parse(await Deno.readTextFile(join(tmp, "d.json")));
  assertEquals(j.machines.timing_gated, false);
  const row = j.metrics.find((m: { metric: string }) => m.metric === "counters.window.cells.sum");
  assertEquals(row.verdict, "pass");
  assertEquals(row.unit, "count");
  // Per-tier counters only when a thresholds entry names them.
  const tierRow = (d: { metrics: Array<{ metric: string; verdict: string }> }) =>
    d.metrics.find((m) => m.metric === "tier_counters.0.topology.pops.p50");
  assertEquals(tierRow(j), undefined);
  const th = join(tmp, "t.json");
  await Deno.writeTextFile(
    th,
    JSON.stringify({
      format: "navscope-thresholds",
      version: 1,
      metrics: { "tier_counters.*.topology.pops.p50": { max_increase_pct: 1 } },
    }),
  );
  await captureOutput(() => run([b, c, "--thresholds", th, "--json", join(tmp, "d2.json")]));
  const j2 = JSON.parse(await Deno.readTextFile(join(tmp, "d2.json")));
  assertEquals(tierRow(j2)?.verdict, "regression");
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: equal counters, slower clocks on another machine → pass", async () => {
  const { tmp, b, c } = await runs(plans(1000, 20), plans(1000, 200));
  const r = await captureOutput(() => run([b, c]));
  assertEquals(r.value, 0, r.out);
  assert(r.out.includes("work counters: 0 of 96 counter metrics changed"), r.out);
  assert(r.out.includes("not comparable across machines"), r.out);
  // Under the nightly thresholds the same holds.
  const th = join(tmp, "t.json");
  await Deno.writeTextFile(th, JSON.stringify(NIGHTLY_THRESHOLDS));
  assertEquals((await captureOutput(() => run([b, c, "--thresholds", th]))).value, 0);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: the nightly thresholds gate counters", async () => {
  const { tmp, b, c } = await runs(plans(1000, 20), plans(1100, 20));
  const th = join(tmp, "t.json");
  await Deno.writeTextFile(th, JSON.stringify(NIGHTLY_THRESHOLDS));
  const r = await captureOutput(() => run([b, c, "--thresholds", th]));
  assertEquals(r.value, 3, r.out);
  assert(r.out.includes("`counters.topology.pops.sum`"), r.out);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: counter, tier-counter and sub-stage metric names are validated", () => {
  for (
    const ok of [
      "counters.topology.pops.p50",
      "counters.*.*.sum",
      "counters.geometry.*.max",
      "tier_counters.0.geometry.sight_checks.p90",
      "tier_counters.*.*.*.*",
      "timing.region_pick.sum",
      "timing.unattributed.p90",
      "timing.*.sum",
      "other_unattributed_share",
    ]
  ) assertEquals(checkMetricName(ok), "", ok);
  for (
    const [bad, why] of [
      ["counters.topology.hops.p50", "unknown counter"],
      ["counters.topology.pops.p75", "unknown statistic"],
      ["tier_counters.x.topology.pops.p50", "bad tier"],
      ["timing.window.sum", "unknown statistic"],
      ["timing.nowhere.p50", "unknown stage"],
      ["counters.topology.p50", "unknown metric"],
    ]
  ) assert(checkMetricName(bad).includes(why), `${bad}: ${checkMetricName(bad)}`);
  parseThresholds(JSON.stringify(NIGHTLY_THRESHOLDS), "nightly");
});

Deno.test("diff: a stats --json file's counters are compared too", async () => {
  const { tmp, b } = await runs(plans(1000, 20), plans(1000, 20));
  const { report } = await statsLogs([b]);
  const s = join(tmp, "stats.json");
  await Deno.writeTextFile(s, JSON.stringify({ ...report, machine: A }));
  const fromStats = await readRun(s);
  assertEquals(fromStats.cost.get("counters.topology.pops.sum")?.value, 10045);
  assertEquals(fromStats.machine?.id, A.id);
  const fromLogs = await readRun(b);
  const d = diffRuns(fromLogs, fromStats);
  const row = d.metrics.find((m) => m.metric === "counters.topology.pops.p90")!;
  assertEquals([row.base, row.current, row.verdict], [1008, 1008, "pass"]);
  assertEquals(d.machines.same, true);
  await Deno.remove(tmp, { recursive: true });
});
