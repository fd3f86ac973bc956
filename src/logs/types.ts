/**
 * Record types of the run-log layer: what the plan-line writer writes and what the streaming
 * parser emits. Shapes are stable — fields are only ever added, never renamed or removed —
 * because `src/analyze/` (classification, statistics) is built on them.
 *
 * Units (spec "输入与输出", maaend-runlogs.md §5 "Units"): planar coordinates are navmesh
 * base-map pixels (px); heights (`floor_y`, `deck_y`) are world Y in the same pixel scale;
 * durations are milliseconds (ms); window sizes are cells (kCS = 0.25 px).
 *
 * Timestamps: MaaFramework prints local time without a zone (`YYYY-MM-DD HH:MM:SS.mmm`,
 * maaend-runlogs.md §1.1). navscope reads it as if it were UTC: `time` is "naive epoch
 * milliseconds" — good for ordering and durations, not a real instant.
 * @module
 */

import type { OtherTimings, WorkCounters } from "../plan/counters.ts";
import type { BundleInfo } from "./bundle.ts";

/** A planar point `[x, y]` in base-map pixels. */
export type Point2 = [number, number];

/** A runtime no-go disc `[x, y, radius]`, all in px (spec "输入与输出": no_go_discs). */
export type NoGoDisc = [number, number, number];

/** MaaUtils logger level strings (maaend-runlogs.md §1.1), or "" when a line had none. */
export type LogLevel = "FTL" | "ERR" | "WRN" | "INF" | "DBG" | "TRC" | "";

/**
 * Window kind of the tier a plan finished in (glossary: 小窗 / 封顶档 / 整类窗口 =
 * `Kind.Tentative` / `Kind.Capped` / `Kind.Full`); "" when the plan failed before any window
 * was built (pre-checks, spec "失败的情形 · 建窗之前").
 */
export type WindowKind = "tentative" | "capped" | "full" | "";

/** Search window of the final tier, in global cells (spec "建窗" step 1). */
export interface PlanWindow {
  /** Global cell x of the window's first column. */
  x0: number;
  /** Global cell y of the window's first row. */
  y0: number;
  /** Width, cells. */
  nx: number;
  /** Height, cells. */
  ny: number;
  /** nx·ny, cells (carried explicitly so stats need not recompute it; spec "分档实测" groups by it). */
  cells: number;
}

/**
 * Per-stage timings of one plan, ms, steady clock (spec "诊断"; maaend-runlogs.md §5
 * `debug.timing.*_ms`). `total` runs from the planner entry and includes loading, snapping,
 * no-go checks, region pick and every discarded tier (spec "椭圆档位", last paragraph), so
 * "other" = total − window − topology − geometry (spec "分档实测").
 */
export interface PlanTimings {
  /** buildWindow of the final tier, ms. */
  window: number;
  /** Topology pass (walk mask, snap, endpoint access, baseline, contours, topology search), ms. */
  topology: number;
  /** Geometry pass (corridor + geometry search), ms. */
  geometry: number;
  /** String pull, ms. */
  pull: number;
  /** Assemble (attach raw endpoints, drop near/duplicate/collinear points), ms. */
  assemble: number;
  /** Lift corners, ms. */
  lift: number;
  /** Whole plan, ms. */
  total: number;
}

/** Nearest pair between the start-side and goal-side reach sets (spec "断开处的定位"). */
export interface PlanGap {
  /** Start-side cell centre, px. */
  start: Point2;
  /** Goal-side cell centre, px. */
  goal: Point2;
  /** Euclidean distance between the two cell centres, px. */
  distance: number;
}

/**
 * One plan as navscope's own plan log line records it (`src/logs/plan_line.ts`): everything
 * needed to replay the leg bit-exactly (zone, endpoints, floors, declared decks, no-go discs,
 * planner version, pack build hash) and to analyse it (outcome, tier, window, timings,
 * distances, gap, warnings, output sizes). The planner fills it (it stays free of I/O); the
 * writer formats it; the parser reads it back to an equal record.
 *
 * Optional inputs use `null` for "not given" (the planner's kBaseNavFloorYNone, −1e30).
 */
