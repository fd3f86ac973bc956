/**
 * Every failed run explained (issue 53): every run-machinery line of maaend-runlogs.md §1.6
 * parsed (logs built here, full and short prefixes), every cause of the taxonomy with the run
 * that produces it, the two-cause chain in order, unknown message kinds counted, the rules
 * file's `run_causes`, classify's counts by cause (--json, --csv), triage's verdict and per-run
 * section (timeline order, distance off the route), and the run picture's legend.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { aimFailure, RunLogWriter } from "../testing/run_log_synth.ts";
import { parseLogText } from "../src/logs/parser.ts";
import { MAX_UNKNOWN_KINDS, OTHER_KINDS } from "../src/logs/run_messages.ts";
import { type NavRun, RunCollector } from "../src/analyze/nav_runs.ts";
import { chainWords, pointPolylineDistance, runCause, runEnd } from "../src/analyze/run_causes.ts";
import { RUN_CAUSES } from "../src/analyze/run_cause_rules.ts";
import { compileRulesDocument } from "../src/analyze/rules.ts";
import { NavscopeError } from "../src/errors.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run as classifyCmd } from "../commands/classify.ts";
import { triage } from "../src/jobs/triage.ts";
import { runPictureSvg } from "../reports/run_picture.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { reportHtml } from "../reports/report_page.ts";
import { runsVerdict, type TriageRun } from "../reports/triage_runs.ts";

type P = [number, number];

function parse(text: string) {
  return parseLogText(text, "t.log");
}

function runsOf(text: string, detail = true): NavRun[] {
  const c = new RunCollector(detail);
  for (const e of parse(text).events) c.add(e);
  return c.finish();
}

// ---------------------------------------------------------------------------------------------
// 1. Every run-machinery line of §1.6 (and the session lines of §1.3).

/** [message as logged, level, short prefix?, expected event (the fields checked)]. */
const LINES: Array<[string, string, boolean, Record<string, unknown>]> = [
  [
    "Phase transition. [from_phase_name=Navigate] [to_phase_name=Failed] [reason=offroute_wedge_timeout] [current_node_idx_=3] [path_origin_index_=0]",
    "INF",
    false,
    { type: "phase", from: "Navigate", to: "Failed", reason: "offroute_wedge_timeout" },
  ],
  [
    "Phase transition. [from_phase_name=Init] [to_phase_name=Bootstrap] [reason=start]",
    "INF",
    true,
    { type: "phase", from: "Init", to: "Bootstrap", reason: "start" },
  ],
  [
    "Off-route with no route progress past the wedge timeout; terminating so the pipeline can retry. [current_distance=41.250000] [yaw_error=12.5] [stalled_ms=15000]",
    "ERR",
    false,
    { type: "fail_navigation", distance: 41.25, yawError: 12.5, stalledMs: 15000 },
  ],
  [
    "Navigation route replaced. [reason=dynamic_replan]",
    "INF",
    true,
    { type: "session", kind: "route_replaced", reason: "dynamic_replan" },
  ],
  [
    "NavRunController soft replan. [static_cast<int>(reason)=3] [anchor_index=2]",
    "INF",
    false,
    { type: "session", kind: "soft_replan", reason: "3", count: 2 },
  ],
  [
    "NavRunController soft replan. [static_cast<int>(reason)=1]",
    "INF",
    true,
    { type: "session", kind: "soft_replan", reason: "1" },
  ],
  [
    "NavRunController plan build failed. [static_cast<int>(reason)=2] [anchor_index=4] [position.zone_id=Wuling_Base]",
    "DBG",
    false,
    { type: "session", kind: "plan_build_failed", reason: "2", zone: "Wuling_Base" },
  ],
  [
    "NAVMESH route expansion finished. [state->navmesh_zone=map02base] [authored_waypoints=3] [expanded_waypoints=17] [navmesh_load_ms=5] [expand_total_ms=40]",
    "INF",
    false,
    { type: "session", kind: "expansion_finished", zone: "map02base", count: 17 },
  ],
  [
    "Starting navigation to targets. [target_count=5]",
    "INF",
    true,
    { type: "session", kind: "starting", count: 5 },
  ],
  [
    "Waiting for first valid GPS signal...",
    "INF",
    true,
    { type: "session", kind: "waiting_fix" },
  ],
  [
    "Initial Pos fixed: [position_x=965.5] [position_y=1803.38]",
    "INF",
    false,
    { type: "session", kind: "initial_fix", point: [965.5, 1803.38] },
  ],
  [
    "Failed to infer NAVMESH base zone. [state.current_zone=Nowhere] [param.map_name=Nowhere]",
    "ERR",
    false,
    { type: "session", kind: "zone_infer_failed", zone: "Nowhere" },
  ],
  [
    "Action: ZIPLINE hop started. [waypoint.zipline_hop->landing.x=940.5] [waypoint.zipline_hop->landing.y=1210]",
    "INF",
    true,
    { type: "zipline_action", action: "hop_started", point: [940.5, 1210] },
  ],
  [
    "Action: ZIPLINE launched toward the landing point. [landing.x=940.5] [landing.y=1210]",
    "INF",
    false,
    { type: "zipline_action", action: "launched", point: [940.5, 1210] },
  ],
  [
    "Action: ZIPLINE ride landed.",
    "INF",
    true,
    { type: "zipline_action", action: "landed", point: null, stillOnTower: null },
  ],
  [
    "Action: ZIPLINE ride landed. [done.at.x=938] [done.at.y=1207] [done.still_on_tower=true]",
    "INF",
    false,
    { type: "zipline_action", action: "landed", point: [938, 1207], stillOnTower: true },
  ],
  [
    "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_aim_failed] [detail=could not aim the view at the landing point]",
    "WRN",
    true,
    {
      type: "zipline_action",
      action: "given_up",
      reason: "zipline_aim_failed",
      detail: "could not aim the view at the landing point",
      point: null,
    },
  ],
  [
    "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_ride_failed] [detail=fell] [dropped=2] [ctx.position->x=900] [ctx.position->y=1100]",
    "WRN",
    false,
    {
      type: "zipline_action",
      action: "given_up",
      reason: "zipline_ride_failed",
      dropped: "2",
      point: [900, 1100],
    },
  ],
  [
    "zipline/begin [resume=false] [plan_.mount.x=850] [plan_.mount.y=1300] [plan_.landing.x=940.5] [plan_.landing.y=1210]",
    "INF",
    true,
    { type: "zipline_stage", stage: "begin", mount: [850, 1300], landing: [940.5, 1210] },
  ],
  [
    "zipline/fired [returning_=false] [record_.launches.size()=1]",
    "INF",
    true,
    { type: "zipline_stage", stage: "fired" },
  ],
  [
    "zipline/fired/riding [elapsed_ms=350]",
    "INF",
    true,
    { type: "zipline_stage", stage: "fired/riding", elapsedMs: 350 },
  ],
  [
    "zipline/fired/moved [elapsed_ms=120]",
    "INF",
    true,
    { type: "zipline_stage", stage: "fired/moved", elapsedMs: 120 },
  ],
  [
    "zipline/fired/no_launch [elapsed_ms=2000]",
    "INF",
    true,
    { type: "zipline_stage", stage: "fired/no_launch", elapsedMs: 2000 },
  ],
  [
    "zipline/on_tower [returning_=false] [target_.x=940.5] [target_.y=1210]",
    "INF",
    true,
    { type: "zipline_stage", stage: "on_tower", landing: [940.5, 1210] },
  ],
  [
    "zipline/classified [static_cast<int>(landing)=3] [returning_=false] [riding_entered_=true] [reached.x=938] [reached.y=1207]",
    "INF",
    true,
    { type: "zipline_stage", stage: "classified", landingCode: 3, reached: [938, 1207] },
  ],
  [
    "Expanded NAVMESH waypoint via zipline. [state.navmesh_zone=map02base] [state.current_zone=Wuling_Base] [walking_baseline_available=true] [route->cost=410.5] [insert_index=2] [out_path.size() - insert_index=6] [route->towers.size()=2] [mount.x=850] [mount.y=1300] [route->towers.back().x=940] [route->towers.back().y=1210]",
    "INF",
    false,
    { type: "waypoint_expanded", viaZipline: true, mount: [850, 1300] },
  ],
  [
    "Expanded NAVMESH waypoint via zipline. [state.navmesh_zone=map02base] [state.current_zone=Wuling_Base] [walking_baseline_available=false] [route->cost=410.5] [insert_index=2] [out_path.size() - insert_index=6] [route->towers.size()=2] [mount_spot.x=851] [mount_spot.y=1301]",
    "INF",
    true,
    { type: "waypoint_expanded", viaZipline: true, mount: [851, 1301] },
  ],
  [
    "ZiplineRoute: picked [walking_baseline_available=true] [baseline_length=900] [best->cost=410.5] [best->towers.size()=2]",
    "INF",
    true,
    { type: "zipline", decision: "picked", towers: 2 },
  ],
  [
    "ZiplineRoute: walking this leg instead. [why=no zipline route beats walking] [navmesh_zone=map02base]",
    "INF",
    true,
    { type: "zipline", decision: "walk", why: "no zipline route beats walking" },
  ],
  [
    "ZiplineRoute: no bridge for the disconnected walking leg. [why=this zone is not calibrated]",
    "WRN",
    true,
    { type: "zipline", decision: "no_bridge", why: "this zone is not calibrated" },
  ],
  [
    "ZiplineAccount: current game account selected [account_id=8812345678]",
    "INF",
    true,
    { type: "zipline_account" },
  ],
  [
    "WorldMap: gave up without a confirmed icon [param.zone=Wuling] [target.x=1369.87] [target.y=1533.92] [param.icon=TeleportAnchor] [param.max_attempts=4]",
    "ERR",
    false,
    {
      type: "worldmap_gave_up",
      zone: "Wuling",
      target: [1369.87, 1533.92],
      icon: "TeleportAnchor",
      maxAttempts: 4,
    },
  ],
  [
    "MapLocator [status=1] [position.zoneId=Wuling_Base] [position.x=1.5] [position.y=2.5]",
    "INF",
    true,
    { type: "position", status: 1, point: [1.5, 2.5] },
  ],
];

