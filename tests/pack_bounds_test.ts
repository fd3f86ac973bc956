/**
 * Issue 55: every plausibility bound of docs/pack_validation.md at its edge — the value just
 * inside is accepted, the next float outside is refused with one located message (file, section,
 * record, field, value, bound) — by the decoders (bytes patched in real example packs) and by the
 * encoders; `inspect --strict` lists every violation of a set.
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { gunzip, gzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  AFFINE_SCALE,
  boundText,
  collectBoundViolations,
  COORD_PX,
  COST_MODIFIER,
  F32_MIN_NORMAL,
  type FieldBound,
  HEIGHT,
  POSITIVE_SCALE,
  WORLD_COORD,
  ZONE_SIDE,
} from "../src/pack/bounds.ts";
import { decodeMainPack, encodeMainPack } from "../src/pack/bnav/codec.ts";
import { checkZoneValues } from "../src/pack/bnav/zones.ts";
import { checkFiniteVertices } from "../src/pack/bnav/bgeo.ts";
import { checkLinkBounds, checkLinkZoneBounds } from "../src/pack/bnav/boml.ts";
import type { OffMeshLink, ZoneRecord } from "../src/pack/bnav/types.ts";
import { decodeBgrdTile, parseBgrd } from "../src/pack/bgrd/section.ts";
import { decodeSidecar } from "../src/pack/bnvf/sidecar.ts";
import { decodeOccluderPackAll, readOclsDirectory } from "../src/pack/ocls/pack.ts";
import { encodeOccluderZone } from "../src/pack/ocls/zone_encode.ts";
import { emptyOccluderScene } from "../src/pack/ocls/types.ts";
import { encodeNoGoTable, noGoTableFromSpec, parseNoGoTable } from "../src/pack/nogo/table.ts";
import { sidecarExpectations } from "../src/pack/set/pack_set.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run as inspect } from "../commands/inspect.ts";
import { copySet } from "./pack_set_copy.ts";

const EX = new URL("../examples/", import.meta.url).pathname;

function err(f: () => unknown): NavscopeError {
  try {
    f();
  } catch (e) {
    if (e instanceof NavscopeError) return e;
    throw e;
  }
  throw new Error("accepted");
}

/** The float32 next to `v` towards ±∞ (`dir` = ±1). */
function nextF32(v: number, dir: 1 | -1): number {
  const f = new Float32Array([v]);
  const u = new Int32Array(f.buffer);
  if (v === 0) return dir * 2 ** -149;
  u[0] += (v > 0) === (dir > 0) ? 1 : -1;
  return f[0];
}

/** The float64 next to `v` towards ±∞. */
function nextF64(v: number, dir: 1 | -1): number {
  const f = new Float64Array([v]);
  const u = new BigInt64Array(f.buffer);
  u[0] += (v > 0) === (dir > 0) ? 1n : -1n;
  return f[0];
}

/** Asserts a refusal names the section, record, field, value and bound. */
function assertLocated(e: NavscopeError, parts: (string | number)[], b?: FieldBound): void {
  assertEquals(e.code, "bad_value", e.message);
  for (const p of parts) assert(e.message.includes(String(p)), `${p} in: ${e.message}`);
  if (b) assert(e.message.includes(boundText(b)), `bound ${boundText(b)} in: ${e.message}`);
}

/** [bound, just-inside lo, just-outside lo, just-inside hi, just-outside hi] as float32s. */
function f32Edges(b: FieldBound): [number, number, number, number] {
  const lo = Math.fround(b.lo) >= b.lo ? Math.fround(b.lo) : nextF32(Math.fround(b.lo), 1);
  const hi = Math.fround(b.hi) <= b.hi ? Math.fround(b.hi) : nextF32(Math.fround(b.hi), -1);
  return [lo, nextF32(lo, -1), hi, nextF32(hi, 1)];
}

const EDGE_BOUNDS = { HEIGHT, COORD_PX, ZONE_SIDE, AFFINE_SCALE, WORLD_COORD, COST_MODIFIER };

Deno.test("bounds: the f32 edges used below straddle every bound", () => {
  for (const [name, b] of Object.entries(EDGE_BOUNDS)) {
    const [lo, below, hi, above] = f32Edges(b);
    assert(lo >= b.lo && below < b.lo && hi <= b.hi && above > b.hi, name);
  }
  assertEquals(F32_MIN_NORMAL, 1.1754943508222875e-38);
  assertEquals(nextF32(F32_MIN_NORMAL, -1) < F32_MIN_NORMAL, true);
});

