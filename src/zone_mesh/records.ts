/**
 * BNAV triangle records from a mesh (format-notes › Records: 36 bytes = 3×u32 vertex,
 * 3×i32 neighbour, u32 component, 2×f32 centroid). Columnar, so a pack writer can stream them.
 * @module
 */
import { centroidF32 } from "./geom.ts";
import { meshNeighbours } from "./adjacency.ts";
import { linksFromNeighbours, type LinkTable } from "./links.ts";

/** Columnar triangle records of a range of triangles. */
export interface TriangleRecords {
  /** Number of triangles. */
  n: number;
  /** Vertex indices (global), 3 per triangle. */
  vertex: Uint32Array;
  /** Neighbour triangles (global), -1 = none, 3 per triangle; entry k belongs to edge k. */
  neighbour: Int32Array;
  /** Component number per triangle. */
  component: Uint32Array;
  /** Centroid `((a+b)+c)/3` in float32, u then v, 2 per triangle. */
  centroid: Float32Array;
}

/**
 * Builds records for triangles `tris` (global vertex indices) whose first triangle has global
 * index `firstTri`; `neighbours` and `component` are zone-local (as zone cleaning produces them)
 * and are shifted by `firstTri` (components stay as given when `componentGlobal` is false).
 */
export function triangleRecords(
  vertices: Float32Array,
  tris: Uint32Array,
  neighbours: Int32Array,
  component: Uint32Array,
  firstTri = 0,
  componentGlobal = true,
): TriangleRecords {
  const n = Math.floor(tris.length / 3);
  const neighbour = new Int32Array(3 * n);
  for (let s = 0; s < 3 * n; s++) neighbour[s] = neighbours[s] >= 0 ? neighbours[s] + firstTri : -1;
  const comp = new Uint32Array(n);
  for (let t = 0; t < n; t++) comp[t] = componentGlobal ? component[t] + firstTri : component[t];
  const centroid = new Float32Array(2 * n);
  for (let t = 0; t < n; t++) {
    const a = 3 * tris[3 * t], b = 3 * tris[3 * t + 1], c = 3 * tris[3 * t + 2];
    centroid[2 * t] = centroidF32(vertices[a], vertices[b], vertices[c]);
    centroid[2 * t + 1] = centroidF32(vertices[a + 1], vertices[b + 1], vertices[c + 1]);
  }
  return { n, vertex: tris.slice(0, 3 * n), neighbour, component: comp, centroid };
}

/**
 * The topology a pack writer stores for a freshly imported zone (no pack to inherit from): the
 * geometric neighbours (reverse edges after rules 1 and 2, entry k = edge k, global ids) and the
 * link table with one link per neighbour pair in both directions (global, sorted). `tris` must
 * already be CCW (importObj and loadZoneGeometry make them so), so that cleaning the written pack
 * finds the same edges.
 */
export function zoneTopology(
  tris: Uint32Array,
  firstTri = 0,
): { neighbours: Int32Array; links: LinkTable } {
  const local = meshNeighbours(tris);
  const neighbours = new Int32Array(local.length);
  for (let s = 0; s < local.length; s++) neighbours[s] = local[s] >= 0 ? local[s] + firstTri : -1;
  return { neighbours, links: linksFromNeighbours(local, firstTri) };
}
