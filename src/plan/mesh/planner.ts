/**
 * The triangle-mesh planner (issue 14; spec 演进 generations 1–2, note 003): snap both endpoints
 * to the zone's cleaned mesh (吸附, the same keys as the voxel planner), A* over the triangle
 * graph (astar.ts), the corner-point funnel on the corridor (funnel.ts; a corridor crossing an
 * off-mesh link is funnelled piece by piece, start → take-off, landing → … → goal). The result
 * has the voxel planner's shape ({@link PlanResult}); `clearance` is measured on the voxel grid's
 * clearance field (clearance.ts) when asked, so both planners' routes compare on one scale.
 *
 * What it does not do (by design — it is the baseline the main spec replaced): no clearance in
 * the search, no window tiers, no no-go zones or discs, no ledge drops, no deck filter by the
 * goal's region (起点所在的面 step 2).
 * @module
 */
import { closestOnTriangle } from "../../zone_mesh/geom.ts";
import { type SnapHit, type SnapOptions, snapPoint } from "../../zone_mesh/snap.ts";
import type { ZoneClean } from "../../zone_mesh/zone_clean.ts";
import type { OffMeshLink } from "../../pack/bnav/types.ts";
import type { Engine } from "../engine.ts";
import { emptyDebug, PlanFailure, type PlanRequest, type PlanResult, type Pt } from "../types.ts";
import type { ZoneState } from "../window/zone_state.ts";
import { type Corridor, MeshSearch } from "./astar.ts";
import { clearanceField, routeClearance } from "./clearance.ts";
import { funnel, type Portal, type XY } from "./funnel.ts";
import { buildMeshGraph, type MeshGraph } from "./graph.ts";
import { PolySearch } from "./poly_astar.ts";
import { buildPolyGraph, type MeshMode, type PolyGraph } from "./poly_graph.ts";
import { snapFast } from "./snap_index.ts";

/** The mesh planner's own debug record. */
export interface MeshPlanDebug {
  /** Mode searched: triangles or merged convex polygons (issue 30). */
  mode: MeshMode;
  /** Corridor length, nodes of the mode (triangles or polygons; 0 when no corridor). */
  corridor: number;
  /** The corridor's triangles, zone-local (in polygon mode: every triangle of its polygons). */
  corridorTris: number[];
  /** The corridor's polygons (polygon mode; empty in triangle mode). */
  corridorPolys: number[];
  /** Off-mesh links on the corridor (BOML indices). */
  links: number[];
  /** Generation-1 graph cost of the corridor, px. */
  corridorCost: number;
  /** Nodes (triangles or polygons) expanded by A*. */
  expanded: number;
  /** Start / goal triangle (zone-local; −1 when not snapped). */
  startTri: number;
  /** Goal triangle. */
  goalTri: number;
  /** Timings, ms. `setup` is the graph + spatial index build (0 when cached). */
  timing: {
    setup: number;
    snap: number;
    search: number;
    funnel: number;
    clearance: number;
    total: number;
  };
  /** Clearance min / p10 along the route on the voxel grid, px (null when not measured). */
  clearanceMin: number | null;
  /** 10th percentile of the clearance samples, px. */
  clearanceP10: number | null;
  /** Why clearance was not measured ("" when it was, or was not asked for). */
  clearanceNote: string;
}

/** A mesh-planner result: the voxel planner's shape plus {@link MeshPlanDebug}. */
export interface MeshPlanResult extends PlanResult {
  /** Mesh-planner debug. */
  mesh: MeshPlanDebug;
}

/** Options of {@link planMesh}. */
export interface MeshPlanOptions {
  /** Measure clearance on the voxel grid (one buildWindow over the route). Default true. */
  clearance?: boolean;
  /** Search the triangles or the merged convex polygons. Default {@link kDefaultMeshMode}. */
  mode?: MeshMode;
}

/** The default mesh mode (polygons: issue 30's checks pass on them; see docs/mesh_planner.md). */
export const kDefaultMeshMode: MeshMode = "polygons";

