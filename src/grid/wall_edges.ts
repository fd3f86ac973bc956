/**
 * Wall-edge collection (spec 预烘场 › 标墙, BakeWalls; 建窗 › 墙段): every boundary edge of a
 * walkable triangle is a wall. One implementation for the bake, which stamps the walls into the
 * spans, and the planner, which keeps the region's walls as blocker segments (formulas #13: the
 * FWAL key t·3+k).
 * @module
 */

import { kCS, kWallBoxPad } from "./constants.ts";

/** The triangle mesh the walls come from: the bake's RasterMesh or the planner's zone mesh. */
export interface EdgeMesh {
  /** Vertex coordinates, 3 per vertex: x, y (px), height (m). */
  verts: Float32Array | Float64Array;
  /** Vertex indices, 3 per triangle. */
  tris: Uint32Array | Int32Array;
  /** Optional walkable mark per triangle; 0 = no walls from it. */
  walkable?: Uint8Array;
}

/** A cell window in px: origin and size in cells of kCS. */
export interface PxWindow {
  /** Origin x, px. */
  x0: number;
  /** Origin y, px. */
  y0: number;
  /** Width, cells. */
  nx: number;
  /** Height, cells. */
  ny: number;
}

/** Wall edges, columnar: edge i is `(ax, ay, ah, bx, by, bh) = xyz[6i .. 6i+5]`, id tri·3+k. */
export interface WallEdges {
  /** Number of edges. */
  n: number;
  /** Endpoints: ax, ay (px), ah (m), bx, by (px), bh (m) per edge. */
  xyz: Float64Array;
  /** Edge key `3·t + k` (formulas #13: the FWAL key). */
  key: Int32Array;
}

/**
 * Collects the boundary edges (BakeWalls): edge k of walkable triangle t (vertex k → k+1) whose
 * bit k of `boundary[t]` is set, when the edge's bounding box meets the window grown by 4 px.
 * Non-walkable triangles give no edges. Edges come out in (t, k) order. With `index` only the
 * triangles it lists near the window are looked at (the same edges in the same order).
 */
export function collectWallEdges(
  mesh: EdgeMesh,
  boundary: Uint8Array,
  win: PxWindow,
  index?: WallEdgeIndex,
): WallEdges {
  const lx = win.x0 - kWallBoxPad, hx = win.x0 + win.nx * kCS + kWallBoxPad;
  const ly = win.y0 - kWallBoxPad, hy = win.y0 + win.ny * kCS + kWallBoxPad;
  const xyz: number[] = [], key: number[] = [];
  const v = mesh.verts, nt = Math.floor(mesh.tris.length / 3);
  const cand = index ? indexCandidates(index, lx, ly, hx, hy) : null;
  let t = 0;
  const take = (k: number, a: number, b: number) => {
    if (Math.max(v[a], v[b]) < lx || Math.min(v[a], v[b]) > hx) return;
    if (Math.max(v[a + 1], v[b + 1]) < ly || Math.min(v[a + 1], v[b + 1]) > hy) return;
    xyz.push(v[a], v[a + 1], v[a + 2], v[b], v[b + 1], v[b + 2]);
    key.push(3 * t + k);
  };
  for (let q = 0, nq = cand ? cand.length : nt; q < nq; q++) {
    t = cand ? cand[q] : q;
    boundaryEdgesOf(mesh, boundary, t, take);
  }
  return { n: key.length, xyz: Float64Array.from(xyz), key: Int32Array.from(key) };
}

/**
 * Calls `f(k, a, b)` for each boundary edge k of triangle t (vertex k → k+1, `a` and `b` their
 * offsets into the vertex array): the edges whose bit k of `boundary[t]` is set, none for a
 * non-walkable triangle (BakeWalls).
 */
function boundaryEdgesOf(
  mesh: EdgeMesh,
  boundary: Uint8Array,
  t: number,
  f: (k: number, a: number, b: number) => void,
): void {
  if (mesh.walkable !== undefined && mesh.walkable[t] === 0) return;
  const bits = boundary[t];
  if (bits === 0) return;
  for (let k = 0; k < 3; k++) {
    if (((bits >> k) & 1) === 0) continue;
    f(k, 3 * mesh.tris[3 * t + k], 3 * mesh.tris[3 * t + ((k + 1) % 3)]);
  }
}

