/**
 * Replay: outcomes per leg on fixture logs (navscope plan lines built from a real plan, edited
 * to say what the logs said, and real-layout navigator lines), bit-identity of exact replays
 * (every plan-record field but the seven timings), identical output for --jobs 1 and 2, shards
 * merged equal to the unsharded run, missing/doubled shards refused, and SIGINT.
 */
import { join } from "node:path";
import { emptyPlanRecord, formatPlanLine, parsePlanLine } from "../src/logs/plan_line.ts";
import { planRecordFromResult } from "../src/logs/from_plan.ts";
import type { PlanRecord } from "../src/logs/types.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import {
  batteryMatch,
  collectReplayLegs,
  comparableRecord,
  stripLineTimings,
} from "../src/analyze/replay.ts";
import {
  canonicalReplayJson,
  handoutOrder,
  mergeReplayDirs,
  replayLogs,
  type ReplayResult,
  writeReplayDir,
} from "../src/analyze/replay_run.ts";
import { assert, assertEquals } from "./assert.ts";
import { QUICK } from "./tiers.ts";

const EX = new URL("../examples/", import.meta.url).pathname;
const NAV = join(EX, "nav_test/base.nav.gz");
const DUN = join(EX, "dungeon/base.nav.gz");
const PACKS = [{ path: NAV }, { path: DUN }];

/** Plans a battery directly and returns its records (the "logged" plans). */
async function planBattery(dir: string): Promise<Map<string, PlanRecord>> {
  const legs = parseLegs(await Deno.readTextFile(join(EX, dir, "legs.json")), dir);
  const e = await openEngine(join(EX, dir, "base.nav.gz"));
  const out = new Map<string, PlanRecord>();
  try {
    for (const leg of legs) {
      const req = legRequest(leg);
      out.set(leg.id, planRecordFromResult(req, await e.plan(req), { packHash: e.info.buildHash }));
    }
  } finally {
    e.close();
  }
  return out;
}

let fixture: { dir: string; log: string; nav: Map<string, PlanRecord> } | null = null;

const T0 = Date.UTC(2026, 9, 1, 8, 0, 0);
const line = (r: PlanRecord, i: number) => formatPlanLine(r, { time: T0 + i * 1000 }) + "\n";

/** The fixture log: real plan lines, edited ones and navigator lines. */
async function getFixture() {
  if (fixture) return fixture;
  const nav = await planBattery("nav_test");
  const dun = await planBattery("dungeon");
  const dir = await Deno.makeTempDir({ prefix: "replay_test_" });
  // Shared by every test of this file: removed when the test run ends.
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  let text = "";
  let i = 0;
  for (const r of nav.values()) text += line(r, i++); // exact, unmodified
  // fixed: an ok leg logged as failed.
  const f = structuredClone(nav.get("flat_walk_1")!);
  assert(f.ok, "precondition: flat_walk_1 plans ok");
  Object.assign(f, {
    ok: false,
    code: "goal_outside_reach",
    error: "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 26.0px)",
  });
  text += line(f, i++);
  // failing differently: dungeon snap_far logged as disconnected.
  const d = structuredClone(dun.get("snap_far")!);
  assert(!d.ok && d.code === "snap_far_from_mesh", "precondition: dungeon snap_far fails");
  Object.assign(d, { code: "route_disconnected", error: "不连通" });
  text += line(d, i++);
  // newly failing (--all): an off-mesh leg logged as ok.
  const n = structuredClone(nav.get("snap_far")!);
  Object.assign(n, { start: [0, 1], ok: true, code: "", error: "" });
  text += line(n, i++);
  // not replayable: a zone no pack has.
  const z = emptyPlanRecord("nowhere", [1, 2], [3, 4]);
  z.code = "zone_not_found";
  z.error = "nowhere: zone not found or empty";
  text += line(z, i++);
  // Navigator lines (real layout): a failed leg with endpoints (partial request, plans ok
  // now: fixed), logged twice; and a RECAST failure without endpoints (not replayable).
  const w = nav.get("flat_walk_2")!;
  for (const t of ["08:10:00.000", "08:11:00.000"]) {
    text += `[2026-10-01 ${t}][WRN][Px1][Tx7][navmesh_path_expander.cpp][L300][Plan] ` +
      `RECAST plan failed. [request.zone_name=nav_test] [result.error=不连通] \n`;
    text += `[2026-10-01 ${t}][WRN][Px1][Tx7][navmesh_path_expander.cpp][L310][Plan] ` +
      `Failed to plan NAVMESH route. [navmesh_zone=nav_test] [locator_zone=Test] ` +
      `[start.x=${w.start[0]}] [start.y=${w.start[1]}] [goal.x=${w.goal[0]}] [goal.y=${
        w.goal[1]
      }] [navmesh::ToString(route_result.status)=unreachable] [plan_ms=12] \n`;
  }
  text += `[2026-10-01 08:20:00.000][WRN][Px1][Tx9][navmesh_path_expander.cpp][L300][Plan] ` +
    `RECAST plan failed. [request.zone_name=nav_test] [result.error=起点种子格落在窗外] \n`;
  const log = join(dir, "fixture.log");
  await Deno.writeTextFile(log, text);
  fixture = { dir, log, nav };
  return fixture;
}

