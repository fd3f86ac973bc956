import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { clearanceSq } from "../src/bake/clearance.ts";
import { medialAxis, nearestSource } from "../src/bake/medial.ts";
import { clearancePx } from "../src/grid/clearance_decode.ts";

function bruteSq(obs: Uint8Array, nx: number, ny: number): Float64Array {
  const pts: number[] = [];
  for (let c = 0; c < nx * ny; c++) if (obs[c]) pts.push(c % nx, Math.floor(c / nx));
  const out = new Float64Array(nx * ny).fill(Infinity);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      let b = Infinity;
      for (let i = 0; i < pts.length; i += 2) {
        b = Math.min(b, (pts[i] - x) ** 2 + (pts[i + 1] - y) ** 2);
      }
      out[y * nx + x] = b;
    }
  }
  return out;
}

Deno.test("clearance equals a brute-force exact EDT up to 12 px, 48² beyond, on random masks", () => {
  const rnd = mulberry32(17);
  for (let it = 0; it < 12; it++) {
    const nx = 60 + Math.floor(rnd() * 90), ny = 30 + Math.floor(rnd() * 90);
    const density = [0, 0.0005, 0.002, 0.02, 0.2][it % 5];
    const obs = new Uint8Array(nx * ny);
    for (let c = 0; c < nx * ny; c++) obs[c] = rnd() < density ? 1 : 0;
    const q = clearanceSq(obs, nx, ny);
    const ref = bruteSq(obs, nx, ny);
    for (let c = 0; c < nx * ny; c++) {
      if (ref[c] <= 48 * 48) assertEquals(q[c], ref[c], `it ${it} cell ${c}`);
      else assertEquals(q[c], 48 * 48, `it ${it} cell ${c}: beyond 12 px the stored value is 48²`);
      const px = Math.min(Math.fround(Math.fround(Math.sqrt(ref[c])) * 0.25), 12);
      assertEquals(clearancePx(q[c]), px);
    }
  }
});

Deno.test("clearance inside a box depends on the obstacles within 48 cells only (tile windows)", () => {
  // A tile window sees the zone through a 64-cell apron; the stored value must not depend on
  // where the window ends. Sparse obstacles leave cells farther than 48 cells from any of them.
  const rnd = mulberry32(5);
  const nx = 400, ny = 400, obs = new Uint8Array(nx * ny);
  for (let c = 0; c < nx * ny; c++) obs[c] = rnd() < 0.00015 ? 1 : 0;
  const full = clearanceSq(obs, nx, ny);
  const m = 49, x0 = 120, y0 = 120, w = 160, h = 160; // box [x0, x0+w) × [y0, y0+h)
  const cw = w + 2 * m, ch = h + 2 * m, crop = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    crop.set(obs.subarray((y0 - m + y) * nx + x0 - m, (y0 - m + y) * nx + x0 - m + cw), y * cw);
  }
  const part = clearanceSq(crop, cw, ch);
  let beyond = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = full[(y0 + y) * nx + x0 + x], b = part[(m + y) * cw + m + x];
      assertEquals(b, a, `cell (${x0 + x}, ${y0 + y})`);
      if (a === 48 * 48) beyond++;
    }
  }
  assert(beyond > 1000, `the box has cells beyond 12 px (${beyond})`);
});

Deno.test("clearance: a cell touching an obstacle is 0.25 px, the obstacle 0", () => {
  const obs = new Uint8Array(9);
  obs[4] = 1;
  const q = clearanceSq(obs, 3, 3);
  assertEquals(Array.from(q), [2, 1, 2, 1, 0, 1, 2, 1, 2]);
  assertEquals(clearancePx(q[1]), 0.25);
});

function sawCorridor() {
  // 64 × 26 corridor: solid bottom wall row 0; top wall row 25 with teeth 0–2 cells deep,
  // period 6 (saw-tooth larger than one cell).
  const nx = 64, ny = 26, obs = new Uint8Array(nx * ny);
  for (let x = 0; x < nx; x++) {
    obs[x] = 1;
    for (let y = ny - 1 - Math.floor((x % 6) / 2); y < ny; y++) obs[y * nx + x] = 1;
  }
  return { nx, ny, obs };
}

Deno.test("λ-medial axis on a saw-tooth corridor: λ = 2 cells branches, λ = 6 cells does not", () => {
  const { nx, ny, obs } = sawCorridor();
  const branches = (m: Uint8Array) => {
    const perTooth = new Int32Array(Math.ceil(nx / 6));
    for (let y = 15; y < ny; y++) {
      for (let x = 0; x < nx; x++) if (m[y * nx + x]) perTooth[Math.floor(x / 6)]++;
    }
    return Array.from(perTooth);
  };
  const m2 = medialAxis(obs, nx, ny); // λ = kClrLambda = 2 cells
  const m6 = medialAxis(obs, nx, ny, 36);
  for (const m of [m2, m6]) {
    // The main line: the two middle rows (equal distance to both walls) are medial everywhere.
    for (let x = 0; x < nx; x++) assert(m[11 * nx + x] === 1 && m[12 * nx + x] === 1, `x ${x}`);
    for (let c = 0; c < nx * ny; c++) if (obs[c]) assertEquals(m[c], 0);
  }
  // λ = 2: every tooth grows a branch; λ = 6: at most a 2–3 cell stub.
  const b2 = branches(m2), b6 = branches(m6);
  for (let t = 0; t < 10; t++) {
    assert(b2[t] >= 5, `tooth ${t}: λ=2 branch ${b2[t]}`);
    assert(b6[t] <= 3, `tooth ${t}: λ=6 branch ${b6[t]}`);
  }
  // Cells next to the straight bottom wall: neighbours' sources are adjacent → not medial.
  for (let x = 1; x < nx - 1; x++) assertEquals(m2[1 * nx + x], 0);
});

Deno.test("NearestSource: sources are obstacles within one cell of the exact distance", () => {
  const rnd = mulberry32(99);
  const nx = 50, ny = 40, obs = new Uint8Array(nx * ny);
  for (let c = 0; c < nx * ny; c++) obs[c] = rnd() < 0.01 ? 1 : 0;
  const src = nearestSource(obs, nx, ny);
  const ref = bruteSq(obs, nx, ny);
  for (let c = 0; c < nx * ny; c++) {
    const s = src[c];
    assert(s >= 0 && obs[s] === 1);
    const d = Math.hypot((s % nx) - (c % nx), Math.floor(s / nx) - Math.floor(c / nx));
    assert(d >= Math.sqrt(ref[c]) - 1e-9 && d <= Math.sqrt(ref[c]) + 1, `cell ${c}`);
  }
  // Empty grid: no sources, no medial cells.
  assert(nearestSource(new Uint8Array(4), 2, 2).every((v) => v === -1));
  assert(medialAxis(new Uint8Array(4), 2, 2).every((v) => v === 0));
});