Deno.test("run lines: every run-machinery line of §1.6 is parsed, full and short prefixes", () => {
  for (const [msg, level, short, want] of LINES) {
    const w = new RunLogWriter();
    if (short) w.line(level, msg);
    else w.line(level, msg, "navigation_session.cpp", "mapnavigator::Fn");
    const { events, report } = parse(w.text());
    assertEquals(report.unknownKinds, {}, msg);
    assertEquals(report.problems.bad_field, 0, msg);
    assertEquals(events.length, 1, msg);
    const ev = events[0] as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) assertEquals(ev[k], v, `${msg}: ${k}`);
    assertEquals(ev.head && (ev.head as { level: string }).level, level, msg);
  }
});

Deno.test("run lines: the zipline account id is personal data and is kept nowhere", () => {
  const w = new RunLogWriter().request("N", 1, "Wuling_Base", [1, 1])
    .line("INF", "ZiplineAccount: current game account selected [account_id=8812345678]")
    .end("N", false);
  const { events, report } = parse(w.text());
  assert(!JSON.stringify(events).includes("8812345678"));
  assert(!JSON.stringify(report).includes("8812345678"));
  const r = runsOf(w.text())[0];
  assert(!JSON.stringify(r).includes("8812345678"));
});

// ---------------------------------------------------------------------------------------------
// 2. Every cause of the taxonomy, each from the run that produces it.

