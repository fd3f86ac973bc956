/**
 * BNAV main pack corruption: one test per rejection rule (truncation, magic, versions, varint
 * overflow, stream leftovers / missing bytes, count disagreements, offsets outside the file,
 * hash mismatch, bad indices), each checking the error code and where it points; then a bounded
 * fuzz run (mutated and truncated packs give a NavscopeError or a valid result, nothing else).
 */
import { ByteWriter } from "../src/codec/bytes.ts";
import { writeStream } from "../src/codec/stream.ts";
import { type ErrorCode, NavscopeError } from "../src/errors.ts";
import {
  decodeMainPack,
  describeMainPack,
  encodeLegacyMainPack,
  encodeMainPack,
  loadZone,
  type MainPack,
} from "../src/pack/bnav/mod.ts";
import { buildHashV5 } from "../src/pack/bnav/canonical.ts";
import { readFront } from "../src/pack/bnav/codec.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";

const FILE = "base.nav";
const CHUNKS = { vertex: 16, triangle: 20, link: 24 };

function sample(seed = 3): { pack: MainPack; bytes: Uint8Array } {
  const pack = randomMainPack(seed, { zones: 3, trianglesPerZone: 30, tierZones: 1 });
  return { pack, bytes: encodeMainPack(pack, { chunkSizes: CHUNKS }) };
}

/** Runs `fn`, expects a NavscopeError with `code`, returns it. */
function expectError(fn: () => unknown, code: ErrorCode, section?: string | RegExp): NavscopeError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof NavscopeError)) throw new Error(`expected NavscopeError, got ${e}`);
    assertEquals(e.code, code, `${e.message}`);
    assertEquals(e.where.file, FILE, e.message);
    if (section instanceof RegExp) assert(section.test(e.where.section ?? ""), e.message);
    else if (section !== undefined) assertEquals(e.where.section, section, e.message);
    assert(e.message.includes(FILE), e.message);
    return e;
  }
  throw new Error(`expected a ${code} error`);
}

const decode = (b: Uint8Array) => () => decodeMainPack(b, { file: FILE });
const zoneLoad = (b: Uint8Array, z: string | number = 0) => () => loadZone(b, z, { file: FILE });

