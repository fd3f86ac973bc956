/**
 * The reference build's waypoint sampling index (formulas.md #138 "Ref differs"): which zone
 * triangles a drivability sample "lies inside" depends on the reference's spatial index, not only
 * on geometry.
 *
 * The rule, as #138 states it:
 * - each triangle is registered in every 4-px bin (`kIndexBinSize`) its planar bounding box
 *   touches (`⌊min/4⌋ … ⌊max/4⌋` in x and y);
 * - a sample's candidates are the triangles of every bin touched by `[x−1, x+1] × [y−1, y+1]`
 *   (`kSegmentWalkSnapRadius`), bin x outer, bin y inner, each bin ascending, with repeats;
 * - a candidate contains the sample unless some `d_k = (p−b)×(a−b)` over the edges (0,1), (1,2),
 *   (2,0) is `< −1e-5` and some is `> 1e-5` — no box test, so a triangle degenerate in plan (a
 *   wall face) contains points along its whole line, as far as the bins offer it;
 * - the first candidate wins every tie (strict `<`).
 *
 * Walking the 4-px bins as the reference does costs a few times navscope's own index on dense
 * meshes (a bin of the bridges mesh holds dozens of triangles). This module answers the same
 * question through a finer bucket grid: a triangle is bucketed over the box where it can both be
 * offered (its bins within 1 px of the sample) and contain the sample (the tolerance-widened
 * triangle), and a candidate found there is ranked by the key the reference's list gives it:
 * its first offering bin — `(max(sx0, tx0), max(sy0, ty0))`, the lexicographically first bin of
 * the intersection of the sample's bin range and the triangle's — then its index. Repeats never
 * change the answer (a later copy only ties its first one). A triangle near-degenerate in plan (a
 * wall face) is bucketed only along the strip around its line that holds its tolerance region.
 * tests/plan_waypoints_index_property_test.ts checks it sample by sample against a brute force
 * over the 4-px bins.
 * @module
 */
import type { ZoneClean } from "./zone_clean.ts";
import type { TriangleBuckets } from "./snap.ts";

/** kIndexBinSize: the reference index's bin side, px (formulas.md #138). */
export const kIndexBinSize = 4;
/** kSegmentWalkSnapRadius: half-side of a sample's candidate square, px (formulas.md #138). */
export const kSegmentWalkSnapRadius = 1;
/** The point test's tolerance on an edge's cross product (formulas.md #138). */
export const kContainEps = 1e-5;

/**
 * Below this twice-area (px²) a triangle's tolerance region is not bounded by its widened box
 * (near-degenerate in plan: the region follows its line); it is then bucketed over every point
 * its bins can be offered to. 100 × kContainEps keeps the widened-box bound far from rounding.
 */
const kBoundedArea2 = 100 * kContainEps;
/** Buckets per triangle the fine grid aims at (as snap.ts buildDriveBuckets). */
const kBucketsPerTri = 4;
/** Smallest fine bucket side, px: the line samples' spacing. */
const kMinCell = 0.5;
/** Largest fine bucket side, px: the reference's own bin. */
const kMaxCell = kIndexBinSize;
/** Padding of every bucketed box, px: the exact tests decide, the box only has to cover. */
const kPad = 1e-6;

/**
 * The reference index (see the module doc): per-triangle bins and means, and a fine grid laid out
 * as the snap's triangle buckets (cell, origin, CSR `start`/`items`, ascending within a bucket).
 */
export interface RefDriveIndex extends Omit<TriangleBuckets, "seen" | "stamp"> {
  /** Per triangle the reference's bin range `bx0, by0, bx1, by1` (4-px bins, absolute). */
  bins: Int32Array;
  /** Per triangle its mean vertex height (the sample's height, formulas.md #138). */
  mean: Float64Array;
}

/** The 4-px bin holding coordinate `v` (division by 4 is exact, so this is the reference's). */
export function refBin(v: number): number {
  return Math.floor(v / kIndexBinSize);
}

/**
 * The reference's containment test (formulas.md #138 "Ref differs"): inside unless some edge's
 * `d_k = (p−b)×(a−b)` is `< −1e-5` and another's `> 1e-5`. No box test.
 */
export function refContains(zc: ZoneClean, t: number, x: number, y: number): boolean {
  const v = zc.vertices, tr = zc.tris;
  const i0 = 3 * tr[3 * t], i1 = 3 * tr[3 * t + 1], i2 = 3 * tr[3 * t + 2];
  const ax = v[i0], ay = v[i0 + 1], bx = v[i1], by = v[i1 + 1], cx = v[i2], cy = v[i2 + 1];
  const d0 = (x - bx) * (ay - by) - (y - by) * (ax - bx);
  const d1 = (x - cx) * (by - cy) - (y - cy) * (bx - cx);
  const d2 = (x - ax) * (cy - ay) - (y - ay) * (cx - ax);
  const neg = d0 < -kContainEps || d1 < -kContainEps || d2 < -kContainEps;
  const pos = d0 > kContainEps || d1 > kContainEps || d2 > kContainEps;
  return !(neg && pos);
}

