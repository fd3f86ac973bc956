/**
 * Zone cleaning (spec 网格清洗, ZoneClean): walkable marks → (old packs: weld) → CCW → slot
 * buckets, reverse edges, duplicate marks → the three disconnect rules → union-find components
 * (root = smallest index) → island bits → boundary bits (1 byte per triangle). The adjacency
 * exists only while cleaning; the result keeps the compact per-triangle columns.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { K_SMALL_COMPONENT_TRIS, WALKABLE_MASK } from "./constants.ts";
import {
  buildSlotBuckets,
  cutDuplicateEdges,
  cutOneSidedEdges,
  findReverseEdges,
} from "./adjacency.ts";
import {
  buildLinkIndex,
  hasLink,
  linksFromNeighbours,
  type LinkTable,
  type LinkZoneView,
  rawComponents,
} from "./links.ts";
import { countRoots, setSizes, UnionFind } from "../util/union_find.ts";
import { orientCcw, validateZoneGeometry, walkableMarks, weldOldPack } from "./vertices.ts";

/** One zone's slice of a pack (or of an imported mesh), as zone cleaning reads it. */
export interface ZoneMeshInput {
  /** Zone name, for errors. */
  name: string;
  /** Zone id (BNAV zone record); 0 makes every link untraversable. Default 1. */
  zoneId?: number;
  /** Global index of the zone's first triangle (lo). Default 0. */
  firstTri?: number;
  /** Vertices `u, v, h` (px, px, m); shared, may be the whole pack. Never modified. */
  vertices: Float32Array;
  /** The zone's triangles, 3 vertex indices each (indices into `vertices`). Never modified. */
  triangles: Uint32Array;
  /** Pack neighbours, global indices, -1 = none. Absent: the geometric ones (as `meshNeighbours`). */
  neighbours?: Int32Array;
  /** Per-triangle surface flags (BSRF). Absent: every triangle is walkable. */
  surfaceFlags?: Uint32Array;
  /** Walkable whitelist. Default 0x00020CDD. */
  walkableMask?: number;
  /** Pack link table (global, sorted by source). Absent: one link per pack-neighbour pair. */
  links?: LinkTable;
  /** Old-generation pack: weld vertices (0.05 px, 3 m chains) before anything else. */
  oldPack?: boolean;
  /** Keep the cleaned adjacency in the result (tests, debug drawing). */
  keepAdjacency?: boolean;
  /** File the zone came from, for errors. */
  file?: string;
}

/** Counts reported by zone cleaning: nothing is dropped silently. */
export interface ZoneCleanStats {
  /** Triangles in the zone. */
  triangles: number;
  /** Walkable triangles. */
  walkable: number;
  /** Triangles flipped to CCW. */
  flipped: number;
  /** Vertex indices changed by the old-pack weld. */
  welded: number;
  /** Slots on a duplicated directed edge (non-manifold seams). */
  duplicateSlots: number;
  /** Slots cut by rule 1 (duplicate edges). */
  cutDuplicate: number;
  /** Slots cut by rule 2 (one-sided adjacency). */
  cutOneSided: number;
  /** Slots cut by rule 3 because a side is unwalkable. */
  cutUnwalkable: number;
  /** Slots cut by rule 3 because no traversable link joins the two triangles. */
  cutNoLink: number;
  /** Links of the zone rejected by isTraversableLink. */
  linksRejected: number;
  /** Components after cleaning (unwalkable triangles are singletons). */
  components: number;
  /** Triangles carrying the island bit. */
  islandTriangles: number;
  /** Edges of walkable triangles without a neighbour. */
  boundaryEdges: number;
}

