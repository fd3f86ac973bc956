/**
 * The polygon graph of the triangle-mesh planner (spec 演进, generation 1; issue 14): the
 * triangles of a zone's cleaned mesh (src/zone_mesh/zone_clean.ts) are the polygons, kept CCW as the
 * corner-point note (003) requires. Two triangles are joined where zone cleaning kept their
 * shared edge: the same welded adjacency, minus the duplicate and one-sided seams and the seams
 * cut by rule 3 (an unwalkable side or no traversable link). Off-mesh links (BOML) whose two end
 * triangles are walkable triangles of the zone are extra directed edges.
 *
 * Edge costs are generation 1's: centroid → shared-edge midpoint → centroid, px. A link edge
 * costs centroid → link start + `max(c, 1)·|end − start|` + link end → centroid, the same
 * `max(c, 1)` multiplier the voxel planner gives a link (build_window.ts collectLinks).
 * @module
 */
import { meshNeighbours } from "../../zone_mesh/adjacency.ts";
import { buildTriangleBuckets, type TriangleBuckets } from "../../zone_mesh/snap.ts";
import type { ZoneClean } from "../../zone_mesh/zone_clean.ts";
import { NO_TRIANGLE, type OffMeshLink } from "../../pack/bnav/types.ts";

/** One directed off-mesh link edge of the graph (zone-local triangles). */
export interface MeshLinkEdge {
  /** Index of the link in the pack's BOML list. */
  link: number;
  /** Source triangle (zone-local). */
  from: number;
  /** Target triangle (zone-local). */
  to: number;
  /** Take-off point (px, px, m). */
  a: [number, number, number];
  /** Landing point (px, px, m). */
  b: [number, number, number];
  /** Cost modifier as stored. */
  costModifier: number;
  /** Graph cost of the edge, px. */
  cost: number;
  /** The link's own part of the cost: `max(c, 1)·|end − start|` (planar), px. */
  span: number;
}

/** The polygon graph over one cleaned zone. Flat columns, 3 entries per triangle. */
export interface MeshGraph {
  /** The cleaned zone. */
  zone: ZoneClean;
  /** Triangles. */
  triCount: number;
  /** Centroid x per triangle, px. */
  cx: Float64Array;
  /** Centroid y per triangle, px. */
  cy: Float64Array;
  /** Neighbour across edge k of triangle t at `3t + k` (zone-local, −1 = none). */
  nb: Int32Array;
  /** Cost of crossing edge k: centroid → edge midpoint → neighbour centroid, px (0 if no neighbour). */
  edgeCost: Float64Array;
  /** Link edges out of each triangle (CSR): `linkOut[linkStart[t] .. linkStart[t+1])`. */
  linkStart: Uint32Array;
  /** Indices into `links`. */
  linkOut: Uint32Array;
  /** Directed link edges. */
  links: MeshLinkEdge[];
  /** Snap buckets over the walkable triangles (the spatial index). */
  buckets: TriangleBuckets;
  /** Setup time, ms: adjacency, centroids and costs / spatial index. */
  setupMs: { graph: number; index: number };
}

/** Options of {@link buildMeshGraph}. */
export interface MeshGraphOptions {
  /** The pack's BOML links (pack-global end triangles); links of other zones are skipped. */
  offMeshLinks?: readonly OffMeshLink[] | null;
  /** Reuse these snap buckets (e.g. the engine's) instead of building new ones. */
  buckets?: TriangleBuckets;
}

/**
 * The cleaned adjacency of a zone: `zc.adjacency` when cleaning kept it; otherwise rebuilt from
 * the cleaned CCW triangles (the same reverse-edge pass and rules 1–2 as cleaning, which is
 * `meshNeighbours`) with every slot whose boundary bit is set cut (rule 3 and the rest).
 */
export function cleanedAdjacency(zc: ZoneClean): Int32Array {
  if (zc.adjacency) return zc.adjacency;
  const nb = meshNeighbours(zc.tris);
  for (let t = 0; t < zc.triCount; t++) {
    const bits = zc.boundary[t];
    for (let k = 0; k < 3; k++) if (bits & (1 << k)) nb[3 * t + k] = -1;
  }
  return nb;
}

