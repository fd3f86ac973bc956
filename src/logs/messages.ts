/**
 * Recognition of the navigator's navmesh messages (maaend-runlogs.md §1.3) and navscope's own
 * plan line: message text → typed event. Dispatch is by the first character of the message
 * and `startsWith`, so an uninteresting line costs a table lookup and at most a few compares.
 * Keys are the literal C++ expressions of VAR() (maaend-runlogs.md §1.1 "Body"); older key
 * spellings are accepted where the facts document names them (`plan.error`).
 * @module
 */
import { field, parseBool, parseNumber, parsePoint, parsePoints } from "./line.ts";
import { PLAN_MESSAGE, planRecordFromFields } from "./plan_line.ts";
import { RUN_MESSAGES } from "./run_messages.ts";
import type { BuildResult, MessageSpec } from "./message_spec.ts";
import type {
  EventBase,
  LineHead,
  LogEvent,
  LogSource,
  Point2,
  RequestEvent,
  RouteTarget,
} from "./types.ts";

export type { BuildResult, MessageSpec } from "./message_spec.ts";

class Missing extends Error {}

function s(f: string[], k: string): string {
  const v = field(f, k);
  if (v === undefined) throw new Missing(`missing [${k}=…]`);
  return v;
}

function so(f: string[], k: string): string {
  return field(f, k) ?? "";
}

function n(f: string[], k: string): number {
  const v = parseNumber(s(f, k));
  if (Number.isNaN(v)) throw new Missing(`[${k}] is not a number`);
  return v;
}

function no(f: string[], k: string): number {
  const v = field(f, k);
  return v === undefined ? NaN : parseNumber(v);
}

function xy(f: string[], kx: string, ky: string): Point2 {
  return [n(f, kx), n(f, ky)];
}

const STATUS = "navmesh::ToString(route_result.status)";

/** Wraps a builder so a Missing becomes a string result. */
function specOnly(
  only: LogEvent["type"],
  text: string,
  build: (f: string[], base: EventBase) => LogEvent,
): MessageSpec {
  return { ...spec(text, build), only };
}

function spec(text: string, build: (f: string[], base: EventBase) => LogEvent): MessageSpec {
  return {
    text,
    build(f, base) {
      try {
        return build(f, base);
      } catch (e) {
        if (e instanceof Missing) return e.message;
        throw e;
      }
    },
  };
}

