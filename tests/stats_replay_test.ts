/**
 * Issue 53: statistics of the product's logs through replay (`stats --pack`).
 *
 * - On the example bundle, the replayed tier table equals what `plan --legs` gives for the same
 *   legs, the legs file built here from the log text with this file's own regex (not the
 *   parser, not the replay code): every `Failed to plan NAVMESH route.` and
 *   `NAVMESH generated path.` line, one battery leg per log occurrence.
 * - `replay --all` and `stats --pack` re-plan the same legs into the same plan records.
 * - A leg whose logged outcome the replay contradicts is listed, both ways.
 * - Every table names its source; without --pack a table the logs lack says so, and a share
 *   over zero plans is "n/a", never 0.0 % (stats and diff).
 */
import { assert, assertEquals } from "./assert.ts";
import { unzipSync } from "fflate";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { writeExampleBundle } from "../testing/example_bundle.ts";
import { statsWithReplay } from "../src/analyze/replay_stats.ts";
import { comparableRecord } from "../src/analyze/replay.ts";
import { readReplayDir } from "../src/analyze/replay_run.ts";
import { parsePlanLine } from "../src/logs/plan_line.ts";
import { NOT_IN_LOGS } from "../src/analyze/stats_source.ts";
import { diffPaths } from "../src/jobs/diff.ts";
import { triage } from "../src/jobs/triage.ts";

const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;
/** The zone of the example pack (examples/city_small; the bundle's map02base leg is not in it). */
const PACK_ZONE = "map01base";

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = await captureOutput(() => main(args));
  return { code: c.value, out: c.out, err: c.err };
}

