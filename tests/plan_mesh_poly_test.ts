/**
 * The mesh planner's convex-polygon mode (issue 30; src/plan/mesh/poly_graph.ts, poly_astar.ts,
 * snap_index.ts): merge invariants (convex, area kept, cut seams kept, one surface per polygon),
 * the funnel against a brute-force visibility shortest path on polygon corridors (checker written
 * here, from the polygons' geometry only), polygon A* against a brute-force Dijkstra,
 * determinism, and the fast snap against the spec's snap.
 */
import { fileURLToPath } from "node:url";
import { assert, assertAlmostEquals, assertEquals } from "./assert.ts";
import { cleanZone, type ZoneClean } from "../src/zone_mesh/zone_clean.ts";
import { snapPoint } from "../src/zone_mesh/snap.ts";
import type { OffMeshLink } from "../src/pack/bnav/types.ts";
import { openEngine } from "../src/plan/engine.ts";
import { cleanedAdjacency } from "../src/plan/mesh/graph.ts";
import { PolySearch } from "../src/plan/mesh/poly_astar.ts";
import { buildPolyGraph, type PolyGraph } from "../src/plan/mesh/poly_graph.ts";
import { polyCorridorRoute, polyMeshRoute } from "../src/plan/mesh/planner.ts";
import { buildSnapIndex, snapFast } from "../src/plan/mesh/snap_index.ts";
import { mulberry32 as rng } from "./rng.ts";

type XY = [number, number];

function meshOf(pts: readonly XY[], tris: number[], flags?: number[]): ZoneClean {
  const v = new Float32Array(3 * pts.length);
  pts.forEach((p, i) => {
    v[3 * i] = p[0];
    v[3 * i + 1] = p[1];
    v[3 * i + 2] = 0.01 * i;
  });
  return cleanZone({
    name: "t",
    vertices: v,
    triangles: Uint32Array.from(tris),
    surfaceFlags: flags ? Uint32Array.from(flags) : undefined,
    keepAdjacency: true,
  });
}

function cross(a: XY, b: XY, c: XY): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function starPolygon(R: () => number, n: number): XY[] {
  const ang = Array.from({ length: n }, (_, i) => (i + 0.8 * R()) * 2 * Math.PI / n);
  return ang.map((a) => {
    const r = 5 + 95 * R();
    return [Math.fround(r * Math.cos(a)), Math.fround(r * Math.sin(a))] as XY;
  });
}

/** Ear clipping of a simple CCW polygon. */
function earClip(p: XY[]): number[] {
  const idx = p.map((_, i) => i), out: number[] = [];
  while (idx.length > 3) {
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

/** A jittered grid of squares, two triangles each; ~15 % unwalkable, ~10 % with another flag. */
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
      flags.push(R() < 0.15 ? 0 : 1, R() < 0.1 ? 0 : 1);
    }
  }
  return { pts, tris, flags };
}

const P = (zc: ZoneClean, v: number): XY => [zc.vertices[3 * v], zc.vertices[3 * v + 1]];

function polyCorners(g: PolyGraph, p: number): number[] {
  return Array.from(g.polyVerts.subarray(g.polyStart[p], g.polyStart[p + 1]));
}

