/**
 * The triangle-mesh planner against Detour (issue 14): per-query time of navscope's mesh planner
 * (snap + triangle A* + corner-point funnel, `meshRoute`) and of `@recast-navigation/core`'s
 * `NavMeshQuery.computePath` (Detour in WASM: nearest poly + findPath + findStraightPath), in
 * the same process, on the same start/goal pairs, on Recast's demo meshes (examples/nav_test,
 * examples/dungeon); plus mesh-planner setup (graph + spatial index) on the example worlds and
 * on a 100 k-triangle grid. Run: `deno run -A bench/mesh_vs_detour.ts [PAIRS]`.
 * @module
 */
import { detourWorld, ex } from "./recast_common.ts";
import { mulberry32 as rng } from "../src/rng.ts";
import { cleanZone } from "../src/mesh/zone_clean.ts";
import { openEngine } from "../src/plan/engine.ts";
import { MeshSearch } from "../src/plan/mesh/astar.ts";
import { buildMeshGraph } from "../src/plan/mesh/graph.ts";
import { heightOn, meshRoute } from "../src/plan/mesh/planner.ts";

const PAIRS = Number(Deno.args[0] ?? 2000);

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

const rows: string[] = [];

for (const world of ["nav_test", "dungeon"]) {
  const { query, navMesh, zone: zoneName, s, ox, oy } = await detourWorld(world);
  const engine = await openEngine(ex(`${world}/base.nav.gz`), { workers: 1 });
  const zs = await engine.zoneState(zoneName);
  const zc = zs.mesh;
  const t0 = performance.now();
  const graph = buildMeshGraph(zc, { offMeshLinks: engine.offMeshLinks() });
  const setupMs = performance.now() - t0;
  const search = new MeshSearch(graph);
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
  const nsMs: number[] = [], dtMs: number[] = [];
  let nsOk = 0, dtOk = 0, bothOk = 0;
  for (let rep = 0; rep < 2; rep++) { // rep 0 warms the JIT, rep 1 is measured
    for (const [a, b] of pairs) {
      let t = performance.now();
      let ok1 = true;
      try {
        meshRoute(zc, graph, search, { start: [a[0], a[1]], goal: [b[0], b[1]] });
      } catch {
        ok1 = false;
      }
      const n1 = performance.now() - t;
      t = performance.now();
      const r = query.computePath(toWorld(a), toWorld(b), { halfExtents: { x: 2, y: 4, z: 2 } });
      const d1 = performance.now() - t;
      if (rep === 0) continue;
      if (ok1 && r.success) {
        nsMs.push(n1);
        dtMs.push(d1);
      }
      nsOk += ok1 ? 1 : 0;
      dtOk += r.success ? 1 : 0;
      bothOk += ok1 && r.success ? 1 : 0;
    }
  }
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  const nsMean = sum(nsMs) / nsMs.length, dtMean = sum(dtMs) / dtMs.length;
  rows.push(
    `| ${world} | ${zc.triCount} | ${navMesh.getMaxTiles()} tile(s) | ${PAIRS} | ${nsOk} / ${dtOk} / ${bothOk} | ` +
      `${(1000 * nsMean).toFixed(1)} (median ${(1000 * median(nsMs)).toFixed(1)}) | ` +
      `${(1000 * dtMean).toFixed(1)} (median ${(1000 * median(dtMs)).toFixed(1)}) | ` +
      `${(nsMean / dtMean).toFixed(2)} | ${setupMs.toFixed(2)} |`,
  );
  engine.close();
}

console.log(
  "| mesh | navscope triangles | Detour | pairs | routed navscope / Detour / both | navscope µs/query (both routed) | Detour µs/query (both routed) | ratio navscope/Detour | navscope setup ms |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);

// Setup on the other example worlds and on a 100 k-triangle grid.
console.log(
  "\n| mesh | triangles | graph ms | spatial index ms | total ms |\n|---|---|---|---|---|",
);
for (const world of ["city_small", "proto_level", "tower_big"]) {
  const engine = await openEngine(ex(`${world}/base.nav.gz`), { workers: 1 });
  const zs = await engine.zoneState(engine.info.zones[0]);
  buildMeshGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() }); // warm-up
  const g = buildMeshGraph(zs.mesh, { offMeshLinks: engine.offMeshLinks() });
  console.log(
    `| ${world} | ${zs.mesh.triCount} | ${g.setupMs.graph.toFixed(2)} | ${
      g.setupMs.index.toFixed(2)
    } | ${(g.setupMs.graph + g.setupMs.index).toFixed(2)} |`,
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
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const g = buildMeshGraph(zc);
    times.push(g.setupMs.graph + g.setupMs.index);
  }
  const g = buildMeshGraph(zc);
  console.log(
    `| grid 224² × 2 | ${zc.triCount} | ${g.setupMs.graph.toFixed(2)} | ${
      g.setupMs.index.toFixed(2)
    } | ${(g.setupMs.graph + g.setupMs.index).toFixed(2)} (median of 6: ${
      median([...times, g.setupMs.graph + g.setupMs.index]).toFixed(2)
    }) |`,
  );
}