/** Triangles with a boundary edge, bucketed by the edges' bounding boxes (uniform grid, px). */
export interface WallEdgeIndex {
  /** Grid origin, px. */
  x0: number;
  /** Grid origin, px. */
  y0: number;
  /** Bucket side, px. */
  side: number;
  /** Buckets per row and rows. */
  nx: number;
  /** Rows. */
  ny: number;
  /** CSR: bucket b holds `tris[start[b] .. start[b+1]]`, ascending. */
  start: Int32Array;
  /** Triangle ids. */
  tris: Int32Array;
}

/**
 * Buckets every walkable triangle with a boundary bit under the buckets its boundary edges'
 * bounding boxes meet, so a window asks only for the triangles near it ({@link collectWallEdges}).
 */
export function wallEdgeIndex(mesh: EdgeMesh, boundary: Uint8Array, side = 16): WallEdgeIndex {
  const v = mesh.verts, nt = Math.floor(mesh.tris.length / 3);
  const boxes: number[] = []; // t, x0, y0, x1, y1 per boundary edge
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let t = 0;
  const box = (_k: number, a: number, b: number) => {
    const x0 = Math.min(v[a], v[b]), x1 = Math.max(v[a], v[b]);
    const y0 = Math.min(v[a + 1], v[b + 1]), y1 = Math.max(v[a + 1], v[b + 1]);
    boxes.push(t, x0, y0, x1, y1);
    minX = Math.min(minX, x0), minY = Math.min(minY, y0);
    maxX = Math.max(maxX, x1), maxY = Math.max(maxY, y1);
  };
  for (t = 0; t < nt; t++) boundaryEdgesOf(mesh, boundary, t, box);
  if (boxes.length === 0) {
    minX =
      minY =
      maxX =
      maxY =
        0;
  }
  const nx = Math.floor((maxX - minX) / side) + 1, ny = Math.floor((maxY - minY) / side) + 1;
  const start = new Int32Array(nx * ny + 1);
  const each = (o: number, f: (b: number) => void) => {
    const bx0 = Math.floor((boxes[o + 1] - minX) / side),
      bx1 = Math.floor((boxes[o + 3] - minX) / side);
    const by0 = Math.floor((boxes[o + 2] - minY) / side),
      by1 = Math.floor((boxes[o + 4] - minY) / side);
    for (let y = by0; y <= by1; y++) for (let x = bx0; x <= bx1; x++) f(y * nx + x);
  };
  // A triangle with two boundary edges in one bucket is listed twice there; candidates are
  // de-duplicated after sorting.
  for (let o = 0; o < boxes.length; o += 5) each(o, (b) => start[b + 1]++);
  for (let b = 0; b < nx * ny; b++) start[b + 1] += start[b];
  const fill = start.slice(0, nx * ny), tris = new Int32Array(start[nx * ny]);
  for (let o = 0; o < boxes.length; o += 5) each(o, (b) => (tris[fill[b]++] = boxes[o]));
  return { x0: minX, y0: minY, side, nx, ny, start, tris };
}

/** The index's triangles in the buckets meeting the box, ascending and distinct. */
function indexCandidates(ix: WallEdgeIndex, lx: number, ly: number, hx: number, hy: number) {
  const cl = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
  const bx0 = Math.floor((lx - ix.x0) / ix.side), bx1 = Math.floor((hx - ix.x0) / ix.side);
  const by0 = Math.floor((ly - ix.y0) / ix.side), by1 = Math.floor((hy - ix.y0) / ix.side);
  const out: number[] = [];
  if (bx1 < 0 || by1 < 0 || bx0 >= ix.nx || by0 >= ix.ny) return out;
  for (let y = cl(by0, ix.ny); y <= cl(by1, ix.ny); y++) {
    for (let x = cl(bx0, ix.nx); x <= cl(bx1, ix.nx); x++) {
      const b = y * ix.nx + x;
      for (let q = ix.start[b]; q < ix.start[b + 1]; q++) out.push(ix.tris[q]);
    }
  }
  out.sort((a, b) => a - b);
  let m = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[m++] = out[i];
  out.length = m;
  return out;
}
