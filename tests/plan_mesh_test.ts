/**
 * The triangle-mesh planner (src/plan/mesh/, issue 14): the note's corner-point walk-through,
 * funnel optimality against a brute-force visibility graph inside random corridors, A* against a
 * brute-force Dijkstra, tie determinism.
 */
import { assert, assertAlmostEquals, assertEquals } from "./assert.ts";
import { cleanZone, type ZoneClean } from "../src/zone_mesh/zone_clean.ts";
import { NO_TRIANGLE, type OffMeshLink } from "../src/pack/bnav/types.ts";
import { findCorridor, MeshSearch } from "../src/plan/mesh/astar.ts";
import { funnel, type FunnelEvent, type Portal, type XY } from "../src/plan/mesh/funnel.ts";
import { buildMeshGraph, cleanedAdjacency, type MeshGraph } from "../src/plan/mesh/graph.ts";
import { corridorRoute, meshRoute } from "../src/plan/mesh/planner.ts";
import { mulberry32 as rng } from "./rng.ts";

function meshOf(pts: readonly XY[], tris: number[], flags?: number[]): ZoneClean {
  const v = new Float32Array(3 * pts.length);
  pts.forEach((p, i) => {
    v[3 * i] = p[0];
    v[3 * i + 1] = p[1];
  });
  return cleanZone({
    name: "t",
    vertices: v,
    triangles: Uint32Array.from(tris),
    surfaceFlags: flags ? Uint32Array.from(flags) : undefined,
    keepAdjacency: true,
  });
}

// --- The note's walk-through: five convex polygons, CCW, current → goal -------------------------

const POLYS: XY[][] = [
  [[0, 0], [4, 0], [4, 4], [0, 4]],
  [[4, 0], [8, 1], [8, 3], [4, 4]],
  [[8, 1], [12, 1.5], [12, 6], [8, 3]],
  [[12, 1.5], [13, -3], [16, -3], [12, 6]],
  [[13, -3], [14, -8], [17, -8], [16, -3]],
];
const CURRENT: XY = [1, 2], GOAL: XY = [15, -7];

/** Exit edges (穿出边) of consecutive CCW polygons: the shared edge a → b of the one left. */
function exitEdges(polys: XY[][]): Portal[] {
  const out: Portal[] = [];
  for (let i = 0; i + 1 < polys.length; i++) {
    const p = polys[i], q = polys[i + 1];
    const key = (v: XY) => `${v[0]},${v[1]}`;
    const inQ = new Set(q.map(key));
    let found: Portal | null = null;
    for (let k = 0; k < p.length; k++) {
      const a = p[k], b = p[(k + 1) % p.length];
      if (inQ.has(key(a)) && inQ.has(key(b))) found = { left: b, right: a };
    }
    assert(found, `polygons ${i} and ${i + 1} share an edge`);
    out.push(found);
  }
  return out;
}

function ccwArea(p: XY[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i], b = p[(i + 1) % p.length];
    s += a[0] * b[1] - a[1] * b[0];
  }
  return s / 2;
}

Deno.test("corner-point funnel: the note's five polygons, steps (1)–(6)", () => {
  for (const p of POLYS) assert(ccwArea(p) > 0, "polygons stored counter-clockwise");
  const portals = exitEdges(POLYS);
  // (1) the exit edges; left/right from the CCW order.
  assertEquals(portals.map((e) => [e.left, e.right]), [
    [[4, 4], [4, 0]],
    [[8, 3], [8, 1]],
    [[12, 6], [12, 1.5]],
    [[16, -3], [13, -3]],
  ]);
  const ev: FunnelEvent[] = [];
  const r = funnel(CURRENT, GOAL, portals, (e) => ev.push(e));
  const step = (portal: number) =>
    ev.filter((e) => e.portal === portal && e.apex[0] === 1).map((e) => `${e.side}:${e.action}`);
  // (2) lineLeft / lineRight to the first exit edge's points.
  assertEquals(step(0), ["left:narrow", "right:narrow"]);
  // (3) both new points lie between the lines: both lines move.
  assertEquals(step(1), ["left:narrow", "right:narrow"]);
  // (4) the new left point is outside (no change); the new right point is inside (lineRight moves).
  assertEquals(step(2), ["left:keep", "right:narrow"]);
  // (5) both points of the next exit edge are right of lineRight: lineRight's end is a corner.
  assertEquals(step(3), ["left:corner"]);
  // (6) on to the goal from the new apex.
  assert(ev.some((e) => e.apex[0] === 12 && e.apex[1] === 1.5), "apex moved to the corner");
  assertEquals(r.points, [[1, 2], [12, 1.5], [15, -7]]);
  assertEquals(r.portalOf, [-1, 2, -1]);
  assertAlmostEquals(r.length, Math.hypot(11, 0.5) + Math.hypot(3, 8.5), 1e-12);
});

