import { assert, assertEquals } from "./assert.ts";
import { bakeWindow } from "../src/bake/bake_window.ts";
import type { RasterMesh } from "../src/bake/rasterize.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";
import { occIndex } from "../src/grid/span_grid.ts";

/**
 * A quad-grid terrain of `q × q` quads of side `s` px (height from `hf`), plus a bridge deck at
 * 5 m over x ∈ [2, 6] px, y ∈ [3, 4] px; boundary bits for edges without a twin.
 */
function terrain(q: number, s: number, hf: (x: number, y: number) => number) {
  const verts: number[] = [], tris: number[] = [];
  const vid = (x: number, y: number, h: number) => (verts.push(x, y, h), verts.length / 3 - 1);
  const quad = (
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    h: (x: number, y: number) => number,
  ) => {
    const a = vid(x0, y0, h(x0, y0)), b = vid(x1, y0, h(x1, y0));
    const c = vid(x1, y1, h(x1, y1)), d = vid(x0, y1, h(x0, y1));
    tris.push(a, b, c, a, c, d);
  };
  for (let j = 0; j < q; j++) {
    for (let i = 0; i < q; i++) quad(i * s, j * s, (i + 1) * s, (j + 1) * s, hf);
  }
  quad(2, 3, 6, 4, () => 5);
  // Boundary bits by matching undirected edges on coordinates.
  const key = (v: number) => `${verts[3 * v]},${verts[3 * v + 1]},${verts[3 * v + 2]}`;
  const count = new Map<string, number>();
  const ek = (a: number, b: number) => [key(a), key(b)].sort().join("|");
  for (let t = 0; t < tris.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const e = ek(tris[3 * t + k], tris[3 * t + (k + 1) % 3]);
      count.set(e, (count.get(e) ?? 0) + 1);
    }
  }
  const boundary = new Uint8Array(tris.length / 3);
  for (let t = 0; t < tris.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      if (count.get(ek(tris[3 * t + k], tris[3 * t + (k + 1) % 3])) === 1) boundary[t] |= 1 << k;
    }
  }
  const mesh: RasterMesh = { verts: Float32Array.from(verts), tris: Uint32Array.from(tris) };
  return { mesh, boundary };
}

Deno.test("bake pipeline: terrain + bridge deck, deterministic and consistent", () => {
  const { mesh, boundary } = terrain(8, 1, (x, y) => 0.1 * x + 0.05 * y);
  const win = { x0: 0, y0: 0, nx: 32, ny: 32 };
  const a = bakeWindow(mesh, boundary, win);
  const b = bakeWindow(mesh, boundary, win);
  for (const k of ["rid", "flags", "steps", "seg", "clr", "medial"] as const) {
    assertEquals(a[k], b[k], k);
  }
  assertEquals(a.grid.h, b.grid.h);
  assertEquals(a.components.scc, b.components.scc);
  // Ground and deck are separate regions (5 m apart); the deck columns hold 2 spans (no face).
  assert(a.regionCount >= 2);
  const j = occIndex(a.grid, 14 * 32 + 16); // x = 4.1 px, y = 3.6 px: under the deck
  assertEquals(a.grid.cs[j + 1] - a.grid.cs[j], 2);
  assertEquals(a.grid.face[j], 0);
  const s0 = a.grid.cs[j];
  assert(a.rid[s0] !== a.rid[s0 + 1]);
  // The deck's edges are walls: deck spans on its rim are Dead, and the ground beneath them too
  // (within 8 m of the deck edge's height).
  assert((a.flags[s0 + 1] & SpanFlag.Dead) === 0 || (a.flags[s0] & SpanFlag.Dead) !== 0);
  // Every span belongs to a component numbered inside its region's count.
  for (let s = 0; s < a.grid.h.length; s++) {
    const sc = a.components.scc[s];
    assert(sc >= 1 && sc <= a.components.count[a.rid[s] - 1]);
  }
  // Clearance is 0 exactly on obstacle cells.
  for (let c = 0; c < 32 * 32; c++) if (a.medial[c]) assert(a.clr[c] > 0);
  if (Deno.env.get("BAKE_DUMP")) dump(a);
  for (const t of Object.values(a.timings)) assert(t >= 0);
});

function dump(a: ReturnType<typeof bakeWindow>) {
  for (let y = 31; y >= 0; y--) {
    let line = "";
    for (let x = 0; x < 32; x++) {
      const j = occIndex(a.grid, y * 32 + x);
      if (j < 0) {
        line += " ";
        continue;
      }
      const s = a.grid.cs[j];
      const f = a.flags[s];
      line += f & SpanFlag.Dead
        ? "D"
        : f & SpanFlag.Walk
        ? (a.medial[y * 32 + x] ? "m" : ".")
        : "?";
    }
    console.log(line + "  " + Array.from({ length: 32 }, (_, x) => a.clr[y * 32 + x]).join(","));
  }
}
