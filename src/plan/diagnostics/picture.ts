/**
 * The picture of one plan's window (spec 诊断: "调试工具把这些点列叠在地图上"): a crop of the final
 * window with each cell's class, height, clearance and spans, the reach floods from the start and
 * (reversed) from the goal, the refused steps on cell edges, walls, facades, off-mesh links, the
 * no-go rings and discs, and every stage's point list, drops, waypoints and the gap. Plain data,
 * so the SVG renderer (reports/leg_svg.ts) and the HTML report can draw it without the window.
 *
 * The crop rule (pixel budget): when the area of interest — endpoints, gap pair, route, with a
 * margin — fits in {@link kPictureBudget} cells it is drawn whole ("full"); otherwise the crop is
 * a window of at most the budget around what explains the failure (the gap pair; the goal of a
 * goal-outside-reach leg; the endpoints), at full cell resolution, and the whole window comes
 * downsampled as the overview ("focus"). The crop may reach beyond the window so that both raw
 * endpoints are in the picture (a raw start outside the window of the leg it snapped into): its
 * cells outside the window are the class {@link PictureCell.Outside} and hold no spans, heights,
 * floods, refused steps or clearance. The floods and refused steps are computed here, from the
 * window, only when a picture is asked for: they never change a route. A plan that built no
 * window gets the records picture (records_picture.ts): the pack's records around the endpoint
 * that failed.
 * docs/pictures.md describes every layer.
 * @module
 */

import { kClimb, kCS } from "../../grid/constants.ts";
import { type FallGate, riseOk } from "../../grid/rise_ok.ts";
import { occIndex } from "../../grid/span_grid.ts";
import type { NoGoTable } from "../../pack/nogo/table.ts";
import type { WindowGrid } from "../window/window_grid.ts";
import { DX, DY, stepBannedK } from "../route/search/span_astar.ts";
import { flood } from "./gap.ts";
import { scratch } from "../scratch.ts";
import type {
  LegPicture,
  NoGoDiscSpec,
  PictureCrop,
  PictureOverview,
  PlanResult,
  Pt,
} from "../types.ts";

export type { LegPicture } from "../types.ts";

/** Cell classes of a picture (Outside: a crop cell outside the final window, nothing known). */
export const PictureCell = { Empty: 0, Core: 1, Walk: 2, NonCore: 3, Outside: 4 } as const;

/** Pixel budget of a picture's crop, cells (above it: a focus crop plus an overview). */
export const kPictureBudget = 400_000;
/** Margin around the points of interest, cells. */
const kMargin = 48;
/** Context around a raw endpoint outside the window, cells (the crop may reach that far out). */
const kOutsidePad = 16;
/** Extra context grown around a focus crop while the budget allows, cells per side. */
const kFocusGrow = 160;
/** Longest side of the overview, pixels. */
export const kOverviewSide = 320;

/** Flood bits. */
export const Flood = { Forward: 1, Reverse: 2 } as const;

/** Blocked-step kind bits (LegPicture.blockedSteps.kind). */
export const StepBlock = { RiseFwd: 1, RiseRev: 2, BanFwd: 4, BanRev: 8 } as const;

/** The opposite neighbour of each DX/DY neighbour k. */
const OPPOSITE = [2, 3, 0, 1, 6, 7, 4, 5];

/** Where the picture's floods start (PlanContext.anchors). */
export interface PictureAnchors {
  /** Start span (−1: none). */
  startSpan: number;
  /** Goal spans. */
  goalSpans: number[];
  /** The search's FallGate. */
  gate: FallGate | null;
}

/** Inclusive box of global cells. */
export interface Box {
  /** Left column. */
  x0: number;
  /** Bottom row. */
  y0: number;
  /** Right column (inclusive). */
  x1: number;
  /** Top row (inclusive). */
  y1: number;
}

const cellOf = (v: number) => Math.floor(v / kCS);
const area = (b: Box) => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);

