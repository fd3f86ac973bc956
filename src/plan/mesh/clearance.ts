/**
 * Clearance of any route on the voxel grid's clearance field (the window's `dist`, px, capped at
 * kEdtCap = 12, 0 inside no-go and off the region), so the triangle-mesh route and the voxel
 * route are measured on the same scale. One window (buildWindow, spec 建窗) is built over the
 * bounding box of the routes, in the region the voxel planner's pre-checks pick for the leg.
 * @module
 */
import { kCS } from "../../grid/constants.ts";
import { buildWindow, type WindowGrid } from "../window/build_window.ts";
import { PlanContext } from "../context.ts";
import type { Engine } from "../engine.ts";
import { runPrechecks } from "../prechecks/prechecks.ts";
import type { PlanRequest, Pt } from "../types.ts";
import type { CellRect } from "../window/window_tiers.ts";

/** Largest window built only to measure clearance (cells); larger routes are not measured. */
export const kClearanceMaxCells = 12_000_000;

/** Clearance of one route. */
export interface RouteClearance {
  /** Clearance at each route point, px. */
  perPoint: number[];
  /** Minimum over samples every kCS/2 along the route, px. */
  min: number;
  /** 10th percentile (nearest rank, rank ⌈0.1·n⌉ as analyze/percentile.ts) over the same samples, px. */
  p10: number;
  /** Samples taken. */
  samples: number;
}

/** A window to measure routes on, or the reason there is none. */
export type ClearanceField = { ok: true; window: WindowGrid; ms: number } | {
  ok: false;
  reason: string;
  ms: number;
};

/** Builds the measuring window over `routes` for the leg `req`. */
export async function clearanceField(
  engine: Engine,
  req: PlanRequest,
  routes: readonly (readonly Pt[])[],
): Promise<ClearanceField> {
  const t0 = performance.now();
  const fail = (reason: string): ClearanceField => ({
    ok: false,
    reason,
    ms: performance.now() - t0,
  });
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const r of routes) {
    for (const [x, y] of r) {
      x0 = Math.min(x0, Math.floor(x / kCS));
      y0 = Math.min(y0, Math.floor(y / kCS));
      x1 = Math.max(x1, Math.floor(x / kCS));
      y1 = Math.max(y1, Math.floor(y / kCS));
    }
  }
  if (!(x0 <= x1)) return fail("no route");
  try {
    const zs = await engine.zoneState(req.zone);
    const setup = runPrechecks(new PlanContext(), zs, req, engine.noGoTable());
    x0 = Math.min(x0, setup.seed.gx) - 2;
    y0 = Math.min(y0, setup.seed.gy) - 2;
    x1 = Math.max(x1, setup.seed.gx) + 2;
    y1 = Math.max(y1, setup.seed.gy) + 2;
    const rect: CellRect = { x0, y0, nx: x1 - x0 + 1, ny: y1 - y0 + 1 };
    if (rect.nx * rect.ny > kClearanceMaxCells) {
      return fail(`window of ${rect.nx * rect.ny} cells > ${kClearanceMaxCells}`);
    }
    const window = buildWindow(zs, {
      rect,
      region: setup.region,
      seed: setup.seed,
      noGo: engine.noGoTable(),
      discs: req.noGoDiscs ?? [],
    });
    return { ok: true, window, ms: performance.now() - t0 };
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
}

/** Clearance of the cell under (x, y), px; 0 outside the window. */
export function clearanceAt(w: WindowGrid, x: number, y: number): number {
  const cx = Math.floor(x / kCS) - w.x0, cy = Math.floor(y / kCS) - w.y0;
  if (cx < 0 || cy < 0 || cx >= w.nx || cy >= w.ny) return 0;
  return w.dist[cy * w.nx + cx];
}

/** Measures a route on the window: per point, and min / p10 over samples every kCS/2. */
export function routeClearance(w: WindowGrid, points: readonly Pt[]): RouteClearance {
  const perPoint = points.map(([x, y]) => clearanceAt(w, x, y));
  const s: number[] = [];
  if (points.length === 1) s.push(perPoint[0]);
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1], [bx, by] = points[i];
    const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / (kCS / 2)));
    for (let k = i === 1 ? 0 : 1; k <= n; k++) {
      s.push(clearanceAt(w, ax + (bx - ax) * k / n, ay + (by - ay) * k / n));
    }
  }
  const sorted = Float64Array.from(s).sort();
  return {
    perPoint,
    min: sorted.length ? sorted[0] : NaN,
    p10: sorted.length ? sorted[Math.max(1, Math.ceil(0.1 * sorted.length)) - 1] : NaN,
    samples: sorted.length,
  };
}
