/**
 * Post-processing (spec 后处理): the string-pull input (parent chain, span-level per-cell path, or
 * cell-level path, 拉直的输入) with its route mask tm and view, StringPull, assemble, LiftCorners,
 * the search heights, the per-point clearance and the waypoints. Each stage is timed.
 * @module
 */

import { kCS } from "../../../grid/constants.ts";
import { digitalLineInto, digitalLineLength } from "../../../grid/digital_line.ts";
import { spanRange } from "../../../grid/span_grid.ts";
import { scratch } from "../../scratch.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import type { Pt, RouteDrop } from "../../types.ts";
import { dropMargin, landingMargin } from "./drop_margin.ts";
import type { CellBox } from "../../../grid/cell_box.ts";
import { BlockerSegments } from "../visibility/blockers.ts";
import { Visibility } from "../visibility/visibility.ts";
import { assemble } from "./assemble.ts";
import { liftCorners } from "./lift_corners.ts";
import { stringPull } from "./string_pull.ts";
import { type DriveMesh, lineHeights, pullWaypoints } from "./waypoints.ts";
import type { WorkCounters } from "../../counters.ts";
import type { SwitchProbe } from "../../profile.ts";

/** What post-processing starts from. */
export interface PostInput {
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** The geometry pass's parent chain (spans, ≥ 2), or null. */
  chain: Int32Array | null;
  /** The final per-cell path: spans (span level) or null (cell level), and its cells. */
  path: { spans: Int32Array | null; cells: Int32Array };
  /** The mask of the final solve. */
  lastMask: Uint8Array;
  /** The geometry pass's open area (null when it did not run). */
  solidc: Uint8Array | null;
  /** Cells of the endpoint access paths. */
  accessCells: readonly number[];
  /** The zone mesh, for the waypoints' drivability test (null: no waypoints but the last). */
  mesh: DriveMesh | null;
  /** The zone's plane→world x scale (0 skips the drop margin). */
  scaleX: number;
  /** Where the pull and LiftCorners count their work (`pull.*`, `lift.*`), if anywhere. */
  counters?: WorkCounters | null;
  /** Cell-level pull input also checks the route mask (reference build; default false). */
  cellPullRouteMask?: boolean;
  /** #6147: move drop landings inward (落点留余量); false = the reference (drops found only). */
  landingMargin?: boolean;
  /** 9839304: PullWaypoints anchored at the line heights; false = the reference (no heights). */
  waypointStartHeight?: boolean;
  /** Switch probes of the plan (src/plan/profile.ts SwitchProbe), if probing. */
  probe?: SwitchProbe | null;
}

/** Post-processing output. */
export interface PostResult {
  /** After string pull, px. */
  pulled: Pt[];
  /** After assemble, px. */
  assembled: Pt[];
  /** Final points (after lift corners), px. */
  points: Pt[];
  /** Search heights per final point (empty when they cannot be matched). */
  heights: number[];
  /** Clearance per final point, px (cell clamped into the window). */
  clearance: number[];
  /** Waypoint indices (the last point always). */
  waypoints: number[];
  /** Ledge drops (landing index, upper and lower heights). */
  drops: RouteDrop[];
  /** Corners LiftCorners moved. */
  lifted: number;
  /** Stage times, ms. */
  pullMs: number;
  /** Assemble time, ms. */
  assembleMs: number;
  /** Lift time, ms. */
  liftMs: number;
  /** The steps after LiftCorners, by sub-stage of "other" (heights, drop margin, …), ms. */
  otherMs: { heights: number; drop_margin: number; clearance: number; waypoints: number };
  /** The whole post-processing, ms. */
  totalMs: number;
}

/**
 * The cells of the geometry pass's per-cell path (formulas.md #114): each chord of the parent
 * chain expanded along its digital line, a cell equal to the last output cell skipped; an
 * off-mesh link keeps just its two ends (no ground between them). Only the cells are needed here
 * (the route mask); the span per cell follows the interpolated height in the spec.
 */