function dv(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function geometry(bytes: Uint8Array) {
  const g = describeMainPack(bytes).geometry;
  if (g.kind !== "BGEO") throw new Error("not v5");
  return g;
}

/** Section directory entry position of `tag`. */
function sectionEntry(bytes: Uint8Array, tag: string): number {
  const d = describeMainPack(bytes);
  return 80 + 24 * d.sections.findIndex((s) => s.tag === tag);
}

/**
 * Replaces chunk `k` of `table` with `chunk`, fixing every offset and size that moves (chunk
 * directory entries, the BGEO size) and re-laying the sections after BGEO on 8-byte boundaries as
 * the encoder does, so the result breaks no layout rule and only the chunk is damaged (every v5
 * pack has at least BGRD after BGEO). The hash is left alone.
 */
function spliceChunk(
  bytes: Uint8Array,
  table: "vertex" | "triangle" | "link",
  k: number,
  chunk: Uint8Array,
): Uint8Array {
  const d = describeMainPack(bytes);
  const g = geometry(bytes);
  const c = g.chunks[table][k];
  const delta = chunk.length - c.size;
  const bgeo = d.sections.find((s) => s.tag === "BGEO")!;
  let end = bgeo.offset + bgeo.size + delta;
  const moved = new Map<number, number>(); // directory index → new offset
  d.sections.forEach((s, i) => {
    if (s.offset <= bgeo.offset) return;
    end += (8 - (end % 8)) % 8;
    moved.set(i, end);
    end += s.size;
  });
  const out = new Uint8Array(end);
  out.set(bytes.subarray(0, c.offset));
  out.set(chunk, c.offset);
  out.set(bytes.subarray(c.offset + c.size, bgeo.offset + bgeo.size), c.offset + chunk.length);
  const v = dv(out);
  for (const t of ["vertex", "triangle", "link"] as const) {
    g.chunks[t].forEach((e, j) => {
      const at = g.directories[t] + 16 * j;
      if (e.offset > c.offset) v.setBigUint64(at, BigInt(e.offset + delta - bgeo.offset), true);
      if (t === table && j === k) v.setUint32(at + 8, chunk.length, true);
    });
  }
  d.sections.forEach((s, i) => {
    const at = 80 + 24 * i;
    if (s.tag === "BGEO") v.setBigUint64(at + 16, BigInt(s.size + delta), true);
    const to = moved.get(i);
    if (to === undefined) return;
    out.set(bytes.subarray(s.offset, s.offset + s.size), to);
    v.setBigUint64(at + 8, BigInt(to), true);
  });
  return out;
}

/** A chunk made of raw (uncompressed) streams, each written as a stream unit. */
function chunkOf(streams: number[][] | Uint8Array[]): Uint8Array {
  const w = new ByteWriter();
  for (const s of streams) writeStream(w, Uint8Array.from(s as ArrayLike<number>));
  return w.finish();
}

/** Varint bytes of a list of non-negative numbers. */
function varints(xs: number[]): number[] {
  const w = new ByteWriter();
  for (const x of xs) w.varint(x);
  return [...w.finish()];
}

/** The seven raw streams of a 1-triangle chunk (vertices 0,1,2; no neighbours; component 0). */
function oneTriangleStreams(): number[][] {
  return [[0], [2], [4], [0], [], [0], [1]];
}

const small = () => {
  const pack = randomMainPack(7, { zones: 1, trianglesPerZone: 3, tierZones: 0, sections: false });
  return {
    pack,
    bytes: encodeMainPack(pack, { chunkSizes: { vertex: 100, triangle: 1, link: 100 } }),
  };
};

Deno.test("bnav corrupt: truncated data", () => {
  const { bytes } = sample();
  expectError(decode(bytes.subarray(0, 3)), "truncated", "BNAV header");
  const e = expectError(decode(bytes.subarray(0, 70)), "truncated", "BNAV header");
  assert(e.message.includes("80"), e.message);
  // Cut inside the last section: its directory entry now runs past the end of the file.
  expectError(decode(bytes.subarray(0, bytes.length - 5)), "offset_out_of_range", "BGRD");
  // A v3 pack cut inside the triangle table.
  const v3 = encodeLegacyMainPack(sample().pack, 3);
  expectError(decode(v3.subarray(0, v3.length - 20)), "offset_out_of_range", /table/);
});

Deno.test("bnav corrupt: bad magic (file and sections)", () => {
  const { bytes } = sample();
  const a = bytes.slice();
  a[0] = 0x58;
  const e = expectError(decode(a), "bad_magic", "BNAV header");
  assertEquals(e.where.offset, 0);
  for (const tag of ["BGEO", "BOML", "BSRF"]) {
    const b = bytes.slice();
    const off = Number(dv(b).getBigUint64(sectionEntry(b, tag) + 8, true));
    b[off] ^= 0x20;
    const err = expectError(decode(b), "bad_magic", tag);
    assertEquals(err.where.offset, off);
  }
});

Deno.test("bnav corrupt: wrong versions", () => {
  const { bytes } = sample();
  for (const v of [0, 6, 0xffff]) {
    const a = bytes.slice();
    dv(a).setUint16(4, v, true);
    const e = expectError(decode(a), "bad_version", "BNAV header");
    assertEquals(e.where.offset, 4);
  }
  const bgeo = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BGEO") + 8, true));
  const b = bytes.slice();
  dv(b).setUint32(bgeo + 4, 2, true);
  expectError(decode(b), "bad_version", "BGEO");
  const boml = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BOML") + 8, true));
  const c = bytes.slice();
  dv(c).setUint16(boml + 4, 3, true);
  expectError(decode(c), "bad_version", "BOML");
  const bsrf = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BSRF") + 8, true));
  const d = bytes.slice();
  dv(d).setUint16(bsrf + 4, 9, true);
  expectError(decode(d), "bad_version", "BSRF");
});

Deno.test("bnav corrupt: varint overflow inside a triangle stream", () => {
  const { bytes } = small();
  const s = oneTriangleStreams();
  s[0] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
  const e = expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf(s))),
    "varint_overflow",
    "BGEO triangle chunk 1",
  );
  assert(e.message.includes("stream 0"), e.message);
  assertEquals(e.where.offset, geometry(bytes).chunks.triangle[1].offset);
  // The stream unit's own length varint overflowing.
  const f = spliceChunk(
    bytes,
    "triangle",
    1,
    Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
  );
  expectError(decode(f), "varint_overflow", "BGEO triangle chunk 1");
});