interface Prepared {
  graph: MeshGraph;
  search: MeshSearch;
}

const GRAPHS = new WeakMap<ZoneClean, Prepared>();

/** The graph of a zone, built once per cleaned mesh (the engine's buckets are reused). */
export function meshGraphOf(
  zs: ZoneState,
  links: readonly OffMeshLink[] | null,
): { graph: MeshGraph; search: MeshSearch; built: boolean } {
  return oncePerMesh(GRAPHS, zs, () => {
    const graph = buildMeshGraph(zs.mesh, { offMeshLinks: links, buckets: zs.buckets });
    return { graph, search: new MeshSearch(graph) };
  });
}

/** `cache`'s entry for the zone's cleaned mesh, built by `build` the first time. */
function oncePerMesh<T extends object>(
  cache: WeakMap<ZoneClean, T>,
  zs: ZoneState,
  build: () => T,
): T & { built: boolean } {
  const hit = cache.get(zs.mesh);
  if (hit) return { ...hit, built: false };
  const p = build();
  cache.set(zs.mesh, p);
  return { ...p, built: true };
}

interface PreparedPoly {
  graph: PolyGraph;
  search: PolySearch;
}

const POLY_GRAPHS = new WeakMap<ZoneClean, PreparedPoly>();

/** The convex-polygon graph of a zone, built once per cleaned mesh (engine's buckets reused). */
export function polyGraphOf(
  zs: ZoneState,
  links: readonly OffMeshLink[] | null,
): { graph: PolyGraph; search: PolySearch; built: boolean } {
  return oncePerMesh(POLY_GRAPHS, zs, () => {
    const graph = buildPolyGraph(zs.mesh, { offMeshLinks: links });
    return { graph, search: new PolySearch(graph) };
  });
}

/** The route of a corridor: funnel pieces joined at off-mesh links. Points, vertex ids, heights. */
export function corridorRoute(
  graph: MeshGraph,
  corridor: Corridor,
  start: XY,
  goal: XY,
  startH: number,
  goalH: number,
): { points: Pt[]; heights: number[] } {
  const T = graph.zone.tris;
  // Leaving a CCW triangle across a → b: b is the left point, a the right point.
  return funnelPieces(graph.zone, graph.links, corridor, start, goal, startH, goalH, (_i, st) => {
    const t = (st.slot / 3) | 0, k = st.slot - 3 * t;
    return [T[3 * t + (k === 2 ? 0 : k + 1)], T[st.slot]];
  });
}

/** {@link corridorRoute} on a polygon corridor: portals are the polygons' shared edges. */
export function polyCorridorRoute(
  graph: PolyGraph,
  corridor: Corridor,
  start: XY,
  goal: XY,
  startH: number,
  goalH: number,
): { points: Pt[]; heights: number[] } {
  const { polyStart, polyVerts } = graph;
  // Leaving a CCW polygon across corner i → i+1: corner i+1 is the left point, i the right.
  return funnelPieces(graph.zone, graph.links, corridor, start, goal, startH, goalH, (i, st) => {
    const p = corridor.tris[i], e = polyStart[p + 1];
    const nx = st.slot + 1 === e ? polyStart[p] : st.slot + 1;
    return [polyVerts[nx], polyVerts[st.slot]];
  });
}