function byOutcome(res: ReplayResult): Record<string, string[]> {
  const o: Record<string, string[]> = {};
  for (const r of res.report.rows) (o[r.outcome] ??= []).push(r.key);
  return o;
}

Deno.test("replay: outcome per leg on plan lines and navigator lines", async () => {
  const fx = await getFixture();
  const res = await replayLogs([fx.log], { packs: PACKS, jobs: 1 });
  const rows = new Map(res.report.rows.map((r) => [r.key, r]));
  const row = (prefix: string) => {
    const r = [...rows.values()].find((x) => x.key.startsWith(prefix));
    assert(r, `no row ${prefix}: ${[...rows.keys()].join("\n")}`);
    return r;
  };
  const fw1 = fx.nav.get("flat_walk_1")!, fw2 = fx.nav.get("flat_walk_2")!;
  const k = (p: number[]) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`;
  const fixedRow = row(`nav_test|${k(fw1.start)}|${k(fw1.goal)}`);
  assertEquals(fixedRow.outcome, "fixed");
  assertEquals(fixedRow.old.class, "goal_outside_reach");
  assertEquals(fixedRow.request, "exact");
  const snap = row("nav_test|0.00,0.00|");
  assertEquals(snap.outcome, "still_failing");
  assertEquals(snap.identical, true);
  const dun = row("dungeon|0.00,0.00|");
  assertEquals(dun.outcome, "failing_differently");
  assertEquals([dun.old.class, dun.new?.class], ["route_disconnected", "snap_far_from_mesh"]);
  const navi = row(`nav_test|${k(fw2.start)}|${k(fw2.goal)}|-`);
  assertEquals(navi.origin, "navigator");
  assertEquals(navi.request, "partial_request");
  assertEquals(navi.missing, ["start_floor_y", "goal_floor_y", "start_deck_y", "no_go_discs"]);
  assertEquals(navi.outcome, "fixed");
  assertEquals([navi.failures, navi.occurrences], [2, 2]);
  assertEquals(navi.first_seen, "2026-10-01 08:10:00.000");
  const zone = row("nowhere|");
  assertEquals([zone.outcome, zone.reason], [
    "not_replayable",
    "zone nowhere is in none of the packs",
  ]);
  const noEnds = row("nav_test|msg:起点种子格落在窗外");
  assertEquals([noEnds.outcome, noEnds.reason], ["not_replayable", "endpoints unknown"]);
  // Only failed legs without --all: the ok-logged off-mesh leg is not there.
  assertEquals(byOutcome(res).newly_failing, undefined);
  assertEquals(res.report.counts, {
    fixed: 2,
    still_failing: 1,
    failing_differently: 1,
    newly_failing: 0,
    still_ok: 0,
    not_replayable: 2,
  });
  assertEquals(res.report.partial_requests, 1);
});

Deno.test("replay --all: newly failing legs, and exact replays are bit-identical", async () => {
  const fx = await getFixture();
  const res = await replayLogs([fx.log], { packs: PACKS, jobs: 1, all: true });
  const o = byOutcome(res);
  assertEquals(o.newly_failing, ["nav_test|0.00,1.00|25.50,21.00|-"]);
  // Every unmodified nav_test plan line (flat_walk_1's edited copy shares its key and inputs:
  // its replay is the real plan).
  const lines = res.lines.filter((l) => l !== "").map((l) => parsePlanLine(l).record);
  let compared = 0;
  for (const [id, rec] of fx.nav) {
    const got = lines.find((r) =>
      r.zone === rec.zone && r.start[0] === rec.start[0] && r.start[1] === rec.start[1] &&
      r.goal[0] === rec.goal[0] && r.goal[1] === rec.goal[1] && r.startFloorY === rec.startFloorY
    );
    assert(got, `no replay line for ${id}`);
    assertEquals(comparableRecord(got), comparableRecord(rec), `leg ${id}`);
    compared++;
  }
  assertEquals(compared, fx.nav.size);
  // Only the three edited lines differ from their replay: a replay is compared with the line
  // its old outcome comes from (flat_walk_1's last failure, the edited copy), never with another
  // line of the leg — "identical" next to "fixed" would be a contradiction.
  const fw1 = fx.nav.get("flat_walk_1")!;
  const k = (p: number[]) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`;
  assertEquals(
    res.report.rows.filter((r) => r.identical === false).map((r) => r.key.split("|f:")[0]),
    [
      "dungeon|0.00,0.00|22.75,52.25|-",
      "nav_test|0.00,1.00|25.50,21.00|-",
      `nav_test|${k(fw1.start)}|${k(fw1.goal)}|-`,
    ],
  );
  for (const r of res.report.rows) {
    if (r.identical) assert(r.outcome === "still_ok" || r.outcome === "still_failing", r.key);
  }
  assert(res.report.identical >= fx.nav.size - 1, `identical ${res.report.identical}`);
});