async function withTmp(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "navscope-stats-replay-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The navigator lines of the volumes, unzipped with fflate (independent of src/codec/zip.ts). */
function logText(volumes: string[]): string {
  let text = "";
  for (const v of volumes) {
    for (const [name, bytes] of Object.entries(unzipSync(Deno.readFileSync(v)))) {
      if (name.startsWith("cpp-algo/debug/")) text += new TextDecoder().decode(bytes);
    }
  }
  return text;
}

const NUM = String.raw`(-?[\d.]+)`;
const FAILED = new RegExp(
  String.raw`Failed to plan NAVMESH route\. \[navmesh_zone=(\w+)\].*\[start\.x=${NUM}\] ` +
    String.raw`\[start\.y=${NUM}\] \[goal\.x=${NUM}\] \[goal\.y=${NUM}\]`,
);
const GENERATED = new RegExp(
  String.raw`NAVMESH generated path\. \[state\.navmesh_zone=(\w+)\].*` +
    String.raw`\[navmesh_start_point=\[${NUM},${NUM}\]\] \[navmesh_goal_point=\[${NUM},${NUM}\]\]`,
);

/** One battery leg per log occurrence with coordinates, in log order (this test's own regex). */
function legsFromLog(text: string): Array<{ zone: string; start: number[]; goal: number[] }> {
  const out = [];
  for (const line of text.split(/\r?\n/)) {
    const m = FAILED.exec(line) ?? GENERATED.exec(line);
    if (m) out.push({ zone: m[1], start: [+m[2], +m[3]], goal: [+m[4], +m[5]] });
  }
  return out;
}

Deno.test("stats --by-tier --pack on the example bundle: the replayed tier table equals plan --legs on the same legs", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/bundle`);
    const found = legsFromLog(logText(vols));
    assertEquals(found.length, 6, "4 failures and 2 generated paths in the example");
    const inPack = found.filter((l) => l.zone === PACK_ZONE);
    assertEquals(inPack.length, 5);
    const battery = {
      format: "navscope-legs",
      version: 1,
      legs: inPack.map((l, i) => ({
        id: `log_${i}`,
        zone: l.zone,
        start: l.start,
        goal: l.goal,
        expected: "ok",
        landmarks: [],
        note: "from the log",
      })),
    };
    await Deno.writeTextFile(`${dir}/legs.json`, JSON.stringify(battery));
    const p = await cli(["plan", PACK, "--legs", `${dir}/legs.json`, "--log", `${dir}/plans.log`]);
    assertEquals(p.code, 0, p.err);
    const planned = JSON.parse((await cli(["stats", "--json", `${dir}/plans.log`])).out);
    const r = await cli(["stats", "--by-tier", "--json", "--pack", PACK, ...vols]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    const rep = j.replayed;
    // Same population: plans, failures, tiers with their counts, reasons, windows, counters.
    assert(planned.plans > 0);
    assertEquals(rep.plans, planned.plans);
    assertEquals(rep.failures, planned.failed_excluded);
    const tiers = (b: { tiers: Array<{ tier: number; count: number }> }) =>
      b.tiers.map((t) => [t.tier, t.count]);
    assertEquals(tiers(rep), tiers(planned));
    assertEquals(rep.tier0_share, planned.tier0_share);
    assertEquals(rep.reasons, planned.reasons);
    assertEquals(rep.window_buckets, planned.window_buckets);
    assertEquals(rep.counters, planned.counters, "work counters are machine-independent");
    assertEquals(rep.stages.map((s: { stage: string }) => s.stage), [
      "window",
      "topology",
      "geometry",
      "pull",
      "assemble",
      "lift",
      "other",
      "total",
    ]);
    // Labels: the log's figures and the replayed ones say where they come from.
    assertEquals(j.source.kind, "log");
    assertEquals(j.tiers, null, "the navigator lines carry no tier");
    assert(j.not_in_logs.fields.includes("tiers"));
    assertEquals(rep.source.kind, "replay");
    assertEquals(rep.source.profile, "spec");
    assert(/^navscope\//.test(rep.source.planner));
    assert(/^[0-9a-f]{16}$/.test(rep.source.packs[0].build_hash), rep.source.packs[0].build_hash);
    assert(rep.source.label.startsWith(`replayed on ${PACK} (build `), rep.source.label);
    // Legs: 6 log legs, 5 served by 3 distinct replays (one leg logged three times: failed
    // twice, then planned), 1 zone not in the pack.
    assertEquals(rep.legs.log_legs, 6);
    assertEquals(rep.legs.served, 5);
    assertEquals(rep.legs.distinct, 3);
    assertEquals(rep.legs.cache_hits, 2);
    assertEquals(rep.legs.cache_hit_rate, 0.4);
    assertEquals(rep.legs.not_replayed, [{
      reason: "zone map02base is in none of the packs",
      legs: 1,
      distinct: 1,
    }]);
    // The text names the source of every table.
    const t = (await cli(["stats", "--by-tier", "--pack", PACK, ...vols])).out;
    const titles = t.split("\n").filter((l) =>
      /^(replayed: )?(Escalation|Final tier|Window area|Stage timings|Work counters)/.test(l)
    );
    assert(titles.length >= 8, titles.join("\n"));
    for (const title of titles) {
      assert(
        title.includes("(from the log)") || title.includes(`(replayed on ${PACK} (build `),
        title,
      );
    }
    assert(t.includes("not in these logs — see the replayed table"), t);
    assert(t.includes("hit rate 40.0%"), t);
  });
});

Deno.test("replay --all and stats --pack re-plan the same legs into the same plan records", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/bundle`);
    const r = await cli(["replay", "--all", "--pack", PACK, "--out", `${dir}/rep`, ...vols]);
    assertEquals(r.code, 0, r.err);
    const { report, lines } = await readReplayDir(`${dir}/rep`);
    const s = await statsWithReplay(vols, { packs: [{ path: PACK }], jobs: 2 });
    assertEquals(s.replay.report.rows.map((x) => x.key), report.rows.map((x) => x.key));
    let compared = 0;
    report.rows.forEach((row, i) => {
      const mine = s.replay.records![i];
      if (!lines[i]) {
        assertEquals(mine, null, row.key);
        return;
      }
      const logged = parsePlanLine(lines[i]).record;
      // The CLI's line names no battery leg; the library's record neither.
      assertEquals(comparableRecord(mine!), comparableRecord(logged), row.key);
      compared++;
    });
    assertEquals(compared, 3);
  });
});

