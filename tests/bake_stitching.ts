/**
 * Test helper (not a test): tile stitching against a brute-force whole-zone bake, shared by
 * tests/bake_assembly_scc_test.ts (the fixture world, quick tier) and
 * tests/bake_stitching_dungeon_test.ts (dungeon.obj 3 × 3 tiles, slow tier).
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { bakeManifestFile } from "../src/world/bake_world.ts";
import { snapHeight } from "../src/bake/bake_tile.ts";
import { rasterize } from "../src/bake/rasterize.ts";
import { appendSeamBridge } from "../src/bake/seam_bridge.ts";
import { buildSpans } from "../src/bake/build_spans.ts";
import { labelRegions } from "../src/bake/regions.ts";
import { regionComponents } from "../src/bake/components.ts";
import { collectWallEdges, stampWalls } from "../src/bake/walls.ts";
import { regionFlags } from "../src/bake/flags.ts";
import { clearanceSq } from "../src/bake/clearance.ts";
import { medialAxis } from "../src/bake/medial.ts";
import { stepBans } from "../src/bake/step_bans.ts";
import { facadeSegments } from "../src/bake/facade.ts";
import { wallKeepTable } from "../src/bake/wall_keep.ts";
import { sealedClearance } from "../src/bake/sealed_clearance.ts";
import { loadManifest } from "../src/world/manifest.ts";
import { loadZoneGeometry } from "../src/world/obj.ts";
import { cleanZone } from "../src/zone_mesh/mod.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";

export const FIXTURE = new URL("./fixtures/bake/manifest.json", import.meta.url).pathname;

/** Checks that `a[i] ↦ b[i]` is a bijection between labels. */
function samePartition(a: number[], b: number[], what: string): void {
  const ab = new Map<number, number>(), ba = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const x = ab.get(a[i]), y = ba.get(b[i]);
    assert(
      x === undefined || x === b[i],
      `${what}: label ${a[i]} maps to ${x} and ${b[i]} (item ${i})`,
    );
    assert(
      y === undefined || y === a[i],
      `${what}: label ${b[i]} maps back to ${y} and ${a[i]} (item ${i})`,
    );
    ab.set(a[i], b[i]);
    ba.set(b[i], a[i]);
  }
}