export function expandChain(w: WindowGrid, chain: Int32Array): number[] {
  const sp = w.spans, nx = w.nx, out: number[] = [];
  // The last output cell (−1: none yet; cells are ≥ 0).
  let last = -1;
  const push = (c: number) => {
    if (last !== c) out.push(c), (last = c);
  };
  // Each chord's digital line by integers into one buffer (digitalLineInto: the same cells as
  // walkDigitalLine's rint formula, without a division and a visitor call per cell).
  let line = new Int32Array(64);
  for (let k = 1; k < chain.length; k++) {
    const a = chain[k - 1], b = chain[k];
    const ca = sp.cell[a], cb = sp.cell[b];
    if (isLinkStep(w, a, b)) {
      push(ca), push(cb);
      continue;
    }
    const ax = ca % nx, ay = (ca / nx) | 0, bx = cb % nx, by = (cb / nx) | 0;
    const len = digitalLineLength(ax, ay, bx, by);
    if (line.length < 2 * len) line = new Int32Array(4 * len);
    digitalLineInto(line, ax, ay, bx, by);
    for (let i = 0; i < len; i++) {
      const c = line[2 * i + 1] * nx + line[2 * i];
      if (last !== c) out.push(c), (last = c);
    }
  }
  if (chain.length === 1) push(sp.cell[chain[0]]);
  return out;
}

function isLinkStep(w: WindowGrid, a: number, b: number): boolean {
  for (let i = 0; i < w.links.n; i++) {
    if (w.links.fromSpan[i] === a && w.links.toSpan[i] === b) return true;
  }
  return false;
}

/**
 * The route mask tm (拉直的输入): solidc ∪ access, ∩ the final mask, ∪ the path's 3×3 ∩ mask.
 * With a box, tm holds only the box's cells, row-major over the box (the rest of the window is
 * off: no query reaches it, see pullBox; a Visibility given the box reads it so). Box-sized, it
 * is filled in proportion to the route, not the window (a window-sized array per plan was most
 * of the pull stage's set-up on nav_test, issue 57).
 */
export function routeMask(
  w: WindowGrid,
  inp: PostInput,
  cells: ArrayLike<number>,
  box: CellBox | null = null,
): Uint8Array {
  const nx = w.nx, m = inp.lastMask;
  const xa = box ? box.x0 : 0, xb = box ? box.x1 : nx;
  const ya = box ? box.y0 : 0, yb = box ? box.y1 : w.ny;
  const bw = xb - xa, tm = scratch.u8(bw * (yb - ya));
  const sc = inp.solidc;
  if (sc) {
    for (let y = ya, o = 0; y < yb; y++) {
      for (let c = y * nx + xa, e = y * nx + xb; c < e; c++, o++) tm[o] = sc[c] & m[c];
    }
  }
  // Window cell c's index in tm.
  const at = (x: number, y: number) => (y - ya) * bw + (x - xa);
  for (const c of inp.accessCells) {
    const x = c % nx, y = (c / nx) | 0;
    if (x >= xa && x < xb && y >= ya && y < yb) tm[at(x, y)] = m[c];
  }
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const x = c % nx, y = (c / nx) | 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const bx = x + dx, by = y + dy;
        if (bx < xa || by < ya || bx >= xb || by >= yb) continue;
        if (m[by * nx + bx]) tm[at(bx, by)] = 1;
      }
    }
  }
  return tm;
}

/**
 * Blocker segments of the pull views: core contours (in `box`), kept walls, facade segments. The
 * contours are made per bucket as chords reach them: on a 95-M-cell window the whole box's
 * edges took half a second, and chords stop at the first wall they meet.
 */
export function pullBlockers(w: WindowGrid, box: CellBox | null = null): BlockerSegments {
  return new BlockerSegments(w.blockers, {
    mask: w.core,
    nx: w.nx,
    ny: w.ny,
    x0: w.x0,
    y0: w.y0,
    box,
  });
}

/**
 * The cells every chord of the pull, LiftCorners and PullWaypoints stays in: the bounding box of
 * the pull input and the raw endpoints, widened by LiftCorners' 2 cells, a drop landing's move
 * (≤ 2R, formulas.md #135) and 2 cells of slack. A chord lies in the box of its two ends, so
 * core edges, route-mask cells and on-mask samples outside it are never consulted: building
 * them only inside it gives the same answers (the route mask and the blocker table were a
 * whole-window pass each, 80 % of the pull stage on 3-M-cell windows). Null: the whole window.
 */
function pullBox(w: WindowGrid, pts: readonly Pt[], inp: PostInput): CellBox | null {
  let xa = Infinity, ya = Infinity, xb = -Infinity, yb = -Infinity;
  for (const p of [...pts, inp.start, inp.goal]) {
    const x = Math.floor(p[0] / kCS) - w.x0, y = Math.floor(p[1] / kCS) - w.y0;
    xa = Math.min(xa, x), ya = Math.min(ya, y), xb = Math.max(xb, x), yb = Math.max(yb, y);
  }
  const R = inp.scaleX ? landingMargin(inp.scaleX) : 0;
  const m = 2 + Math.ceil((2 * R) / kCS) + 2;
  if (!isFinite(xa) || !isFinite(m)) return null;
  const box = {
    x0: Math.max(0, xa - m),
    y0: Math.max(0, ya - m),
    x1: Math.min(w.nx, xb + m + 1),
    y1: Math.min(w.ny, yb + m + 1),
  };
  return box.x0 === 0 && box.y0 === 0 && box.x1 === w.nx && box.y1 === w.ny ? null : box;
}