function area(pts: XY[]): number {
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

/** Checks the merge invariants of a polygon graph against its zone's triangles. */
function checkMerge(g: PolyGraph): { merged: number } {
  const zc = g.zone, T = zc.tris, nb = cleanedAdjacency(zc);
  const trisOf: number[][] = Array.from({ length: g.polyCount }, () => []);
  for (let t = 0; t < zc.triCount; t++) {
    const p = g.triPoly[t];
    assert(p >= 0 && p < g.polyCount, `triangle ${t} has a polygon`);
    trisOf[p].push(t);
  }
  let merged = 0;
  for (let p = 0; p < g.polyCount; p++) {
    const c = polyCorners(g, p), pts = c.map((v) => P(zc, v)), ts = trisOf[p];
    assertEquals(
      Array.from(g.polyTris.subarray(g.polyTriStart[p], g.polyTriStart[p + 1])),
      ts,
      `polygon ${p}: triangle list`,
    );
    if (ts.length > 1) {
      merged++;
      // Convex: every corner a strict left turn (counter-clockwise).
      for (let i = 0; i < c.length; i++) {
        const a = pts[(i + c.length - 1) % c.length], b = pts[i], d = pts[(i + 1) % c.length];
        assert(cross(a, b, d) > 0, `polygon ${p} corner ${i} is convex`);
      }
      // One surface: all walkable (unwalkable triangles are never merged).
      for (const t of ts) assert(zc.walkable[t], `polygon ${p}: merged triangle ${t} walkable`);
    }
    // Union of its triangles: the same area, corners = triangles + 2 (no inner vertices).
    let triArea = 0;
    for (const t of ts) {
      triArea += area([P(zc, T[3 * t]), P(zc, T[3 * t + 1]), P(zc, T[3 * t + 2])]);
    }
    assertAlmostEquals(area(pts), triArea, 1e-6 * (1 + Math.abs(triArea)), `polygon ${p} area`);
    assertEquals(c.length, ts.length + 2, `polygon ${p}: corners = triangles + 2`);
    // Every triangle corner is a polygon corner.
    const cs = new Set(c);
    for (const t of ts) for (let k = 0; k < 3; k++) assert(cs.has(T[3 * t + k]), `corner of ${t}`);
  }
  // No polygon spans a cut seam: every triangle edge the cleaned adjacency does not join is an
  // edge of its triangle's polygon; every joined edge inside a polygon is between its triangles.
  for (let t = 0; t < zc.triCount; t++) {
    const c = polyCorners(g, g.triPoly[t]);
    for (let k = 0; k < 3; k++) {
      const a = T[3 * t + k], b = T[3 * t + (k + 1) % 3];
      const i = c.indexOf(a);
      const isEdge = i >= 0 && c[(i + 1) % c.length] === b;
      if (nb[3 * t + k] < 0) assert(isEdge, `cut edge ${a}→${b} of ${t} is a polygon edge`);
      else if (!isEdge) assertEquals(g.triPoly[nb[3 * t + k]], g.triPoly[t], "inner diagonal");
    }
  }
  // Polygon neighbours: a portal's two polygons hold the edge in opposite directions.
  for (let p = 0; p < g.polyCount; p++) {
    const c = polyCorners(g, p);
    for (let i = 0; i < c.length; i++) {
      const q = g.polyNb[g.polyStart[p] + i];
      if (q < 0) continue;
      assert(q !== p, "no self portal");
      const d = polyCorners(g, q), j = d.indexOf(c[(i + 1) % c.length]);
      assert(j >= 0 && d[(j + 1) % d.length] === c[i], `portal ${p}→${q} shared reversed`);
    }
  }
  return { merged };
}

Deno.test("polygon merge: convex, same area, cut seams kept (random grids and star polygons)", () => {
  const R = rng(30);
  let merged = 0, polys = 0, tris = 0;
  for (let trial = 0; trial < 20; trial++) {
    const { pts, tris: t, flags } = gridWorld(R, 10, trial % 2 ? 2.5 : 0);
    const g = buildPolyGraph(meshOf(pts, t, flags));
    merged += checkMerge(g).merged;
    polys += g.polyCount;
    tris += g.zone.triCount;
  }
  for (let trial = 0; trial < 60; trial++) {
    const poly = starPolygon(R, 6 + Math.floor(R() * 30));
    const g = buildPolyGraph(meshOf(poly, earClip(poly)));
    merged += checkMerge(g).merged;
    polys += g.polyCount;
    tris += g.zone.triCount;
  }
  assert(merged > 100 && polys < 0.8 * tris, `merges happen: ${tris} triangles → ${polys}`);
});

for (const world of ["nav_test", "dungeon"]) {
  Deno.test(`polygon merge invariants and fast snap = spec snap on examples/${world}`, async () => {
    const dir = fileURLToPath(new URL(`../examples/${world}/`, import.meta.url));
    const engine = await openEngine(dir + "base.nav.gz", { workers: 1 });
    try {
      const zs = await engine.zoneState(engine.info.zones[0]);
      const g = buildPolyGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() });
      assert(checkMerge(g).merged > 10, `${world}: some polygons merged`);
      // Determinism: a second build gives the same columns.
      const g2 = buildPolyGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() });
      assertEquals(Array.from(g2.polyVerts), Array.from(g.polyVerts));
      assertEquals(Array.from(g2.polyNb), Array.from(g.polyNb));
      assertEquals(Array.from(g2.edgeCost), Array.from(g.edgeCost));
      // Fast snap: the same hit as the spec's snap, with no floor, a floor and a deck.
      const zc = zs.mesh, ix = buildSnapIndex(zc), b = zs.buckets;
      const R = rng(world.length);
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, hit = 0;
      for (let v = 0; v < zc.vertices.length; v += 3) {
        x0 = Math.min(x0, zc.vertices[v]), x1 = Math.max(x1, zc.vertices[v]);
        y0 = Math.min(y0, zc.vertices[v + 1]), y1 = Math.max(y1, zc.vertices[v + 1]);
      }
      for (let i = 0; i < 3000; i++) {
        const x = x0 - 20 + (x1 - x0 + 40) * R(), y = y0 - 20 + (y1 - y0 + 40) * R();
        const h = zc.vertices[3 * Math.floor(R() * (zc.vertices.length / 3)) + 2];
        const opts = i % 3 === 0 ? {} : i % 3 === 1 ? { floorY: h } : { deckY: h };
        const want = snapPoint(zc, b, x, y, opts), got = snapFast(zc, ix, x, y, opts);
        assertEquals(got, want, `snap (${x}, ${y}) ${JSON.stringify(opts)}`);
        if (want) hit++;
      }
      assert(hit > 500, `${world}: ${hit} snaps hit the mesh`);
    } finally {
      engine.close();
    }
  });
}

