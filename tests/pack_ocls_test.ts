/**
 * OCLS / OCLZ occluder pack: round trips on random scenes, byte-exact re-encoding, container
 * rules (skip, last wins), corruption, bounded fuzz, BVH vs brute force, geometry.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  decodeOccluderPack,
  decodeOccluderPackAll,
  decodeOccluderZone,
  emptyOccluderScene,
  encodeOccluderPack,
  encodeOccluderPackRecords,
  encodeOccluderZone,
  holeBytes,
  loadOccluderScene,
  type OccluderScene,
  readOclsDirectory,
  summarizeOccluderPack,
} from "../src/pack/ocls/pack.ts";
import { OccluderSceneBuilder, smallestThree } from "../src/pack/ocls/build.ts";
import { occluderWorldTriangles } from "../src/pack/ocls/geometry.ts";
import { buildBvh, queryBvh } from "../src/pack/ocls/bvh.ts";
import {
  buildOccluderIndex,
  ColumnHits,
  columnHits,
  sectionCrossed,
} from "../src/pack/ocls/occluder_index.ts";
import { gzip } from "../src/codec/gzip.ts";
import { lineTriangle, triangleCrossesSection } from "../src/pack/ocls/intersect.ts";

type Rng = () => number;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

/** A random scene drawn directly in the quantised domain (covers every code path). */
export function randomScene(r: Rng, zone = "Z", small = false): OccluderScene {
  const n = int(r, 2, small ? 4 : 9);
  const s = emptyOccluderScene(zone, {
    blockSamples: n,
    posStep: 2 ** -int(r, 0, 12),
    cellWidth: 0.5 + int(r, 0, 4) * 0.5,
    heightScale: 1 / 64,
    heightOffset: int(r, -50, 50),
    quatDenominator: int(r, 1, 40000),
    scaleBits: int(r, 0, 16),
    originX: int(r, -1e6, 1e6),
    originZ: int(r, -1e6, 1e6),
  });
  const T = int(r, 0, small ? 3 : 6);
  const exps: number[] = [], vs: number[] = [], ids: number[] = [], vst = [0], tst = [0];
  for (let t = 0; t < T; t++) {
    exps.push(int(r, -10, 3));
    const nt = int(r, 0, small ? 4 : 30);
    let seen = 0;
    for (let c = 0; c < 3 * nt; c++) {
      if (seen === 0 || r() < 0.4) {
        ids.push(seen++);
        for (let a = 0; a < 3; a++) vs.push(int(r, -3000, 3000));
      } else ids.push(int(r, 0, seen - 1));
    }
    vst.push(vst[t] + seen);
    tst.push(tst[t] + nt);
  }
  s.templateCount = T;
  s.tplExponent = Int8Array.from(exps);
  s.tplVertices = Int32Array.from(vs);
  s.tplIndices = Uint32Array.from(ids);
  s.tplVertexStart = Uint32Array.from(vst);
  s.tplTriStart = Uint32Array.from(tst);
  const N = T === 0 ? 0 : int(r, 0, small ? 5 : 40);
  const P = int(r, 1, 4);
  s.scalePalette = Int32Array.from({ length: 3 * P }, () => int(r, -70000, 70000));
  s.instanceCount = N;
  s.instTemplate = Uint32Array.from({ length: N }, () => int(r, 0, T - 1)).sort();
  s.instPos = Int32Array.from({ length: 3 * N }, () => int(r, -100000, 100000));
  s.instRotCode = Uint8Array.from({ length: N }, () => int(r, 0, 4));
  s.instQuat = new Int32Array(3 * N);
  s.instScaleIndex = new Uint32Array(N);
  s.instMatrix = new Float32Array(9 * N);
  const D = s.header.quatDenominator;
  for (let i = 0; i < N; i++) {
    if (s.instRotCode[i] === 4) {
      for (let k = 0; k < 9; k++) s.instMatrix[9 * i + k] = r() * 4 - 2;
      if (r() < 0.2) s.instMatrix.fill(0, 9 * i + 6, 9 * i + 9); // singular placement
    } else {
      const lim = Math.floor(D / Math.SQRT2 / 2);
      for (let c = 0; c < 3; c++) s.instQuat[3 * i + c] = int(r, -lim, lim);
      s.instScaleIndex[i] = int(r, 0, P - 1);
    }
  }
  const B = int(r, 0, small ? 2 : 5), hb = holeBytes(n);
  s.blockCount = B;
  s.blockOrigin = Int32Array.from({ length: 2 * B }, () => int(r, -500, 500));
  s.blockHoleFlag = Uint8Array.from({ length: B }, () => (r() < 0.5 ? 1 : 0));
  s.blockHeights = Int32Array.from({ length: B * n * n }, () => int(r, -5000, 5000));
  s.blockHoles = new Uint8Array(B * hb);
  for (let b = 0; b < B; b++) {
    if (!s.blockHoleFlag[b]) continue;
    for (let k = 0; k < (n - 1) * (n - 1); k++) {
      if (r() < 0.3) s.blockHoles[b * hb + (k >> 3)] |= 1 << (k & 7);
    }
  }
  return s;
}