Deno.test("mesh planner on the five polygons fanned into triangles: same corner", () => {
  const pts: XY[] = [], idx = new Map<string, number>(), tris: number[] = [];
  const id = (v: XY) => {
    const k = `${v[0]},${v[1]}`;
    if (!idx.has(k)) {
      idx.set(k, pts.length);
      pts.push(v);
    }
    return idx.get(k)!;
  };
  for (const p of POLYS) {
    for (let k = 1; k + 1 < p.length; k++) tris.push(id(p[0]), id(p[k]), id(p[k + 1]));
  }
  const zc = meshOf(pts, tris);
  const g = buildMeshGraph(zc);
  const r = meshRoute(zc, g, new MeshSearch(g), { start: [1, 2], goal: [15, -7] });
  assertEquals(r.points, [[1, 2], [12, 1.5], [15, -7]]);
});

// --- Funnel optimality in random corridors ------------------------------------------------------

/** A random star-shaped simple polygon (CCW), float32 coordinates. */
function starPolygon(R: () => number, n: number): XY[] {
  // Jittered even angles: every gap below π, so the polygon is star-shaped around the origin.
  const ang = Array.from({ length: n }, (_, i) => (i + 0.8 * R()) * 2 * Math.PI / n);
  return ang.map((a) => {
    const r = 5 + 95 * R();
    return [Math.fround(r * Math.cos(a)), Math.fround(r * Math.sin(a))] as XY;
  });
}

function cross(a: XY, b: XY, c: XY): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/** Ear clipping of a simple CCW polygon. */
function earClip(p: XY[]): number[] {
  const idx = p.map((_, i) => i), out: number[] = [];
  let guard = 0;
  while (idx.length > 3 && guard++ < 10000) {
    let cut = false;
    for (let i = 0; i < idx.length && !cut; i++) {
      const a = idx[(i + idx.length - 1) % idx.length], b = idx[i], c = idx[(i + 1) % idx.length];
      if (cross(p[a], p[b], p[c]) <= 0) continue;
      let empty = true;
      for (const j of idx) {
        if (j === a || j === b || j === c) continue;
        if (
          cross(p[a], p[b], p[j]) >= 0 && cross(p[b], p[c], p[j]) >= 0 &&
          cross(p[c], p[a], p[j]) >= 0
        ) empty = false;
      }
      if (!empty) continue;
      out.push(a, b, c);
      idx.splice(i, 1);
      cut = true;
    }
    if (!cut) throw new Error("ear clipping stuck");
  }
  out.push(idx[0], idx[1], idx[2]);
  return out;
}

function segmentsMeet(a: XY, b: XY, c: XY, d: XY): boolean {
  const o1 = cross(a, b, c), o2 = cross(a, b, d), o3 = cross(c, d, a), o4 = cross(c, d, b);
  if (o1 === 0 && o2 === 0) {
    // Collinear: overlap of the projections.
    const ax = Math.min(a[0], b[0]), bx = Math.max(a[0], b[0]);
    const ay = Math.min(a[1], b[1]), by = Math.max(a[1], b[1]);
    return Math.max(c[0], d[0]) >= ax && Math.min(c[0], d[0]) <= bx &&
      Math.max(c[1], d[1]) >= ay && Math.min(c[1], d[1]) <= by;
  }
  return o1 * o2 <= 0 && o3 * o4 <= 0;
}

/**
 * Brute-force shortest path inside a corridor (a chain of triangles): a visibility graph over
 * start, goal and the corridor's vertices. A segment between two nodes lies in the corridor iff
 * the nodes share a corridor triangle or the segment meets every exit edge between them.
 */
function visibilityShortest(start: XY, goal: XY, tris: XY[][], portals: Portal[]): number {
  const nodes: { p: XY; lo: number; hi: number }[] = [
    { p: start, lo: 0, hi: 0 },
    { p: goal, lo: tris.length - 1, hi: tris.length - 1 },
  ];
  const seen = new Map<string, number>();
  tris.forEach((t, i) => {
    for (const v of t) {
      const k = `${v[0]},${v[1]}`;
      const j = seen.get(k);
      if (j === undefined) {
        seen.set(k, nodes.length);
        nodes.push({ p: v, lo: i, hi: i });
      } else nodes[j].hi = i;
    }
  });
  const visible = (u: number, w: number) => {
    let a = nodes[u], b = nodes[w];
    if (a.lo > b.lo) [a, b] = [b, a];
    if (b.lo <= a.hi) return true;
    for (let k = a.hi; k < b.lo; k++) {
      if (!segmentsMeet(a.p, b.p, portals[k].left, portals[k].right)) return false;
    }
    return true;
  };
  const n = nodes.length, dist = new Array(n).fill(Infinity), done = new Array(n).fill(false);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || dist[u] === Infinity) break;
    done[u] = true;
    if (u === 1) break;
    for (let w = 0; w < n; w++) {
      if (done[w] || !visible(u, w)) continue;
      const d = dist[u] + Math.hypot(nodes[w].p[0] - nodes[u].p[0], nodes[w].p[1] - nodes[u].p[1]);
      if (d < dist[w]) dist[w] = d;
    }
  }
  return dist[1];
}