Deno.test("bnav corrupt: streams with leftover or missing bytes", () => {
  const { bytes } = small();
  const cases: [number[][], ErrorCode, string][] = [];
  let s = oneTriangleStreams();
  s[4] = [2]; // a neighbour delta no bit asks for
  cases.push([s, "stream_length", "stream 4"]);
  s = oneTriangleStreams();
  s[2] = []; // v2 missing
  cases.push([s, "stream_length", "stream 2"]);
  s = oneTriangleStreams();
  s[3] = [0, 0]; // bitmap one byte too long
  cases.push([s, "count_mismatch", "stream 3"]);
  s = oneTriangleStreams();
  s[6] = [2]; // a run longer than the chunk
  cases.push([s, "count_mismatch", "stream 6"]);
  s = oneTriangleStreams();
  s[5] = [0, 0]; // a run value without a length
  cases.push([s, "stream_length", "stream 5"]);
  for (const [streams, code, label] of cases) {
    const e = expectError(
      decode(spliceChunk(bytes, "triangle", 1, chunkOf(streams))),
      code,
      "BGEO triangle chunk 1",
    );
    assert(e.message.includes(label), `${label}: ${e.message}`);
  }
  // Only six streams: the chunk runs out.
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf(oneTriangleStreams().slice(0, 6)))),
    "truncated",
    "BGEO triangle chunk 1",
  );
  // An eighth stream: bytes left over in the chunk.
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf([...oneTriangleStreams(), [1]]))),
    "stream_length",
    "BGEO triangle chunk 1",
  );
  // zlib data that ends before its declared length.
  const z = chunkOf(oneTriangleStreams());
  const w = new ByteWriter();
  w.varint(z[0] + 2).bytes(z.subarray(1, 1 + z[0])).u8(0).u8(0).bytes(z.subarray(1 + z[0]));
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, w.finish())),
    "stream_length",
    "BGEO triangle chunk 1",
  );
  // Vertex stream inflating to the wrong size.
  expectError(
    decode(spliceChunk(bytes, "vertex", 0, chunkOf([[1, 2, 3]]))),
    "count_mismatch",
    "BGEO vertex chunk 0",
  );
  // Link chunk with a third stream.
  const l = geometry(bytes).chunks.link[0];
  const lc = bytes.slice(l.offset, l.offset + l.size);
  expectError(
    decode(spliceChunk(bytes, "link", 0, Uint8Array.from([...lc, ...chunkOf([[0]])]))),
    "stream_length",
    "BGEO link chunk 0",
  );
  // Sections whose sizes disagree with their record counts.
  const big = sample().bytes;
  for (const tag of ["BSRF", "BOML"]) {
    const b = big.slice();
    const at = sectionEntry(b, tag) + 16;
    dv(b).setBigUint64(at, dv(b).getBigUint64(at, true) - 1n, true);
    expectError(decode(b), "truncated", tag);
  }
});

