/**
 * The triangle-mesh planner against Detour (issue 14): per-query time of navscope's mesh planner
 * (snap + triangle A* + corner-point funnel, `meshRoute`) and of `@recast-navigation/core`'s
 * `NavMeshQuery.computePath` (Detour in WASM: nearest poly + findPath + findStraightPath), in
 * the same process, on the same start/goal pairs, on Recast's demo meshes (examples/nav_test,
 * examples/dungeon); both mesh modes (issue 30: `triangles`, and `polygons` = the merged convex
 * polygons, `polyMeshRoute`) and Detour run A/B/C alternating on each pair, in one sitting; the
 * route length polygons / triangles per world; plus mesh-planner setup (graph + spatial index,
 * and merge for polygons) on the example worlds and on a 100 k-triangle grid.
 * Run: `deno run -A bench/mesh_vs_detour.ts [PAIRS]`.
 * @module
 */
import { detourWorld, ex } from "./lib/recast_common.ts";
import { mulberry32 as rng } from "../src/rng.ts";
import { cleanZone } from "../src/zone_mesh/zone_clean.ts";
import { openEngine } from "../src/plan/engine.ts";
import { MeshSearch } from "../src/plan/mesh/astar.ts";
import { buildMeshGraph } from "../src/plan/mesh/graph.ts";
import { heightOn, meshRoute, polyMeshRoute } from "../src/plan/mesh/planner.ts";
import { PolySearch } from "../src/plan/mesh/poly_astar.ts";
import { buildPolyGraph } from "../src/plan/mesh/poly_graph.ts";

const PAIRS = Number(Deno.args[0] ?? 2000);

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

const rows: string[] = [], stages: string[] = [];

for (const world of ["nav_test", "dungeon"]) {
  const { query, navMesh, zone: zoneName, s, ox, oy } = await detourWorld(world);
  const engine = await openEngine(ex(`${world}/base.nav.gz`), { workers: 1 });
  const zs = await engine.zoneState(zoneName);
  const zc = zs.mesh;
  const t0 = performance.now();
  const graph = buildMeshGraph(zc, { offMeshLinks: engine.offMeshLinks() });
  const setupMs = performance.now() - t0;
  const search = new MeshSearch(graph);
  const t1 = performance.now();
  const pg = buildPolyGraph(zc, { offMeshLinks: engine.offMeshLinks() });
  const polySetupMs = performance.now() - t1;
  const psearch = new PolySearch(pg);
  // Same pairs for both: centroids of random walkable triangles (px → world: x = (u − ox)/s,
  // z = (v − oy)/s, y = the triangle's height).
  const R = rng(14);
  const walk: number[] = [];
  for (let t = 0; t < zc.triCount; t++) if (zc.walkable[t]) walk.push(t);
  const pairs: [number, number, number][][] = [];
  for (let i = 0; i < PAIRS; i++) {
    const pick = (): [number, number, number] => {
      const t = walk[Math.floor(R() * walk.length)];
      const x = graph.cx[t], y = graph.cy[t];
      return [x, y, heightOn(zc, t, x, y)];
    };
    pairs.push([pick(), pick()]);
  }
  const toWorld = (p: [number, number, number]) => ({
    x: (p[0] - ox) / s,
    y: p[2],
    z: (p[1] - oy) / s,
  });
  const nsMs: number[] = [], dtMs: number[] = [], pgMs: number[] = [];
  const lenRatio: number[] = [];
  let nsOk = 0, dtOk = 0, bothOk = 0, pgOk = 0;
  let lenT = 0, lenP = 0;
  const stage = { tri: [[], [], []], poly: [[], [], []] } as Record<string, number[][]>;
  const keep = (k: string, r: { snapMs: number; searchMs: number; funnelMs: number }) => {
    stage[k][0].push(r.snapMs), stage[k][1].push(r.searchMs), stage[k][2].push(r.funnelMs);
  };
  const tri = (a: number[], b: number[]) => {
    try {
      const r = meshRoute(zc, graph, search, { start: [a[0], a[1]], goal: [b[0], b[1]] });
      keep("tri", r);
      return r.length;
    } catch {
      return -1;
    }
  };
  const poly = (a: number[], b: number[]) => {
    try {
      const r = polyMeshRoute(zc, pg, psearch, { start: [a[0], a[1]], goal: [b[0], b[1]] });
      keep("poly", r);
      return r.length;
    } catch {
      return -1;
    }
  };
  for (let rep = 0; rep < 2; rep++) { // rep 0 warms the JIT, rep 1 is measured
    let q = 0;
    for (const [a, b] of pairs) {
      // Rotate the order per pair (A/B/C, B/C/A, C/A/B) so no mode always runs first.
      const order = q++ % 3;
      let n1 = 0, p1 = 0, d1 = 0, l1 = -1, l2 = -1, ok2 = false;
      for (let k = 0; k < 3; k++) {
        const which = (order + k) % 3;
        const t = performance.now();
        if (which === 0) {
          l1 = tri(a, b);
          n1 = performance.now() - t;
        } else if (which === 1) {
          l2 = poly(a, b);
          p1 = performance.now() - t;
        } else {
          ok2 = query.computePath(toWorld(a), toWorld(b), { halfExtents: { x: 2, y: 4, z: 2 } })
            .success;
          d1 = performance.now() - t;
        }
      }
      if (rep === 0) continue;
      const ok1 = l1 >= 0, okP = l2 >= 0;
      if (ok1 && okP && ok2) {
        nsMs.push(n1);
        pgMs.push(p1);
        dtMs.push(d1);
      }
      if (ok1 && okP) {
        lenT += l1;
        lenP += l2;
        if (l1 > 0) lenRatio.push(l2 / l1);
      }
      nsOk += ok1 ? 1 : 0;
      pgOk += okP ? 1 : 0;
      dtOk += ok2 ? 1 : 0;
      bothOk += ok1 && okP && ok2 ? 1 : 0;
    }
  }
  const us = (a: number[]) => (1000 * median(a)).toFixed(1);
  stages.push(
    `| ${world} | ${stage.tri.map(us).join(" / ")} | ${stage.poly.map(us).join(" / ")} |`,
  );
  rows.push(
    `| ${world} | ${zc.triCount} → ${pg.polyCount} | ${navMesh.getMaxTiles()} tile(s) | ${PAIRS} | ` +
      `${nsOk} / ${pgOk} / ${dtOk} / ${bothOk} | ${us(nsMs)} | ${us(pgMs)} | ${us(dtMs)} | ` +
      `${(median(nsMs) / median(dtMs)).toFixed(2)} | ${
        (median(pgMs) / median(dtMs)).toFixed(2)
      } | ` +
      `${(lenP / lenT).toFixed(4)} (median ${median(lenRatio).toFixed(4)}, max ${
        Math.max(...lenRatio).toFixed(4)
      }) | ${setupMs.toFixed(2)} / ${polySetupMs.toFixed(2)} |`,
  );
  engine.close();
}

