import { assert, assertEquals } from "./assert.ts";
import { kDropClimb, kDropHeight, makeFallGate } from "../src/grid/fall_gate.ts";
import { riseOk } from "../src/grid/rise_ok.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";

Deno.test("FallGate: null without colliders or transform; world points; shared cache", () => {
  const setup = { nx: 8, x0: 10, y0: 20, gx0: 40, gy0: 80, toWorld: null };
  assertEquals(makeFallGate(() => true, setup), null);
  assertEquals(makeFallGate(null, { ...setup, toWorld: (x: number, y: number) => [x, y] }), null);
  const calls: number[][] = [];
  const cache = new Map<string, boolean>();
  const gate = makeFallGate((ax, ay, az, bx, by, bz, climb, height) => {
    calls.push([ax, ay, az, bx, by, bz, climb, height]);
    return bz > 63; // block drops landing at window row ≥ 4 (z = 3·(20 + 4.5·0.25))
  }, { ...setup, toWorld: (x, y) => [2 * x, 3 * y], cache })!;
  // Cell 2 → cell 3 in row 0: centres (10.625, 20.125) and (10.875, 20.125).
  assertEquals(gate(2, 3, 5, 1), false);
  assertEquals(calls[0], [21.25, 5, 60.375, 21.75, 1, 60.375, kDropClimb, kDropHeight]);
  assertEquals(gate(2, 3, 5, 1), false);
  assertEquals(calls.length, 1); // cached
  assertEquals(cache.size, 1);
  // Projection overrides the cell centre.
  const g2 = makeFallGate((_ax, _ay, _az, bx) => bx === 0, {
    ...setup,
    toWorld: (x, y) => [x - 100, y],
    project: (_x, _y, h) => [100, 0, h],
  })!;
  assert(g2(0, 1, 5, 0));
  assert(gate(4 * 8 + 1, 5 * 8 + 1, 5, 1)); // row 5 landing: blocked
  // Wired into RiseOk: a 5 m ledge drop is refused when the gate blocks.
  const strip = spanGridFromColumns(4, 1, [[5], [0], [0], [0]]);
  assert(!riseOk(strip, 0, 0, 5, 1, 0, 0, g2));
  assert(riseOk(strip, 0, 0, 5, 1, 0, 0, null));
});