const Z = "map02base", LZ = "Wuling_Base";

/** Builds one failed run whose body is `body`. */
function failedRun(body: (w: RunLogWriter) => void): string {
  const w = new RunLogWriter().request("Deliver", 7, LZ, [300, 100]);
  w.phase("Init", "Bootstrap", "start").phase("Bootstrap", "Navigate", "initial_fix");
  body(w);
  return w.end("Deliver", false).text();
}

const CAUSE_CASES: Array<[string, (w: RunLogWriter) => void]> = [
  [
    "planner:goal_outside_reach",
    (w) => w.failedPlan(Z, LZ, [100, 100], [300, 100], "从起点走不到终点 (可达区距 终 20.2px)"),
  ],
  ["zipline:aim_failed", (w) => aimFailure(w, [150, 110])],
  [
    "zipline:ride_failed",
    (w) =>
      w.line(
        "WRN",
        "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_ride_failed] [detail=fell]",
      ).phase("WaitZipline", "Recover", "zipline_ride_failed"),
  ],
  [
    "zipline:given_up",
    (w) =>
      w.line(
        "WRN",
        "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_tower_lost] [detail=x]",
      ),
  ],
  [
    "offroute:wedge_timeout",
    (w) => w.phase("Navigate", "Failed", "offroute_wedge_timeout").failNavigation(40, 3, 15000),
  ],
  [
    "locator:worldmap_gave_up",
    (w) =>
      w.line(
        "ERR",
        "WorldMap: gave up without a confirmed icon [param.zone=Wuling] [target.x=1] [target.y=2] [param.icon=TeleportAnchor] [param.max_attempts=4]",
        "WorldMapFind.cpp",
        "worldmap::MapFindRun",
      ),
  ],
  [
    "start:recovery_rejected",
    (w) =>
      w.line(
        "WRN",
        `NAVMESH start recovery rejected: no mesh point within the blind-walk budget. [state.navmesh_zone=${Z}] [state.current_zone=${LZ}] [request.start.x=5] [request.start.y=6] [radius=32]`,
      ),
  ],
  [
    "target:blind_fallback_gave_up",
    (w) =>
      w.line(
        "WRN",
        `NAVMESH blind-target fallback gave up: probe budget exhausted. [state.navmesh_zone=${Z}] [state.current_zone=${LZ}] [target.x=5] [target.y=6] [offset=3] [probe_limit=40] [probe_elapsed_ms=900]`,
      ),
  ],
  [
    "target:blind_fallback_rejected",
    (w) =>
      w.line(
        "WRN",
        `NAVMESH blind-target fallback rejected: residual gap too large. [state.navmesh_zone=${Z}] [state.current_zone=${LZ}] [target.x=5] [target.y=6] [blind_gap=44] [kBlindTargetMaxExtension=30]`,
      ),
  ],
  [
    "detour:no_bypass",
    (w) =>
      w.line(
        "WRN",
        "NAVMESH detour failed to find a reachable bypass. [position.x=20] [position.y=30] [position.zone_id=Wuling_Base] [anchor.x=25] [anchor.y=30] [blocked.size()=0] [blocked_points.size()=1]",
      ),
  ],
  [
    "replan:plan_build_failed",
    (w) =>
      w.line(
        "DBG",
        "NavRunController plan build failed. [static_cast<int>(reason)=2] [anchor_index=4] [position.zone_id=Wuling_Base]",
      ),
  ],
  [
    "expansion:zone_unknown",
    (w) =>
      w.line(
        "ERR",
        "Failed to infer NAVMESH base zone. [state.current_zone=Nowhere] [param.map_name=Nowhere]",
      ),
  ],
  ["cancelled", (w) => w.failedPlan(Z, LZ, [100, 100], [300, 100], "规划已取消")],
  ["session:controller_lost", (w) => w.phase("Navigate", "Failed", "controller_lost")],
  // Nothing but a successful plan and the end: the cause is not in the log.
  ["unknown", (w) => w.planned(Z, LZ, [[100, 100], [300, 100]])],
];

