import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { digitalLineCells, lineEndCell, walkDigitalLine } from "../src/grid/digital_line.ts";
import { clearancePx } from "../src/grid/clearance_decode.ts";
import { kEdtColCap, kEdtWin, kMedialSq, rint } from "../src/grid/constants.ts";
import { FCON_F64_NAMES, FCON_I32_NAMES, RUNTIME_CONSTANTS } from "../src/pack/bnvf/constants.ts";

Deno.test("rint rounds half to even", () => {
  assertEquals([0.5, 1.5, 2.5, -0.5, -1.5, 0.4, -2.6].map(rint), [0, 2, 2, -0, -2, 0, -3]);
});

Deno.test("digital line: forward and reverse differ at half-way ties", () => {
  assertEquals(Array.from(digitalLineCells(0, 0, 2, 1)), [0, 0, 1, 0, 2, 1]);
  assertEquals(Array.from(digitalLineCells(2, 1, 0, 0)), [2, 1, 1, 1, 0, 0]);
  // Single cell: n = max(0, 0, 1) = 1 → two visits of the same cell.
  assertEquals(Array.from(digitalLineCells(3, 4, 3, 4)), [3, 4, 3, 4]);
  assertEquals(lineEndCell(1.26, 1.0), 1);
});

Deno.test("digital line: 8-connected, one cell per major-axis step, exact ends", () => {
  const rnd = mulberry32(11);
  for (let i = 0; i < 500; i++) {
    const ax = Math.floor(rnd() * 40) - 20, ay = Math.floor(rnd() * 40) - 20;
    const bx = Math.floor(rnd() * 40) - 20, by = Math.floor(rnd() * 40) - 20;
    const c = digitalLineCells(ax, ay, bx, by);
    const n = c.length / 2;
    assertEquals([c[0], c[1], c[2 * n - 2], c[2 * n - 1]], [ax, ay, bx, by]);
    for (let k = 1; k < n; k++) {
      const ddx = Math.abs(c[2 * k] - c[2 * k - 2]), ddy = Math.abs(c[2 * k + 1] - c[2 * k - 1]);
      assert(Math.max(ddx, ddy) <= 1);
      // Cell is the nearest to the line on the minor axis (|offset| ≤ 0.5).
      const t = k / (n - 1);
      if (Math.abs(bx - ax) >= Math.abs(by - ay)) {
        assert(Math.abs(c[2 * k + 1] - (ay + (by - ay) * t)) <= 0.5 + 1e-12);
      } else assert(Math.abs(c[2 * k] - (ax + (bx - ax) * t)) <= 0.5 + 1e-12);
    }
  }
  let visits = 0;
  assert(!walkDigitalLine(0, 0, 10, 3, () => ++visits < 3));
  assertEquals(visits, 3);
});

Deno.test("clearance decode: float32 sqrt·0.25 capped at 12", () => {
  assertEquals(clearancePx(0), 0);
  assertEquals(clearancePx(1), 0.25);
  assertEquals(clearancePx(2), Math.fround(Math.fround(Math.SQRT2) * 0.25));
  assertEquals(clearancePx(4), 0.5);
  assertEquals(clearancePx(2304), 12);
  assertEquals(clearancePx(2305), 12);
  assertEquals(clearancePx(38416), 12);
  assertEquals(clearancePx(2303), Math.fround(Math.fround(Math.sqrt(2303)) * 0.25));
  assert(clearancePx(2303) < 12);
  // Every value a u16 clr column can hold (the table covers q ≤ 2304), and non-integers.
  for (let q = 0; q <= 0xffff; q++) {
    const r = Math.fround(Math.fround(Math.sqrt(q)) * 0.25);
    assertEquals(clearancePx(q), r < 12 ? r : 12, `q ${q}`);
  }
  assertEquals(clearancePx(2.5), Math.fround(Math.fround(Math.sqrt(2.5)) * 0.25));
});

Deno.test("constants: FCON block and derived values", () => {
  const FCON_F64 = FCON_F64_NAMES.map((k) => RUNTIME_CONSTANTS[k]);
  const FCON_I32 = FCON_I32_NAMES.map((k) => RUNTIME_CONSTANTS[k]);
  assertEquals(FCON_F64, [0.25, 3, 1, 0.5, 1.25, 1.25, 8, 0.25, 12, 0.4, 0.2, 4, 0, 0.5, 0]);
  assertEquals(FCON_I32, [3, 2, 32, 0x20cdd, 2, 0]);
  assertEquals([kEdtWin, kEdtColCap, kMedialSq], [49, 196, 4]);
});
