/**
 * The planner's FallGate (spec 台沿下落): the zone's occluder scene wrapped for RiseOk. The gate is
 * null when the zone has no colliders or its plane→world transform has a zero scale (step 1);
 * the verdict and projection caches are keyed by global cells and shared by every tier of one plan
 * (step 2); a cell centre is projected onto the zone mesh (step 3: walkable triangles within
 * 0.25 px, vertex height range within 2 m of h, interpolated height within 2 m, smallest (planar
 * distance, |Δh|)); px become world (x, z) through the zone affine and the height is world y (step
 * 4); dropBlocked runs with climb 0.39 m and height 2.1 m (step 5).
 * @module
 */

import type { FallGate } from "../../grid/rise_ok.ts";
import { makeFallGate } from "../../grid/fall_gate.ts";
import { closestOnTriangle } from "../../zone_mesh/geom.ts";
import { bucketCandidates } from "../../zone_mesh/snap.ts";
import { dropBlocked } from "../../pack/ocls/drop_blocked.ts";
import type { OccluderScene } from "../../pack/ocls/types.ts";
import type { ZoneState } from "./zone_state.ts";

/** Projection radius around a cell centre, px. */
const kProjectRadius = 0.25;
/** Height band of the projection, m. */
const kProjectBand = 2;

/** Per-plan caches shared by the tiers (step 2). */
export interface FallGateCaches {
  /** Verdicts by (from cell, to cell, h0, h1). */
  verdicts: Map<string, boolean>;
  /** Projected points by (cell, h). */
  points: Map<string, [number, number, number] | null>;
}

/** New per-plan caches. */
export function fallGateCaches(): FallGateCaches {
  return { verdicts: new Map(), points: new Map() };
}

/** The FallGate of one window, or null (no colliders, or a zero scale). */
export function windowFallGate(
  zs: ZoneState,
  scene: OccluderScene | null,
  win: { x0: number; y0: number; nx: number },
  caches: FallGateCaches,
): FallGate | null {
  if (!scene) return null;
  const a = zs.record.affine;
  const toWorld = a.sx === 0 || a.sy === 0
    ? null
    : (px: number, py: number): [number, number] => [a.sx * px + a.tx, a.sy * py + a.ty];
  const blocked = (
    ax: number,
    ay: number,
    az: number,
    bx: number,
    by: number,
    bz: number,
    climb: number,
    height: number,
  ) => dropBlocked(scene, { x: ax, y: ay, z: az }, { x: bx, y: by, z: bz }, climb, height);
  return makeFallGate(blocked, {
    nx: win.nx,
    x0: win.x0 * 0.25,
    y0: win.y0 * 0.25,
    gx0: win.x0,
    gy0: win.y0,
    toWorld,
    project: (px, py, h) => {
      const key = `${px},${py},${Math.fround(h)}`;
      if (caches.points.has(key)) return caches.points.get(key)!;
      const p = projectOnMesh(zs, px, py, h);
      caches.points.set(key, p);
      return p;
    },
    cache: caches.verdicts,
  });
}

/** Step 3: the cell centre on the nearest walkable triangle near height h, or null. */
function projectOnMesh(
  zs: ZoneState,
  px: number,
  py: number,
  h: number,
): [number, number, number] | null {
  const m = zs.mesh, v = m.vertices, out = new Float64Array(2);
  let best: [number, number, number] | null = null, bd = Infinity, bh = Infinity;
  for (const t of bucketCandidates(zs.buckets, px, py, kProjectRadius)) {
    if (!m.walkable[t]) continue;
    const i0 = 3 * m.tris[3 * t], i1 = 3 * m.tris[3 * t + 1], i2 = 3 * m.tris[3 * t + 2];
    const lo = Math.min(v[i0 + 2], v[i1 + 2], v[i2 + 2]);
    const hi = Math.max(v[i0 + 2], v[i1 + 2], v[i2 + 2]);
    if (h < lo - kProjectBand || h > hi + kProjectBand) continue;
    const d = closestOnTriangle(v, m.tris, t, px, py, out);
    if (d > kProjectRadius) continue;
    const z = planeHeight(v, i0, i1, i2, out[0], out[1]);
    const dh = Math.abs(z - h);
    if (!(dh <= kProjectBand)) continue;
    if (d < bd || (d === bd && dh < bh)) {
      bd = d, bh = dh;
      best = [out[0], out[1], z];
    }
  }
  return best;
}

/** Height of the triangle's plane at (x, y) (barycentric; a flat-in-plan triangle: the mean). */
function planeHeight(
  v: Float32Array,
  i0: number,
  i1: number,
  i2: number,
  x: number,
  y: number,
): number {
  const ax = v[i0], ay = v[i0 + 1], bx = v[i1], by = v[i1 + 1], cx = v[i2], cy = v[i2 + 1];
  const det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
  if (det === 0) return (v[i0 + 2] + v[i1 + 2] + v[i2 + 2]) / 3;
  const l0 = ((by - cy) * (x - cx) + (cx - bx) * (y - cy)) / det;
  const l1 = ((cy - ay) * (x - cx) + (ax - cx) * (y - cy)) / det;
  return l0 * v[i0 + 2] + l1 * v[i1 + 2] + (1 - l0 - l1) * v[i2 + 2];
}
