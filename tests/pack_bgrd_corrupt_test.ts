/**
 * BGRD corruption: one test per rejection rule. Every error is a NavscopeError naming section
 * BGRD, the zone and tile (for tile errors), a byte offset and what was expected.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { ByteReader, ByteWriter, deflate, inflateExact, readStream } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { allocSpanColumns, type SpanColumns } from "../src/pack/grid_types.ts";
import { decodeBgrdTile, encodeBgrd, parseBgrd } from "../src/pack/bgrd/section.ts";
import { encodeTileV3 } from "../src/pack/bgrd/tile_v3.ts";
import { encodeTileV2 } from "../src/pack/bgrd/tile_v2.ts";
import { summarizeBgrd } from "../src/pack/bgrd/summary.ts";

const NX = 3;
const NY = 2;

/** Six records over four cells of a 3 × 2 tile; cell 0 and cell 4 have two layers. */
function baseSpans(): SpanColumns {
  const s = allocSpanColumns(6);
  s.cell.set([0, 0, 1, 3, 4, 4]);
  s.h.set([10, 14, 10.25, 10.5, 9, 13]);
  s.rid.set([7, 9, 7, 7, 8, 9]);
  s.clr.set([4, 4, 5, 1, 2, 2]);
  s.flags.set([6, 6, 6, 2, 6, 6]);
  s.steps.set([0, 0, 1, 0, 0, 0]);
  return s;
}

interface Parts {
  n: number;
  hmin: number;
  regions: number;
  ncell: number;
  kmax: number;
  select: number[];
  /** Raw (inflated) stream contents. */
  streams: Uint8Array[];
  /** Bytes appended after the eighth stream. */
  tail?: number[];
}

function partsOf(payload: Uint8Array): Parts {
  const r = new ByteReader(payload);
  const n = r.varint();
  const hmin = r.f32();
  const regions = r.varint();
  const ncell = r.varint();
  const kmax = r.varint();
  const select = Array.from(r.take(5 * kmax));
  const streams: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) streams.push(readStream(r).slice());
  return { n, hmin, regions, ncell, kmax, select, streams };
}

function buildV3(p: Parts): Uint8Array {
  const w = new ByteWriter();
  w.varint(p.n).f32(p.hmin).varint(p.regions).varint(p.ncell).varint(p.kmax);
  w.bytes(new Uint8Array(p.select));
  for (const s of p.streams) {
    const z = deflate(s);
    w.varint(z.length).bytes(z);
  }
  for (const b of p.tail ?? []) w.u8(b);
  return w.finish();
}

function varintsBytes(vals: number[]): Uint8Array {
  const w = new ByteWriter();
  for (const v of vals) w.varint(v);
  return w.finish();
}

/** A one-zone, one-tile section around `payload` with the given directory record count. */
function sectionWith(payload: Uint8Array, records: number, version = 3): Uint8Array {
  const spans = allocSpanColumns(records);
  const bytes = encodeBgrd({
    version: version as 2 | 3,
    zones: [{
      name: "map01base",
      x0: 0,
      y0: 0,
      globalRegions: 10,
      tiles: [{ gx0: 0, gy0: 0, nx: NX, ny: NY, px0: 0, px1: NX - 1, py0: 0, py1: NY - 1, spans }],
    }],
  });
  // Replace the payload (it is last, right after the directory) and patch the tile's len.
  const dirEnd = new DataView(bytes.buffer, bytes.byteOffset).getUint32(TILE_ENTRY + 32, true);
  const out = new Uint8Array(dirEnd + payload.length);
  out.set(bytes.subarray(0, dirEnd));
  out.set(payload, dirEnd);
  const v = new DataView(out.buffer);
  v.setUint32(TILE_ENTRY + 32, dirEnd, true);
  v.setUint32(TILE_ENTRY + 36, 0, true);
  v.setUint32(TILE_ENTRY + 40, payload.length, true);
  v.setUint32(TILE_ENTRY + 44, records, true);
  return out;
}

