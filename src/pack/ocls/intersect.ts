/**
 * Exact-order float64 intersection primitives for the ledge-drop check (spec 台沿下落): a line
 * against a triangle (the vertical sample columns) and a triangle against a planar parallelogram
 * (the vertical section). Both work in any affine frame, so the same code serves world space and
 * template-local space (spec: invertible placements move the query into the template's frame).
 * @module
 */

/**
 * Line `o + s·d` against triangle (V[a..], V[b..], V[c..]) (Möller–Trumbore, inclusive edges).
 * On a hit writes `out[0] = s`, `out[1] = det` and returns true. `det = −d·n` with
 * `n = (v1−v0)×(v2−v0)`; a triangle parallel to the line (det exactly 0) gives no hit — the spec's
 * "竖直的面与竖直取样线没有交点".
 */
export function lineTriangle(
  o: ArrayLike<number>,
  d: ArrayLike<number>,
  V: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  out: Float64Array,
): boolean {
  const e1x = V[b] - V[a], e1y = V[b + 1] - V[a + 1], e1z = V[b + 2] - V[a + 2];
  const e2x = V[c] - V[a], e2y = V[c + 1] - V[a + 1], e2z = V[c + 2] - V[a + 2];
  const px = d[1] * e2z - d[2] * e2y;
  const py = d[2] * e2x - d[0] * e2z;
  const pz = d[0] * e2y - d[1] * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || !Number.isFinite(det)) return false;
  const inv = 1 / det;
  const sx = o[0] - V[a], sy = o[1] - V[a + 1], sz = o[2] - V[a + 2];
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (!(u >= 0 && u <= 1)) return false;
  const qx = sy * e1z - sz * e1y;
  const qy = sz * e1x - sx * e1z;
  const qz = sx * e1y - sy * e1x;
  const v = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
  if (!(v >= 0 && u + v <= 1)) return false;
  out[0] = (e2x * qx + e2y * qy + e2z * qz) * inv;
  out[1] = det;
  return true;
}

const pts = new Float64Array(6);
const st = new Float64Array(6);

/**
 * Does triangle (V[a..], V[b..], V[c..]) cross the parallelogram `P0 + s·U + t·W`, s, t ∈ [0, 1]?
 * `P` holds P0, U, W (9 numbers). Touching counts, except that a triangle reaching only the lower
 * edge t = 0 does not: the section's lower edge is climb above the take-off ground and "高不过
 * 0.39 的矮物不算阻挡" [I]. A triangle lying in the section's plane counts when it overlaps it.
 */
export function triangleCrossesSection(
  P: ArrayLike<number>,
  V: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
): boolean {
  const ux = P[3], uy = P[4], uz = P[5], wx = P[6], wy = P[7], wz = P[8];
  const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
  const d0 = nx * (V[a] - P[0]) + ny * (V[a + 1] - P[1]) + nz * (V[a + 2] - P[2]);
  const d1 = nx * (V[b] - P[0]) + ny * (V[b + 1] - P[1]) + nz * (V[b + 2] - P[2]);
  const d2 = nx * (V[c] - P[0]) + ny * (V[c + 1] - P[1]) + nz * (V[c + 2] - P[2]);
  if ((d0 > 0 && d1 > 0 && d2 > 0) || (d0 < 0 && d1 < 0 && d2 < 0)) return false;
  if (!(Number.isFinite(d0) && Number.isFinite(d1) && Number.isFinite(d2))) return false;
  if (d0 === 0 && d1 === 0 && d2 === 0) {
    toST(P, V, a, st, 0);
    toST(P, V, b, st, 2);
    toST(P, V, c, st, 4);
    return triangleOverlapsUnitSquare(st);
  }
  let k = 0;
  k = planePoint(V, a, d0, b, d1, k);
  k = planePoint(V, b, d1, c, d2, k);
  k = planePoint(V, c, d2, a, d0, k);
  if (k === 0) return false;
  toST(P, pts, 0, st, 0);
  if (k === 1) return st[0] >= 0 && st[0] <= 1 && st[1] > 0 && st[1] <= 1;
  toST(P, pts, 3, st, 2);
  return segmentHitsUnitSquareAbove(st[0], st[1], st[2], st[3]);
}

