import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { labelRegions } from "../src/bake/regions.ts";
import {
  closeCracks,
  edgeHole,
  fillHoles,
  SIDE_BOTTOM,
  SIDE_LEFT,
  SIDE_RIGHT,
  SIDE_TOP,
} from "../src/bake/morphology.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";

Deno.test("LabelRegions: 4-neighbour links with |Δh| ≤ 3, numbered by first span", () => {
  // Row 0: ground 0, ground 0, step 3 (linked at exactly 3), 6 (linked), 9.5 (3.5: not).
  // Row 1: a deck at 20 above ground 0 in column 0 (two spans).
  const g = spanGridFromColumns(5, 2, [[0], [0], [3], [6], [9.5], [0, 20], [], [], [], []]);
  const { rid, count } = labelRegions(g);
  assertEquals(count, 3);
  assertEquals(Array.from(rid), [1, 1, 1, 1, 2, 1, 3]);
});

Deno.test("LabelRegions equals a brute-force flood fill on random stacks", () => {
  const rnd = mulberry32(5);
  for (let it = 0; it < 30; it++) {
    const nx = 9, ny = 7, cols: number[][] = [];
    for (let c = 0; c < nx * ny; c++) {
      const k = Math.floor(rnd() * 3);
      cols.push(Array.from({ length: k }, (_, i) => i * 7 + Math.floor(rnd() * 12) * 0.5));
    }
    const g = spanGridFromColumns(nx, ny, cols);
    const { rid } = labelRegions(g);
    const n = g.h.length;
    // Brute force: O(n²) adjacency, then BFS.
    const lab = new Int32Array(n).fill(-1);
    let next = 0;
    for (let s = 0; s < n; s++) {
      if (lab[s] >= 0) continue;
      const q = [s];
      lab[s] = next;
      while (q.length) {
        const u = q.pop()!;
        for (let v = 0; v < n; v++) {
          if (lab[v] >= 0) continue;
          const cu = g.cell[u], cv = g.cell[v];
          const adj = Math.abs((cu % nx) - (cv % nx)) + Math.abs(((cu / nx) | 0) - ((cv / nx) | 0));
          if (adj === 1 && Math.abs(Math.fround(g.h[u] - g.h[v])) <= 3) {
            lab[v] = next;
            q.push(v);
          }
        }
      }
      next++;
    }
    for (let u = 0; u < n; u++) {
      for (let v = u + 1; v < n; v++) assertEquals(rid[u] === rid[v], lab[u] === lab[v]);
    }
  }
});

function seamGrid(w: number) {
  const nx = 14, ny = 5;
  const core = new Uint8Array(nx * ny).fill(1);
  for (let y = 0; y < ny; y++) for (let x = 5; x < 5 + w; x++) core[y * nx + x] = 0;
  return { nx, ny, core, lay: new Uint8Array(nx * ny).fill(1) };
}

function seamCols(core: Uint8Array, nx: number, w: number): number[] {
  const row = 2 * nx; // middle row
  return Array.from({ length: w }, (_, i) => core[row + 5 + i]);
}

Deno.test("CloseCracks: seams of width 1–2 close in round 1, 3 in round 2, 4 never", () => {
  for (const w of [1, 2]) {
    const { nx, ny, core, lay } = seamGrid(w);
    assertEquals(seamCols(closeCracks(lay, core, null, nx, ny, 2, 1), nx, w), Array(w).fill(1));
  }
  {
    const { nx, ny, core, lay } = seamGrid(3);
    assertEquals(seamCols(closeCracks(lay, core, null, nx, ny, 2, 1), nx, 3), [0, 1, 0]);
    assertEquals(seamCols(closeCracks(lay, core, null, nx, ny), nx, 3), [1, 1, 1]);
  }
  {
    const { nx, ny, core, lay } = seamGrid(4);
    assertEquals(seamCols(closeCracks(lay, core, null, nx, ny), nx, 4), [0, 0, 0, 0]);
  }
  // Protected (Dead) cells and cells outside the layer never join.
  const { nx, ny, core, lay } = seamGrid(1);
  const prot = new Uint8Array(nx * ny);
  prot[2 * nx + 5] = 1;
  lay[3 * nx + 5] = 0;
  const out = closeCracks(lay, core, prot, nx, ny);
  assertEquals([out[2 * nx + 5], out[3 * nx + 5], out[1 * nx + 5]], [0, 0, 1]);
  // The input is untouched.
  assertEquals(core[1 * nx + 5], 0);
});