// --- The funnel on polygon corridors against a brute-force visibility shortest path ----------

function segmentsMeet(a: XY, b: XY, c: XY, d: XY): boolean {
  const o1 = cross(a, b, c), o2 = cross(a, b, d), o3 = cross(c, d, a), o4 = cross(c, d, b);
  if (o1 === 0 && o2 === 0) {
    const ax = Math.min(a[0], b[0]), bx = Math.max(a[0], b[0]);
    const ay = Math.min(a[1], b[1]), by = Math.max(a[1], b[1]);
    return Math.max(c[0], d[0]) >= ax && Math.min(c[0], d[0]) <= bx &&
      Math.max(c[1], d[1]) >= ay && Math.min(c[1], d[1]) <= by;
  }
  return o1 * o2 <= 0 && o3 * o4 <= 0;
}

/**
 * Shortest path inside a chain of convex polygons, by a visibility graph over start, goal and
 * the polygons' corners. Two nodes see each other when they lie in one polygon (convex) or the
 * segment crosses every shared edge between their polygons. Shared edges are found here from
 * the corner coordinates (the two corners consecutive polygons have in common).
 */
function visibilityShortest(start: XY, goal: XY, polys: XY[][]): number {
  const key = (v: XY) => `${v[0]},${v[1]}`;
  const shared: [XY, XY][] = [];
  for (let i = 0; i + 1 < polys.length; i++) {
    const inNext = new Set(polys[i + 1].map(key));
    const common = polys[i].filter((v) => inNext.has(key(v)));
    assertEquals(common.length, 2, `polygons ${i}, ${i + 1} share one edge`);
    shared.push([common[0], common[1]]);
  }
  const nodes: { p: XY; lo: number; hi: number }[] = [
    { p: start, lo: 0, hi: 0 },
    { p: goal, lo: polys.length - 1, hi: polys.length - 1 },
  ];
  const seen = new Map<string, number>();
  polys.forEach((poly, i) => {
    for (const v of poly) {
      const j = seen.get(key(v));
      if (j === undefined) {
        seen.set(key(v), nodes.length);
        nodes.push({ p: v, lo: i, hi: i });
      } else nodes[j].hi = i;
    }
  });
  const visible = (u: number, w: number) => {
    let a = nodes[u], b = nodes[w];
    if (a.lo > b.lo) [a, b] = [b, a];
    if (b.lo <= a.hi) return true;
    for (let k = a.hi; k < b.lo; k++) {
      if (!segmentsMeet(a.p, b.p, shared[k][0], shared[k][1])) return false;
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

function randomInPolygon(R: () => number, g: PolyGraph, p: number): XY {
  // A random convex combination of the corners (inside: the polygon is convex).
  const c = polyCorners(g, p).map((v) => P(g.zone, v));
  const w = c.map(() => R() + 1e-3), s = w.reduce((a, b) => a + b, 0);
  return [
    c.reduce((a, q, i) => a + q[0] * w[i] / s, 0),
    c.reduce((a, q, i) => a + q[1] * w[i] / s, 0),
  ];
}

Deno.test("polygon funnel length equals the visibility shortest path in random convex-polygon corridors", () => {
  const R = rng(3003);
  let corridors = 0, bends = 0, longCorr = 0;
  for (let trial = 0; trial < 300; trial++) {
    const poly = starPolygon(R, 6 + Math.floor(R() * 40));
    const g = buildPolyGraph(meshOf(poly, earClip(poly)));
    const s = Math.floor(R() * g.polyCount), e = Math.floor(R() * g.polyCount);
    const start = randomInPolygon(R, g, s), goal = randomInPolygon(R, g, e);
    // Both searches: the portal-midpoint one (the default) and the centre model.
    const cor = trial % 2
      ? new PolySearch(g).find(s, e)
      : new PolySearch(g).findFrom(s, e, start[0], start[1], goal[0], goal[1]);
    assert(cor, `trial ${trial}: a merged simple polygon is connected`);
    const { points } = polyCorridorRoute(g, cor, start, goal, 0, 0);
    let len = 0;
    for (let i = 1; i < points.length; i++) {
      len += Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    }
    const polys = cor.tris.map((p) => polyCorners(g, p).map((v) => P(g.zone, v)));
    const best = visibilityShortest(start, goal, polys);
    assertAlmostEquals(len, best, 1e-9, `trial ${trial}: funnel ${len} vs visibility ${best}`);
    corridors++;
    bends += points.length - 2;
    if (cor.tris.length >= 4) longCorr++;
  }
  assertEquals(corridors, 300);
  assert(bends > 100 && longCorr > 50, `corridors bend (${bends}), some long (${longCorr})`);
});

// --- Polygon A* against Dijkstra, with links; determinism ------------------------------------

function dijkstra(g: PolyGraph, s: number, e: number): number {
  const n = g.polyCount, d = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  d[s] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] < Infinity && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) return Infinity;
    if (u === e) return d[u];
    done[u] = 1;
    for (let i = g.polyStart[u]; i < g.polyStart[u + 1]; i++) {
      const j = g.polyNb[i];
      if (j >= 0 && d[u] + g.edgeCost[i] < d[j]) d[j] = d[u] + g.edgeCost[i];
    }
    for (const l of g.links) if (l.from === u && d[u] + l.cost < d[l.to]) d[l.to] = d[u] + l.cost;
  }
}

