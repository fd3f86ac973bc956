/**
 * BNAV main pack: round trips, determinism, build_hash against a plain reference, the chunk
 * stream layouts on a hand-worked example, and per-zone loads against slices of the whole load.
 */
import { ByteReader } from "../src/codec/bytes.ts";
import { fnv1a64 } from "../src/codec/fnv.ts";
import { gzip } from "../src/codec/gzip.ts";
import { readStream } from "../src/codec/stream.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  BSRF_WALKABLE_MASK,
  decodeMainPack,
  describeMainPack,
  encodeMainPack,
  loadZone,
  loadZoneFile,
  type MainPack,
  NO_TRIANGLE,
  readMainPackFile,
  sliceZone,
  ZONE_FLAG_TIER,
} from "../src/pack/bnav/mod.ts";
import { encodeBgrd } from "../src/pack/bgrd/section.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";

const CHUNKINGS = [
  undefined,
  { vertex: 1, triangle: 1, link: 1 },
  { vertex: 7, triangle: 11, link: 5 },
  { vertex: 64, triangle: 3, link: 1000 },
];

function cases(): { seed: number; pack: MainPack; chunks?: typeof CHUNKINGS[number] }[] {
  const out = [];
  for (let seed = 1; seed <= 24; seed++) {
    const r = mulberry32(seed * 7919);
    const pack = randomMainPack(seed, {
      zones: 1 + Math.floor(r() * 5),
      tierZones: Math.floor(r() * 3),
      maxTrianglesPerZone: [0, 1, 5, 60, 300][seed % 5],
      sections: seed % 3 !== 0,
    });
    out.push({ seed, pack, chunks: CHUNKINGS[seed % CHUNKINGS.length] });
  }
  return out;
}

/** build_hash the obvious way: concatenate every canonical record, then hash once. */
function referenceHash(p: MainPack): bigint {
  const enc = new TextEncoder();
  const parts: number[] = [];
  const dv = new DataView(new ArrayBuffer(8));
  const push = (n: number) => {
    for (let i = 0; i < n; i++) parts.push(dv.getUint8(i));
  };
  const u16 = (v: number) => (dv.setUint16(0, v, true), push(2));
  const u32 = (v: number) => (dv.setUint32(0, v, true), push(4));
  const i32 = (v: number) => (dv.setInt32(0, v, true), push(4));
  const f32 = (v: number) => (dv.setFloat32(0, v, true), push(4));
  for (const z of p.zones) {
    const name = enc.encode(z.name);
    u16(z.id), u16(z.flags), u32(name.length), u32(z.firstTriangle), u32(z.triangleCount);
    u32(z.componentCount), f32(z.width), f32(z.height);
    f32(z.affine.sx), f32(z.affine.tx), f32(z.affine.sy), f32(z.affine.ty), f32(z.floorY);
    for (const b of name) parts.push(b);
  }
  for (const x of p.vertices) f32(x);
  const t = p.triangles;
  for (let i = 0; i < t.component.length; i++) {
    const vs = [0, 1, 2].map((c) => t.vertices[3 * i + c]);
    vs.forEach(u32);
    for (let c = 0; c < 3; c++) i32(t.neighbours[3 * i + c]);
    u32(t.component[i]);
    for (let a = 0; a < 2; a++) {
      const [x, y, z] = vs.map((v) => p.vertices[3 * v + a]);
      f32(Math.fround(Math.fround(Math.fround(x + y) + z) / 3));
    }
  }
  for (let i = 0; i < p.links.source.length; i++) u32(p.links.source[i]), u32(p.links.target[i]);
  return fnv1a64(Uint8Array.from(parts));
}

Deno.test("bnav: random packs round-trip (decode deep-equals, re-encode byte-identical)", () => {
  for (const { seed, pack, chunks } of cases()) {
    const bytes = encodeMainPack(pack, { chunkSizes: chunks });
    const load = decodeMainPack(bytes, { file: `seed${seed}` });
    assertEquals(load.pack, pack, `seed ${seed}`);
    assertEquals(
      encodeMainPack(load.pack, { chunkSizes: chunks }),
      bytes,
      `seed ${seed} re-encode`,
    );
    assertEquals(load.header.version, 5);
    assertEquals(load.header.triangleCount, pack.triangles.component.length);
  }
});

Deno.test("bnav: encoding is deterministic", () => {
  const a = randomMainPack(99, { zones: 4, maxTrianglesPerZone: 500 });
  const b = randomMainPack(99, { zones: 4, maxTrianglesPerZone: 500 });
  const e1 = encodeMainPack(a, { chunkSizes: { triangle: 37 } });
  assertEquals(encodeMainPack(a, { chunkSizes: { triangle: 37 } }), e1);
  assertEquals(encodeMainPack(b, { chunkSizes: { triangle: 37 } }), e1);
});

