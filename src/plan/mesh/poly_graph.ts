/**
 * The convex-polygon graph of the triangle-mesh planner (issue 30; note 003: the navigation mesh
 * is made of convex polygons, vertices counter-clockwise, joined by shared edges — 穿出边). The
 * cleaned zone's triangles are merged into convex polygons by Hertel–Mehlhorn: an internal
 * diagonal (a shared edge of two triangles the cleaned adjacency keeps) is removed when the
 * union stays strictly convex at both of its end vertices.
 *
 * Boundaries kept: only seams the triangle graph itself joins (`cleanedAdjacency`) are ever
 * removed, so cut seams — unwalkable sides, one-sided and duplicate seams, seams without a
 * traversable link (zone cleaning rule 3) — stay polygon edges; unwalkable and zero-area
 * triangles are never merged. Off-mesh links (BOML) join the polygons holding their end
 * triangles.
 *
 * Determinism: diagonals are visited by triangle index ascending, edge slot 0, 1, 2, each once
 * (from the lower-indexed triangle); polygons are numbered by their lowest kept half-edge slot
 * and listed from it. Same mesh, same polygons.
 *
 * Data is columnar: polygon vertex lists in CSR (`polyStart`/`polyVerts`), one neighbour and one
 * edge cost per polygon edge at the same index, triangle → polygon map, polygon → triangles CSR.
 *
 * Edge costs keep the triangle mode's style (generation 1): polygon centre (vertex mean) →
 * shared-edge midpoint → neighbour's centre, px; a link costs centre → take-off +
 * `max(c, 1)·|span|` + landing → centre.
 * @module
 */
import type { ZoneClean } from "../../zone_mesh/zone_clean.ts";
import type { OffMeshLink } from "../../pack/bnav/types.ts";
import { cleanedAdjacency, linkEdges, type MeshLinkEdge } from "./graph.ts";
import { buildSnapIndex, type SnapIndex } from "./snap_index.ts";
import { ufFind } from "../../util/union_find.ts";

/** The planner's mesh mode: search the cleaned triangles, or the merged convex polygons. */
export type MeshMode = "triangles" | "polygons";

/** The merged convex polygons of one zone (see the module note). */
export interface PolyGraph {
  /** The cleaned zone. */
  zone: ZoneClean;
  /** Polygons. */
  polyCount: number;
  /** CSR offsets, polyCount + 1: polygon p's corners are `polyVerts[polyStart[p] .. polyStart[p+1])`. */
  polyStart: Uint32Array;
  /** Zone vertex indices, counter-clockwise. Edge i runs from corner i to the next corner. */
  polyVerts: Uint32Array;
  /** Neighbour polygon across edge i (−1 = boundary). */
  polyNb: Int32Array;
  /** Cost of crossing edge i: centre → edge midpoint → neighbour centre, px (0 on a boundary). */
  edgeCost: Float64Array;
  /** Portal midpoint x per polygon edge, px (the portal-midpoint search's positions). */
  midX: Float64Array;
  /** Portal midpoint y per polygon edge, px. */
  midY: Float64Array;
  /** `max(c, 1)·|span|` per link edge, px (the link's own part of its cost). */
  linkSpan: Float64Array;
  /** Centre (vertex mean) x per polygon, px. */
  cx: Float64Array;
  /** Centre y per polygon, px. */
  cy: Float64Array;
  /** Polygon of each triangle. */
  triPoly: Int32Array;
  /** CSR offsets of each polygon's triangles, polyCount + 1. */
  polyTriStart: Uint32Array;
  /** Triangles per polygon, ascending. */
  polyTris: Uint32Array;
  /** Link edges out of each polygon (CSR): `linkOut[linkStart[p] .. linkStart[p+1])`. */
  linkStart: Uint32Array;
  /** Indices into `links`. */
  linkOut: Uint32Array;
  /** Directed link edges between polygons (`from`/`to` are polygons). */
  links: MeshLinkEdge[];
  /** The fast snap index (snap_index.ts; same snap results as the spec's buckets). */
  snap: SnapIndex;
  /** Setup time, ms: merge, polygon graph (centres, costs, links), spatial index. */
  setupMs: { merge: number; graph: number; index: number };
}