/** Builds the reference index of every triangle of the cleaned zone mesh (walkable or not). */
export function buildRefDriveIndex(zc: ZoneClean): RefDriveIndex {
  const { vertices: v, tris: tr, triCount: n } = zc;
  const bins = new Int32Array(4 * n), mean = new Float64Array(n), box = new Float64Array(4 * n);
  // Per triangle the strip `|nx·x + ny·y − c| ≤ w` holding its tolerance region (w < 0: none).
  const strip = new Float64Array(4 * n).fill(-1);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let mx0 = Infinity, my0 = Infinity, mx1 = -Infinity, my1 = -Infinity;
  for (let t = 0; t < n; t++) {
    const i0 = 3 * tr[3 * t], i1 = 3 * tr[3 * t + 1], i2 = 3 * tr[3 * t + 2];
    const ax = v[i0], ay = v[i0 + 1], bx = v[i1], by = v[i1 + 1], cx = v[i2], cy = v[i2 + 1];
    mean[t] = (v[i0 + 2] + v[i1 + 2] + v[i2 + 2]) / 3;
    const lx = Math.min(ax, bx, cx), hx = Math.max(ax, bx, cx);
    const ly = Math.min(ay, by, cy), hy = Math.max(ay, by, cy);
    (mx0 = Math.min(mx0, lx)), (my0 = Math.min(my0, ly));
    (mx1 = Math.max(mx1, hx)), (my1 = Math.max(my1, hy));
    const o = 4 * t;
    (bins[o] = refBin(lx)), (bins[o + 1] = refBin(ly));
    (bins[o + 2] = refBin(hx)), (bins[o + 3] = refBin(hy));
    // Where the bins can offer t: floor((x−1)/4) ≤ bx1 and floor((x+1)/4) ≥ bx0.
    const r = kSegmentWalkSnapRadius;
    let x0 = kIndexBinSize * bins[o] - r, x1 = kIndexBinSize * (bins[o + 2] + 1) + r;
    let y0 = kIndexBinSize * bins[o + 1] - r, y1 = kIndexBinSize * (bins[o + 3] + 1) + r;
    const s = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    if (s > kBoundedArea2) {
      // Where t can contain a point: with twice-area S the tolerance keeps every barycentric
      // coordinate ≥ −e (e = ε/S, doubled for rounding), so the point stays within the box
      // widened by 2e per side of its extent (3e kept for margin).
      const e = (3 * 2 * kContainEps) / s;
      (x0 = Math.max(x0, lx - e * (hx - lx))), (x1 = Math.min(x1, hx + e * (hx - lx)));
      (y0 = Math.max(y0, ly - e * (hy - ly))), (y1 = Math.min(y1, hy + e * (hy - ly)));
    } else {
      // Near-degenerate in plan (a wall face): the three d_k sum to ±S, and all are ≥ −ε (or
      // all ≤ ε), so the longest edge's d lies in [−ε, S + 2ε]: the point is within
      // (S + 2ε)/L of that edge's line (3ε kept for rounding). Its buckets follow the line.
      const [px, py, qx, qy] = longestEdge(ax, ay, bx, by, cx, cy);
      const L = Math.hypot(qx - px, qy - py);
      if (L > 0) {
        const nx = -(qy - py) / L, ny = (qx - px) / L;
        strip[o] = nx, strip[o + 1] = ny, strip[o + 2] = nx * px + ny * py;
        strip[o + 3] = (s + 3 * kContainEps) / L + kPad;
      }
    }
    (box[o] = x0 - kPad), (box[o + 1] = y0 - kPad), (box[o + 2] = x1 + kPad);
    box[o + 3] = y1 + kPad;
    (minX = Math.min(minX, box[o])), (minY = Math.min(minY, box[o + 1]));
    (maxX = Math.max(maxX, box[o + 2])), (maxY = Math.max(maxY, box[o + 3]));
  }
  if (!(minX <= maxX)) [minX, maxX, minY, maxY, mx0, mx1, my0, my1] = [0, 0, 0, 0, 0, 0, 0, 0];
  // The cell as snap.ts buildDriveBuckets picks it (about kBucketsPerTri buckets per triangle).
  const area = (mx1 - mx0 + 1) * (my1 - my0 + 1);
  const side = Math.sqrt(area / Math.max(1, kBucketsPerTri * n));
  const cell = Math.min(kMaxCell, Math.max(kMinCell, side));
  const x0 = Math.floor(minX / cell) * cell, y0 = Math.floor(minY / cell) * cell;
  const nx = Math.floor((maxX - x0) / cell) + 1, ny = Math.floor((maxY - y0) / cell) + 1;
  const { start, items } = bucketBoxes(box, strip, n, x0, y0, cell, nx, ny);
  return { bins, mean, cell, x0, y0, nx, ny, start, items };
}