function funnelPieces(
  zc: ZoneClean,
  links: MeshGraph["links"],
  corridor: Corridor,
  start: XY,
  goal: XY,
  startH: number,
  goalH: number,
  portalOf: (i: number, st: Corridor["steps"][number]) => [number, number],
): { points: Pt[]; heights: number[] } {
  const V = zc.vertices;
  const points: Pt[] = [], heights: number[] = [];
  const add = (res: ReturnType<typeof funnel>, h0: number, h1: number) => {
    res.points.forEach((p, i) => {
      if (i === 0 && points.length > 0) {
        const q = points[points.length - 1];
        if (q[0] === p[0] && q[1] === p[1]) return;
      }
      points.push(p);
      const id = res.ids[i];
      heights.push(id >= 0 ? V[3 * id + 2] : i === 0 ? h0 : h1);
    });
  };
  let from: XY = start, fromH = startH;
  let portals: Portal[] = [];
  for (let i = 0; i < corridor.steps.length; i++) {
    const st = corridor.steps[i];
    if (st.link >= 0) {
      const e = links[st.link];
      add(funnel(from, [e.a[0], e.a[1]], portals), fromH, e.a[2]);
      from = [e.b[0], e.b[1]];
      fromH = e.b[2];
      portals = [];
      continue;
    }
    const [b, a] = portalOf(i, st);
    portals.push({
      left: [V[3 * b], V[3 * b + 1]],
      right: [V[3 * a], V[3 * a + 1]],
      leftId: b,
      rightId: a,
    });
  }
  add(funnel(from, goal, portals), fromH, goalH);
  return { points, heights };
}

/** Height of triangle t's plane at (x, y) (barycentric over the vertex heights), m. */
export function heightOn(zc: ZoneClean, t: number, x: number, y: number): number {
  const V = zc.vertices, T = zc.tris;
  const a = 3 * T[3 * t], b = 3 * T[3 * t + 1], c = 3 * T[3 * t + 2];
  const d = (V[b + 1] - V[c + 1]) * (V[a] - V[c]) + (V[c] - V[b]) * (V[a + 1] - V[c + 1]);
  if (d === 0) return (V[a + 2] + V[b + 2] + V[c + 2]) / 3;
  const wa = ((V[b + 1] - V[c + 1]) * (x - V[c]) + (V[c] - V[b]) * (y - V[c + 1])) / d;
  const wb = ((V[c + 1] - V[a + 1]) * (x - V[c]) + (V[a] - V[c]) * (y - V[c + 1])) / d;
  return wa * V[a + 2] + wb * V[b + 2] + (1 - wa - wb) * V[c + 2];
}

function emptyMeshDebug(): MeshPlanDebug {
  return {
    mode: "triangles",
    corridor: 0,
    corridorTris: [],
    corridorPolys: [],
    links: [],
    corridorCost: 0,
    expanded: 0,
    startTri: -1,
    goalTri: -1,
    timing: { setup: 0, snap: 0, search: 0, funnel: 0, clearance: 0, total: 0 },
    clearanceMin: null,
    clearanceP10: null,
    clearanceNote: "",
  };
}

/**
 * Plans one leg with the triangle-mesh planner. Failures: the engine's load error or
 * `zone_not_found`, `snap_far_from_mesh` (起点/终点不在网格附近), `route_disconnected` (no
 * corridor: the cleaned mesh is disconnected between the two triangles).
 */
export async function planMesh(
  engine: Engine,
  req: PlanRequest,
  opts: MeshPlanOptions = {},
): Promise<MeshPlanResult> {
  const t0 = performance.now();
  const debug = emptyDebug();
  const md = emptyMeshDebug();
  const mode = opts.mode ?? kDefaultMeshMode;
  md.mode = mode;
  const done = (r: Omit<MeshPlanResult, "debug" | "mesh" | "warnings" | "noGo">) => {
    md.timing.total = performance.now() - t0;
    debug.timing.total = md.timing.total;
    return { ...r, noGo: false, warnings: [], debug, mesh: md };
  };
  try {
    const zs = await engine.zoneState(req.zone);
    let r: ReturnType<typeof meshRoute>;
    if (mode === "polygons") {
      const { graph, search, built } = polyGraphOf(zs, engine.offMeshLinks());
      if (built) md.timing.setup = graph.setupMs.merge + graph.setupMs.graph + graph.setupMs.index;
      r = polyMeshRoute(zs.mesh, graph, search, req, md, debug);
    } else {
      const { graph, search, built } = meshGraphOf(zs, engine.offMeshLinks());
      if (built) md.timing.setup = graph.setupMs.graph + graph.setupMs.index;
      r = meshRoute(zs.mesh, graph, search, req, md, debug);
    }
    md.timing.snap = r.snapMs;
    md.timing.search = r.searchMs;
    md.timing.funnel = r.funnelMs;
    debug.timing.topology = r.searchMs;
    debug.timing.geometry = r.funnelMs;
    let clearance: number[] = [];
    if (opts.clearance !== false) {
      const f = await clearanceField(engine, req, [r.points]);
      md.timing.clearance = f.ms;
      if (f.ok) {
        const c = routeClearance(f.window, r.points);
        clearance = c.perPoint;
        md.clearanceMin = c.min;
        md.clearanceP10 = c.p10;
      } else md.clearanceNote = f.reason;
    }
    return done({
      ok: true,
      error: "",
      message: "",
      points: r.points,
      clearance,
      heights: r.heights,
      waypoints: r.points.length > 0 ? [r.points.length - 1] : [],
      drops: [],
      length: r.length,
    });
  } catch (e) {
    if (!(e instanceof PlanFailure)) throw e;
    return done({
      ok: false,
      error: e.code,
      message: e.message,
      points: [],
      clearance: [],
      heights: [],
      waypoints: [],
      drops: [],
      length: 0,
    });
  }
}

