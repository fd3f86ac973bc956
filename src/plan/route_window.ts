/**
 * routeWindow (spec 两段搜索): the search inside one window. This is Planner I's version: the
 * walk mask, the anchor cells, the start span and goal set (掩膜与吸附锚点), and the baseline's
 * solver chain (求解器 steps 2–4: SpanAstar on walk, core in non-tentative windows, the cost check
 * against limit2, the early-abandon threshold). The topology and geometry passes (Planner II)
 * come behind the same interface; until then the baseline's per-cell path is the route.
 *
 * Escalation reasons use the spec's names (放大窗口的原因 / maaend-runlogs.md §2).
 * @module
 */

import { kCS } from "../grid/constants.ts";
import { cFixed } from "./format.ts";
import { spanRangeOf, type WindowGrid } from "./build_window.ts";
import { SpanSearch } from "./search/span_astar.ts";
import { PlanFailure, type Pt } from "./types.ts";
import { endpointCell, trustLimit, trustLimit2, type WindowKind } from "./window_tiers.ts";

/** Deck height band of anchors and goal sets, m. */
const kDeckBand = 2;

/** Escalation reasons (spec names). */
export const Reason = {
  SnapEdge: "吸附距离碰边",
  WalkBroken: "walk 断开",
  SearchEdge: "搜索碰边",
  DeckBlocked: "目标附近没有未封堵的声明面",
} as const;

/** Warnings (spec names). */
export const Warning = {
  WalkToCore: "walk 断开→退回 core",
} as const;

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
}

/** What routeWindow returns. */
export type RouteOutcome =
  | { status: "escalate"; reason: string }
  | {
    status: "ok";
    /** Span path. */
    spans: Int32Array;
    /** Path cost (cells). */
    cost: number;
    /** Distance raw start → start anchor, px. */
    snapStart: number;
    /** Distance raw goal → goal anchor, px. */
    snapGoal: number;
    /** The goal cell is in the walk mask but not reachable from the start (终点被隔开). */
    goalSealed: boolean;
    /** Warnings of the search. */
    warnings: string[];
    /** Per-cell path, px (cell centres). */
    points: Pt[];
  };

interface Anchor {
  cell: number;
  dist: number;
}

/** Runs the search in a built window. Throws PlanFailure for a failure in the window. */
export function routeWindow(w: WindowGrid, inp: RouteInput): RouteOutcome {
  const tentative = inp.kind === "tentative"; // bounded and strict (放大窗口的原因)
  const nx = w.nx, ny = w.ny, ncell = nx * ny, sp = w.spans;
  const walk = new Uint8Array(ncell);
  let any = false;
  for (let c = 0; c < ncell; c++) {
    if (w.core[c] && w.lay[c]) walk[c] = 1, any = true;
  }
  if (!any) throw new PlanFailure("walk_mask_empty", "walk 掩膜为空");
  const nsp = sp.h.length;
  const usable = new Uint8Array(nsp);
  for (let s = 0; s < nsp; s++) usable[s] = w.vis3[s] & w.reach[s];
  // cw3: walk cells holding at least one reachable span.
  const cw3 = new Uint8Array(ncell);
  for (let s = 0; s < nsp; s++) if (usable[s] && walk[sp.cell[s]]) cw3[sp.cell[s]] = 1;
  const sCell: [number, number] = [
    endpointCell(inp.start[0], w.x0),
    endpointCell(inp.start[1], w.y0),
  ];
  const gCell: [number, number] = [
    endpointCell(inp.goal[0], w.x0),
    endpointCell(inp.goal[1], w.y0),
  ];
  const limit = trustLimit(nx, ny, sCell, gCell);
  const limit2 = trustLimit2(nx, ny, sCell, gCell);
  const sa = inp.startDeckY !== null
    ? deckAnchor(w, usable, walk, sCell, inp.startDeckY)
    : nearestCell(cw3, nx, ny, sCell);
  const ga = inp.goalDeckY !== null
    ? deckAnchor(w, usable, walk, gCell, inp.goalDeckY)
    : nearestCell(cw3, nx, ny, gCell);
  if (!ga && inp.goalDeckY !== null) {
    if (tentative) return { status: "escalate", reason: Reason.DeckBlocked };
    throw new PlanFailure("target_deck_unreachable", Reason.DeckBlocked);
  }
  if (!sa || !ga) throw new PlanFailure("walk_mask_empty", "窗口里没有可吸附的格");
  if (tentative && (sa.dist / kCS >= limit || ga.dist / kCS >= limit)) {
    return { status: "escalate", reason: Reason.SnapEdge };
  }
  const startSpan = pickSpan(w, usable, sa.cell, inp.startDeckY, inp.h0);
  const goalSet = new Uint8Array(nsp);
  markGoalSet(w, usable, ga.cell, inp.goalDeckY, goalSet);
  const warnings: string[] = [];
  const snapSum = (sa.dist + ga.dist) / kCS;
  let path: { spans: Int32Array; cost: number } | null;
  if (sa.cell === ga.cell && startSpan >= 0 && (goalSet[startSpan] || inp.goalDeckY === null)) {
    path = { spans: Int32Array.of(startSpan), cost: 0 };
  } else {
    const search = new SpanSearch(w);
    const abandonAt = tentative ? limit2 - snapSum : Infinity;
    path = search.run({
      mask: walk,
      usable,
      start: startSpan,
      goal: goalSet,
      goalCell: ga.cell,
      abandonAt,
    });
    if (!path) {
      if (tentative) return { status: "escalate", reason: Reason.WalkBroken };
      const core = w.core;
      path = search.run({ mask: core, usable, start: startSpan, goal: goalSet, goalCell: ga.cell });
      if (path) warnings.push(Warning.WalkToCore);
    }
    if (!path) {
      if (inp.goalDeckY !== null) {
        throw new PlanFailure(
          "target_deck_unreachable",
          deckMessage(w, usable, ga.cell, inp.goalDeckY),
        );
      }
      throw new PlanFailure("route_disconnected", "不连通");
    }
  }
  if (tentative && path.cost + snapSum >= limit2) {
    return { status: "escalate", reason: Reason.SearchEdge };
  }
  const gc = gCell[1] * nx + gCell[0];
  const goalSealed = gCell[0] >= 0 && gCell[1] >= 0 && gCell[0] < nx && gCell[1] < ny &&
    walk[gc] === 1 && cw3[gc] === 0;
  const points: Pt[] = [];
  for (const s of path.spans) {
    const c = sp.cell[s];
    points.push([(w.x0 + (c % nx) + 0.5) * kCS, (w.y0 + ((c / nx) | 0) + 0.5) * kCS]);
  }
  return {
    status: "ok",
    spans: path.spans,
    cost: path.cost,
    snapStart: sa.dist,
    snapGoal: ga.dist,
    goalSealed,
    warnings,
    points,
  };
}

