/**
 * Statistics: the nearest-rank percentile against a brute-force definition, the spec's
 * 分档实测 tables reproduced from a generated corpus, and a small hand-checked corpus.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { nearestRank, percentile, summarize } from "../src/analyze/percentile.ts";
import { StatsAccumulator, StatsGroup, statsMetrics } from "../src/analyze/stats.ts";
import { emptyPlanRecord } from "../src/logs/plan_line.ts";
import { COUNTER_NAMES, emptyCounters, emptyOtherTimings } from "../src/plan/counters.ts";
import { PlanCollector } from "../src/analyze/log_collectors.ts";
import { parseLogText } from "../src/logs/parser.ts";
import { formatPlanLine } from "../src/logs/plan_line.ts";
import {
  DECK_NOTE,
  SEARCH_NOTE,
  SPEC_COMBOS,
  SPEC_TIERS,
  SPEC_WINDOWS,
  specTierCorpus,
  WALK_NOTE,
} from "./fixtures/analyze/spec_corpus.ts";
import { MINI_PLANS, plansLog } from "./fixtures/analyze/make_fixtures.ts";

/** Brute force: the smallest sample v with #{x ≤ v} ≥ p/100·n (p = 0 → min). */
function bruteNearestRank(values: number[], p: number): number {
  if (!values.length) return NaN;
  if (p <= 0) return Math.min(...values);
  const need = (p / 100) * values.length;
  let best = Infinity;
  for (const v of values) {
    const le = values.filter((x) => x <= v).length;
    if (le >= need - 1e-9 && v < best) best = v;
  }
  return best;
}

Deno.test("nearest-rank percentile equals the brute-force definition", () => {
  const rnd = mulberry32(42);
  const ps = [0, 1, 10, 25, 29, 33.3, 50, 66.7, 75, 90, 95, 99, 100];
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(rnd() * 40);
    const vals = Array.from({ length: n }, () => Math.round(rnd() * 50) / 2);
    for (const p of ps) {
      assertEquals(percentile(vals, p), bruteNearestRank(vals, p), `n=${n} p=${p}`);
    }
  }
  assert(Number.isNaN(percentile([], 50)));
  assertEquals(nearestRank(50, 3), 2);
  assertEquals(nearestRank(90, 3), 3);
  assertEquals(nearestRank(29, 100), 29); // 0.29·100 is 29.000000000000004 in floating point
  const s = summarize([5, 1, 3]);
  assertEquals([s.count, s.sum, s.min, s.p50, s.p90, s.max], [3, 9, 1, 3, 5, 5]);
});

Deno.test("spec 分档实测 tables are reproduced from the generated corpus", () => {
  const corpus = specTierCorpus();
  assertEquals(corpus.length, 3567);
  const g = new StatsGroup();
  for (const p of corpus) g.add(p.record);
  const b = g.body();
  assertEquals(b.plans, 3567);
  assertEquals(
    b.tiers.map((
      t,
    ) => [t.tier, t.count, t.total_ms.p50, t.total_ms.p90, t.total_ms.max, t.other_ms_p50]),
    SPEC_TIERS.map((r) => [...r]),
  );
  assertEquals(
    b.window_buckets.map((w) => [w.tier, w.le_2_9m, w.from_2_9m_to_3m, w.gt_3m]),
    SPEC_WINDOWS.map((r) => [...r]),
  );
  // Reason combinations: the spec's two columns plus the 24 deck plans.
  const got = new Map(b.reasons.map((r) => [
    `${r.reasons[SEARCH_NOTE] ?? 0},${r.reasons[WALK_NOTE] ?? 0},${r.reasons[DECK_NOTE] ?? 0}`,
    r.plans,
  ]));
  const want = new Map(SPEC_COMBOS.map(([a, w, n]) => [`${a},${w},0`, n]));
  want.set("0,0,1", 24);
  assertEquals(got, want);
  assertEquals(b.reasons[0].key, "(none)");
  assertEquals(b.reasons[0].plans, 2767);
  // 77.6 % at tier 0 (spec), 2559/3567 = 71.7 % small-window tier 0 (formulas.md #88).
  assertEquals((b.tier0_share! * 100).toFixed(1), "77.6");
  assertEquals((b.tier0_small_share! * 100).toFixed(1), "71.7");
  // 777 capped windows + 46 segment-capped = 823 (spec).
  assertEquals(b.window_buckets.reduce((s, w) => s + w.from_2_9m_to_3m, 0), 777);
});

