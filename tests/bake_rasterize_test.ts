import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { mulberry32 } from "./rng.ts";
import { rasterize, type RasterMesh } from "../src/bake/rasterize.ts";
import type { SampleBuffer } from "../src/bake/samples.ts";

const WIN = { x0: 0, y0: 0, nx: 16, ny: 16 };

function mesh(tris: number[][]): RasterMesh {
  const verts: number[] = [], idx: number[] = [];
  for (const t of tris) {
    for (let k = 0; k < 3; k++) {
      idx.push(verts.length / 3);
      verts.push(t[3 * k], t[3 * k + 1], t[3 * k + 2]);
    }
  }
  return { verts: Float32Array.from(verts), tris: Uint32Array.from(idx) };
}

function byCell(b: SampleBuffer, nx: number): Map<string, { h: number; ins: number }[]> {
  const m = new Map<string, { h: number; ins: number }[]>();
  for (let i = 0; i < b.n; i++) {
    const k = `${b.cell[i] % nx},${Math.floor(b.cell[i] / nx)}`;
    if (!m.has(k)) m.set(k, []);
    m.get(k)!.push({ h: b.h[i], ins: b.ins[i] });
  }
  return m;
}

Deno.test("rasterize: floor scan vs closed SAT — left/bottom border cells have no samples", () => {
  // Vertices on cell lines: A(1,1) B(2,1) C(1,2), heights 0, 1, 2.
  const b = rasterize(mesh([[1, 1, 0, 2, 1, 1, 1, 2, 2]]), WIN);
  const m = byCell(b, WIN.nx);
  assert(!m.has("3,4"), "left border cell");
  assert(!m.has("4,3"), "bottom border cell");
  assert(m.has("8,4"), "right border cell touching B");
  assert(m.has("4,8"), "top border cell touching C");
  // Cell (4,4): centre (1.125, 1.125) inside, h = 0.125·1 + 0.125·2.
  assertEquals(m.get("4,4"), [{ h: Math.fround(0.375), ins: 1 }]);
  assertEquals(m.get("8,4")![0].ins, 0);
  // Centroid (4/3, 4/3) → cell (5,5) gets a second sample at the vertex mean 1.
  assertEquals(m.get("5,5")!.length, 2);
  assertEquals(m.get("5,5")![1], { h: 1, ins: 0 });
  // Clamped heights stay inside the triangle's height range.
  for (let i = 0; i < b.n; i++) assert(b.h[i] >= 0 && b.h[i] <= 2);
});

Deno.test("rasterize: vertical triangles stack samples along their footprint", () => {
  // A wall along y = 1.1 from x = 1 to 2, 0..6 m, as two vertical triangles.
  const b = rasterize(
    mesh([[1, 1.1, 0, 2, 1.1, 0, 2, 1.1, 6], [1, 1.1, 0, 2, 1.1, 6, 1, 1.1, 6]]),
    WIN,
  );
  const m = byCell(b, WIN.nx);
  for (let x = 4; x <= 8; x++) assert(m.has(`${x},4`), `foot cell ${x}`);
  for (const [k] of m) assert(k.endsWith(",4"), `only row 4, got ${k}`);
  for (let i = 0; i < b.n; i++) assert(Number.isFinite(b.h[i]) && b.h[i] >= 0 && b.h[i] <= 6);
  // Different heights land in the foot column: the stack a facade is made of.
  const hs = new Set(m.get("6,4")!.map((s) => s.h));
  assert(hs.size >= 2);
});

Deno.test("rasterize: non-walkable and out-of-window triangles give nothing", () => {
  const m = mesh([[1, 1, 0, 2, 1, 0, 1, 2, 0], [10, 10, 0, 11, 10, 0, 10, 11, 0]]);
  m.walkable = Uint8Array.from([0, 1]);
  assertEquals(rasterize(m, WIN).n, 0);
});

