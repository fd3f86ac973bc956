/**
 * Snapping (spec 吸附, formulas.md #64): move an endpoint onto the nearest walkable triangle.
 * Triangles are bucketed on a 24-px grid (槽位与邻接: 24 像素方格的三角分桶) with a counting sort,
 * so a bucket lists its triangles in increasing index order. A query gathers the buckets under
 * the radius, measures the planar distance to each walkable triangle, drops those beyond the
 * radius, and keeps the lexicographic minimum of the comparison key; radius 8, then 16.
 * @module
 */
import {
  K_DECK_BAND_M,
  K_FLOOR_BAND_M,
  K_SNAP_BUCKET_PX,
  K_SNAP_RADIUS_PX,
  K_SNAP_RADIUS_WIDE_PX,
} from "./constants.ts";
import { closestOnTriangle, triangleHeight } from "./geom.ts";
import type { ZoneClean } from "./zone_clean.ts";

/** A 24-px bucket grid over triangle bounding boxes (CSR). */
export interface TriangleBuckets {
  /** Bucket side, px. */
  cell: number;
  /** Grid origin (px): bucket (bx, by) covers `[x0 + bx·cell, x0 + (bx+1)·cell)`. */
  x0: number;
  /** Grid origin y, px. */
  y0: number;
  /** Buckets across. */
  nx: number;
  /** Buckets down. */
  ny: number;
  /** Offsets into `items`, length `nx·ny + 1`. */
  start: Uint32Array;
  /** Zone-local triangle indices, ascending within a bucket. */
  items: Uint32Array;
  /** Query scratch: the query stamp that last visited each triangle (dedupes multi-bucket ones). */
  seen: Uint32Array;
  /** Query scratch: the current stamp. */
  stamp: number;
}

/**
 * Buckets every walkable triangle into each bucket its planar bounding box touches. Unwalkable
 * triangles are left out (吸附 step 1 skips them in both rounds) unless `includeAll`.
 */
export function buildTriangleBuckets(
  zc: ZoneClean,
  cell = K_SNAP_BUCKET_PX,
  includeAll = false,
  margin = 0,
): TriangleBuckets {
  const { vertices, tris, walkable, triCount } = zc;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let t = 0; t < triCount; t++) {
    if (!includeAll && !walkable[t]) continue;
    for (let k = 0; k < 3; k++) {
      const v = 3 * tris[3 * t + k];
      minX = Math.min(minX, vertices[v]);
      maxX = Math.max(maxX, vertices[v]);
      minY = Math.min(minY, vertices[v + 1]);
      maxY = Math.max(maxY, vertices[v + 1]);
    }
  }
  if (!(minX <= maxX)) [minX, maxX, minY, maxY] = [0, 0, 0, 0];
  // Origin on the bucket lattice so that bucket edges do not depend on which triangles exist.
  const x0 = Math.floor(minX / cell) * cell, y0 = Math.floor(minY / cell) * cell;
  const nx = Math.floor((maxX - x0) / cell) + 1, ny = Math.floor((maxY - y0) / cell) + 1;
  // Counting sort: pass 0 counts per bucket, pass 1 fills in triangle order.
  const start = new Uint32Array(nx * ny + 1);
  const fill = new Uint32Array(nx * ny);
  let items = new Uint32Array(0);
  const range = new Int32Array(4);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
      fill.set(start.subarray(0, nx * ny));
      items = new Uint32Array(start[nx * ny]);
    }
    for (let t = 0; t < triCount; t++) {
      if (!includeAll && !walkable[t]) continue;
      triRange(vertices, tris, t, x0, y0, cell, nx, ny, margin, range);
      for (let by = range[1]; by <= range[3]; by++) {
        for (let bx = range[0]; bx <= range[2]; bx++) {
          if (pass === 0) start[by * nx + bx + 1]++;
          else items[fill[by * nx + bx]++] = t;
        }
      }
    }
  }
  return { cell, x0, y0, nx, ny, start, items, seen: new Uint32Array(triCount), stamp: 0 };
}