Deno.test("run causes: every cause of the taxonomy, each with the run that produces it", () => {
  for (const [want, body] of CAUSE_CASES) {
    const runs = runsOf(failedRun(body), false);
    assertEquals(runs.length, 1, want);
    const c = runCause(runs[0]);
    assertEquals(c?.cause, want, want);
  }
  // The cases cover the whole taxonomy (placeholders instantiated).
  const covered = new Set(CAUSE_CASES.map(([c]) => c.replace(/^(planner|session):.*/, "$1:")));
  for (const d of RUN_CAUSES) {
    assert(covered.has(d.name.replace(/^(planner|session):<.*>$/, "$1:")), d.name);
  }
  // `unknown` carries the run's last navigator lines.
  const u = runCause(runsOf(failedRun(CAUSE_CASES[CAUSE_CASES.length - 1][1]), false)[0])!;
  assertEquals(u.lastLines.map((l) => l.replace(/^t\.log:\d+ /, "")), [
    "phase Init → Bootstrap (start)",
    "phase Bootstrap → Navigate (initial_fix)",
    "leg planned in map02base: (100.0, 100.0) → (300.0, 100.0), 2 points, cost 200 px",
  ]);
});

Deno.test("run causes: only failed runs have one; a succeeded run keeps no signals", () => {
  const w = new RunLogWriter().request("Ok", 1, LZ, [1, 1]);
  aimFailure(w, [1, 2]).end("Ok", true);
  const r = runsOf(w.text(), false)[0];
  assertEquals(r.ok, true);
  assertEquals(runCause(r), null);
  assertEquals(r.signals, []);
});