Deno.test("FillHoles: the article's five holes (12 and 32 filled; edge, 36, protected kept)", () => {
  const nx = 64, ny = 14;
  const mask = new Uint8Array(nx * ny).fill(1), prot = new Uint8Array(nx * ny);
  const hole = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) mask[y * nx + x] = 0;
  };
  hole(2, 2, 3, 4); // 12 cells, enclosed
  hole(8, 2, 4, 8); // exactly 32
  hole(15, 0, 2, 2); // touches the window edge
  hole(20, 2, 6, 6); // 36 > 32
  hole(30, 2, 2, 3); // 6 cells with one protected cell
  prot[3 * nx + 31] = 1;
  const out = fillHoles(mask, prot, nx, ny);
  const cell = (x: number, y: number) => out[y * nx + x];
  assertEquals([cell(3, 3), cell(9, 9), cell(15, 0), cell(22, 4), cell(30, 2)], [1, 1, 0, 0, 0]);
  let filled = 0;
  for (let c = 0; c < nx * ny; c++) if (out[c] !== mask[c]) filled++;
  assertEquals(filled, 12 + 32);
  // Diagonal-only contact does not join holes (4-connectivity): two 20-cell holes touching at a
  // corner are two holes, both filled.
  const m2 = new Uint8Array(20 * 20).fill(1);
  for (let y = 2; y < 6; y++) for (let x = 2; x < 7; x++) m2[y * 20 + x] = 0;
  for (let y = 6; y < 10; y++) for (let x = 7; x < 12; x++) m2[y * 20 + x] = 0;
  assert(fillHoles(m2, null, 20, 20).every((v) => v === 1));
});

Deno.test("edgeHole: a small unprotected hole on a window side, not a large or protected one", () => {
  const nx = 40, ny = 12;
  const base = () => new Uint8Array(nx * ny).fill(1);
  const hole = (m: Uint8Array, x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) m[y * nx + x] = 0;
  };
  const all = SIDE_LEFT | SIDE_RIGHT | SIDE_TOP | SIDE_BOTTOM;
  // Enclosed holes are FillHoles' own business: never an edge hole.
  const m0 = base();
  hole(m0, 5, 3, 4, 4);
  assertEquals(edgeHole(m0, null, nx, ny, all), false);
  // Holes on the top side: edge holes there, not when the top is not a window side.
  const m1 = base();
  hole(m1, 10, 0, 2, 11); // 22 cells
  hole(m1, 30, 0, 2, 5); // 10 cells, also on the top side
  assertEquals(edgeHole(m1, null, nx, ny, SIDE_TOP), true);
  assertEquals(edgeHole(m1, null, nx, ny, SIDE_LEFT | SIDE_RIGHT | SIDE_BOTTOM), false);
  // 33 cells on the right side: FillHoles would not fill it anywhere.
  const m2 = base();
  hole(m2, nx - 3, 0, 3, 11);
  assertEquals(edgeHole(m2, null, nx, ny, SIDE_RIGHT), false);
  // A protected cell keeps a hole open anywhere.
  const m3 = base(), prot = new Uint8Array(nx * ny);
  hole(m3, 0, 4, 3, 3);
  prot[5 * nx + 1] = 1;
  assertEquals(edgeHole(m3, prot, nx, ny, SIDE_LEFT), false);
  assertEquals(edgeHole(m3, null, nx, ny, SIDE_LEFT), true);
  assertEquals(edgeHole(m3, null, nx, ny, 0), false);
});
