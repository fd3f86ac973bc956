/**
 * NearestSource's packed single-column sweeps against the straightforward four-column version
 * they replaced (kept here as the reference): identical sources, coordinates and ties on random
 * grids of every density, thin and empty ones included.
 */
import { assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { sourceXY } from "../src/bake/medial.ts";

Deno.test("sourceXY: packed sweeps equal the four-column reference on random grids", () => {
  const rnd = mulberry32(4711);
  let cells = 0;
  for (let t = 0; t < 300; t++) {
    const nx = 1 + Math.floor(rnd() * 90), ny = 1 + Math.floor(rnd() * 90);
    const density = [0, 0.001, 0.01, 0.05, 0.3, 0.9][t % 6];
    const obs = new Uint8Array(nx * ny);
    for (let c = 0; c < obs.length; c++) obs[c] = rnd() < density ? 1 : 0;
    const a = sourceXY(obs, nx, ny), b = referenceSourceXY(obs, nx, ny);
    assertEquals(a.src, b.src, `grid ${t} (${nx}×${ny}, density ${density})`);
    for (let c = 0; c < obs.length; c++) {
      if (b.src[c] >= 0) assertEquals([a.sx[c], a.sy[c]], [b.sx[c], b.sy[c]]);
    }
    cells += obs.length;
  }
  assertEquals(cells > 500_000, true);
});

Deno.test("sourceXY: equal to the reference for path-shaped seeds (the corridor's case)", () => {
  const rnd = mulberry32(99);
  for (let t = 0; t < 20; t++) {
    const nx = 150 + Math.floor(rnd() * 100), ny = 150 + Math.floor(rnd() * 100);
    const obs = new Uint8Array(nx * ny);
    // A random 8-connected walk, like a topology path.
    let x = Math.floor(rnd() * nx), y = Math.floor(rnd() * ny);
    for (let k = 0; k < 600; k++) {
      obs[y * nx + x] = 1;
      x = Math.min(nx - 1, Math.max(0, x + Math.floor(rnd() * 3) - 1));
      y = Math.min(ny - 1, Math.max(0, y + Math.floor(rnd() * 3) - 1));
    }
    assertEquals(sourceXY(obs, nx, ny).src, referenceSourceXY(obs, nx, ny).src, `path ${t}`);
  }
});

// The implementation before the packed column (src/bake/medial.ts at e3e389e), unchanged.
const FAR = 0x7fffffff;

/**
 * {@link nearestSource} plus each cell's source as (x, y) — the sweeps compare squared
 * distances as integers (exact, so the same strict-improvement ties as in double) and never
 * divide a cell index back into coordinates. `sx`/`sy` are meaningful where `src ≥ 0`.
 */
export function referenceSourceXY(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
): { src: Int32Array; sx: Int32Array; sy: Int32Array } {
  const n = nx * ny;
  const src = new Int32Array(n).fill(-1);
  const sx = new Int32Array(n), sy = new Int32Array(n);
  const dist = new Int32Array(n).fill(FAR);
  let firstRow = ny; // first row holding an obstacle
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      if (obstacle[c] !== 0) {
        (src[c] = c), (sx[c] = x), (sy[c] = y), (dist[c] = 0);
        if (firstRow === ny) firstRow = y;
      }
    }
  }
  // No obstacle: no source anywhere. Above the first obstacle row sweep 1 has nothing to
  // propagate (every cell it reads is still sourceless), so it starts there.
  if (firstRow === ny) return { src, sx, sy };
  // take(c ← q), written out: adopt q's source when strictly nearer, in the order of the
  // module doc (each candidate compares against the current best, as sequential takes do).
  // Obstacle cells are skipped: their distance 0 cannot be beaten strictly.
  let q = 0, dc = 0, sc = 0, scx = 0, scy = 0;
  for (let y = firstRow; y < ny; y++) {
    const row = y * nx;
    for (let x = 0; x < nx; x++) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      if (y > 0) {
        q = c - nx;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
        if (x > 0) {
          q = c - nx - 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
        if (x + 1 < nx) {
          q = c - nx + 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
      }
      if (x > 0) {
        q = c - 1;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
    for (let x = nx - 2; x >= 0; x--) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      q = c + 1;
      if (src[q] >= 0) {
        const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
        if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
  }
  for (let y = ny - 1; y >= 0; y--) {
    const row = y * nx;
    for (let x = nx - 1; x >= 0; x--) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      if (y + 1 < ny) {
        q = c + nx;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
        if (x > 0) {
          q = c + nx - 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
        if (x + 1 < nx) {
          q = c + nx + 1;
          if (src[q] >= 0) {
            const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
            if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
          }
        }
      }
      if (x + 1 < nx) {
        q = c + 1;
        if (src[q] >= 0) {
          const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
          if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
        }
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
    for (let x = 1; x < nx; x++) {
      const c = row + x;
      if (obstacle[c] !== 0) continue;
      (dc = dist[c]), (sc = src[c]), (scx = sx[c]), (scy = sy[c]);
      q = c - 1;
      if (src[q] >= 0) {
        const ex = sx[q] - x, ey = sy[q] - y, d = ex * ex + ey * ey;
        if (d < dc) (dc = d), (sc = src[q]), (scx = sx[q]), (scy = sy[q]);
      }
      (dist[c] = dc), (src[c] = sc), (sx[c] = scx), (sy[c] = scy);
    }
  }
  return { src, sx, sy };
}
