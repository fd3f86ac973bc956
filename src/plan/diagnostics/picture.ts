/**
 * The picture of one plan's window (spec 诊断: "调试工具把这些点列叠在地图上"): a crop of the final
 * window around the route (or the endpoints) with each cell's class and clearance, the blocker
 * segments inside the crop, the no-go rings and discs, and every stage's point list, drops,
 * waypoints and the gap. Plain data, so the SVG renderer (reports/leg_svg.ts) and the HTML report
 * can draw it without the window.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import type { NoGoTable } from "../../pack/nogo/table.ts";
import type { WindowGrid } from "../window/window_grid.ts";
import type { LegPicture, NoGoDiscSpec, PlanResult, Pt } from "../types.ts";

export type { LegPicture } from "../types.ts";

/** Cell classes of a picture. */
export const PictureCell = { Empty: 0, Core: 1, Walk: 2, NonCore: 3 } as const;

/** Largest crop side, cells (a 3 M-cell window is cropped to the route). */
const kMaxSide = 1024;
/** Margin around the route, cells. */
const kMargin = 48;

/** Builds the picture of a plan from its final window. */
export function legPicture(
  w: WindowGrid,
  res: PlanResult,
  req: { start: Pt; goal: Pt; zone: string; noGoDiscs?: NoGoDiscSpec[] },
  noGo: NoGoTable,
): LegPicture {
  const d = res.debug;
  const all: Pt[] = [req.start, req.goal, ...res.points, ...d.topologyPoints];
  if (d.gap) all.push(d.gap.start, d.gap.goal);
  let lx = Infinity, ly = Infinity, hx = -Infinity, hy = -Infinity;
  for (const [x, y] of all) {
    lx = Math.min(lx, Math.floor(x / kCS));
    ly = Math.min(ly, Math.floor(y / kCS));
    hx = Math.max(hx, Math.floor(x / kCS));
    hy = Math.max(hy, Math.floor(y / kCS));
  }
  const x0 = Math.max(w.x0, lx - kMargin), y0 = Math.max(w.y0, ly - kMargin);
  const x1 = Math.min(w.x0 + w.nx - 1, hx + kMargin, x0 + kMaxSide - 1);
  const y1 = Math.min(w.y0 + w.ny - 1, hy + kMargin, y0 + kMaxSide - 1);
  const nx = Math.max(1, x1 - x0 + 1), ny = Math.max(1, y1 - y0 + 1);
  const cells = new Uint8Array(nx * ny), clearance = new Uint8Array(nx * ny);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const c = (y0 - w.y0 + y) * w.nx + (x0 - w.x0 + x);
      const k = y * nx + x;
      cells[k] = w.core[c] && w.lay[c]
        ? PictureCell.Walk
        : w.core[c]
        ? PictureCell.Core
        : w.lay[c]
        ? PictureCell.NonCore
        : PictureCell.Empty;
      clearance[k] = Math.min(255, Math.round(w.dist[c] * 16));
    }
  }
  const bx0 = x0 * kCS, by0 = y0 * kCS, bx1 = (x1 + 1) * kCS, by1 = (y1 + 1) * kCS;
  const blockers: number[] = [];
  for (let i = 0; i < w.blockers.length; i += 4) {
    const s = w.blockers;
    if (Math.max(s[i], s[i + 2]) < bx0 || Math.min(s[i], s[i + 2]) > bx1) continue;
    if (Math.max(s[i + 1], s[i + 3]) < by0 || Math.min(s[i + 1], s[i + 3]) > by1) continue;
    blockers.push(s[i], s[i + 1], s[i + 2], s[i + 3]);
  }
  const rings: Pt[][] = [];
  const z = noGo.zones.get(req.zone);
  if (z) {
    for (let r = 0; r + 1 < z.ringPointStart.length; r++) {
      const ring: Pt[] = [];
      for (let k = z.ringPointStart[r]; k < z.ringPointStart[r + 1]; k++) {
        ring.push([z.points[2 * k], z.points[2 * k + 1]]);
      }
      rings.push(ring);
    }
  }
  return {
    x0,
    y0,
    nx,
    ny,
    cells,
    clearance,
    blockers,
    rings,
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