function boxOf(pts: readonly Pt[]): Box | null {
  if (pts.length === 0) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) {
    const cx = cellOf(x), cy = cellOf(y);
    x0 = Math.min(x0, cx), y0 = Math.min(y0, cy), x1 = Math.max(x1, cx), y1 = Math.max(y1, cy);
  }
  return { x0, y0, x1, y1 };
}

function grow(b: Box, m: number): Box {
  return { x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m };
}

function clip(b: Box, w: Box): Box {
  const x0 = Math.max(w.x0, Math.min(b.x0, w.x1)), y0 = Math.max(w.y0, Math.min(b.y0, w.y1));
  return { x0, y0, x1: Math.max(x0, Math.min(b.x1, w.x1)), y1: Math.max(y0, Math.min(b.y1, w.y1)) };
}

/** Smallest box holding both. */
function hull(a: Box, b: Box): Box {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

const same = (a: Box, b: Box) => a.x0 === b.x0 && a.y0 === b.y0 && a.x1 === b.x1 && a.y1 === b.y1;

/**
 * Where a crop may lie: the window, stretched to the points that must be in the picture (the raw
 * endpoints, the gap pair) when they lie outside it, with kOutsidePad cells of context.
 */
export function cropBounds(win: Box, must: readonly Pt[]): Box {
  let b = win;
  for (const p of must) {
    const cx = cellOf(p[0]), cy = cellOf(p[1]);
    if (cx >= win.x0 && cx <= win.x1 && cy >= win.y0 && cy <= win.y1) continue;
    b = hull(b, grow({ x0: cx, y0: cy, x1: cx, y1: cy }, kOutsidePad));
  }
  return b;
}

/** Box of side ≤ √budget centred on `p`, inside `win`. */
function squareAt(p: Pt, budget: number, win: Box): Box {
  const half = Math.max(1, Math.floor(Math.sqrt(budget) / 2) - 1);
  return clip({
    x0: cellOf(p[0]) - half,
    y0: cellOf(p[1]) - half,
    x1: cellOf(p[0]) + half,
    y1: cellOf(p[1]) + half,
  }, win);
}

/**
 * The crop rule: the whole area of interest when it fits the budget, else a focus crop around
 * what explains the failure, grown by the other points of interest and some context while the
 * budget allows.
 */
export function chooseCrop(
  win: Box,
  res: PlanResult,
  req: { start: Pt; goal: Pt },
  budget: number,
): { crop: Box; interest: Box; kind: "full" | "focus"; around: string } {
  const d = res.debug;
  const route = res.points.length ? res.points : d.topologyPoints;
  const gap = d.gap ? [d.gap.start, d.gap.goal] as Pt[] : [];
  const all: Pt[] = [req.start, req.goal, ...gap, ...route, ...d.topologyPoints];
  // What explains the failure, in the order of the spec's diagnostics (断开处 first).
  let focus: Pt[], around: string;
  const routeEnd = d.topologyPoints.at(-1);
  // The goal of a goal-outside-reach leg: what keeps it out of reach is around it (the ledge,
  // the risers, the no-go); where the route ends comes next when it fits.
  if (gap.length) (focus = gap), (around = "the gap pair");
  else if (res.error === "goal_outside_reach") (focus = [req.goal]), (around = "the goal");
  else if (res.ok) (focus = [req.start]), (around = "the start");
  else (focus = [req.start, req.goal]), (around = "the endpoints");
  const extra: [Pt, string][] = [[req.start, "the start"], [req.goal, "the goal"]];
  for (const p of gap) extra.push([p, "the gap pair"]);
  if (routeEnd) extra.push([routeEnd, "where the route ends"]);
  const bounds = cropBounds(win, [req.start, req.goal, ...gap]);
  return cropAround(win, all, focus, around, extra, budget, bounds);
}

/**
 * The crop rule over given points: `all` of interest, `focus` first, then `extra` points; the crop
 * lies inside `bounds` (cropBounds: the window, stretched to the raw endpoints outside it).
 */
export function cropAround(
  win: Box,
  all: readonly Pt[],
  focus: readonly Pt[],
  around: string,
  extra: readonly [Pt, string][],
  budget: number,
  bounds: Box = win,
): { crop: Box; interest: Box; kind: "full" | "focus"; around: string } {
  const interest = clip(grow(boxOf(all)!, kMargin), bounds);
  if (area(interest) <= budget) {
    return { crop: interest, interest, kind: "full", around: "everything of interest" };
  }
  // Never less than the window alone gives: its whole area of interest when that fits, plus as
  // much of the endpoints outside the window as the budget allows.
  const inWin = clip(grow(boxOf(all)!, kMargin), win);
  if (area(inWin) <= budget) {
    const crop = takeIn(inWin, extra, win, bounds, budget).box;
    return { crop, interest, kind: "full", around: "everything of interest" };
  }
  let box = clip(grow(boxOf(focus)!, kMargin), bounds);
  if (area(box) > budget) box = clip(grow(boxOf(focus)!, kMargin), win);
  if (area(box) > budget) {
    (box = squareAt(focus[0], budget, bounds)), (around = `${around} (its first point)`);
  }
  const t = takeIn(box, extra, win, bounds, budget);
  box = t.box;
  const added = [...t.added].filter((what) => !around.includes(what));
  if (added.length) around += ` with ${added.join(" and ")}`;
  // Context: grow evenly while the budget allows.
  for (let m = 8; m <= kFocusGrow; m += 8) {
    const b = clip(grow(box, 8), bounds);
    if (area(b) > budget) break;
    box = b;
  }
  return { crop: box, interest, kind: "focus", around };
}

/** Whether window cell (x, y), window-relative, lies in the window. */
function inWindow(w: WindowGrid, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < w.nx && y < w.ny;
}

/**
 * Grows `box` by each of `extra`'s points (with its margin) while the crop stays within the
 * budget: the margin out to `bounds`, else, as without bounds, clipped to the window.
 */
function takeIn(
  box: Box,
  extra: readonly [Pt, string][],
  win: Box,
  bounds: Box,
  budget: number,
): { box: Box; added: Set<string> } {
  const added = new Set<string>();
  for (const [p, what] of extra) {
    const m = grow(boxOf([p])!, kMargin);
    let u = hull(box, clip(m, bounds));
    if (area(u) > budget) u = hull(box, clip(m, win));
    if (area(u) > budget) continue;
    if (!same(u, box)) added.add(what);
    box = u;
  }
  return { box, added };
}

/** Cell class of window cell c. */
function classOf(w: WindowGrid, c: number): number {
  return w.core[c] && w.lay[c]
    ? PictureCell.Walk
    : w.core[c]
    ? PictureCell.Core
    : w.lay[c]
    ? PictureCell.NonCore
    : PictureCell.Empty;
}

/** Overview ranking of the classes: the most walkable class of a block wins. */
export const CLASS_RANK = [0, 2, 3, 1, 0];

/** One off-mesh link of the zone (FLNK), end cells in global cells. */
export interface PictureZoneLink {
  /** Source end cell x, global cells. */
  ax: number;
  /** Source end cell y. */
  ay: number;
  /** Target end cell x. */
  bx: number;
  /** Target end cell y. */
  by: number;
  /** Walkable both ways. */
  twoWay: boolean;
}

/** What legPicture reads of the request. */
export interface PictureRequest {
  /** Zone. */
  zone: string;
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** Runtime discs. */
  noGoDiscs?: NoGoDiscSpec[];
  /** Declared start deck, m. */
  startDeckY?: number | null;
  /** Declared goal deck, m. */
  goalDeckY?: number | null;
  /** Snap floor of the start, m. */
  startFloorY?: number | null;
  /** Snap floor of the goal, m. */
  goalFloorY?: number | null;
}

/** Builds the picture of a plan from its final window. */
export function legPicture(
  w: WindowGrid,
  res: PlanResult,
  req: PictureRequest,
  noGo: NoGoTable,
  anchors: PictureAnchors | null = null,
  budget: number = kPictureBudget,
  zoneLinks: readonly PictureZoneLink[] = [],
): LegPicture {
  const d = res.debug;
  const win: Box = { x0: w.x0, y0: w.y0, x1: w.x0 + w.nx - 1, y1: w.y0 + w.ny - 1 };
  const choice = chooseCrop(win, res, req, budget);
  const { x0, y0 } = choice.crop;
  const nx = choice.crop.x1 - x0 + 1, ny = choice.crop.y1 - y0 + 1;
  const ox = x0 - w.x0, oy = y0 - w.y0;
  const sp = w.spans;
  const cells = new Uint8Array(nx * ny), clearance = new Uint8Array(nx * ny);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const k = y * nx + x;
      // A crop cell outside the window: nothing is known there (and c would be another row's).
      if (!inWindow(w, ox + x, oy + y)) {
        cells[k] = PictureCell.Outside;
        continue;
      }
      const c = (oy + y) * w.nx + (ox + x);
      cells[k] = classOf(w, c);
      clearance[k] = Math.min(255, Math.round(w.dist[c] * 16));
    }
  }
  const reach = cropLayers(w, anchors, req, choice.crop, d.gap, choice.kind === "focus");
  const bx0 = x0 * kCS, by0 = y0 * kCS, bx1 = (x0 + nx) * kCS, by1 = (y0 + ny) * kCS;
  const meets = (ax: number, ay: number, bx: number, by: number) =>
    !(Math.max(ax, bx) < bx0 || Math.min(ax, bx) > bx1 || Math.max(ay, by) < by0 ||
      Math.min(ay, by) > by1);
  const blockers: number[] = [], walls: number[] = [], facades: number[] = [];
  for (let i = 0; i < w.blockers.length; i += 4) {
    const s = w.blockers;
    if (!meets(s[i], s[i + 1], s[i + 2], s[i + 3])) continue;
    blockers.push(s[i], s[i + 1], s[i + 2], s[i + 3]);
    (i / 4 < w.keptWalls ? walls : facades).push(s[i], s[i + 1], s[i + 2], s[i + 3]);
  }
  const links: number[] = [], landed = new Set<string>();
  const centre = (
    c: number,
  ): Pt => [(w.x0 + (c % w.nx) + 0.5) * kCS, (w.y0 + ((c / w.nx) | 0) + 0.5) * kCS];
  for (let i = 0; i < w.links.n; i++) {
    const a = centre(sp.cell[w.links.fromSpan[i]]), b = centre(sp.cell[w.links.toSpan[i]]);
    if (meets(a[0], a[1], b[0], b[1])) links.push(a[0], a[1], b[0], b[1]);
    landed.add(`${sp.cell[w.links.fromSpan[i]]},${sp.cell[w.links.toSpan[i]]}`);
  }
  // The zone's links that did not land (a link lands on its end cells: build_window landing).
  const unlandedLinks: number[] = [];
  // An end outside the window did not land (and its row-major index would be another cell's).
  const wcell = (gx: number, gy: number) =>
    inWindow(w, gx - w.x0, gy - w.y0) ? (gy - w.y0) * w.nx + (gx - w.x0) : -1;
  for (const l of zoneLinks) {
    const a: Pt = [(l.ax + 0.5) * kCS, (l.ay + 0.5) * kCS];
    const b: Pt = [(l.bx + 0.5) * kCS, (l.by + 0.5) * kCS];
    if (!meets(a[0], a[1], b[0], b[1])) continue;
    if (landed.has(`${wcell(l.ax, l.ay)},${wcell(l.bx, l.by)}`)) continue;
    unlandedLinks.push(a[0], a[1], b[0], b[1], l.twoWay ? 1 : 0);
  }
  const rings = ringsOf(noGo, req.zone);
  const crop: PictureCrop = {
    kind: choice.kind,
    around: choice.around,
    budget,
    window: [w.x0, w.y0, w.nx, w.ny],
    interest: [
      choice.interest.x0,
      choice.interest.y0,
      choice.interest.x1 - choice.interest.x0 + 1,
      choice.interest.y1 - choice.interest.y0 + 1,
    ],
  };
  return {
    x0,
    y0,
    nx,
    ny,
    cells,
    clearance,
    blockers,
    rings,
    ...stageLayers(res, req),
    cellSpans: reach.cellSpans,
    heights: reach.heights,
    flood: reach.flood,
    blockedSteps: reach.blockedSteps,
    walls,
    facades,
    links,
    unlandedLinks,
    snap: [d.snapStart, d.snapGoal],
    gapHeights: reach.gapHeights,
    crop,
    overview: reach.overview,
  };
}