function isNavscope(e: unknown): boolean {
  return e instanceof NavscopeError;
}

Deno.test("OCLZ round trip on random scenes: decode(encode(s)) == s, encode(decode(b)) == b", () => {
  const r = mulberry32(1234);
  for (let k = 0; k < 200; k++) {
    const s = randomScene(r, `zone${k}`);
    const bytes = encodeOccluderZone(s);
    const d = decodeOccluderZone(bytes, s.zone);
    assertEquals(d, s, `scene ${k}`);
    assertEquals(encodeOccluderZone(d), bytes, `re-encode ${k}`);
  }
});

Deno.test("OCLZ encoding is deterministic and the header is 80 bytes + 12 stream lengths", () => {
  const s = randomScene(mulberry32(7));
  const a = encodeOccluderZone(s), b = encodeOccluderZone(structuredClone(s));
  assertEquals(a, b);
  const e = encodeOccluderZone(emptyOccluderScene("E"));
  assertEquals(e.length, 80 + 12 * 4 + 1); // the scales stream holds palette size 0
  assertEquals(String.fromCharCode(...e.subarray(0, 4)), "OCLZ");
});

Deno.test("OCLS container: decode only the target, last record of a name wins, missing → null", () => {
  const r = mulberry32(99);
  const a1 = randomScene(r, "A"), b = randomScene(r, "B"), a2 = randomScene(r, "A");
  const bytes = encodeOccluderPack([a1, b, a2]);
  const dir = readOclsDirectory(bytes);
  assertEquals(dir.sceneCount, 3);
  assertEquals(dir.records.map((x) => x.name), ["A", "B", "A"]);
  assertEquals(decodeOccluderPack(bytes, "A"), a2);
  assertEquals(decodeOccluderPack(bytes, "B"), b);
  assertEquals(decodeOccluderPack(bytes, "nope"), null);
  // A broken body of another zone is skipped, never decoded.
  const broken = encodeOccluderPackRecords([
    { name: "bad", body: new Uint8Array([1, 2, 3]) },
    { name: "B", body: encodeOccluderZone(b) },
  ]);
  assertEquals(decodeOccluderPack(broken, "B"), b);
  assertThrows(() => decodeOccluderPack(broken, "bad"), NavscopeError);
  // Byte-exact container round trip, UTF-8 names included.
  const u = encodeOccluderPack([randomScene(r, "武陵_基地"), randomScene(r, "dungeon-7")]);
  const again = encodeOccluderPack(decodeOccluderPackAll(u));
  assertEquals(again, u);
});

/** A one-record OCLS container with raw name bytes (whatever an encoder would refuse). */
function rawContainer(name: Uint8Array, body: Uint8Array): Uint8Array {
  const b = new Uint8Array(12 + 2 + name.length + 4 + body.length);
  const d = new DataView(b.buffer);
  b.set([0x4f, 0x43, 0x4c, 0x53]); // "OCLS"
  d.setUint32(4, 1, true);
  d.setUint32(8, 1, true);
  d.setUint16(12, name.length, true);
  b.set(name, 14);
  d.setUint32(14 + name.length, body.length, true);
  b.set(body, 18 + name.length);
  return b;
}