Deno.test("a leg whose logged outcome the replay contradicts is listed, both ways", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/bundle`);
    // The mesa leg (goal outside the reach on city_small) logged as generated: a logged success
    // the replay contradicts.
    const ok = `[2026-08-08 08:00:00.000][INF][Px1][Tx2][navmesh_path_expander.cpp][L1]` +
      `[LogGeneratedNavmeshPath] NAVMESH generated path. [state.navmesh_zone=map01base] ` +
      `[state.current_zone=ValleyIV_Base] [route_result.cost=30.0] [path_point_count=2] ` +
      `[navmesh_start_point=[110,305]] [navmesh_goal_point=[140,305]] ` +
      `[navmesh_segment_breaks=[]] [navmesh_path_points=[[110,305],[140,305]]]\n`;
    await Deno.writeTextFile(`${dir}/later.log`, ok);
    const r = await cli(["stats", "--json", "--pack", PACK, ...vols, `${dir}/later.log`]);
    assertEquals(r.code, 0, r.err);
    const c = JSON.parse(r.out).replayed.contradictions;
    assertEquals(
      c.map((x: Record<string, unknown>) => [
        x.key,
        x.what,
        x.logged_ok,
        x.logged_failed,
        x.contradicted,
        x.replay_class,
      ]),
      [
        [
          "map01base|110.00,305.00|140.00,305.00|-",
          "logged ok, replay failed",
          1,
          1,
          1,
          "goal_outside_reach",
        ],
        [
          "map01base|24.00,40.00|66.00,12.00|-",
          "logged failure, replay ok",
          2,
          1,
          1,
          "ok",
        ],
      ],
    );
    const md = (await cli(["stats", "--md", "--pack", PACK, ...vols, `${dir}/later.log`])).out;
    assert(md.includes("### Legs the replay contradicts (replayed on"), md);
    assert(md.includes("| logged ok, replay failed"), md);
  });
});

Deno.test("without --pack: tables the logs lack say so (text, md, csv, json); no 0.0 % over zero plans", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/bundle`);
    const text = (await cli(["stats", "--by-tier", ...vols])).out;
    assert(!text.includes("0.0%"), text);
    assertEquals(text.split(NOT_IN_LOGS).length - 1, 4, text);
    assert(text.includes("Final tier: plans and total time (ms) (from the log)"), text);
    const md = (await cli(["stats", "--md", ...vols])).out;
    assert(md.includes(`| ${NOT_IN_LOGS} |`), md);
    const csv = (await cli(["stats", "--csv", ...vols])).out;
    assert(csv.includes(`# Stage timings (ms) (from the log)\nstatus\n${NOT_IN_LOGS}\n`), csv);
    const j = JSON.parse((await cli(["stats", "--json", ...vols])).out);
    for (const f of ["tiers", "reasons", "window_buckets", "stages", "tier0_share"]) {
      assertEquals(j[f], null, f);
    }
    assertEquals(j.not_in_logs.reason, NOT_IN_LOGS);
    assertEquals(j.source, { kind: "log", label: "from the log" });
    // A filter that leaves no plan of plan lines: a share over zero plans is n/a, the tables
    // stay (the logs do carry tiers).
    const plans = new URL("./fixtures/analyze/plans.log", import.meta.url).pathname;
    const none = (await cli(["stats", plans, "--since", "2030-01-01"])).out;
    assert(none.includes("finished at tier 0: n/a; at tier 0 with a window ≤ 2.9 M cells: n/a"));
    assert(!none.includes(NOT_IN_LOGS), none);
    const nj = JSON.parse((await cli(["stats", plans, "--json", "--since", "2030-01-01"])).out);
    assertEquals([nj.tier0_share, nj.tiers], [null, []]);
    // diff against a run whose logs carry no tier: its tier shares are n/a, not 0.00 %.
    const { markdown } = await diffPaths(plans, vols[2], undefined);
    const row = markdown.split("\n").find((l) => l.startsWith("| escalated_share "));
    assert(row && /\| +50\.00 % \| +n\/a \|/.test(row), markdown);
  });
});

Deno.test("report and triage --pack on the product's logs: replayed sections labelled, contradictions listed; without a pack they say so", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/bundle`);
    const s = await statsWithReplay(vols, { packs: [{ path: PACK }] });
    const t = await triage(vols, { packs: [PACK], jobs: 2 });
    const label = `replayed on ${PACK} (build `;
    assert(t.html.includes(`<p class="source muted">Source: ${label}`), "labelled sections");
    assert(t.html.includes('<section id="contradictions"><h2>Legs the replay contradicts'));
    assert(t.html.includes("logged failure, replay ok"));
    // The page's tier figures are the replayed ones, as stats --pack counts them.
    const data = JSON.parse(
      /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(t.html)![1],
    );
    assertEquals(
      data.tiers.total_ms.map((x: { tier: number; count: number }) => [x.tier, x.count]),
      s.replayed.tiers.map((x) => [x.tier, x.count]),
    );
    assertEquals(data.stats_source.legs, s.replayed.legs);
    assert(t.markdown.includes(`**Tier distribution, ${label}`), t.markdown);
    assert(t.markdown.includes("**Legs the replay contradicts** (1):"), t.markdown);
    const bare = await triage(vols, {});
    assert(bare.html.includes(NOT_IN_LOGS), "without a pack: not in these logs");
    assert(bare.html.includes("Source: from the log."));
    // Not "logs written before counters existed": the product's lines never carry them.
    assert(bare.html.includes(`id="counter-none">${NOT_IN_LOGS}`), "counters: not in these logs");
    assert(bare.html.includes(`id="other-none">${NOT_IN_LOGS}`), "other: not in these logs");
    assert(!bare.html.includes('id="contradictions"'));
  });
});