/** Height band of the storeys a leg is about, m (spans outside it are other storeys). */
export const kBandPad = 0.5;

/**
 * The layers read from the whole window: the reach floods (the gap location's,
 * src/plan/diagnostics/gap.ts) from the start span and, reversed, from the goal spans over the
 * core mask; the spans the leg is about (flooded, or within the band of the endpoints' heights ±
 * kBandPad: a multi-storey building shows the leg's storeys, not its roof); and from those, per
 * crop cell the height and flood bits, the crop's span list, the refused steps, the heights of the
 * gap pair's spans, and (focus crops) the overview.
 */
function cropLayers(
  w: WindowGrid,
  anchors: PictureAnchors | null,
  req: PictureRequest,
  crop: Box,
  gap: { start: Pt; goal: Pt } | null,
  withOverview: boolean,
): {
  flood: Uint8Array;
  heights: Float32Array;
  cellSpans: LegPicture["cellSpans"];
  blockedSteps: LegPicture["blockedSteps"];
  gapHeights: [number, number] | null;
  overview: PictureOverview | null;
} {
  return scratch.frame(() => {
    const sp = w.spans, nsp = sp.h.length;
    let ra: Uint8Array | null = null, rb: Uint8Array | null = null;
    if (anchors && anchors.startSpan >= 0 && anchors.goalSpans.length) {
      const usable = scratch.u8(nsp);
      for (let s = 0; s < nsp; s++) usable[s] = w.vis3[s] & w.reach[s];
      // The picture's floods are not plan work: their pops go to a throwaway counter.
      ra = flood(w, w.core, usable, [anchors.startSpan], false, anchors.gate, [0]);
      rb = flood(w, w.core, usable, anchors.goalSpans, true, anchors.gate, [0]);
    }
    const bits = (s: number) =>
      (ra && ra[s] ? Flood.Forward : 0) | (rb && rb[s] ? Flood.Reverse : 0);
    // The band: the anchor spans' heights, else the declared decks; no band: every span.
    const hs: number[] = [];
    if (anchors && anchors.startSpan >= 0) hs.push(sp.h[anchors.startSpan]);
    for (const s of anchors?.goalSpans ?? []) hs.push(sp.h[s]);
    if (!hs.length) {
      for (const v of [req.startDeckY, req.goalDeckY]) if (typeof v === "number") hs.push(v);
    }
    const lo = hs.length ? Math.min(...hs) - kBandPad : -Infinity;
    const hi = hs.length ? Math.max(...hs) + kBandPad : Infinity;
    const about = (s: number) =>
      w.vis3[s] === 1 && (bits(s) !== 0 || (sp.h[s] >= lo && sp.h[s] <= hi));
    const nx = crop.x1 - crop.x0 + 1, ny = crop.y1 - crop.y0 + 1;
    const ox = crop.x0 - w.x0, oy = crop.y0 - w.y0;
    const cellFlood = new Uint8Array(nx * ny);
    const heights = new Float32Array(nx * ny).fill(NaN);
    const start = new Int32Array(nx * ny + 1);
    let n = 0;
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        start[y * nx + x] = n;
        if (!inWindow(w, ox + x, oy + y)) continue;
        const j = occIndex(sp, (oy + y) * w.nx + ox + x);
        if (j >= 0) n += sp.cs[j + 1] - sp.cs[j];
      }
    }
    start[nx * ny] = n;
    const h = new Float32Array(n), region = new Int32Array(n), flags = new Uint8Array(n);
    const clearance = new Float32Array(n), spanFlood = new Uint8Array(n);
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        if (!inWindow(w, ox + x, oy + y)) continue;
        const c = (oy + y) * w.nx + ox + x, k = y * nx + x;
        const j = occIndex(sp, c);
        if (j < 0) continue;
        for (let s = sp.cs[j], i = start[k]; s < sp.cs[j + 1]; s++, i++) {
          h[i] = sp.h[s];
          region[i] = w.vis3[s] ? w.region : -1;
          flags[i] = w.sflags[s];
          clearance[i] = w.vis3[s] ? w.dist[c] : -1;
          spanFlood[i] = bits(s);
          cellFlood[k] |= spanFlood[i];
          // Heights ascend in a cell: the last span the leg is about is the highest.
          if (about(s)) heights[k] = sp.h[s];
        }
      }
    }
    let gapHeights: [number, number] | null = null;
    if (gap && ra && rb) {
      const a = spansAt(w, gap.start).filter((s) => ra![s]);
      const b = spansAt(w, gap.goal).filter((s) => rb![s]);
      let best = Infinity;
      for (const s of a) {
        for (const t of b) {
          const dh = Math.abs(sp.h[t] - sp.h[s]);
          if (dh < best) (best = dh), (gapHeights = [sp.h[s], sp.h[t]]);
        }
      }
    }
    return {
      flood: cellFlood,
      heights,
      cellSpans: { start, h, region, flags, clearance, flood: spanFlood },
      blockedSteps: blockedSteps(w, crop, anchors?.gate ?? null, about),
      gapHeights,
      overview: withOverview ? overviewOf(w, ra, rb) : null,
    };
  });
}