export interface PlanRecord {
  /** Planner version string, e.g. `navscope/0.1.0`. */
  version: string;
  /** Build hash of the main pack the plan ran on (hex), "" when unknown. */
  packHash: string;
  /** Zone name (navmesh zone, e.g. `map02base`). */
  zone: string;
  /** Raw start point, px. */
  start: Point2;
  /** Raw goal point, px. */
  goal: Point2;
  /** start_floor_y (snap floor for the start), world Y, or null. */
  startFloorY: number | null;
  /** goal_floor_y (snap floor for the goal), world Y, or null. */
  goalFloorY: number | null;
  /** start_deck_y (declared start deck), world Y, or null. */
  startDeckY: number | null;
  /** goal_deck_y (declared goal deck), world Y, or null. */
  goalDeckY: number | null;
  /** Runtime no-go discs passed with the request, in request order. */
  noGoDiscs: NoGoDisc[];
  /**
   * Id of the battery leg the plan was made for ("" when none). Legs of one battery may share
   * every input and differ only in their test overrides; the id tells replay which one it was.
   */
  leg: string;
  /**
   * Planner profile the plan ran under (src/plan/profile.ts: `spec`, `reference`, or a custom
   * `BASE:±switch…` name). Absent: not recorded (older lines; read as `spec`).
   */
  profile?: string;
  /** True when the plan produced a route. */
  ok: boolean;
  /**
   * Stable error code chosen by the planner ("" when ok), e.g. `goal_not_reachable`,
   * `disconnected`, `target_deck_unreachable`, `seed_outside_window`, `core_far`, `no_go`.
   * The planner owns the list; the log layer carries it verbatim.
   */
  code: string;
  /** The planner's error message, verbatim (Chinese, maaend-runlogs.md §2); "" when ok. */
  error: string;
  /** True when an endpoint lies in an author no-go zone (spec "输入与输出": no_go). */
  noGo: boolean;
  /** Loop round the plan finished in (0 = first); −1 when it failed before the tier loop. */
  tier: number;
  /** Kind of the final window. */
  kind: WindowKind;
  /** Escalation reasons of earlier tiers, in order (spec "椭圆档位"; e.g. `walk 断开`, `搜索碰边`). */
  tierNotes: string[];
  /** Final window, or null when no window was built. */
  window: PlanWindow | null;
  /** Per-stage timings, ms. */
  timing: PlanTimings;
  /**
   * Work counters (machine-independent cost, docs/counters.md), or null when the line had none
   * (written before they existed).
   */
  counters: WorkCounters | null;
  /** Sub-stage times of "other", ms (docs/counters.md), or null when the line had none. */
  otherTiming: OtherTimings | null;
  /** Start snap distance (endpoint → reached anchor cell), px, or null when not computed. */
  snapStart: number | null;
  /** Goal snap distance, px, or null. */
  snapGoal: number | null;
  /** Start distance to the start-side reach domain, px, or null (spec "失败的情形" case 10). */
  reachStart: number | null;
  /** Goal distance to the start-side reach domain, px, or null. */
  reachGoal: number | null;
  /** Disconnection gap, or null when not located. */
  gap: PlanGap | null;
  /** Warnings (maaend-runlogs.md §2 "Warnings"), in order. */
  warnings: string[];
  /** Number of points in the final polyline. */
  points: number;
  /** Polyline length, px. */
  length: number;
  /** Number of ledge drops in the route. */
  drops: number;
}

/** Where a line came from. */
export interface LogSource {
  /** Path of the log file as given / found. */
  file: string;
  /** 1-based line number within the (decompressed) file. */
  line: number;
}