/** Options of {@link buildPolyGraph}. */
export interface PolyGraphOptions {
  /** The pack's BOML links (pack-global end triangles); links of other zones are skipped. */
  offMeshLinks?: readonly OffMeshLink[] | null;
  /** Reuse this snap index instead of building a new one. */
  snap?: SnapIndex;
}

/** The result of {@link mergeConvex}: polygons in CSR plus the triangle maps. */
export interface ConvexMerge {
  /** Polygons. */
  polyCount: number;
  /** CSR offsets. */
  polyStart: Uint32Array;
  /** Zone vertex indices, CCW. */
  polyVerts: Uint32Array;
  /** Triangle half-edge slot (`3t + k`) each polygon edge comes from. */
  polySlot: Uint32Array;
  /** Polygon of each triangle. */
  triPoly: Int32Array;
}

/**
 * Hertel–Mehlhorn over the cleaned triangles: removes internal diagonals while the union stays
 * strictly convex. Works on triangle half-edges (slot `3t + k` runs from corner k to corner
 * k+1) with next/prev links rewired on each removal, so no polygon objects are built.
 */
export function mergeConvex(zc: ZoneClean, nb: Int32Array = cleanedAdjacency(zc)): ConvexMerge {
  const n = zc.triCount, V = zc.vertices, T = zc.tris, m = 3 * n;
  const next = new Int32Array(m), prev = new Int32Array(m), removed = new Uint8Array(m);
  const uf = new Int32Array(n), mergeable = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const s = 3 * t;
    next[s] = s + 1, next[s + 1] = s + 2, next[s + 2] = s;
    prev[s] = s + 2, prev[s + 1] = s, prev[s + 2] = s + 1;
    uf[t] = t;
    const a = 3 * T[s], b = 3 * T[s + 1], c = 3 * T[s + 2];
    const area = (V[b] - V[a]) * (V[c + 1] - V[a + 1]) - (V[b + 1] - V[a + 1]) * (V[c] - V[a]);
    mergeable[t] = zc.walkable[t] && area > 0 ? 1 : 0;
  }
  // Destination vertex of a half-edge: the next corner of its own triangle (fixed).
  const dest = (h: number) => T[h % 3 === 2 ? h - 2 : h + 1];
  // Strict left turn p → q → r (CCW corner), vertex indices.
  const convex = (p: number, q: number, r: number) => {
    const P = 3 * p, Q = 3 * q, R = 3 * r;
    return (V[Q] - V[P]) * (V[R + 1] - V[P + 1]) - (V[Q + 1] - V[P + 1]) * (V[R] - V[P]) > 0;
  };
  for (let t = 0; t < n; t++) {
    if (!mergeable[t]) continue;
    for (let k = 0; k < 3; k++) {
      const s = 3 * t + k, j = nb[s];
      if (j <= t || !mergeable[j]) continue;
      const a = T[s], b = dest(s);
      // The twin half-edge b → a in triangle j (a non-mutual seam stays an edge).
      let s2 = -1;
      for (let q = 0; q < 3; q++) {
        const h = 3 * j + q;
        if (nb[h] === t && T[h] === b && dest(h) === a) s2 = h;
      }
      if (s2 < 0) continue;
      const rp = ufFind(uf, t), rq = ufFind(uf, j);
      if (rp === rq) continue;
      // After removal, corner a joins P's edge into a with Q's edge out of a; b the reverse.
      if (!convex(T[prev[s]], a, dest(next[s2]))) continue;
      if (!convex(T[prev[s2]], b, dest(next[s]))) continue;
      const ps = prev[s], ns = next[s], ps2 = prev[s2], ns2 = next[s2];
      next[ps] = ns2, prev[ns2] = ps;
      next[ps2] = ns, prev[ns] = ps2;
      removed[s] = 1, removed[s2] = 1;
      uf[rq] = rp;
    }
  }
  // Number polygons by their lowest kept slot; count corners.
  const idOfRoot = new Int32Array(n).fill(-1);
  const first = new Int32Array(n);
  let corners = 0, P = 0;
  for (let t = 0; t < n; t++) {
    const r = ufFind(uf, t);
    for (let s = 3 * t; s < 3 * t + 3; s++) {
      if (removed[s]) continue;
      corners++;
      if (idOfRoot[r] < 0) {
        idOfRoot[r] = P;
        first[P++] = s;
      }
    }
  }
  const polyStart = new Uint32Array(P + 1);
  const polyVerts = new Uint32Array(corners), polySlot = new Uint32Array(corners);
  let o = 0;
  for (let p = 0; p < P; p++) {
    polyStart[p] = o;
    const h0 = first[p];
    let h = h0;
    do {
      polyVerts[o] = T[h];
      polySlot[o++] = h;
      h = next[h];
    } while (h !== h0);
  }
  polyStart[P] = o;
  const triPoly = new Int32Array(n);
  for (let t = 0; t < n; t++) triPoly[t] = idOfRoot[ufFind(uf, t)];
  return { polyCount: P, polyStart, polyVerts, polySlot, triPoly };
}

