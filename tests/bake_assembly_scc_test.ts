/**
 * Tile stitching against a brute-force whole-zone bake ("edge fields equal whole-zone fields"):
 * the fixture world spans 3 tiles (dungeon.obj's 3 × 3: tests/bake_stitching_dungeon_test.ts, slow
 * tier); every owned record's flags, clearance,
 * step bans, facade bits, clr2d and medial bit, the Ghost/Fill records, and the partitions into
 * zone regions and per-region components must equal the operators run once over a single
 * window covering the whole zone.
 */
import { assert, assertEquals } from "./assert.ts";
import { bakeManifestFile } from "../src/world/bake_world.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";

import { compareWithWholeZone, FIXTURE } from "./bake_stitching.ts";

Deno.test("bake stitching: fixture regions and components equal a whole-zone single-window bake", async () => {
  await compareWithWholeZone(FIXTURE);
});

/**
 * A small hole cut by a tile window's edge (spec 填洞与合缝: FillHoles leaves a hole that
 * touches the window edge): two strips 0.35 px apart, the seam bridged (one cell row) where the
 * heights differ by ≤ kClimb, and a 32-cell stretch where the north strip is 3.5 m up, so the
 * row stays empty there. The zone window encloses the stretch and fills it; tile 0's window
 * (right edge at global cell 576) cuts it, 34 cells from tile 0's owned square.
 */
function holeAtTileEdgeWorld(dir: string): string {
  const v: string[] = [], f: string[] = [];
  const quad = (a: number[], b: number[], c: number[], d: number[]) => {
    const i = v.length / 3 + 1;
    for (const p of [a, b, c, d]) v.push(`${p[0]}`, `${p[1]}`, `${p[2]}`);
    f.push(`f ${i} ${i + 1} ${i + 2}`, `f ${i} ${i + 2} ${i + 3}`);
  };
  const ys = 30.2, yn = 30.55; // gap row 121 = [30.25, 30.5) px; rim cells hold a cell centre
  quad([100, 0, 10], [100, 0, ys], [190, 0, ys], [190, 0, 10]);
  const xs = [100, 135.15, 137.15, 143.35, 145.35, 190], hs = [2.5, 2.5, 3.5, 3.5, 2.5, 2.5];
  for (let i = 0; i + 1 < xs.length; i++) {
    quad([xs[i], hs[i], yn], [xs[i], hs[i], 50], [xs[i + 1], hs[i + 1], 50], [
      xs[i + 1],
      hs[i + 1],
      yn,
    ]);
  }
  const obj = v.reduce(
    (s, x, i) => s + (i % 3 === 0 ? "v " : " ") + x + (i % 3 === 2 ? "\n" : ""),
    "",
  );
  Deno.writeTextFileSync(`${dir}/strips.obj`, obj + f.join("\n") + "\n");
  const manifest = {
    format: "navscope-world",
    version: 1,
    name: "holeedge",
    zones: [{
      name: "strips",
      size_px: [200, 60],
      origin_px: [0, 0],
      floor_y: 0,
      meshes: [{ file: "strips.obj", px_per_m: 1, up: "y" }],
    }],
  };
  Deno.writeTextFileSync(`${dir}/world.json`, JSON.stringify(manifest));
  return `${dir}/world.json`;
}

Deno.test("bake stitching: a small hole cut by a tile window's edge equals a whole-zone bake", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope-hole-edge-" });
  try {
    await compareWithWholeZone(holeAtTileEdgeWorld(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A filled hole bigger than one cell across a tile seam (spec 填洞与合缝: FillHoles fills a
 * 4-connected hole of ≤ kHoleMaxCells = 32 cells): a flat floor with a square hole 1.3 px on a
 * side centred on the seam x = 128 px between tiles 0 and 1. The hole's interior Ghost cells
 * have no span among their 4-neighbours, so their component comes through the Ghost cells.
 */
function holeAcrossSeamWorld(dir: string, side = 1.3): string {
  const v: string[] = [], f: string[] = [];
  const quad = (x0: number, y0: number, x1: number, y1: number) => {
    const i = v.length / 3 + 1;
    for (const [x, y] of [[x0, y0], [x0, y1], [x1, y1], [x1, y0]]) v.push(`${x}`, "1", `${y}`);
    f.push(`f ${i} ${i + 1} ${i + 2}`, `f ${i} ${i + 2} ${i + 3}`);
  };
  const hx0 = 128 - side / 2, hx1 = 128 + side / 2, hy0 = 30.1, hy1 = 30.1 + side;
  quad(110, 20, hx0, 40); // west of the hole
  quad(hx1, 20, 146, 40); // east
  quad(hx0, 20, hx1, hy0); // south
  quad(hx0, hy1, hx1, 40); // north
  const obj = v.reduce(
    (s, x, i) => s + (i % 3 === 0 ? "v " : " ") + x + (i % 3 === 2 ? "\n" : ""),
    "",
  );
  Deno.writeTextFileSync(`${dir}/floor.obj`, obj + f.join("\n") + "\n");
  const manifest = {
    format: "navscope-world",
    version: 1,
    name: "holeseam",
    zones: [{
      name: "floor",
      size_px: [160, 60],
      origin_px: [0, 0],
      floor_y: 0,
      meshes: [{ file: "floor.obj", px_per_m: 1, up: "y" }],
    }],
  };
  Deno.writeTextFileSync(`${dir}/world.json`, JSON.stringify(manifest));
  return `${dir}/world.json`;
}

Deno.test("bake: every Ghost record of a multi-cell filled hole across a tile seam has a component", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope-hole-seam-" });
  try {
    const manifest = holeAcrossSeamWorld(dir);
    const a = await bakeManifestFile(manifest, { strictManifold: false, keepGrid: true });
    const gz = a.gridZones[0], z = a.sidecar.zones[0];
    const nScc = new Map<number, number>();
    z.graphs.rid.forEach((r, i) => nScc.set(r, z.graphs.nScc[i]));
    const ghostTiles = new Set<number>();
    let ghosts = 0, interior = 0;
    gz.tiles.forEach((t, ti) => {
      const spanAt = new Set<number>();
      for (let i = 0; i < t.spans.n; i++) {
        if ((t.spans.flags[i] & (SpanFlag.Ghost | SpanFlag.Fill)) === 0) {
          spanAt.add(t.spans.cell[i]);
        }
      }
      for (let i = 0; i < t.spans.n; i++) {
        if ((t.spans.flags[i] & SpanFlag.Ghost) === 0) continue;
        const c = t.spans.cell[i], sc = z.tiles[ti].scc[i], m = nScc.get(t.spans.rid[i]) ?? 0;
        ghosts++;
        ghostTiles.add(ti);
        if (![c - 1, c + 1, c - t.nx, c + t.nx].some((q) => spanAt.has(q))) interior++;
        assert(sc >= 1 && sc <= m, `tile ${ti} Ghost record ${i}: scc ${sc} in 1..${m}`);
      }
    });
    assert(ghosts > 4, `the hole is filled with Ghost records (${ghosts})`);
    assert(interior > 0, `some Ghost records have no span among their 4-neighbours (${interior})`);
    assertEquals(ghostTiles.size, 2, "the hole's Ghost records are owned by both tiles");
    await compareWithWholeZone(manifest);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