function randomInTriangle(R: () => number, zc: ZoneClean, t: number): XY {
  let u = R(), v = R();
  if (u + v > 1) [u, v] = [1 - u, 1 - v];
  const V = zc.vertices, T = zc.tris;
  const a = 3 * T[3 * t], b = 3 * T[3 * t + 1], c = 3 * T[3 * t + 2];
  return [
    V[a] + u * (V[b] - V[a]) + v * (V[c] - V[a]),
    V[a + 1] + u * (V[b + 1] - V[a + 1]) + v * (V[c + 1] - V[a + 1]),
  ];
}

Deno.test("funnel length equals the visibility-graph shortest path in random corridors (1e-9)", () => {
  const R = rng(14);
  let corridors = 0, bends = 0;
  for (let trial = 0; trial < 300; trial++) {
    const poly = starPolygon(R, 6 + Math.floor(R() * 30));
    const zc = meshOf(poly, earClip(poly));
    const g = buildMeshGraph(zc);
    const s = Math.floor(R() * zc.triCount), e = Math.floor(R() * zc.triCount);
    const cor = findCorridor(g, s, e);
    assert(
      cor,
      `trial ${trial}: a triangulated simple polygon is connected ${JSON.stringify(zc.stats)}`,
    );
    const start = randomInTriangle(R, zc, s), goal = randomInTriangle(R, zc, e);
    const { points } = corridorRoute(g, cor, start, goal, 0, 0);
    const V = zc.vertices, T = zc.tris;
    const P = (v: number): XY => [V[3 * v], V[3 * v + 1]];
    const tris = cor.tris.map((t) => [P(T[3 * t]), P(T[3 * t + 1]), P(T[3 * t + 2])]);
    const portals = cor.steps.map((st) => {
      const t = (st.slot / 3) | 0, k = st.slot % 3;
      return { left: P(T[3 * t + (k + 1) % 3]), right: P(T[st.slot]) };
    });
    let len = 0;
    for (let i = 1; i < points.length; i++) {
      len += Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    }
    const best = visibilityShortest(start, goal, tris, portals);
    assertAlmostEquals(len, best, 1e-9, `trial ${trial}: funnel ${len} vs visibility ${best}`);
    corridors++;
    bends += points.length - 2;
  }
  assertEquals(corridors, 300);
  assert(bends > 100, `the corridors bend (${bends} corners)`);
});

// --- A* against Dijkstra; ties ------------------------------------------------------------------

/** A jittered grid of squares, two triangles each, some unwalkable, plus random links. */
function gridWorld(R: () => number, n: number, jitter: number) {
  const pts: XY[] = [];
  for (let y = 0; y <= n; y++) {
    for (let x = 0; x <= n; x++) {
      const j = x > 0 && x < n && y > 0 && y < n ? jitter : 0;
      pts.push([Math.fround(x * 4 + (R() - 0.5) * j), Math.fround(y * 4 + (R() - 0.5) * j)]);
    }
  }
  const tris: number[] = [], flags: number[] = [];
  const id = (x: number, y: number) => y * (n + 1) + x;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      tris.push(id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y), id(x + 1, y + 1), id(x, y + 1));
      const w = R() < 0.15 ? 0 : 1;
      flags.push(w, R() < 0.1 ? 0 : 1);
    }
  }
  return { pts, tris, flags };
}

function dijkstra(g: MeshGraph, s: number, e: number): number {
  const n = g.triCount, d = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  d[s] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] < Infinity && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) return Infinity;
    if (u === e) return d[u];
    done[u] = 1;
    for (let k = 0; k < 3; k++) {
      const j = g.nb[3 * u + k];
      if (j >= 0 && d[u] + g.edgeCost[3 * u + k] < d[j]) d[j] = d[u] + g.edgeCost[3 * u + k];
    }
    for (const l of g.links) if (l.from === u && d[u] + l.cost < d[l.to]) d[l.to] = d[u] + l.cost;
  }
}

