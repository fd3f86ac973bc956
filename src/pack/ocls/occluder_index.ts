/**
 * Query structure over one occluder scene (spec 数据包 › OccluderPack: "解完建两级包围盒树"):
 * placements and their inverses, the instance tree (all instances, world boxes), one template tree
 * per template with more than 8 triangles (local boxes widened by a margin), and terrain block
 * boxes (terrain is not in a tree: "地形块不进树,按块线性扫").
 *
 * Two queries serve dropBlocked: all hits of a vertical column, and "does any face cross this
 * vertical section". Invertible placements move the query into the template frame; singular or
 * non-finite ones place the triangles into the world first (spec: 行列式恰为 0 或非有限).
 * @module
 */
import { buildBvh, type Bvh, queryBvh } from "./bvh.ts";
import {
  instanceTransform,
  invert3,
  placePoint,
  templateLocalVertices,
  terrainCellTriangles,
  terrainCoord,
  terrainHeight,
} from "./geometry.ts";
import { lineTriangle, triangleCrossesSection } from "./intersect.ts";
import type { OccluderScene } from "./types.ts";

/** Templates with more triangles than this get a tree (spec: 三角超过 8 个). */
export const TEMPLATE_TREE_MIN_TRIS = 8;

/**
 * Relative box margin (template-local units for triangle boxes, metres for instance boxes): the
 * spec leaves the size open ("外扩量只要盖得住舍入"); 2^-20 of the coordinate magnitude plus
 * 2^-20 absolute covers float64 rounding of the transformed queries by many orders [I].
 */
export const BOX_MARGIN = 2 ** -20;

/** Prepared query structure for one scene. */
export interface OccluderIndex {
  /** The scene it was built from. */
  scene: OccluderScene;
  /** Template vertices, local units, float64. */
  local: Float64Array;
  /** Placement matrices, 9 per instance. */
  m: Float64Array;
  /** Placement translations, 3 per instance. */
  t: Float64Array;
  /** Inverse matrices, 9 per instance (valid where det ≠ 0). */
  inv: Float64Array;
  /** Placement determinant, 0 when singular / not finite. */
  det: Float64Array;
  /** Per template: tree over its triangles, or null (≤ 8 triangles, or trees disabled). */
  tplTrees: (Bvh | null)[];
  /** Instance tree, or null when trees are disabled (brute-force reference). */
  instTree: Bvh | null;
  /** World box per instance (min xyz, max xyz). */
  instBox: Float64Array;
  /** World box per terrain block. */
  blockBox: Float64Array;
}

/** Builds the index; `useTrees = false` gives the linear-scan reference used by tests. */
export function buildOccluderIndex(scene: OccluderScene, useTrees = true): OccluderIndex {
  const N = scene.instanceCount;
  const local = templateLocalVertices(scene);
  const m = new Float64Array(9 * N), t = new Float64Array(3 * N);
  const inv = new Float64Array(9 * N), det = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    instanceTransform(scene, i, m, t);
    det[i] = invert3(m, 9 * i, inv);
  }
  const tplBox = new Float64Array(6 * scene.templateCount);
  const tplTrees: (Bvh | null)[] = [];
  for (let tp = 0; tp < scene.templateCount; tp++) {
    tplTrees.push(buildTemplateTree(scene, local, tp, tplBox, useTrees));
  }
  const instBox = new Float64Array(6 * N);
  for (let i = 0; i < N; i++) instanceBox(m, t, i, tplBox, 6 * scene.instTemplate[i], instBox);
  const instTree = useTrees && N > 0 ? buildBvh(instBox, N) : null;
  return { scene, local, m, t, inv, det, tplTrees, instTree, instBox, blockBox: blockBoxes(scene) };
}