/** Section offset of the only tile's directory entry: header 40, name len 4 + 12, 24. */
const TILE_ENTRY = 40 + 4 + 12 + 24;

function expectError(fn: () => unknown, code: string, tile = true): NavscopeError {
  const e = assertThrows(fn, NavscopeError) as NavscopeError;
  assertEquals(e.code, code, e.message);
  assertEquals(e.where.section, "BGRD", e.message);
  assert(e.where.offset !== undefined, `no offset: ${e.message}`);
  assert(e.expected !== undefined, `no expectation: ${e.message}`);
  if (tile) {
    assertEquals(e.where.zone, "map01base", e.message);
    assertEquals(e.where.tile, 0, e.message);
  }
  assert(e.message.includes("BGRD"), e.message);
  return e;
}

function decodeOnly(bytes: Uint8Array): SpanColumns {
  return decodeBgrdTile(parseBgrd(bytes), 0, 0);
}

function decodeParts(p: Parts, records = p.n): () => SpanColumns {
  return () => decodeOnly(sectionWith(buildV3(p), records));
}

const VALID = encodeTileV3(baseSpans(), NX, NY);

Deno.test("bgrd corrupt: the baseline tile and its rebuilt form decode", () => {
  assertEquals(decodeOnly(sectionWith(VALID, 6)).n, 6);
  assertEquals(decodeParts(partsOf(VALID))().n, 6);
  assertEquals(buildV3(partsOf(VALID)), VALID);
});

Deno.test("bgrd corrupt: truncated header, directory and payload", () => {
  const sec = sectionWith(VALID, 6);
  expectError(() => parseBgrd(sec.subarray(0, 39)), "truncated", false);
  expectError(() => parseBgrd(sec.subarray(0, TILE_ENTRY + 20)), "truncated", false);
  // Cut the payload's last 3 bytes and shrink the directory length to match.
  const cut = sec.slice(0, sec.length - 3);
  new DataView(cut.buffer).setUint32(TILE_ENTRY + 40, VALID.length - 3, true);
  expectError(() => decodeOnly(cut), "truncated");
});

Deno.test("bgrd corrupt: bad magic, bad version, cell size ≠ 0.25", () => {
  const sec = sectionWith(VALID, 6);
  const magic = sec.slice();
  magic[0] = 0x58;
  expectError(() => parseBgrd(magic), "bad_magic", false);
  const ver = sec.slice();
  new DataView(ver.buffer).setUint32(4, 4, true);
  expectError(() => parseBgrd(ver), "bad_version", false);
  const cs = sec.slice();
  new DataView(cs.buffer).setFloat64(8, 0.25 + 1e-9, true);
  const e = expectError(() => parseBgrd(cs), "bad_value", false);
  assertEquals(e.where.offset, 8);
});

Deno.test("bgrd corrupt: varint overflow in the header and inside a stream", () => {
  const over = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 2]);
  expectError(() => decodeOnly(sectionWith(over, 6)), "varint_overflow");
  const p = partsOf(VALID);
  p.streams[5] = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0]);
  expectError(decodeParts(p), "varint_overflow");
});

Deno.test("bgrd corrupt: stream leftover and missing bytes", () => {
  const left = partsOf(VALID);
  left.streams[6] = new Uint8Array([...left.streams[6], 0]);
  expectError(decodeParts(left), "stream_length");
  const missing = partsOf(VALID);
  missing.streams[7] = missing.streams[7].subarray(0, 5);
  expectError(decodeParts(missing), "stream_length");
  const tail = partsOf(VALID);
  tail.tail = [0];
  expectError(decodeParts(tail), "stream_length");
  // zlib data that ends before its declared length.
  const w = new ByteWriter();
  const bytes = VALID.slice();
  const r = new ByteReader(bytes);
  r.varint();
  r.f32();
  r.varint();
  r.varint();
  const kmax = r.varint();
  r.take(5 * kmax);
  const z = deflate(partsOf(VALID).streams[0]);
  w.bytes(bytes.subarray(0, r.pos)).varint(z.length + 2).bytes(z).u8(0).u8(0);
  const rest = bytes.subarray(r.pos);
  const rr = new ByteReader(rest);
  const l0 = rr.varint();
  rr.take(l0);
  w.bytes(rest.subarray(rr.pos));
  expectError(() => decodeOnly(sectionWith(w.finish(), 6)), "stream_length");
});

