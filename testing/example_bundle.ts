/**
 * The example bug-report bundle (`examples/bundle/`): a three-volume MaaEnd log bundle whose
 * navigator logs hold seven navigation runs on `examples/city_small` coordinates — two failing
 * legs that reproduce on that pack, one logged failure that does not (the leg plans fine
 * there), one leg in a zone the pack lacks, a successful run, and two runs that failed without
 * any planner failure (a zipline aim failure then the off-route wedge timeout; a world-map
 * search that gave up, maaend-runlogs.md §1.6) — laid out as MXU's exporter
 * writes it (maaend-bundles.md §1.3–1.5: top-level logs and config in part01, the cpp-algo
 * logs in part02 and part03, CRLF line ends, a rotated `maafw.bak.<stamp>.log`, a NUL run at
 * the end of the live log after a crash). `deno run -A testing/example_bundle.ts DIR`
 * rewrites it; tests build it in a temp folder.
 * @module
 */
import { crlf, writeBundle } from "./bundle_synth.ts";

/** The bundle's prefix (product, version, local export stamp). */
export const EXAMPLE_PREFIX = "MaaEnd-logs-v2.23.0-rc.2-20260808-075256";

type P = [number, number];

let clock = Date.UTC(2026, 7, 8, 7, 41, 0, 0);
function ts(stepMs = 37): string {
  clock += stepMs;
  return new Date(clock).toISOString().replace("T", " ").replace("Z", "");
}
const f6 = (v: number) => v.toFixed(6);

function line(level: string, tid: number, file: string, fn: string, msg: string): string {
  return `[${ts()}][${level}][Px8812][Tx${tid}][${file}][L412][${fn}] ${msg} \n`;
}

function request(node: string, task: number, zone: string, target: P, zip: boolean): string {
  const param = JSON.stringify({
    map_name: zone === "map01base" ? "ValleyIV_Base" : "Wuling_Base",
    zip,
    path: [
      { action: "ZONE", zone_id: zone === "map01base" ? "ValleyIV_Base" : "Wuling_Base" },
      { action: "NAVMESH", target, required: true },
    ],
  });
  const req = JSON.stringify({
    custom_action_name: "MapNavigateAction",
    custom_action_param: param,
    node_name: node,
    task_id: task,
  });
  return line(
    "INF",
    301,
    "AgentServer.cpp",
    "AgentServer::run",
    `[req=${req}] [ipc_addr_=ipc:///tmp/maa-agent-1]`,
  );
}

function track(from: P, to: P, n: number, zone: string): string {
  let out = "";
  for (let i = 0; i <= n; i++) {
    const x = from[0] + (to[0] - from[0]) * i / n, y = from[1] + (to[1] - from[1]) * i / n;
    out += line(
      "INF",
      77,
      "position_provider.cpp",
      "mapnavigator::PositionProvider::Capture",
      `MapLocator [status=0] [position.zoneId=${zone}] [position.x=${f6(x)}] [position.y=${
        f6(y)
      }] [position.isHeld=false]`,
    );
  }
  return out;
}

function failed(zone: string, locZone: string, s: P, g: P, error: string, status: string): string {
  return line(
    "WRN",
    412,
    "navmesh_path_expander.cpp",
    "PlanCorridorRoute",
    `RECAST plan failed. [request.zone_name=${zone}] [result.error=${error}]`,
  ) +
    line(
      "WRN",
      412,
      "navmesh_path_expander.cpp",
      "PlanNavmeshRouteImpl",
      `Failed to plan NAVMESH route. [navmesh_zone=${zone}] [locator_zone=${locZone}] [start.x=${
        f6(s[0])
      }] [start.y=${f6(s[1])}] [goal.x=${f6(g[0])}] [goal.y=${
        f6(g[1])
      }] [navmesh::ToString(route_result.status)=${status}] [plan_ms=41]`,
    );
}

function end(node: string, ok: boolean): string {
  return line(
    "INF",
    301,
    "EventDispatcher.hpp",
    "EventDispatcher::notify",
    `[msg=Node.Action.${ok ? "Succeeded" : "Failed"}] [details={"name":"${node}"}]`,
  );
}

function phase(from: string, to: string, reason: string): string {
  return line(
    "INF",
    412,
    "navigation_session.cpp",
    "NavigationSession::transition",
    `Phase transition. [from_phase_name=${from}] [to_phase_name=${to}] [reason=${reason}] [current_node_idx_=0] [path_origin_index_=0]`,
  );
}