Deno.test("bnav: build_hash equals a plain concatenate-then-hash reference", () => {
  for (const { seed, pack, chunks } of cases()) {
    const bytes = encodeMainPack(pack, { chunkSizes: chunks });
    const stored = new DataView(bytes.buffer).getBigUint64(56, true);
    assertEquals(stored, referenceHash(pack), `seed ${seed}`);
    assertEquals(decodeMainPack(bytes).header.buildHash, stored);
  }
});

Deno.test("bnav: centroid is ((a+b)+c)/3 in f32, not a multiply by 1/3", () => {
  // Find vertex values where the two orders differ, so the test can tell them apart.
  const f = Math.fround;
  const r = mulberry32(5);
  let u: number[] = [];
  for (;;) {
    u = [f(r() * 100), f(r() * 100), f(r() * 100)];
    const s = f(f(u[0] + u[1]) + u[2]);
    if (f(s / 3) !== f(s * f(1 / 3))) break;
  }
  const pack = randomMainPack(3, { zones: 1, trianglesPerZone: 1, tierZones: 0 });
  pack.vertices.set([u[0], 0, 0, u[1], 0, 0, u[2], 0, 0]);
  pack.triangles.vertices.set([0, 1, 2]);
  pack.triangles.centroid[0] = 12345; // stale: the decoder must recompute, not trust the model
  const load = decodeMainPack(encodeMainPack(pack));
  const s = f(f(u[0] + u[1]) + u[2]);
  assertEquals(load.pack.triangles.centroid[0], f(s / 3));
});

Deno.test("bnav: hand-worked chunk streams (vertex transpose, 7 triangle streams, 2 link streams)", () => {
  const pack: MainPack = {
    flags: 0,
    zones: [{
      id: 1,
      flags: 0,
      name: "z",
      firstTriangle: 0,
      triangleCount: 2,
      componentCount: 1,
      width: 10,
      height: 10,
      affine: { sx: 1, tx: 0, sy: 1, ty: 0 },
      floorY: 0,
    }],
    vertices: new Float32Array([0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 2]),
    triangles: {
      vertices: new Uint32Array([0, 1, 2, 1, 3, 2]),
      neighbours: new Int32Array([1, -1, -1, -1, -1, 0]),
      component: new Uint32Array([5, 5]),
      centroid: new Float32Array(4),
    },
    links: { source: new Uint32Array([0, 0, 1]), target: new Uint32Array([1, 0, 0]) },
    surfaces: null,
    offMeshLinks: null,
    grid: encodeBgrd({ version: 3, zones: [] }), // every v5 pack carries BGRD
    extraSections: [],
  };
  const bytes = encodeMainPack(pack);
  const d = describeMainPack(bytes);
  assert(d.geometry.kind === "BGEO");
  const g = d.geometry;
  const streams = (c: { offset: number; size: number }) => {
    const r = new ByteReader(bytes.subarray(c.offset, c.offset + c.size));
    const out: number[][] = [];
    while (r.remaining) out.push([...readStream(r)]);
    return out;
  };
  // Header fields: magic, version 5, counts, section directory right after the 80-byte header,
  // two entries: BGEO right after the directory (80 + 2·24 = 128, 8-aligned), then BGRD on the
  // next 8-byte boundary, its bytes stored verbatim, the file ending with it.
  const dv = new DataView(bytes.buffer);
  assertEquals(new TextDecoder().decode(bytes.subarray(0, 4)), "BNAV");
  assertEquals([dv.getUint16(4, true), dv.getUint32(8, true), dv.getUint32(12, true)], [5, 1, 4]);
  assertEquals([dv.getUint32(16, true), dv.getUint32(20, true)], [2, 3]);
  assertEquals([Number(dv.getBigUint64(64, true)), dv.getUint32(72, true)], [80, 2]);
  const [geo, grid] = d.sections;
  assertEquals([geo.tag, geo.offset, grid.tag], ["BGEO", 128, "BGRD"]);
  const gridAt = geo.offset + geo.size + ((8 - ((geo.offset + geo.size) % 8)) % 8);
  assertEquals([grid.offset, grid.size], [gridAt, pack.grid!.length]);
  assertEquals(bytes.subarray(grid.offset), pack.grid!);
  assertEquals(d.grid, { offset: gridAt, size: pack.grid!.length });
  // Vertex chunk: byte j of record i sits at j·n + i.
  const [planes] = streams(g.chunks.vertex[0]);
  const raw = new Uint8Array(pack.vertices.buffer);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 12; j++) assertEquals(planes[j * 4 + i], raw[12 * i + j]);
  }
  // Triangle chunk: zigzag(v0 step) [0, 1→2], v1−v0 [1→2, 2→4], v2−v0 [2→4, 1→2],
  // bitmap 100 001 → 0b10000100, neighbour deltas [1−0 → 2, 0−1 → 1], runs [5 → 10] × [2].
  assertEquals(streams(g.chunks.triangle[0]), [[0, 2], [2, 4], [4, 2], [0b10000100], [2, 1], [10], [
    2,
  ]]);
  // Link chunk: sources 0 then steps [0, 1]; targets as zigzag(t − s): [2, 0, 1].
  assertEquals(streams(g.chunks.link[0]), [[0, 0, 1], [2, 0, 1]]);
  assertEquals(g.chunks.link[0].aux, 0);
});

