/**
 * Test-data builder: navigator logs with the run-machinery lines of maaend-runlogs.md §1.6
 * (navigation session, zipline action and stage machine, locator), written as the product's
 * own log-analysis tests write them — the full MaaFramework prefix, or (`short`) only
 * `[time][level]`, which §1.6 says fixtures have.
 * @module
 */

type P = [number, number];

const f6 = (v: number) => v.toFixed(6);

/** Builds one navigator log, line by line, with a clock that advances per line. */
export class RunLogWriter {
  #clock: number;
  #out: string[] = [];
  /** @param start naive epoch ms of the first line; @param stepMs clock step per line. */
  constructor(start = Date.UTC(2026, 9, 2, 10, 0, 0, 0), readonly stepMs = 40) {
    this.#clock = start;
  }

  #ts(): string {
    this.#clock += this.stepMs;
    return new Date(this.#clock).toISOString().replace("T", " ").replace("Z", "");
  }

  /** A line with the full prefix (`file`/`fn` given) or the short `[time][level]` one. */
  line(level: string, msg: string, file = "", fn = ""): this {
    const head = file
      ? `[${this.#ts()}][${level}][Px8812][Tx412][${file}][L100][${fn || "f"}]`
      : `[${this.#ts()}][${level}]`;
    this.#out.push(`${head} ${msg} `);
    return this;
  }

  /** A MapNavigateAction request (run start) to one NAVMESH target. */
  request(node: string, task: number, zone: string, target: P): this {
    const param = JSON.stringify({
      map_name: zone,
      path: [{ action: "NAVMESH", target, zone_id: zone }],
    });
    const req = JSON.stringify({
      custom_action_name: "MapNavigateAction",
      custom_action_param: param,
      node_name: node,
      task_id: task,
    });
    return this.line("INF", `[req=${req}] [ipc_addr_=ipc:///tmp/a]`, "AgentServer.cpp");
  }

  /** The run end: `Node.Action.Succeeded|Failed`. */
  end(node: string, ok: boolean): this {
    return this.line(
      "INF",
      `[msg=Node.Action.${ok ? "Succeeded" : "Failed"}] [details={"name":"${node}"}]`,
      "EventDispatcher.hpp",
    );
  }

  /** `Phase transition.` */
  phase(from: string, to: string, reason: string): this {
    return this.line(
      "INF",
      `Phase transition. [from_phase_name=${from}] [to_phase_name=${to}] [reason=${reason}] ` +
        "[current_node_idx_=0] [path_origin_index_=0]",
      "navigation_session.cpp",
    );
  }

  /** Locator fixes from `a` to `b` (n + 1 fixes), `status=0`. */
  track(a: P, b: P, n: number, zone: string): this {
    for (let i = 0; i <= n; i++) {
      const x = a[0] + (b[0] - a[0]) * i / n, y = a[1] + (b[1] - a[1]) * i / n;
      this.line(
        "INF",
        `MapLocator [status=0] [position.zoneId=${zone}] [position.x=${f6(x)}] ` +
          `[position.y=${f6(y)}] [position.isHeld=false]`,
        "position_provider.cpp",
        "mapnavigator::PositionProvider::Capture",
      );
    }
    return this;
  }

  /** A successful plan: `NAVMESH route planned.` + `NAVMESH generated path.` */
  planned(zone: string, locZone: string, pts: P[]): this {
    const cost = pts.slice(1).reduce(
      (s, p, i) => s + Math.hypot(p[0] - pts[i][0], p[1] - pts[i][1]),
      0,
    );
    this.line(
      "INF",
      `NAVMESH route planned. [navmesh_zone=${zone}] [locator_zone=${locZone}] ` +
        `[route_result.cost=${f6(cost)}] [route_result.path.points.size()=${pts.length}] ` +
        "[plan_ms=12] [navmesh_load_ms=3]",
      "navmesh_path_expander.cpp",
    );
    return this.line(
      "INF",
      `NAVMESH generated path. [state.navmesh_zone=${zone}] [state.current_zone=${locZone}] ` +
        `[route_result.cost=${f6(cost)}] [path_point_count=${pts.length}] ` +
        `[navmesh_start_point=${JSON.stringify(pts[0])}] ` +
        `[navmesh_goal_point=${JSON.stringify(pts[pts.length - 1])}] ` +
        `[navmesh_segment_breaks=[]] [navmesh_path_points=${JSON.stringify(pts)}]`,
      "navmesh_path_expander.cpp",
    );
  }

  /** A failed plan: `RECAST plan failed.` + `Failed to plan NAVMESH route.` */
  failedPlan(zone: string, locZone: string, s: P, g: P, error: string): this {
    this.line(
      "WRN",
      `RECAST plan failed. [request.zone_name=${zone}] [result.error=${error}]`,
      "navmesh_path_expander.cpp",
    );
    return this.line(
      "WRN",
      `Failed to plan NAVMESH route. [navmesh_zone=${zone}] [locator_zone=${locZone}] ` +
        `[start.x=${f6(s[0])}] [start.y=${f6(s[1])}] [goal.x=${f6(g[0])}] [goal.y=${f6(g[1])}] ` +
        "[navmesh::ToString(route_result.status)=unreachable] [plan_ms=41]",
      "navmesh_path_expander.cpp",
    );
  }

  /** A zipline hop up to its launch: stage begin, hop started, fired, launched. */
  hopBegin(mount: P, landing: P): this {
    this.line(
      "INF",
      `zipline/begin [resume=false] [plan_.mount.x=${mount[0]}] [plan_.mount.y=${mount[1]}] ` +
        `[plan_.landing.x=${landing[0]}] [plan_.landing.y=${landing[1]}]`,
    );
    return this.line(
      "INF",
      `Action: ZIPLINE hop started. [waypoint.zipline_hop->landing.x=${landing[0]}] ` +
        `[waypoint.zipline_hop->landing.y=${landing[1]}]`,
      "zipline_action.cpp",
    );
  }

  /** The `FailNavigation` ERR line (§1.6, prefix as in the product's issue #5887). */
  failNavigation(distance: number, yaw: number, stalledMs: number): this {
    return this.line(
      "ERR",
      "Off-route with no route progress past the wedge timeout; terminating so the pipeline " +
        `can retry. [current_distance=${distance}] [yaw_error=${yaw}] [stalled_ms=${stalledMs}]`,
      "navigation_state_machine.cpp",
      "mapnavigator::NavigationStateMachine::FailNavigation",
    );
  }

  /** The log text (LF, one trailing newline). */
  text(): string {
    return this.#out.join("\n") + "\n";
  }
}

/** The zipline aim failure a user's issue shows (§1.6): given up, then Recover. */
export function aimFailure(w: RunLogWriter, at: P): RunLogWriter {
  w.line(
    "WRN",
    "Action: ZIPLINE given up, recovering from a fresh position. [reason=zipline_aim_failed] " +
      `[detail=could not aim the view at the landing point] [dropped=1] ` +
      `[ctx.position->x=${at[0]}] [ctx.position->y=${at[1]}]`,
    "zipline_action.cpp",
    "mapnavigator::semantic_nodes::AbandonZipline",
  );
  return w.phase("WaitZipline", "Recover", "zipline_aim_failed");
}
