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
import { init, NavMeshQuery } from "@recast-navigation/core";
import { generateSoloNavMesh } from "@recast-navigation/generators";
import { fileURLToPath } from "node:url";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/world/legs.ts";
import { readMaybeGzip } from "../src/codec/file.ts";
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { decodeBgrdTile, parseBgrd } from "../src/pack/bgrd/section.ts";

const ex = (p: string) => fileURLToPath(new URL(`../examples/${p}`, import.meta.url));

function parseObj(text: string): { positions: number[]; indices: number[] } {
  const positions: number[] = [], indices: number[] = [];
  for (const line of text.split("\n")) {
    const p = line.trim().split(/\s+/);
    if (p[0] === "v") positions.push(+p[1], +p[2], +p[3]);
    else if (p[0] === "f") {
      const v = p.slice(1).map((s) => {
        const i = parseInt(s.split("/")[0]);
        return i < 0 ? positions.length / 3 + i : i - 1;
      });
      for (let k = 1; k + 1 < v.length; k++) indices.push(v[0], v[k], v[k + 1]);
    }
  }
  return { positions, indices };
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** Grid clearance by global cell: the (height, clearance px) pairs of its records. */
async function clearanceGrid(pack: string): Promise<Map<number, [number, number][]>> {
  const section = parseBgrd(decodeMainPack(await readMaybeGzip(pack)).pack.grid!);
  const z = section.zones[0], out = new Map<number, [number, number][]>();
  for (let t = 0; t < z.tiles.length; t++) {
    const te = z.tiles[t];
    if (te.records === 0) continue;
    const cols = decodeBgrdTile(section, 0, t);
    for (let i = 0; i < cols.n; i++) {
      const lx = cols.cell[i] % te.nx, ly = Math.floor(cols.cell[i] / te.nx);
      if (lx < te.px0 || lx > te.px1 || ly < te.py0 || ly > te.py1) continue;
      if (!(cols.flags[i] & 4)) continue; // Core records only: the walkable surface
      const k = (te.gy0 + ly) * 65536 + (te.gx0 + lx);
      const list = out.get(k) ?? [];
      list.push([cols.h[i], Math.sqrt(cols.clr[i]) * 0.25]);
      out.set(k, list);
    }
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

await init();
console.log(
  "| mesh | leg | navscope ms | Detour ms | navscope length px | Detour length px | navscope min clearance px (own) | Detour min clearance px |",
);
console.log("|---|---|---|---|---|---|---|---|");
const summary: string[] = [];
for (const world of ["nav_test", "dungeon"]) {
  const manifest = JSON.parse(await Deno.readTextFile(ex(`${world}/world.json`)));
  const zone = manifest.zones[0], mesh = zone.meshes[0];
  const s = mesh.px_per_m, [ox, oy] = mesh.offset_px;
  const obj = parseObj(await Deno.readTextFile(ex(`${world}/${mesh.file}`)));
  const gen = generateSoloNavMesh(obj.positions, obj.indices, {
    cs: 0.3,
    ch: 0.2,
    walkableSlopeAngle: 45,
    walkableHeight: 10,
    walkableClimb: 4,
    walkableRadius: 2,
  });
  if (!gen.success) throw new Error(`${world}: Detour navmesh: ${gen.error}`);
  const query = new NavMeshQuery(gen.navMesh);
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
