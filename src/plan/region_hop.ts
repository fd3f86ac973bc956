/**
 * The ledge-drop region hop (spec 台沿下落换类, #6227): when the start's region cannot reach the
 * goal and the goal lies in another region, find ledges in the last window where a reachable core
 * span of the start's region has an orthogonal neighbour span of the goal's region more than
 * kClimb lower, the step not banned and RiseOk (with the FallGate) letting the drop pass; rank
 * them by take-off → start plus landing → goal, keep the first per landing component, at most 3.
 * The engine then plans start → take-off (goal deck = take-off height) and landing → goal (start
 * deck = landing height) and stitches the two.
 * @module
 */

import { kClimb, kCS } from "../grid/constants.ts";
import { type FallGate, riseOk } from "../grid/rise_ok.ts";
import { occIndex } from "../grid/span_grid.ts";
import { SpanFlag } from "../pack/grid_types.ts";
import type { WindowGrid } from "./window/window_grid.ts";
import { decodeMergedTile } from "./window/tile_decode.ts";
import { stepBanned } from "./route/search/span_astar.ts";
import { tilesMeeting } from "./window/grid_access.ts";
import type { Pt } from "./types.ts";
import type { ZoneState } from "./window/zone_state.ts";

/** At most this many ledges are tried. */
export const kMaxHops = 3;

/** One ledge to jump off. */
export interface HopCandidate {
  /** Take-off cell centre, px. */
  takeoff: Pt;
  /** Take-off span height, m. */
  takeoffH: number;
  /** Landing cell centre, px. */
  landing: Pt;
  /** Landing span height, m. */
  landingH: number;
  /** Component of the landing span in the goal's region. */
  component: number;
  /** Ranking key: |take-off − start| + |landing − goal|, px. */
  key: number;
}

const O4 = [[1, 0], [0, 1], [-1, 0], [0, -1]] as const;

/** The candidates of a hop into `goalRegion` (steps 2–5). */
export function hopCandidates(
  zs: ZoneState,
  w: WindowGrid,
  goalRegion: number,
  start: Pt,
  goal: Pt,
  gate: FallGate | null,
): HopCandidate[] {
  const sp = w.spans, nx = w.nx, ny = w.ny;
  const centre = (
    c: number,
  ): Pt => [(w.x0 + (c % nx) + 0.5) * kCS, (w.y0 + ((c / nx) | 0) + 0.5) * kCS];
  const raw: Array<{ u: number; v: number; cv: number }> = [];
  for (let u = 0; u < sp.h.length; u++) {
    if (!w.vis3[u] || !w.reach[u]) continue;
    const cu = sp.cell[u];
    if (!w.core[cu]) continue;
    const x = cu % nx, y = (cu / nx) | 0;
    for (const [dx, dy] of O4) {
      const bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const cb = by * nx + bx;
      const j = occIndex(sp, cb);
      if (j < 0 || stepBanned(w.steps, cu, cb, dx, dy)) continue;
      for (let v = sp.cs[j]; v < sp.cs[j + 1]; v++) {
        if (w.vis3[v] || !(sp.h[v] - sp.h[u] < -kClimb)) continue;
        if (!riseOk(sp, x, y, sp.h[u], dx, dy, sp.h[v], gate)) continue;
        raw.push({ u, v, cv: cb });
      }
    }
  }
  if (raw.length === 0) return [];
  // Step 3: the landing spans' region, flags and component, decoded with the sidecar.
  const land = landingFacts(zs, w, raw.map((r) => r.cv));
  const out: HopCandidate[] = [];
  for (const r of raw) {
    const f = land.get(`${r.cv},${Math.fround(sp.h[r.v])}`);
    if (!f || f.rid !== goalRegion) continue;
    if (!(f.flags & SpanFlag.Walk) || (f.flags & (SpanFlag.Ghost | SpanFlag.Fill))) continue;
    const a = centre(sp.cell[r.u]), b = centre(r.cv);
    const key = Math.sqrt((a[0] - start[0]) ** 2 + (a[1] - start[1]) ** 2) +
      Math.sqrt((b[0] - goal[0]) ** 2 + (b[1] - goal[1]) ** 2);
    out.push({
      takeoff: a,
      takeoffH: sp.h[r.u],
      landing: b,
      landingH: sp.h[r.v],
      component: f.scc,
      key,
    });
  }
  out.sort((p, q) => p.key - q.key || p.takeoff[1] - q.takeoff[1] || p.takeoff[0] - q.takeoff[0]);
  const seen = new Set<number>(), kept: HopCandidate[] = [];
  for (const c of out) {
    if (seen.has(c.component)) continue;
    seen.add(c.component);
    kept.push(c);
    if (kept.length === kMaxHops) break;
  }
  return kept;
}

/** Region, flags and component of the records at the given window cells, by (cell, height). */
function landingFacts(
  zs: ZoneState,
  w: WindowGrid,
  cells: readonly number[],
): Map<string, { rid: number; flags: number; scc: number }> {
  let lx = Infinity, ly = Infinity, hx = -Infinity, hy = -Infinity;
  for (const c of cells) {
    const x = w.x0 + (c % w.nx), y = w.y0 + ((c / w.nx) | 0);
    lx = Math.min(lx, x), ly = Math.min(ly, y), hx = Math.max(hx, x), hy = Math.max(hy, y);
  }
  const want = new Set(cells);
  const out = new Map<string, { rid: number; flags: number; scc: number }>();
  const z = zs.section.zones[zs.gridZone];
  for (
    const t of tilesMeeting(zs.section, zs.gridZone, {
      x0: lx,
      y0: ly,
      nx: hx - lx + 1,
      ny: hy - ly + 1,
    })
  ) {
    const te = z.tiles[t];
    if (te.records === 0) continue;
    const d = decodeMergedTile(zs, t);
    for (let i = 0; i < d.cols.n; i++) {
      const lxx = d.cols.cell[i] % te.nx, lyy = (d.cols.cell[i] / te.nx) | 0;
      if (lxx < te.px0 || lxx > te.px1 || lyy < te.py0 || lyy > te.py1) continue;
      const wx = te.gx0 + lxx - w.x0, wy = te.gy0 + lyy - w.y0;
      if (wx < 0 || wy < 0 || wx >= w.nx || wy >= w.ny) continue;
      const c = wy * w.nx + wx;
      if (!want.has(c)) continue;
      out.set(`${c},${Math.fround(d.cols.h[i])}`, {
        rid: d.cols.rid[i],
        flags: d.cols.flags[i],
        scc: d.scc[i],
      });
    }
  }
  return out;
}
