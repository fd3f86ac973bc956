/**
 * Tile layout of the baker (alignment to the global cell grid, ownership, neighbours) and the
 * tile stage's per-region sealed clearance against the whole-window operator.
 */
import { assert, assertEquals } from "./assert.ts";
import { bakeTile, snapHeight } from "../src/bake/bake_tile.ts";
import { cleanZone } from "../src/zone_mesh/mod.ts";
import { rasterize } from "../src/bake/rasterize.ts";
import { appendSeamBridge } from "../src/bake/seam_bridge.ts";
import { buildSpans } from "../src/bake/build_spans.ts";
import { collectWallEdges, stampWalls } from "../src/bake/walls.ts";
import { labelRegions } from "../src/bake/regions.ts";
import { regionFlags } from "../src/bake/flags.ts";
import { wallKeepTable } from "../src/bake/wall_keep.ts";
import { sealedClearance } from "../src/bake/sealed_clearance.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";
import { ownedOrigin, ownerOf, tilesTouchingWindow, zoneTiles } from "../src/bake/tiles.ts";

Deno.test("bake tiles: zone cell box on global cell lines, 512-cell owned squares, 64-cell apron", () => {
  const z = zoneTiles(-2.1, 0.3, 304, 44);
  // ⌊-2.1 / 0.25⌋ = -9; ⌈(−2.1 + 304) / 0.25⌉ = 1208 → 1217 cells wide.
  assertEquals([z.gxMin, z.gyMin, z.w, z.h, z.cols, z.rows], [-9, 1, 1217, 177, 3, 1]);
  assertEquals(z.tiles.length, 3);
  assertEquals(z.tiles[1], {
    gx0: -9 + 512 - 64,
    gy0: 1 - 64,
    nx: 641,
    ny: 641,
    px0: 64,
    px1: 575,
    py0: 64,
    py1: 575,
  });
  assertEquals(ownedOrigin(z, 2), [-9 + 1024, 1]);
  // Every cell of the zone box has exactly one owner, and it is the tile whose square holds it.
  for (const [gx, gy, t] of [[-9, 1, 0], [502, 1, 0], [503, 1, 1], [1014, 177, 1], [1015, 5, 2]]) {
    assertEquals(ownerOf(z, gx, gy), t, `owner of (${gx}, ${gy})`);
  }
  assertEquals(ownerOf(z, -10, 1), -1);
  assertEquals(ownerOf(z, 0, 0), -1);
  assertEquals(ownerOf(z, 1545, 1), -1);
  assertEquals(tilesTouchingWindow(z, 0), [0, 1]);
  assertEquals(tilesTouchingWindow(z, 1), [0, 1, 2]);
  const big = zoneTiles(0, 0, 300, 300); // 3 × 3 tiles
  assertEquals(tilesTouchingWindow(big, 4), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assertEquals(tilesTouchingWindow(big, 8), [4, 5, 7, 8]);
});

Deno.test("bake tile: per-region clr2d equals the whole-window sealed clearance per region", () => {
  // A 40 × 40 px floor of 4-px quads with an 8 × 8 px hole, and a deck 10 m up over the hole:
  // the rim is a wall of the floor only (|10 − 0| > 8), the deck keeps those cells walkable in
  // the obstacle mask, so sealing the floor's kept edges lowers the floor's clearance there.
  const verts: number[] = [], tris: number[] = [];
  const id = (i: number, j: number) => j * 11 + i;
  for (let j = 0; j <= 10; j++) for (let i = 0; i <= 10; i++) verts.push(4 * i, 4 * j, 0);
  for (let j = 0; j < 10; j++) {
    for (let i = 0; i < 10; i++) {
      if (i >= 4 && i < 6 && j >= 4 && j < 6) continue;
      tris.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i, j + 1));
    }
  }
  verts.push(8, 8, 10, 32, 8, 10, 32, 32, 10, 8, 32, 10);
  tris.push(121, 122, 123, 121, 123, 124);
  const v = Float32Array.from(verts), t = Uint32Array.from(tris);
  const zc = cleanZone({ name: "z", vertices: v, triangles: t });
  const mesh = { verts: v, tris: zc.tris, walkable: zc.walkable, boundary: zc.boundary };
  const g = zoneTiles(0, 0, 40, 40).tiles[0];
  const tb = bakeTile(mesh, g, 0);
  assertEquals(tb.regionCount, 2);
  // Reference: the operators over the same window, sealed per region with its kept edges.
  const win = { x0: g.gx0 * 0.25, y0: g.gy0 * 0.25, nx: g.nx, ny: g.ny };
  const built = buildSpans(appendSeamBridge(rasterize(mesh, win), win.nx, win.ny), win.nx, win.ny);
  const grid = built.grid;
  for (let i = 0; i < grid.h.length; i++) grid.h[i] = snapHeight(grid.h[i]);
  const walls = collectWallEdges(mesh, mesh.boundary, win);
  const dead = stampWalls(grid, walls, win);
  const { rid, count } = labelRegions(grid);
  const flags = new Uint8Array(grid.h.length);
  const obstacle = new Uint8Array(win.nx * win.ny).fill(1);
  for (let r = 1; r <= count; r++) {
    const f = regionFlags(grid, rid, r, built.ins, dead, flags);
    for (let i = 0; i < f.addCell.length; i++) {
      if (f.addFlags[i] & SpanFlag.Walk) obstacle[f.addCell[i]] = 0;
    }
  }
  for (let s = 0; s < grid.h.length; s++) if (flags[s] & SpanFlag.Walk) obstacle[grid.cell[s]] = 0;
  const kt = wallKeepTable(grid, rid, count, flags, walls, win);
  let positive = 0;
  for (let r = 1; r <= count; r++) {
    const keys = new Set(kt.key.filter((_, i) => kt.rids[i].includes(r)));
    const keep = Uint8Array.from({ length: walls.n }, (_, i) => keys.has(walls.key[i]) ? 1 : 0);
    const ref = sealedClearance(obstacle, walls, keep, win).clr2d;
    for (let oc = 0; oc < 512 * 512; oc++) {
      const x = (oc % 512) + 64, y = Math.floor(oc / 512) + 64;
      for (let k = tb.ownStart[oc]; k < tb.ownStart[oc + 1]; k++) {
        if (tb.rid[k] !== r) continue;
        assertEquals(tb.clr2d[k], ref[y * win.nx + x], `region ${r} clr2d at (${x}, ${y})`);
        if (tb.clr2d[k] > 0) positive++;
      }
    }
  }
  assert(positive > 0, "sealing kept edges lowers the clearance somewhere");
});

Deno.test("bake tile: a window without triangles yields an empty tile", () => {
  // The only triangle lies far outside tile 0's window (the fast path): like a full stage over
  // an empty window, there are no records, regions, components, walls or seam edges.
  const v = Float32Array.from([1000, 1000, 0, 1004, 1000, 0, 1000, 1004, 0]);
  const mesh = {
    verts: v,
    tris: Uint32Array.from([0, 1, 2]),
    walkable: Uint8Array.of(1),
    boundary: Uint8Array.of(7),
  };
  const g = zoneTiles(0, 0, 100, 100).tiles[0];
  const tb = bakeTile(mesh, g, 0);
  assertEquals([tb.n, tb.regionCount, tb.compCount, tb.wallKey.length, tb.xSrc.length], [
    0,
    0,
    0,
    0,
    0,
  ]);
  assertEquals(tb.ownStart.length, 512 * 512 + 1);
  assert(tb.ownStart.every((x) => x === 0), "no owned records");
});