console.log(`load: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log(
  "| mesh | triangles → polygons | Detour | pairs | routed tri / poly / Detour / all | tri µs median | poly µs median | Detour µs median | tri / Detour | poly / Detour | length poly / tri (sum; per-pair median, max) | setup ms tri / poly |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(
  "\n| mesh | triangles snap / search / funnel µs (median, routed pairs) | polygons snap / search / funnel µs |\n|---|---|---|",
);
for (const r of stages) console.log(r);

// Setup on the other example worlds and on a 100 k-triangle grid.
console.log(
  "\n| mesh | triangles | polygons | graph ms | spatial index ms | total ms | poly merge ms | poly graph ms | poly total ms |\n|---|---|---|---|---|---|---|---|---|",
);
for (const world of ["city_small", "proto_level", "tower_big"]) {
  const engine = await openEngine(ex(`${world}/base.nav.gz`), { workers: 1 });
  const zs = await engine.zoneState(engine.info.zones[0]);
  buildMeshGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() }); // warm-up
  const g = buildMeshGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() });
  buildPolyGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() }); // warm-up
  const pg = buildPolyGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() });
  const ps = pg.setupMs;
  console.log(
    `| ${world} | ${zs.mesh.triCount} | ${pg.polyCount} | ${g.setupMs.graph.toFixed(2)} | ${
      g.setupMs.index.toFixed(2)
    } | ${(g.setupMs.graph + g.setupMs.index).toFixed(2)} | ${ps.merge.toFixed(2)} | ${
      ps.graph.toFixed(2)
    } | ${(ps.merge + ps.graph + ps.index).toFixed(2)} |`,
  );
  engine.close();
}
{
  const n = 224, v = new Float32Array(3 * (n + 1) * (n + 1)), tris: number[] = [];
  for (let y = 0; y <= n; y++) {
    for (let x = 0; x <= n; x++) {
      const i = y * (n + 1) + x;
      v[3 * i] = x;
      v[3 * i + 1] = y;
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x;
      tris.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  }
  const zc = cleanZone({ name: "grid", vertices: v, triangles: Uint32Array.from(tris) });
  const times: number[] = [], ptimes: number[] = [];
  let pc = 0;
  for (let k = 0; k < 6; k++) {
    const g = buildMeshGraph(zc);
    times.push(g.setupMs.graph + g.setupMs.index);
    const pg = buildPolyGraph(zc);
    ptimes.push(pg.setupMs.merge + pg.setupMs.graph + pg.setupMs.index);
    pc = pg.polyCount;
  }
  console.log(
    `| grid 224² × 2 | ${zc.triCount} | ${pc} | | | ${
      median(times).toFixed(2)
    } (median of 6) | | | ${median(ptimes).toFixed(2)} (median of 6) |`,
  );
  // A jittered grid: the merge has real work (not every pair of triangles makes a square).
  const R = rng(30);
  const vj = v.slice();
  for (let i = 0; i < vj.length; i += 3) {
    vj[i] += 0.3 * (R() - 0.5);
    vj[i + 1] += 0.3 * (R() - 0.5);
  }
  const zj = cleanZone({ name: "jgrid", vertices: vj, triangles: Uint32Array.from(tris) });
  const jt: number[] = [];
  for (let k = 0; k < 6; k++) {
    const pg = buildPolyGraph(zj);
    jt.push(pg.setupMs.merge + pg.setupMs.graph + pg.setupMs.index);
    pc = pg.polyCount;
  }
  console.log(
    `| jittered grid 224² × 2 | ${zj.triCount} | ${pc} | | | | | | ${
      median(jt).toFixed(2)
    } (median of 6) |`,
  );
}