Deno.test("bnav corrupt: counts that disagree between header, sections and chunks", () => {
  const { bytes } = sample();
  const bgeo = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BGEO") + 8, true));
  // Header triangle count vs BGEO total.
  let a = bytes.slice();
  dv(a).setUint32(16, dv(a).getUint32(16, true) + 1, true);
  let e = expectError(decode(a), "count_mismatch", "BGEO");
  assertEquals(e.where.offset, bgeo + 12);
  // Header vertex count vs BGEO total.
  a = bytes.slice();
  dv(a).setUint32(12, 1, true);
  expectError(decode(a), "count_mismatch", "BGEO");
  // Zone count larger than the zone table holds.
  a = bytes.slice();
  dv(a).setUint32(8, dv(a).getUint32(8, true) + 1, true);
  expectError(decode(a), "truncated", "BGEO zone table");
  // Zone count smaller: the table has a record left over.
  a = bytes.slice();
  dv(a).setUint32(8, dv(a).getUint32(8, true) - 1, true);
  expectError(decode(a), "stream_length", "BGEO zone table");
  // A zone whose triangle range runs past the pack.
  a = bytes.slice();
  const zt = Number(dv(a).getBigUint64(bgeo + 64, true));
  dv(a).setUint32(bgeo + zt + 12, 1e6, true);
  e = expectError(decode(a), "count_mismatch", "BGEO zone table");
  assert(e.where.zone !== undefined);
  // Link chunk aux that disagrees with the chunk's first source.
  a = bytes.slice();
  const g = geometry(a);
  dv(a).setUint32(g.directories.link + 16 + 12, 999999, true);
  expectError(decode(a), "count_mismatch", "BGEO link chunk 1");
  // BSRF record count vs triangles.
  a = bytes.slice();
  const bsrf = Number(dv(a).getBigUint64(sectionEntry(a, "BSRF") + 8, true));
  dv(a).setUint32(bsrf + 8, 5, true);
  expectError(decode(a), "count_mismatch", "BSRF");
  // Link count 0 in the header.
  a = bytes.slice();
  dv(a).setUint32(20, 0, true);
  expectError(decode(a), "bad_value", "BNAV header");
  // A header claiming more records than any section could hold is refused before allocating.
  a = bytes.slice();
  dv(a).setUint32(16, 0xfffffff0, true);
  dv(a).setUint32(bgeo + 12, 0xfffffff0, true);
  expectError(decode(a), "count_mismatch", "BGEO");
});

Deno.test("bnav corrupt: offsets outside the file", () => {
  const { bytes } = sample();
  let a = bytes.slice();
  dv(a).setBigUint64(64, BigInt(bytes.length), true);
  expectError(decode(a), "offset_out_of_range", "section directory");
  a = bytes.slice();
  dv(a).setBigUint64(sectionEntry(a, "BGRD") + 8, BigInt(bytes.length - 2), true);
  expectError(decode(a), "offset_out_of_range", "BGRD");
  const bgeo = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BGEO") + 8, true));
  a = bytes.slice();
  dv(a).setBigUint64(bgeo + 48, 1n << 40n, true); // triangle directory
  expectError(decode(a), "offset_out_of_range", "BGEO");
  a = bytes.slice();
  dv(a).setBigUint64(bgeo + 64, 1n << 30n, true); // zone table
  expectError(decode(a), "offset_out_of_range", "BGEO");
  a = bytes.slice();
  const g = geometry(a);
  dv(a).setBigUint64(g.directories.vertex, 1n << 33n, true); // vertex chunk 0
  const e = expectError(decode(a), "offset_out_of_range", "BGEO");
  assertEquals(e.where.offset, g.directories.vertex);
  a = bytes.slice();
  dv(a).setBigUint64(sectionEntry(a, "BOML") + 8, 1n << 60n, true); // > 2^53
  expectError(decode(a), "bad_value", "section directory");
  // Flat tables (v4) pointing outside the file.
  const v4 = encodeLegacyMainPack(sample().pack, 4);
  for (
    const [at, section] of [[24, "zone table"], [32, "vertex table"], [40, "triangle table"], [
      48,
      "link table",
    ]] as const
  ) {
    const b = v4.slice();
    dv(b).setBigUint64(at, BigInt(v4.length + 1), true);
    expectError(decode(b), "offset_out_of_range", section);
  }
});