Deno.test("OCLS record names: a name no zone can have is refused on read and on write", () => {
  const scene = randomScene(mulberry32(8), "Z", true);
  const body = encodeOccluderZone(scene);
  const enc = new TextEncoder();
  // Sanity: the hand-built container reads like the encoder's.
  assertEquals(rawContainer(enc.encode("Z"), body), encodeOccluderPack([scene]));
  const cases: [string, RegExp][] = [
    ["", /it is empty/],
    [" Z", /white space at the start or end/],
    ["Z\t", /white space at the start or end/],
    ["Z\x07x", /control character U\+0007 at index 1/],
    ["Z\x7f", /control character U\+007F/],
    ["Z\u0085x", /control character U\+0085/],
    ["Z\u200bx", /format character U\+200B at index 1/],
    ["Z\u202ex", /format character U\+202E/],
  ];
  for (const [name, why] of cases) {
    const bytes = rawContainer(enc.encode(name), body);
    for (
      const read of [
        () => readOclsDirectory(bytes, "f.occ"),
        () => decodeOccluderPack(bytes, "Z", "f.occ"),
      ]
    ) {
      const e = assertThrows(read, NavscopeError) as NavscopeError;
      assertEquals(e.code, "bad_value", e.message);
      assertEquals([e.where.file, e.where.section, e.where.offset], ["f.occ", "OCLS record", 14]);
      assert(why.test(e.message), `${JSON.stringify(name)}: ${e.message}`);
      // The name is in the message with its control characters escaped: one printable line.
      // deno-lint-ignore no-control-regex
      assert(!/[\x00-\x1f\x7f-\x9f\u202e]/.test(e.message), JSON.stringify(e.message));
    }
    const w = assertThrows(
      () => encodeOccluderPack([{ ...scene, zone: name }]),
      NavscopeError,
    ) as NavscopeError;
    assertEquals(w.code, "bad_value");
    assert(why.test(w.message), w.message);
  }
  // Names that are fine: non-ASCII letters, inner spaces, a 65535-byte name.
  for (const name of ["武陵 基地", "a b", "x".repeat(0xffff)]) {
    assertEquals(
      readOclsDirectory(encodeOccluderPack([{ ...scene, zone: name }])).records[0].name,
      name,
    );
  }
});

Deno.test("OCLS corruption: every truncation, bad magic / version, counts, trailing bytes", () => {
  const s = randomScene(mulberry32(5), "Z", true);
  const bytes = encodeOccluderPack([s]);
  for (let n = 0; n < bytes.length; n++) {
    const e = assertThrows(() => decodeOccluderPack(bytes.subarray(0, n), "Z"));
    assert(isNavscope(e), `prefix ${n}: ${e}`);
  }
  const codeOf = (b: Uint8Array) =>
    (assertThrows(() => decodeOccluderPack(b, "Z"), NavscopeError) as NavscopeError).code;
  const mut = (at: number, v: number) => {
    const c = bytes.slice();
    c[at] = v;
    return c;
  };
  assertEquals(codeOf(mut(0, 0x41)), "bad_magic");
  assertEquals(codeOf(mut(4, 2)), "bad_version");
  assertEquals(codeOf(mut(8, 2)), "truncated"); // scene count 2, one record
  assertEquals(codeOf(mut(8, 0xff)), "count_mismatch"); // 255 records cannot fit
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  assertEquals(codeOf(longer), "count_mismatch");
  const e = assertThrows(() => decodeOccluderPack(mut(0, 0x41), "Z", "x.occluder"), NavscopeError);
  assert(e.message.startsWith("x.occluder: OCLS header"), e.message);
});

/** Offset of the OCLZ body inside a one-record container named "Z". */
const BODY = 12 + 2 + 1 + 4;