/** Span indices of the window cell holding point p (empty outside the window). */
function spansAt(w: WindowGrid, p: Pt): number[] {
  const x = cellOf(p[0]) - w.x0, y = cellOf(p[1]) - w.y0;
  if (x < 0 || y < 0 || x >= w.nx || y >= w.ny) return [];
  const j = occIndex(w.spans, y * w.nx + x);
  const out: number[] = [];
  if (j >= 0) { for (let s = w.spans.cs[j]; s < w.spans.cs[j + 1]; s++) out.push(s); }
  return out;
}

/** The whole window downsampled to at most kOverviewSide pixels a side. */
function overviewOf(
  w: WindowGrid,
  ra: Uint8Array | null,
  rb: Uint8Array | null,
): PictureOverview {
  const factor = Math.max(1, Math.ceil(Math.max(w.nx, w.ny) / kOverviewSide));
  const nx = Math.ceil(w.nx / factor), ny = Math.ceil(w.ny / factor);
  const cells = new Uint8Array(nx * ny), fl = new Uint8Array(nx * ny);
  for (let y = 0; y < w.ny; y++) {
    const row = ((y / factor) | 0) * nx;
    for (let x = 0; x < w.nx; x++) {
      const c = y * w.nx + x, k = row + ((x / factor) | 0), cls = classOf(w, c);
      if (CLASS_RANK[cls] > CLASS_RANK[cells[k]]) cells[k] = cls;
    }
  }
  if (ra || rb) {
    const sp = w.spans;
    for (let s = 0; s < sp.h.length; s++) {
      const b = (ra && ra[s] ? Flood.Forward : 0) | (rb && rb[s] ? Flood.Reverse : 0);
      if (!b) continue;
      const c = sp.cell[s], x = c % w.nx, y = (c / w.nx) | 0;
      fl[((y / factor) | 0) * nx + ((x / factor) | 0)] |= b;
    }
  }
  return { x0: w.x0, y0: w.y0, nx, ny, factor, cells, flood: fl };
}