/** The longest edge of a triangle as `px, py, qx, qy`. */
function longestEdge(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): [number, number, number, number] {
  const ab = (bx - ax) ** 2 + (by - ay) ** 2, bc = (cx - bx) ** 2 + (cy - by) ** 2;
  const ca = (ax - cx) ** 2 + (ay - cy) ** 2;
  if (ab >= bc && ab >= ca) return [ax, ay, bx, by];
  return bc >= ca ? [bx, by, cx, cy] : [cx, cy, ax, ay];
}

/**
 * CSR buckets of the boxes, each cut to its strip where it has one (counting sort, so each
 * bucket lists its triangles ascending).
 */
function bucketBoxes(
  box: Float64Array,
  strip: Float64Array,
  n: number,
  x0: number,
  y0: number,
  cell: number,
  nx: number,
  ny: number,
): { start: Uint32Array; items: Uint32Array } {
  const start = new Uint32Array(nx * ny + 1), fill = new Uint32Array(nx * ny);
  let items = new Uint32Array(0);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
      fill.set(start.subarray(0, nx * ny));
      items = new Uint32Array(start[nx * ny]);
    }
    for (let t = 0; t < n; t++) {
      const o = 4 * t;
      const r0 = clamp(Math.floor((box[o + 1] - y0) / cell), ny);
      const r1 = clamp(Math.floor((box[o + 3] - y0) / cell), ny);
      for (let by = r0; by <= r1; by++) {
        let lo = box[o], hi = box[o + 2];
        const w = strip[o + 3];
        if (w >= 0) {
          // The strip's x-range over this row's y-range.
          const sx = strip[o], sy = strip[o + 1], c = strip[o + 2];
          const ya = Math.max(box[o + 1], y0 + by * cell);
          const yb = Math.min(box[o + 3], y0 + (by + 1) * cell);
          const pad = kPad + cell * 1e-9;
          if (Math.abs(sx) > 1e-9) {
            const xa = (c - w - sy * ya) / sx, xb = (c + w - sy * ya) / sx;
            const xc = (c - w - sy * yb) / sx, xd = (c + w - sy * yb) / sx;
            lo = Math.max(lo, Math.min(xa, xb, xc, xd) - pad);
            hi = Math.min(hi, Math.max(xa, xb, xc, xd) + pad);
            if (lo > hi) continue;
          } else {
            // A horizontal line: |sy| ≈ 1, the strip is y ∈ [(c − w)/sy, (c + w)/sy].
            const ua = (c - w) / sy, ub = (c + w) / sy;
            if (Math.max(ua, ub) + pad < ya || Math.min(ua, ub) - pad > yb) continue;
          }
        }
        const c0 = clamp(Math.floor((lo - x0) / cell), nx),
          c1 = clamp(Math.floor((hi - x0) / cell), nx);
        for (let bx = c0; bx <= c1; bx++) {
          if (pass === 0) start[by * nx + bx + 1]++;
          else items[fill[by * nx + bx]++] = t;
        }
      }
    }
  }
  return { start, items };
}

function clamp(i: number, n: number): number {
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/**
 * The sample's height under the reference rule: among the triangles the 4-px bins offer to
 * (x, y) that contain it, the first (in the reference's candidate order) nearest to `prev`, or
 * the first lowest when `prev` is null. Returns the triangle (−1: none); its height is
 * `idx.mean[t]`.
 */
export function refSampleTriangle(
  zc: ZoneClean,
  idx: RefDriveIndex,
  x: number,
  y: number,
  prev: number | null,
): number {
  const fx = Math.floor((x - idx.x0) / idx.cell), fy = Math.floor((y - idx.y0) / idx.cell);
  if (fx < 0 || fy < 0 || fx >= idx.nx || fy >= idx.ny) return -1;
  const r = kSegmentWalkSnapRadius;
  const sx0 = refBin(x - r), sx1 = refBin(x + r), sy0 = refBin(y - r), sy1 = refBin(y + r);
  const bins = idx.bins, mean = idx.mean, k = fy * idx.nx + fx;
  let best = -1, bd = Infinity, bkx = 0, bky = 0;
  for (let q = idx.start[k], e = idx.start[k + 1]; q < e; q++) {
    const t = idx.items[q], o = 4 * t;
    const tx0 = bins[o], ty0 = bins[o + 1];
    if (tx0 > sx1 || ty0 > sy1 || bins[o + 2] < sx0 || bins[o + 3] < sy0) continue;
    if (!refContains(zc, t, x, y)) continue;
    const d = prev === null ? mean[t] : Math.abs(mean[t] - prev);
    const kx = tx0 > sx0 ? tx0 : sx0, ky = ty0 > sy0 ? ty0 : sy0;
    // The items ascend, so an equal key (kx, ky) keeps the earlier (lower) triangle.
    if (best < 0 || d < bd || (d === bd && (kx < bkx || (kx === bkx && ky < bky)))) {
      (best = t), (bd = d), (bkx = kx), (bky = ky);
    }
  }
  return best;
}