function buildTemplateTree(
  scene: OccluderScene,
  local: Float64Array,
  tp: number,
  tplBox: Float64Array,
  useTrees: boolean,
): Bvh | null {
  const c0 = scene.tplTriStart[tp], c1 = scene.tplTriStart[tp + 1];
  const vb = scene.tplVertexStart[tp];
  const nt = c1 - c0;
  const boxes = new Float64Array(6 * nt);
  const all = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  let mag = 0;
  for (let v = 3 * vb; v < 3 * scene.tplVertexStart[tp + 1]; v++) {
    mag = Math.max(mag, Math.abs(local[v]));
  }
  const margin = BOX_MARGIN * (1 + mag);
  for (let k = 0; k < nt; k++) {
    for (let a = 0; a < 3; a++) {
      let lo = Infinity, hi = -Infinity;
      for (let j = 0; j < 3; j++) {
        const x = local[3 * (vb + scene.tplIndices[3 * (c0 + k) + j]) + a];
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
      boxes[6 * k + a] = lo - margin;
      boxes[6 * k + 3 + a] = hi + margin;
      all[a] = Math.min(all[a], lo - margin);
      all[3 + a] = Math.max(all[3 + a], hi + margin);
    }
  }
  tplBox.set(all, 6 * tp);
  return useTrees && nt > TEMPLATE_TREE_MIN_TRIS ? buildBvh(boxes, nt) : null;
}

const corner = new Float64Array(3);

function instanceBox(
  m: Float64Array,
  t: Float64Array,
  i: number,
  tplBox: Float64Array,
  tb: number,
  out: Float64Array,
): void {
  const o = 6 * i;
  out.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], o);
  if (!(tplBox[tb] <= tplBox[tb + 3])) return; // empty template: never a candidate
  let mag = 0;
  for (let c = 0; c < 8; c++) {
    placePoint(
      m,
      t,
      i,
      tplBox[tb + (c & 1 ? 3 : 0)],
      tplBox[tb + 1 + (c & 2 ? 3 : 0)],
      tplBox[tb + 2 + (c & 4 ? 3 : 0)],
      corner,
      0,
    );
    for (let a = 0; a < 3; a++) {
      const x = Number.isNaN(corner[a]) ? 0 : corner[a];
      if (Number.isNaN(corner[a])) {
        out[o + a] = -Infinity;
        out[o + 3 + a] = Infinity;
      }
      out[o + a] = Math.min(out[o + a], x);
      out[o + 3 + a] = Math.max(out[o + 3 + a], x);
      mag = Math.max(mag, Math.abs(x));
    }
  }
  const margin = BOX_MARGIN * (1 + mag);
  for (let a = 0; a < 3; a++) {
    out[o + a] -= margin;
    out[o + 3 + a] += margin;
  }
}

function blockBoxes(scene: OccluderScene): Float64Array {
  const n = scene.header.blockSamples, nn = n * n;
  const out = new Float64Array(6 * scene.blockCount);
  for (let b = 0; b < scene.blockCount; b++) {
    let lo = Infinity, hi = -Infinity;
    for (let k = b * nn; k < (b + 1) * nn; k++) {
      const h = terrainHeight(scene, k);
      lo = Math.min(lo, h);
      hi = Math.max(hi, h);
    }
    const bx = scene.blockOrigin[2 * b], bz = scene.blockOrigin[2 * b + 1];
    out[6 * b] = terrainCoord(scene, scene.header.originX, bx);
    out[6 * b + 1] = lo;
    out[6 * b + 2] = terrainCoord(scene, scene.header.originZ, bz);
    out[6 * b + 3] = terrainCoord(scene, scene.header.originX, bx + n - 1);
    out[6 * b + 4] = hi;
    out[6 * b + 5] = terrainCoord(scene, scene.header.originZ, bz + n - 1);
  }
  return out;
}

/** Growable list of column hits: height and facing (1 = up, 0 = down), in discovery order. */
export class ColumnHits {
  /** Hit heights, metres. */
  y: number[] = [];
  /** 1 for an upward-facing face, 0 for downward. */
  up: number[] = [];
  /** Removes all hits. */
  clear(): void {
    this.y.length = 0;
    this.up.length = 0;
  }
}

/** Visits the candidate instances of a world box (tree or linear scan). */
function forInstances(
  ix: OccluderIndex,
  q: Float64Array,
  fn: (i: number) => boolean | void,
): boolean {
  if (ix.instTree) return queryBvh(ix.instTree, q, fn);
  for (let i = 0; i < ix.scene.instanceCount; i++) {
    const o = 6 * i, b = ix.instBox;
    if (b[o] > q[3] || b[o + 3] < q[0] || b[o + 1] > q[4] || b[o + 4] < q[1]) continue;
    if (b[o + 2] > q[5] || b[o + 5] < q[2]) continue;
    if (fn(i)) return true;
  }
  return false;
}

/** Visits template triangles (index into tplTriStart space) whose local box meets `q`. */
function forTemplateTris(
  ix: OccluderIndex,
  tp: number,
  q: Float64Array,
  fn: (tri: number) => boolean | void,
): boolean {
  const tree = ix.tplTrees[tp];
  const c0 = ix.scene.tplTriStart[tp];
  if (tree) return queryBvh(tree, q, (k) => fn(c0 + k));
  for (let k = c0; k < ix.scene.tplTriStart[tp + 1]; k++) if (fn(k)) return true;
  return false;
}

const qBox = new Float64Array(6);
const lBox = new Float64Array(6);
const lo3 = new Float64Array(3);
const ld3 = new Float64Array(3);
const hit = new Float64Array(2);
const wTri = new Float64Array(18);
const UP = new Float64Array([0, 1, 0]);