/** A cleaned zone mesh (ZoneClean). Zone-local triangle t is global triangle `firstTri + t`. */
export interface ZoneClean {
  /** Zone name. */
  name: string;
  /** Zone id. */
  zoneId: number;
  /** Global index of triangle 0. */
  firstTri: number;
  /** Number of triangles. */
  triCount: number;
  /** Vertex array (the input's, or a welded view for old packs — still the same array). */
  vertices: Float32Array;
  /** CCW triangles (own copy), 3 vertex indices each; edge k runs T[k] → T[(k+1)%3]. */
  tris: Uint32Array;
  /** 1 = walkable. */
  walkable: Uint8Array;
  /** Component label: the smallest zone-local triangle index of the component. */
  component: Uint32Array;
  /** 1 = the triangle's component is an island. */
  island: Uint8Array;
  /** Bit k set = edge k has no neighbour after cleaning. */
  boundary: Uint8Array;
  /** Cleaned adjacency (zone-local, -1 = none), only with `keepAdjacency`. */
  adjacency?: Int32Array;
  /** Counts. */
  stats: ZoneCleanStats;
}

/** Cleans one zone (spec 网格清洗). Throws one NavscopeError for bad geometry or an all-unwalkable zone. */
export function cleanZone(input: ZoneMeshInput): ZoneClean {
  const zone = input.name;
  const zoneId = input.zoneId ?? 1;
  const firstTri = input.firstTri ?? 0;
  const vertices = input.vertices;
  const triCount = Math.floor(input.triangles.length / 3);
  const where = { zone, file: input.file, section: "zone mesh" };
  checkInputShapes(input, triCount, where);
  const tris = input.triangles.slice(0, 3 * triCount);
  validateZoneGeometry(vertices, tris, zone, input.file);

  const walkable = walkableMarks(triCount, input.surfaceFlags, input.walkableMask ?? WALKABLE_MASK);
  let nWalk = 0;
  for (let t = 0; t < triCount; t++) nWalk += walkable[t];
  if (nWalk === 0) {
    throw new NavscopeError(
      "bad_value",
      `every one of the zone's ${triCount} triangles is unwalkable`,
      where,
      "at least one triangle whose surface flags meet the walkable mask",
    );
  }
  const welded = input.oldPack ? weldOldPack(vertices, tris, zone) : 0;
  const flipped = orientCcw(vertices, tris);

  // Slot adjacency with rules 1 and 2 (槽位与邻接, 断开邻接).
  const adj = findReverseEdges(tris, buildSlotBuckets(tris));
  let duplicateSlots = 0;
  for (let s = 0; s < adj.duplicate.length; s++) duplicateSlots += adj.duplicate[s];
  const cutDuplicate = cutDuplicateEdges(tris, adj);
  const cutOneSided = cutOneSidedEdges(adj.neighbour);
  const nb = adj.neighbour;

  // The pack's own neighbours: given by the pack, or for a fresh mesh the geometric ones just
  // found (exactly what meshNeighbours returns), so the reverse-edge pass runs once.
  const packNb = input.neighbours ?? toGlobal(nb, firstTri);
  const rawRoots = rawComponents(packNb, firstTri, triCount);
  const rawSize = setSizes(rawRoots);
  const view: LinkZoneView = {
    zoneId,
    firstTri,
    triCount,
    vertices,
    tris,
    packNeighbours: packNb,
    rawSize,
  };
  const links = input.links ?? linksFromNeighbours(toLocal(packNb, firstTri), firstTri);
  checkLinksSorted(links, where);
  const linkIdx = buildLinkIndex(view, links);

  // Rule 3: walkable marks and the link table.
  let cutUnwalkable = 0, cutNoLink = 0;
  for (let s = 0; s < nb.length; s++) {
    const j = nb[s];
    if (j < 0) continue;
    const i = (s / 3) | 0;
    if (!walkable[i] || !walkable[j]) {
      nb[s] = -1;
      cutUnwalkable++;
      continue;
    }
    const gi = firstTri + i, gj = firstTri + j;
    if (!hasLink(view, linkIdx, Math.min(gi, gj), Math.max(gi, gj))) {
      nb[s] = -1;
      cutNoLink++;
    }
  }

  const uf = new UnionFind(triCount);
  for (let s = 0; s < nb.length; s++) if (nb[s] >= 0) uf.union((s / 3) | 0, nb[s]);
  const component = uf.roots();
  const island = islandBits(component, rawSize);
  const boundary = new Uint8Array(triCount);
  let boundaryEdges = 0, islandTriangles = 0;
  for (let t = 0; t < triCount; t++) {
    let bits = 0;
    for (let k = 0; k < 3; k++) if (nb[3 * t + k] < 0) bits |= 1 << k;
    boundary[t] = bits;
    if (walkable[t]) boundaryEdges += (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1);
    islandTriangles += island[t];
  }
  return {
    name: zone,
    zoneId,
    firstTri,
    triCount,
    vertices,
    tris,
    walkable,
    component,
    island,
    boundary,
    adjacency: input.keepAdjacency ? nb : undefined,
    stats: {
      triangles: triCount,
      walkable: nWalk,
      flipped,
      welded,
      duplicateSlots,
      cutDuplicate,
      cutOneSided,
      cutUnwalkable,
      cutNoLink,
      linksRejected: linkIdx.rejected,
      components: countRoots(component),
      islandTriangles,
      boundaryEdges,
    },
  };
}