/**
 * The bracket prefix of a MaaFramework line (maaend-runlogs.md §1.1):
 * `[time][LVL][Px pid][Tx tid][file][Lnnn][function]`. The short layout (MaaEnd's fixtures)
 * has only `[time][LVL][file]`; missing parts are −1 / "".
 */
export interface LineHead {
  /** Naive epoch ms of the timestamp (see module doc), NaN when absent. */
  time: number;
  /** Timestamp text as printed. */
  timeText: string;
  /** Level string. */
  level: LogLevel;
  /** Process id, −1 when absent. */
  pid: number;
  /** Thread id (uint16 hash), −1 when absent. */
  tid: number;
  /** Source file basename, "" when absent. */
  srcFile: string;
  /** Source line number (from `L123`), −1 when absent. */
  srcLine: number;
  /** Function name, "" when absent. */
  func: string;
  /** True when the line was cut (MaaFramework `[TRUNCATED: …]` or the parser's line cap). */
  truncated: boolean;
}

/** Fields common to every event. */
export interface EventBase {
  /** Where the line is. */
  src: LogSource;
  /** Parsed bracket prefix. */
  head: LineHead;
}

/** navscope's own plan line (`NAVSCOPE plan.`), parsed back to a full record. */
export interface PlanEvent extends EventBase {
  type: "plan";
  record: PlanRecord;
}

/** `RECAST plan failed.` (WRN): one engine call failed; `error` is the planner's message. */
export interface RecastFailedEvent extends EventBase {
  type: "recast_failed";
  zone: string;
  error: string;
}

/** `RECAST plan warning.` (WRN): one warning of a successful plan. */
export interface RecastWarningEvent extends EventBase {
  type: "recast_warning";
  zone: string;
  warning: string;
}

/** `Failed to plan NAVMESH route.` (WRN): carries the endpoints and the route status. */
export interface RouteFailedEvent extends EventBase {
  type: "route_failed";
  navmeshZone: string;
  locatorZone: string;
  start: Point2;
  goal: Point2;
  /** `navmesh::ToString(route_result.status)`: `unreachable`, `zone_not_found`, … */
  status: string;
  /** ms, NaN when absent. */
  planMs: number;
}

/** `NAVMESH route planned.` (INF): success, no endpoints. */
export interface RoutePlannedEvent extends EventBase {
  type: "route_planned";
  navmeshZone: string;
  locatorZone: string;
  /** Route cost (= length), px. */
  cost: number;
  pointCount: number;
  /** ms, NaN when absent. */
  planMs: number;
  /** ms, NaN when absent. */
  loadMs: number;
}

/** `NAVMESH generated path.` (INF): success with endpoints and the whole path. */
export interface GeneratedPathEvent extends EventBase {
  type: "generated_path";
  navmeshZone: string;
  currentZone: string;
  cost: number;
  pointCount: number;
  /** null when the key was absent or cut by truncation. */
  start: Point2 | null;
  goal: Point2 | null;
  segmentBreaks: number[];
  /** Path points; empty when absent or truncated. */
  points: Point2[];
}

/**
 * `Failed to plan NAVMESH waypoint on the declared deck.` (ERR, terminal) or
 * `Global NAVMESH target is unavailable on the declared deck.` (DBG, not terminal).
 */
export interface DeckFailedEvent extends EventBase {
  type: "deck_failed";
  navmeshZone: string;
  currentZone: string;
  target: Point2;
  /** `*target.deck_y`, world Y. */
  deckY: number;
  status: string;
  terminal: boolean;
}

/**
 * A waypoint the planner could not reach directly: `… attempting blind-target fallback.`
 * (outcome `blind_fallback`), `… preserving authored hints.` (`preserve_hints`),
 * `Failed to plan NAVMESH waypoint.` (`failed`).
 */
