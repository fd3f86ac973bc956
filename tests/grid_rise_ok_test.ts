import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { dropSeamBlocked, RISE_NEVER_ABOVE, riseOk, stepDownOk } from "../src/grid/rise_ok.ts";
import { kClimb } from "../src/grid/constants.ts";
import { occIndex, spanGridFromColumns } from "../src/grid/span_grid.ts";

/** A 1-row strip: column x holds the listed span heights. */
function strip(cols: number[][]) {
  return spanGridFromColumns(cols.length, 1, cols);
}

/** RiseOk along +x from column x (height a) to column x+1 (height b). */
function fwd(cols: number[][], x: number, a: number, b: number, gate = null) {
  return riseOk(strip(cols), x, 0, a, 1, 0, b, gate);
}

Deno.test("RiseOk: narrow bump up to 1.25 passes (rule 8, back to h0 at s = 3)", () => {
  const cols = [[0], [0], [0], [1], [1], [0], [0]];
  assert(fwd(cols, 2, 0, 1));
  // Bump 1.3 m: rule 7 refuses anything above kBumpUp.
  assert(!fwd([[0], [0], [0], [1.3], [1.3], [0], [0]], 2, 0, 1.3));
  // Bump 3 cells wide: s = 2, 3 hold only the top, no evidence.
  assert(!fwd([[0], [0], [0], [1], [1], [1], [0]], 2, 0, 1));
  // A column ahead holding both heights is a stack, not a bump.
  assert(!fwd([[0], [0], [0], [1], [1], [0, 1], [0, 1]], 2, 0, 1));
});

Deno.test("RiseOk: shallow dip passes (rule 9, target height behind)", () => {
  assert(fwd([[1], [1], [0], [1], [1]], 2, 0, 1));
  // Both heights behind (a staircase side): no dip evidence.
  assert(!fwd([[0, 1], [0, 1], [0], [1], [2]], 2, 0, 1));
  // Dip evidence two cells behind is enough.
  assert(fwd([[1], [0, 1], [0], [1], [2]], 2, 0, 1));
});

Deno.test("RiseOk: 0.5 m staircase climbs, 1 m staircase does not", () => {
  const half = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i * 0.5]);
  const one = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i * 1.0]);
  for (let x = 0; x < 7; x++) {
    assert(fwd(half, x, x * 0.5, (x + 1) * 0.5), `0.5 m step ${x}`);
    assert(!fwd(one, x, x, x + 1), `1 m step ${x}`);
  }
  // Down the 1 m staircase is fine (rule 3).
  assert(riseOk(strip(one), 3, 0, 3, -1, 0, 2));
});

Deno.test("RiseOk: slope and diagonal thresholds (rules 3, 4)", () => {
  const g = spanGridFromColumns(2, 2, [[0], [0.3], [0.3], [0.3]]);
  assert(riseOk(g, 0, 0, 0, 1, 1, 0.3)); // diagonal: 0.3 ≤ 0.3536
  assert(riseOk(g, 0, 0, 0, 1, 0, 0.3)); // orthogonal: passes at rule 6 (no facade)
  assert(riseOk(g, 0, 0, 0, 1, 0, 0.25)); // rule 3 boundary (0.25 exact)
});

Deno.test("RiseOk: facade columns get only the slope (rule 5)", () => {
  // Column 1 is a wall foot: 5 spans over 6 m → face.
  const wall = [[0], [0.4, 1.5, 3, 4.5, 6.4], [0]];
  assert(!fwd(wall, 0, 0, 0.4));
  assert(fwd(wall, 0, 0, 0.25));
  // Diagonal 0.3 is within the slope even into a facade.
  const g = spanGridFromColumns(2, 2, [[0], [0], [0], [0.3, 2, 4]]);
  assert(riseOk(g, 0, 0, 0, 1, 1, 0.3));
  assert(!riseOk(g, 0, 0, 0, 1, 1, 0.4));
  // Departure column a facade also blocks.
  assert(!fwd([[0, 2, 4], [0.4], [0.4]], 0, 0, 0.4));
  // Bridge column (exactly 2 spans, 5 m apart) is not a facade.
  assert(fwd([[0], [0.4, 5.4], [0.4]], 0, 0, 0.4));
});

Deno.test("RiseOk: bridge deck drop is a seam until the deck ends (向下一步)", () => {
  // Ground 0 everywhere; deck 5 over columns 2..6.
  const cols = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((x) => (x >= 2 && x <= 6 ? [0, 5] : [0]));
  // Deck continues in the next column: dropping to the ground is blocked.
  assert(!fwd(cols, 4, 5, 0));
  // Walking on along the deck is fine.
  assert(fwd(cols, 4, 5, 5));
  // Last deck column → next column has no deck within 4 cells: a ledge, the drop passes.
  assert(fwd(cols, 6, 5, 0));
  // A lower layer 2.9 below within 4 cells counts as the departure layer coming back.
  const c2 = cols.map((c) => c.slice());
  c2[10] = [2.1];
  assert(!fwd(c2, 6, 5, 0));
  // Beyond 4 cells it does not.
  const c3 = cols.map((c) => c.slice());
  c3[11] = [5];
  assert(fwd(c3, 6, 5, 0));
});