/** The issue's run: a zipline that could not aim, then the off-route wedge timeout. */
function issueRun(w: RunLogWriter): void {
  w.planned(Z, LZ, [[100, 100], [200, 100], [300, 100]]);
  w.track([100, 100], [150, 100], 5, LZ);
  w.hopBegin([150, 100], [250, 100]);
  aimFailure(w, [150, 110]);
  w.line("INF", "Navigation route replaced. [reason=zipline_recovery_reexpand]");
  w.line("INF", "NavRunController soft replan. [static_cast<int>(reason)=3] [anchor_index=1]");
  w.track([150, 110], [160, 140], 3, LZ);
  w.phase("Navigate", "Failed", "offroute_wedge_timeout");
  w.failNavigation(40.2, 12, 15000);
}

Deno.test("run causes: a zipline aim failure then the off-route wedge timeout is a chain, terminal last", () => {
  const r = runsOf(failedRun(issueRun))[0];
  const c = runCause(r)!;
  assertEquals(c.chain.map((l) => l.cause), ["zipline:aim_failed", "offroute:wedge_timeout"]);
  assertEquals(c.cause, "offroute:wedge_timeout");
  assertEquals(chainWords(c), "zipline aim failure then off-route wedge timeout");
  assertEquals(r.replans, 1);
  assertEquals(r.softReplans, 1);
  assertEquals(r.hops, [{
    mount: [150, 100],
    landing: [250, 100],
    end: [150, 110],
    outcome: "given up: zipline_aim_failed",
  }]);
  // A line after the terminal one does not take its place: the terminal cause is moved last.
  const late = runsOf(failedRun((w) => {
    w.phase("Navigate", "Failed", "offroute_wedge_timeout");
    w.line(
      "WRN",
      "NAVMESH detour failed to find a reachable bypass. [position.x=1] [position.y=2] [position.zone_id=Wuling_Base] [anchor.x=1] [anchor.y=3] [blocked.size()=0] [blocked_points.size()=0]",
    );
  }))[0];
  assertEquals(runCause(late)!.chain.map((l) => l.cause), [
    "detour:no_bypass",
    "offroute:wedge_timeout",
  ]);
});

// ---------------------------------------------------------------------------------------------
// 3. Distance off the route.

Deno.test("run end: point-to-polyline distance, worked examples and brute force", () => {
  const L: P[] = [[0, 0], [100, 0], [100, 100]];
  // (130, 50): 30 px from the second segment (the first is 58.3 px away, at its end).
  assertEquals(pointPolylineDistance([130, 50], L), 30);
  assertEquals(pointPolylineDistance([100, 130], L), 30); // past the end: to the last point
  assertEquals(pointPolylineDistance([50, -7], L), 7);
  const rnd = mulberry32(53);
  for (let t = 0; t < 200; t++) {
    const line: P[] = Array.from({ length: 2 + Math.floor(rnd() * 5) }, () => [
      rnd() * 200,
      rnd() * 200,
    ]);
    const p: P = [rnd() * 240 - 20, rnd() * 240 - 20];
    let brute = Infinity;
    for (let i = 1; i < line.length; i++) {
      for (let s = 0; s <= 2000; s++) {
        const x = line[i - 1][0] + (line[i][0] - line[i - 1][0]) * s / 2000;
        const y = line[i - 1][1] + (line[i][1] - line[i - 1][1]) * s / 2000;
        brute = Math.min(brute, Math.hypot(p[0] - x, p[1] - y));
      }
    }
    const d = pointPolylineDistance(p, line);
    assert(d <= brute + 1e-9 && brute - d < 0.2, `${d} vs ${brute}`);
  }
});

Deno.test("run end: the last status=0 fix against the last planned path of its zone", () => {
  const r = runsOf(failedRun(issueRun))[0];
  const e = runEnd(r);
  // Last fix (160, 140); the planned path runs along y = 100: 40 px off the route.
  assertEquals(e.point, [160, 140]);
  assertEquals(e.zone, "map02base"); // the locator zone Wuling_Base maps to the navmesh zone
  assertEquals(e.offRoutePx, 40);
});