export interface WaypointUnreachableEvent extends EventBase {
  type: "waypoint_unreachable";
  navmeshZone: string;
  currentZone: string;
  target: Point2;
  status: string;
  outcome: "blind_fallback" | "preserve_hints" | "failed";
}

/** `NAVMESH planning returned an empty path.` (ERR). */
export interface EmptyPathEvent extends EventBase {
  type: "empty_path";
  navmeshZone: string;
}

/** `Expanded NAVMESH waypoint.` / `… via zipline.` (INF). */
export interface WaypointExpandedEvent extends EventBase {
  type: "waypoint_expanded";
  navmeshZone: string;
  currentZone: string;
  viaZipline: boolean;
  /** Via zipline: the mount point (`mount.x/y` or `mount_spot.x/y`), null when not logged. */
  mount?: Point2 | null;
  /** path_point_count (walking) or the number of inserted points (zipline), NaN if absent. */
  pointCount: number;
  startRecovered: boolean;
  /** ms, NaN when absent. */
  planMs: number;
  /** ms, NaN when absent. */
  expandMs: number;
}

/** Start recovery: `… start recovery rejected …` (applied false) or `… start off mesh …`. */
export interface StartRecoveryEvent extends EventBase {
  type: "start_recovery";
  navmeshZone: string;
  currentZone: string;
  start: Point2;
  applied: boolean;
  /** Blind-walk budget, px (rejected lines), NaN otherwise. */
  radius: number;
  /** Nearest mesh point (applied lines), null otherwise. */
  entry: Point2 | null;
  /** Snap distance to `entry`, px (applied lines), NaN otherwise. */
  distance: number;
}

/** Blind-target fallback outcome lines. */
export interface BlindFallbackEvent extends EventBase {
  type: "blind_fallback";
  navmeshZone: string;
  currentZone: string;
  target: Point2;
  outcome: "gave_up" | "rejected" | "applied";
  /** Residual blind gap, px (rejected/applied), NaN otherwise. */
  gap: number;
  /** Approach end point (applied), null otherwise. */
  approach: Point2 | null;
}

/** Navmesh pack load failures (`Failed to load navmesh pack.`, `load navmesh failed`). */
export interface NavmeshLoadFailedEvent extends EventBase {
  type: "navmesh_load_failed";
  /** Zone ("" when the line names none: the cache's line carries a pack key instead). */
  zone: string;
  /** Pack cache key (`load navmesh failed [key=base.nav.gz]`), "" otherwise. */
  key: string;
  error: string;
}

/** A NAVMESH waypoint of a route JSON (maaend-runlogs.md §4). */
export interface RouteTarget {
  /** Index in `path`. */
  index: number;
  target: Point2;
  /** Zone in effect (own `zone_id`/aliases, else inherited from the last ZONE step), "" if none. */
  zoneId: string;
  /** `target_tier`, "" if none. */
  tier: string;
  /** `target_deck_y`, null if none. */
  deckY: number | null;
}

/** An AgentServer `[req={…}]` line whose action is `MapNavigateAction` (run start). */
export interface RequestEvent extends EventBase {
  type: "request";
  taskId: string;
  nodeName: string;
  /** `custom_action_param.map_name`, "" if none. */
  mapName: string;
  /** The parsed `custom_action_param` (object), or null when it did not parse. */
  param: unknown;
  /** `custom_action_param.path`, [] when absent. */
  path: unknown[];
  /** NAVMESH steps of `path`. */
  targets: RouteTarget[];
}

/** EventDispatcher `Node.Action.Succeeded` / `Node.Action.Failed` (run end). */
export interface NodeResultEvent extends EventBase {
  type: "node_result";
  name: string;
  ok: boolean;
}

/** `NAVMESH detour failed to find a reachable bypass.` / `NAVMESH detour selected.` */
export interface DetourEvent extends EventBase {
  type: "detour";
  selected: boolean;
  /** Where the character stalled (failed lines), null otherwise. */
  position: Point2 | null;
  /** `position.zone_id` (failed lines), "" otherwise. */
  zone: string;
  anchor: Point2 | null;
  /** The chosen bypass point (selected lines), null otherwise. */
  detour: Point2 | null;
}