Deno.test("bgrd corrupt: depth sum ≠ n, and kmax not the largest depth", () => {
  const p = partsOf(VALID);
  p.streams[1] = varintsBytes([2, 1, 1, 1]);
  expectError(decodeParts(p), "count_mismatch");
  const k = partsOf(VALID);
  k.kmax = 3;
  k.select = [
    ...k.select.slice(0, 2),
    0,
    ...k.select.slice(2, 4),
    0,
    ...k.select.slice(4, 6),
    0,
    ...k.select.slice(6, 8),
    0,
    ...k.select.slice(8, 10),
    0,
  ];
  expectError(decodeParts(k), "count_mismatch");
});

Deno.test("bgrd corrupt: ncell disagrees with n or with the cell stream", () => {
  const big = partsOf(VALID);
  big.ncell = 7;
  expectError(decodeParts(big), "count_mismatch");
  const more = partsOf(VALID);
  more.ncell = 5; // the cell stream holds 4 varints
  expectError(decodeParts(more), "stream_length");
});

Deno.test("bgrd corrupt: region index ≥ regions", () => {
  const p = partsOf(VALID);
  // Region-index residuals, all Up from 0: make the first record's index 3 (dictionary has 3).
  const vals = Array.from(new ByteReader(p.streams[4]).take(p.streams[4].length));
  vals[0] = 6; // zigzag(3)
  p.streams[4] = new Uint8Array(vals);
  const e = expectError(decodeParts(p), "bad_value");
  assert(e.message.includes("region index"), e.message);
});

Deno.test("bgrd corrupt: record count ≠ directory records", () => {
  expectError(() => decodeOnly(sectionWith(VALID, 5)), "count_mismatch");
  expectError(() => decodeOnly(sectionWith(VALID, 7)), "count_mismatch");
});

Deno.test("bgrd corrupt: cells not ascending, cells outside the tile", () => {
  const rep = partsOf(VALID);
  rep.streams[0] = varintsBytes([0, 1, 0, 1]);
  expectError(decodeParts(rep), "bad_value");
  const out = partsOf(VALID);
  out.streams[0] = varintsBytes([0, 1, 2, 3]); // 0, 1, 3, 6: 6 ≥ 3·2
  expectError(decodeParts(out), "bad_value");
});

Deno.test("bgrd corrupt: offsets outside the section or inside the directory", () => {
  const sec = sectionWith(VALID, 6);
  const past = sec.slice();
  new DataView(past.buffer).setUint32(TILE_ENTRY + 32, sec.length - 2, true);
  let e = expectError(() => parseBgrd(past), "offset_out_of_range");
  assertEquals(e.where.offset, TILE_ENTRY + 32);
  const inDir = sec.slice();
  new DataView(inDir.buffer).setUint32(TILE_ENTRY + 32, 8, true);
  e = expectError(() => parseBgrd(inDir), "offset_out_of_range");
  const huge = sec.slice();
  new DataView(huge.buffer).setUint32(TILE_ENTRY + 36, 0x1fffff, true);
  expectError(() => parseBgrd(huge), "offset_out_of_range");
});

Deno.test("bgrd corrupt: select bytes other than Up/Down, and Down on layer 0", () => {
  const two = partsOf(VALID);
  two.select[1] = 2;
  expectError(decodeParts(two), "bad_value");
  const down0 = partsOf(VALID);
  down0.select[2] = 1; // field 1, layer 0 (kmax = 2)
  const e = expectError(decodeParts(down0), "bad_value");
  assert(e.message.includes("layer 0"), e.message);
});

Deno.test("bgrd corrupt: field values out of range (clr above u16)", () => {
  const p = partsOf(VALID);
  const w = new ByteWriter();
  w.varint(2 * 70000);
  w.bytes(p.streams[5].subarray(1));
  p.streams[5] = w.finish();
  expectError(decodeParts(p), "bad_value");
});