/** Buckets per triangle the drivability index aims at (see {@link buildDriveBuckets}). */
const kDriveBucketsPerTri = 4;
/** Smallest drivability bucket side, px: the line samples' spacing (spec 路点 step 2). */
const kDriveMinCell = 0.5;
/**
 * How far past its planar box a sample may lie and still stand on a triangle, px (see
 * waypoints.ts sampleHeight: the point test's 1e-5 tolerance on an edge's cross product, without
 * the box, would take a vertical triangle — a segment in plan — as standing under every point
 * within 1e-5 / length of its whole line).
 */
export const kDriveMargin = 1e-3;

/**
 * The drivability index: every zone triangle, walkable or not (spec 路点 step 2 samples
 * "区网格的三角形", formulas.md #138), in buckets of about {@link kDriveBucketsPerTri} per
 * triangle over the mesh's box (at least {@link kDriveMinCell} px, at most the snap buckets'
 * K_SNAP_BUCKET_PX), each triangle widened by {@link kDriveMargin}. Why not the snap buckets'
 * 24 px: a waypoint sample tests every triangle of its bucket, and with the unwalkable ones in,
 * a 24-px bucket of the bridges mesh held up to 4 306 triangles (issue 36: the test was a
 * quarter of the plan time there). Within a bucket the triangles stay ascending, so the
 * candidate order, and with it the picked height, is the same as in any other bucketing.
 */
export function buildDriveBuckets(zc: ZoneClean): DriveBuckets {
  const { vertices, tris, triCount } = zc;
  const box = new Float32Array(4 * triCount);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let t = 0; t < triCount; t++) {
    const o = 4 * t;
    triBox(vertices, tris, t, box, o);
    minX = Math.min(minX, box[o]), minY = Math.min(minY, box[o + 1]);
    maxX = Math.max(maxX, box[o + 2]), maxY = Math.max(maxY, box[o + 3]);
  }
  const area = minX <= maxX ? (maxX - minX + 1) * (maxY - minY + 1) : 1;
  const side = Math.sqrt(area / Math.max(1, kDriveBucketsPerTri * triCount));
  const cell = Math.min(K_SNAP_BUCKET_PX, Math.max(kDriveMinCell, side));
  return { ...buildTriangleBuckets(zc, cell, true, kDriveMargin), box, margin: kDriveMargin };
}

/** The drivability index ({@link buildDriveBuckets}): buckets plus each triangle's planar box. */
export interface DriveBuckets extends TriangleBuckets {
  /** Per triangle `minX, minY, maxX, maxY`, px (the f32 vertex coordinates). */
  box: Float32Array;
  /** How far past its box a sample may lie and still be on a triangle, px. */
  margin: number;
}

function triRange(
  vertices: Float32Array,
  tris: Uint32Array,
  t: number,
  x0: number,
  y0: number,
  cell: number,
  nx: number,
  ny: number,
  margin: number,
  out: Int32Array,
): void {
  triBox(vertices, tris, t, BOX, 0);
  const a = BOX[0] - margin, b = BOX[1] - margin, c = BOX[2] + margin, d = BOX[3] + margin;
  out[0] = clampInt(Math.floor((a - x0) / cell), 0, nx - 1);
  out[1] = clampInt(Math.floor((b - y0) / cell), 0, ny - 1);
  out[2] = clampInt(Math.floor((c - x0) / cell), 0, nx - 1);
  out[3] = clampInt(Math.floor((d - y0) / cell), 0, ny - 1);
}

/** triRange's box (f64: the f32 coordinates exactly, as the loop it replaced held them). */
const BOX = new Float64Array(4);

/** Triangle t's planar box `minX, minY, maxX, maxY` into `out` from `o`. */
function triBox(
  vertices: Float32Array,
  tris: Uint32Array,
  t: number,
  out: Float32Array | Float64Array,
  o: number,
): void {
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  for (let k = 0; k < 3; k++) {
    const v = 3 * tris[3 * t + k];
    a = Math.min(a, vertices[v]), c = Math.max(c, vertices[v]);
    b = Math.min(b, vertices[v + 1]), d = Math.max(d, vertices[v + 1]);
  }
  (out[o] = a), (out[o + 1] = b), (out[o + 2] = c), (out[o + 3] = d);
}