Deno.test("bnav: loadZone equals the zone's slice of the whole load, for every zone", () => {
  for (const { seed, pack, chunks } of cases()) {
    const bytes = encodeMainPack(pack, { chunkSizes: chunks });
    const whole = decodeMainPack(bytes).pack;
    for (const z of pack.zones) {
      const a = loadZone(bytes, z.name);
      const b = sliceZone(whole, z.name);
      assertEquals(a.pack, b.pack, `seed ${seed} zone ${z.name}`);
      assertEquals([a.triangleBase, a.vertexBase], [b.triangleBase, b.vertexBase]);
      assertEquals(loadZone(bytes, z.id).pack, b.pack, `by id ${z.id}`);
      checkSlice(whole, b, z.id);
    }
  }
});

/** Brute-force check of the slice itself against the whole pack. */
function checkSlice(whole: MainPack, s: ReturnType<typeof sliceZone>, id: number): void {
  const lo = s.triangleBase;
  const n = s.pack.triangles.component.length;
  assertEquals(s.pack.zones[0].id, id);
  for (const z of s.pack.zones.slice(1)) {
    assert(z.flags & ZONE_FLAG_TIER, "children are tier zones");
  }
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const v = s.pack.triangles.vertices[3 * i + c];
      const gv = whole.triangles.vertices[3 * (lo + i) + c];
      assertEquals(v + s.vertexBase, gv);
      assertEquals(s.pack.vertices[3 * v + 2], whole.vertices[3 * gv + 2]);
      const nb = whole.triangles.neighbours[3 * (lo + i) + c];
      assertEquals(s.pack.triangles.neighbours[3 * i + c], nb >= lo && nb < lo + n ? nb - lo : -1);
    }
  }
  let expectLinks = 0;
  for (let i = 0; i < whole.links.source.length; i++) {
    const a = whole.links.source[i] - lo;
    const b = whole.links.target[i] - lo;
    if (a >= 0 && a < n && b >= 0 && b < n) expectLinks++;
  }
  assertEquals(s.pack.links.source.length, expectLinks);
  for (const l of s.pack.offMeshLinks ?? []) {
    assert(s.pack.zones.some((z) => z.id === l.zone));
    assert(l.startTriangle === NO_TRIANGLE || l.startTriangle < n);
  }
}

Deno.test("bnav: a zone's tier children come along", () => {
  const pack = randomMainPack(11, { zones: 2, tierZones: 0 });
  const tier = (id: number, parent: number, name: string) => ({
    ...pack.zones[0],
    id,
    name,
    flags: ZONE_FLAG_TIER,
    firstTriangle: 0,
    triangleCount: 0,
    componentCount: parent,
  });
  pack.zones.push(tier(10, 1, "t10"), tier(11, 10, "t11"), tier(12, 0, "t12"));
  const bytes = encodeMainPack(pack);
  assertEquals(loadZone(bytes, 1).pack.zones.map((z) => z.id), [1, 10, 11]);
  assertEquals(loadZone(bytes, 0).pack.zones.map((z) => z.id), [0, 12]);
  const d = describeMainPack(bytes);
  assertEquals(d.zones.find((z) => z.id === 1)!.tierChildren, [10]);
  assertEquals(d.zones.find((z) => z.id === 11)!.parent, 10);
});

Deno.test("bnav: loadZone decodes only its chunks and skips the hash, as the spec says", () => {
  const pack = randomMainPack(21, { zones: 3, trianglesPerZone: 100, tierZones: 0 });
  const bytes = encodeMainPack(pack, { chunkSizes: { triangle: 50, vertex: 30, link: 40 } });
  const d = describeMainPack(bytes);
  assert(d.geometry.kind === "BGEO");
  // Zone 0 owns triangles [0, 100) → chunks 0–1. Wreck chunk 5 (zone 2's last chunk).
  const bad = bytes.slice();
  const c = d.geometry.chunks.triangle[5];
  bad.fill(0xff, c.offset, c.offset + c.size);
  assertEquals(loadZone(bad, 0).pack, sliceZone(pack, 0).pack);
  assertThrows(() => decodeMainPack(bad), NavscopeError);
  const e = assertThrows(() => loadZone(bad, 2), NavscopeError) as NavscopeError;
  assertEquals(e.where.zone, pack.zones[2].name);
  // A wrong build_hash stops a whole load but not a zone load.
  const h = bytes.slice();
  h[60] ^= 1;
  assertEquals((assertThrows(() => decodeMainPack(h)) as NavscopeError).code, "hash_mismatch");
  assertEquals(loadZone(h, 1).pack, sliceZone(pack, 1).pack);
});