/** What {@link meshRoute} and {@link polyMeshRoute} return. */
export interface MeshRouteResult {
  /** Route points, px (raw endpoints attached). */
  points: Pt[];
  /** Height per point, m. */
  heights: number[];
  /** Route length, px. */
  length: number;
  /** The corridor (triangles or polygons). */
  corridor: Corridor;
  /** Stage times, ms. */
  snapMs: number;
  /** A* time, ms. */
  searchMs: number;
  /** Funnel time, ms. */
  funnelMs: number;
}

type RouteReq = Pick<PlanRequest, "start" | "goal" | "startFloorY" | "goalFloorY" | "startDeckY">;

/** Snap, search and funnel on a prepared triangle graph (no engine: tests and benchmarks). */
export function meshRoute(
  zc: ZoneClean,
  graph: MeshGraph,
  search: MeshSearch,
  req: RouteReq,
  md: MeshPlanDebug = emptyMeshDebug(),
  debug = emptyDebug(),
): MeshRouteResult {
  md.mode = "triangles";
  return routeOn(zc, req, md, debug, {
    snap: (x, y, o) => snapPoint(zc, graph.buckets, x, y, o),
    find: (s, g) => search.find(s, g),
    node: (t) => t,
    route: (c, a, b, h0, h1) => corridorRoute(graph, c, a, b, h0, h1),
    linkOf: (l) => graph.links[l].link,
    tris: (c) => c.tris,
  });
}

/** The polygon search's cost model: portal midpoints (default) or the triangle mode's centres. */
export type PolyCostModel = "midpoint" | "centre";

/**
 * Snap, search and funnel on a prepared convex-polygon graph (issue 30). `cost` picks the
 * search ({@link PolySearch.findFrom}, the default, or the centre model {@link PolySearch.find}).
 */
export function polyMeshRoute(
  zc: ZoneClean,
  graph: PolyGraph,
  search: PolySearch,
  req: RouteReq,
  md: MeshPlanDebug = emptyMeshDebug(),
  debug = emptyDebug(),
  cost: PolyCostModel = "midpoint",
): MeshRouteResult {
  md.mode = "polygons";
  return routeOn(zc, req, md, debug, {
    snap: (x, y, o) => snapFast(zc, graph.snap, x, y, o),
    find: cost === "midpoint"
      ? (s, g, sx, sy, gx, gy) => search.findFrom(s, g, sx, sy, gx, gy)
      : (s, g) => search.find(s, g),
    node: (t) => graph.triPoly[t],
    route: (c, a, b, h0, h1) => polyCorridorRoute(graph, c, a, b, h0, h1),
    linkOf: (l) => graph.links[l].link,
    tris: (c) => {
      md.corridorPolys = c.tris;
      const out: number[] = [];
      for (const p of c.tris) {
        for (let i = graph.polyTriStart[p]; i < graph.polyTriStart[p + 1]; i++) {
          out.push(graph.polyTris[i]);
        }
      }
      return out;
    },
  });
}