Deno.test("bgrd corrupt: directory geometry and empty payload with records", () => {
  const sec = sectionWith(VALID, 6);
  const g = sec.slice();
  new DataView(g.buffer).setInt32(TILE_ENTRY + 20, NX, true); // px1 = nx
  expectError(() => parseBgrd(g), "bad_value");
  const z = sec.slice();
  new DataView(z.buffer).setUint32(TILE_ENTRY + 40, 0, true);
  expectError(() => parseBgrd(z), "count_mismatch");
});

Deno.test("bgrd corrupt: v2 blob truncated or disagreeing with the directory", () => {
  const blob = encodeTileV2(baseSpans(), NX, NY);
  const decodeV2 = (b: Uint8Array, rec: number) => () => decodeOnly(sectionWith(b, rec, 2));
  assertEquals(decodeV2(blob, 6)().n, 6);
  expectError(decodeV2(blob.subarray(0, blob.length - 4), 6), "stream_length");
  expectError(decodeV2(blob, 4), "count_mismatch");
});

Deno.test("bgrd corrupt: the summary rejects what the decoder rejects", () => {
  const p = partsOf(VALID);
  p.select[1] = 3;
  expectError(() => summarizeBgrd(parseBgrd(sectionWith(buildV3(p), 6))), "bad_value");
});

Deno.test("bgrd corrupt: a NaN or ±Infinity height base (v3 and v2) is rejected", () => {
  const sec = sectionWith(VALID, 6);
  const payloadAt = new DataView(sec.buffer).getUint32(TILE_ENTRY + 32, true);
  for (const bad of [NaN, Infinity, -Infinity]) {
    const p = partsOf(VALID);
    p.hmin = bad;
    const e = expectError(decodeParts(p), "bad_value");
    // n = 6 is one varint byte: the f32 right after it.
    assertEquals(e.where.offset, payloadAt + 1, e.message);
    assert(e.message.includes(`hmin is ${bad}`), e.message);
    // The summary (inspect) reads the same header.
    expectError(() => summarizeBgrd(parseBgrd(sectionWith(buildV3(p), 6))), "bad_value");
  }
  // v2: the f32 after n inside the inflated blob.
  const z2 = encodeTileV2(baseSpans(), NX, NY);
  const blob = inflateExact(z2, new ByteReader(z2), 0);
  for (const bad of [NaN, Infinity, -Infinity]) {
    const b = blob.slice();
    new DataView(b.buffer).setFloat32(1, bad, true);
    const e = expectError(() => decodeOnly(sectionWith(deflate(b), 6, 2)), "bad_value");
    assert(e.message.includes(`hmin is ${bad}`), e.message);
  }
});

Deno.test("bgrd corrupt: tile-decode errors keep the file name given to parseBgrd", () => {
  const p = partsOf(VALID);
  p.select[1] = 3;
  const section = parseBgrd(sectionWith(buildV3(p), 6), { file: "x/base.nav.gz" });
  const e = expectError(() => decodeBgrdTile(section, 0, 0), "bad_value");
  assertEquals(e.where.file, "x/base.nav.gz");
  assert(e.message.startsWith("x/base.nav.gz: BGRD, zone map01base, tile 0"), e.message);
  const none = assertThrows(() => decodeBgrdTile(section, 0, 5), NavscopeError) as NavscopeError;
  assertEquals(none.where.file, "x/base.nav.gz");
});

/** A two-zone section, each zone one tile of the base spans. */
function twoZones(): Uint8Array {
  const tile = () => ({
    gx0: 0,
    gy0: 0,
    nx: NX,
    ny: NY,
    px0: 0,
    px1: NX - 1,
    py0: 0,
    py1: NY - 1,
    spans: baseSpans(),
  });
  return encodeBgrd({
    version: 3,
    zones: [
      { name: "map01base", x0: 0, y0: 0, globalRegions: 10, tiles: [tile()] },
      { name: "map01lv001", x0: 0, y0: 0, globalRegions: 10, tiles: [tile()] },
    ],
  });
}