Deno.test("OCLZ corruption: magic, version, header values, stream lengths, counts, back-references", () => {
  const b = new OccluderSceneBuilder("Z", { blockSamples: 3 });
  const t = b.addTemplate([0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1], [0, 2, 1, 1, 2, 3], -4);
  b.addInstance(t, [1, 2, 3]);
  b.addBlock(0, 0, [0, 0, 0, 0, 1, 0, 0, 0, 0], [1, 0, 0, 0]);
  const scene = b.build();
  const body = encodeOccluderZone(scene);
  const codeOf = (x: Uint8Array) =>
    (assertThrows(() => decodeOccluderZone(x, "Z"), NavscopeError) as NavscopeError).code;
  const put32 = (x: Uint8Array, at: number, v: number) => {
    const c = x.slice();
    new DataView(c.buffer).setUint32(at, v, true);
    return c;
  };
  const putF64 = (at: number, v: number) => {
    const c = body.slice();
    new DataView(c.buffer).setFloat64(at, v, true);
    return c;
  };
  assertEquals(codeOf(put32(body, 0, 0x5a4c434e)), "bad_magic");
  assertEquals(codeOf(put32(body, 4, 0)), "bad_version");
  assertEquals(codeOf(putF64(24, 0)), "bad_value"); // position step
  assertEquals(codeOf(putF64(32, NaN)), "bad_value"); // cell width
  assertEquals(codeOf(put32(body, 56, 0)), "bad_value"); // quaternion denominator
  assertEquals(codeOf(put32(body, 20, 1)), "bad_value"); // n < 2 with blocks
  assertEquals(codeOf(put32(body, 8, 5)), "count_mismatch"); // template count
  assertEquals(codeOf(put32(body, 12, 2)), "count_mismatch"); // instance count
  assertEquals(codeOf(put32(body, 80, 0xffff)), "stream_length"); // stream 0 length too long
  const trailing = new Uint8Array(body.length + 1);
  trailing.set(body);
  assertEquals(codeOf(trailing), "stream_length");
  // Stream 2 (indices) starts after streams 0 and 1: make the second corner point back 5.
  const dv = new DataView(body.buffer);
  const l0 = dv.getUint32(80, true), l1 = dv.getUint32(84 + l0, true);
  const s2 = 84 + l0 + 4 + l1 + 4;
  const badRef = body.slice();
  badRef[s2 + 1] = 5;
  assertEquals(codeOf(badRef), "offset_out_of_range");
  const e = assertThrows(
    () =>
      decodeOccluderPack(encodeOccluderPackRecords([{ name: "Z", body: badRef }]), "Z", "f.occ"),
    NavscopeError,
  );
  assert(e.message.includes("OCLZ stream 2 (indices)") && e.message.includes("zone Z"), e.message);
  assertEquals((e as NavscopeError).where.offset, BODY + s2 + 1);
});

Deno.test("OCLZ rejects over-long varints and set spare hole bits (keeps re-encoding exact)", () => {
  // Hand-built body: 1 template, 1 triangle, 3 vertices; the vertex count varint is written 0x83 0x00.
  const s = new OccluderSceneBuilder("Z").build();
  s.templateCount = 1;
  s.tplExponent = Int8Array.of(0);
  s.tplVertexStart = Uint32Array.of(0, 3);
  s.tplTriStart = Uint32Array.of(0, 1);
  s.tplVertices = new Int32Array(9);
  s.tplIndices = Uint32Array.of(0, 1, 2);
  const body = encodeOccluderZone(s);
  const l0 = new DataView(body.buffer).getUint32(80, true);
  assertEquals(l0, 3);
  const long = new Uint8Array(body.length + 1);
  long.set(body.subarray(0, 84));
  long[84] = 0x83;
  long[85] = 0x00;
  long.set(body.subarray(85), 86);
  new DataView(long.buffer).setUint32(80, 4, true);
  const e = assertThrows(() => decodeOccluderZone(long, "Z"), NavscopeError) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assert(e.message.includes("over-long"), e.message);
  // n = 2 → 1 cell → 7 spare bits in the hole byte.
  const b = new OccluderSceneBuilder("Z", { blockSamples: 2 });
  b.addBlock(0, 0, [0, 0, 0, 0], [1]);
  const tb = encodeOccluderZone(b.build());
  tb[tb.length - 1] |= 0x80;
  assertEquals(
    (assertThrows(() => decodeOccluderZone(tb, "Z"), NavscopeError) as NavscopeError).code,
    "bad_value",
  );
});

Deno.test("OCLS bounded fuzz: every mutation is rejected cleanly or re-encodes byte-exact", () => {
  const r = mulberry32(2024);
  let accepted = 0, rejected = 0;
  for (let k = 0; k < 60; k++) {
    const bytes = encodeOccluderPack([randomScene(r, "Z", true)]);
    for (let m = 0; m < 40; m++) {
      const c = bytes.slice();
      const flips = int(r, 1, 3);
      for (let f = 0; f < flips; f++) c[int(r, 0, c.length - 1)] = int(r, 0, 255);
      try {
        const all = decodeOccluderPackAll(c);
        assertEquals(encodeOccluderPack(all), c);
        accepted++;
      } catch (e) {
        if (!isNavscope(e)) throw new Error(`mutation ${k}/${m} escaped as ${e}`);
        rejected++;
      }
    }
  }
  assert(accepted > 0 && rejected > 0, `${accepted} accepted, ${rejected} rejected`);
});