Deno.test("polygon A* is optimal against brute-force Dijkstra; routes stay in their polygons; deterministic", () => {
  const R = rng(31);
  let routed = 0, linked = 0, none = 0;
  for (let trial = 0; trial < 10; trial++) {
    const { pts, tris, flags } = gridWorld(R, 12, 2.5);
    const zc = meshOf(pts, tris, flags);
    const nt = zc.triCount;
    const links: OffMeshLink[] = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.floor(R() * nt), b = Math.floor(R() * nt);
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
        points: [
          ...[0, 1, 2].reduce(
            (
              q,
              k,
            ) => [
              q[0] + zc.vertices[3 * zc.tris[3 * a + k]] / 3,
              q[1] + zc.vertices[3 * zc.tris[3 * a + k] + 1] / 3,
            ],
            [0, 0],
          ),
          0,
          ...[0, 1, 2].reduce(
            (
              q,
              k,
            ) => [
              q[0] + zc.vertices[3 * zc.tris[3 * b + k]] / 3,
              q[1] + zc.vertices[3 * zc.tris[3 * b + k] + 1] / 3,
            ],
            [0, 0],
          ),
          0,
          0,
          0,
          0,
          0,
          0,
          0,
        ],
        dirBits: 1,
        startTriangle: a,
        endTriangle: b,
      });
    }
    const g = buildPolyGraph(zc, { offMeshLinks: links });
    const search = new PolySearch(g);
    for (let q = 0; q < 40; q++) {
      const s = Math.floor(R() * g.polyCount), e = Math.floor(R() * g.polyCount);
      const best = dijkstra(g, s, e);
      const c = search.find(s, e);
      if (best === Infinity) {
        assertEquals(c, null);
        none++;
        continue;
      }
      assert(c, `corridor ${s} → ${e}`);
      assertAlmostEquals(c.cost, best, 1e-9, `A* ${c.cost} vs Dijkstra ${best}`);
      assertEquals(c.tris[0], s);
      assertEquals(c.tris[c.tris.length - 1], e);
      assertEquals(new PolySearch(g).find(s, e), c, "fresh search, same corridor");
      routed++;
      if (c.steps.some((st) => st.link >= 0)) linked++;
    }
    // Full routes on random walkable points: inside the corridor's polygons, and repeatable.
    for (let q = 0; q < 20; q++) {
      const a = Math.floor(R() * nt), b = Math.floor(R() * nt);
      if (!zc.walkable[a] || !zc.walkable[b]) continue;
      const c = (t: number): [number, number] => {
        let x = 0, y = 0;
        for (let k = 0; k < 3; k++) {
          x += zc.vertices[3 * zc.tris[3 * t + k]] / 3;
          y += zc.vertices[3 * zc.tris[3 * t + k] + 1] / 3;
        }
        return [x, y];
      };
      const req = { start: c(a), goal: c(b) };
      let r;
      try {
        r = polyMeshRoute(zc, g, search, req);
      } catch {
        continue;
      }
      assertEquals(polyMeshRoute(zc, g, new PolySearch(g), req).points, r.points);
      const jumps = new Set(g.links.map((l) => `${l.a[0]},${l.a[1]}>${l.b[0]},${l.b[1]}`));
      const polys = r.corridor.tris.map((p) => polyCorners(g, p).map((v) => P(zc, v)));
      const inside = (x: number, y: number) =>
        polys.some((pp) => pp.every((u, i) => cross(u, pp[(i + 1) % pp.length], [x, y]) >= -1e-9));
      for (let i = 1; i < r.points.length; i++) {
        const A = r.points[i - 1], B = r.points[i];
        if (jumps.has(`${A[0]},${A[1]}>${B[0]},${B[1]}`)) continue;
        for (let k = 0; k <= 16; k++) {
          const x = A[0] + (B[0] - A[0]) * k / 16, y = A[1] + (B[1] - A[1]) * k / 16;
          assert(inside(x, y), `(${x}, ${y}) of segment ${i} inside the corridor's polygons`);
        }
      }
    }
  }
  assert(
    routed > 150 && linked > 3 && none > 0,
    `routed ${routed}, via links ${linked}, none ${none}`,
  );
});