// ---------------------------------------------------------------------------------------------
// BNAV zone table, vertices, BOML: the rule functions the decoder and encoder share

function zone(over: Partial<ZoneRecord> = {}): ZoneRecord {
  return {
    id: 1,
    flags: 0,
    name: "z",
    firstTriangle: 0,
    triangleCount: 0,
    componentCount: 0,
    width: 100,
    height: 50,
    affine: { sx: 1, tx: 0, sy: 1, ty: 0 },
    floorY: 0,
    ...over,
  };
}

Deno.test("bounds: zone table width, height, affine and floor_y at their edges", () => {
  const where = { file: "f.nav", section: "BGEO zone table" };
  const cases: [string, FieldBound, (v: number) => Partial<ZoneRecord>][] = [
    ["width", ZONE_SIDE, (v) => ({ width: v })],
    ["height", ZONE_SIDE, (v) => ({ height: v })],
    ["|affine sx|", AFFINE_SCALE, (v) => ({ affine: { sx: v, tx: 0, sy: 1, ty: 0 } })],
    ["|affine sy|", AFFINE_SCALE, (v) => ({ affine: { sx: 1, tx: 0, sy: -v, ty: 0 } })],
    ["affine tx", WORLD_COORD, (v) => ({ affine: { sx: 1, tx: v, sy: 1, ty: 0 } })],
    ["affine ty", WORLD_COORD, (v) => ({ affine: { sx: 1, tx: 0, sy: 1, ty: v } })],
    ["floor_y", HEIGHT, (v) => ({ floorY: v })],
  ];
  for (const [field, b, set] of cases) {
    const [lo, below, hi, above] = f32Edges(b);
    for (const v of [lo, hi]) checkZoneValues([zone(set(v))], where);
    for (const v of [below, above]) {
      const e = err(() => checkZoneValues([zone(set(v))], where));
      assertLocated(e, ["f.nav", "BGEO zone table", "zone record 0", field, Math.abs(v)], b);
    }
  }
  // The finding: a denormal width.
  const e = err(() => checkZoneValues([zone({ width: 1e-40 })], where));
  assertLocated(e, ["width = 1e-40"], ZONE_SIDE);
});

Deno.test("bounds: vertex u, v and height at their edges; the message names the vertex", () => {
  for (const [axis, b] of [[0, COORD_PX], [1, COORD_PX], [2, HEIGHT]] as const) {
    const [lo, below, hi, above] = f32Edges(b);
    const v = new Float32Array(9);
    v[3 + axis] = lo;
    v[6 + axis] = hi;
    checkFiniteVertices(v, 0, 3, 0, { file: "f", section: "vertices" });
    for (const x of [below, above]) {
      v[6 + axis] = x;
      const e = err(() => checkFiniteVertices(v, 0, 3, 40, { file: "f", section: "vertices" }));
      assertLocated(e, ["f", "vertices", "vertex 42", `${"uvh"[axis]} = ${x}`], b);
      v[6 + axis] = hi;
    }
  }
});

function link(over: Partial<OffMeshLink> = {}): OffMeshLink {
  return {
    zone: 1,
    kind: 0,
    isExt: 0,
    bidirectional: 1,
    area: 0,
    linkType: 0,
    direction: 0,
    radius: 1,
    costModifier: 1,
    points: [10, 10, 0, 20, 20, 1, 10, 10, 0, 20, 20, 1],
    dirBits: 3,
    startTriangle: 0,
    endTriangle: 0,
    ...over,
  };
}