/** Builds the convex-polygon graph of a cleaned zone (merge, centres, portal costs, links). */
export function buildPolyGraph(zc: ZoneClean, opts: PolyGraphOptions = {}): PolyGraph {
  const t0 = performance.now();
  const nb = cleanedAdjacency(zc);
  const mg = mergeConvex(zc, nb);
  const t1 = performance.now();
  const V = zc.vertices, n = zc.triCount, P = mg.polyCount;
  const { polyStart, polyVerts, polySlot, triPoly } = mg;
  const cx = new Float64Array(P), cy = new Float64Array(P);
  for (let p = 0; p < P; p++) {
    let sx = 0, sy = 0;
    const a = polyStart[p], e = polyStart[p + 1];
    for (let i = a; i < e; i++) {
      sx += V[3 * polyVerts[i]];
      sy += V[3 * polyVerts[i] + 1];
    }
    cx[p] = sx / (e - a);
    cy[p] = sy / (e - a);
  }
  const polyNb = new Int32Array(polyVerts.length), edgeCost = new Float64Array(polyVerts.length);
  const midX = new Float64Array(polyVerts.length), midY = new Float64Array(polyVerts.length);
  for (let p = 0; p < P; p++) {
    const a = polyStart[p], e = polyStart[p + 1];
    for (let i = a; i < e; i++) {
      const j = nb[polySlot[i]];
      const q = j >= 0 ? triPoly[j] : -1;
      if (q < 0 || q === p) {
        polyNb[i] = -1;
        continue;
      }
      polyNb[i] = q;
      const u = 3 * polyVerts[i], w = 3 * polyVerts[i + 1 === e ? a : i + 1];
      const mx = (V[u] + V[w]) / 2, my = (V[u + 1] + V[w + 1]) / 2;
      midX[i] = mx;
      midY[i] = my;
      const dx0 = mx - cx[p], dy0 = my - cy[p], dx1 = cx[q] - mx, dy1 = cy[q] - my;
      edgeCost[i] = Math.sqrt(dx0 * dx0 + dy0 * dy0) + Math.sqrt(dx1 * dx1 + dy1 * dy1);
    }
  }
  const polyTriStart = new Uint32Array(P + 1), polyTris = new Uint32Array(n);
  for (let t = 0; t < n; t++) polyTriStart[triPoly[t] + 1]++;
  for (let p = 0; p < P; p++) polyTriStart[p + 1] += polyTriStart[p];
  const fillT = polyTriStart.slice(0, P);
  for (let t = 0; t < n; t++) polyTris[fillT[triPoly[t]]++] = t;
  const links = linkEdges(zc, cx, cy, opts.offMeshLinks ?? null, triPoly)
    .filter((e) => e.from !== e.to);
  const linkStart = new Uint32Array(P + 1);
  for (const e of links) linkStart[e.from + 1]++;
  for (let p = 0; p < P; p++) linkStart[p + 1] += linkStart[p];
  const fill = linkStart.slice(0, P);
  const linkOut = new Uint32Array(links.length);
  links.forEach((e, i) => linkOut[fill[e.from]++] = i);
  const t2 = performance.now();
  const snap = opts.snap ?? buildSnapIndex(zc);
  const t3 = performance.now();
  return {
    zone: zc,
    polyCount: P,
    polyStart,
    polyVerts,
    polyNb,
    edgeCost,
    midX,
    midY,
    linkSpan: Float64Array.from(links, (e) => e.span),
    cx,
    cy,
    triPoly,
    polyTriStart,
    polyTris,
    linkStart,
    linkOut,
    links,
    snap,
    setupMs: { merge: t1 - t0, graph: t2 - t1, index: t3 - t2 },
  };
}
