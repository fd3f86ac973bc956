/**
 * The geometry pass's corridor (formulas.md #107–#109) against its definition cell by cell: the
 * band `((Δx·kCS)² + (Δy·kCS)² ≤ W(c)²) ∨ seed(c)` and the open area
 * `d(c) ≥ max(kClrPref, 0.8·W(c))`, with W(c) the clearance of the cell's NearestSource seed —
 * over every cell of the window, where the corridor skips the cells whose answer it can bound.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { sourceXY } from "../src/bake/medial.ts";
import { corridor } from "../src/plan/route/search/corridor.ts";
import { priceField } from "../src/plan/route/search/price_field.ts";

const kCS = 0.25, kClrPref = 1.75;

function reference(dist: Float32Array, nx: number, ny: number, path: number[]) {
  const n = nx * ny, seed = new Uint8Array(n);
  for (const c of path) seed[c] = 1;
  const { src, sx, sy } = sourceXY(seed, nx, ny);
  const band = new Uint8Array(n), solidc = new Uint8Array(n);
  for (let c = 0; c < n; c++) {
    if (src[c] < 0) continue;
    const x = c % nx, y = Math.floor(c / nx), W = dist[src[c]];
    const dx = (x - sx[c]) * kCS, dy = (y - sy[c]) * kCS;
    band[c] = seed[c] || dx * dx + dy * dy <= W * W ? 1 : 0;
    solidc[c] = dist[c] >= Math.max(kClrPref, 0.8 * W) ? 1 : 0;
  }
  return { band, solidc };
}

Deno.test("corridor: band and open area equal their definition on every cell (random windows and paths)", () => {
  const rnd = mulberry32(808);
  let banded = 0, open = 0, middle = 0;
  for (let round = 0; round < 60; round++) {
    const nx = 5 + Math.floor(rnd() * 150), ny = 5 + Math.floor(rnd() * 150), n = nx * ny;
    // Clearance: walls (0), narrow passages and open floor up to the 12-px cap, varying smoothly.
    const dist = new Float32Array(n);
    const fx = 5 + rnd() * 40, fy = 5 + rnd() * 40, top = 1 + rnd() * 11;
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const v = Math.abs(Math.sin(x / fx + round) * Math.cos(y / fy)) * top * 1.2;
        dist[y * nx + x] = rnd() < 0.05 ? 0 : Math.fround(Math.min(12, v));
      }
    }
    // A staircase path (sometimes empty, sometimes one cell), like a topology path's cells.
    const path: number[] = [];
    const len = round % 10 === 0 ? 0 : round % 10 === 1 ? 1 : Math.floor(rnd() * 2 * (nx + ny));
    let x = Math.floor(rnd() * nx), y = Math.floor(rnd() * ny);
    for (let k = 0; k < len; k++) {
      path.push(y * nx + x);
      x = Math.min(nx - 1, Math.max(0, x + Math.floor(rnd() * 3) - 1));
      y = Math.min(ny - 1, Math.max(0, y + Math.floor(rnd() * 3) - 1));
    }
    const got = corridor(dist, nx, ny, Int32Array.from(path));
    const want = reference(dist, nx, ny, path);
    assertEquals(got.band, want.band, `round ${round}: band`);
    assertEquals(got.solidc, want.solidc, `round ${round}: solidc`);
    // Every band cell lies in the returned box (the geometry pass prices only that box).
    const b = got.box;
    for (let c = 0; c < n; c++) {
      if (!want.band[c]) continue;
      const x = c % nx, y = Math.floor(c / nx);
      assert(b !== null && x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1, `round ${round}: box`);
    }
    // Priced in the box: the same prices there as the whole field, 0 elsewhere.
    const full = priceField(dist, 0.25, 1.75),
      part = priceField(dist, 0.25, 1.75, b && { nx, box: b });
    for (let c = 0; c < n; c++) {
      const x = c % nx, y = Math.floor(c / nx);
      const inBox = b === null || (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1);
      assertEquals(part[c], inBox ? full[c] : 0, `round ${round}: price at ${c}`);
    }
    for (let c = 0; c < n; c++) {
      banded += want.band[c];
      open += want.solidc[c];
      if (want.solidc[c] && dist[c] < 0.8 * 12) middle++;
    }
  }
  assert(banded > 10000 && open > 10000 && middle > 1000, `${banded} / ${open} / ${middle}`);
});