/** Builds the polygon graph of a cleaned zone. */
export function buildMeshGraph(zc: ZoneClean, opts: MeshGraphOptions = {}): MeshGraph {
  const t0 = performance.now();
  const n = zc.triCount, V = zc.vertices, T = zc.tris;
  const nb = cleanedAdjacency(zc);
  const cx = new Float64Array(n), cy = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const a = 3 * T[3 * t], b = 3 * T[3 * t + 1], c = 3 * T[3 * t + 2];
    cx[t] = (V[a] + V[b] + V[c]) / 3;
    cy[t] = (V[a + 1] + V[b + 1] + V[c + 1]) / 3;
  }
  const edgeCost = new Float64Array(3 * n);
  for (let s = 0; s < 3 * n; s++) {
    const j = nb[s];
    if (j < 0) continue;
    const t = (s / 3) | 0, k = s - 3 * t;
    const a = 3 * T[s], b = 3 * T[3 * t + (k === 2 ? 0 : k + 1)];
    const mx = (V[a] + V[b]) / 2, my = (V[a + 1] + V[b + 1]) / 2;
    edgeCost[s] = Math.hypot(mx - cx[t], my - cy[t]) + Math.hypot(cx[j] - mx, cy[j] - my);
  }
  const links = linkEdges(zc, cx, cy, opts.offMeshLinks ?? null);
  const linkStart = new Uint32Array(n + 1);
  for (const e of links) linkStart[e.from + 1]++;
  for (let t = 0; t < n; t++) linkStart[t + 1] += linkStart[t];
  const fill = linkStart.slice(0, n);
  const linkOut = new Uint32Array(links.length);
  links.forEach((e, i) => linkOut[fill[e.from]++] = i);
  const t1 = performance.now();
  const buckets = opts.buckets ?? buildTriangleBuckets(zc);
  const t2 = performance.now();
  return {
    zone: zc,
    triCount: n,
    cx,
    cy,
    nb,
    edgeCost,
    linkStart,
    linkOut,
    links,
    buckets,
    setupMs: { graph: t1 - t0, index: t2 - t1 },
  };
}

/**
 * Directed link edges of the zone, in BOML order (start → end first, then end → start for a
 * two-way link). A link counts when its zone id is the zone's and both end triangles are
 * walkable triangles of the zone. Direction follows the voxel planner: one-way links give one
 * edge, `bidirectional ≠ 0` two. `nodeOf` maps a triangle to a graph node (the polygon graph's
 * triangle → polygon map); `cx`/`cy` are per node. Without it the nodes are the triangles.
 */
export function linkEdges(
  zc: ZoneClean,
  cx: Float64Array,
  cy: Float64Array,
  list: readonly OffMeshLink[] | null,
  nodeOf?: Int32Array,
): MeshLinkEdge[] {
  const out: MeshLinkEdge[] = [];
  if (!list) return out;
  const local = (g: number) => {
    if (g === NO_TRIANGLE) return -1;
    const t = g - zc.firstTri;
    return t >= 0 && t < zc.triCount && zc.walkable[t] ? t : -1;
  };
  list.forEach((l, i) => {
    if (l.zone !== zc.zoneId) return;
    let s = local(l.startTriangle), e = local(l.endTriangle);
    if (s < 0 || e < 0) return;
    if (nodeOf) (s = nodeOf[s], e = nodeOf[e]);
    const p = l.points;
    const a: [number, number, number] = [p[0], p[1], p[2]];
    const b: [number, number, number] = [p[3], p[4], p[5]];
    const m = Math.max(l.costModifier, 1);
    const span = m * Math.hypot(b[0] - a[0], b[1] - a[1]);
    const cost = (from: number, to: number, u: number[], w: number[]) =>
      Math.hypot(u[0] - cx[from], u[1] - cy[from]) + span +
      Math.hypot(cx[to] - w[0], cy[to] - w[1]);
    out.push({
      link: i,
      from: s,
      to: e,
      a,
      b,
      costModifier: l.costModifier,
      cost: cost(s, e, a, b),
      span,
    });
    if (l.bidirectional !== 0) {
      out.push({
        link: i,
        from: e,
        to: s,
        a: b,
        b: a,
        costModifier: l.costModifier,
        cost: cost(e, s, b, a),
        span,
      });
    }
  });
  return out;
}