/** The two navigator logs (rotated, live) and the pipeline log, LF line ends. */
export function exampleLogs(): { bak: string; live: string; pipeline: string } {
  clock = Date.UTC(2026, 7, 8, 7, 41, 0, 0);
  let bak = "";
  // Run 1: mesa_up — the goal is on the mesa, unreachable on foot (goal_outside_reach).
  bak += request("DeliverToMesa", 17, "map01base", [140, 305], false);
  bak += phase("Bootstrap", "Walk", "initial_fix");
  bak += track([104, 305], [110, 305], 6, "ValleyIV_Base");
  bak += failed(
    "map01base",
    "ValleyIV_Base",
    [110, 305],
    [140, 305],
    "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 20.2px)",
    "unreachable",
  );
  bak += line(
    "WRN",
    412,
    "zipline_route.cpp",
    "ZiplineRoute::plan",
    "ZiplineRoute: no bridge for the disconnected walking leg. [why=no zipline calibration on disk]",
  );
  bak += end("DeliverToMesa", false);
  // Run 2: plaza_cross, a success with the generated path.
  bak += request("CrossPlaza", 18, "map01base", [66, 12], false);
  bak += track([24, 40], [45, 26], 10, "ValleyIV_Base");
  bak += line(
    "INF",
    412,
    "navmesh_path_expander.cpp",
    "PlanNavmeshRouteImpl",
    "NAVMESH route planned. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [route_result.cost=50.477718] [route_result.path.points.size()=3] [plan_ms=12] [navmesh_load_ms=3]",
  );
  bak += line(
    "INF",
    412,
    "navmesh_path_expander.cpp",
    "LogGeneratedNavmeshPath",
    "NAVMESH generated path. [state.navmesh_zone=map01base] [state.current_zone=ValleyIV_Base] [route_result.cost=50.477718] [path_point_count=3] [navmesh_start_point=[24,40]] [navmesh_goal_point=[66,12]] [navmesh_segment_breaks=[]] [navmesh_path_points=[[24,40],[45,26],[66,12]]]",
  );
  bak += end("CrossPlaza", true);
  let live = "";
  // Run 3: link_oneway_up — a one-way link, the far side unreachable (reproduces).
  live += request("ClimbLink", 19, "map01base", [52, 380], true);
  live += track([18, 380], [20, 380], 3, "ValleyIV_Base");
  live += failed(
    "map01base",
    "ValleyIV_Base",
    [20, 380],
    [52, 380],
    "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 12.0px)",
    "unreachable",
  );
  live += line(
    "INF",
    412,
    "zipline_route.cpp",
    "ZiplineRoute::plan",
    "ZiplineRoute: walking this leg instead. [why=no powered ziplines recorded in this zone] [navmesh_zone=map01base]",
  );
  live += line(
    "WRN",
    412,
    "navmesh_path_expander.cpp",
    "Detour",
    "NAVMESH detour failed to find a reachable bypass. [position.x=20.000000] [position.y=380.000000] [position.zone_id=ValleyIV_Base] [anchor.x=30.000000] [anchor.y=380.000000] [blocked.size()=0] [blocked_points.size()=1]",
  );
  live += end("ClimbLink", false);
  // Run 4: a failure logged by an older pack that this pack plans fine (does not reproduce),
  // and a leg in a zone city_small has no pack for (zone not in this pack).
  live += request("CrossPlazaAgain", 20, "map01base", [66, 12], false);
  live += failed(
    "map01base",
    "ValleyIV_Base",
    [24, 40],
    [66, 12],
    "起点种子格落在窗外",
    "unreachable",
  );
  live += end("CrossPlazaAgain", false);
  live += request("WulingDelivery", 21, "map02base", [1369.87, 1533.92], true);
  live += track([1250, 1745], [1252.24, 1744.17], 2, "Wuling_Base");
  live += failed(
    "map02base",
    "Wuling_Base",
    [1252.24, 1744.17],
    [1369.87, 1533.92],
    "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 3.5px)",
    "unreachable",
  );
  live += end("WulingDelivery", false);
  // Run 6: no planner failure at all (issue 53, the shape of the product's issue #5887): the
  // zipline could not aim, the run recovered on foot, drifted off the route and hit the wedge
  // timeout.
  live += request("ZiplineToPlaza", 22, "map01base", [66, 12], true);
  live += line(
    "INF",
    412,
    "zipline_preference.cpp",
    "ZiplineAccount",
    "ZiplineAccount: current game account selected [account_id=4242424242]",
  );
  live += phase("Bootstrap", "Navigate", "initial_fix");
  live += line(
    "INF",
    412,
    "navmesh_path_expander.cpp",
    "PlanNavmeshRouteImpl",
    "NAVMESH route planned. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [route_result.cost=50.477718] [route_result.path.points.size()=3] [plan_ms=12] [navmesh_load_ms=3]",
  );
  live += line(
    "INF",
    412,
    "navmesh_path_expander.cpp",
    "LogGeneratedNavmeshPath",
    "NAVMESH generated path. [state.navmesh_zone=map01base] [state.current_zone=ValleyIV_Base] [route_result.cost=50.477718] [path_point_count=3] [navmesh_start_point=[24,40]] [navmesh_goal_point=[66,12]] [navmesh_segment_breaks=[]] [navmesh_path_points=[[24,40],[45,26],[66,12]]]",
  );
  live += track([24, 40], [36, 32], 4, "ValleyIV_Base");
  live += line(
    "INF",
    412,
    "zipline_action.cpp",
    "ZiplineAction::Run",
    "zipline/begin [resume=false] [plan_.mount.x=36] [plan_.mount.y=32] [plan_.landing.x=60] [plan_.landing.y=16]",
  );
  live += line(
    "INF",
    412,
    "zipline_action.cpp",
    "ZiplineAction::Run",
    "Action: ZIPLINE hop started. [waypoint.zipline_hop->landing.x=60] [waypoint.zipline_hop->landing.y=16]",
  );
  live += line(
    "WRN",
    412,
    "zipline_action.cpp",
    "mapnavigator::semantic_nodes::AbandonZipline",
    "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_aim_failed] [detail=could not aim the view at the landing point] [dropped=1] [ctx.position->x=36] [ctx.position->y=33]",
  );
  live += phase("WaitZipline", "Recover", "zipline_aim_failed");
  live += line(
    "INF",
    412,
    "navigation_session.cpp",
    "NavigationSession::ReplaceRoute",
    "Navigation route replaced. [reason=zipline_recovery_reexpand]",
  );
  live += track([36, 33], [30, 52], 4, "ValleyIV_Base");
  live += phase("Navigate", "Failed", "offroute_wedge_timeout");
  live += line(
    "ERR",
    412,
    "navigation_state_machine.cpp",
    "mapnavigator::NavigationStateMachine::FailNavigation",
    "Off-route with no route progress past the wedge timeout; terminating so the pipeline can retry. [current_distance=27.1] [yaw_error=38.5] [stalled_ms=15000]",
  );
  live += end("ZiplineToPlaza", false);
  // Run 7: the world-map search for a teleport anchor gave up (the product's issue #5345).
  live += request("TeleportToWuling", 23, "map02base", [1369.87, 1533.92], false);
  live += line(
    "ERR",
    412,
    "WorldMapFind.cpp",
    "worldmap::MapFindRun",
    "WorldMap: gave up without a confirmed icon [param.zone=Wuling] [target.x=1369.87] [target.y=1533.92] [param.icon=TeleportAnchor] [param.max_attempts=4]",
  );
  live += end("TeleportToWuling", false);
  const pipeline = [
    "Tasker.Task.Starting",
    "Tasker.Task.Failed",
    "Tasker.Task.Starting",
    "Tasker.Task.Succeeded",
  ].map((m) => line("INF", 1, "Tasker.cpp", "maa::Tasker::run_task", `${m} [task_id=${m.length}]`))
    .join("");
  return { bak, live, pipeline };
}

/** Writes the three volumes into `dir`; returns their paths. */
export function writeExampleBundle(dir: string): string[] {
  const { bak, live, pipeline } = exampleLogs();
  return writeBundle(dir, {
    prefix: EXAMPLE_PREFIX,
    volumes: [
      {
        "maafw.log": crlf(pipeline),
        "go-service.log":
          `{"level":"info","time":"2026-08-08T07:41:00+08:00","message":"started"}\n`,
        "mxu-tauri.log": "[2026-08-08][07:41:00][mxu][INFO] post_task returned task_id 17\n",
        "config/mxu-MaaEnd.json": JSON.stringify({
          options: [{ name: "ZiplineDelivery", value: "No" }],
        }),
      },
      { "cpp-algo/debug/maafw.bak.2026.08.08-07.41.01.300.log": crlf(bak) },
      // The live log ends in a NUL run: the process crashed before the page was written.
      { "cpp-algo/debug/maafw.log": crlf(live) + "\0".repeat(64) },
    ],
  });
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? "examples/bundle";
  for (const p of writeExampleBundle(dir)) console.log(p);
}