Deno.test("spec corpus survives plan lines → parser → stats", () => {
  const corpus = specTierCorpus();
  const text = corpus.map((p) => formatPlanLine(p.record, { time: p.time })).join("\n") + "\n";
  const { events, report } = parseLogText(text, "spec.log");
  assertEquals(report.problems.garbage, 0);
  const c = new PlanCollector();
  const acc = new StatsAccumulator();
  for (const ev of events) {
    const p = c.add(ev);
    if (p) acc.add(p.record, p.time);
  }
  const rep = acc.report();
  assertEquals(rep.plans, 3567);
  assertEquals(rep.tiers.map((t) => t.total_ms.p90), SPEC_TIERS.map((r) => r[3]));
});

function miniReport(filter = {}, byZone = false) {
  const { events } = parseLogText(plansLog(), "plans.log");
  const c = new PlanCollector();
  const acc = new StatsAccumulator(filter, byZone);
  for (const ev of events) {
    const p = c.add(ev);
    if (p) acc.add(p.record, p.time);
  }
  return acc.report(1);
}

Deno.test("small corpus: tables checked by hand", () => {
  const r = miniReport();
  assertEquals(r.plans, 10);
  assertEquals(r.failed_excluded, 1);
  assertEquals(r.tiers, [
    { tier: 0, count: 5, total_ms: { p50: 100, p90: 200, max: 200 }, other_ms_p50: 30 },
    { tier: 1, count: 2, total_ms: { p50: 300, p90: 700, max: 700 }, other_ms_p50: 100 },
    { tier: 2, count: 2, total_ms: { p50: 800, p90: 1000, max: 1000 }, other_ms_p50: 250 },
    { tier: 5, count: 1, total_ms: { p50: 2500, p90: 2500, max: 2500 }, other_ms_p50: 1200 },
  ]);
  assertEquals(r.window_buckets.map((w) => [w.tier, w.le_2_9m, w.from_2_9m_to_3m, w.gt_3m]), [
    [0, 3, 1, 1],
    [1, 1, 1, 0],
    [2, 0, 2, 0],
    [5, 0, 1, 0],
  ]);
  assertEquals(r.tier0_share, 0.5);
  assertEquals(r.tier0_small_share, 0.3);
  assertEquals(r.reason_names, ["walk 断开", "搜索碰边"]);
  assertEquals(r.reasons.map((x) => [x.key, x.plans]), [
    ["(none)", 5],
    ["walk 断开×1 + 搜索碰边×1", 2],
    ["walk 断开×1", 1],
    ["walk 断开×5", 1],
    ["搜索碰边×1", 1],
  ]);
  const st = new Map(r.stages.map((s) => [s.stage, s]));
  assertEquals(st.get("window"), { stage: "window", sum_ms: 912, p50_ms: 40, max_ms: 300 });
  assertEquals(st.get("total"), { stage: "total", sum_ms: 5880, p50_ms: 200, max_ms: 2500 });
  assertEquals(r.unparsed_lines, 1);
});

Deno.test("stage table equals a brute-force recomputation", () => {
  const r = miniReport();
  const cols = MINI_PLANS.map((p) => {
    const t = p[4];
    const six = t[0] + t[1] + t[2] + t[3] + t[4] + t[5];
    return [t[0], t[1], t[2], t[3], t[4], t[5], t[6] - six, t[6]];
  });
  r.stages.forEach((s, i) => {
    const v = cols.map((c) => c[i]);
    const sum = v.reduce((a, b) => a + b, 0);
    assertEquals(s.sum_ms, Math.round(sum * 1000) / 1000, s.stage);
    assertEquals(s.p50_ms, Math.round(bruteNearestRank(v, 50) * 1000) / 1000, s.stage);
    assertEquals(s.max_ms, Math.round(Math.max(...v) * 1000) / 1000, s.stage);
  });
});