Deno.test("loadOccluderScene: gzip file, missing file → null, broken file → null + error, cached", async () => {
  const dir = await Deno.makeTempDir();
  const s = randomScene(mulberry32(3), "Z", true);
  await Deno.writeFile(`${dir}/base.occluder.gz`, gzip(encodeOccluderPack([s])));
  await Deno.writeFile(`${dir}/bad.occluder`, new Uint8Array([1, 2, 3]));
  const ok = await loadOccluderScene(`${dir}/base.occluder.gz`, "Z");
  assertEquals(ok.scene, s);
  assert(ok === await loadOccluderScene(`${dir}/base.occluder.gz`, "Z"), "cached object");
  assertEquals((await loadOccluderScene(`${dir}/none.occluder`, "Z")).scene, null);
  const bad = await loadOccluderScene(`${dir}/bad.occluder`, "Z");
  assertEquals(bad.scene, null);
  assertEquals(bad.error?.where.file, `${dir}/bad.occluder`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("builder quantisation and world triangles match the input geometry", () => {
  const b = new OccluderSceneBuilder("Z", { posStep: 1 / 1024, blockSamples: 2, cellWidth: 2 });
  const t = b.addTemplate([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 2, 1], -8);
  const h = Math.SQRT1_2;
  b.addInstance(t, [10, 1, 20], [0, h, 0, h], [2, 1, 1]); // 90° about y, x stretched ×2
  b.addBlock(3, 4, [1, 1, 1, 1]);
  const s = decodeOccluderZone(encodeOccluderZone(b.build()), "Z");
  const w = occluderWorldTriangles(s);
  assertEquals(w.length, 27);
  // R_y(90°)·(0,0,1) = (1,0,0); R_y(90°)·(2,0,0) = (0,0,−2). Corners in index order 0, 2, 1.
  const close = (a: number, e: number) => assert(Math.abs(a - e) < 1e-3, `${a} vs ${e}`);
  [10, 1, 20, 11, 1, 20, 10, 1, 18].forEach((v, k) => close(w[k], v));
  [6, 1, 8, 6, 1, 10, 8, 1, 8].forEach((v, k) => close(w[9 + k], v));
  assertEquals(smallestThree([0, 0, 0, -1], 100), { code: 3, small: [0, 0, 0] });
});

Deno.test("BVH query returns exactly the brute-force set on random boxes", () => {
  const r = mulberry32(77);
  for (let trial = 0; trial < 30; trial++) {
    const n = int(r, 0, 300);
    const boxes = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 3; a++) {
        const c = r() * 100, e = r() * 5;
        boxes[6 * i + a] = c - e;
        boxes[6 * i + 3 + a] = c + e;
      }
    }
    const bvh = buildBvh(boxes, n);
    for (let q = 0; q < 20; q++) {
      const qb = new Float64Array(6);
      for (let a = 0; a < 3; a++) {
        const c = r() * 100, e = r() * 15;
        qb[a] = c - e;
        qb[3 + a] = c + e;
      }
      const got: number[] = [];
      queryBvh(bvh, qb, (id) => {
        got.push(id);
      });
      const want: number[] = [];
      for (let i = 0; i < n; i++) {
        let ok = true;
        for (let a = 0; a < 3; a++) {
          ok &&= boxes[6 * i + a] <= qb[3 + a] && boxes[6 * i + 3 + a] >= qb[a];
        }
        if (ok) want.push(i);
      }
      assertEquals(got.sort((x, y) => x - y), want);
    }
  }
});

Deno.test("occluder index with trees equals the linear scan (columns and sections)", () => {
  const r = mulberry32(4242);
  let crossed = 0;
  for (let trial = 0; trial < 12; trial++) {
    const s = sceneNearOrigin(r);
    const fast = buildOccluderIndex(s, true), slow = buildOccluderIndex(s, false);
    const hf = new ColumnHits(), hs = new ColumnHits();
    for (let q = 0; q < 60; q++) {
      const x = r() * 8 - 4, z = r() * 8 - 4;
      hf.clear();
      hs.clear();
      columnHits(fast, x, z, -50, 50, hf);
      columnHits(slow, x, z, -50, 50, hs);
      const key = (h: ColumnHits) => h.y.map((y, k) => `${y}/${h.up[k]}`).sort();
      assertEquals(key(hf), key(hs));
      const bx = r() * 8 - 4, bz = r() * 8 - 4, y0 = r() * 4 - 2, y1 = y0 + r() * 2;
      const got = sectionCrossed(fast, x, z, bx, bz, y0, y1);
      assertEquals(got, sectionCrossed(slow, x, z, bx, bz, y0, y1));
      crossed += got ? 1 : 0;
    }
  }
  assert(crossed > 20 && crossed < 700, `sections crossed: ${crossed}`);
});

/** Random builder scene around the origin: boxes/slabs with assorted rotations and mirrors. */
function sceneNearOrigin(r: Rng): OccluderScene {
  const b = new OccluderSceneBuilder("Z", { blockSamples: 5, cellWidth: 1, originX: 0 });
  const verts: number[] = [], idx: number[] = [];
  for (let k = 0; k < 12; k++) {
    const base = verts.length / 3;
    for (let c = 0; c < 3; c++) verts.push(r() * 2 - 1, r() * 2 - 1, r() * 2 - 1);
    idx.push(base, base + 1, base + 2);
  }
  const big = b.addTemplate(verts, idx, -10);
  const tiny = b.addTemplate([0, 0, 0, 1, 0, 0, 0, 1, 1], [0, 1, 2], -6);
  for (let i = 0; i < 25; i++) {
    const q: [number, number, number, number] = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const pos: [number, number, number] = [r() * 8 - 4, r() * 4 - 2, r() * 8 - 4];
    const t = r() < 0.7 ? big : tiny;
    if (r() < 0.2) b.addInstanceMatrix(t, pos, [1, 0, 0, 0, r() < 0.5 ? 0 : 1, 0, 0, 0, 1]);
    else b.addInstance(t, pos, q, [r() < 0.3 ? -1 : 1, 0.5 + r(), 1]);
  }
  b.addBlock(
    -3,
    -3,
    Array.from({ length: 25 }, () => r() * 2 - 1),
    Array.from({ length: 16 }, () => r() < 0.2),
  );
  return b.build();
}

Deno.test("local-frame column and section queries agree with world-space triangles", () => {
  const r = mulberry32(555);
  const tri = new Float64Array(2);
  const UP = [0, 1, 0];
  let hits = 0, crossings = 0;
  for (let trial = 0; trial < 8; trial++) {
    const s = sceneNearOrigin(r);
    const ix = buildOccluderIndex(s);
    const world = occluderWorldTriangles(s);
    const h = new ColumnHits();
    for (let q = 0; q < 80; q++) {
      const x = r() * 8 - 4, z = r() * 8 - 4;
      h.clear();
      columnHits(ix, x, z, -50, 50, h);
      const got = h.y.map((y, k) => [y, h.up[k]]).sort((a, b) => a[0] - b[0]);
      const want: number[][] = [];
      for (let t = 0; t < world.length; t += 9) {
        if (lineTriangle([x, 0, z], UP, world, t, t + 3, t + 6, tri)) {
          want.push([tri[0], tri[1] < 0 ? 1 : 0]);
        }
      }
      want.sort((a, b) => a[0] - b[0]);
      assertEquals(got.length, want.length, `column ${x},${z}`);
      got.forEach((g, k) => {
        assert(Math.abs(g[0] - want[k][0]) < 1e-9, `height ${g[0]} vs ${want[k][0]}`);
        assertEquals(g[1], want[k][1], `facing at ${g[0]}`);
      });
      hits += got.length;
      const bx = r() * 8 - 4, bz = r() * 8 - 4, y0 = r() * 4 - 2, y1 = y0 + r() * 2;
      const P = [x, y0, z, bx - x, 0, bz - z, 0, y1 - y0, 0];
      let brute = false;
      for (let t = 0; t < world.length && !brute; t += 9) {
        brute = triangleCrossesSection(P, world, t, t + 3, t + 6);
      }
      assertEquals(sectionCrossed(ix, x, z, bx, bz, y0, y1), brute, `section ${q}`);
      crossings += brute ? 1 : 0;
    }
  }
  assert(hits > 100 && crossings > 20, `${hits} hits, ${crossings} crossings`);
});

Deno.test("summarizeOccluderPack lists records, header counts and shadowed duplicates", () => {
  const r = mulberry32(11);
  const a = randomScene(r, "A", true), b = randomScene(r, "A", true);
  const bytes = encodeOccluderPackRecords([
    { name: "A", body: encodeOccluderZone(a) },
    { name: "junk", body: new Uint8Array(5) },
    { name: "A", body: encodeOccluderZone(b) },
  ]);
  const s = summarizeOccluderPack(bytes);
  assertEquals(s.map((x) => [x.name, x.shadowed]), [["A", true], ["junk", false], ["A", false]]);
  assertEquals(s[2].counts, {
    templates: b.templateCount,
    instances: b.instanceCount,
    blocks: b.blockCount,
  });
  assertEquals(s[1].counts, null);
});