/** A `ZiplineRoute:` decision: picked, walk instead (with `why`), or no bridge (with `why`). */
export interface ZiplineEvent extends EventBase {
  type: "zipline";
  decision: "picked" | "walk" | "no_bridge";
  /** The planner's reason (`no zipline calibration on disk` …), "" when none. */
  why: string;
  zone: string;
  /** Towers of the picked route, NaN otherwise. */
  towers: number;
}

/** A `PositionProvider::Capture … MapLocator` fix (the observed track). */
export interface PositionEvent extends EventBase {
  type: "position";
  /** 0 is a valid fix. */
  status: number;
  zone: string;
  point: Point2;
  /** A held (repeated, not fresh) position. */
  held: boolean;
}

/** `Phase transition.` of the navigation session. */
export interface PhaseEvent extends EventBase {
  type: "phase";
  from: string;
  to: string;
  reason: string;
}

/**
 * `FailNavigation` (ERR): "Off-route with no route progress past the wedge timeout; …"
 * (maaend-runlogs.md §1.6). `distance` is the distance off the route, px.
 */
export interface FailNavigationEvent extends EventBase {
  type: "fail_navigation";
  /** `current_distance`, px off the route, NaN when absent. */
  distance: number;
  /** `yaw_error`, degrees, NaN when absent. */
  yawError: number;
  /** `stalled_ms`, ms, NaN when absent. */
  stalledMs: number;
}

/** The kinds of {@link SessionEvent} (maaend-runlogs.md §1.3 "Session and action framing", §1.6). */
export type SessionKind =
  | "route_replaced"
  | "soft_replan"
  | "starting"
  | "waiting_fix"
  | "initial_fix"
  | "expansion_finished"
  | "plan_build_failed"
  | "zone_infer_failed";

/**
 * Navigation-session lines: `Navigation route replaced.` (`reason`), `NavRunController soft
 * replan.` (`reason` = the enum code), `Starting navigation to targets.`, `Waiting for first
 * valid GPS signal...`, `Initial Pos fixed:` (`point`), `NAVMESH route expansion finished.`,
 * `NavRunController plan build failed.` (`reason` = the enum code), `Failed to infer NAVMESH
 * base zone.` (`zone` = `param.map_name`; the ERR one ends the expansion, §1.3).
 */
export interface SessionEvent extends EventBase {
  type: "session";
  kind: SessionKind;
  /** Reason text or code as logged, "" when none. */
  reason: string;
  /** Initial fix position, null otherwise. */
  point: Point2 | null;
  /** `target_count` / `expanded_waypoints` / `anchor_index`, NaN when none. */
  count: number;
  /** Navmesh zone (expansion finished / plan build failed), "" otherwise. */
  zone: string;
}

/**
 * `Action: ZIPLINE …` (maaend-runlogs.md §1.6): a hop started (`point` = landing), launched
 * toward the landing point (`point` = landing), ride landed (`point` = where, when logged),
 * given up (`reason`, `detail`, `dropped`, `point` = the fresh position, when logged).
 */
export interface ZiplineActionEvent extends EventBase {
  type: "zipline_action";
  action: "hop_started" | "launched" | "landed" | "given_up";
  point: Point2 | null;
  /** Given up: `reason` (`zipline_aim_failed` …), "" otherwise. */
  reason: string;
  /** Given up: `detail`, "" otherwise. */
  detail: string;
  /** Given up: `dropped` as logged, "" when absent. */
  dropped: string;
  /** Landed: `done.still_on_tower`, null when absent. */
  stillOnTower: boolean | null;
}