function deck(terminal: boolean) {
  return (f: string[], b: EventBase): LogEvent => ({
    ...b,
    type: "deck_failed",
    navmeshZone: s(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    target: xy(f, "target.point.x", "target.point.y"),
    deckY: n(f, "*target.deck_y"),
    status: so(f, STATUS),
    terminal,
  });
}

function unreachable(outcome: "blind_fallback" | "preserve_hints" | "failed") {
  return (f: string[], b: EventBase): LogEvent => ({
    ...b,
    type: "waypoint_unreachable",
    navmeshZone: s(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    target: xy(f, "target.point.x", "target.point.y"),
    status: so(f, STATUS),
    outcome,
  });
}

function blind(outcome: "gave_up" | "rejected" | "applied") {
  return (f: string[], b: EventBase): LogEvent => ({
    ...b,
    type: "blind_fallback",
    navmeshZone: s(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    target: xy(f, "target.x", "target.y"),
    outcome,
    gap: no(f, "blind_gap"),
    approach: outcome === "applied"
      ? xy(f, "approach.path.points.back().x", "approach.path.points.back().y")
      : null,
  });
}

/** Every recognised message; longer texts that share a prefix come first. */
export const MESSAGES: readonly MessageSpec[] = [
  { text: PLAN_MESSAGE, build: buildPlanEvent },
  spec("RECAST plan failed.", (f, b) => ({
    ...b,
    type: "recast_failed",
    zone: so(f, "request.zone_name"),
    // Older recast-era expanders printed VAR(plan.error) (maaend-runlogs.md §1.3).
    error: field(f, "result.error") ?? field(f, "plan.error") ?? "",
  })),
  spec("RECAST plan warning.", (f, b) => ({
    ...b,
    type: "recast_warning",
    zone: so(f, "request.zone_name"),
    warning: so(f, "warning"),
  })),
  spec("Failed to plan NAVMESH route.", (f, b) => ({
    ...b,
    type: "route_failed",
    navmeshZone: s(f, "navmesh_zone"),
    locatorZone: so(f, "locator_zone"),
    start: xy(f, "start.x", "start.y"),
    goal: xy(f, "goal.x", "goal.y"),
    status: so(f, STATUS),
    planMs: no(f, "plan_ms"),
  })),
  spec("NAVMESH route planned.", (f, b) => ({
    ...b,
    type: "route_planned",
    navmeshZone: s(f, "navmesh_zone"),
    locatorZone: so(f, "locator_zone"),
    cost: no(f, "route_result.cost"),
    pointCount: no(f, "route_result.path.points.size()"),
    planMs: no(f, "plan_ms"),
    loadMs: no(f, "navmesh_load_ms"),
  })),
  spec("NAVMESH generated path.", (f, b) => ({
    ...b,
    type: "generated_path",
    navmeshZone: s(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    cost: no(f, "route_result.cost"),
    pointCount: no(f, "path_point_count"),
    start: parsePoint(field(f, "navmesh_start_point")),
    goal: parsePoint(field(f, "navmesh_goal_point")),
    segmentBreaks: parseIndexList(field(f, "navmesh_segment_breaks")),
    points: parsePoints(field(f, "navmesh_path_points")) ?? [],
  })),
  spec("Failed to plan NAVMESH waypoint on the declared deck.", deck(true)),
  spec("Global NAVMESH target is unavailable on the declared deck.", deck(false)),
  spec(
    "Global NAVMESH target not directly reachable; preserving authored hints.",
    unreachable("preserve_hints"),
  ),
  spec(
    "NAVMESH waypoint not directly reachable; attempting blind-target fallback.",
    unreachable("blind_fallback"),
  ),
  spec("Failed to plan NAVMESH waypoint.", unreachable("failed")),
  spec("NAVMESH planning returned an empty path.", (f, b) => ({
    ...b,
    type: "empty_path",
    navmeshZone: so(f, "state.navmesh_zone"),
  })),
  spec("Expanded NAVMESH waypoint via zipline.", (f, b) => ({
    ...b,
    type: "waypoint_expanded",
    navmeshZone: so(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    viaZipline: true,
    pointCount: no(f, "out_path.size() - insert_index"),
    // A variant names the mount `mount_spot` (maaend-runlogs.md §1.6).
    mount: field(f, "mount.x") !== undefined
      ? [no(f, "mount.x"), no(f, "mount.y")]
      : field(f, "mount_spot.x") !== undefined
      ? [no(f, "mount_spot.x"), no(f, "mount_spot.y")]
      : null,
    startRecovered: false,
    planMs: NaN,
    expandMs: NaN,
  })),
  spec("Expanded NAVMESH waypoint.", (f, b) => ({
    ...b,
    type: "waypoint_expanded",
    navmeshZone: so(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    viaZipline: false,
    pointCount: no(f, "path_point_count"),
    startRecovered: parseBool(field(f, "start_recovered")) ?? false,
    planMs: no(f, "plan_ms"),
    expandMs: no(f, "expand_ms"),
  })),
  spec("NAVMESH start recovery rejected: no mesh point within the blind-walk budget.", (f, b) => ({
    ...b,
    type: "start_recovery",
    navmeshZone: so(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    start: xy(f, "request.start.x", "request.start.y"),
    applied: false,
    radius: no(f, "radius"),
    entry: null,
    distance: NaN,
  })),
  spec("NAVMESH start off mesh; walking onto the nearest mesh point first.", (f, b) => ({
    ...b,
    type: "start_recovery",
    navmeshZone: so(f, "state.navmesh_zone"),
    currentZone: so(f, "state.current_zone"),
    start: xy(f, "request.start.x", "request.start.y"),
    applied: true,
    radius: NaN,
    entry: xy(f, "entry->point.x", "entry->point.y"),
    distance: no(f, "entry->distance"),
  })),
  spec("NAVMESH blind-target fallback gave up: probe budget exhausted.", blind("gave_up")),
  spec("NAVMESH blind-target fallback rejected: residual gap too large.", blind("rejected")),
  spec("NAVMESH blind-target fallback applied.", blind("applied")),
  spec("Failed to load navmesh pack.", (f, b) => ({
    ...b,
    type: "navmesh_load_failed",
    zone: so(f, "navmesh_zone"),
    key: "",
    error: so(f, "load_result.message"),
  })),
  // The pack cache's line: `key` is the cache key (the pack file, e.g. base.nav.gz), not a
  // zone, so the zone stays unknown (it must not become a `--by zone` group).
  spec("load navmesh failed", (f, b) => ({
    ...b,
    type: "navmesh_load_failed",
    zone: "",
    key: so(f, "key"),
    error: so(f, "error"),
  })),
  spec("Phase transition.", (f, b) => ({
    ...b,
    type: "phase",
    from: so(f, "from_phase_name"),
    to: so(f, "to_phase_name"),
    reason: so(f, "reason"),
  })),
  // Detours during the walk (maaend-runlogs.md §1.3 "Detours"; their probe plans are not logged).
  spec("NAVMESH detour failed to find a reachable bypass.", (f, b) => ({
    ...b,
    type: "detour",
    selected: false,
    position: [no(f, "position.x"), no(f, "position.y")],
    zone: so(f, "position.zone_id"),
    anchor: [no(f, "anchor.x"), no(f, "anchor.y")],
    detour: null,
  })),
  spec("NAVMESH detour selected.", (f, b) => ({
    ...b,
    type: "detour",
    selected: true,
    position: null,
    zone: "",
    anchor: null,
    detour: [no(f, "best_detour.x"), no(f, "best_detour.y")],
  })),
  // Zipline decisions (maaend-runlogs.md §1.3 "Zipline planner lines", as LOG-PARSER reads them).
  spec("ZiplineRoute: picked", (f, b) => ({
    ...b,
    type: "zipline",
    decision: "picked",
    why: "",
    zone: "",
    towers: no(f, "best->towers.size()"),
  })),
  spec("ZiplineRoute: walking this leg instead.", (f, b) => ({
    ...b,
    type: "zipline",
    decision: "walk",
    why: so(f, "why"),
    zone: so(f, "navmesh_zone"),
    towers: NaN,
  })),
  spec("ZiplineRoute: no bridge for the disconnected walking leg.", (f, b) => ({
    ...b,
    type: "zipline",
    decision: "no_bridge",
    why: so(f, "why"),
    zone: "",
    towers: NaN,
  })),
  // The observed track: PositionProvider::Capture's locator fixes (maaend-runlogs.md §1.3).
  specOnly("position", "MapLocator", (f, b) => ({
    ...b,
    type: "position",
    status: no(f, "status"),
    zone: so(f, "position.zoneId"),
    point: [no(f, "position.x"), no(f, "position.y")],
    held: so(f, "position.isHeld") === "true",
  })),
  // Run machinery: session, zipline action and stage machine, locator (§1.6).
  ...RUN_MESSAGES,
];

/** Parses `[1,5,9]` into integers; [] when absent or malformed. */
function parseIndexList(v: string | undefined): number[] {
  if (v === undefined) return [];
  const t = v.trim();
  if (t.length < 2 || t[0] !== "[" || t[t.length - 1] !== "]") return [];
  const body = t.slice(1, -1).trim();
  if (body === "") return [];
  const out: number[] = [];
  for (const part of body.split(",")) {
    const x = parseNumber(part);
    if (Number.isNaN(x)) return [];
    out.push(x);
  }
  return out;
}

/** Messages indexed by their first character code (ASCII), longest text first. */
export const MESSAGES_BY_FIRST: ReadonlyArray<readonly MessageSpec[]> = (() => {
  const t: MessageSpec[][] = Array.from({ length: 128 }, () => []);
  for (const m of MESSAGES) t[m.text.charCodeAt(0)].push(m);
  for (const l of t) l.sort((a, b) => b.text.length - a.text.length);
  return t;
})();

/** Builds the plan event of a `NAVSCOPE plan.` line. */
export function buildPlanEvent(f: string[], base: EventBase): BuildResult {
  const r = planRecordFromFields(f);
  return typeof r === "string" ? r : { ...base, type: "plan", record: r };
}

/** Copies a head (events keep their own; the parser reuses one scratch head). */
export function cloneHead(h: LineHead): LineHead {
  return { ...h };
}

/** Base of an event at `src`. */
export function eventBase(src: LogSource, head: LineHead): EventBase {
  return { src, head: cloneHead(head) };
}

/** Locator-zone aliases → navmesh base zone (maaend-runlogs.md §4 "Zone names"). */
const ZONE_ALIASES: ReadonlyArray<readonly [string, string]> = [
  ["map01", "map01base"],
  ["ValleyIV", "map01base"],
  ["map02", "map02base"],
  ["Wuling", "map02base"],
  ["base01", "base01"],
  ["OMVBase", "base01"],
  ["dung01", "dung01"],
  ["Dung", "dung01"],
  ["indie_dg005", "indie_dg005"],
  ["IndieDg005", "indie_dg005"],
  ["indie_dg007", "indie_dg007"],
  ["IndieDg007", "indie_dg007"],
];

/** Navmesh base zone inferred from a locator zone name by prefix, "" when unknown. */
export function navmeshZoneOf(locatorZone: string): string {
  for (const [p, z] of ZONE_ALIASES) if (locatorZone.startsWith(p)) return z;
  return "";
}

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? v as Record<string, unknown>
    : null;
}

function firstOf(o: Record<string, unknown>, keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}

/**
 * NAVMESH steps of a route `path` (maaend-runlogs.md §4): object waypoints whose action is
 * NAVMESH, with the zone in effect (own `zone_id`/aliases, else the last ZONE step's).
 */
export function routeTargets(path: unknown[]): RouteTarget[] {
  const out: RouteTarget[] = [];
  let zone = "";
  const ZONE_KEYS = ["zone_id", "zoneId", "zone", "map_name", "mapName"];
  path.forEach((step, index) => {
    const o = obj(step);
    if (!o) return;
    const act = firstOf(o, ["action", "actions"]);
    const acts = Array.isArray(act) ? act : [act];
    const own = firstOf(o, ZONE_KEYS);
    if (acts.includes("ZONE")) {
      if (typeof own === "string") zone = own;
      return;
    }
    if (!acts.includes("NAVMESH")) return;
    const t = o.target;
    if (!Array.isArray(t) || typeof t[0] !== "number" || typeof t[1] !== "number") return;
    const tier = firstOf(o, ["target_tier", "targetTier"]);
    const deckY = firstOf(o, ["target_deck_y", "targetDeckY"]);
    const z = typeof own === "string" ? own : zone;
    if (typeof own === "string") zone = own;
    out.push({
      index,
      target: [t[0], t[1]],
      zoneId: z,
      tier: typeof tier === "string" ? tier : "",
      deckY: typeof deckY === "number" ? deckY : null,
    });
  });
  return out;
}

/**
 * Builds a request event from an AgentServer `[req={…}]` value; null when the request is not
 * a MapNavigateAction. `custom_action_param` may be a JSON string or an object.
 */
export function buildRequestEvent(req: string, base: EventBase): RequestEvent | null | string {
  let o: Record<string, unknown> | null;
  try {
    o = obj(JSON.parse(req));
  } catch {
    return "[req] is not JSON";
  }
  if (!o) return "[req] is not a JSON object";
  const name = o.custom_action_name ?? o.custom_action;
  if (name !== "MapNavigateAction") return null;
  let param: unknown = o.custom_action_param;
  if (typeof param === "string") {
    try {
      param = JSON.parse(param);
    } catch {
      param = null;
    }
  }
  const p = obj(param);
  const path = p && Array.isArray(p.path) ? p.path as unknown[] : [];
  return {
    ...base,
    type: "request",
    taskId: o.task_id === undefined ? "" : String(o.task_id),
    nodeName: typeof o.node_name === "string" ? o.node_name : "",
    mapName: p && typeof p.map_name === "string" ? p.map_name : "",
    param: p,
    path,
    targets: routeTargets(path),
  };
}

/** Builds a node result from `[msg=Node.Action.…]` `[details={"name":…}]`; null otherwise. */
export function buildNodeResult(f: string[], base: EventBase): LogEvent | null {
  const msg = field(f, "msg");
  if (msg !== "Node.Action.Succeeded" && msg !== "Node.Action.Failed") return null;
  let name = "";
  const d = field(f, "details");
  if (d !== undefined) {
    try {
      const o = obj(JSON.parse(d));
      if (o && typeof o.name === "string") name = o.name;
    } catch { /* name stays "" */ }
  }
  return { ...base, type: "node_result", name, ok: msg === "Node.Action.Succeeded" };
}
