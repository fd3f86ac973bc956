/**
 * BNVF sections one by one: FSPN / FSCC / FWAL / FLNK / FOPN round trips with fixed seeds, FWAL
 * lookup vs a linear scan, reachFrom vs a brute-force closure, and one corruption test per
 * rejection rule.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import { ByteWriter, writeStream } from "../src/codec/mod.ts";
import {
  buildComponentGraphs,
  buildOpenTable,
  buildWallTable,
  decodeComponentGraphs,
  decodeFieldsTile,
  decodeLinkTable,
  decodeOpenTable,
  decodeWallTable,
  encodeComponentGraphs,
  encodeFieldsTile,
  encodeLinkTable,
  encodeOpenTable,
  encodeSidecar,
  encodeWallTable,
  graphIndexOf,
  openIndexOf,
  openSidecar,
  reachFrom,
  readFieldsTile,
  wallIndexOf,
  wallKeptFor,
  zoneRange,
} from "../src/pack/bnvf/sidecar.ts";
import { synthFieldsTile, synthLinkTable, synthSidecar } from "../testing/bnvf_synth.ts";

function err(fn: () => unknown, code?: string): NavscopeError {
  const e = assertThrows(fn, NavscopeError) as NavscopeError;
  if (code) assertEquals(e.code, code, e.message);
  return e;
}

Deno.test("FSPN: random tiles round-trip byte-exactly", () => {
  const rnd = mulberry32(3);
  for (let k = 0; k < 60; k++) {
    const n = k < 3 ? k : Math.floor(rnd() * 2000);
    const t = synthFieldsTile(rnd, n);
    const bytes = encodeFieldsTile(t);
    const back = decodeFieldsTile(bytes, n, { zone: "z", tile: k });
    assertEquals(back, t);
    assertEquals(encodeFieldsTile(back), bytes);
  }
});

Deno.test("FSCC: random graphs round-trip, with and without the extra varints", () => {
  const rnd = mulberry32(4);
  for (let k = 0; k < 40; k++) {
    const extra = k % 2 === 0;
    const regions = [];
    for (let rid = 0; rid < 30; rid += 1 + Math.floor(rnd() * 3)) {
      const nScc = Math.floor(rnd() * 12);
      const edges: [number, number][] = [];
      for (let e = 0; e < nScc * 3; e++) {
        const a = 1 + Math.floor(rnd() * nScc), b = 1 + Math.floor(rnd() * nScc);
        if (a !== b) edges.push([a, b]); // any direction: the codec does not demand acyclicity
      }
      regions.push({ rid, nScc, edges, extra: [1, 2, 3, rid] });
    }
    const g = buildComponentGraphs(regions, extra);
    const bytes = encodeComponentGraphs(g, extra);
    const back = decodeComponentGraphs(bytes, extra, 1000, {});
    assertEquals(back, g);
    assertEquals(encodeComponentGraphs(back, extra), bytes);
  }
});

Deno.test("FSCC: reachFrom equals a brute-force transitive closure", () => {
  const rnd = mulberry32(5);
  for (let k = 0; k < 30; k++) {
    const nScc = 1 + Math.floor(rnd() * 25);
    const edges: [number, number][] = [];
    for (let e = 0; e < nScc * 2; e++) {
      const a = 1 + Math.floor(rnd() * nScc), b = 1 + Math.floor(rnd() * nScc);
      if (a < b) edges.push([a, b]);
    }
    const g = buildComponentGraphs([{ rid: 7, nScc, edges }]);
    const gi = graphIndexOf(g, 7);
    assertEquals(graphIndexOf(g, 8), -1);
    for (let seed = 1; seed <= nScc; seed++) {
      const mark = new Uint8Array(nScc + 1);
      reachFrom(g, gi, seed, mark);
      // Brute force: iterate relaxation until fixpoint.
      const ref = new Uint8Array(nScc + 1);
      ref[seed] = 1;
      for (let changed = true; changed;) {
        changed = false;
        for (const [a, b] of edges) {
          if (ref[a] && !ref[b]) {
            ref[b] = 1;
            changed = true;
          }
        }
      }
      assertEquals(mark, ref, `seed ${seed}`);
    }
    err(() => reachFrom(g, gi, 0, new Uint8Array(nScc + 1)), "bad_value");
    err(() => reachFrom(g, gi, nScc + 1, new Uint8Array(nScc + 2)), "bad_value");
  }
});

Deno.test("FWAL: round trip and wallKeptFor equals a linear scan", () => {
  const rnd = mulberry32(6);
  for (let k = 0; k < 20; k++) {
    const entries = [];
    let key = Math.floor(rnd() * 5);
    for (let w = Math.floor(rnd() * 200); w > 0; w--) {
      const rids = Array.from({ length: Math.floor(rnd() * 5) }, () => Math.floor(rnd() * 30));
      entries.push({ key, rids });
      key += 1 + Math.floor(rnd() * 7);
    }
    const t = buildWallTable(entries);
    const bytes = encodeWallTable(t);
    const back = decodeWallTable(bytes, {});
    assertEquals(back, t);
    assertEquals(encodeWallTable(back), bytes);
    for (let q = 0; q < 300; q++) {
      const qk = Math.floor(rnd() * (key + 3));
      const rid = Math.floor(rnd() * 32);
      const lin = entries.findIndex((e) => e.key === qk);
      assertEquals(wallIndexOf(t, qk) >= 0, lin >= 0);
      if (lin < 0) {
        const e = err(() => wallKeptFor(t, qk, rid), "bad_value");
        assertEquals(e.where.section, "FWAL");
      } else assertEquals(wallKeptFor(t, qk, rid), entries[lin].rids.includes(rid));
    }
  }
});

Deno.test("FLNK and FOPN: round trips, NaN bits kept, FOPN lookup vs linear scan", () => {
  const rnd = mulberry32(8);
  for (let k = 0; k < 10; k++) {
    const lt = synthLinkTable(rnd, [0, 3, 9], Math.floor(rnd() * 30));
    const lb = encodeLinkTable(lt);
    assertEquals(lb.length, 16 + 12 * lt.index.zone.length + 80 * lt.count);
    const lback = decodeLinkTable(lb);
    assertEquals(encodeLinkTable(lback), lb);
    assertEquals(lback.declHBits, lt.declHBits);
    const recs = Array.from({ length: Math.floor(rnd() * 100) }, (_, i) => ({
      zone: i % 3,
      gx: Math.floor(rnd() * 20) - 5,
      gy: Math.floor(rnd() * 20) - 5,
      h: i * 0.5 - 3,
      clr: i,
      flags: i & 31,
      src: i & 1,
    }));
    const ot = buildOpenTable(recs);
    const ob = encodeOpenTable(ot);
    const oback = decodeOpenTable(ob);
    assertEquals(encodeOpenTable(oback), ob);
    const bits = new Uint32Array(1), f = new Float32Array(bits.buffer);
    for (const r of recs) {
      const [a, b] = zoneRange(oback.index, r.zone);
      f[0] = r.h;
      const i = openIndexOf(oback, a, b, r.gx, r.gy, bits[0]);
      assert(i >= 0);
      assertEquals([oback.clr[i], oback.flags[i]], [r.clr, r.flags]);
      f[0] = r.h + 1000;
      assertEquals(openIndexOf(oback, a, b, r.gx, r.gy, bits[0]), -1);
    }
    assertEquals(zoneRange(oback.index, 77), [0, 0]);
  }
});

// ---- one corruption test per rejection rule -------------------------------------------------

function tilePayload(n: number, streams: Uint8Array[], tail: number[] = []): Uint8Array {
  const w = new ByteWriter();
  w.varint(n);
  for (const s of streams) writeStream(w, s);
  for (const b of tail) w.u8(b);
  return w.finish();
}

const ones = (n: number) => new Uint8Array(n).fill(1);
const good = (n: number): Uint8Array[] => [
  new Uint8Array(n).fill(2), // scc +1 per record
  new Uint8Array(n),
  new Uint8Array(n),
  new Uint8Array(n),
  new Uint8Array(n),
  new Uint8Array(n),
];

Deno.test("reject: truncated data (header, directory, tile payload, zlib stream)", () => {
  const { model, expect } = synthSidecar(mulberry32(21), {
    zones: 1,
    tiles: 2,
    maxRecords: 50,
    links: true,
    opens: true,
  });
  const bytes = encodeSidecar(model);
  err(() => openSidecar(bytes.subarray(0, 2), expect), "truncated");
  err(() => openSidecar(bytes.subarray(0, 40), expect), "truncated");
  const e = err(() => openSidecar(bytes.subarray(0, bytes.length - 1), expect));
  assert(["offset_out_of_range", "truncated"].includes(e.code), e.message);
  const p = tilePayload(3, good(3));
  err(() => decodeFieldsTile(p.subarray(0, p.length - 3), 3, {}), "truncated");
});

Deno.test("reject: wrong FLNK / FOPN versions", () => {
  const lt = encodeLinkTable(synthLinkTable(mulberry32(1), [1], 2));
  lt[4] = 2;
  err(() => decodeLinkTable(lt), "bad_version");
  const ot = encodeOpenTable(
    buildOpenTable([{ zone: 0, gx: 1, gy: 1, h: 0, clr: 0, flags: 0, src: 0 }]),
  );
  ot[4] = 0;
  err(() => decodeOpenTable(ot), "bad_version");
});

Deno.test("reject: varint overflow inside a stream and in a block header", () => {
  const over = new Uint8Array(11).fill(0x80);
  over[10] = 1;
  const s = good(1);
  s[0] = over;
  const e = err(
    () => decodeFieldsTile(tilePayload(1, s), 1, { zone: "z", tile: 2 }, 100),
    "varint_overflow",
  );
  assertEquals([e.where.section, e.where.zone, e.where.tile], ["FSPN", "z", 2]);
  assert(e.where.offset! >= 100);
  err(() => decodeWallTable(over, {}), "varint_overflow");
});

Deno.test("reject: stream leftover and missing bytes", () => {
  // scc stream with an extra varint.
  const a = good(2);
  a[0] = new Uint8Array(3);
  err(() => decodeFieldsTile(tilePayload(2, a), 2, {}), "stream_length");
  // steps2x stream one byte short → wrong inflated size.
  const b = good(2);
  b[1] = new Uint8Array(1);
  err(() => decodeFieldsTile(tilePayload(2, b), 2, {}), "count_mismatch");
  // clr2d stream missing a varint.
  const c = good(2);
  c[4] = new Uint8Array(1);
  err(() => decodeFieldsTile(tilePayload(2, c), 2, {}), "truncated");
  // bytes after the sixth stream.
  err(() => decodeFieldsTile(tilePayload(2, good(2), [0]), 2, {}), "stream_length");
  // a zlib unit whose declared length has garbage after the zlib end.
  const w = new ByteWriter();
  w.varint(1);
  const z = new ByteWriter();
  writeStream(z, ones(1));
  const unit = z.finish();
  w.varint(unit.length); // declared = zlib bytes + 1 (length varint counted as data)
  w.bytes(unit.subarray(1)).u8(0);
  err(() => decodeFieldsTile(w.finish(), 1, {}), "stream_length");
  // FSCC block with trailing bytes.
  const g = encodeComponentGraphs(
    buildComponentGraphs([{ rid: 1, nScc: 2, edges: [[1, 2]] }]),
    false,
  );
  const gx = new Uint8Array(g.length + 1);
  gx.set(g);
  err(() => decodeComponentGraphs(gx, false, 10, {}), "stream_length");
  // FOPN section with a trailing byte.
  const ot = encodeOpenTable(
    buildOpenTable([{ zone: 0, gx: 1, gy: 1, h: 0, clr: 0, flags: 0, src: 0 }]),
  );
  const otx = new Uint8Array(ot.length + 1);
  otx.set(ot);
  err(() => decodeOpenTable(otx), "stream_length");
});

Deno.test("reject: counts that disagree (tile n vs table, zone index vs count)", () => {
  err(() => decodeFieldsTile(tilePayload(2, good(2)), 3, {}), "count_mismatch");
  const ot = encodeOpenTable(
    buildOpenTable([{ zone: 0, gx: 1, gy: 1, h: 0, clr: 0, flags: 0, src: 0 }, {
      zone: 1,
      gx: 1,
      gy: 1,
      h: 0,
      clr: 0,
      flags: 0,
      src: 0,
    }]),
  );
  new DataView(ot.buffer).setUint32(16 + 12 + 8, 0, true); // zone 1 length 0
  err(() => decodeOpenTable(ot), "count_mismatch");
});

Deno.test("reject: offsets outside the file (directory, section, zone block, tile payload)", () => {
  const { model, expect } = synthSidecar(mulberry32(22), { zones: 1, tiles: 2, maxRecords: 50 });
  const bytes = encodeSidecar(model);
  const v = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset);
  const a = bytes.slice();
  v(a).setBigUint64(32, BigInt(bytes.length), true);
  err(() => openSidecar(a, expect), "offset_out_of_range");
  const b = bytes.slice();
  v(b).setBigUint64(48 + 8, BigInt(bytes.length - 10), true); // first section (FCON) offset
  assertEquals(
    err(() => openSidecar(b, expect), "offset_out_of_range").where.section,
    "BNVF directory",
  );
  // FZON: zone 0's FSPN block length.
  const fzonOff = Number(v(bytes).getBigUint64(48 + 24 + 8, true));
  const nameLen = v(bytes).getUint32(fzonOff + 4, true);
  const entry = fzonOff + 4 + 4 + ((nameLen + 3) & ~3) + 8;
  const c = bytes.slice();
  v(c).setBigUint64(entry + 8, 1n << 40n, true);
  assertEquals(err(() => openSidecar(c, expect), "offset_out_of_range").where.section, "FZON");
  // FSPN tile 1 payload offset.
  const fspnOff = Number(v(bytes).getBigUint64(48 + 48 + 8, true)) +
    Number(v(bytes).getBigUint64(entry, true));
  const d = bytes.slice();
  v(d).setBigUint64(fspnOff + 16 + 4, 1n << 30n, true);
  const e = err(() => openSidecar(d, expect), "offset_out_of_range");
  assertEquals([e.where.section, e.where.tile, e.where.zone], ["FSPN", 1, model.zones[0].name]);
});

Deno.test("reject: bad values (FSCC edges, FWAL order, FOPN order, FLNK reason, clr2d > u16)", () => {
  const w = new ByteWriter();
  w.varint(1).varint(4).varint(2).varint(1);
  const e1 = new ByteWriter();
  e1.varint(1).varint(3); // edge 1 → 3 but only 2 components
  writeStream(w, e1.view());
  const e = err(() => decodeComponentGraphs(w.finish(), false, 10, { zone: "z" }), "bad_value");
  assert(e.message.includes("region 4"), e.message);
  // FSCC: edges out of order.
  const w2 = new ByteWriter();
  w2.varint(1).varint(4).varint(3).varint(2);
  const e2 = new ByteWriter();
  e2.varint(1).varint(3).varint(0).varint(2);
  writeStream(w2, e2.view());
  err(() => decodeComponentGraphs(w2.finish(), false, 10, {}), "bad_value");
  // FWAL: duplicate key (delta 0).
  const w3 = new ByteWriter();
  w3.varint(2);
  const k3 = new ByteWriter();
  k3.varint(5).varint(0);
  writeStream(w3, k3.view());
  writeStream(w3, new Uint8Array([0, 0]));
  err(() => decodeWallTable(w3.finish(), {}), "bad_value");
  // FOPN: records out of order.
  const ot = encodeOpenTable(buildOpenTable([
    { zone: 0, gx: 1, gy: 1, h: 0, clr: 0, flags: 0, src: 0 },
    { zone: 0, gx: 2, gy: 1, h: 0, clr: 0, flags: 0, src: 0 },
  ]));
  new DataView(ot.buffer).setInt32(16 + 12 + 16, 0, true); // second record gx 2 → 0
  err(() => decodeOpenTable(ot), "bad_value");
  // FLNK: reason code 9.
  const lt = encodeLinkTable(synthLinkTable(mulberry32(2), [1], 1));
  lt[16 + 12 + 55] = 9;
  err(() => decodeLinkTable(lt), "bad_value");
  // clr2d beyond u16.
  const s = good(1);
  const big = new ByteWriter();
  big.varint(70000);
  s[4] = big.finish();
  err(() => decodeFieldsTile(tilePayload(1, s), 1, {}), "bad_value");
});

Deno.test("reject: a corrupt tile inside a valid file names file, zone, tile, offset", () => {
  const { model, expect } = synthSidecar(mulberry32(23), { zones: 1, tiles: 3, maxRecords: 80 });
  model.zones[0].tiles[2] = synthFieldsTile(mulberry32(1), 40);
  expect.zones[0].tileRecords = model.zones[0].tiles.map((t) => t.n);
  const bytes = encodeSidecar(model);
  const pack = openSidecar(bytes, expect, { file: "base.fields.nav" });
  const off = pack.zones[0].tileOffset[2];
  const bad = bytes.slice();
  bad[off + pack.zones[0].tileLength[2] - 3] ^= 0xff; // inside the medial zlib data
  const p2 = openSidecar(bad, expect, { file: "base.fields.nav" });
  const e = err(() => readFieldsTile(p2, 0, 2));
  assertEquals([e.where.file, e.where.section, e.where.zone, e.where.tile], [
    "base.fields.nav",
    "FSPN",
    model.zones[0].name,
    2,
  ]);
  assert(e.where.offset! >= off, e.message);
});

Deno.test("reject: an FZON zone name no baker writes, on read and on write", () => {
  const { model } = synthSidecar(mulberry32(23), { zones: 2, tiles: 1, maxRecords: 20 });
  const bytes = encodeSidecar(model);
  const v = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset);
  const fzonOff = Number(v(bytes).getBigUint64(48 + 24 + 8, true));
  const nameAt = fzonOff + 8; // u32 zone count, u32 name length
  const name0 = model.zones[0].name;
  assertEquals(new TextDecoder().decode(bytes.subarray(nameAt, nameAt + 9)), name0);
  const cases: [string, RegExp][] = [
    [`${name0.slice(0, 8)}\x00`, /control character U\+0000 at index 8/],
    [`\u00ad${name0.slice(0, 7)}`, /format character U\+00AD at index 0/], // soft hyphen: Cf
    [`${name0.slice(0, 8)}\n`, /white space at the start or end/],
  ];
  for (const [name, why] of cases) {
    const raw = new TextEncoder().encode(name);
    assertEquals(raw.length, 9, JSON.stringify(name));
    const b = bytes.slice();
    b.set(raw, nameAt);
    const e = err(() => openSidecar(b, null, { file: "x.fields.nav" }), "bad_value");
    assertEquals([e.where.file, e.where.section, e.where.offset], ["x.fields.nav", "FZON", nameAt]);
    assert(why.test(e.message), e.message);
    // deno-lint-ignore no-control-regex
    assert(!/[\x00-\x1f\x7f-\x9f]/.test(e.message), JSON.stringify(e.message));
    const bad = { ...model, zones: [{ ...model.zones[0], name }, model.zones[1]] };
    const w = err(() => encodeSidecar(bad), "bad_value");
    assertEquals(w.where.section, "FZON");
    assert(why.test(w.message), w.message);
  }
});
