import { assertEquals } from "./assert.ts";
import {
  collectWallEdges,
  forEachWallSample,
  stampWalls,
  wallsAtLayer,
} from "../src/bake/walls.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";

const WIN = { x0: 0, y0: 0, nx: 16, ny: 16 };

Deno.test("collectWallEdges: boundary bits, walkable marks and the ±4 px box", () => {
  const verts = Float32Array.from([
    1,
    1.1,
    0,
    2,
    1.1,
    0,
    1.5,
    2,
    0, // triangle 0
    30,
    30,
    0,
    31,
    30,
    0,
    30,
    31,
    0, // triangle 1: far outside (window is 4 px)
    1,
    3,
    0,
    2,
    3,
    0,
    1,
    3.5,
    0, // triangle 2: not walkable
  ]);
  const mesh = {
    verts,
    tris: Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]),
    walkable: Uint8Array.from([1, 1, 0]),
  };
  const e = collectWallEdges(mesh, Uint8Array.from([0b101, 0b111, 0b111]), WIN);
  assertEquals(Array.from(e.key), [0, 2]);
  assertEquals(Array.from(e.xyz.subarray(0, 6)), [1, Math.fround(1.1), 0, 2, Math.fround(1.1), 0]);
});

Deno.test("StampWalls: spans within 8 m of the edge's mean height turn Dead", () => {
  const cols: number[][] = Array.from({ length: 256 }, () => [0, 7.9, 8.2, 20]);
  const g = spanGridFromColumns(16, 16, cols);
  // Edge along y = 1.1 px (row 4) from x = 1 to 2 px (cells 4..8), heights 0 and 0.4: mean 0.2.
  const edges = { n: 1, xyz: Float64Array.from([1, 1.1, 0, 2, 1.1, 0.4]), key: Int32Array.of(0) };
  const cells: number[] = [];
  forEachWallSample(edges, 0, WIN, (c) => cells.push(c));
  assertEquals(cells.length, 11); // ⌈1/0.1⌉ + 1 samples
  assertEquals([...new Set(cells)], [4 * 16 + 4, 4 * 16 + 5, 4 * 16 + 6, 4 * 16 + 7, 4 * 16 + 8]);
  const dead = stampWalls(g, edges, WIN);
  for (let s = 0; s < g.h.length; s++) {
    const c = g.cell[s], x = c % 16, y = (c - x) / 16;
    const onWall = y === 4 && x >= 4 && x <= 8;
    // 7.9 − 0.2 = 7.7 ≤ 8 → Dead; 8.2 − 0.2 = 8.0 ≤ 8 → Dead (f32 8.2 − 0.2 just under 8).
    const within = Math.abs(g.h[s] - 0.2) <= 8;
    assertEquals(dead[s], onWall && within ? 1 : 0, `span ${s}`);
  }
  // Layer test: keep where some sample cell's layer height is within 8 of the mean.
  const lh = new Float32Array(256).fill(NaN);
  assertEquals(Array.from(wallsAtLayer(edges, lh, WIN)), [0]);
  lh[4 * 16 + 8] = 8.1;
  assertEquals(Array.from(wallsAtLayer(edges, lh, WIN)), [1]);
  lh[4 * 16 + 8] = 8.3;
  assertEquals(Array.from(wallsAtLayer(edges, lh, WIN)), [0]);
});

Deno.test("collectWallEdges with the zone's edge index equals the full scan (random windows on a real mesh)", async () => {
  const { wallEdgeIndex } = await import("../src/bake/walls.ts");
  const { openEngine } = await import("../src/plan/engine.ts");
  const { mulberry32 } = await import("./rng.ts");
  const e = await openEngine(
    new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname,
  );
  const m = (await e.zoneState("map01base")).mesh;
  e.close();
  const mesh = { verts: m.vertices, tris: m.tris, walkable: m.walkable };
  const rnd = mulberry32(3);
  let edges = 0;
  for (const side of [16, 3, 200]) {
    const ix = wallEdgeIndex(mesh, m.boundary, side);
    for (let k = 0; k < 60; k++) {
      const win = {
        x0: rnd() * 600 - 50,
        y0: rnd() * 600 - 50,
        nx: 1 + Math.floor(rnd() * (k % 3 === 0 ? 2400 : 300)),
        ny: 1 + Math.floor(rnd() * 300),
      };
      const a = collectWallEdges(mesh, m.boundary, win),
        b = collectWallEdges(mesh, m.boundary, win, ix);
      assertEquals(
        Array.from(b.key),
        Array.from(a.key),
        `side ${side}, window ${JSON.stringify(win)}`,
      );
      assertEquals(Array.from(b.xyz), Array.from(a.xyz));
      edges += a.n;
    }
  }
  if (edges < 1000) throw new Error(`only ${edges} edges: the windows miss the walls`);
});