/** Lower bound for the portal-midpoint search: Dijkstra over (polygon, entry portal) states. */
function stateDijkstra(g: PolyGraph, s: number, e: number, S: XY, G: XY): number {
  // State: an edge index (entered through it; its polygon is polyNb of it) or −1 − p for the
  // start; link landings are states too (−1 − polyCount − link).
  const pos = new Map<number, { p: number; x: number; y: number }>();
  const dist = new Map<number, number>(), done = new Set<number>();
  const startKey = -1 - s;
  pos.set(startKey, { p: s, x: S[0], y: S[1] });
  dist.set(startKey, 0);
  let best = Infinity;
  for (;;) {
    let u: number | null = null;
    for (const [k, d] of dist) if (!done.has(k) && (u === null || d < dist.get(u)!)) u = k;
    if (u === null || dist.get(u)! >= best) return best;
    done.add(u);
    const { p, x, y } = pos.get(u)!, du = dist.get(u)!;
    if (p === e) best = Math.min(best, du + Math.hypot(G[0] - x, G[1] - y));
    const relax = (k: number, q: number, nx: number, ny: number, c: number) => {
      if (!pos.has(k)) pos.set(k, { p: q, x: nx, y: ny });
      if (du + c < (dist.get(k) ?? Infinity)) dist.set(k, du + c);
    };
    for (let i = g.polyStart[p]; i < g.polyStart[p + 1]; i++) {
      const q = g.polyNb[i];
      if (q < 0) continue;
      relax(i, q, g.midX[i], g.midY[i], Math.hypot(g.midX[i] - x, g.midY[i] - y));
    }
    g.links.forEach((l, li) => {
      if (l.from !== p) return;
      relax(
        -1 - g.polyCount - li,
        l.to,
        l.b[0],
        l.b[1],
        Math.hypot(l.a[0] - x, l.a[1] - y) + l.span,
      );
    });
  }
}