interface ModeOps {
  snap(x: number, y: number, o: SnapOptions): SnapHit | null;
  find(
    start: number,
    goal: number,
    sx: number,
    sy: number,
    gx: number,
    gy: number,
  ): Corridor | null;
  node(tri: number): number;
  route(
    c: Corridor,
    start: XY,
    goal: XY,
    h0: number,
    h1: number,
  ): { points: Pt[]; heights: number[] };
  linkOf(l: number): number;
  tris(c: Corridor): number[];
}

function routeOn(
  zc: ZoneClean,
  req: RouteReq,
  md: MeshPlanDebug,
  debug: ReturnType<typeof emptyDebug>,
  ops: ModeOps,
): MeshRouteResult {
  const t0 = performance.now();
  const sOpt = req.startDeckY !== null && req.startDeckY !== undefined
    ? { deckY: req.startDeckY }
    : floorOpt(req.startFloorY);
  let ss = ops.snap(req.start[0], req.start[1], sOpt);
  if (!ss && "deckY" in sOpt) {
    ss = ops.snap(req.start[0], req.start[1], floorOpt(req.startFloorY));
  }
  if (!ss) throw new PlanFailure("snap_far_from_mesh", "起点不在网格附近");
  const gs = ops.snap(req.goal[0], req.goal[1], floorOpt(req.goalFloorY));
  if (!gs) throw new PlanFailure("snap_far_from_mesh", "终点不在网格附近");
  debug.meshSnapStart = ss.dist;
  debug.meshSnapGoal = gs.dist;
  md.startTri = ss.tri;
  md.goalTri = gs.tri;
  const t1 = performance.now();
  const corridor = ops.find(ops.node(ss.tri), ops.node(gs.tri), ss.x, ss.y, gs.x, gs.y);
  const t2 = performance.now();
  if (!corridor) {
    md.expanded = 0;
    throw new PlanFailure(
      "route_disconnected",
      `网格不连通: 起点三角 ${ss.tri} 与终点三角 ${gs.tri} 之间没有走廊`,
    );
  }
  md.corridor = corridor.tris.length;
  md.corridorTris = ops.tris(corridor);
  md.corridorCost = corridor.cost;
  md.expanded = corridor.expanded;
  md.links = corridor.steps.filter((s) => s.link >= 0).map((s) => ops.linkOf(s.link));
  const r = ops.route(
    corridor,
    [ss.x, ss.y],
    [gs.x, gs.y],
    heightOn(zc, ss.tri, ss.x, ss.y),
    heightOn(zc, gs.tri, gs.x, gs.y),
  );
  // Raw endpoints are attached as the voxel planner's assemble does (端点拼接).
  const pts = r.points, hs = r.heights;
  if (pts[0][0] !== req.start[0] || pts[0][1] !== req.start[1]) {
    pts.unshift([req.start[0], req.start[1]]);
    hs.unshift(hs[0]);
  }
  const last = pts[pts.length - 1];
  if (last[0] !== req.goal[0] || last[1] !== req.goal[1]) {
    pts.push([req.goal[0], req.goal[1]]);
    hs.push(hs[hs.length - 1]);
  }
  let length = 0;
  for (let i = 1; i < pts.length; i++) {
    length += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  }
  const t3 = performance.now();
  return {
    points: pts,
    heights: hs,
    length,
    corridor,
    snapMs: t1 - t0,
    searchMs: t2 - t1,
    funnelMs: t3 - t2,
  };
}

function floorOpt(y: number | null | undefined): { floorY?: number } {
  return y === null || y === undefined ? {} : { floorY: y };
}

/** Distance from (x, y) to the union of triangles `tris` (0 inside), px. For route checks. */
export function distanceToTriangles(
  zc: ZoneClean,
  tris: readonly number[],
  x: number,
  y: number,
): number {
  const out = new Float64Array(2);
  let best = Infinity;
  for (const t of tris) {
    best = Math.min(best, closestOnTriangle(zc.vertices, zc.tris, t, x, y, out));
    if (best === 0) break;
  }
  return best;
}