/**
 * Island bits (分量与孤岛, formulas.md #24): a cleaned component is an island when the triangles
 * whose raw component has ≤ 512 triangles are a strict majority, `2·n_small > n_total`.
 */
export function islandBits(component: Uint32Array, rawSize: Uint32Array): Uint8Array {
  const n = component.length;
  const small = new Uint32Array(n), total = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    total[component[t]]++;
    if (rawSize[t] <= K_SMALL_COMPONENT_TRIS) small[component[t]]++;
  }
  const out = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const r = component[t];
    out[t] = 2 * small[r] > total[r] ? 1 : 0;
  }
  return out;
}

/** Dense component numbers 0..k-1 in order of their root (smallest member), for pack records. */
export function denseComponents(component: Uint32Array): Uint32Array {
  const map = new Int32Array(component.length).fill(-1);
  const out = new Uint32Array(component.length);
  let next = 0;
  for (let t = 0; t < component.length; t++) {
    const r = component[t];
    if (map[r] < 0) map[r] = next++;
    out[t] = map[r];
  }
  return out;
}

function toGlobal(local: Int32Array, firstTri: number): Int32Array {
  const out = new Int32Array(local.length);
  for (let s = 0; s < local.length; s++) out[s] = local[s] >= 0 ? local[s] + firstTri : -1;
  return out;
}

function toLocal(global: Int32Array, firstTri: number): Int32Array {
  const out = new Int32Array(global.length);
  for (let s = 0; s < global.length; s++) out[s] = global[s] >= 0 ? global[s] - firstTri : -1;
  return out;
}

function checkInputShapes(
  input: ZoneMeshInput,
  triCount: number,
  where: { zone: string; file?: string; section: string },
): void {
  const bad = (what: string, expected: string): never => {
    throw new NavscopeError("count_mismatch", what, where, expected);
  };
  if (triCount === 0) bad("the zone has no triangles", "at least one triangle");
  if (input.triangles.length % 3 !== 0) {
    bad(`triangle index array has ${input.triangles.length} entries`, "a multiple of 3");
  }
  if (input.vertices.length % 3 !== 0) {
    bad(`vertex array has ${input.vertices.length} floats`, "a multiple of 3 (u, v, h)");
  }
  if (input.neighbours && input.neighbours.length !== 3 * triCount) {
    bad(`${input.neighbours.length} neighbour entries`, `3 × ${triCount} triangles`);
  }
  if (input.surfaceFlags && input.surfaceFlags.length !== triCount) {
    bad(`${input.surfaceFlags.length} surface records`, `one per triangle (${triCount})`);
  }
  if (input.links && input.links.source.length !== input.links.target.length) {
    bad("link source and target columns differ in length", "equal lengths");
  }
}

function checkLinksSorted(links: LinkTable, where: { zone: string; file?: string }): void {
  for (let i = 1; i < links.source.length; i++) {
    if (links.source[i] < links.source[i - 1]) {
      throw new NavscopeError(
        "bad_value",
        `link ${i} has source ${links.source[i]} after ${links.source[i - 1]}`,
        { ...where, section: "links" },
        "links sorted by source, non-decreasing",
      );
    }
  }
}