Deno.test("filters: zone, since/until; by zone", () => {
  assertEquals(miniReport({ zones: ["map01base"] }).plans, 4);
  const t0 = Date.UTC(2026, 9, 1, 8, 0, 0, 0);
  // [08:10, 08:30) keeps plans 1 and 2.
  assertEquals(miniReport({ since: t0 + 600_000, until: t0 + 1_800_000 }).plans, 2);
  const z = miniReport({}, true);
  assertEquals(z.zones!.map((x) => [x.zone, x.plans, x.failed_excluded]), [
    ["map01base", 4, 0],
    ["map02base", 6, 1],
  ]);
});

Deno.test("work counters and the other breakdown: sum/p50/p90/max overall and per tier, metric names", () => {
  const g = new StatsGroup();
  const rec = (tier: number, pops: number, snapMs: number, total: number) => {
    const r = emptyPlanRecord("z", [0, 0], [1, 1]);
    r.ok = true;
    r.tier = tier;
    r.timing = { window: 10, topology: 20, geometry: 5, pull: 1, assemble: 1, lift: 1, total };
    r.counters = emptyCounters();
    r.counters["topology.pops"] = pops;
    r.counters["tiers.tried"] = tier + 1;
    r.otherTiming = emptyOtherTimings();
    r.otherTiming.snap = snapMs;
    return r;
  };
  // other = total − 38; unattributed = other − snap.
  g.add(rec(0, 100, 2, 50)); // unattributed 10
  g.add(rec(0, 300, 4, 44)); // 2
  g.add(rec(1, 1000, 1, 40)); // 1
  const old = emptyPlanRecord("z", [0, 0], [1, 1]); // a line without counters: not sampled
  old.ok = true;
  g.add(old);
  const failed = rec(0, 99999, 0, 99);
  failed.ok = false;
  g.add(failed);
  const b = g.body();
  assertEquals(b.counter_plans, 3);
  const pops = b.counters.find((c) => c.counter === "topology.pops")!;
  assertEquals(pops, { counter: "topology.pops", sum: 1400, p50: 300, p90: 1000, max: 1000 });
  assertEquals(b.counters.length, COUNTER_NAMES.length);
  assertEquals(b.counters_by_tier.map((t) => [t.tier, t.plans]), [[0, 2], [1, 1]]);
  const t0 = b.counters_by_tier[0].counters.find((c) => c.counter === "topology.pops")!;
  assertEquals([t0.sum, t0.p50, t0.max], [400, 100, 300]);
  assertEquals(b.other_plans, 3);
  const un = b.other_stages.find((s) => s.stage === "unattributed")!;
  assertEquals([un.sum_ms, un.p50_ms, un.max_ms], [13, 2, 10]);
  assertEquals(b.other_stages.find((s) => s.stage === "snap")!.sum_ms, 7);
  assertEquals(b.other_unattributed_share, 13 / 134);
  const m = statsMetrics(b);
  assertEquals(m.get("counters.topology.pops.p50"), { value: 300, n: 3 });
  assertEquals(m.get("counters.topology.pops.sum"), { value: 1400, n: 3 });
  assertEquals(m.get("tier_counters.1.tiers.tried.max"), { value: 2, n: 1 });
  assertEquals(m.get("timing.snap.p90"), { value: 4, n: 3 });
  assertEquals(m.get("timing.unattributed.max"), { value: 10, n: 3 });
  assertEquals(m.get("other_unattributed_share")!.value, 13 / 134);
  // Logs without counters: no rows, no counter metrics.
  const none = new StatsGroup();
  none.add(old);
  const nb = none.body();
  assertEquals([nb.counters, nb.other_stages, nb.other_unattributed_share], [[], [], null]);
  assertEquals([...statsMetrics(nb).keys()], ["other_unattributed_share"]);
});