Deno.test("bnav corrupt: hash mismatch (header hash, uncompressed zone table, legacy tables)", () => {
  const { bytes } = sample();
  let a = bytes.slice();
  a[56] ^= 0x80;
  let e = expectError(decode(a), "hash_mismatch", "BNAV header");
  assertEquals(e.where.offset, 56);
  assert(/[0-9a-f]{16}/.test(e.message), e.message);
  // A zone's width byte: nothing but the hash can notice.
  a = bytes.slice();
  const bgeo = Number(dv(bytes).getBigUint64(sectionEntry(bytes, "BGEO") + 8, true));
  const zt = Number(dv(a).getBigUint64(bgeo + 64, true));
  a[bgeo + zt + 24] ^= 1;
  expectError(decode(a), "hash_mismatch", "BNAV header");
  // A re-compressed vertex chunk holding a different vertex value.
  const { pack, bytes: sb } = small();
  const planes = new Uint8Array(pack.vertices.length * 4);
  const n = pack.vertices.length / 3;
  const raw = new Uint8Array(pack.vertices.buffer);
  for (let i = 0; i < n; i++) for (let j = 0; j < 12; j++) planes[j * n + i] = raw[12 * i + j];
  planes[5 * n] ^= 1;
  expectError(
    decode(spliceChunk(sb, "vertex", 0, chunkOf([planes]))),
    "hash_mismatch",
    "BNAV header",
  );
  // Legacy v2 with a vertex byte changed.
  const v2 = encodeLegacyMainPack(pack, 2);
  const b = v2.slice();
  b[Number(dv(b).getBigUint64(32, true)) + 3] ^= 4;
  e = expectError(decode(b), "hash_mismatch", "BNAV header");
});

Deno.test("bnav corrupt: indices outside their tables", () => {
  const { bytes } = small();
  let s = oneTriangleStreams();
  s[1] = varints([2 * 1000]); // v1 = 1000
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf(s))),
    "bad_value",
    "BGEO triangle chunk 1",
  );
  s = oneTriangleStreams();
  s[3] = [0x80];
  s[4] = varints([2 * 50]); // neighbour 51
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf(s))),
    "bad_value",
    "BGEO triangle chunk 1",
  );
  s = oneTriangleStreams();
  s[3] = [0x01]; // a pad bit set
  expectError(
    decode(spliceChunk(bytes, "triangle", 1, chunkOf(s))),
    "bad_value",
    "BGEO triangle chunk 1",
  );
  const g = geometry(bytes);
  const links = decodeMainPack(bytes).pack.links;
  const src = [links.source[0], ...[...links.source].slice(1).map((x, i) => x - links.source[i])];
  const tgt = [...links.target].map((t, i) => {
    const d = (i === 0 ? 77 : t) - links.source[i];
    return d >= 0 ? 2 * d : -2 * d - 1;
  });
  expectError(
    decode(spliceChunk(bytes, "link", 0, chunkOf([varints(src), varints(tgt)]))),
    "bad_value",
    "BGEO link chunk 0",
  );
  assertEquals(g.chunks.link.length, 1);
  // In a zone load the error also names the zone.
  const e = expectError(
    zoneLoad(spliceChunk(bytes, "triangle", 1, chunkOf(s))),
    "bad_value",
    "BGEO triangle chunk 1",
  );
  assertEquals(e.where.zone, "map01base0");
});

Deno.test("bnav corrupt: duplicate or misplaced sections", () => {
  const { bytes } = sample();
  const a = bytes.slice();
  a.set(new TextEncoder().encode("BSRF"), sectionEntry(a, "BOML"));
  expectError(decode(a), "bad_value", "BSRF");
  const b = bytes.slice();
  b.set(new TextEncoder().encode("XGEO"), sectionEntry(b, "BGEO"));
  expectError(decode(b), "bad_value", "section directory");
});

/** `bytes` with zone 0's name bytes replaced (same length) and the build_hash re-sealed. */
function renameZone0(bytes: Uint8Array, name: Uint8Array): Uint8Array {
  const front = readFront(bytes, {});
  const off = front.zoneTable.byteOffset - bytes.byteOffset;
  const len = dv(bytes).getUint32(off + 4, true);
  assertEquals(len, name.length, "same-length name");
  const b = bytes.slice();
  b.set(name, off + 48); // after the 48-byte v3+ prefix
  const { pack } = decodeMainPack(bytes);
  const hash = buildHashV5(
    b.subarray(off, off + front.zoneTable.length),
    pack.vertices,
    pack.triangles,
    pack.links,
  );
  dv(b).setBigUint64(56, hash, true);
  return b;
}