Deno.test("bounds: BOML radius, cost modifier and points at their edges, alone and in the zone", () => {
  const at = (off: number) => ({ file: "f", section: "BOML", offset: 100 + off });
  // Radius: 0 is "none"; a denormal is refused; the zone's larger side (100) is the top.
  for (const r of [0, F32_MIN_NORMAL, 100]) {
    checkLinkBounds(link({ radius: r }), 0, at);
    checkLinkZoneBounds(link({ radius: r }), 0, zone(), at(0));
  }
  assertLocated(
    err(() => checkLinkBounds(link({ radius: nextF32(F32_MIN_NORMAL, -1) }), 3, at)),
    ["f", "BOML", "offset 120", "off-mesh link 3", "radius"],
  );
  assertLocated(
    err(() => checkLinkZoneBounds(link({ radius: nextF32(100, 1) }), 3, zone(), at(0))),
    ["off-mesh link 3", "radius (zone)", "[1.1754943508222875e-38, 100] px"],
  );
  const [clo, cbelow, chi, cabove] = f32Edges(COST_MODIFIER);
  for (const c of [clo, chi]) checkLinkBounds(link({ costModifier: c }), 0, at);
  for (const c of [cbelow, cabove]) {
    assertLocated(
      err(() => checkLinkBounds(link({ costModifier: c }), 0, at)),
      ["offset 124", "cost modifier", c],
      COST_MODIFIER,
    );
  }
  // Points: x within [-100, 200] (zone 100 wide, margin = the larger side 100), y within
  // [-100, 150], h within ±1e5 m.
  const pts = (j: number, v: number) => {
    const p = link().points.slice();
    p[j] = v;
    return link({ points: p });
  };
  for (const [j, lo, hi] of [[3, -100, 200], [4, -100, 150]] as const) {
    checkLinkZoneBounds(pts(j, lo), 0, zone(), at(0));
    checkLinkZoneBounds(pts(j, hi), 0, zone(), at(0));
    for (const v of [nextF32(lo, -1), nextF32(hi, 1)]) {
      assertLocated(
        err(() => checkLinkZoneBounds(pts(j, v), 0, zone(), at(0))),
        [`point 1 ${"xy"[j - 3]} (zone box)`, v],
      );
    }
  }
  const [hlo, hbelow, hhi, habove] = f32Edges(HEIGHT);
  for (const v of [hlo, hhi]) checkLinkBounds(pts(5, v), 0, at);
  for (const v of [hbelow, habove]) {
    assertLocated(
      err(() => checkLinkBounds(pts(5, v), 0, at)),
      ["offset 148", "point 1 h"],
      HEIGHT,
    );
  }
});

Deno.test("bounds: encodeMainPack refuses a zone, vertex or link outside its bounds", () => {
  const base = () => randomMainPack(5, { zones: 2 });
  const cases: [string, (p: ReturnType<typeof base>) => void, string][] = [
    ["denormal width", (p) => void (p.zones[0].width = 1e-40), "width = 1e-40"],
    ["huge floor", (p) => void (p.zones[1].floorY = 3e38), "floor_y"],
    ["vertex height", (p) => void (p.vertices[2] = -3e38), "vertex 0"],
  ];
  for (const [what, mutate, msg] of cases) {
    const p = base();
    mutate(p);
    const e = err(() => encodeMainPack(p));
    assert(e.message.includes(msg) && e.message.includes("outside its plausible range"), what);
  }
  const p = base();
  p.offMeshLinks = [link({ zone: p.zones[0].id, radius: 1e-40 })];
  const e = err(() => encodeMainPack(p));
  assert(e.message.includes("radius") && e.message.includes("= 1e-40"), e.message);
});

Deno.test("bounds: decodeMainPack refuses a BOML radius patched to a denormal, with its offset", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}city_small/base.nav.gz`));
  const boml = decodeMainPack(main).sections.find((s) => s.tag === "BOML")!;
  const b = main.slice();
  new DataView(b.buffer).setFloat32(boml.offset + 16 + 20, 1e-40, true);
  const e = err(() => decodeMainPack(b, { file: "m.nav" }));
  assertLocated(e, [
    "m.nav",
    "BOML",
    `offset ${boml.offset + 16 + 20}`,
    "off-mesh link 0",
    "radius",
  ]);
});

// ---------------------------------------------------------------------------------------------
// BGRD

Deno.test("bounds: BGRD zone origin and tile hmin at their edges", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}nav_test/base.nav.gz`));
  const grid = decodeMainPack(main).pack.grid!;
  const g0 = parseBgrd(grid, { file: "g" });
  const nl = new DataView(grid.buffer, grid.byteOffset).getUint32(40, true);
  const zAt = 44 + ((nl + 3) & ~3);
  for (const [v, ok] of [[1e5, true], [nextF64(1e5, 1), false], [-1e5, true]] as const) {
    const b = grid.slice();
    new DataView(b.buffer).setFloat64(zAt, v, true);
    if (ok) parseBgrd(b);
    else {
      assertLocated(
        err(() => parseBgrd(b, { file: "g" })),
        ["g", "BGRD", "origin x0", v],
        COORD_PX,
      );
    }
  }
  // Tile hmin: v3 tiles start with varint n, then the raw f32 hmin.
  const zi = 0;
  const ti = g0.zones[zi].tiles.findIndex((t) => t.records > 0);
  const t = g0.zones[zi].tiles[ti];
  let p = t.offset;
  while (grid[p] & 0x80) p++;
  const hAt = p + 1;
  const hmin0 = new DataView(grid.buffer, grid.byteOffset).getFloat32(hAt, true);
  const at = (v: number) => {
    const b = grid.slice();
    new DataView(b.buffer).setFloat32(hAt, v, true);
    const g = parseBgrd(b, { file: "g" });
    return () => decodeBgrdTile(g, zi, ti);
  };
  at(hmin0)();
  const e = err(at(-3.4e38));
  assertLocated(e, ["g", "BGRD", `tile ${ti}`, "tile header", "hmin", `offset ${hAt}`], HEIGHT);
  // Just outside: hmin at the edge (−1e5) passes its own check, but the records above it do
  // not all stay inside; just outside, hmin itself is named.
  assertLocated(err(at(nextF32(-1e5, -1))), ["hmin"], HEIGHT);
  // A plausible hmin whose records run past the top: the record is named.
  assertLocated(err(at(Math.fround(1e5 - 0.5))), ["record", "h ="], HEIGHT);
});

