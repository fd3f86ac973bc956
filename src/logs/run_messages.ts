/**
 * Recognition of the navigator's run-machinery lines (maaend-runlogs.md §1.6, and the session
 * lines of §1.3 "Session and action framing"): the navigation session (`FailNavigation`, route
 * replaced, soft replan, navigation start, initial fix, expansion finished), the zipline action
 * and its stage machine (`Action: ZIPLINE …`, `zipline/…`), the locator (`WorldMap: gave up …`)
 * and `ZiplineAccount:` (recognised only: its account id is personal data and is not kept).
 *
 * Also the message-kind key of lines no message matched ({@link unknownKindOf}), so that a new
 * navigator line is counted and listed instead of silently dropped.
 * @module
 */
import { field, parseBool, parseNumber } from "./line.ts";
import type { MessageSpec } from "./message_spec.ts";
import type { EventBase, LogEvent, Point2, SessionKind } from "./types.ts";

/** The most distinct unknown message kinds a parse keeps; the rest go to {@link OTHER_KINDS}. */
export const MAX_UNKNOWN_KINDS = 256;

/** The key under which unknown lines beyond {@link MAX_UNKNOWN_KINDS} kinds are counted. */
export const OTHER_KINDS = "(other kinds)";

/** The longest kind key kept, characters. */
const KIND_CHARS = 80;

function num(f: string[], k: string): number {
  const v = field(f, k);
  return v === undefined ? NaN : parseNumber(v);
}

/** `[kx] [ky]` as a point, null when either is absent or not a number. */
function pointOf(f: string[], kx: string, ky: string): Point2 | null {
  const x = num(f, kx), y = num(f, ky);
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : null;
}

/** A spec whose builder never fails (every key of these lines is optional in the fixtures). */
function runSpec(text: string, build: (f: string[], b: EventBase) => LogEvent): MessageSpec {
  return { text, build };
}

function session(kind: SessionKind, reasonKey: string, countKey = "", zoneKey = "") {
  return (f: string[], b: EventBase): LogEvent => ({
    ...b,
    type: "session",
    kind,
    reason: reasonKey ? field(f, reasonKey) ?? "" : "",
    point: kind === "initial_fix" ? pointOf(f, "position_x", "position_y") : null,
    count: countKey ? num(f, countKey) : NaN,
    zone: zoneKey ? field(f, zoneKey) ?? "" : "",
  });
}

function stage(name: string) {
  return (f: string[], b: EventBase): LogEvent => ({
    ...b,
    type: "zipline_stage",
    stage: name,
    mount: name === "begin" ? pointOf(f, "plan_.mount.x", "plan_.mount.y") : null,
    landing: name === "begin"
      ? pointOf(f, "plan_.landing.x", "plan_.landing.y")
      : name === "on_tower"
      ? pointOf(f, "target_.x", "target_.y")
      : null,
    elapsedMs: num(f, "elapsed_ms"),
    landingCode: num(f, "static_cast<int>(landing)"),
    reached: name === "classified" ? pointOf(f, "reached.x", "reached.y") : null,
  });
}

/** The `FailNavigation` ERR text (maaend-runlogs.md §1.6). */
export const FAIL_NAVIGATION_TEXT =
  "Off-route with no route progress past the wedge timeout; terminating so the pipeline can retry.";

