import { assert, assertAlmostEquals, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { SampleBuffer } from "../src/bake/samples.ts";
import { cellOrder, sortSamples } from "../src/bake/pack_spans.ts";
import { buildSpans } from "../src/bake/build_spans.ts";
import { appendSeamBridge, kSeamBridgeCells } from "../src/bake/seam_bridge.ts";
import { occIndex, spanRange } from "../src/grid/span_grid.ts";

function samples(list: [number, number][]): SampleBuffer {
  const b = new SampleBuffer(4);
  for (const [c, h] of list) b.push(c, h, 0);
  return b;
}

function heightsAt(b: ReturnType<typeof buildSpans>, c: number): number[] {
  const [s, e] = spanRange(b.grid, c);
  return Array.from(b.grid.h.subarray(s, e));
}

Deno.test("span merge: the article's 8 samples give 0.10, 0.42, 3.05 (first-sample rule)", () => {
  const hs = [3.1, 0.45, 0, 0.5, 0.2, 3.0, 0.1, 0.3]; // shuffled: the merge sorts first
  const b = buildSpans(samples(hs.map((h) => [5, h])), 4, 4);
  const got = heightsAt(b, 5);
  assertEquals(got.length, 3);
  const f = Math.fround;
  assertEquals(got[0], f((f(0) + f(0.1) + f(0.2)) / 3));
  assertEquals(got[1], f((f(0.3) + f(0.45) + f(0.5)) / 3));
  assertEquals(got[2], f((f(3.0) + f(3.1)) / 2));
  assertAlmostEquals(got[0], 0.1, 1e-6);
  assertAlmostEquals(got[1], 0.41667, 1e-5);
  assertAlmostEquals(got[2], 3.05, 1e-6);
  assertEquals(Array.from(b.count), [3, 3, 2]);
});

Deno.test("face bits: wall foot, bridge, triple stack (formulas #34)", () => {
  const b = buildSpans(
    samples([
      ...[0, 1.5, 3, 4.5, 6].map((h) => [0, h] as [number, number]), // wall foot: 5 spans, 6 m
      [1, 0],
      [1, 5], // bridge: exactly 2 spans
      [2, 0],
      [2, 5],
      [2, 8], // ground, deck, roof: 3 spans over 8 m
      [3, 0],
      [3, 2],
      [3, 2.9], // 3 spans but only 2.9 m
      [4, 1], // single span
    ]),
    5,
    1,
  );
  const face = [0, 1, 2, 3, 4].map((c) => b.grid.face[occIndex(b.grid, c)]);
  assertEquals(face, [1, 0, 1, 0, 0]);
});

Deno.test("two-level counting sort equals a stable sort by cell", () => {
  const rnd = mulberry32(3);
  const n = 5000;
  const cell = new Int32Array(n);
  for (let i = 0; i < n; i++) cell[i] = Math.floor(rnd() * (rnd() < 0.5 ? 300000 : 70));
  const order = Array.from(cellOrder(cell, n));
  const ref = Array.from({ length: n }, (_, i) => i).sort((a, b) => cell[a] - cell[b] || a - b);
  assertEquals(order, ref);
  // sortSamples: by (cell, h), stable on equal heights (ins keeps its sample).
  const b = new SampleBuffer(4);
  b.push(9, 1, 1);
  b.push(2, 5, 0);
  b.push(9, 1, 0);
  b.push(9, 0.5, 1);
  const s = sortSamples(b);
  assertEquals(Array.from(s.cell), [2, 9, 9, 9]);
  assertEquals(Array.from(s.h), [5, 0.5, 1, 1]);
  assertEquals(Array.from(s.ins), [0, 1, 1, 0]);
});

Deno.test("seam bridge: Δh 1.2 bridged at the mean, 3.5 not", () => {
  assertEquals(kSeamBridgeCells, 1);
  const nx = 5, ny = 3;
  for (const [dh, expect] of [[1.2, true], [3.5, false]] as [number, boolean][]) {
    const list: [number, number][] = [];
    for (let y = 0; y < ny; y++) {
      for (const x of [0, 1]) list.push([y * nx + x, 0]);
      for (const x of [3, 4]) list.push([y * nx + x, dh]);
    }
    const out = appendSeamBridge(samples(list), nx, ny);
    const b = buildSpans(out, nx, ny);
    for (let y = 0; y < ny; y++) {
      const got = heightsAt(b, y * nx + 2);
      if (expect) assertEquals(got, [Math.fround(Math.fround(0 + Math.fround(dh)) * 0.5)]);
      else assertEquals(got, []);
    }
  }
});

Deno.test("seam bridge: two-cell seam is not bridged; closest pair is chosen", () => {
  const nx = 6;
  const out = appendSeamBridge(samples([[0, 0], [1, 0], [4, 0], [5, 0]]), nx, 1);
  assertEquals(out.n, 4);
  const o2 = appendSeamBridge(samples([[0, 0], [0, 5], [2, 5.2], [2, 10]]), 3, 1);
  assertEquals(o2.n, 5);
  assertEquals(o2.h[4], Math.fround(Math.fround(5 + Math.fround(5.2)) * 0.5));
  assertEquals(o2.cell[4], 1);
});

Deno.test("seam bridge: cross seam leaves its centre empty", () => {
  const nx = 5, ny = 5, list: [number, number][] = [];
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) if (x !== 2 && y !== 2) list.push([y * nx + x, 1]);
  }
  const b = buildSpans(appendSeamBridge(samples(list), nx, ny), nx, ny);
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const n = heightsAt(b, y * nx + x).length;
      assertEquals(n, x === 2 && y === 2 ? 0 : 1, `cell ${x},${y}`);
    }
  }
});

Deno.test("seam bridge: single-cell hole gets two samples 0.4 apart → two spans", () => {
  const nx = 3, ny = 3;
  const list: [number, number][] = [[3, 1.4], [5, 1.4], [1, 1.0], [7, 1.0], [0, 1.2], [2, 1.2]];
  list.push([6, 1.2], [8, 1.2]);
  const b = buildSpans(appendSeamBridge(samples(list), nx, ny), nx, ny);
  const got = heightsAt(b, 4);
  assertEquals(got.length, 2);
  assertAlmostEquals(got[0], 1.0, 1e-6);
  assertAlmostEquals(got[1], 1.4, 1e-6);
  assert(got[1] - got[0] > 0.25);
});
