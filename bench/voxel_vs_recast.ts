/**
 * navscope's voxel planner against Recast/Detour (issue: Planner III benchmarks): the Recast demo
 * meshes' own test-case legs (`recast_pf_*` in examples/nav_test and examples/dungeon, from Recast's
 * `*.txt` test files) planned by `Engine.plan` and by `@recast-navigation/core`'s
 * `NavMeshQuery.computePath` (Detour in WASM, navmesh generated in the same process from the same
 * OBJ with Recast's demo settings), side by side: time per leg, path length (px) and minimum
 * clearance. Clearance of both paths is measured the same way, independently of either planner:
 * the grid record clearance (main pack, squared cells → px) of the cell under each sample every
 * 0.1 px, taking the record nearest the path's height; navscope's own per-point minimum is given
 * beside it. Each leg runs 3 times after one warm-up pass; the median time is reported.
 *
 *     deno run -A bench/voxel_vs_recast.ts
 * @module
 */
import { detourWorld, ex } from "./lib/recast_common.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import { ownedRecords } from "../testing/owned_records.ts";

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** Grid clearance by global cell: the (height, clearance px) pairs of its Core records. */
async function clearanceGrid(pack: string): Promise<Map<number, [number, number][]>> {
  const out = new Map<number, [number, number][]>();
  for (const r of (await ownedRecords(pack)).records) {
    if (!(r.flags & 4)) continue; // Core records only: the walkable surface
    const k = r.gy * 65536 + r.gx, list = out.get(k) ?? [];
    list.push([r.h, r.clr]);
    out.set(k, list);
  }
  return out;
}

/** Minimum grid clearance along a polyline of [x, y, h] px/m points (0 off the core). */
function minClearance(grid: Map<number, [number, number][]>, pts: number[][]): number {
  let m = Infinity;
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1], b = pts[k];
    const n = Math.max(1, Math.ceil(Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) / 0.1));
    for (let i = 0; i <= n; i++) {
      const t = i / n, x = a[0] + (b[0] - a[0]) * t, y = a[1] + (b[1] - a[1]) * t;
      const h = a[2] + (b[2] - a[2]) * t;
      const recs = grid.get(Math.floor(y / 0.25) * 65536 + Math.floor(x / 0.25));
      let c = 0, best = Infinity;
      for (const [rh, rc] of recs ?? []) {
        if (Math.abs(rh - h) < best) (best = Math.abs(rh - h)), (c = rc);
      }
      m = Math.min(m, c);
    }
  }
  return m;
}

const length = (p: number[][]) => {
  let L = 0;
  for (let k = 1; k < p.length; k++) {
    L += Math.sqrt((p[k][0] - p[k - 1][0]) ** 2 + (p[k][1] - p[k - 1][1]) ** 2);
  }
  return L;
};

console.log(
  "| mesh | leg | navscope ms | Detour ms | navscope length px | Detour length px | navscope min clearance px (own) | Detour min clearance px |",
);
console.log("|---|---|---|---|---|---|---|---|");
const summary: string[] = [];
for (const world of ["nav_test", "dungeon"]) {
  const { query, s, ox, oy } = await detourWorld(world);
  const engine = await openEngine(ex(`${world}/base.nav.gz`), { workers: 1 });
  const grid = await clearanceGrid(ex(`${world}/base.nav.gz`));
  const legs = parseLegs(await Deno.readTextFile(ex(`${world}/legs.json`)), "legs.json")
    .filter((l) => l.id.startsWith("recast_pf"));
  if (legs.length === 0) {
    summary.push(`${world}: no Recast test-case legs`);
    engine.close();
    continue;
  }
  const ratios: number[] = [], lr: number[] = [];
  for (const leg of legs) {
    const req = legRequest(leg);
    const r0 = await engine.plan(req); // warm-up
    // The leg's endpoints in OBJ coordinates, at navscope's snapped heights.
    const h0 = r0.heights[0] ?? 0, h1 = r0.heights.at(-1) ?? 0;
    const a = { x: (leg.start[0] - ox) / s, y: h0, z: (leg.start[1] - oy) / s };
    const b = { x: (leg.goal[0] - ox) / s, y: h1, z: (leg.goal[1] - oy) / s };
    const half = { halfExtents: { x: 2, y: 4, z: 2 } };
    query.computePath(a, b, half);
    const nsT: number[] = [], dtT: number[] = [];
    let r = r0, d = query.computePath(a, b, half);
    for (let k = 0; k < 3; k++) {
      let t = performance.now();
      r = await engine.plan(req);
      nsT.push(performance.now() - t);
      t = performance.now();
      d = query.computePath(a, b, half);
      dtT.push(performance.now() - t);
    }
    const nsPts = r.points.map((p, i) => [p[0], p[1], r.heights[i] ?? h0]);
    const dtPts = d.success ? d.path.map((p) => [p.x * s + ox, p.z * s + oy, p.y]) : [];
    const nsL = r.ok ? length(nsPts) : NaN, dtL = d.success ? length(dtPts) : NaN;
    const nsC = r.ok ? minClearance(grid, nsPts) : NaN;
    const dtC = d.success ? minClearance(grid, dtPts) : NaN;
    // navscope's own per-point clearance, without the raw endpoints (attached as given).
    const own = r.ok && r.clearance.length > 2 ? Math.min(...r.clearance.slice(1, -1)) : NaN;
    if (r.ok && d.success) (ratios.push(median(nsT) / median(dtT)), lr.push(nsL / dtL));
    console.log(
      `| ${world} | ${leg.id} | ${median(nsT).toFixed(2)}${r.ok ? "" : ` (${r.error})`} | ${
        median(dtT).toFixed(3)
      }${d.success ? "" : " (no path)"} | ${nsL.toFixed(2)} | ${dtL.toFixed(2)} | ${
        nsC.toFixed(2)
      } (${own.toFixed(2)}) | ${dtC.toFixed(2)} |`,
    );
  }
  summary.push(
    `${world}: ${legs.length} legs, both routed ${ratios.length}; time ratio navscope/Detour median ${
      median(ratios).toFixed(1)
    }×; length ratio median ${median(lr).toFixed(3)}`,
  );
  engine.close();
}
console.log("");
for (const s of summary) console.log(s);