function clampInt(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Which comparison key ranks the candidates (吸附 › 比较键). */
export interface SnapOptions {
  /** Floor height (m): key `([|H−f| > 12], dist, |H−f|, island)`. */
  floorY?: number;
  /** Declared start deck (m), start only: key `([|H−d| > band], dist, |H−d|, tri)`; wins over floorY. */
  deckY?: number;
  /** Deck band, m. Default 2 ([?] in formulas.md #64). */
  deckBand?: number;
  /** First radius, px. Default 8. */
  radius?: number;
  /** Fallback radius, px. Default 16; set equal to `radius` for a single round. */
  wideRadius?: number;
  /**
   * The reference build's older keys (formulas.md #64 "Ref differs"; profile switch `snapKeys`
   * off): no floor `(island, dist, −H, tri)`, floor `([out], island, dist, |H−f|, tri)`.
   */
  oldKeys?: boolean;
  /** Extra candidate filter (e.g. 起点所在的面 step 2); return false to skip a triangle. */
  accept?: (tri: number) => boolean;
}

/** A snap result. */
export interface SnapHit {
  /** Zone-local triangle. */
  tri: number;
  /** Closest point on the triangle, px. */
  x: number;
  /** Closest point y, px. */
  y: number;
  /** Planar distance from the query point, px. */
  dist: number;
  /** Triangle height H = mean of its three vertex heights, m (起点高度 h0). */
  h: number;
  /** The radius of the round that found it (8 or 16). */
  radius: number;
}

const OUT = new Float64Array(2);

/**
 * Snaps (x, y) to the best walkable triangle (吸附). Keys compare lexicographically with strict
 * `<`; the triangle index ends every key, so a remaining tie keeps the lowest index — the
 * reference's "first candidate wins" over an ascending candidate list (the floor key has no
 * index of its own in the article [I]). Not reentrant per bucket object (it keeps a visit stamp).
 * Returns null when nothing lies within the fallback radius.
 */
export function snapPoint(
  zc: ZoneClean,
  buckets: TriangleBuckets,
  x: number,
  y: number,
  opts: SnapOptions = {},
): SnapHit | null {
  const r1 = opts.radius ?? K_SNAP_RADIUS_PX;
  const r2 = opts.wideRadius ?? K_SNAP_RADIUS_WIDE_PX;
  const first = snapRound(zc, buckets, x, y, r1, opts);
  if (first || r2 <= r1) return first;
  return snapRound(zc, buckets, x, y, r2, opts);
}

/**
 * The bucket holding point (x, y), or −1 outside the table: its triangles are
 * `items[start[k] .. start[k + 1])`, ascending without repeats — {@link bucketCandidates} with
 * r = 0, read in place.
 */
export function pointBucket(b: TriangleBuckets, x: number, y: number): number {
  const bx = Math.floor((x - b.x0) / b.cell), by = Math.floor((y - b.y0) / b.cell);
  return bx < 0 || by < 0 || bx >= b.nx || by >= b.ny ? -1 : by * b.nx + bx;
}

/** Candidate triangles of the buckets under the square [x−r, x+r]², ascending, without repeats. */
export function bucketCandidates(b: TriangleBuckets, x: number, y: number, r: number): Uint32Array {
  const bx0 = Math.floor((x - r - b.x0) / b.cell), bx1 = Math.floor((x + r - b.x0) / b.cell);
  const by0 = Math.floor((y - r - b.y0) / b.cell), by1 = Math.floor((y + r - b.y0) / b.cell);
  if (bx1 < 0 || by1 < 0 || bx0 >= b.nx || by0 >= b.ny) return new Uint32Array(0);
  const xa = Math.max(0, bx0), xb = Math.min(b.nx - 1, bx1);
  const ya = Math.max(0, by0), yb = Math.min(b.ny - 1, by1);
  let n = 0;
  for (let by = ya; by <= yb; by++) {
    for (let bx = xa; bx <= xb; bx++) n += b.start[by * b.nx + bx + 1] - b.start[by * b.nx + bx];
  }
  const out = new Uint32Array(n);
  let o = 0;
  for (let by = ya; by <= yb; by++) {
    for (let bx = xa; bx <= xb; bx++) {
      const k = by * b.nx + bx;
      out.set(b.items.subarray(b.start[k], b.start[k + 1]), o);
      o += b.start[k + 1] - b.start[k];
    }
  }
  out.sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[i - 1]) out[m++] = out[i];
  return out.subarray(0, m);
}

