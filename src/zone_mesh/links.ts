/**
 * The pack's link table as zone cleaning reads it (spec 网格清洗 › 断开邻接, rule 3, and
 * 包的内存 › 链接表). Every link first passes isTraversableLink; links whose target is one of the
 * source triangle's own pack neighbours become one bit on that neighbour slot (≈97 %), the rest
 * go into a small table sorted by (source, target) and are found by binary search.
 * @module
 */
import { K_LINK_GAP_PX, K_SMALL_COMPONENT_TRIS } from "./constants.ts";
import { triangleEdgeGap } from "./geom.ts";
import { UnionFind } from "../util/union_find.ts";

/** Links of a pack (BNAV link records), global triangle indices, sorted by source non-decreasing. */
export interface LinkTable {
  /** Source triangle of each link. */
  source: Uint32Array;
  /** Target triangle of each link. */
  target: Uint32Array;
}

/** What isTraversableLink needs about one zone. */
export interface LinkZoneView {
  /** Zone id; 0 means "no zone" and nothing is traversable (rule 1). */
  zoneId: number;
  /** Global index of the zone's first triangle (lo). */
  firstTri: number;
  /** Number of triangles in the zone. */
  triCount: number;
  /** Shared vertex array (u, v, h). */
  vertices: Float32Array;
  /** Zone triangles (vertex indices), 3 per triangle. */
  tris: Uint32Array;
  /** Pack neighbours, global triangle indices, -1 = none, 3 per triangle. */
  packNeighbours: Int32Array;
  /** Size of each triangle's raw component (pack neighbours, same zone only). */
  rawSize: Uint32Array;
}

/**
 * Raw components (原始分量): union-find over the pack's own neighbours restricted to the zone;
 * neither the link table nor the walkable marks take part. Returns the zone-local root of each
 * triangle (smallest member).
 */
export function rawComponents(
  packNeighbours: Int32Array,
  firstTri: number,
  triCount: number,
): Uint32Array {
  const uf = new UnionFind(triCount);
  for (let s = 0; s < 3 * triCount; s++) {
    const j = packNeighbours[s] - firstTri;
    if (packNeighbours[s] >= 0 && j >= 0 && j < triCount) uf.union((s / 3) | 0, j);
  }
  return uf.roots();
}

/**
 * isTraversableLink(s, t), global indices (spec 网格清洗 › 通行判据):
 * 1. ends in different zones, or zone id 0: no;
 * 2. t is one of s's own pack neighbours: yes;
 * 3. the smaller raw component of the two ends has more than 512 triangles: yes;
 * 4. otherwise yes iff the closest pair over the 3×3 edge pairs is ≤ 4 px apart (formulas.md #23).
 */
export function isTraversableLink(z: LinkZoneView, s: number, t: number): boolean {
  const ls = s - z.firstTri, lt = t - z.firstTri;
  if (z.zoneId === 0 || ls < 0 || ls >= z.triCount || lt < 0 || lt >= z.triCount) return false;
  const nb = z.packNeighbours;
  if (nb[3 * ls] === t || nb[3 * ls + 1] === t || nb[3 * ls + 2] === t) return true;
  if (Math.min(z.rawSize[ls], z.rawSize[lt]) > K_SMALL_COMPONENT_TRIS) return true;
  return triangleEdgeGap(z.vertices, z.tris, ls, z.tris, lt) <= K_LINK_GAP_PX;
}

/** hasLink lookup built from a zone's traversable links. */
export interface LinkIndex {
  /** One bit per pack-neighbour slot of the zone (3 per triangle): a traversable link s→nb. */
  slotBits: Uint8Array;
  /** Other traversable links, sorted by (source, target), global indices. */
  extraSource: Uint32Array;
  /** Targets matching `extraSource`. */
  extraTarget: Uint32Array;
  /** Links whose source is in the zone but which failed isTraversableLink. */
  rejected: number;
}