/**
 * Refused steps on the crop's cell edges (spec 垂直可达判据 and 台阶禁行): for each pair of
 * orthogonal neighbours in the core mask, each span of the cell the leg is about against the
 * neighbour's region span of nearest height within kClimb (the same surface, not another storey), the step is
 * judged both ways by RiseOk with the search's FallGate and by the step-ban bits. A too-steep
 * ramp shows as a fence across it; a ledge as a one-way line.
 */
function blockedSteps(
  w: WindowGrid,
  crop: Box,
  gate: FallGate | null,
  about: (s: number) => boolean,
): LegPicture["blockedSteps"] {
  const sp = w.spans, nx = crop.x1 - crop.x0 + 1, ny = crop.y1 - crop.y0 + 1;
  const ox = crop.x0 - w.x0, oy = crop.y0 - w.y0;
  const cell: number[] = [], dir: number[] = [], kind: number[] = [];
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const wx = ox + x, wy = oy + y, c = wy * w.nx + wx;
      if (!inWindow(w, wx, wy) || !w.core[c]) continue;
      const j = occIndex(sp, c);
      if (j < 0) continue;
      for (let k = 0; k < 2; k++) {
        const bx = wx + DX[k], by = wy + DY[k];
        if (!inWindow(w, bx, by)) continue;
        const cb = by * w.nx + bx;
        if (!w.core[cb]) continue;
        const jb = occIndex(sp, cb);
        if (jb < 0) continue;
        let bitsK = 0;
        for (let u = sp.cs[j]; u < sp.cs[j + 1]; u++) {
          if (!about(u)) continue;
          let v = -1, best = Infinity;
          for (let t = sp.cs[jb]; t < sp.cs[jb + 1]; t++) {
            const dh = Math.abs(sp.h[t] - sp.h[u]);
            if (w.vis3[t] && dh < best) (best = dh), (v = t);
          }
          if (v < 0 || best > kClimb) continue;
          if (!riseOk(sp, wx, wy, sp.h[u], DX[k], DY[k], sp.h[v], gate)) bitsK |= StepBlock.RiseFwd;
          if (!riseOk(sp, bx, by, sp.h[v], -DX[k], -DY[k], sp.h[u], gate)) {
            bitsK |= StepBlock.RiseRev;
          }
          if (stepBannedK(w.steps, c, cb, k)) bitsK |= StepBlock.BanFwd;
          if (stepBannedK(w.steps, cb, c, OPPOSITE[k])) bitsK |= StepBlock.BanRev;
        }
        if (bitsK) cell.push(y * nx + x), dir.push(k), kind.push(bitsK);
      }
    }
  }
  return { cell: Int32Array.from(cell), dir: Uint8Array.from(dir), kind: Uint8Array.from(kind) };
}