Deno.test("bgrd corrupt: bytes no tile owns (a zone count cut by one) and shared payload bytes are refused", () => {
  const good = twoZones();
  assertEquals(parseBgrd(good).zones.length, 2);
  // Issue 27 (fuzz: BGRD.zones := 1 dropped the second zone's grid silently).
  const cut = good.slice();
  new DataView(cut.buffer).setUint32(32, 1, true);
  const e = assertThrows(() => parseBgrd(cut, { file: "m.nav" }), NavscopeError) as NavscopeError;
  assertEquals(e.code, "stream_length", e.message);
  assert(/belong to no tile/.test(e.message) && e.message.includes("m.nav"), e.message);
  assertEquals(e.where.section, "BGRD");
  // Zone count 0: the whole payload area is orphaned.
  const none = good.slice();
  new DataView(none.buffer).setUint32(32, 0, true);
  const e0 = assertThrows(() => parseBgrd(none), NavscopeError) as NavscopeError;
  assert(e0.message.includes("belong to no tile"), e0.message);
  // The second tile pointed at the first tile's payload.
  const s = parseBgrd(good);
  const [t0, t1] = [s.zones[0].tiles[0], s.zones[1].tiles[0]];
  const twice = good.slice();
  const dv = new DataView(twice.buffer);
  const entry1 = s.directoryEnd - 48; // the last directory entry is zone 2's only tile
  assertEquals(Number(dv.getBigUint64(entry1 + 32, true)), t1.offset);
  dv.setBigUint64(entry1 + 32, BigInt(t0.offset), true);
  dv.setUint32(entry1 + 40, t0.len, true);
  assertThrows(() => parseBgrd(twice), NavscopeError);
  // Trailing bytes after the last payload.
  const tail = new Uint8Array(good.length + 3);
  tail.set(good);
  const e2 = assertThrows(() => parseBgrd(tail), NavscopeError) as NavscopeError;
  assert(e2.message.includes("after the last tile payload"), e2.message);
});

Deno.test("bgrd corrupt: a zone name no baker writes is refused on parse and on encode", () => {
  const sec = sectionWith(VALID, 6);
  assertEquals(new TextDecoder().decode(sec.subarray(44, 53)), "map01base");
  const cases: [string, RegExp][] = [
    ["map01bas\x01", /control character U\+0001 at index 8/],
    [" map01bas", /white space at the start or end/],
    ["map01\u2066b", /format character U\+2066 at index 5/], // 3 UTF-8 bytes
    ["map01ba\x9f", /control character U\+009F at index 7/], // U+009F: 2 UTF-8 bytes
  ];
  for (const [name, why] of cases) {
    const raw = new TextEncoder().encode(name);
    assertEquals(raw.length, 9, JSON.stringify(name));
    const b = sec.slice();
    b.set(raw, 44);
    const e = expectError(() => parseBgrd(b, { file: "base.nav" }), "bad_value", false);
    assertEquals([e.where.file, e.where.zone, e.where.offset], ["base.nav", 0, 44]);
    assert(why.test(e.message), e.message);
    // deno-lint-ignore no-control-regex
    assert(!/[\x00-\x1f\x7f-\x9f\u2066]/.test(e.message), JSON.stringify(e.message));
    const w = assertThrows(
      () => encodeBgrd({ zones: [{ name, x0: 0, y0: 0, globalRegions: 0, tiles: [] }] }),
      NavscopeError,
    ) as NavscopeError;
    assertEquals(w.code, "bad_value");
    assert(why.test(w.message), w.message);
  }
  // An empty name (length 0, no padding) is refused too.
  const empty = assertThrows(
    () => encodeBgrd({ zones: [{ name: "", x0: 0, y0: 0, globalRegions: 0, tiles: [] }] }),
    NavscopeError,
  ) as NavscopeError;
  assert(/it is empty/.test(empty.message), empty.message);
});
