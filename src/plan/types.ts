/**
 * The planner's request and result (spec 输入与输出), its error codes, and the debug record that
 * carries every stage's timing and intermediate (spec 诊断).
 * @module
 */

import type { WindowKind } from "./window/window_tiers.ts";
import {
  emptyCounters,
  emptyOtherTimings,
  type OtherTimings,
  type WorkCounters,
} from "./counters.ts";
import type { PlanProfile } from "./profile.ts";
import type { PlanErrorCode } from "../legs/codes.ts";

/** A point in px. */
export type Pt = [number, number];

/** A runtime no-go disc: centre (px) and radius (px). */
export interface NoGoDiscSpec {
  /** Centre x, px. */
  x: number;
  /** Centre y, px. */
  y: number;
  /** Radius, px. */
  r: number;
}

/**
 * Test and battery knobs (not part of the spec's request; `legs.json` `overrides`). They change
 * what the planner does and are recorded in the result, so a plan using them is never mistaken
 * for a normal one.
 */
export interface PlanOverrides {
  /** Force every tier's window to these global cells `[gx0, gy0, nx, ny]` (kind `full`). */
  window?: [number, number, number, number];
  /** kMaxCells for this plan (default 400 M). */
  maxCells?: number;
  /** Cancel just before tier N is built (as if the signal fired then). */
  cancelBeforeTier?: number;
  /**
   * Lazy Theta* relaxes closed spans as the C++ build before #6214 did (the golden routes'
   * build; formulas.md #112 "Ref differs"). Default: the profile's `skipClosed` switch (spec:
   * the #6214 skip); set, it wins over the profile for this leg.
   */
  relaxClosed?: boolean;
}

/** A plan request (spec 输入与输出). Heights in metres, points in px. */
export interface PlanRequest {
  /** Zone name. */
  zone: string;
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** Snap floor for the start (m). */
  startFloorY?: number | null;
  /** Snap floor for the goal (m). */
  goalFloorY?: number | null;
  /** Declared start deck (m). */
  startDeckY?: number | null;
  /** Declared goal deck (m). */
  goalDeckY?: number | null;
  /** Runtime no-go discs. */
  noGoDiscs?: NoGoDiscSpec[];
  /** Test knobs. */
  overrides?: PlanOverrides;
  /**
   * Planner profile (src/plan/profile.ts); default: the engine's (`EngineOptions.profile`), else
   * `spec`.
   */
  profile?: PlanProfile;
}

/**
 * Failure codes: listed once, in src/legs/codes.ts (the leg format below the planner names its
 * expected outcomes with them); re-exported here as the planner's own.
 */
export {
  FAULT_CODES,
  LEG_FAILURE_CODES,
  PLAN_ERROR_CODES,
  type PlanErrorCode,
} from "../legs/codes.ts";

/** Per-stage timings, ms (spec 实测 stage names). */
export interface StageTimings {
  /** buildWindow of the final tier. */
  window: number;
  /** Topology pass (here: the search inside the window). */
  topology: number;
  /** Geometry pass. */
  geometry: number;
  /** String pull. */
  pull: number;
  /** Assemble. */
  assemble: number;
  /** Lift corners. */
  lift: number;
  /** Whole plan from the entry. */
  total: number;
}

/** One tier of the loop, as the debug record keeps it. */
export interface TierTrace {
  /** Loop round (0-based). */
  tier: number;
  /** Ellipse level. */
  level: number;
  /** Window kind. */
  kind: WindowKind;
  /** Window origin x, px. */
  x0: number;
  /** Window origin y, px. */
  y0: number;
  /** Columns. */
  nx: number;
  /** Rows. */
  ny: number;
  /** Allowed cost, cells. */
  cost: number;
  /** Why this tier was rejected ("" for the accepted or final tier). */
  reason: string;
  /** buildWindow time, ms. */
  windowMs: number;
  /** Search time, ms. */
  searchMs: number;
}