/**
 * The layers every picture takes from the plan itself, window or not: the runtime discs, every
 * stage's point list, the waypoints, the landings, the gap pair and the raw endpoints.
 */
export function stageLayers(
  res: PlanResult,
  req: PictureRequest,
): Pick<
  LegPicture,
  | "discs"
  | "topology"
  | "taut"
  | "pulled"
  | "assembled"
  | "points"
  | "waypoints"
  | "drops"
  | "gap"
  | "start"
  | "goal"
> {
  const d = res.debug;
  return {
    discs: req.noGoDiscs ?? [],
    topology: d.topologyPoints,
    taut: d.tautPoints,
    pulled: d.pulledPoints,
    assembled: d.assembledPoints,
    points: res.points,
    waypoints: res.waypoints,
    drops: res.drops.map((x) => x.index),
    gap: d.gap,
    start: req.start,
    goal: req.goal,
  };
}

/** The author no-go rings of a zone, px. */
export function ringsOf(noGo: NoGoTable, zone: string): Pt[][] {
  const rings: Pt[][] = [];
  const z = noGo.zones.get(zone);
  if (z) {
    for (let r = 0; r + 1 < z.ringPointStart.length; r++) {
      const ring: Pt[] = [];
      for (let k = z.ringPointStart[r]; k < z.ringPointStart[r + 1]; k++) {
        ring.push([z.points[2 * k], z.points[2 * k + 1]]);
      }
      rings.push(ring);
    }
  }
  return rings;
}