// ---------------------------------------------------------------------------------------------
// 4. Unknown message kinds.

Deno.test("unknown kinds: lines no message matches are counted per kind, digits masked, capped", () => {
  const w = new RunLogWriter();
  w.line("INF", "Something new happened 12 times. [a=1]", "x.cpp");
  w.line("INF", "Something new happened 13 times. [a=2]");
  w.line("WRN", "[msg=Node.Recognition.Succeeded] [details={}]");
  const { report } = parse(w.text());
  assertEquals(report.unknownKinds, {
    "Something new happened # times.": 2,
    "[msg=Node.Recognition.Succeeded]": 1,
  });
  const many = new RunLogWriter();
  for (let i = 0; i < MAX_UNKNOWN_KINDS + 5; i++) {
    // Kind names without digits (digits would be masked into one kind).
    many.line("INF", `Kind ${String(i).replace(/\d/g, (d) => "abcdefghij"[Number(d)])} x`);
  }
  const k = parse(many.text()).report.unknownKinds;
  assertEquals(Object.keys(k).length, MAX_UNKNOWN_KINDS + 1);
  assertEquals(k[OTHER_KINDS], 5);
});

// ---------------------------------------------------------------------------------------------
// 5. The rules file's run causes.

Deno.test("rules file: run_causes add a cause before the defaults; bad ones name the JSON path", () => {
  const set = compileRulesDocument({
    version: 1,
    run_causes: [{
      id: "ride.reexpand",
      cause: "zipline:reexpand_loop",
      match: { signal: "phase", reason: "^zipline_recovery_reexpand$" },
    }],
  }, "r.json");
  const r =
    runsOf(failedRun((w) => w.phase("WaitZipline", "Recover", "zipline_recovery_reexpand")))[0];
  assertEquals(runCause(r)!.cause, "unknown"); // no default rule names it
  assertEquals(runCause(r, set)!.cause, "zipline:reexpand_loop");
  // `disable` names default run-cause rules too: a failed detour is then no cause.
  const off = compileRulesDocument({ version: 1, disable: ["detour.no_bypass"] }, "r.json");
  const detour = runsOf(failedRun(CAUSE_CASES.find(([c]) => c === "detour:no_bypass")![1]))[0];
  assertEquals(runCause(detour)!.cause, "detour:no_bypass");
  assertEquals(runCause(detour, off)!.cause, "unknown");
  try {
    compileRulesDocument({
      version: 1,
      run_causes: [{ id: "x", cause: "a:b", match: { signal: "nope" } }],
    }, "r.json");
    throw new Error("accepted an unknown signal");
  } catch (e) {
    assert(e instanceof NavscopeError, String(e));
    assert(e.message.includes("$.run_causes[0].match.signal"), e.message);
  }
});

// ---------------------------------------------------------------------------------------------
// 6. classify, triage, the picture.

/** Three failed runs (planner, zipline then off-route, world map) and one success. */
function threeRuns(): string {
  const w = new RunLogWriter();
  w.request("Mesa", 1, LZ, [300, 100]).track([100, 100], [110, 100], 2, LZ)
    .failedPlan(Z, LZ, [110, 100], [300, 100], "从起点走不到终点 (可达区距 终 20.2px)")
    .end("Mesa", false);
  w.request("Deliver", 2, LZ, [300, 100]).phase("Bootstrap", "Navigate", "initial_fix");
  issueRun(w);
  w.end("Deliver", false);
  w.request("Anchor", 3, LZ, [1369.87, 1533.92]).line(
    "ERR",
    "WorldMap: gave up without a confirmed icon [param.zone=Wuling] [target.x=1369.87] [target.y=1533.92] [param.icon=TeleportAnchor] [param.max_attempts=4]",
    "WorldMapFind.cpp",
    "worldmap::MapFindRun",
  ).end("Anchor", false);
  w.request("Plaza", 4, LZ, [66, 12]).planned(Z, LZ, [[24, 40], [66, 12]]).end("Plaza", true);
  w.line("INF", "A line navscope has never seen 42 [k=1]");
  return w.text();
}