/** Debug record of a plan (spec 诊断: window, tier, notes, timings, intermediates). */
export interface PlanDebug {
  /** Final window origin x, px (0 when no window was built). */
  x0: number;
  /** Final window origin y, px. */
  y0: number;
  /** Final window columns. */
  nx: number;
  /** Final window rows. */
  ny: number;
  /** Loop round the plan ended in; −1 before the loop. */
  tier: number;
  /** Final window kind ("" before the loop). */
  kind: WindowKind | "";
  /** Ellipse level of the final tier. */
  level: number;
  /** One reason per rejected tier (spec names, 放大窗口的原因). */
  tierNotes: string[];
  /** Every tier tried. */
  tiers: TierTrace[];
  /** Stage timings, ms. */
  timing: StageTimings;
  /** Work counters (machine-independent cost, src/plan/counters.ts; docs/counters.md). */
  counters: WorkCounters;
  /** Sub-stage times of "other" (total − the six stages), ms (src/plan/counters.ts). */
  otherTiming: OtherTimings;
  /** Distance raw start → start anchor cell, px (null before routeWindow). */
  snapStart: number | null;
  /** Distance raw goal → goal anchor cell, px. */
  snapGoal: number | null;
  /** Triangle snap distance of the start, px. */
  meshSnapStart: number | null;
  /** Triangle snap distance of the goal, px. */
  meshSnapGoal: number | null;
  /** Zone-wide core-anchor distance of the start, px (check 8). */
  coreStart: number | null;
  /** Zone-wide core-anchor distance of the goal, px. */
  coreGoal: number | null;
  /** Region the search ran in (−1 before region pick). */
  region: number;
  /** The region rectangle (the full window), global cells `[x0, y0, nx, ny]`; null before. */
  regionRect: [number, number, number, number] | null;
  /** Warnings recorded during the plan (the result's warnings when it succeeds; a failed result has none). */
  warnings: string[];
  /** Per-cell path of the search (px, cell centres). */
  topologyPoints: Pt[];
  /** Geometry pass parent chain (taut chain), px cell centres; empty when it fell back. */
  tautPoints: Pt[];
  /** Cells of the topology pass's path (the baseline's when the topology pass fell back). */
  topologyCells: number;
  /** After string pull. */
  pulledPoints: Pt[];
  /** After assemble. */
  assembledPoints: Pt[];
  /** Off-mesh links of the zone with both ends in the region that could not be landed. */
  unlandableLinks: number;
  /** Gap: nearest start-side / goal-side pair (null when not located). */
  gap: { start: Pt; goal: Pt; distance: number } | null;
}

/** A ledge drop on the route. */
export interface RouteDrop {
  /** Index of the landing point in `points`. */
  index: number;
  /** Height of the upper surface, m. */
  fromH: number;
  /** Height of the landing surface, m. */
  toH: number;
}

/** A plan result (spec 输入与输出). */
export interface PlanResult {
  /** True when a route was found. */
  ok: boolean;
  /** Name of the planner profile the plan ran under (src/plan/profile.ts; set by Engine.plan). */
  profile?: string;
  /** Machine code ("" when ok). */
  error: PlanErrorCode | "";
  /** The planner's message in the spec's wording ("" when ok). */
  message: string;
  /** Polyline, px. */
  points: Pt[];
  /** Clearance per point, px (≤ 12; 0 inside no-go). */
  clearance: number[];
  /** Surface height per point, m. */
  heights: number[];
  /** Indices of points the follower must stop at. */
  waypoints: number[];
  /** Ledge drops. */
  drops: RouteDrop[];
  /** Polyline length, px. */
  length: number;
  /** An endpoint lies in an author no-go zone. */
  noGo: boolean;
  /** Warnings (empty when the plan failed: see `debug.warnings`). */
  warnings: string[];
  /** Debug record. */
  debug: PlanDebug;
  /** The window picture, when asked for (`plan(…, {picture: true})`). */
  picture?: LegPicture;
  /**
   * Switches on whose turning off alone could change this plan, when probed
   * (`plan(…, {probeSwitches: true})`; src/plan/profile.ts SwitchProbe).
   */
  switchesTouched?: string[];
}