/** Runs the post-processing steps. */
export function postProcess(w: WindowGrid, inp: PostInput): PostResult {
  const t0 = performance.now();
  const sp = w.spans;
  const centre = (c: number): Pt => [
    (w.x0 + (c % w.nx) + 0.5) * kCS,
    (w.y0 + ((c / w.nx) | 0) + 0.5) * kCS,
  ];
  // 拉直的输入: three kinds.
  const kind = inp.chain ? "chain" : inp.path.spans ? "cells" : "cell-level";
  // Only a cell-level pull input reads the switch (here and in routeWindow's corridor).
  if (kind === "cell-level" && inp.cellPullRouteMask !== true) {
    inp.probe?.touch("cellPullBlockersOnly");
  }
  const spans = inp.chain ?? inp.path.spans;
  const pts: Pt[] = spans
    ? [...spans].map((s) => centre(sp.cell[s]))
    : [...inp.path.cells].map(centre);
  const hs: number[] | null = spans ? [...spans].map((s) => sp.h[s]) : null;
  const box = pullBox(w, pts, inp);
  const blockers = pullBlockers(w, box);
  // 拉直的输入, third kind: the spec checks only the blocker segments; the reference build also
  // keeps the chord on the route mask tm (profile switch cellPullBlockersOnly off).
  const tm = kind === "chain"
    ? routeMask(w, inp, expandChain(w, inp.chain!), box)
    : kind === "cell-level" && inp.cellPullRouteMask === true
    ? routeMask(w, inp, inp.path.cells, box)
    : null;
  const view = kind === "chain"
    ? new Visibility(w, blockers, tm, undefined, box)
    : new Visibility(w, blockers, kind === "cells" ? null : tm, {
      steps: false,
      layer: kind === "cells",
    }, box);
  let chords = 0;
  const idx = stringPull(
    pts.length,
    (
      i,
      j,
    ) => (chords++,
      view.ok(pts[i][0], pts[i][1], pts[j][0], pts[j][1], hs ? hs[i] : 0, hs ? hs[j] : 0)),
  );
  const cnt = inp.counters ?? null;
  if (cnt) cnt["pull.chords"] += chords;
  const pulled = idx.map((k) => pts[k]);
  const pulledH = hs ? idx.map((k) => hs[k]) : null;
  const t1 = performance.now();
  const asm = assemble(inp.start, inp.goal, pulled, kind === "chain", pulledH);
  const t2 = performance.now();
  const points = asm.points.map((p) => [p[0], p[1]] as Pt);
  let lifted = 0;
  let heights: number[] = [];
  if (pulledH && points.length >= 3) {
    const hard = new Visibility(w, blockers, null);
    const r = liftCorners(w, points, pulledH[0], hard);
    lifted = r.moved;
    if (cnt) (cnt["lift.corners"] += r.corners), (cnt["lift.candidates"] += r.candidates);
  }
  const t3 = performance.now();
  // Search heights: each middle point matched (forwards) to the pull input's point with the same
  // coordinates; the ends take the pull input's first and last heights.
  if (pulledH) heights = searchHeights(w, asm, points, pulledH);
  const t4 = performance.now();
  // 落点留余量: heights to find drops with — search heights, else line heights, else the
  // drop-mode walk (here: the line heights in drop mode).
  const lineView = new Visibility(w, null, null, { steps: false, layer: true });
  let drops: RouteDrop[] = [];
  let dh: number[] = [];
  if (pulledH) {
    dh = heights.length === points.length
      ? heights.slice()
      : lineHeights(lineView, points, pulledH[0]) ?? [];
    drops = dropMargin(
      w,
      points,
      dh,
      inp.scaleX,
      lineView,
      inp.landingMargin !== false,
      inp.probe,
    );
    if (drops.length && heights.length === points.length) heights = dh;
  }
  const t5 = performance.now();
  const clearance = points.map((p) => pointClearance(w, p));
  const t6 = performance.now();
  // Waypoints (路点): none without a height check (cell-level input); the drivability test and
  // the pull's blocker segments and route mask otherwise.
  let waypoints: number[] = points.length > 1 ? [points.length - 1] : [];
  if (pulledH && inp.mesh) {
    // The drivability test starts from the line heights; across a drop the walk breaks (it
    // follows one layer), and the drop-checked heights (the landing written back) stand in.
    const own = drops.length && dh.length === points.length
      ? dh
      : lineHeights(lineView, points, pulledH[0]);
    // Without line heights (a segment changed layer) 9839304 anchors at the search heights when
    // they are complete, else gives no waypoints; the reference has only the line heights and
    // walks unanchored (formulas.md #138: a seed "when the route has line heights"; nav_test
    // released rnd_035: its line heights fail at segment 4 → 5, and anchored at the search
    // height 4.625 the left side line of chord 0 → 2 finds only floors below 0.1 m and fails).
    const anchored = inp.waypointStartHeight !== false;
    const line = own ?? (anchored && dh.length === points.length ? dh : null);
    const wpView = new Visibility(w, blockers, tm, { steps: false, layer: false }, box);
    // Both builds anchor each walk at the line height of its waypoint (spec 路点 step 2: 起点高度
    // 取沿线推算的高度里当前路点那一个; the reference computes the column in-process too, it only
    // lacks it in the output — nav_test random2 rnd_070).
    const dropIdx = drops.map((d) => d.index);
    waypoints = pullWaypoints(inp.mesh, points, clearance, line, wpView, dropIdx, anchored);
    if (inp.probe && anchored && own === null) {
      // The reference's waypoints (no line heights), computed after ours: touched when they differ.
      const ref = pullWaypoints(inp.mesh, points, clearance, null, wpView, dropIdx, false);
      if (ref.join() !== waypoints.join()) inp.probe.touch("waypointStartHeight");
    }
    if (inp.probe && inp.mesh.probeRef && !inp.probe.has("waypointSampleGeometry")) {
      // The reference's sampling rule (formulas.md #138 "Ref differs"): touched when it differs.
      const m = { ...inp.mesh, ref: inp.mesh.probeRef };
      const ref = pullWaypoints(m, points, clearance, line, wpView, dropIdx, anchored);
      if (ref.join() !== waypoints.join()) inp.probe.touch("waypointSampleGeometry");
    }
  } else if (!pulledH) waypoints = [];
  const t7 = performance.now();
  return {
    pulled,
    assembled: asm.points,
    points,
    heights,
    clearance,
    waypoints,
    drops,
    lifted,
    pullMs: t1 - t0,
    assembleMs: t2 - t1,
    liftMs: t3 - t2,
    otherMs: { heights: t4 - t3, drop_margin: t5 - t4, clearance: t6 - t5, waypoints: t7 - t6 },
    totalMs: t7 - t0,
  };
}