/**
 * All faces met by the vertical line at (x, z) with heights in [y0, y1]: appends to `out`. Order:
 * instances in query order, then terrain blocks; callers only take maxima / existence.
 */
export function columnHits(
  ix: OccluderIndex,
  x: number,
  z: number,
  y0: number,
  y1: number,
  out: ColumnHits,
): void {
  qBox.set([x, y0, z, x, y1, z]);
  forInstances(ix, qBox, (i) => {
    if (ix.det[i] !== 0) columnLocal(ix, i, x, z, y0, y1, out);
    else columnWorld(ix, i, x, z, y0, y1, out);
  });
  columnTerrain(ix, x, z, y0, y1, out);
}

function columnLocal(
  ix: OccluderIndex,
  i: number,
  x: number,
  z: number,
  y0: number,
  y1: number,
  out: ColumnHits,
): void {
  const M = ix.inv, o = 9 * i, T = ix.t;
  const rx = x - T[3 * i], ry = 0 - T[3 * i + 1], rz = z - T[3 * i + 2];
  lo3[0] = M[o] * rx + M[o + 1] * ry + M[o + 2] * rz;
  lo3[1] = M[o + 3] * rx + M[o + 4] * ry + M[o + 5] * rz;
  lo3[2] = M[o + 6] * rx + M[o + 7] * ry + M[o + 8] * rz;
  ld3[0] = M[o + 1];
  ld3[1] = M[o + 4];
  ld3[2] = M[o + 7];
  for (let a = 0; a < 3; a++) {
    const p = lo3[a] + y0 * ld3[a], q = lo3[a] + y1 * ld3[a];
    lBox[a] = Math.min(p, q);
    lBox[3 + a] = Math.max(p, q);
  }
  const tp = ix.scene.instTemplate[i];
  const vb = 3 * ix.scene.tplVertexStart[tp];
  const idx = ix.scene.tplIndices;
  forTemplateTris(ix, tp, lBox, (k) => {
    const a = vb + 3 * idx[3 * k], b = vb + 3 * idx[3 * k + 1], c = vb + 3 * idx[3 * k + 2];
    if (lineTriangle(lo3, ld3, ix.local, a, b, c, hit)) pushHit(hit, y0, y1, out);
  });
}

/**
 * Facing: a face is "up" when its outward normal, carried by the normal matrix M^−T, has y > 0:
 * (M^−T n)·ŷ = n·(M^−1 ŷ) = n·d_local = −det_MT. So up ⇔ det_MT < 0, in the local frame and (with
 * M = I) in world space alike. A mirrored placement (det M < 0) keeps its outward faces outward,
 * although the placed vertices wind the other way [I].
 */
function pushHit(h: Float64Array, y0: number, y1: number, out: ColumnHits): void {
  const y = h[0];
  if (!(y >= y0 && y <= y1)) return;
  out.y.push(y);
  out.up.push(h[1] < 0 ? 1 : 0);
}

function columnWorld(
  ix: OccluderIndex,
  i: number,
  x: number,
  z: number,
  y0: number,
  y1: number,
  out: ColumnHits,
): void {
  lo3[0] = x;
  lo3[1] = 0;
  lo3[2] = z;
  forWorldTris(ix, i, () => {
    if (lineTriangle(lo3, UP, wTri, 0, 3, 6, hit)) pushHit(hit, y0, y1, out);
  });
}

/**
 * Places every triangle of instance i into `wTri[0..8]` and calls fn. Used for singular
 * placements (det = 0, no inverse): facing then follows the placed winding, since a flattened
 * placement has no normal matrix [I].
 */
function forWorldTris(ix: OccluderIndex, i: number, fn: () => boolean | void): boolean {
  const s = ix.scene, tp = s.instTemplate[i], vb = s.tplVertexStart[tp];
  for (let k = s.tplTriStart[tp]; k < s.tplTriStart[tp + 1]; k++) {
    for (let j = 0; j < 3; j++) {
      const v = 3 * (vb + s.tplIndices[3 * k + j]);
      placePoint(ix.m, ix.t, i, ix.local[v], ix.local[v + 1], ix.local[v + 2], wTri, 3 * j);
    }
    if (fn()) return true;
  }
  return false;
}

function columnTerrain(
  ix: OccluderIndex,
  x: number,
  z: number,
  y0: number,
  y1: number,
  out: ColumnHits,
): void {
  lo3[0] = x;
  lo3[1] = 0;
  lo3[2] = z;
  qBox.set([x, y0, z, x, y1, z]);
  forTerrainCells(ix, qBox, () => {
    if (lineTriangle(lo3, UP, wTri, 0, 3, 6, hit)) pushHit(hit, y0, y1, out);
    if (lineTriangle(lo3, UP, wTri, 9, 12, 15, hit)) pushHit(hit, y0, y1, out);
  });
}