async function withLog<T>(text: string, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "run_causes_" });
  try {
    const p = `${dir}/maafw.log`;
    await Deno.writeTextFile(p, text);
    return await fn(p);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("classify: failed runs by cause beside the planner classes (--json, --csv)", async () => {
  await withLog(threeRuns(), async (p) => {
    const j = await captureOutput(() => classifyCmd([p, "--json"]));
    assertEquals(j.value, 0, j.err);
    const rep = JSON.parse(j.out);
    assertEquals(rep.total, 1); // one planner failure
    assertEquals(rep.runs.failed, 3);
    assertEquals(rep.run_causes.map((r: { cause: string; runs: number }) => [r.cause, r.runs]), [
      ["locator:worldmap_gave_up", 1],
      ["offroute:wedge_timeout", 1],
      ["planner:goal_outside_reach", 1],
    ]);
    const off = rep.run_causes[1];
    assertEquals(off.chains, [{ chain: "zipline:aim_failed → offroute:wedge_timeout", runs: 1 }]);
    assertEquals(off.examples[0].node, "Deliver");
    assertEquals(rep.unknown_kinds, [{ kind: "A line navscope has never seen #", lines: 1 }]);
    const c = await captureOutput(() => classifyCmd([p, "--csv"]));
    assertEquals(c.value, 0, c.err);
    assert(c.out.includes("# Failed runs by cause\ncause,runs,chains,example\n"), c.out);
    assert(
      c.out.includes("offroute:wedge_timeout,1,zipline:aim_failed → offroute:wedge_timeout ×1,"),
      c.out,
    );
    assert(c.out.includes("# Lines not placed, by message kind"), c.out);
  });
});

Deno.test("triage: the verdict covers every failed run; each gets a section with its timeline and end", async () => {
  await withLog(threeRuns(), async (p) => {
    const t = await triage([p]);
    const lines = t.markdown.split("\n");
    assertEquals(
      lines[0],
      "**navscope triage：3 次导航运行失败 · 3 failed runs: 1 planner failure (goal_outside_reach), " +
        "1 zipline aim failure then off-route wedge timeout, 1 world-map search gave up**",
    );
    assertEquals(t.failedRunList.length, 3);
    const md = t.markdown;
    const s2 = md.slice(md.indexOf("### Run 2."), md.indexOf("### Run 3."));
    assert(s2.startsWith("### Run 2. offroute:wedge_timeout — map02base"), s2);
    assert(s2.includes("40.0 px off the planned route"), s2);
    assert(s2.includes("(150.0, 100.0) → (250.0, 100.0): given up: zipline_aim_failed"), s2);
    assert(s2.includes("replans: 1 route replaced, 1 soft replans"), s2);
    // Timeline entries in log order: request, leg planned, hop, given up, recover, replan, end.
    const order = [
      "request: node Deliver",
      "leg planned in map02base",
      "zipline hop started toward (250.0, 100.0)",
      "zipline given up: zipline_aim_failed",
      "phase WaitZipline → Recover (zipline_aim_failed)",
      "route replaced (zipline_recovery_reexpand)",
      "soft replan (reason code 3)",
      "phase Navigate → Failed (offroute_wedge_timeout)",
      "FailNavigation: off route 40.2 px",
      "end: Node.Action.Failed (Deliver)",
    ];
    let at = s2.indexOf("- timeline:");
    for (const o of order) {
      const k = s2.indexOf(o, at);
      assert(k > at, `${o} after position ${at}`);
      at = k;
    }
    assert(md.includes("### Run 3. locator:worldmap_gave_up"), md);
    assert(md.includes("1 × `A line navscope has never seen #`"), md);
    assert(!md.includes("no planner failure in these logs"), "there is one");
    // One picture per failed run, each an SVG with its legend.
    assertEquals([...t.svgs.keys()], ["run-01.svg", "run-02.svg", "run-03.svg"]);
  });
});

Deno.test("run picture: title, cause, message, a legend entry per layer drawn, scale bar", () => {
  const svg = runPictureSvg({
    id: "run-02",
    title: "run-02: Deliver — map02base — offroute:wedge_timeout",
    zone: "map02base",
    plannedPaths: [{ zone: "map02base", points: [[100, 100], [300, 100]] }],
    track: [{ zone: "map02base", points: [[100, 100], [160, 140]] }],
    hops: [{ mount: [150, 100], landing: [250, 100], outcome: "given up: zipline_aim_failed" }],
    end: [160, 140],
    offRoutePx: 40,
    cause: "offroute:wedge_timeout",
    message: "FailNavigation: off route 40.2 px",
  });
  // The panel's words, its wrapped lines joined again.
  const words = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(" ");
  for (
    const s of [
      "run-02: Deliver — map02base — offroute:wedge_timeout",
      "cause: offroute:wedge_timeout — FailNavigation: off route 40.2 px",
      'data-legend-for="logpath"',
      'data-legend-for="track"',
      'data-legend-for="zipline"',
      'data-legend-for="end"',
      "Where the run ended (last fix), 40.0 px off the route",
      " px</text>",
      "plain grid in zone coordinates",
    ]
  ) assert(svg.includes(s) || words.includes(s), s);
  // Nothing drawn, nothing in the legend.
  const bare = runPictureSvg({
    id: "run-01",
    title: "t",
    zone: "",
    plannedPaths: [],
    track: [],
    hops: [],
    end: null,
    offRoutePx: null,
    cause: "unknown",
    message: "",
  });
  assert(!bare.includes('data-layer="logpath"'), bare);
  assert(bare.startsWith("<svg"), bare);
});

Deno.test("report: a runs section with cause, node, zone, duration, replans and zipline hops", async () => {
  await withLog(threeRuns(), async (p) => {
    const { data } = await reportFromLogs([p]);
    const fr = data.failed_runs!;
    assertEquals([fr.total, fr.failed], [4, 3]);
    assertEquals(fr.by_cause, [
      { cause: "locator:worldmap_gave_up", runs: 1 },
      { cause: "offroute:wedge_timeout", runs: 1 },
      { cause: "planner:goal_outside_reach", runs: 1 },
    ]);
    const r = fr.rows[1];
    assertEquals(r.node, "Deliver");
    assertEquals(r.chain, ["zipline:aim_failed", "offroute:wedge_timeout"]);
    assertEquals(r.zone, "map02base");
    assertEquals([r.replans, r.soft_replans, r.zipline_hops], [1, 1, 1]);
    assertEquals(r.hop_outcomes, ["given up: zipline_aim_failed"]);
    assert(r.duration_s !== null && r.duration_s > 0);
    // Without run detail the track is not read, so the distance off the route is unknown.
    assertEquals(r.off_route_px, null);
    const d2 = (await reportFromLogs([p], { runDetail: "failed" })).data.failed_runs!;
    assertEquals(d2.rows[1].off_route_px, 40);
    const html = await reportHtml(data);
    assert(
      html.includes('<section id="runs-section"><h2>Failed runs (3 of 4 runs)</h2>'),
      "section",
    );
    assert(html.includes("<td><code>offroute:wedge_timeout</code></td>"), "row");
  });
});

Deno.test("docs/run_causes.md's taxonomy table is RUN_CAUSES, row for row", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/run_causes.md", import.meta.url));
  const rows = doc.split("\n").filter((l) => /^\| `[^`]+` +\|/.test(l));
  assertEquals(rows.map((l) => l.split("`")[1]), RUN_CAUSES.map((d) => d.name));
  for (const [i, d] of RUN_CAUSES.entries()) {
    assertEquals(rows[i].split("|")[2].trim(), d.words, d.name);
  }
});

Deno.test("triage verdict: several runs of one chain are counted, at most 8 chains are named", () => {
  const fake = (cause: string): TriageRun =>
    ({
      cause: { cause, chain: [{ cause, at: "", text: "", rule: "" }], lastLines: [] },
    }) as unknown as TriageRun;
  assertEquals(
    runsVerdict([fake("planner:a"), fake("cancelled"), fake("planner:a")]),
    "3 failed runs: 2× planner failure (a), 1 cancelled",
  );
  const many = Array.from({ length: 10 }, (_, i) => fake(`planner:c${i}`));
  assertEquals(
    runsVerdict(many),
    "10 failed runs: " + many.slice(0, 8).map((_, i) => `1 planner failure (c${i})`).join(", ") +
      ", 2 more with other causes (below)",
  );
  assertEquals(runsVerdict([]), "no failed run");
});