/** An empty debug record (every field at its default, as the spec says for pre-check failures). */
export function emptyDebug(): PlanDebug {
  return {
    x0: 0,
    y0: 0,
    nx: 0,
    ny: 0,
    tier: -1,
    kind: "",
    level: 0,
    tierNotes: [],
    tiers: [],
    timing: { window: 0, topology: 0, geometry: 0, pull: 0, assemble: 0, lift: 0, total: 0 },
    counters: emptyCounters(),
    otherTiming: emptyOtherTimings(),
    snapStart: null,
    snapGoal: null,
    meshSnapStart: null,
    meshSnapGoal: null,
    coreStart: null,
    coreGoal: null,
    region: -1,
    regionRect: null,
    warnings: [],
    topologyPoints: [],
    tautPoints: [],
    topologyCells: 0,
    pulledPoints: [],
    assembledPoints: [],
    unlandableLinks: 0,
    gap: null,
  };
}

/** What a failure carries besides its code and message. */
export interface PlanFailureExtra {
  /** An endpoint is in an author no-go zone. */
  noGo?: boolean;
  /** The located gap of a disconnected leg (断开处). */
  gap?: { start: Pt; goal: Pt; distance: number } | null;
  /** Final judgement: the goal is sealed off (终点被隔开). */
  sealed?: boolean;
  /** Final judgement: start distance to the reach domain, px. */
  startReach?: number;
  /** Final judgement: goal distance to the reach domain, px. */
  goalReach?: number;
}

/**
 * A planner failure inside the stages: the code, the spec's message, and whether it is the
 * kind of failure the tier loop catches (buildWindow / routeWindow errors escalate).
 */
export class PlanFailure extends Error {
  /** Machine code. */
  readonly code: PlanErrorCode;
  /** Extra fields for the result. */
  readonly extra: PlanFailureExtra;
  constructor(code: PlanErrorCode, message: string, extra: PlanFailureExtra = {}) {
    super(message);
    this.name = "PlanFailure";
    this.code = code;
    this.extra = extra;
  }
}

