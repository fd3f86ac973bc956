/**
 * Line heights and PullWaypoints (spec 后处理 › 逐点高度, 路点; formulas.md #138).
 *
 * Line heights: from the start span's height, each segment's layer walk starts from the whole
 * height set the previous one returned; each point takes the value of its set nearest the previous
 * point's. Any segment that fails clears the column.
 *
 * PullWaypoints: greedy from the last waypoint, extend one vertex at a time while the chord passes
 * isRouteSegmentDrivable on the zone mesh (samples ≈ 0.5 px on any zone triangle, height steps ≤ 3 m;
 * with side lines at the half-width = the smallest clearance of the skipped vertices, trimmed by
 * min(w, L/2)) and the pull view (blocker segments and route mask); at most 64 vertices at a time
 * (kMaxPullSpan), never past the next drop; no extension → advance one; the last point always.
 * @module
 */

import { kClimb } from "../../../grid/constants.ts";
import type { ZoneClean } from "../../../zone_mesh/zone_clean.ts";
import { type DriveBuckets, pointBucket } from "../../../zone_mesh/snap.ts";
import {
  refContains,
  type RefDriveIndex,
  refSampleTriangle,
} from "../../../zone_mesh/drive_index.ts";
import type { Pt } from "../../types.ts";
import type { Visibility } from "../visibility/visibility.ts";

/** kMaxPullSpan: vertices one waypoint step may skip at most. */
export const kMaxPullSpan = 64;

/** The line heights of `pts` from h0, or null when a segment changes layer. */
export function lineHeights(view: Visibility, pts: readonly Pt[], h0: number): number[] | null {
  if (pts.length === 0) return [];
  const out = [Math.fround(h0)];
  let set: number[] = [Math.fround(h0)];
  for (let k = 1; k < pts.length; k++) {
    const hs = view.heightsAlong(pts[k - 1][0], pts[k - 1][1], pts[k][0], pts[k][1], set);
    if (!hs) return null;
    const prev = out[k - 1];
    let best = hs[0], bd = Infinity;
    for (const v of hs) {
      const d = Math.abs(v - prev);
      if (d < bd) (bd = d), (best = v);
    }
    out.push(best);
    set = hs;
  }
  return out;
}

/** The zone mesh as isRouteSegmentDrivable reads it. */
export interface DriveMesh {
  /** The cleaned zone mesh. */
  mesh: ZoneClean;
  /** Every zone triangle, walkable or not (spec 路点 step 2: "区网格的三角形"): snap.ts buildDriveBuckets. */
  buckets: DriveBuckets;
  /**
   * The reference build's sampling index (formulas.md #138 "Ref differs"; profile switch
   * `waypointSampleGeometry` off): when set, a sample stands on the triangles that index offers
   * and whose point test passes without a box (mesh/drive_index.ts), not on `buckets`.
   */
  ref?: RefDriveIndex | null;
  /** When probing `waypointSampleGeometry` under `spec`: the reference index to compare with. */
  probeRef?: RefDriveIndex | null;
}

/**
 * The height a line sample at (x, y) stands on, from the triangle means of the zone triangles
 * (walkable or not: spec 路点 step 2, formulas.md #138) containing it, in ascending triangle
 * order: with no previous height the lowest, else the first nearest the previous one. NaN when no
 * triangle contains it. One pass, no per-sample list.
 *
 * "Contains": within the triangle's planar box widened by `margin`, and the point test with its
 * 1e-5 tolerance. The box is part of the rule, not of the index: without it a vertical triangle
 * (a segment in plan) stood under every point within 1e-5 / length of its whole line, as far as
 * the bucket reached, so the answer depended on how the triangles were bucketed (issue 36).
 */