function searchHeights(
  w: WindowGrid,
  asm: { points: Pt[]; from: number[] },
  final: Pt[],
  pulledH: number[],
): number[] {
  const out: number[] = [];
  for (let k = 0; k < final.length; k++) {
    const f = asm.from[k];
    let h = f >= 0 ? pulledH[f] : k === 0 ? pulledH[0] : pulledH[pulledH.length - 1];
    const a = asm.points[k], b = final[k];
    if (a[0] !== b[0] || a[1] !== b[1]) {
      // A lifted corner: the surface of the new cell within kQH of the old height, nearest.
      // The cell's own spans (the table is sorted by cell, then height): the same spans in the
      // same order as a scan of the whole table, without visiting the window's millions.
      const [s0, s1] = spanRange(w.spans, cellOf(w, b));
      let best = NaN, bd = Infinity;
      for (let s = s0; s < s1; s++) {
        if (!w.vis3[s]) continue;
        const d = Math.abs(w.spans.h[s] - h);
        if (d <= 1.0 && d < bd) (bd = d), (best = w.spans.h[s]);
      }
      if (Number.isNaN(best)) return [];
      h = best;
    }
    out.push(h);
  }
  return out;
}

function cellOf(w: WindowGrid, p: Pt): number {
  const x = Math.min(w.nx - 1, Math.max(0, Math.floor((p[0] - w.x0 * kCS) / kCS)));
  const y = Math.min(w.ny - 1, Math.max(0, Math.floor((p[1] - w.y0 * kCS) / kCS)));
  return y * w.nx + x;
}

/** Per-point clearance (formulas.md #133): the cell clamped into the window, ≤ 12, 0 in no-go. */
export function pointClearance(w: WindowGrid, p: Pt): number {
  return w.dist[cellOf(w, p)];
}
