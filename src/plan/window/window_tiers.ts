/**
 * Window tiers (spec 窗口分档: 窗口常量, 三种窗口, 椭圆档位, 小窗结果的检查). Pure functions of the
 * leg geometry, the level and the region rectangle: the allowed cost per level, the ellipse's
 * bounding box grown by 72 cells and joined with the endpoint box, the window kind, the
 * 40-step bisection of capped windows, and the two trust thresholds limit / limit2.
 *
 * Every rectangle here is in global cells, inclusive: `[x0, x0 + nx − 1] × [y0, y0 + ny − 1]`.
 * @module
 */

import { kCS } from "../../grid/constants.ts";

/** kTrustMargin: the window minus this border is the trust region (cells). */
export const kTrustMargin = 64;
/** kLocalMaxCells: area cap of a tentative window (cells). */
export const kLocalMaxCells = 3_000_000;
/** kRatio0: allowed cost over straight length at level 0. */
export const kRatio0 = 2.0;
/** kRatioStep: factor per level. */
export const kRatioStep = 2.0;
/** kCostSlack: fixed extra cost (cells). */
export const kCostSlack = 200;
/** kMaxCells: area cap of a full-region window (cells). */
export const kMaxCells = 400_000_000;
/** kFieldHalo: border around the region box that makes the region rectangle (cells). */
export const kFieldHalo = 32;
/** Growth of the ellipse box on every side: kTrustMargin + 8 (formulas.md #74). */
export const kWindowGrow = kTrustMargin + 8;
/** Level cap: past it the loop switches to the full-region window (椭圆档位 step 1). */
export const kMaxLevel = 64;
/** Bisection steps of a capped window (formulas.md #78). */
export const kCapBisect = 40;
/** Ternary-search steps per trust-region side in limit2 (formulas.md #82). */
export const kTernarySteps = 100;

/** Window kind (三种窗口 `enum class Kind`). */
export type WindowKind = "tentative" | "capped" | "full";

/** A cell rectangle: origin and size. */
export interface CellRect {
  /** First column (global cell). */
  x0: number;
  /** First row (global cell). */
  y0: number;
  /** Columns. */
  nx: number;
  /** Rows. */
  ny: number;
}

/** The leg as the tier formulas see it (px). */
export interface LegGeometry {
  /** Raw start, px. */
  sx: number;
  /** Raw start y, px. */
  sy: number;
  /** Raw goal, px. */
  gx: number;
  /** Raw goal y, px. */
  gy: number;
  /** Start snap point, px (part of the endpoint box; the goal's snap point is not). */
  snapX: number;
  /** Start snap point y, px. */
  snapY: number;
}

/** Area of a rectangle in cells (exact for any window below 2^53 cells). */
export function rectArea(r: CellRect): number {
  return r.nx * r.ny;
}

/** Two rectangles are the same window. */
export function sameRect(a: CellRect, b: CellRect): boolean {
  return a.x0 === b.x0 && a.y0 === b.y0 && a.nx === b.nx && a.ny === b.ny;
}

/**
 * Straight start–goal distance D in fractional cells between the raw endpoints
 * (formulas.md #71: `hypot(goal/kCS − start/kCS)`; `Math.sqrt(dx² + dy²)` for a correctly rounded
 * result on every engine).
 */
