/**
 * Small planar geometry shared by zone cleaning and snapping. Vertices are flat `u, v, h`
 * triples (px, px, m) in a Float32Array; all arithmetic here is double unless a function says
 * it rounds to float32. No per-call allocation: results go into caller-owned scratch arrays.
 * @module
 */

/** Float32 centroid of one axis exactly as the pack computes it: `((a+b)+c)/3.0f` (BNAV 三角). */
export function centroidF32(a: number, b: number, c: number): number {
  const f = Math.fround;
  return f(f(f(f(a) + f(b)) + f(c)) / 3);
}

/** Mean height of triangle t: `((h0+h1)+h2)/3` in double (吸附: H is the vertex-height mean). */
export function triangleHeight(vertices: Float32Array, tris: Uint32Array, t: number): number {
  const a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
  return (vertices[3 * a + 2] + vertices[3 * b + 2] + vertices[3 * c + 2]) / 3;
}

/** Twice the signed planar area of (a, b, c): `(B−A)×(C−A)`; positive means CCW. */
export function cross2(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/**
 * Closest point of segment [a, b] to p, written to `out[0..1]`; returns the squared distance.
 * A zero-length segment yields its start point.
 */
export function closestOnSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  out: Float64Array,
): number {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const qx = ax + t * dx, qy = ay + t * dy;
  out[0] = qx;
  out[1] = qy;
  return (px - qx) * (px - qx) + (py - qy) * (py - qy);
}

/**
 * Closest point of triangle t (projected on the plane) to p, written to `out[0..1]`; returns
 * the planar distance. A point inside (or on) a triangle of non-zero area is its own closest
 * point; otherwise the nearest of the three edges wins (the first edge on a tie), which also
 * covers triangles that are flat in plan (vertical walls).
 */
export function closestOnTriangle(
  vertices: Float32Array,
  tris: Uint32Array,
  t: number,
  px: number,
  py: number,
  out: Float64Array,
): number {
  const a = 3 * tris[3 * t], b = 3 * tris[3 * t + 1], c = 3 * tris[3 * t + 2];
  const ax = vertices[a], ay = vertices[a + 1];
  const bx = vertices[b], by = vertices[b + 1];
  const cx = vertices[c], cy = vertices[c + 1];
  const area = cross2(ax, ay, bx, by, cx, cy);
  if (area !== 0) {
    const s = area > 0 ? 1 : -1;
    const w0 = s * cross2(ax, ay, bx, by, px, py);
    const w1 = s * cross2(bx, by, cx, cy, px, py);
    const w2 = s * cross2(cx, cy, ax, ay, px, py);
    if (w0 >= 0 && w1 >= 0 && w2 >= 0) {
      out[0] = px;
      out[1] = py;
      return 0;
    }
  }
  let best = closestOnSegment(px, py, ax, ay, bx, by, out);
  let qx = out[0], qy = out[1];
  const d1 = closestOnSegment(px, py, bx, by, cx, cy, out);
  if (d1 < best) {
    best = d1;
    qx = out[0];
    qy = out[1];
  }
  const d2 = closestOnSegment(px, py, cx, cy, ax, ay, out);
  if (d2 < best) {
    best = d2;
    qx = out[0];
    qy = out[1];
  }
  out[0] = qx;
  out[1] = qy;
  return Math.sqrt(best);
}

const SCRATCH = new Float64Array(2);

/** Planar distance between segments [p0, p1] and [q0, q1] (0 when they cross or touch). */
export function segmentDistance(
  p0x: number,
  p0y: number,
  p1x: number,
  p1y: number,
  q0x: number,
  q0y: number,
  q1x: number,
  q1y: number,
): number {
  const d1 = cross2(q0x, q0y, q1x, q1y, p0x, p0y);
  const d2 = cross2(q0x, q0y, q1x, q1y, p1x, p1y);
  const d3 = cross2(p0x, p0y, p1x, p1y, q0x, q0y);
  const d4 = cross2(p0x, p0y, p1x, p1y, q1x, q1y);
  // Proper crossing: the endpoints of each segment lie strictly on opposite sides of the other.
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return 0;
  }
  // Otherwise the minimum is reached at an endpoint (touching cases give 0 here as well).
  let best = closestOnSegment(p0x, p0y, q0x, q0y, q1x, q1y, SCRATCH);
  best = Math.min(best, closestOnSegment(p1x, p1y, q0x, q0y, q1x, q1y, SCRATCH));
  best = Math.min(best, closestOnSegment(q0x, q0y, p0x, p0y, p1x, p1y, SCRATCH));
  best = Math.min(best, closestOnSegment(q1x, q1y, p0x, p0y, p1x, p1y, SCRATCH));
  return Math.sqrt(best);
}

/**
 * Closest distance between the edges of triangles s and t: the 3×3 edge pairs of
 * isTraversableLink rule 4 (formulas.md #23), planar, px.
 */
export function triangleEdgeGap(
  vertices: Float32Array,
  trisS: Uint32Array,
  s: number,
  trisT: Uint32Array,
  t: number,
): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const a = 3 * trisS[3 * s + i], b = 3 * trisS[3 * s + (i + 1) % 3];
    for (let j = 0; j < 3; j++) {
      const c = 3 * trisT[3 * t + j], d = 3 * trisT[3 * t + (j + 1) % 3];
      const g = segmentDistance(
        vertices[a],
        vertices[a + 1],
        vertices[b],
        vertices[b + 1],
        vertices[c],
        vertices[c + 1],
        vertices[d],
        vertices[d + 1],
      );
      if (g < best) best = g;
    }
  }
  return best;
}