/** One plan drawn as data. */
export interface LegPicture {
  /** Crop origin, global cells. */
  x0: number;
  /** Crop origin y, global cells. */
  y0: number;
  /** Crop width, cells. */
  nx: number;
  /** Crop height, cells. */
  ny: number;
  /** Cell class per crop cell (row-major, y up in the world; PictureCell, 4: outside the window). */
  cells: Uint8Array;
  /** Clearance per crop cell, px ×16, capped at 255 (12 px → 192). */
  clearance: Uint8Array;
  /** Blocker segments inside the crop, px: ax, ay, bx, by. */
  blockers: number[];
  /** Author no-go rings of the zone meeting the crop, px. */
  rings: Pt[][];
  /** Runtime discs. */
  discs: NoGoDiscSpec[];
  /** Point lists of the stages. */
  topology: Pt[];
  /** Geometry pass chain. */
  taut: Pt[];
  /** After string pull. */
  pulled: Pt[];
  /** After assemble. */
  assembled: Pt[];
  /** Final route. */
  points: Pt[];
  /** Waypoint indices into `points`. */
  waypoints: number[];
  /** Landing indices into `points`. */
  drops: number[];
  /** Gap of a disconnected leg. */
  gap: { start: Pt; goal: Pt; distance: number } | null;
  /** Raw endpoints. */
  start: Pt;
  /** Raw goal. */
  goal: Pt;
  /** Spans of each crop cell (columnar), for hover read-outs. */
  cellSpans: PictureCellSpans;
  /**
   * Height per crop cell, m: the highest region span the leg is about — flooded, or within the
   * endpoints' heights ± 0.5 m (NaN where there is none).
   */
  heights: Float32Array;
  /** Reach floods per crop cell: bit 1 forward from the start, bit 2 reverse from the goal. */
  flood: Uint8Array;
  /**
   * Refused steps on crop cell edges (RiseOk refusals and step bans): entry i is the edge between
   * crop cell `cell[i]` and its neighbour along `dir[i]` (0: +x, 1: +y); `kind[i]` bits:
   * 1 RiseOk refuses cell → neighbour, 2 neighbour → cell, 4 step ban cell → neighbour,
   * 8 step ban neighbour → cell.
   */
  blockedSteps: { cell: Int32Array; dir: Uint8Array; kind: Uint8Array };
  /** Kept wall segments inside the crop, px (ax, ay, bx, by); `blockers` = walls + facades. */
  walls: number[];
  /** Facade segments inside the crop, px (ax, ay, bx, by). */
  facades: number[];
  /** Off-mesh links meeting the crop, px, directed: ax, ay, bx, by per link. */
  links: number[];
  /**
   * The zone's off-mesh links meeting the crop that did not land in the window (an end in
   * another region or outside the window), px: ax, ay, bx, by, two-way (1/0) per link.
   */
  unlandedLinks: number[];
  /**
   * Distances raw start → start anchor and raw goal → goal anchor, px (the final judgement's
   * reach-domain distances, gate 8 px); null before the search.
   */
  snap: [number | null, number | null];
  /** Heights of the gap pair's spans (start side, goal side), m; null without a gap. */
  gapHeights: [number, number] | null;
  /** How the crop was chosen (the pixel budget rule). */
  crop: PictureCrop;
  /**
   * The whole final window (or, without a window, the area of interest) downsampled, when the
   * crop is a focus crop; null otherwise.
   */
  overview: PictureOverview | null;
}

/** Columnar per-cell span list of a picture's crop. */
export interface PictureCellSpans {
  /** Spans of crop cell k are `start[k] .. start[k+1]` (length nx·ny + 1). */
  start: Int32Array;
  /** Span height, m. */
  h: Float32Array;
  /** Region of the span: the searched region, or −1 for a span of another region. */
  region: Int32Array;
  /** Span flags (Dead 1, Walk 2, Core 4, Ghost 8). */
  flags: Uint8Array;
  /** Clearance of the span's cell, px (−1 for a span of another region). */
  clearance: Float32Array;
  /** Floods of the span: bit 1 reached from the start, bit 2 reaches the goal. */
  flood: Uint8Array;
}

/** The crop of a picture: all of it, or a window around what explains the failure. */
export interface PictureCrop {
  /** `full`: everything of interest at full resolution; `focus`: over the budget, cropped. */
  kind: "full" | "focus";
  /** What the crop is drawn around (human words, e.g. "the gap pair and the start"). */
  around: string;
  /** Pixel budget, cells. */
  budget: number;
  /** The final window, global cells `[x0, y0, nx, ny]`; null when no window was built. */
  window: [number, number, number, number] | null;
  /** Why the picture has no window (a pre-check failure: drawn from the pack's records). */
  note?: string;
  /**
   * The area of interest (all points with margin, inside the window stretched to the raw
   * endpoints outside it), global cells.
   */
  interest: [number, number, number, number];
}

/** A downsampled picture of the whole final window (focus crops only). */
export interface PictureOverview {
  /** Origin, global cells. */
  x0: number;
  /** Origin y, global cells. */
  y0: number;
  /** Columns (each `factor` cells wide). */
  nx: number;
  /** Rows. */
  ny: number;
  /** Cells per overview pixel along each side. */
  factor: number;
  /** Cell class per overview pixel (the most walkable class of the block). */
  cells: Uint8Array;
  /** Flood bits per overview pixel (OR over the block). */
  flood: Uint8Array;
}