/**
 * Visits the non-hole cells of every block that may meet box q, with the cell's two triangles in
 * `wTri`. The cell range is widened by one cell each side, so a point that rounding puts on the
 * wrong side of a cell border is still tested against both cells.
 */
function forTerrainCells(ix: OccluderIndex, q: Float64Array, fn: () => boolean | void): boolean {
  const s = ix.scene, n = s.header.blockSamples, w = s.header.cellWidth;
  const bb = ix.blockBox;
  for (let b = 0; b < s.blockCount; b++) {
    const o = 6 * b;
    if (bb[o] > q[3] || bb[o + 3] < q[0] || bb[o + 1] > q[4] || bb[o + 4] < q[1]) continue;
    if (bb[o + 2] > q[5] || bb[o + 5] < q[2]) continue;
    const cx0 = clampCell(Math.floor((q[0] - bb[o]) / w) - 1, n);
    const cx1 = clampCell(Math.floor((q[3] - bb[o]) / w) + 1, n);
    const cz0 = clampCell(Math.floor((q[2] - bb[o + 2]) / w) - 1, n);
    const cz1 = clampCell(Math.floor((q[5] - bb[o + 2]) / w) + 1, n);
    for (let cz = cz0; cz <= cz1; cz++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        if (terrainCellTriangles(s, b, cx, cz, wTri) && fn()) return true;
      }
    }
  }
  return false;
}

function clampCell(c: number, n: number): number {
  return c < 0 ? 0 : c > n - 2 ? n - 2 : c;
}

const sec = new Float64Array(9);
const secL = new Float64Array(9);

/**
 * True if any face crosses the vertical section above the segment (ax, az)–(bx, bz) between
 * heights y0 and y1 (see {@link triangleCrossesSection} for the boundary rule).
 */
export function sectionCrossed(
  ix: OccluderIndex,
  ax: number,
  az: number,
  bx: number,
  bz: number,
  y0: number,
  y1: number,
): boolean {
  sec.set([ax, y0, az, bx - ax, 0, bz - az, 0, y1 - y0, 0]);
  const q = new Float64Array([
    Math.min(ax, bx),
    y0,
    Math.min(az, bz),
    Math.max(ax, bx),
    y1,
    Math.max(az, bz),
  ]);
  const inst = forInstances(
    ix,
    q,
    (i) => ix.det[i] !== 0 ? sectionLocal(ix, i) : sectionWorld(ix, i),
  );
  if (inst) return true;
  return forTerrainCells(
    ix,
    q,
    () =>
      triangleCrossesSection(sec, wTri, 0, 3, 6) || triangleCrossesSection(sec, wTri, 9, 12, 15),
  );
}

function sectionLocal(ix: OccluderIndex, i: number): boolean {
  const M = ix.inv, o = 9 * i, T = ix.t;
  const rx = sec[0] - T[3 * i], ry = sec[1] - T[3 * i + 1], rz = sec[2] - T[3 * i + 2];
  for (let r = 0; r < 3; r++) {
    secL[r] = M[o + 3 * r] * rx + M[o + 3 * r + 1] * ry + M[o + 3 * r + 2] * rz;
    secL[3 + r] = M[o + 3 * r] * sec[3] + M[o + 3 * r + 1] * sec[4] + M[o + 3 * r + 2] * sec[5];
    secL[6 + r] = M[o + 3 * r] * sec[6] + M[o + 3 * r + 1] * sec[7] + M[o + 3 * r + 2] * sec[8];
  }
  for (let a = 0; a < 3; a++) {
    const p0 = secL[a], p1 = p0 + secL[3 + a], p2 = p0 + secL[6 + a], p3 = p1 + secL[6 + a];
    lBox[a] = Math.min(p0, p1, p2, p3);
    lBox[3 + a] = Math.max(p0, p1, p2, p3);
  }
  const tp = ix.scene.instTemplate[i];
  const vb = 3 * ix.scene.tplVertexStart[tp];
  const idx = ix.scene.tplIndices;
  return forTemplateTris(ix, tp, lBox, (k) =>
    triangleCrossesSection(
      secL,
      ix.local,
      vb + 3 * idx[3 * k],
      vb + 3 * idx[3 * k + 1],
      vb + 3 * idx[3 * k + 2],
    ));
}

function sectionWorld(ix: OccluderIndex, i: number): boolean {
  return forWorldTris(ix, i, () => triangleCrossesSection(sec, wTri, 0, 3, 6));
}