/**
 * Adds the point(s) where edge (i, j) meets the plane to `pts` (vertex i itself when d_i = 0,
 * the interpolated crossing when the signs differ strictly). Keeps at most two points.
 */
function planePoint(V: ArrayLike<number>, i: number, di: number, j: number, dj: number, k: number) {
  if (k >= 2) return k;
  if (di === 0) {
    pts[3 * k] = V[i];
    pts[3 * k + 1] = V[i + 1];
    pts[3 * k + 2] = V[i + 2];
    return k + 1;
  }
  if ((di < 0 && dj > 0) || (di > 0 && dj < 0)) {
    const f = di / (di - dj);
    pts[3 * k] = V[i] + (V[j] - V[i]) * f;
    pts[3 * k + 1] = V[i + 1] + (V[j + 1] - V[i + 1]) * f;
    pts[3 * k + 2] = V[i + 2] + (V[j + 2] - V[i + 2]) * f;
    return k + 1;
  }
  return k;
}

/** Section coordinates (s, t) of point X[o..] by the Gram system of U and W. */
function toST(
  P: ArrayLike<number>,
  X: ArrayLike<number>,
  o: number,
  out: Float64Array,
  oo: number,
) {
  const rx = X[o] - P[0], ry = X[o + 1] - P[1], rz = X[o + 2] - P[2];
  const uu = P[3] * P[3] + P[4] * P[4] + P[5] * P[5];
  const ww = P[6] * P[6] + P[7] * P[7] + P[8] * P[8];
  const uw = P[3] * P[6] + P[4] * P[7] + P[5] * P[8];
  const ru = rx * P[3] + ry * P[4] + rz * P[5];
  const rw = rx * P[6] + ry * P[7] + rz * P[8];
  const den = uu * ww - uw * uw;
  out[oo] = (ru * ww - rw * uw) / den;
  out[oo + 1] = (rw * uu - ru * uw) / den;
}

/** Liang–Barsky clip of segment (s0,t0)–(s1,t1) to [0,1]²; true if a clipped point has t > 0. */
function segmentHitsUnitSquareAbove(s0: number, t0: number, s1: number, t1: number): boolean {
  let lo = 0, hi = 1;
  const ds = s1 - s0, dt = t1 - t0;
  const p = [-ds, ds, -dt, dt];
  const q = [s0, 1 - s0, t0, 1 - t0];
  for (let k = 0; k < 4; k++) {
    if (p[k] === 0) {
      if (q[k] < 0) return false;
    } else {
      const r = q[k] / p[k];
      if (p[k] < 0) {
        if (r > lo) lo = r;
      } else if (r < hi) hi = r;
    }
  }
  if (lo > hi) return false;
  return Math.max(t0 + dt * lo, t0 + dt * hi) > 0;
}

/** Separating-axis test of a 2-D triangle (st[0..5]) against the unit square, inclusive. */
function triangleOverlapsUnitSquare(s: Float64Array): boolean {
  if (Math.max(s[0], s[2], s[4]) < 0 || Math.min(s[0], s[2], s[4]) > 1) return false;
  if (Math.max(s[1], s[3], s[5]) < 0 || Math.min(s[1], s[3], s[5]) > 1) return false;
  for (let e = 0; e < 3; e++) {
    const i = 2 * e, j = 2 * ((e + 1) % 3), k = 2 * ((e + 2) % 3);
    const nx = -(s[j + 1] - s[i + 1]), ny = s[j] - s[i];
    const side = nx * (s[k] - s[i]) + ny * (s[k + 1] - s[i + 1]);
    // Square corners all strictly on the far side of this edge → separated.
    let allOut = true;
    for (let cc = 0; cc < 4 && allOut; cc++) {
      const cx = cc & 1, cy = cc >> 1;
      const v = nx * (cx - s[i]) + ny * (cy - s[i + 1]);
      if (side >= 0 ? v >= 0 : v <= 0) allOut = false;
    }
    if (allOut && side !== 0) return false;
  }
  return true;
}