Deno.test("replay: battery legs that differ only in overrides stay apart when the line names its leg", async () => {
  // city_small's footbridge_disc_closed and footbridge_disc_region_too_large: same inputs, same
  // expected class, one with max_cells 1 M. Before the [leg=…] item both lines replayed as one
  // leg, with the first leg's (missing) overrides.
  const bat = parseLegs(await Deno.readTextFile(join(EX, "city_small/legs.json")), "city_small");
  const ids = ["footbridge_disc_closed", "footbridge_disc_region_too_large"];
  const legs = ids.map((id) => bat.find((l) => l.id === id)!);
  const lineOf = (id: string, leg: string) => {
    const req = legRequest(bat.find((l) => l.id === id)!);
    const r = emptyPlanRecord(req.zone, req.start, req.goal);
    r.noGoDiscs = req.noGoDiscs!.map((d) => [d.x, d.y, d.r]);
    r.code = "route_disconnected";
    r.error = "掩膜内两端不连通";
    r.leg = leg;
    r.timing.total = id === ids[0] ? 2539 : 797;
    return formatPlanLine(r, { time: 0 });
  };
  const dir = await Deno.makeTempDir();
  try {
    const named = join(dir, "named.log"), bare = join(dir, "bare.log");
    await Deno.writeTextFile(named, ids.map((id) => lineOf(id, id) + "\n").join(""));
    await Deno.writeTextFile(bare, ids.map((id) => lineOf(id, "") + "\n").join(""));
    const got = await collectReplayLegs([named], { batteries: bat });
    assertEquals(got.legs.length, 2);
    const maxCells = got.legs.map((l) => l.request!.overrides?.maxCells ?? null).sort();
    assertEquals(maxCells, [1000000, null]);
    assertEquals(got.legs.map((l) => l.old.total_ms).sort((a, b) => a - b), [797, 2539]);
    for (const l of got.legs) assertEquals(batteryMatch(l.record!, legs)!.id, l.record!.leg);
    // Without the id the two lines cannot be told apart: one leg, the first match.
    const old = await collectReplayLegs([bare], { batteries: bat });
    assertEquals(old.legs.length, 1);
    assertEquals(batteryMatch(old.legs[0].record!, legs)!.id, ids[0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay: tasks go out by pack and zone, the longest logged plan first, then by key", () => {
  const leg = (zone: string, key: string, total_ms: number) => ({
    zone,
    key,
    old: { ok: false, class: "", code: "", error: "", tier: -1, kind: "", total_ms },
  });
  const order = handoutOrder([
    { pack: 1, leg: leg("a", "a|1", 900) }, // 0
    { pack: 0, leg: leg("b", "b|1", 5) }, // 1
    { pack: 0, leg: leg("a", "a|2", 10) }, // 2
    { pack: 0, leg: leg("a", "a|1", 10) }, // 3
    { pack: 0, leg: leg("a", "a|3", NaN) }, // 4: unknown time counts as 0
    { pack: 0, leg: leg("a", "a|4", 700) }, // 5
  ]);
  assertEquals(order, [5, 3, 2, 4, 1, 0]);
});

// The quick tier skips the two identities over whole replays (jobs, shards); the full suite runs
// them.
Deno.test({
  name: "replay: --jobs 1 and --jobs 2 give identical output (but for timings)",
  ignore: QUICK,
}, async () => {
  const fx = await getFixture();
  const a = await replayLogs([fx.log], { packs: PACKS, jobs: 1, all: true });
  const b = await replayLogs([fx.log], { packs: PACKS, jobs: 2, all: true });
  assertEquals(b.report.run.jobs, 2);
  assertEquals(canonicalReplayJson(b.report), canonicalReplayJson(a.report));
  assertEquals(b.lines.map(stripLineTimings), a.lines.map(stripLineTimings));
  // And on disk.
  const da = join(fx.dir, "j1"), db = join(fx.dir, "j2");
  await writeReplayDir(da, a);
  await writeReplayDir(db, b);
  const ta = stripLineTimings(await Deno.readTextFile(join(da, "replay.log")));
  const tb = stripLineTimings(await Deno.readTextFile(join(db, "replay.log")));
  assertEquals(tb, ta);
  assert(ta.split("\n").length > 25);
  // Every window through the window gate (one at a time, scratch from the shared chunk): the same.
  const g = await replayLogs([fx.log], { packs: PACKS, jobs: 2, all: true, gateCells: 1 });
  assertEquals(canonicalReplayJson(g.report), canonicalReplayJson(a.report));
  assertEquals(g.lines.map(stripLineTimings), a.lines.map(stripLineTimings));
});

Deno.test({
  name: "replay: shards 1/3, 2/3, 3/3 merged equal the unsharded run; bad sets refused",
  ignore: QUICK,
}, async () => {
  const fx = await getFixture();
  const whole = await replayLogs([fx.log], { packs: PACKS, jobs: 1, all: true });
  const dirs: string[] = [];
  let sum = 0;
  for (let i = 1; i <= 3; i++) {
    const r = await replayLogs([fx.log], {
      packs: PACKS,
      jobs: 1,
      all: true,
      shard: { index: i, count: 3 },
    });
    sum += r.report.legs;
    const d = join(fx.dir, `shard${i}`);
    await writeReplayDir(d, r);
    dirs.push(d);
  }
  assertEquals(sum, whole.report.legs);
  const merged = await mergeReplayDirs([dirs[2], dirs[0], dirs[1]]);
  assertEquals(canonicalReplayJson(merged.report), canonicalReplayJson(whole.report));
  assertEquals(merged.lines.map(stripLineTimings), whole.lines.map(stripLineTimings));
  const refused = async (ds: string[], re: RegExp) => {
    try {
      await mergeReplayDirs(ds);
    } catch (e) {
      assert(re.test((e as Error).message), (e as Error).message);
      return;
    }
    throw new Error(`merge of ${ds} was not refused`);
  };
  await refused([dirs[0], dirs[1]], /missing shard 3\/3/);
  await refused([dirs[0], dirs[1], dirs[1], dirs[2]], /shard 2\/3 given twice/);
  const wd = join(fx.dir, "whole");
  await writeReplayDir(wd, whole);
  await refused([wd, dirs[0]], /is not a shard/);
});

Deno.test("replay: SIGINT stops cleanly with a valid, complete-so-far output", async () => {
  const fx = await getFixture();
  // Many legs on nav_test: a grid of endpoints over the mesh.
  const base = fx.nav.get("flat_walk_3")!;
  let text = "";
  let i = 0;
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 15; b++) {
      const r = structuredClone(base);
      r.start = [8 + a * 1.5, 22 + b * 2];
      r.goal = [38 - b, 54 - a];
      text += line(r, i++);
    }
  }
  const log = join(fx.dir, "many.log");
  await Deno.writeTextFile(log, text);
  const out = join(fx.dir, "sigint");
  // The command runs through a wrapper that tells it stderr is a terminal, so it draws its
  // progress bar ("N/300 legs") on the pipe: the signal goes once a leg is done, however loaded
  // the machine (a fixed sleep after the start raced the engine's opening under load).
  const wrapper = join(fx.dir, "replay_with_progress.ts");
  const here = (p: string) => new URL(p, import.meta.url).href;
  await Deno.writeTextFile(
    wrapper,
    `import { io } from "${here("../commands/support/terminal.ts")}";\n` +
      `import { main } from "${here("../commands/main.ts")}";\n` +
      `io.err = { write: io.err.write, isTerminal: true };\n` +
      `Deno.exit(await main(Deno.args));\n`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      wrapper,
      "replay",
      log,
      "--all",
      "--jobs",
      "1",
      "--pack",
      NAV,
      "--out",
      out,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.getReader();
  const td = new TextDecoder();
  let err = "";
  const legsDone = () => Math.max(0, ...[...err.matchAll(/(\d+)\/300 legs/g)].map((m) => +m[1]));
  while (legsDone() === 0) {
    const { value, done } = await reader.read();
    if (done) break;
    err += td.decode(value, { stream: true });
  }
  assert(err.includes("300 legs to replay"), err);
  assert(legsDone() > 0 && legsDone() < 300, err);
  child.kill("SIGINT");
  reader.releaseLock();
  const st = await child.output();
  assertEquals(st.code, 130, new TextDecoder().decode(st.stderr));
  const rep = JSON.parse(await Deno.readTextFile(join(out, "replay.json")));
  assertEquals(rep.interrupted, true);
  assert(rep.done > 0 && rep.done < 300, `done ${rep.done}`);
  assertEquals(rep.done + rep.pending, 300);
  const ls = (await Deno.readTextFile(join(out, "replay.log"))).split("\n").filter((l) => l);
  assertEquals(ls.length, rep.done);
  for (const l of ls) parsePlanLine(l);
  assert(new TextDecoder().decode(st!.stdout).includes("replay (interrupted)"));
});