export async function compareWithWholeZone(manifest: string): Promise<void> {
  const a = await bakeManifestFile(manifest, { strictManifold: false, keepGrid: true });
  const world = await loadManifest(manifest);
  const z = world.zones[0];
  const g = await loadZoneGeometry(z);
  const zc = cleanZone({
    name: z.name,
    vertices: g.vertices,
    triangles: g.triangles,
    surfaceFlags: g.surfaceFlags,
  });
  const gz = a.gridZones[0];
  const gx0 = gz.tiles[0].gx0, gy0 = gz.tiles[0].gy0;
  const cols = Math.max(...gz.tiles.map((t) => t.gx0)) - gx0 + 512;
  const rows = Math.max(...gz.tiles.map((t) => t.gy0)) - gy0 + 512;
  const win = { x0: gx0 * 0.25, y0: gy0 * 0.25, nx: cols + 2 * 64 + 1, ny: rows + 2 * 64 + 1 };
  const mesh = { verts: g.vertices, tris: zc.tris, walkable: zc.walkable };
  const built = buildSpans(appendSeamBridge(rasterize(mesh, win), win.nx, win.ny), win.nx, win.ny);
  const grid = built.grid;
  for (let i = 0; i < grid.h.length; i++) grid.h[i] = snapHeight(grid.h[i]);
  const walls = collectWallEdges(mesh, zc.boundary, win);
  const dead = stampWalls(grid, walls, win);
  const { rid, count } = labelRegions(grid);
  const { scc } = regionComponents(grid, rid, count);
  const flags = new Uint8Array(grid.h.length);
  const obstacle = new Uint8Array(win.nx * win.ny).fill(1);
  const extras: string[] = [];
  const ghosts: { cell: number; h: number; r: number }[] = [];
  for (let r = 1; r <= count; r++) {
    const f = regionFlags(grid, rid, r, built.ins, dead, flags);
    for (let i = 0; i < f.addCell.length; i++) {
      if (f.addFlags[i] & SpanFlag.Walk) obstacle[f.addCell[i]] = 0;
      extras.push(`${f.addCell[i]}:${snapHeight(f.addH[i])}:${f.addFlags[i]}`);
      if (f.addFlags[i] & SpanFlag.Ghost) {
        ghosts.push({ cell: f.addCell[i], h: snapHeight(f.addH[i]), r });
      }
    }
  }
  for (let s = 0; s < grid.h.length; s++) if (flags[s] & SpanFlag.Walk) obstacle[grid.cell[s]] = 0;
  const clr = clearanceSq(obstacle, win.nx, win.ny);
  const medial = medialAxis(obstacle, win.nx, win.ny);
  const steps = stepBans(grid, rid);
  const seg = facadeSegments(grid, steps);
  const kt = wallKeepTable(grid, rid, count, flags, walls, win);
  const clr2d = new Uint16Array(grid.h.length);
  for (let r = 1; r <= count; r++) {
    const keys = new Set(kt.key.filter((_, i) => kt.rids[i].includes(r)));
    const keep = Uint8Array.from({ length: walls.n }, (_, i) => keys.has(walls.key[i]) ? 1 : 0);
    const d = sealedClearance(obstacle, walls, keep, win).clr2d;
    for (let s = 0; s < grid.h.length; s++) if (rid[s] === r) clr2d[s] = d[grid.cell[s]];
  }
  // Whole-window span index by (cell, h).
  const byCell = new Map<number, number[]>();
  for (let s = 0; s < grid.h.length; s++) {
    const l = byCell.get(grid.cell[s]);
    if (l) l.push(s);
    else byCell.set(grid.cell[s], [s]);
  }
  const tileRid: number[] = [], bruteRid: number[] = [];
  const tileComp: number[] = [], bruteComp: number[] = [];
  // Ghost proxies over the whole zone (the [I] rule of bake_tile.ts ghostProxy, written out
  // plainly): BFS by 4-steps through Ghost cells of the region; in the first layer with spans
  // of the region, the smallest |Δh|, ties to BFS discovery order then span order.
  const ghostCells = new Set(ghosts.map((q) => `${q.r}:${q.cell}`));
  const dirs = [[1, 0], [0, 1], [-1, 0], [0, -1]];
  const ghostComp = new Map<number, number>(); // cell·2^16 + region → rid·65536 + scc
  for (const q of ghosts) {
    let layer = [q.cell], best = -1;
    const seen = new Set([q.cell]);
    while (layer.length > 0 && best < 0) {
      const next: number[] = [];
      let bestD = Infinity;
      for (const u of layer) {
        for (const [dx, dy] of dirs) {
          const x = (u % win.nx) + dx, y = Math.floor(u / win.nx) + dy;
          if (x < 0 || y < 0 || x >= win.nx || y >= win.ny) continue;
          const v = y * win.nx + x;
          if (seen.has(v)) continue;
          seen.add(v);
          if (ghostCells.has(`${q.r}:${v}`)) next.push(v);
          for (const t of byCell.get(v) ?? []) {
            if (rid[t] === q.r && Math.abs(grid.h[t] - q.h) < bestD) {
              (best = t), (bestD = Math.abs(grid.h[t] - q.h));
            }
          }
        }
      }
      layer = next;
    }
    assert(best >= 0, `whole zone: Ghost at cell ${q.cell} reaches a span of region ${q.r}`);
    ghostComp.set(q.cell * 65536 + q.r, q.r * 65536 + scc[best]);
  }
  let ghostSeen = 0;
  let matched = 0, medialDiffs = 0;
  const fieldDiffs = [0, 0, 0, 0, 0];
  const tileExtras: string[] = [];
  gz.tiles.forEach((t, ti) => {
    const f = a.sidecar.zones[0].tiles[ti];
    for (let i = 0; i < t.spans.n; i++) {
      const c = t.spans.cell[i], lx = c % t.nx, ly = (c - lx) / t.nx;
      if (lx < t.px0 || lx > t.px1 || ly < t.py0 || ly > t.py1) continue; // owned only
      const wc = (t.gy0 + ly - gy0) * win.nx + (t.gx0 + lx - gx0);
      if ((t.spans.flags[i] & (SpanFlag.Ghost | SpanFlag.Fill)) !== 0) {
        tileExtras.push(`${wc}:${t.spans.h[i]}:${t.spans.flags[i]}`);
        if (t.spans.flags[i] & SpanFlag.Ghost) {
          // The Ghost's whole-zone region: the one whose Ghost sits at this cell with this h.
          const q = ghosts.find((e) => e.cell === wc && e.h === t.spans.h[i]);
          assert(q !== undefined, `Ghost at tile ${ti} record ${i} exists in the whole-zone bake`);
          const n = a.sidecar.zones[0].graphs;
          const nScc = n.nScc[[...n.rid].indexOf(t.spans.rid[i])] ?? 0;
          assert(
            f.scc[i] >= 1 && f.scc[i] <= nScc,
            `Ghost at tile ${ti} record ${i}: scc ${f.scc[i]} in 1..${nScc}`,
          );
          ghostSeen++;
          tileRid.push(t.spans.rid[i]);
          bruteRid.push(q!.r);
          tileComp.push(t.spans.rid[i] * 65536 + f.scc[i]);
          bruteComp.push(ghostComp.get(wc * 65536 + q!.r)!);
        }
        continue;
      }
      const s = (byCell.get(wc) ?? []).find((q) => grid.h[q] === t.spans.h[i]);
      assert(s !== undefined, `span at tile ${ti} record ${i} exists in the whole-zone bake`);
      matched++;
      const wcell = grid.cell[s!];
      const got = [t.spans.flags[i], t.spans.clr[i], t.spans.steps[i], f.seg[i], f.clr2d[i]];
      const want = [flags[s!], clr[wcell], steps[s!], seg[s!], clr2d[s!]];
      for (let q = 0; q < 5; q++) {
        if (got[q] !== want[q]) fieldDiffs[q]++;
      }
      if (f.medial[i] !== (medial[wcell] ? 1 : 0)) medialDiffs++;
      tileRid.push(t.spans.rid[i]);
      bruteRid.push(rid[s]);
      tileComp.push(t.spans.rid[i] * 65536 + f.scc[i]);
      bruteComp.push(rid[s] * 65536 + scc[s]);
    }
  });
  assertEquals(matched, grid.h.length, "every whole-zone span is an owned record of one tile");
  // Every per-record field equals the whole-zone bake: flags, clr, steps, seg, clr2d exactly;
  // the medial bit too (NearestSource is a sweep, so it is reported separately).
  assertEquals(fieldDiffs, [0, 0, 0, 0, 0], "records differing in flags, clr, steps, seg, clr2d");
  assertEquals(medialDiffs, 0, "records differing in the medial bit");
  assertEquals(tileExtras.sort(), extras.sort(), "Ghost/Fill records");
  assertEquals(ghostSeen, ghosts.length, "every whole-zone Ghost is an owned record of one tile");
  samePartition(tileRid, bruteRid, "regions");
  samePartition(tileComp, bruteComp, "components");
  assertEquals(gz.globalRegions, count);
}
