/**
 * Issue 8 items 1 and 4: the v3 region dictionary holds absolute ids, and the id guard
 * (bgrd_guard.ts) rejects tiles whose region or component ids cannot belong to the zone.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { ByteReader, ByteWriter, deflate, readMaybeGzip, readStream } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { allocSpanColumns, SpanFlag } from "../src/pack/grid_types.ts";
import { decodeTileV3, encodeTileV3 } from "../src/pack/bgrd/tile_v3.ts";
import type { TileContext } from "../src/pack/bgrd/tile_common.ts";
import { checkGridIds, checkTileIds, componentCounts } from "../src/pack/bgrd/guard.ts";
import { allocFieldsTile } from "../src/pack/bnvf/fspn.ts";
import { decodeBgrd, encodeBgrd, parseBgrd } from "../src/pack/bgrd/section.ts";
import { decodeMainPack } from "../src/pack/bnav/mod.ts";
import { openSidecar } from "../src/pack/bnvf/sidecar.ts";
import { sidecarIdSource } from "../src/pack/set/pack_set.ts";

const ctx = (records: number): TileContext => ({
  nx: 4,
  ny: 1,
  records,
  where: { section: "BGRD", zone: "z", tile: 0 },
  base: 0,
});

/** One record per cell of a 4 × 1 tile, regions 1, 5, 6, 7. */
function tile() {
  const s = allocSpanColumns(4);
  s.cell.set([0, 1, 2, 3]);
  s.rid.set([1, 5, 6, 7]);
  s.h.set([1, 1, 1, 1]);
  s.flags.fill(SpanFlag.Walk | SpanFlag.Core);
  return s;
}

function leb(values: number[]): Uint8Array {
  const w = new ByteWriter(16);
  for (const v of values) w.varint(v);
  return w.finish();
}

/** Splits a v3 payload into its fixed part and its eight inflated streams. */
function split(bytes: Uint8Array): { fixed: Uint8Array; streams: Uint8Array[] } {
  const r = new ByteReader(bytes);
  r.varint(), r.f32(), r.varint(), r.varint();
  const kmax = r.varint();
  r.take(5 * kmax);
  const fixed = bytes.slice(0, r.pos);
  const streams: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) streams.push(readStream(r).slice());
  return { fixed, streams };
}

function join(fixed: Uint8Array, streams: Uint8Array[]): Uint8Array {
  const w = new ByteWriter(256);
  w.bytes(fixed);
  for (const s of streams) {
    const z = deflate(s);
    w.varint(z.length).bytes(z);
  }
  return w.finish();
}

Deno.test("bgrd v3: the region dictionary [1, 5, 6, 7] is four absolute varints", () => {
  const bytes = encodeTileV3(tile(), 4, 1);
  const { fixed, streams } = split(bytes);
  assertEquals(Array.from(streams[2]), [1, 5, 6, 7]); // not 1, 4, 1, 1
  const back = decodeTileV3(bytes, ctx(4));
  assertEquals(Array.from(back.rid.subarray(0, 4)), [1, 5, 6, 7]);
  // A dictionary in any order is read as ids, as the reference reader does.
  const shuffled = streams.slice();
  shuffled[2] = leb([7, 6, 5, 1]);
  const rev = decodeTileV3(join(fixed, shuffled), ctx(4));
  assertEquals(Array.from(rev.rid.subarray(0, 4)), [7, 6, 5, 1]);
});