Deno.test("bnav corrupt: a zone name no baker writes is refused by decoders and encoders", () => {
  const { pack, bytes } = sample();
  assertEquals(pack.zones[0].name, "map01base0");
  const enc = new TextEncoder();
  const nameAt = readFront(bytes, {}).zoneTable.byteOffset - bytes.byteOffset + 48;
  const cases: [string, RegExp][] = [
    ["map01base\x07", /control character U\+0007 at index 9/],
    ["map01ba\u00850", /control character U\+0085 at index 7/], // U+0085: 2 UTF-8 bytes
    ["map01base ", /white space at the start or end/],
    ["\u200bmap01ba", /format character U\+200B at index 0/], // 3 UTF-8 bytes
  ];
  for (const [name, why] of cases) {
    const b = renameZone0(bytes, enc.encode(name));
    for (const load of [decode(b), zoneLoad(b, 1), () => describeMainPack(b, { file: FILE })]) {
      const e = expectError(load, "bad_value", "BGEO zone table");
      assertEquals(e.where.offset, nameAt, e.message);
      assert(why.test(e.message), e.message);
      assert(e.message.includes("zone record 0: name"), e.message);
      // deno-lint-ignore no-control-regex
      assert(!/[\x00-\x1f\x7f-\x9f]/.test(e.message), JSON.stringify(e.message));
    }
    // The encoder refuses the same name (and so never writes it).
    const p = decodeMainPack(bytes).pack;
    p.zones[0].name = name;
    const w = expectErrorAnyFile(() => encodeMainPack(p), "bad_value");
    assert(why.test(w.message), w.message);
  }
  // An empty name in a legacy v3 pack (its writer does not check: a fixture for the decoder).
  const p = decodeMainPack(bytes).pack;
  p.zones[0].name = "";
  const v3 = encodeLegacyMainPack(p, 3);
  const e = expectError(decode(v3), "bad_value", "zone table");
  assert(/zone record 0: name "" is not a zone name: it is empty/.test(e.message), e.message);
  // Plausible names load: inner spaces, other scripts.
  const ok = renameZone0(bytes, enc.encode("谷地 map"));
  assertEquals(decodeMainPack(ok).pack.zones[0].name, "谷地 map");
});

/** Like {@link expectError} for errors without a file (the encoder writes to memory). */
function expectErrorAnyFile(fn: () => unknown, code: ErrorCode): NavscopeError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof NavscopeError)) throw new Error(`expected NavscopeError, got ${e}`);
    assertEquals(e.code, code, e.message);
    return e;
  }
  throw new Error(`expected a ${code} error`);
}

Deno.test("bnav corrupt: bounded fuzz — NavscopeError or a valid result, never another exception", () => {
  const rnd = mulberry32(20261130);
  const base = [
    sample(5).bytes,
    small().bytes,
    encodeLegacyMainPack(sample(6).pack, 3),
    encodeLegacyMainPack(sample(8).pack, 4),
  ];
  let errors = 0;
  let ok = 0;
  for (let it = 0; it < 300; it++) {
    const src = base[it % base.length];
    let b = src.slice();
    const mode = Math.floor(rnd() * 4);
    if (mode === 0) b = b.subarray(0, Math.floor(rnd() * b.length));
    else if (mode === 1 || mode === 2) {
      // Flip bytes, biased to the first 400 bytes where headers and directories live.
      const flips = 1 + Math.floor(rnd() * 6);
      for (let i = 0; i < flips; i++) {
        const lim = mode === 1 ? Math.min(400, b.length) : b.length;
        b[Math.floor(rnd() * lim)] = Math.floor(rnd() * 256);
      }
    } else {
      const at = Math.floor(rnd() * b.length);
      const ins = Uint8Array.from(
        { length: 1 + Math.floor(rnd() * 8) },
        () => Math.floor(rnd() * 256),
      );
      b = Uint8Array.from([...b.subarray(0, at), ...ins, ...b.subarray(at)]);
    }
    for (const f of [() => decodeMainPack(b), () => loadZone(b, 0), () => describeMainPack(b)]) {
      try {
        f();
        ok++;
      } catch (e) {
        if (!(e instanceof NavscopeError)) {
          throw new Error(`iteration ${it} mode ${mode}: ${(e as Error).stack}`);
        }
        errors++;
      }
    }
  }
  assert(errors > 300, `only ${errors} errors`);
  assert(ok > 0, "some mutations should be harmless (e.g. in BGRD bytes)");
});
