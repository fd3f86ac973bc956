/**
 * What routeWindow's parts share (spec 两段搜索): its inputs and outcome, the escalation reasons
 * and warnings by their spec names (放大窗口的原因 / maaend-runlogs.md §2), the escalation thrown
 * out of a tentative window, an anchor and a solved path. One declaration for the orchestrator
 * (route_window.ts), the solver, the anchor picks and the two passes.
 * @module
 */

import type { FallGate } from "../../grid/rise_ok.ts";
import type { DriveMesh } from "./post/waypoints.ts";
import type { PostResult } from "./post/post_process.ts";
import type { Pt } from "../types.ts";
import type { OtherStageName, WorkCounters } from "../counters.ts";
import type { SwitchProbe } from "../profile.ts";
import type { WindowKind } from "../window/window_tiers.ts";

/** Escalation reasons (spec names, maaend-runlogs.md §2). */
export const Reason = {
  EdgeNear: "端点离窗边不足",
  SnapEdge: "吸附距离碰边",
  AccessNone: "接入链接不通",
  AccessEdge: "接入链碰边",
  MaskSplit: "掩膜内两端不连通",
  WalkBroken: "walk 断开",
  SearchEdge: "搜索碰边",
  CellLevel: "层不连通",
  BaselineNone: "基线不通",
  ChannelNone: "通道未接通",
  CorridorEdge: "走廊碰边",
  CorridorNone: "走廊内几何不通",
  DeckBlocked: "目标附近没有未封堵的声明面",
} as const;

/** Warnings (spec names), in the order a result lists them. */
export const Warning = {
  ChannelRetry: "通道未接通, 退到全图亏欠计价",
  WalkToCore: "walk 断开→退回 core",
  CellFallback: "层不连通→退回格级",
} as const;

/** The warnings in the order a result lists them. */
export const WARNING_ORDER: string[] = [
  Warning.ChannelRetry,
  Warning.WalkToCore,
  Warning.CellFallback,
];

/** Inputs of routeWindow besides the window. */
export interface RouteInput {
  /** Window kind. */
  kind: WindowKind;
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** Start height h0, m. */
  h0: number;
  /** Declared start deck. */
  startDeckY: number | null;
  /** Declared goal deck. */
  goalDeckY: number | null;
  /** Collider check of ledge drops (null: drops pass). */
  gate?: FallGate | null;
  /** The zone mesh for the waypoints (null: only the last point is a waypoint). */
  mesh?: DriveMesh | null;
  /** The zone's plane→world x scale (the drop margin's R = 3·0.41/|s_x|). */
  scaleX?: number;
  /** Lazy Theta* relaxes closed spans (pre-#6214; PlanOverrides.relaxClosed). */
  relaxClosed?: boolean;
  /** Where the router adds its work counters and its gap-location time (the plan's). */
  sink?: RouteSink;
  /**
   * Told the start span and the goal spans each time the anchors are set (the picture's reach
   * floods start from them; src/plan/diagnostics/picture.ts). Does not change the search.
   */
  onAnchors?: (startSpan: number, goalSpans: number[]) => void;
  /** #6219 early abandon of the tentative window's searches (default true; profile switch). */
  earlyAbandon?: boolean;
  /** formulas.md #111: no chord after a drop (default true; profile `chordDropExclusion`). */
  chordDropExclusion?: boolean;
  /** #6147 落点留余量 (default true; profile `landingMargin`). */
  landingMargin?: boolean;
  /** 拉直的输入 third kind: blocker segments only (default true; profile `cellPullBlockersOnly`). */
  cellPullBlockersOnly?: boolean;
  /**
   * 路线掩膜 tm step 2: an access path recomputed to limw (chan0 unreachable) joins tm too (default
   * true; profile `limwAccessInRouteMask`).
   */
  limwAccessInRouteMask?: boolean;
  /** 9839304: waypoints anchored at the line heights (default true; profile switch). */
  waypointStartHeight?: boolean;
  /**
   * Switch probes of the plan (src/plan/profile.ts SwitchProbe); `skipClosed`: whether #6214's
   * skip is probed (on, and no legs.json override).
   */
  probe?: { probe: SwitchProbe; skipClosed: boolean } | null;
}

/**
 * The plan's sink for what a routeWindow call did besides its outcome: work counters (added
 * even when the window escalates or fails) and times measured for the plan context.
 */
export interface RouteSink {
  /** The plan's work counters. */
  counters: WorkCounters;
  /** Gap location time of this call, ms (断开处). */
  gapMs: number;
  /** Fall-gate set-up time of this call, ms (set by the tier loop). */
  gateMs: number;
}

/** A successful route. */
export interface RouteOk {
  /** Status. */
  status: "ok";
  /** The final per-cell path (topology path, or the baseline's) as spans; null for cells. */
  spans: Int32Array | null;
  /** Per-cell path as window cells (always). */
  cells: Int32Array;
  /** Geometry pass parent chain as spans (empty when the geometry pass fell back). */
  chain: Int32Array;
  /** Cost of the final search (cells). */
  cost: number;
  /** Distance raw start → start anchor, px. */
  snapStart: number;
  /** Distance raw goal → goal anchor, px. */
  snapGoal: number;
  /** The goal cell is in the walk mask but not in the baseline's reach set (终点被隔开). */
  goalSealed: boolean;
  /** Warnings, in the spec's order. */
  warnings: string[];
  /** Topology (per-cell) path, px cell centres. */
  points: Pt[];
  /** Geometry chain, px cell centres. */
  tautPoints: Pt[];
  /** Cells of the topology path (or the baseline's when the topology pass fell back). */
  topologyCells: number;
  /** Stage time of the topology part (walk mask … topology pass), ms. */
  topologyMs: number;
  /** Stage time of the geometry part (corridor + geometry pass), ms. */
  geometryMs: number;
  /** Post-processing (string pull, assemble, lift corners, heights, clearance, waypoints). */
  post: PostResult;
  /** Time outside the timed stages, by sub-stage of "other" (route_setup, heights, …), ms. */
  otherMs: Partial<Record<OtherStageName, number>>;
}

/** What routeWindow returns. */
export type RouteOutcome = { status: "escalate"; reason: string } | RouteOk;

/** Thrown out of a tentative window: the window escalates for `reason` (routeWindow returns it). */
export class Escalate {
  constructor(readonly reason: string) {}
}

/** An anchor cell (掩膜与吸附锚点) and its distance from the raw endpoint, px. */
export interface Anchor {
  /** Window cell. */
  cell: number;
  /** Distance raw endpoint → cell centre, px. */
  dist: number;
}

/** A path found by solve: spans (span level) or cells (cell-level fallback). */
export interface Solved {
  /** The path as spans; null for a cell-level path. */
  spans: Int32Array | null;
  /** The path as window cells. */
  cells: Int32Array;
  /** Lazy Theta*'s parent chain as spans (geometry pass), or null. */
  chain: Int32Array | null;
  /** Cost of the search (cells). */
  cost: number;
  /** The mask the search used (the baseline's reach set). */
  mask: Uint8Array;
  /** Whether the path is span-level (not the cell-level fallback). */
  spanLevel: boolean;
}
