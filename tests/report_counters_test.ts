/**
 * The report's cost tables (issues 26 and 28): the work counters and the "other" breakdown in the
 * report data equal what `stats` computes on the same log, and the page shows both tables.
 */
import { assert, assertEquals } from "./assert.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { reportHtml } from "../reports/report_page.ts";
import { statsLogs } from "../src/analyze/log_pipeline.ts";
import { UNATTRIBUTED } from "../src/analyze/stats.ts";
import { COUNTER_NAMES, OTHER_STAGE_NAMES } from "../src/plan/counters.ts";

const FIXTURE = new URL("./fixtures/analyze/plans.log", import.meta.url);

/** The analytics fixture's plan lines, each given counters and an "other" breakdown. */
async function logWithCosts(dir: string): Promise<string> {
  const lines = (await Deno.readTextFile(FIXTURE)).split("\n").filter((l) => l.trim());
  const out = lines.map((l, i) =>
    l.includes("[ok=true]")
      ? l.trimEnd() +
        ` [other_ms=snap:${1 + i},gap:${0.5 * i}] ` +
        `[counters=tiers.tried:${1 + (i % 3)},topology.pops:${100 * (i + 1)},pull.chords:${7 * i}] `
      : l
  );
  const path = `${dir}/costs.log`;
  await Deno.writeTextFile(path, out.join("\n") + "\n");
  return path;
}

Deno.test("report data: work counters and the other breakdown equal stats on the same log", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const log = await logWithCosts(dir);
    const { data } = await reportFromLogs([log]);
    const s = (await statsLogs([log])).report;
    assert(s.counter_plans > 0 && s.other_plans > 0, "the log carries counters");
    assertEquals(data.counters.plans, s.counter_plans);
    assertEquals(data.counters.all, s.counters);
    assertEquals(data.counters.by_tier, s.counters_by_tier);
    assert(data.counters.by_tier.length > 1, "several final tiers");
    const pops = data.counters.all.find((r) => r.counter === "topology.pops")!;
    assert(pops.sum > 0 && pops.max! >= pops.p90! && pops.p90! >= pops.p50!);
    const o = data.stages.other_breakdown;
    assertEquals(o.plans, s.other_plans);
    assertEquals(o.rows.map(({ share: _, ...r }) => r), s.other_stages);
    assertEquals(o.unattributed_share, s.other_unattributed_share);
    assertEquals(o.rows.map((r) => r.stage), [...OTHER_STAGE_NAMES, UNATTRIBUTED]);
    // Shares are of the total time of those plans; the remainder's is stats' figure.
    const un = o.rows.find((r) => r.stage === UNATTRIBUTED)!;
    assert(Math.abs(un.share! - s.other_unattributed_share!) < 1e-4);
    const snap = o.rows.find((r) => r.stage === "snap")!;
    assert(Math.abs(snap.share! - snap.sum_ms / o.total_ms) < 1e-4 && snap.share! > 0);

    const html = await reportHtml(data);
    const counters = html.match(/<table id="counter-matrix">[\s\S]*?<\/table>/)![0];
    for (const n of COUNTER_NAMES) assert(counters.includes(`>${n}</th>`), n);
    assert(counters.includes(">topology</th>"), "rows grouped by stage");
    assert(counters.includes('title="tier-loop rounds started'), "what a counter counts, on hover");
    assert(counters.includes(`>${pops.sum}</td>`), "the sum is shown");
    assert(/<details id="counters">[\s\S]*docs\/counters\.md/.test(html));
    const other = html.match(/<table id="other-breakdown">[\s\S]*?<\/table>/)![0];
    assert(/<tr class="unattributed"><th scope="row">unattributed<\/th>/.test(other), other);
    assert(other.includes(">snap</th>") && other.includes(">gap</th>"));
    // The breakdown sits with the stage × tier table.
    assert(html.indexOf('id="stage-table"') < html.indexOf('id="other-breakdown"'));
    assert(html.indexOf('id="other-breakdown"') < html.indexOf('id="failure-section"'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report page: logs without counters say so instead of empty tables", async () => {
  const { data } = await reportFromLogs([FIXTURE.pathname]);
  assertEquals([data.counters.all, data.stages.other_breakdown.rows], [[], []]);
  const html = await reportHtml(data);
  assert(html.includes('id="counter-none"') && html.includes('id="other-none"'));
  assert(!html.includes('id="counter-matrix"') && !html.includes('id="other-breakdown"'));
});

Deno.test("report data: the planner profiles of the plans, with counts (a line without one is spec)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = (await Deno.readTextFile(FIXTURE)).split("\n").filter((l) =>
      l.includes("NAVSCOPE plan.")
    );
    assert(lines.length >= 3, "the fixture has plan lines");
    const marked = lines.map((l, i) => (i % 3 === 0 ? l.trimEnd() + " [profile=reference]" : l));
    const log = `${dir}/profiles.log`;
    await Deno.writeTextFile(log, marked.join("\n") + "\n");
    const { data } = await reportFromLogs([log]);
    const ref = Math.ceil(lines.length / 3);
    const expected = [{ profile: "spec", plans: lines.length - ref }, {
      profile: "reference",
      plans: ref,
    }]
      .sort((a, b) => b.plans - a.plans);
    assertEquals(data.overview.profiles, expected);
    assertEquals(data.overview.plans, lines.length);
    const html = await reportHtml(data);
    assert(html.includes('"planner profile"'), "the facts table shows the profile");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