/** Every run-machinery message (merged into `MESSAGES`, src/logs/messages.ts). */
export const RUN_MESSAGES: readonly MessageSpec[] = [
  runSpec(FAIL_NAVIGATION_TEXT, (f, b) => ({
    ...b,
    type: "fail_navigation",
    distance: num(f, "current_distance"),
    yawError: num(f, "yaw_error"),
    stalledMs: num(f, "stalled_ms"),
  })),
  runSpec("Navigation route replaced.", session("route_replaced", "reason")),
  runSpec(
    "NavRunController soft replan.",
    session("soft_replan", "static_cast<int>(reason)", "anchor_index"),
  ),
  runSpec(
    "NavRunController plan build failed.",
    session("plan_build_failed", "static_cast<int>(reason)", "anchor_index", "position.zone_id"),
  ),
  runSpec("Starting navigation to targets.", session("starting", "", "target_count")),
  runSpec("Waiting for first valid GPS signal", session("waiting_fix", "")),
  runSpec("Initial Pos fixed:", session("initial_fix", "")),
  runSpec(
    "NAVMESH route expansion finished.",
    session("expansion_finished", "", "expanded_waypoints", "state->navmesh_zone"),
  ),
  runSpec(
    "Failed to infer NAVMESH base zone.",
    session("zone_infer_failed", "", "", "param.map_name"),
  ),
  runSpec("Action: ZIPLINE hop started.", (f, b) => ({
    ...b,
    type: "zipline_action",
    action: "hop_started",
    point: pointOf(f, "waypoint.zipline_hop->landing.x", "waypoint.zipline_hop->landing.y"),
    reason: "",
    detail: "",
    dropped: "",
    stillOnTower: null,
  })),
  runSpec("Action: ZIPLINE launched toward the landing point.", (f, b) => ({
    ...b,
    type: "zipline_action",
    action: "launched",
    point: pointOf(f, "landing.x", "landing.y"),
    reason: "",
    detail: "",
    dropped: "",
    stillOnTower: null,
  })),
  runSpec("Action: ZIPLINE ride landed.", (f, b) => ({
    ...b,
    type: "zipline_action",
    action: "landed",
    point: pointOf(f, "done.at.x", "done.at.y"),
    reason: "",
    detail: "",
    dropped: "",
    stillOnTower: parseBool(field(f, "done.still_on_tower")),
  })),
  runSpec("Action: ZIPLINE given up", (f, b) => ({
    ...b,
    type: "zipline_action",
    action: "given_up",
    point: pointOf(f, "ctx.position->x", "ctx.position->y"),
    reason: field(f, "reason") ?? "",
    detail: field(f, "detail") ?? "",
    dropped: field(f, "dropped") ?? "",
    stillOnTower: null,
  })),
  runSpec("zipline/begin", stage("begin")),
  runSpec("zipline/fired/riding", stage("fired/riding")),
  runSpec("zipline/fired/moved", stage("fired/moved")),
  runSpec("zipline/fired/no_launch", stage("fired/no_launch")),
  runSpec("zipline/fired", stage("fired")),
  runSpec("zipline/on_tower", stage("on_tower")),
  runSpec("zipline/classified", stage("classified")),
  runSpec("WorldMap: gave up without a confirmed icon", (f, b) => ({
    ...b,
    type: "worldmap_gave_up",
    zone: field(f, "param.zone") ?? "",
    target: pointOf(f, "target.x", "target.y"),
    icon: field(f, "param.icon") ?? "",
    maxAttempts: num(f, "param.max_attempts"),
  })),
  // The account id is personal data (§1.6): the builder reads no field at all.
  runSpec("ZiplineAccount:", (_f, b) => ({ ...b, type: "zipline_account" })),
];

/**
 * The message kind of a line no message matched: the message text from `m` up to its first
 * `[` (trimmed), or — for a line that is only brackets, like `[msg=Node.Recognition…]` — its
 * first bracket; digits masked as `#` so counters and ids do not split a kind; at most
 * {@link KIND_CHARS} characters.
 */
export function unknownKindOf(s: string, m: number): string {
  const b = s.indexOf("[", m);
  let t = (b < 0 ? s.slice(m, m + 2 * KIND_CHARS) : s.slice(m, Math.min(b, m + 2 * KIND_CHARS)))
    .trim();
  if (t === "" && b >= 0) {
    const close = s.indexOf("]", b);
    t = s.slice(b, close < 0 ? b + KIND_CHARS : Math.min(close + 1, b + KIND_CHARS));
  }
  t = t.replace(/\d+/g, "#");
  return t.length > KIND_CHARS ? t.slice(0, KIND_CHARS - 1) + "…" : t;
}

/** Counts one unknown line of kind `k` into `kinds` (capped at {@link MAX_UNKNOWN_KINDS}). */
export function countUnknownKind(kinds: Record<string, number>, k: string, n = 1): void {
  if (kinds[k] !== undefined) kinds[k] += n;
  else if (Object.keys(kinds).length < MAX_UNKNOWN_KINDS) kinds[k] = n;
  else kinds[OTHER_KINDS] = (kinds[OTHER_KINDS] ?? 0) + n;
}

/** The kinds most seen first (then by name), at most `limit`. */
export function topUnknownKinds(
  kinds: Record<string, number>,
  limit = 20,
): Array<{ kind: string; lines: number }> {
  return Object.entries(kinds)
    .map(([kind, lines]) => ({ kind, lines }))
    .sort((a, b) => b.lines - a.lines || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0))
    .slice(0, limit);
}
