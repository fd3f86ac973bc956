/**
 * Merge rules of the sidecar columns into grid records (spec 建窗 › 解码瓦片 steps 5–6):
 * clearance shrink-only, step XOR, medial into seg bit 7, FOPN OR/max on non-core records only
 * and after the clearance write-back.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import { allocSpanColumns, type SpanColumns, SpanFlag } from "../src/pack/grid_types.ts";
import { allocFieldsTile, buildOpenTable } from "../src/pack/bnvf/sidecar.ts";
import { synthFieldsTile } from "../testing/bnvf_synth.ts";
import {
  applyOpenCells,
  finalStepBits,
  mergeFields,
  SEG_MEDIAL_BIT,
} from "../src/pack/bnvf/merge.ts";

function randomCols(rnd: () => number, n: number): SpanColumns {
  const c = allocSpanColumns(n);
  for (let i = 0; i < n; i++) {
    c.cell[i] = Math.floor(i / 2);
    c.rid[i] = Math.floor(rnd() * 5);
    c.h[i] = Math.floor(rnd() * 640) / 64;
    c.clr[i] = 40 + Math.floor(rnd() * 2000);
    c.flags[i] = Math.floor(rnd() * 32);
    c.steps[i] = Math.floor(rnd() * 256);
  }
  return c;
}

Deno.test("merge: clearance shrinks by clr2d, steps XOR, medial in seg bit 7, scc/tax kept", () => {
  const rnd = mulberry32(31);
  for (let k = 0; k < 20; k++) {
    const n = Math.floor(rnd() * 500);
    const cols = randomCols(rnd, n);
    const f = synthFieldsTile(rnd, n); // clr2d < 40 ≤ main clearance
    const before = { clr: cols.clr.slice(), steps: cols.steps.slice() };
    const m = mergeFields(cols, f, { zone: "z", tile: k });
    assert(m.clr === cols.clr, "written back into the records");
    for (let i = 0; i < n; i++) {
      assertEquals(m.clr[i], before.clr[i] - f.clr2d[i]);
      assert(m.clr[i] <= before.clr[i]);
      assertEquals(m.steps2[i], before.steps[i] ^ f.steps2x[i]);
      assertEquals(m.steps2[i] ^ before.steps[i], f.steps2x[i]);
      assertEquals(m.seg[i] & 0x7f, f.seg[i]);
      assertEquals((m.seg[i] & SEG_MEDIAL_BIT) !== 0, (f.medial[i] & 1) === 1);
    }
    assertEquals(m.scc, f.scc);
    assertEquals(m.tax, f.tax);
  }
});

Deno.test("merge: writeBack=false leaves the records untouched", () => {
  const cols = randomCols(mulberry32(1), 10);
  const f = allocFieldsTile(10);
  f.clr2d.fill(3);
  const keep = cols.clr.slice();
  const m = mergeFields(cols, f, {}, false);
  assertEquals(cols.clr, keep);
  assertEquals(m.clr[0], keep[0] - 3);
});

Deno.test("merge: clr2d larger than the main clearance fails and changes nothing", () => {
  const cols = randomCols(mulberry32(2), 8);
  const f = allocFieldsTile(8);
  f.clr2d[0] = 1;
  f.clr2d[5] = cols.clr[5] + 1; // would go negative
  const keep = cols.clr.slice();
  const e = assertThrows(
    () => mergeFields(cols, f, { file: "f", zone: "z", tile: 3 }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals([e.where.file, e.where.section, e.where.zone, e.where.tile], ["f", "FSPN", "z", 3]);
  assertEquals(cols.clr, keep, "no partial result");
  // Equal is allowed: clearance 0.
  f.clr2d[5] = cols.clr[5];
  assertEquals(mergeFields(cols, f).clr[5], 0);
});

Deno.test("merge: record-count mismatch and seg bit 7 conflicts are rejected", () => {
  const cols = randomCols(mulberry32(3), 4);
  const e = assertThrows(
    () => mergeFields(cols, allocFieldsTile(5)),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "count_mismatch");
  const f = allocFieldsTile(4);
  f.seg[2] = 0x81;
  assertEquals(
    (assertThrows(() => mergeFields(cols, f), NavscopeError) as NavscopeError).code,
    "bad_value",
  );
});

Deno.test("finalStepBits: main bits gate each direction, re-judged bits decide", () => {
  for (let main = 0; main < 256; main++) {
    for (let s2 = 0; s2 < 256; s2 += 7) {
      const out = finalStepBits(main, s2);
      for (let d = 0; d < 4; d++) {
        const mb = (main >> (2 * d)) & 3, sb = (s2 >> (2 * d)) & 3;
        assertEquals((out >> (2 * d)) & 3, mb === 0 ? 0 : sb);
      }
    }
  }
});

Deno.test("FOPN merge: non-core matches OR flags and take the max clearance; core untouched", () => {
  // Tile window origin (100, 200), 4 cells wide; records: cells 0, 1, 5 (lx 1, ly 1).
  const cols = allocSpanColumns(5);
  const cells = [0, 1, 5, 5, 6];
  const hs = [1.5, 2, 0.25, 3, 7];
  const flags = [
    SpanFlag.Dead,
    SpanFlag.Dead,
    SpanFlag.Dead,
    SpanFlag.Core | SpanFlag.Walk,
    SpanFlag.Dead,
  ];
  const clr = [0, 50, 9, 4, 1];
  cells.forEach((c, i) => {
    cols.cell[i] = c;
    cols.h[i] = hs[i];
    cols.flags[i] = flags[i];
    cols.clr[i] = clr[i];
  });
  const opens = buildOpenTable([
    { zone: 2, gx: 100, gy: 200, h: 1.5, clr: 30, flags: SpanFlag.Core | SpanFlag.Walk, src: 0 }, // rec 0: clr 0 → 30
    { zone: 2, gx: 101, gy: 200, h: 2, clr: 10, flags: SpanFlag.Walk, src: 1 }, // rec 1: keeps 50
    { zone: 2, gx: 101, gy: 201, h: 0.25, clr: 20, flags: SpanFlag.Core, src: 0 }, // rec 2
    { zone: 2, gx: 101, gy: 201, h: 3, clr: 99, flags: SpanFlag.Ghost, src: 0 }, // rec 3 is Core → skipped
    { zone: 2, gx: 102, gy: 201, h: 7.5, clr: 99, flags: SpanFlag.Ghost, src: 0 }, // h differs → no match
    { zone: 3, gx: 102, gy: 201, h: 7, clr: 99, flags: SpanFlag.Ghost, src: 0 }, // other zone
  ]);
  const hits = applyOpenCells(cols, { gx0: 100, gy0: 200, nx: 4 }, opens, 2);
  assertEquals(hits, 3);
  assertEquals(Array.from(cols.clr), [30, 50, 20, 4, 1]);
  assertEquals(Array.from(cols.flags), [
    SpanFlag.Dead | SpanFlag.Core | SpanFlag.Walk,
    SpanFlag.Dead | SpanFlag.Walk,
    SpanFlag.Dead | SpanFlag.Core,
    SpanFlag.Core | SpanFlag.Walk,
    SpanFlag.Dead,
  ]);
  assertEquals(applyOpenCells(cols, { gx0: 100, gy0: 200, nx: 4 }, null, 2), 0);
});

Deno.test("FOPN after clr2d: an opened cell is not pressed back by the sealed clearance", () => {
  const cols = allocSpanColumns(1);
  cols.clr[0] = 5;
  cols.h[0] = 1;
  cols.flags[0] = SpanFlag.Dead;
  const f = allocFieldsTile(1);
  f.clr2d[0] = 5; // sealed clearance 0
  const opens = buildOpenTable([{
    zone: 0,
    gx: 0,
    gy: 0,
    h: 1,
    clr: 12,
    flags: SpanFlag.Core,
    src: 0,
  }]);
  mergeFields(cols, f);
  applyOpenCells(cols, { gx0: 0, gy0: 0, nx: 1 }, opens, 0);
  assertEquals(cols.clr[0], 12);
});