function snapRound(
  zc: ZoneClean,
  buckets: TriangleBuckets,
  x: number,
  y: number,
  r: number,
  opts: SnapOptions,
): SnapHit | null {
  const mode = opts.deckY !== undefined ? 2 : opts.floorY !== undefined ? 1 : 0;
  const ref = mode === 2 ? opts.deckY! : mode === 1 ? opts.floorY! : 0;
  const band = mode === 2 ? (opts.deckBand ?? K_DECK_BAND_M) : K_FLOOR_BAND_M;
  const old = opts.oldKeys === true && mode !== 2;
  const b = buckets;
  const bx0 = Math.max(0, Math.floor((x - r - b.x0) / b.cell));
  const bx1 = Math.min(b.nx - 1, Math.floor((x + r - b.x0) / b.cell));
  const by0 = Math.max(0, Math.floor((y - r - b.y0) / b.cell));
  const by1 = Math.min(b.ny - 1, Math.floor((y + r - b.y0) / b.cell));
  if (++b.stamp === 0xffffffff) {
    b.seen.fill(0);
    b.stamp = 1;
  }
  const stamp = b.stamp;
  let best: SnapHit | null = null;
  let bk0 = 0, bk1 = 0, bk2 = 0, bk3 = 0, bt = 0;
  for (let by = by0; by <= by1; by++) {
    for (let bx = bx0; bx <= bx1; bx++) {
      const cell = by * b.nx + bx;
      for (let q = b.start[cell], e = b.start[cell + 1]; q < e; q++) {
        const t = b.items[q];
        if (b.seen[t] === stamp) continue;
        b.seen[t] = stamp;
        if (!zc.walkable[t]) continue;
        if (opts.accept && !opts.accept(t)) continue;
        const dist = closestOnTriangle(zc.vertices, zc.tris, t, x, y, OUT);
        if (dist > r) continue;
        const h = triangleHeight(zc.vertices, zc.tris, t);
        // Keys (formulas.md #64): no floor (dist, −H, island, tri); floor ([out], dist, |H−f|,
        // island); deck ([out], dist, |H−d|, tri). Buckets are visited in grid order, so the
        // triangle index closes every key: the lowest index wins any remaining tie.
        let k0: number, k1: number, k2: number, k3: number;
        if (old) {
          // The older keys put the island first (no floor) / after [out] (floor).
          const dh = Math.abs(h - ref);
          k0 = mode === 0 ? zc.island[t] : dh > band ? 1 : 0;
          k1 = mode === 0 ? dist : zc.island[t];
          k2 = mode === 0 ? -h : dist;
          k3 = mode === 0 ? 0 : dh;
        } else if (mode === 0) {
          k0 = dist;
          k1 = -h;
          k2 = zc.island[t];
          k3 = 0;
        } else {
          const dh = Math.abs(h - ref);
          k0 = dh > band ? 1 : 0;
          k1 = dist;
          k2 = dh;
          k3 = mode === 1 ? zc.island[t] : 0;
        }
        if (
          best === null || k0 < bk0 || (k0 === bk0 && (k1 < bk1 || (k1 === bk1 &&
            (k2 < bk2 || (k2 === bk2 && (k3 < bk3 || (k3 === bk3 && t < bt)))))))
        ) {
          best = { tri: t, x: OUT[0], y: OUT[1], dist, h, radius: r };
          bk0 = k0;
          bk1 = k1;
          bk2 = k2;
          bk3 = k3;
          bt = t;
        }
      }
    }
  }
  return best;
}