Deno.test("RiseOk: ledge drop is one-way; FallGate decides deep drops only", () => {
  const cols = [[5], [5], [5], [0], [0], [0], [0], [0]];
  const g = strip(cols);
  assert(riseOk(g, 2, 0, 5, 1, 0, 0));
  assert(!riseOk(g, 3, 0, 0, -1, 0, 5)); // rule 7 going up
  const calls: number[][] = [];
  const blockAll = (a: number, b: number, h0: number, h1: number) => {
    calls.push([a, b, h0, h1]);
    return true;
  };
  assert(!riseOk(g, 2, 0, 5, 1, 0, 0, blockAll));
  assertEquals(calls, [[2, 3, 5, 0]]);
  assert(riseOk(g, 2, 0, 5, 1, 0, 0, () => false));
  // A 2.5 m drop never consults the gate.
  const g2 = strip([[2.5], [2.5], [0], [0]]);
  assert(riseOk(g2, 1, 0, 2.5, 1, 0, 0, blockAll));
  assertEquals(calls.length, 1);
  assert(stepDownOk(g2, 1, 0, 2.5, 1, 0, 0, blockAll));
});

Deno.test("RiseOk: window edge answers 'no level' for look-ahead and bump", () => {
  // Bump evidence would lie outside the window: refused.
  assert(!fwd([[0], [0], [1], [1]], 1, 0, 1));
  // Drop look-ahead cannot see the departure layer beyond the window: passes.
  assert(fwd([[5], [5, 0]], 0, 5, 0) === false); // s = 1 holds the deck
  assert(fwd([[5], [0]], 0, 5, 0));
});

Deno.test("occIndex matches a brute-force rank on random occupancy", () => {
  const rnd = mulberry32(7);
  const nx = 97, ny = 13, cols: number[][] = [];
  for (let c = 0; c < nx * ny; c++) cols.push(rnd() < 0.4 ? [rnd()] : []);
  const g = spanGridFromColumns(nx, ny, cols);
  let rank = 0;
  for (let c = 0; c < nx * ny; c++) {
    if (cols[c].length > 0) assertEquals(occIndex(g, c), rank++);
    else assertEquals(occIndex(g, c), -1);
  }
  assertEquals(occIndex(g, nx * ny + 500), -1);
});

Deno.test("RiseOk: above RISE_NEVER_ABOVE it is false, and a blocked seam refuses every drop (random grids)", () => {
  // The two shortcuts SpanAstar takes while scanning a column, against RiseOk itself on
  // random multi-layer grids with facade bits and all eight directions.
  const rnd = mulberry32(17);
  let above = 0, seams = 0, passedNear = 0;
  for (let round = 0; round < 40; round++) {
    const nx = 12, ny = 12, cols: number[][] = [];
    for (let c = 0; c < nx * ny; c++) {
      const col: number[] = [];
      let h = Math.floor(rnd() * 3) * 0.5;
      for (let k = 0; k < 4; k++) {
        if (rnd() < 0.6) col.push(Math.fround(h));
        h += 0.2 + rnd() * (rnd() < 0.5 ? 1.5 : 5);
      }
      cols.push(col);
    }
    const g = spanGridFromColumns(nx, ny, cols);
    for (let j = 0; j < g.face.length; j++) g.face[j] = rnd() < 0.2 ? 1 : 0;
    for (let k = 0; k < 300; k++) {
      const x = 1 + Math.floor(rnd() * (nx - 2)), y = 1 + Math.floor(rnd() * (ny - 2));
      const dx = Math.floor(rnd() * 3) - 1, dy = Math.floor(rnd() * 3) - 1;
      const from = cols[y * nx + x], to = cols[(y + dy) * nx + x + dx];
      if ((dx === 0 && dy === 0) || !from.length || !to.length) continue;
      const h0 = from[Math.floor(rnd() * from.length)];
      const blocked = dropSeamBlocked(g, x, y, h0, dx, dy);
      for (const h1 of to) {
        const ok = riseOk(g, x, y, h0, dx, dy, h1);
        if (h1 - h0 > RISE_NEVER_ABOVE) (above++), assert(!ok, `rise ${h1 - h0} passed`);
        else if (h1 - h0 > 0.5 && ok) passedNear++;
        if (h1 - h0 < -kClimb && blocked) (seams++), assert(!ok, `drop ${h1 - h0} past a seam`);
      }
    }
  }
  assert(above > 300 && seams > 30 && passedNear > 10, `${above} / ${seams} / ${passedNear}`);
});