/** nearestCell: the mask cell with the smallest squared cell distance, row-major first. */
function nearestCell(mask: Uint8Array, nx: number, ny: number, p: [number, number]): Anchor | null {
  let best = -1, bd = Infinity;
  for (let y = 0; y < ny; y++) {
    const dy = y - p[1];
    for (let x = 0; x < nx; x++) {
      if (!mask[y * nx + x]) continue;
      const dx = x - p[0], d = dx * dx + dy * dy;
      if (d < bd) bd = d, best = y * nx + x;
    }
  }
  return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
}

/** Deck anchor: usable spans in walk cells within 2 m of the deck, by (Δ², |Δh|), index order. */
function deckAnchor(
  w: WindowGrid,
  usable: Uint8Array,
  walk: Uint8Array,
  p: [number, number],
  deck: number,
): Anchor | null {
  const sp = w.spans, nx = w.nx;
  let best = -1, bd = Infinity, bh = Infinity;
  for (let s = 0; s < sp.h.length; s++) {
    if (!usable[s] || !walk[sp.cell[s]]) continue;
    const dh = Math.abs(sp.h[s] - deck);
    if (!(dh <= kDeckBand)) continue;
    const c = sp.cell[s], dx = (c % nx) - p[0], dy = ((c / nx) | 0) - p[1];
    const d = dx * dx + dy * dy;
    if (d < bd || (d === bd && dh < bh)) bd = d, bh = dh, best = c;
  }
  return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
}

/** Start span: nearest to h0 (`|h ⊖ f32(h0)|`), or to the deck (≤ 2 m). */
function pickSpan(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  h0: number,
): number {
  const [a, b] = spanRangeOf(w.spans, cell);
  let best = -1, bd = Infinity;
  const hf = Math.fround(h0);
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = deck !== null
      ? Math.abs(w.spans.h[s] - deck)
      : Math.abs(Math.fround(w.spans.h[s] - hf));
    if (deck !== null && !(d <= kDeckBand)) continue;
    if (d < bd) bd = d, best = s;
  }
  return best;
}

/** Goal set: every usable span of the anchor cell; with a deck only the nearest within 2 m. */
function markGoalSet(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  out: Uint8Array,
): void {
  const [a, b] = spanRangeOf(w.spans, cell);
  if (deck === null) {
    for (let s = a; s < b; s++) if (usable[s]) out[s] = 1;
    return;
  }
  let best = -1, bd = Infinity;
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = Math.abs(w.spans.h[s] - deck);
    if (d <= kDeckBand && d < bd) bd = d, best = s;
  }
  if (best >= 0) out[best] = 1;
}

/** `目标面不可达 (声明 %.2f, 终点格里的面 无|[h, …])` (maaend-runlogs.md §2). */
function deckMessage(w: WindowGrid, usable: Uint8Array, cell: number, deck: number): string {
  const [a, b] = spanRangeOf(w.spans, cell);
  const hs: string[] = [];
  for (let s = a; s < b; s++) if (usable[s]) hs.push(cFixed(w.spans.h[s], 2));
  return `目标面不可达 (声明 ${cFixed(deck, 2)}, 终点格里的面 ${
    hs.length ? `[${hs.join(", ")}]` : "无"
  })`;
}