/**
 * A `zipline/…` stage-machine line (maaend-runlogs.md §1.6): `begin` (mount, landing),
 * `fired`, `fired/riding`, `fired/moved`, `fired/no_launch` (elapsed ms), `on_tower` (target),
 * `classified` (landing code, reached point).
 */
export interface ZiplineStageEvent extends EventBase {
  type: "zipline_stage";
  /** The text after `zipline/` (`begin`, `fired/riding`, …). */
  stage: string;
  /** begin: `plan_.mount`, null otherwise. */
  mount: Point2 | null;
  /** begin: `plan_.landing`; on_tower: `target_`; null otherwise. */
  landing: Point2 | null;
  /** fired/*: `elapsed_ms`, NaN otherwise. */
  elapsedMs: number;
  /** classified: `static_cast<int>(landing)`, NaN otherwise. */
  landingCode: number;
  /** classified: `reached`, null otherwise. */
  reached: Point2 | null;
}

/** `WorldMap: gave up without a confirmed icon` (ERR, `worldmap::MapFindRun`, §1.6). */
export interface WorldMapGaveUpEvent extends EventBase {
  type: "worldmap_gave_up";
  /** `param.zone` (a locator zone such as `Wuling`). */
  zone: string;
  target: Point2 | null;
  icon: string;
  /** `param.max_attempts`, NaN when absent. */
  maxAttempts: number;
}

/**
 * `ZiplineAccount: current game account selected`: recognised so it is not an unknown kind;
 * the account id is personal data (maaend-runlogs.md §1.6) and is deliberately not kept.
 */
export interface ZiplineAccountEvent extends EventBase {
  type: "zipline_account";
}

/**
 * One planned leg, assembled from the lines of one plan (paired by thread and order) or
 * taken from a navscope plan line. A leg is `replayable` when zone, start and goal are known.
 */
export interface Leg {
  /** `plan_line` (navscope record: everything known) or `navigator` (MaaEnd navigator lines). */
  origin: "plan_line" | "navigator";
  /** First line of the leg. */
  src: LogSource;
  /** Naive epoch ms of that line, NaN when unknown. */
  time: number;
  /** Thread id, −1 when unknown. */
  tid: number;
  /** Navmesh zone (planner zone name). */
  zone: string;
  /** Locator zone, "" when unknown. */
  locatorZone: string;
  /** Raw start, px, null when the log did not say (e.g. `NAVMESH route planned.` alone). */
  start: Point2 | null;
  /** Raw goal, px, null when unknown. */
  goal: Point2 | null;
  /** Declared goal deck, world Y, null when none or unknown. */
  goalDeckY: number | null;
  ok: boolean;
  /** Planner error message verbatim ("" when ok or not logged). */
  error: string;
  /** Navigator route status (`unreachable` …), "" when not logged. */
  status: string;
  /** Planner wall time, ms, NaN when unknown. */
  planMs: number;
  /** Route cost/length, px, NaN when unknown. */
  cost: number;
  /** Number of route points, NaN when unknown. */
  pointCount: number;
  /** Warnings logged for this plan. */
  warnings: string[];
  /** zone, start and goal are all known. */
  replayable: boolean;
  /** Task id of the MapNavigateAction request in effect, "" when none seen. */
  taskId: string;
  /** Node name of that request, "" when none. */
  nodeName: string;
  /** Full record when origin is `plan_line`, else null. */
  plan: PlanRecord | null;
}

/** A leg assembled by the pairer. */
export interface LegEvent extends EventBase {
  type: "leg";
  leg: Leg;
}

/** Everything the parser emits. Discriminate on `type`. */
export type LogEvent =
  | PlanEvent
  | RecastFailedEvent
  | RecastWarningEvent
  | RouteFailedEvent
  | RoutePlannedEvent
  | GeneratedPathEvent
  | DeckFailedEvent
  | WaypointUnreachableEvent
  | EmptyPathEvent
  | WaypointExpandedEvent
  | StartRecoveryEvent
  | BlindFallbackEvent
  | NavmeshLoadFailedEvent
  | RequestEvent
  | NodeResultEvent
  | PhaseEvent
  | DetourEvent
  | ZiplineEvent
  | PositionEvent
  | FailNavigationEvent
  | SessionEvent
  | ZiplineActionEvent
  | ZiplineStageEvent
  | WorldMapGaveUpEvent
  | ZiplineAccountEvent
  | LegEvent;