function segDist2(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): number {
  const pt = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => {
    const vx = rx - qx, vy = ry - qy, l = vx * vx + vy * vy;
    const t = l === 0 ? 0 : Math.max(0, Math.min(1, ((px - qx) * vx + (py - qy) * vy) / l));
    return (px - qx - t * vx) ** 2 + (py - qy - t * vy) ** 2;
  };
  const cr = (ox: number, oy: number, px: number, py: number, qx: number, qy: number) =>
    (px - ox) * (qy - oy) - (py - oy) * (qx - ox);
  const d1 = cr(ax, ay, bx, by, cx, cy), d2 = cr(ax, ay, bx, by, dx, dy);
  const d3 = cr(cx, cy, dx, dy, ax, ay), d4 = cr(cx, cy, dx, dy, bx, by);
  if (d1 * d2 < 0 && d3 * d4 < 0) return 0;
  return Math.min(
    pt(ax, ay, cx, cy, dx, dy),
    pt(bx, by, cx, cy, dx, dy),
    pt(cx, cy, ax, ay, bx, by),
    pt(dx, dy, ax, ay, bx, by),
  );
}

Deno.test("rasterize: SAT hits equal a brute-force triangle/square distance test", () => {
  const rnd = mulberry32(21);
  for (let it = 0; it < 150; it++) {
    const v = Array.from({ length: 6 }, () => 0.3 + rnd() * 3.4);
    const b = rasterize(mesh([[v[0], v[1], 0, v[2], v[3], 0, v[4], v[5], 0]]), WIN);
    const hit = new Set<number>();
    for (let i = 0; i < b.n - 1; i++) hit.add(b.cell[i]); // last sample is the centroid's
    const tri = [[v[0], v[1]], [v[2], v[3]], [v[4], v[5]]];
    const area = (v[2] - v[0]) * (v[5] - v[1]) - (v[3] - v[1]) * (v[4] - v[0]);
    for (let y = 0; y < WIN.ny; y++) {
      for (let x = 0; x < WIN.nx; x++) {
        const x0 = x * 0.25, y0 = y * 0.25, x1 = x0 + 0.25, y1 = y0 + 0.25;
        const sq = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        let d = Infinity;
        for (let i = 0; i < 3; i++) {
          for (let j = 0; j < 4; j++) {
            const [a, bb] = [tri[i], tri[(i + 1) % 3]], [c, e] = [sq[j], sq[(j + 1) % 4]];
            d = Math.min(d, segDist2(a[0], a[1], bb[0], bb[1], c[0], c[1], e[0], e[1]));
          }
        }
        // Square fully inside the triangle, or triangle fully inside the square.
        const inside = (px: number, py: number) => {
          const s = [0, 1, 2].map((i) => {
            const [a, bb] = [tri[i], tri[(i + 1) % 3]];
            return Math.sign((bb[0] - a[0]) * (py - a[1]) - (bb[1] - a[1]) * (px - a[0]));
          });
          return s.every((q) => q * Math.sign(area) >= 0);
        };
        if (inside(x0 + 0.125, y0 + 0.125)) d = 0;
        if (v[0] >= x0 && v[0] <= x1 && v[1] >= y0 && v[1] <= y1) d = 0;
        const c = y * WIN.nx + x;
        if (d > 1e-9) assert(!hit.has(c), `it ${it}: cell ${x},${y} far (d²=${d}) but hit`);
        if (d === 0 && area !== 0) assert(hit.has(c), `it ${it}: cell ${x},${y} overlaps, no hit`);
      }
    }
  }
});

Deno.test("rasterize: bad input gives one NavscopeError naming the part", () => {
  const bad = (m: RasterMesh, w = WIN) => assertThrows(() => rasterize(m, w), NavscopeError);
  const ok = mesh([[1, 1, 0, 2, 1, 0, 1, 2, 0]]);
  const e1 = bad({ ...ok, tris: Uint32Array.of(0, 1, 7) });
  assert(e1.message.includes("triangle 0 corner 2 refers to vertex 7"));
  const v = ok.verts.slice();
  v[4] = NaN;
  assert(bad({ ...ok, verts: v }).message.includes("vertex 1 is not finite"));
  bad(ok, { x0: 0, y0: 0, nx: 0, ny: 4 });
  bad({ ...ok, walkable: Uint8Array.of(1, 1) });
  assertEquals((bad({ ...ok, verts: ok.verts.slice(0, 8) }) as NavscopeError).code, "bad_value");
});