export function legCells(leg: LegGeometry): number {
  const dx = leg.gx / kCS - leg.sx / kCS, dy = leg.gy / kCS - leg.sy / kCS;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Allowed cost of a level (formulas.md #71): `C(L) = D·kRatio0·kRatioStep^L + kCostSlack`. */
export function allowedCost(d: number, level: number): number {
  return d * kRatio0 * Math.pow(kRatioStep, level) + kCostSlack;
}

/**
 * The window of allowed cost `c` (formulas.md #72–#74): ellipse with foci at the raw endpoints,
 * `a = C/2`, `b = sqrt(max(C² − D², 0))/2`, bounding half-extents
 * `e_x = sqrt(a²cos²θ + b²sin²θ)`, `e_y = sqrt(a²sin²θ + b²cos²θ)` about the midpoint, joined
 * with the endpoint box (raw start, start snap point, raw goal) and grown by 72 cells.
 */
export function ellipseRect(leg: LegGeometry, c: number): CellRect {
  const s0 = leg.sx / kCS, s1 = leg.sy / kCS, g0 = leg.gx / kCS, g1 = leg.gy / kCS;
  const dx = g0 - s0, dy = g1 - s1;
  const d = Math.sqrt(dx * dx + dy * dy);
  const a = c / 2;
  const b = Math.sqrt(Math.max(c * c - d * d, 0)) / 2;
  const th = Math.atan2(dy, dx);
  const co = Math.cos(th), si = Math.sin(th);
  const ex = Math.sqrt(a * a * co * co + b * b * si * si);
  const ey = Math.sqrt(a * a * si * si + b * b * co * co);
  const cx = (s0 + g0) / 2, cy = (s1 + g1) / 2;
  const xs = [Math.floor(s0), Math.floor(leg.snapX / kCS), Math.floor(g0)];
  const ys = [Math.floor(s1), Math.floor(leg.snapY / kCS), Math.floor(g1)];
  const bx0 = Math.min(...xs), bx1 = Math.max(...xs);
  const by0 = Math.min(...ys), by1 = Math.max(...ys);
  const x0 = Math.min(bx0, Math.floor(cx - ex)) - kWindowGrow;
  const x1 = Math.max(bx1, Math.ceil(cx + ex)) + kWindowGrow;
  const y0 = Math.min(by0, Math.floor(cy - ey)) - kWindowGrow;
  const y1 = Math.max(by1, Math.ceil(cy + ey)) + kWindowGrow;
  return { x0, y0, nx: x1 - x0 + 1, ny: y1 - y0 + 1 };
}

/** The region rectangle: the region's cell bounding box grown by kFieldHalo (整类矩形). */
export function regionRect(box: { x0: number; y0: number; x1: number; y1: number }): CellRect {
  return {
    x0: box.x0 - kFieldHalo,
    y0: box.y0 - kFieldHalo,
    nx: box.x1 - box.x0 + 1 + 2 * kFieldHalo,
    ny: box.y1 - box.y0 + 1 + 2 * kFieldHalo,
  };
}

/** One level's window choice. */
export interface TierWindow {
  /** Kind of window. */
  kind: WindowKind;
  /** The window rectangle. */
  rect: CellRect;
  /** Allowed cost used for the ellipse (cells); for a full window the level's cost. */
  cost: number;
  /** True when a capped window is the segment's box itself (larger than the cap). */
  segmentCapped: boolean;
}

/** Does ellipse rectangle `e` cover region rectangle `r` (formulas.md #77 "covers")? */
function covers(e: CellRect, r: CellRect): boolean {
  return e.x0 <= r.x0 && e.y0 <= r.y0 && e.x0 + e.nx >= r.x0 + r.nx && e.y0 + e.ny >= r.y0 + r.ny;
}

/**
 * Chooses the window of a level (三种窗口, formulas.md #77–#79):
 *  1. Full when the region rectangle is ≤ kLocalMaxCells and the ellipse box covers it or has
 *     at least 80 % of its area (`5·A_ell ≥ 4·A_region`, integers);
 *  2. Tentative when the ellipse box is ≤ kLocalMaxCells;
 *  3. Capped otherwise: 40 bisection steps on the allowed cost over [D, C(L)]; when even the
 *     segment's box (C = D) is over the cap, that box is used as it is.
 */
export function chooseWindow(
  leg: LegGeometry,
  level: number,
  region: CellRect,
  localMax = kLocalMaxCells,
): TierWindow {
  const d = legCells(leg);
  const c = allowedCost(d, level);
  const ell = ellipseRect(leg, c);
  const aReg = rectArea(region), aEll = rectArea(ell);
  if (aReg <= localMax && (covers(ell, region) || 5 * aEll >= 4 * aReg)) {
    return { kind: "full", rect: region, cost: c, segmentCapped: false };
  }
  if (aEll <= localMax) return { kind: "tentative", rect: ell, cost: c, segmentCapped: false };
  const seg = ellipseRect(leg, d);
  if (rectArea(seg) > localMax) return { kind: "capped", rect: seg, cost: d, segmentCapped: true };
  let lo = d, hi = c;
  for (let i = 0; i < kCapBisect; i++) {
    const m = (lo + hi) / 2;
    if (rectArea(ellipseRect(leg, m)) <= localMax) lo = m;
    else hi = m;
  }
  return { kind: "capped", rect: ellipseRect(leg, lo), cost: lo, segmentCapped: false };
}

/** Window cell of a raw endpoint (formulas.md #81/#94): `trunc((p − x0)/kCS)`, x0 in px. */
export function endpointCell(p: number, originCells: number): number {
  return Math.trunc((p - originCells * kCS) / kCS);
}

/**
 * limit (formulas.md #81): the endpoints' smallest distance to a window edge in cells, minus
 * kTrustMargin. `s`, `t` are window cells of the raw endpoints.
 */
export function trustLimit(
  nx: number,
  ny: number,
  s: [number, number],
  t: [number, number],
): number {
  const e = (p: [number, number]) => Math.min(p[0], p[1], nx - 1 - p[0], ny - 1 - p[1]);
  return Math.min(e(s), e(t)) - kTrustMargin;
}

/**
 * limit2 (formulas.md #82): a lower bound of `|p − s| + |p − t|` over the cells outside the
 * trust region, minus 1. The function is convex, so its minimum over the outside lies on the
 * boundary rectangle `[m−1, nx−m] × [m−1, ny−m]`; each side A→B (bottom, right, top, left) is
 * searched by 100 ternary steps on u ∈ [0, 1].
 */
export function trustLimit2(
  nx: number,
  ny: number,
  s: [number, number],
  t: [number, number],
): number {
  const m = kTrustMargin;
  const xa = m - 1, xb = nx - m, ya = m - 1, yb = ny - m;
  const f = (x: number, y: number) => {
    const ax = x - s[0], ay = y - s[1], bx = x - t[0], by = y - t[1];
    return Math.sqrt(ax * ax + ay * ay) + Math.sqrt(bx * bx + by * by);
  };
  const sides: Array<[number, number, number, number]> = [
    [xa, ya, xb, ya],
    [xb, ya, xb, yb],
    [xb, yb, xa, yb],
    [xa, yb, xa, ya],
  ];
  let best = Infinity;
  for (const [ax, ay, bx, by] of sides) {
    const at = (u: number) => f(ax + (bx - ax) * u, ay + (by - ay) * u);
    let lo = 0, hi = 1;
    for (let i = 0; i < kTernarySteps; i++) {
      const u1 = lo + (hi - lo) / 3, u2 = hi - (hi - lo) / 3;
      if (at(u1) < at(u2)) hi = u2;
      else lo = u1;
    }
    best = Math.min(best, at(lo));
  }
  return best - 1;
}