function corridorCost(
  g: MeshGraph,
  c: { tris: number[]; steps: { slot: number; link: number }[] },
) {
  let s = 0;
  c.steps.forEach((st, i) => {
    if (st.link >= 0) {
      assertEquals(g.links[st.link].from, c.tris[i]);
      assertEquals(g.links[st.link].to, c.tris[i + 1]);
      s += g.links[st.link].cost;
    } else {
      assertEquals((st.slot / 3) | 0, c.tris[i]);
      assertEquals(g.nb[st.slot], c.tris[i + 1]);
      s += g.edgeCost[st.slot];
    }
  });
  return s;
}

Deno.test("triangle A* is optimal against brute-force Dijkstra (with off-mesh links)", () => {
  const R = rng(7);
  let routed = 0, linked = 0, none = 0;
  for (let trial = 0; trial < 12; trial++) {
    const { pts, tris, flags } = gridWorld(R, 12, 2.5);
    const zc = meshOf(pts, tris, flags);
    const nt = zc.triCount;
    const links: OffMeshLink[] = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.floor(R() * nt), b = Math.floor(R() * nt);
      const pa = randomInTriangle(R, zc, a), pb = randomInTriangle(R, zc, b);
      links.push({
        zone: 1,
        kind: 0,
        isExt: 0,
        bidirectional: R() < 0.5 ? 1 : 0,
        area: 0,
        linkType: 0,
        direction: 0,
        radius: 1,
        costModifier: R() < 0.3 ? 0.5 : 1 + 3 * R(),
        points: [pa[0], pa[1], 0, pb[0], pb[1], 0, 0, 0, 0, 0, 0, 0],
        dirBits: 1,
        startTriangle: a,
        endTriangle: k === 5 ? NO_TRIANGLE : b,
      });
    }
    const g = buildMeshGraph(zc, { offMeshLinks: links });
    const expected = links.reduce(
      (n, l) =>
        n +
        (l.endTriangle !== NO_TRIANGLE && zc.walkable[l.startTriangle] &&
            zc.walkable[l.endTriangle]
          ? 1 + l.bidirectional
          : 0),
      0,
    );
    assertEquals(g.links.length, expected, "links with two walkable ends become edges");
    const search = new MeshSearch(g);
    for (let q = 0; q < 40; q++) {
      const s = Math.floor(R() * nt), e = Math.floor(R() * nt);
      if (!zc.walkable[s] || !zc.walkable[e]) continue;
      const best = dijkstra(g, s, e);
      const c = search.find(s, e);
      if (best === Infinity) {
        assertEquals(c, null);
        none++;
        continue;
      }
      assert(c, `corridor ${s} → ${e}`);
      assertAlmostEquals(c.cost, best, 1e-9, `A* ${c.cost} vs Dijkstra ${best}`);
      assertAlmostEquals(corridorCost(g, c), c.cost, 1e-9);
      assertEquals(c.tris[0], s);
      assertEquals(c.tris[c.tris.length - 1], e);
      // Same query, fresh search and reused search: the same corridor.
      assertEquals(findCorridor(g, s, e)!.tris, c.tris);
      routed++;
      if (c.steps.some((st) => st.link >= 0)) linked++;
    }
  }
  assert(
    routed > 200 && linked > 5 && none > 0,
    `routed ${routed}, via links ${linked}, none ${none}`,
  );
});

Deno.test("cleaned adjacency rebuilt from boundary bits equals cleaning's own", () => {
  const R = rng(3);
  const { pts, tris, flags } = gridWorld(R, 10, 2);
  const zc = meshOf(pts, tris, flags);
  const again = { ...zc, adjacency: undefined };
  assertEquals(cleanedAdjacency(again), zc.adjacency);
});

Deno.test("A* ties: equal-cost corridors break by triangle index, deterministically", () => {
  // A square split into four triangles around its centre O; start and goal opposite, the two
  // side triangles give exactly equal corridors.
  const pts: XY[] = [[0, 0], [0, -2], [2, 0], [0, 2], [-2, 0]];
  const S = [0, 1, 2], G = [0, 3, 4], A = [0, 2, 3], B = [0, 4, 1];
  for (const order of [[S, A, B, G], [S, B, A, G], [G, B, S, A], [A, G, B, S]]) {
    const zc = meshOf(pts, order.flat());
    const g = buildMeshGraph(zc);
    const s = order.indexOf(S), e = order.indexOf(G);
    const a = order.indexOf(A), b = order.indexOf(B);
    const c = findCorridor(g, s, e)!;
    assertEquals(c.tris, [s, Math.min(a, b), e], `order ${JSON.stringify(order)}`);
    for (let k = 0; k < 3; k++) assertEquals(findCorridor(g, s, e)!.tris, c.tris);
    // The reverse query also takes the lower-indexed side.
    assertEquals(findCorridor(g, e, s)!.tris, [e, Math.min(a, b), s]);
  }
});
