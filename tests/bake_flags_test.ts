import { assert, assertEquals } from "./assert.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";
import { regionFlags } from "../src/bake/flags.ts";
import { facadeSegments } from "../src/bake/facade.ts";
import { labelRegions } from "../src/bake/regions.ts";
import { stepBans } from "../src/bake/step_bans.ts";
import { sealedClearance } from "../src/bake/sealed_clearance.ts";
import { wallKeepTable } from "../src/bake/wall_keep.ts";
import { clearanceSq } from "../src/bake/clearance.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";

const { Walk, Core, Dead, Ghost, Fill } = SpanFlag;

Deno.test("flags: plane with a mesh hole → Ghost records; a Dead line keeps Walk", () => {
  const nx = 10, ny = 8, cols: number[][] = [];
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) cols.push(x >= 4 && x <= 5 && y >= 3 && y <= 4 ? [] : [1]);
  }
  const g = spanGridFromColumns(nx, ny, cols);
  const { rid } = labelRegions(g);
  const ins = new Uint8Array(g.h.length).fill(1);
  const dead = new Uint8Array(g.h.length);
  // A wall line along row 1 for x = 0..9 (touching both window edges).
  for (let s = 0; s < g.h.length; s++) if (Math.floor(g.cell[s] / nx) === 1) dead[s] = 1;
  const f = regionFlags(g, rid, 1, ins, dead);
  for (let s = 0; s < g.h.length; s++) {
    const y = Math.floor(g.cell[s] / nx);
    assertEquals(f.flags[s], y === 1 ? (Dead | Walk | Core) : (Walk | Core), `span ${s}`);
  }
  // The 4-cell hole is filled in lay and core and gets Ghost records at the neighbours' height.
  assertEquals(Array.from(f.addCell), [34, 35, 44, 45]);
  assertEquals(Array.from(f.addH), [1, 1, 1, 1]);
  assert(f.addFlags.every((v) => v === (Ghost | Walk | Core)));
});

/** 4-connected components of the cells set in `m` (nx × ny). */
function components(m: Uint8Array, nx: number, ny: number): number {
  const seen = new Uint8Array(m.length);
  let k = 0;
  for (let c0 = 0; c0 < m.length; c0++) {
    if (!m[c0] || seen[c0]) continue;
    k++;
    const stack = [c0];
    seen[c0] = 1;
    while (stack.length) {
      const c = stack.pop()!, x = c % nx, y = (c - x) / nx;
      const nb = [x > 0 ? c - 1 : -1, x < nx - 1 ? c + 1 : -1, y > 0 ? c - nx : -1];
      nb.push(y < ny - 1 ? c + nx : -1);
      for (const q of nb) if (q >= 0 && m[q] && !seen[q]) (seen[q] = 1), stack.push(q);
    }
  }
  return k;
}

Deno.test("flags: an interior wall seam across a floor is Dead+Walk+Core; walk stays connected", () => {
  // A 12 × 9 floor with a one-cell wall seam along column 6, rows 1..7 (interior: it touches no
  // window edge). Issue 8: the seam's cells stay in the layer, so they carry Walk and Core and
  // the walk mask (core ∧ lay) is one piece across the seam, as on the spec's measured roads
  // (实测 › 直接收下的邻步与 Dead 格: 「这些格同时带 Walk 和 Core」).
  const nx = 12, ny = 9;
  const cols: number[][] = [];
  for (let c = 0; c < nx * ny; c++) cols.push([2]);
  const g = spanGridFromColumns(nx, ny, cols);
  const { rid, count } = labelRegions(g);
  assertEquals(count, 1);
  const ins = new Uint8Array(g.h.length).fill(1);
  const dead = new Uint8Array(g.h.length);
  const seam = (c: number) => c % nx === 6 && c >= nx && c < (ny - 1) * nx;
  for (let s = 0; s < g.h.length; s++) if (seam(g.cell[s])) dead[s] = 1;
  const f = regionFlags(g, rid, 1, ins, dead);
  let seamCells = 0;
  for (let s = 0; s < g.h.length; s++) {
    if (seam(g.cell[s])) {
      seamCells++;
      assertEquals(f.flags[s], Dead | Walk | Core, `seam span ${s}`);
    } else assertEquals(f.flags[s], Walk | Core, `span ${s}`);
  }
  assertEquals(seamCells, 7);
  const walk = new Uint8Array(nx * ny);
  for (let c = 0; c < nx * ny; c++) walk[c] = f.core[c] & f.lay[c];
  assertEquals(walk.reduce((a, b) => a + b, 0), nx * ny);
  assertEquals(components(walk, nx, ny), 1);
});