Deno.test("bgrd v3: the old step-coded dictionary decodes to other ids; the guard rejects it", () => {
  const { fixed, streams } = split(encodeTileV3(tile(), 4, 1));
  const old = streams.slice();
  old[2] = leb([1, 4, 1, 1]); // what navscope wrote before issue 8
  const spans = decodeTileV3(join(fixed, old), ctx(4));
  // It decodes without complaint, to different ids …
  assertEquals(Array.from(spans.rid.subarray(0, 4)), [1, 4, 1, 1]);
  // … that all lie within global_regions = 7, so the region range alone does not catch it …
  checkTileIds(spans, { zone: "z", tile: 0, globalRegions: 7 });
  // … but with the sidecar: record 1 now claims region 4, which has no components in FSCC
  // (and record 3, now region 1 with one component, carries component 3 of region 7). The
  // guard names file, zone, tile and the first bad record.
  const fields = allocFieldsTile(4);
  fields.scc.set([1, 1, 2, 3]);
  const components = new Map([[1, 1], [5, 1], [6, 2], [7, 3]]);
  const good = decodeTileV3(encodeTileV3(tile(), 4, 1), ctx(4));
  checkTileIds(good, { zone: "z", tile: 0, globalRegions: 7, fields, components });
  const e = assertThrows(
    () =>
      checkTileIds(spans, {
        file: "a.nav",
        zone: "z",
        tile: 0,
        globalRegions: 7,
        fields,
        components,
      }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals([e.where.file, e.where.zone, e.where.tile], ["a.nav", "z", 0]);
  assert(e.message.includes("record 1 (cell 1, region 4)"), e.message);
  // Reading the absolute dictionary the old way (prefix sums) gives 1, 6, 12, 19: out of range.
  const legacy = decodeTileV3(join(fixed, old), ctx(4));
  legacy.rid.set([1, 6, 12, 19]);
  const r = assertThrows(
    () => checkTileIds(legacy, { zone: "z", tile: 5, globalRegions: 7 }),
    NavscopeError,
  ) as NavscopeError;
  assert(r.message.includes("record 2") && r.message.includes("region id 12"), r.message);
  assertEquals(r.where.tile, 5);
});

Deno.test("id guard: region id 0 and ids above global_regions are errors", () => {
  const s = tile();
  s.rid[0] = 0;
  assertThrows(() => checkTileIds(s, { zone: "z", tile: 0, globalRegions: 7 }), NavscopeError);
  s.rid[0] = 1;
  checkTileIds(s, { zone: "z", tile: 0, globalRegions: 7 });
  assertThrows(() => checkTileIds(s, { zone: "z", tile: 0, globalRegions: 6 }), NavscopeError);
});

const EX = (w: string, f: string) => new URL(`../examples/${w}/${f}`, import.meta.url).pathname;

async function grid(w: string) {
  const bytes = await readMaybeGzip(EX(w, "base.nav.gz"));
  const g = decodeMainPack(bytes).gridSection!;
  return parseBgrd(bytes.subarray(g.offset, g.offset + g.size));
}

Deno.test("id guard: a sidecar from a differently-regioned bake of the same mesh is rejected", async () => {
  // The dungeon bake with its regions numbered differently (r → r mod R + 1: the same records,
  // the same mesh) keeps every count the sidecar pairing compares, so only the ids can tell
  // that the sidecar's components belong to the other numbering (C++: 旁包分量号越界).
  const now = await grid("dungeon");
  const sidecar = sidecarIdSource(
    openSidecar(await readMaybeGzip(EX("dungeon", "base.fields.nav.gz")), null, {
      file: "base.fields.nav.gz",
    }),
  );
  assert(checkGridIds(now, { file: "base.nav", sidecar }) > 0, "the bake's own sidecar fits");
  const input = decodeBgrd(now);
  for (const z of input.zones) {
    for (const t of z.tiles) {
      for (let r = 0; r < t.spans.n; r++) t.spans.rid[r] = (t.spans.rid[r] % z.globalRegions) + 1;
    }
  }
  const other = parseBgrd(encodeBgrd(input));
  assertEquals(
    other.zones.map((z) => z.tiles.map((t) => t.records)),
    now.zones.map((z) => z.tiles.map((t) => t.records)),
  );
  checkGridIds(other, { file: "other.nav" }); // region ids alone are in range
  const e = assertThrows(
    () => checkGridIds(other, { file: "other.nav", sidecar }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals([e.where.file, e.where.section, e.where.zone], [
    "base.fields.nav.gz",
    "FSPN",
    "dungeon",
  ]);
  assertEquals(typeof e.where.tile, "number");
  assert(
    /record \d+ \(cell \d+, region \d+\) has component id \d+, but region \d+ has \d+ components/
      .test(e.message),
    e.message,
  );
});

Deno.test("id guard: every example passes with its own sidecar", async () => {
  for (const w of ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"]) {
    const g = await grid(w);
    const sidecar = sidecarIdSource(
      openSidecar(await readMaybeGzip(EX(w, "base.fields.nav.gz")), null),
    );
    assert(checkGridIds(g, { sidecar }) > 0, w);
  }
});

Deno.test("id guard: componentCounts maps FSCC regions to n_scc", () => {
  const m = componentCounts({
    count: 2,
    rid: Uint32Array.of(4, 9),
    nScc: Uint32Array.of(3, 1),
    nEdges: new Uint32Array(2),
    extra: null,
    rowBase: new Uint32Array(2),
    rowPtr: new Uint32Array(6),
    dst: new Uint32Array(0),
  });
  assertEquals([...m], [[4, 3], [9, 1]]);
});