Deno.test("bnav: unknown zone is a NavscopeError listing the zones", () => {
  const bytes = encodeMainPack(randomMainPack(4));
  const e = assertThrows(() => loadZone(bytes, "nope"), NavscopeError) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals(e.where.zone, "nope");
});

Deno.test("bnav: describeMainPack reports header, sections, zones and chunks", () => {
  const pack = randomMainPack(8, { zones: 3, trianglesPerZone: 40 });
  const bytes = encodeMainPack(pack, { chunkSizes: { triangle: 16, vertex: 1000, link: 32 } });
  const d = describeMainPack(bytes, { file: "x.nav", verify: true });
  assertEquals(d.verified, true);
  assertEquals(d.header.triangles, 120);
  assertEquals(d.sections.map((s) => s.tag), ["BGEO", "BOML", "BSRF", "BGRD"]);
  assert(d.geometry.kind === "BGEO");
  assertEquals(d.geometry.chunks.triangle.map((c) => c.records), [16, 16, 16, 16, 16, 16, 16, 8]);
  assertEquals(d.geometry.chunks.vertex.length, 1);
  assertEquals(d.zones.map((z) => z.triangleCount), pack.zones.map((z) => z.triangleCount));
  let bad = 0;
  for (const f of pack.surfaces!.flags) if ((f & BSRF_WALKABLE_MASK) === 0) bad++;
  assertEquals(d.surfaces, { count: 120, unwalkable: bad });
  assertEquals(d.grid?.size, pack.grid!.length);
  const g = decodeMainPack(bytes).gridSection!;
  assertEquals(bytes.subarray(g.offset, g.offset + g.size), pack.grid!);
  assertEquals(JSON.parse(JSON.stringify(d)).header.buildHash.length, 16);
});

Deno.test("bnav: fileFnv is the FNV of the whole file, the same for both load paths", () => {
  const bytes = encodeMainPack(randomMainPack(31));
  const a = decodeMainPack(bytes, { fileFnv: true }).fileFnv;
  const b = loadZone(bytes, 0, { fileFnv: true }).fileFnv;
  assertEquals(a, fnv1a64(bytes));
  assertEquals(a, b);
});

Deno.test("bnav: the encoder rejects packs it cannot write", () => {
  const bad = (mut: (p: MainPack) => void) => {
    const p = randomMainPack(2);
    mut(p);
    return (assertThrows(() => encodeMainPack(p), NavscopeError) as NavscopeError).code;
  };
  assertEquals(
    bad((p) => (p.links = { source: new Uint32Array(0), target: new Uint32Array(0) })),
    "bad_value",
  );
  assertEquals(bad((p) => p.links.source.reverse()), "bad_value");
  assertEquals(bad((p) => (p.triangles.vertices[0] = 1e6)), "bad_value");
  assertEquals(bad((p) => (p.triangles.neighbours[0] = -2)), "bad_value");
  assertEquals(bad((p) => (p.zones[0].id = 70000)), "bad_value");
  assertEquals(bad((p) => (p.zones[0].triangleCount = 1e6)), "count_mismatch");
  assertEquals(bad((p) => (p.surfaces!.flags = new Uint32Array(1))), "count_mismatch");
  assertEquals(
    bad((p) => p.extraSections.push({ tag: "BSRF", flags: 0, bytes: new Uint8Array() })),
    "bad_value",
  );
});

Deno.test("bnav: file helpers read plain and gzip packs and name the file in errors", async () => {
  const pack = randomMainPack(41);
  const bytes = encodeMainPack(pack);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/base.nav`, bytes);
    await Deno.writeFile(`${dir}/base.nav.gz`, gzip(bytes));
    for (const f of ["base.nav", "base.nav.gz"]) {
      const load = await readMainPackFile(`${dir}/${f}`, { fileFnv: true });
      assertEquals(load.pack, pack);
      assertEquals(load.fileFnv, fnv1a64(bytes), "FNV of the decompressed bytes");
      assertEquals((await loadZoneFile(`${dir}/${f}`, 1)).pack, sliceZone(pack, 1).pack);
    }
    const bad = bytes.slice();
    bad[0] = 0;
    await Deno.writeFile(`${dir}/bad.nav`, bad);
    const e = await readMainPackFile(`${dir}/bad.nav`).catch((x) => x);
    assert(e instanceof NavscopeError && e.where.file === `${dir}/bad.nav`, String(e));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