/** Builds the hasLink index for one zone from the pack's link table. */
export function buildLinkIndex(z: LinkZoneView, links: LinkTable): LinkIndex {
  const slotBits = new Uint8Array(3 * z.triCount);
  const es: number[] = [], et: number[] = [];
  let rejected = 0;
  const lo = z.firstTri, hi = z.firstTri + z.triCount;
  const first = lowerBound(links.source, lo);
  for (let i = first; i < links.source.length && links.source[i] < hi; i++) {
    const s = links.source[i], t = links.target[i];
    if (!isTraversableLink(z, s, t)) {
      rejected++;
      continue;
    }
    const ls = s - lo;
    const nb = z.packNeighbours;
    const k = nb[3 * ls] === t ? 0 : nb[3 * ls + 1] === t ? 1 : nb[3 * ls + 2] === t ? 2 : -1;
    if (k >= 0) slotBits[3 * ls + k] = 1;
    else {
      es.push(s);
      et.push(t);
    }
  }
  const order = es.map((_, i) => i).sort((a, b) => es[a] - es[b] || et[a] - et[b]);
  return {
    slotBits,
    extraSource: Uint32Array.from(order, (i) => es[i]),
    extraTarget: Uint32Array.from(order, (i) => et[i]),
    rejected,
  };
}

/** hasLink(s, t), global indices: the neighbour-slot bit if t is s's pack neighbour, else the small table. */
export function hasLink(z: LinkZoneView, idx: LinkIndex, s: number, t: number): boolean {
  const ls = s - z.firstTri;
  if (ls < 0 || ls >= z.triCount) return false;
  const nb = z.packNeighbours;
  for (let k = 0; k < 3; k++) if (nb[3 * ls + k] === t) return idx.slotBits[3 * ls + k] === 1;
  let lo = 0, hi = idx.extraSource.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    const ms = idx.extraSource[m], mt = idx.extraTarget[m];
    if (ms < s || (ms === s && mt < t)) lo = m + 1;
    else hi = m;
  }
  return lo < idx.extraSource.length && idx.extraSource[lo] === s && idx.extraTarget[lo] === t;
}

/**
 * The link table a freshly imported mesh gets: one link i→j for every pack neighbour pair, both
 * directions, sorted by (source, target). `neighbours` are zone-local; output is global.
 */
export function linksFromNeighbours(neighbours: Int32Array, firstTri: number): LinkTable {
  let n = 0;
  for (let s = 0; s < neighbours.length; s++) if (neighbours[s] >= 0) n++;
  const source = new Uint32Array(n), target = new Uint32Array(n);
  let o = 0;
  const emit = (i: number, j: number) => {
    if (j < 0) return;
    source[o] = firstTri + i;
    target[o++] = firstTri + j;
  };
  for (let i = 0; i < neighbours.length / 3; i++) {
    // The three neighbours in ascending order (absent ones are -1 and sort first).
    let a = neighbours[3 * i], b = neighbours[3 * i + 1], c = neighbours[3 * i + 2], x: number;
    if (a > b) (x = a, a = b, b = x);
    if (b > c) (x = b, b = c, c = x);
    if (a > b) (x = a, a = b, b = x);
    emit(i, a);
    emit(i, b);
    emit(i, c);
  }
  return { source, target };
}

/**
 * Joins several link tables (e.g. one per zone, in zone order) into one pack table sorted by
 * (source, target). Zone tables over increasing triangle ranges concatenate already sorted; any
 * other input is sorted through an index permutation.
 */
export function mergeLinkTables(tables: LinkTable[]): LinkTable {
  let n = 0;
  for (const t of tables) n += t.source.length;
  const source = new Uint32Array(n), target = new Uint32Array(n);
  let o = 0;
  for (const t of tables) {
    source.set(t.source, o);
    target.set(t.target, o);
    o += t.source.length;
  }
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    sorted = source[i - 1] < source[i] ||
      (source[i - 1] === source[i] && target[i - 1] <= target[i]);
  }
  if (sorted) return { source, target };
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => source[a] - source[b] || target[a] - target[b]);
  return { source: idx.map((i) => source[i]), target: idx.map((i) => target[i]) };
}

function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (a[m] < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}