function sampleHeight(m: DriveMesh, x: number, y: number, prev: number | null): number {
  const { mesh } = m, v = mesh.vertices, B = m.buckets, box = B.box, mg = B.margin;
  const eps = 1e-5;
  let h = NaN;
  const k = pointBucket(B, x, y);
  if (k < 0) return h;
  for (let q = B.start[k], e = B.start[k + 1]; q < e; q++) {
    const t = B.items[q], o = 4 * t;
    if (x < box[o] - mg || y < box[o + 1] - mg || x > box[o + 2] + mg || y > box[o + 3] + mg) {
      continue;
    }
    const a = 3 * mesh.tris[3 * t], b = 3 * mesh.tris[3 * t + 1], c = 3 * mesh.tris[3 * t + 2];
    const c1 = (v[b] - v[a]) * (y - v[a + 1]) - (v[b + 1] - v[a + 1]) * (x - v[a]);
    const c2 = (v[c] - v[b]) * (y - v[b + 1]) - (v[c + 1] - v[b + 1]) * (x - v[b]);
    const c3 = (v[a] - v[c]) * (y - v[c + 1]) - (v[a + 1] - v[c + 1]) * (x - v[c]);
    if ((c1 >= -eps && c2 >= -eps && c3 >= -eps) || (c1 <= eps && c2 <= eps && c3 <= eps)) {
      const z = (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
      if (h !== h) h = z;
      else if (prev === null ? z < h : Math.abs(z - prev) < Math.abs(h - prev)) h = z;
    }
  }
  return h;
}

/** One sampled line: every sample on a triangle, height steps ≤ kClimb. */
function lineDrivable(m: DriveMesh, a: Pt, b: Pt, h0: number | null): boolean {
  if (m.ref) return refLineDrivable(m, m.ref, a, b, h0);
  const L = Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
  const n = Math.max(1, Math.trunc(L / 0.5));
  let prev = h0;
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const h = sampleHeight(m, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, prev);
    if (h !== h) return false;
    if (prev !== null && Math.abs(h - prev) > kClimb) return false;
    prev = h;
  }
  return true;
}

/**
 * lineDrivable under the reference's rule (formulas.md #138 "Ref differs"): candidates from its
 * 4-px index (mesh/drive_index.ts), and a sample inside the triangle the previous sample chose
 * keeps the previous height without a search.
 */
function refLineDrivable(m: DriveMesh, idx: RefDriveIndex, a: Pt, b: Pt, h0: number | null) {
  const L = Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
  const n = Math.max(1, Math.trunc(L / 0.5));
  let prev = h0, tri = -1;
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const x = a[0] + (b[0] - a[0]) * t, y = a[1] + (b[1] - a[1]) * t;
    if (tri >= 0 && refContains(m.mesh, tri, x, y)) continue;
    tri = refSampleTriangle(m.mesh, idx, x, y, prev);
    if (tri < 0) return false;
    const h = idx.mean[tri];
    if (prev !== null && Math.abs(h - prev) > kClimb) return false;
    prev = h;
  }
  return true;
}

/** isRouteSegmentDrivable: the centre line and, for w > 0, the two side lines. */
export function routeSegmentDrivable(m: DriveMesh, a: Pt, b: Pt, w: number, h0: number | null) {
  if (!lineDrivable(m, a, b, h0)) return false;
  const L = Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
  if (!(w > 0) || L < 1e-9) return true;
  const ux = (b[0] - a[0]) / L, uy = (b[1] - a[1]) / L;
  const trim = Math.min(w, L / 2);
  for (const s of [1, -1]) {
    const ox = -uy * w * s, oy = ux * w * s;
    const p: Pt = [a[0] + ux * trim + ox, a[1] + uy * trim + oy];
    const q: Pt = [b[0] - ux * trim + ox, b[1] - uy * trim + oy];
    if (!lineDrivable(m, p, q, h0)) return false;
  }
  return true;
}

/**
 * PullWaypoints over the final points. `drops` are landing indices (kept as waypoints). Each
 * walk starts at the line height `heights[c]` (spec 路点 step 2; both builds). Without line
 * heights, `anchored` (9839304) gives no waypoints; unanchored (the reference build) the walks
 * have no start height and the first sample takes the lowest triangle.
 */
export function pullWaypoints(
  m: DriveMesh,
  pts: readonly Pt[],
  clearance: readonly number[],
  heights: readonly number[] | null,
  view: Visibility,
  drops: readonly number[] = [],
  anchored = true,
): number[] {
  const n = pts.length;
  // Waypoints exclude the start (maaend-runlogs.md, RecastPlanResult.waypoints): a one-point
  // route has none, as in the reference build (city_small bridge_under).
  if (n < 2 || (anchored && heights === null)) return [];
  const out: number[] = [];
  let c = 0;
  while (c < n - 1) {
    let cap = Math.min(n - 1, c + kMaxPullSpan);
    for (const d of drops) if (d > c && d < cap) cap = d;
    let j = c;
    let w = Infinity;
    for (let k = c + 1; k <= cap; k++) {
      const half = k - 1 > c ? (w = Math.min(w, clearance[k - 1])) : 0;
      if (!routeSegmentDrivable(m, pts[c], pts[k], half, heights ? heights[c] : null)) break;
      // The view has no layer check: the heights are not read.
      if (!view.ok(pts[c][0], pts[c][1], pts[k][0], pts[k][1], 0, 0)) break;
      j = k;
    }
    if (j === c) j = c + 1;
    out.push(j);
    c = j;
  }
  if (out[out.length - 1] !== n - 1) out.push(n - 1);
  return out;
}