Deno.test("portal-midpoint polygon search: cost matches its corridor, never below the state-space optimum", () => {
  const R = rng(32);
  let routed = 0, none = 0, exact = 0;
  for (let trial = 0; trial < 8; trial++) {
    const { pts, tris, flags } = gridWorld(R, 10, 2.5);
    const zc = meshOf(pts, tris, flags);
    const g = buildPolyGraph(zc);
    const search = new PolySearch(g);
    for (let q = 0; q < 30; q++) {
      const s = Math.floor(R() * g.polyCount), e = Math.floor(R() * g.polyCount);
      const S = randomInPolygon(R, g, s), G = randomInPolygon(R, g, e);
      const c = search.findFrom(s, e, S[0], S[1], G[0], G[1]);
      const reach = dijkstra(g, s, e) < Infinity;
      if (!reach) {
        assertEquals(c, null);
        none++;
        continue;
      }
      assert(c, `corridor ${s} → ${e}`);
      // Recompute the cost from the corridor: start → midpoints → goal.
      let x = S[0], y = S[1], cost = 0;
      c.steps.forEach((st, i) => {
        assert(st.link < 0, "no links in this world");
        assert(st.slot >= g.polyStart[c.tris[i]] && st.slot < g.polyStart[c.tris[i] + 1]);
        assertEquals(g.polyNb[st.slot], c.tris[i + 1]);
        cost += Math.hypot(g.midX[st.slot] - x, g.midY[st.slot] - y);
        x = g.midX[st.slot], y = g.midY[st.slot];
      });
      cost += Math.hypot(G[0] - x, G[1] - y);
      assertAlmostEquals(c.cost, cost, 1e-9, "cost = its corridor's midpoint polyline");
      const lb = stateDijkstra(g, s, e, S, G);
      assert(c.cost >= lb - 1e-9, `A* ${c.cost} below the optimum ${lb}`);
      if (c.cost <= lb + 1e-9) exact++;
      assertEquals(new PolySearch(g).findFrom(s, e, S[0], S[1], G[0], G[1]), c, "deterministic");
      routed++;
    }
  }
  assert(
    routed > 100 && none > 0 && exact > 0.5 * routed,
    `routed ${routed}, none ${none}, exact ${exact}`,
  );
});