/** The `type` tags of {@link LogEvent}. */
export type LogEventType = LogEvent["type"];

/** Kinds of bad input the parser counts (never throws for them unless `strict`). */
export type ProblemKind =
  | "garbage" // a line that is not in the logger layout
  | "binary" // a line with NUL bytes or undecodable UTF-8 that is not in the logger layout
  | "non_utf8" // a logger line with invalid UTF-8 (read with U+FFFD; its message may not match)
  | "truncated" // a `[TRUNCATED: …]` line or a line over the cap
  | "bad_field" // a recognised message with a missing / malformed value
  | "bad_gzip" // a corrupt or truncated .gz (data before the damage is kept)
  | "binary_file" // a whole file of binary content (NUL bytes, no log line): skipped
  | "unreadable"; // a file that could not be opened or read

/** One reported problem (the first few of each kind are kept with their location). */
export interface ParseProblem {
  kind: ProblemKind;
  file: string;
  /** 1-based line, 0 for whole-file problems. */
  line: number;
  /** Short description. */
  detail: string;
}

/** Per-file summary. */
export interface FileReport {
  file: string;
  /** True when the bytes were gzip. */
  gzip: boolean;
  /** Decompressed bytes read. */
  bytes: number;
  lines: number;
  /** First timestamp seen (naive epoch ms), NaN when none; used for ordering. */
  firstTime: number;
  /** Set when the file failed to open/read/decompress. */
  error: string;
  /** Lines with invalid UTF-8 (read with U+FFFD): a file problem when > 0. */
  nonUtf8Lines: number;
  /** NUL characters dropped (runs of NULs a crash leaves in a log, maaend-bundles.md §1.5). */
  nulChars: number;
  /** Runs of NULs dropped. */
  nulRuns: number;
  /** `navigator` (cpp-algo log of a bundle), `pipeline` (boundaries only), `log` (any other). */
  role: "navigator" | "pipeline" | "log";
  /** Pipeline logs: task and node boundaries counted (maaend-bundles.md §2.2). */
  boundaries?: {
    tasksStarted: number;
    tasksSucceeded: number;
    tasksFailed: number;
    nodeActionsFailed: number;
  };
}

/** What a parse saw: counts by kind, the first problems with file:line, per-file summaries. */
export interface ParseReport {
  files: FileReport[];
  /** The bundles the inputs held (MaaEnd log zips, extracted folders); [] for loose logs. */
  bundles: BundleInfo[];
  /** Decompressed bytes over all files. */
  bytes: number;
  lines: number;
  /** Lines in the logger layout. */
  layoutLines: number;
  /** Lines whose message was recognised (an event was emitted). */
  recognized: number;
  /**
   * Logger lines no message matched, counted per message kind (the message text up to its
   * first `[key=`, digits masked as `#`; see `unknownKindOf` in src/logs/run_messages.ts), so
   * a new navigator line is noticed, not dropped. At most `MAX_UNKNOWN_KINDS` keys; the rest
   * are counted under `(other kinds)`.
   */
  unknownKinds: Record<string, number>;
  /** Counts of problems by kind. */
  problems: Record<ProblemKind, number>;
  /** The first problems (capped, see `ParseOptions.maxProblems`). */
  firstProblems: ParseProblem[];
  /** Events emitted by type (legs included). */
  events: Partial<Record<LogEventType, number>>;
  /** Legs emitted / of which failed / of which replayable. */
  legs: number;
  failedLegs: number;
  replayableLegs: number;
}