Deno.test("flags: Dead cells stay protected — no hole filling through them, no crack closing", () => {
  // Floor 9 × 7; the core samples miss a 3-cell plus around (4, 3) whose centre cell is Dead.
  const nx = 9, ny = 7, cols: number[][] = [];
  for (let c = 0; c < nx * ny; c++) cols.push([0]);
  const g = spanGridFromColumns(nx, ny, cols);
  const { rid } = labelRegions(g);
  const ins = new Uint8Array(g.h.length).fill(1), dead = new Uint8Array(g.h.length);
  const centre = 3 * nx + 4;
  for (let s = 0; s < g.h.length; s++) {
    const c = g.cell[s];
    if (c === centre || c === centre - 1 || c === centre + 1) ins[s] = 0;
    if (c === centre) dead[s] = 1;
  }
  const f = regionFlags(g, rid, 1, ins, dead);
  // The 3-cell core hole contains the protected Dead cell: not filled. Cracks: the Dead centre
  // never joins; its neighbours (1 cell to core on one side, 2 on the other… ≤ 2 both sides)
  // join by CloseCracks.
  const at = (c: number) => f.flags[g.cell.indexOf(c)];
  assertEquals(at(centre), Dead); // in the layer, not in the core: no Walk, no Core
  assertEquals(f.lay[centre], 1);
  assertEquals(f.core[centre], 0);
  assertEquals(at(centre - 1), Walk | Core);
  assertEquals(at(centre + 1), Walk | Core);
  // Without the Dead mark the hole is filled (FillHoles) and the centre is Walk|Core.
  const g2 = regionFlags(g, rid, 1, ins, new Uint8Array(g.h.length));
  assertEquals(g2.flags[g.cell.indexOf(centre)], Walk | Core);
});

Deno.test("flags: a hole between layers that disagree by more than kClimb becomes Fill", () => {
  // Left half at 0, right half at 3 (one region: |Δh| ≤ 3), a 1-cell hole between 0 and… the hole
  // touches 0 on the left and 3.2 on the right: neighbours disagree by > 3 → Fill (height 0).
  const nx = 5, ny = 3;
  const cols = [[0], [0], [0], [3], [3], [0], [], [3.2], [3], [3], [0], [0], [0], [3], [3]];
  const g = spanGridFromColumns(nx, ny, cols);
  const { rid, count } = labelRegions(g);
  assertEquals(count, 1);
  const f = regionFlags(g, rid, 1, new Uint8Array(g.h.length), new Uint8Array(g.h.length));
  // No ins samples: core empty; the hole is in lay (4-cell hole, not on the border).
  assertEquals(Array.from(f.addCell), [6]);
  assertEquals(Array.from(f.addFlags), [Fill]);
  assertEquals(Array.from(f.addH), [0]);
});

Deno.test("facade segments: banned orthogonal steps next to a face column", () => {
  // Column 1 is a wall foot (3 spans over 6 m); 0.4 m step from column 0 into it is banned.
  const g = spanGridFromColumns(3, 1, [[0], [0.4, 3, 6.4], [0.4]]);
  const { rid } = labelRegions(g);
  const steps = stepBans(g, rid);
  const seg = facadeSegments(g, steps);
  assertEquals(steps[0] & 1, 1);
  assertEquals(seg[0], 1); // bit 0: the +x edge of cell 0
  // Between column 1's floor span and column 2 (same height): no ban, no segment.
  assertEquals(seg[1] & 1, 0);
  // A banned step without facades (1 m stair) gives no segment.
  const st = spanGridFromColumns(2, 1, [[0], [1]]);
  const sb = stepBans(st, labelRegions(st).rid);
  assertEquals([sb[0] & 1, facadeSegments(st, sb)[0]], [1, 0]);
});

Deno.test("sealed clearance and the wall keep table", () => {
  const nx = 16, ny = 16, win = { x0: 0, y0: 0, nx, ny };
  const obstacle = new Uint8Array(nx * ny);
  // Two edges: one along row 4 (kept), one along row 12 (not kept).
  const edges = {
    n: 2,
    xyz: Float64Array.from([1, 1.1, 0, 2, 1.1, 0, 1, 3.1, 0, 2, 3.1, 0]),
    key: Int32Array.of(7, 3),
  };
  const { sealed, clr2d } = sealedClearance(obstacle, edges, Uint8Array.of(1, 0), win);
  const main = clearanceSq(obstacle, nx, ny);
  for (let c = 0; c < nx * ny; c++) {
    assertEquals(clr2d[c], main[c] - sealed[c]);
    assert(sealed[c] <= main[c]);
  }
  assertEquals(sealed[4 * nx + 6], 0);
  assertEquals(sealed[5 * nx + 6], 1);
  assertEquals(sealed[12 * nx + 6] > 0, true);
  // Keep table: region 1 at height 0 near row 4 only; region 2 at 20 m everywhere.
  const cols: number[][] = Array.from(
    { length: nx * ny },
    (_, c) => Math.floor(c / nx) <= 6 ? [0, 20] : [20],
  );
  const g = spanGridFromColumns(nx, ny, cols);
  const { rid, count } = labelRegions(g);
  assertEquals(count, 2);
  const t = wallKeepTable(g, rid, count, null, edges, win);
  assertEquals(Array.from(t.key), [3, 7]);
  assertEquals(t.rids.map((r) => Array.from(r)), [[], [1]]);
});