// ---------------------------------------------------------------------------------------------
// BNVF FLNK / FOPN

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const u64 = (b: Uint8Array, at: number) =>
  Number(new DataView(b.buffer, b.byteOffset).getBigUint64(at, true));

function sideSection(b: Uint8Array, tag: string): number {
  const dir = u64(b, 32);
  for (let i = 0; i < u32(b, 28); i++) {
    const e = dir + 24 * i;
    if (String.fromCharCode(...b.subarray(e, e + 4)) === tag) return u64(b, e + 8);
  }
  throw new Error(`no ${tag}`);
}

Deno.test("bounds: FLNK h and decl_h at their edges (decl_h := huge is refused)", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}city_small/base.nav.gz`));
  const side = await gunzip(await Deno.readFile(`${EX}city_small/base.fields.nav.gz`));
  const load = decodeMainPack(main);
  const expect = sidecarExpectations(
    load.header.buildHash,
    main,
    parseBgrd(load.pack.grid!),
    load.pack,
  );
  const flnk = sideSection(side, "FLNK");
  const zones = u32(side, flnk + 8);
  const r0 = flnk + 16 + 12 * zones;
  const [lo, below, hi, above] = f32Edges(HEIGHT);
  for (const [off, field] of [[40, "side 0 h"], [44, "side 0 decl_h"], [68, "side 1 decl_h"]]) {
    for (const v of [lo, hi]) {
      const b = side.slice();
      new DataView(b.buffer).setFloat32(r0 + (off as number), v, true);
      // A moved h no longer matches the grid's landing; only the bound is under test here.
      decodeSidecar(b, null, { file: "s" });
    }
    for (const v of [below, above, 3.4e38]) {
      const b = side.slice();
      new DataView(b.buffer).setFloat32(r0 + (off as number), v, true);
      const e = err(() => decodeSidecar(b, expect, { file: "s" }));
      assertLocated(e, ["s", "FLNK", "record 0", field, `offset ${r0 + (off as number)}`], HEIGHT);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// OCLS

Deno.test("bounds: OCLZ steps, height scale and offset at their edges; the encoder agrees", async () => {
  const occ = await gunzip(await Deno.readFile(`${EX}city_small/base.occluder.gz`));
  const rec = readOclsDirectory(occ).records[0];
  const patch = (off: number, v: number) => {
    const b = occ.slice();
    new DataView(b.buffer).setFloat64(rec.offset + off, v, true);
    return b;
  };
  const scales: [number, string][] = [[24, "pos_step"], [32, "cell_width"], [40, "height_scale"]];
  for (const [off, field] of scales) {
    // pos_step scales the origin (0 here) only, so any value inside passes.
    for (const v of [F32_MIN_NORMAL, 1e5]) decodeOccluderPackAll(patch(off, v));
    for (const v of [nextF64(F32_MIN_NORMAL, -1), 0, -0, nextF64(1e5, 1), 5e-324]) {
      const e = err(() => decodeOccluderPackAll(patch(off, v), "o"));
      assertLocated(e, ["o", "OCLZ header", field, `offset ${rec.offset + off}`], POSITIVE_SCALE);
    }
  }
  for (const v of [-1e5, 1e5]) decodeOccluderPackAll(patch(48, v));
  for (const v of [nextF64(-1e5, -1), -3.4e38]) {
    const e = err(() => decodeOccluderPackAll(patch(48, v), "o"));
    assertLocated(e, ["height_offset", v], HEIGHT);
  }
  // The writer refuses the same values.
  for (const h of [{ heightScale: 0 }, { cellWidth: 1e-40 }, { heightOffset: -3.4e38 }]) {
    const e = err(() => encodeOccluderZone(emptyOccluderScene("z", h)));
    assert(e.message.includes("outside its plausible range"), e.message);
  }
  encodeOccluderZone(emptyOccluderScene("z", { heightScale: F32_MIN_NORMAL, heightOffset: 1e5 }));
});

// ---------------------------------------------------------------------------------------------
// No-go table

Deno.test("bounds: no-go floor and ring points at their edges; the encoder agrees", () => {
  const doc = (floor: number, x: number) =>
    JSON.stringify({
      format: "navscope-nogo",
      version: 1,
      zones: { z: [{ floor, rings: [[[0, 0], [x, 0], [1, 1]]] }] },
    });
  for (const [f, x] of [[1e5, 1e5], [-1e5, -1e5]]) parseNoGoTable(doc(f, x), "n.json");
  assertLocated(
    err(() => parseNoGoTable(doc(nextF64(1e5, 1), 0), "n.json")),
    ["n.json", "no-go table", "$.zones.z[0]", "floor"],
    HEIGHT,
  );
  assertLocated(
    err(() => parseNoGoTable(doc(0, nextF64(-1e5, -1)), "n.json")),
    ["n.json", "$.zones.z[0].rings[0][1]", "x ="],
    COORD_PX,
  );
  const t = noGoTableFromSpec(
    new Map([["z", [{ floor: 2e5, rings: [[[0, 0], [1, 0], [1, 1]]] }]]]),
  );
  assert(err(() => encodeNoGoTable(t)).message.includes("floor = 200000"));
});

// ---------------------------------------------------------------------------------------------
// inspect --strict

Deno.test("inspect --strict lists every violation of a set; without it the load stops at the first", async () => {
  const d = await copySet("city_small");
  // Three violations in two files: OCLZ height_scale := 0 and height_offset := -3.4e38, FLNK
  // side 1 decl_h := 3.4e38.
  const occ = await gunzip(await Deno.readFile(`${d}/base.occluder.gz`));
  const rec = readOclsDirectory(occ).records[0];
  const ov = new DataView(occ.buffer);
  ov.setFloat64(rec.offset + 40, 0, true);
  ov.setFloat64(rec.offset + 48, -3.4e38, true);
  await Deno.writeFile(`${d}/base.occluder.gz`, await gzip(occ));
  const side = await gunzip(await Deno.readFile(`${d}/base.fields.nav.gz`));
  const flnk = sideSection(side, "FLNK");
  const r0 = flnk + 16 + 12 * u32(side, flnk + 8);
  new DataView(side.buffer).setFloat32(r0 + 68, 3.4e38, true);
  await Deno.writeFile(`${d}/base.fields.nav.gz`, await gzip(side));

  const strict = await captureOutput(() => inspect([`${d}/base.nav.gz`, "--strict", "--json"]));
  assertEquals(strict.value, 1);
  const lines = strict.err.split("\n").filter((l) => l.includes("outside its plausible range"));
  assert(lines.some((l) => l.includes("height_scale = 0")), strict.err);
  assert(lines.some((l) => l.includes("height_offset = -3.4e+38")), strict.err);
  assert(lines.some((l) => l.includes("side 1 decl_h")), strict.err);
  assert(lines.every((l) => l.includes(d)), strict.err);
  assert(strict.err.includes("values outside the plausible bounds"), strict.err);

  // Without --strict: the sidecar is refused at its first bad value (engine unusable, exit 1).
  const plain = await captureOutput(() => inspect([`${d}/base.nav.gz`, "--json"]));
  assertEquals(plain.value, 1);
  assert(plain.err.includes("decl_h"), plain.err);
  await Deno.remove(d, { recursive: true });
});

Deno.test("bounds: collectBoundViolations records instead of throwing, and restores throwing", async () => {
  const where = { file: "f", section: "s" };
  const r = await collectBoundViolations(() => {
    checkZoneValues([zone({ width: 1e-40, floorY: 1e6 })], where);
    return Promise.resolve(7);
  });
  assertEquals(r.result, 7);
  assertEquals(r.violations.length, 2);
  assert(err(() => checkZoneValues([zone({ width: 1e-40 })], where)) instanceof NavscopeError);
});

// ---------------------------------------------------------------------------------------------
// The baker: a value outside the bounds fails the bake at its source

const BAKE = new URL("./fixtures/bake/", import.meta.url).pathname;

/** A copy of the bake fixture with `edit` applied to its manifest; returns the manifest path. */
async function bakeFixture(edit: (m: { zones: Record<string, unknown>[] }) => void) {
  const d = await Deno.makeTempDir({ prefix: "ns_bounds_bake_" });
  for (const f of ["world.obj", "annex.obj", "occluder.obj"]) {
    await Deno.copyFile(`${BAKE}${f}`, `${d}/${f}`);
  }
  const m = JSON.parse(await Deno.readTextFile(`${BAKE}manifest.json`));
  edit(m);
  await Deno.writeTextFile(`${d}/manifest.json`, JSON.stringify(m));
  return { dir: d, path: `${d}/manifest.json` };
}

Deno.test("bake: a zone or link outside the pack bounds fails at its manifest entry; a vertex at its OBJ line", async () => {
  const { bakeManifestFile } = await import("../src/world/bake_world.ts");
  const cases: [string, (m: { zones: Record<string, unknown>[] }) => void, string[]][] = [
    ["floor_y", (m) => void (m.zones[2].floor_y = 2e5), ["$.zones[2]", "floor_y = 200000"]],
    [
      "link radius above the zone",
      (m) => void ((m.zones[2].off_mesh_links as { radius: number }[])[0].radius = 100),
      ["$.zones[2].off_mesh_links[0]", "radius (zone) = 100"],
    ],
    [
      "link cost",
      (m) => void ((m.zones[0].off_mesh_links as { cost: number }[])[0].cost = 2e6),
      ["$.zones[0].off_mesh_links[0]", "cost modifier = 2000000"],
    ],
    [
      "vertex height",
      (m) => void ((m.zones[2].meshes as { offset_h?: number }[])[0].offset_h = -2e5),
      ["annex.obj", "line", "vertex 1 after scaling and offset", "h ="],
    ],
  ];
  for (const [what, edit, parts] of cases) {
    const { dir, path } = await bakeFixture(edit);
    const e = await bakeManifestFile(path).then(() => null, (x: unknown) => x);
    assert(e instanceof NavscopeError, `${what}: ${e}`);
    for (const p of parts) assert(e.message.includes(p), `${what}: ${p} in ${e.message}`);
    assert(e.message.includes("outside its plausible range"), e.message);
    await Deno.remove(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// Every pack navscope ships or tests with still loads

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(p);
    else if (e.isFile) yield p;
  }
}

Deno.test("bounds: every example pack and every pack under tests/fixtures loads inside the bounds", async () => {
  const { readMaybeGzip } = await import("../src/codec/mod.ts");
  const { inspectPackSet } = await import("../src/pack/set/pack_set.ts");
  const roots = [EX.replace(/\/$/, ""), new URL("./fixtures", import.meta.url).pathname];
  const seen: Record<string, number> = { BNAV: 0, BNVF: 0, OCLS: 0, nogo: 0, sets: 0 };
  for (const root of roots) {
    for await (const f of walk(root)) {
      if (f.endsWith("nogo.json")) {
        parseNoGoTable(await Deno.readTextFile(f), f);
        seen.nogo++;
        continue;
      }
      let b: Uint8Array;
      try {
        b = await readMaybeGzip(f);
      } catch {
        continue; // not gzip-readable: not a pack
      }
      const magic = String.fromCharCode(...b.subarray(0, 4));
      if (magic === "BNAV") {
        const load = decodeMainPack(b, { file: f });
        if (load.pack.grid) {
          const g = parseBgrd(load.pack.grid, { file: f });
          g.zones.forEach((z, zi) => z.tiles.forEach((_, ti) => decodeBgrdTile(g, zi, ti)));
        }
      } else if (magic === "BNVF") decodeSidecar(b, null, { file: f });
      else if (magic === "OCLS") decodeOccluderPackAll(b, f);
      else continue;
      seen[magic]++;
      if (f.endsWith("/base.nav.gz")) {
        // The whole set, as the engine and inspect load it.
        const { violations, result } = await collectBoundViolations(() => inspectPackSet(f));
        assertEquals(violations.map((v) => v.message), [], f);
        assert(result!.usable, `${f}: ${result!.unusableReason}`);
        seen.sets++;
      }
    }
  }
  // 5 examples + 13 oracle sets, each with a main pack, sidecar, occluder pack and no-go table.
  assert(
    seen.sets >= 18 && seen.BNVF >= 18 && seen.OCLS >= 18 && seen.nogo >= 18,
    JSON.stringify(seen),
  );
});
