/**
 * Issue 27: values no correct writer produces are refused by the decoders and loaders, each with
 * a code and a location; the engine and `inspect` agree. Built from the example worlds.
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { gunzip, gzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { parseBgrd } from "../src/pack/bgrd/section.ts";
import { decodeSidecar } from "../src/pack/bnvf/sidecar.ts";
import { inspectPackSet, sidecarExpectations } from "../src/pack/set/pack_set.ts";
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

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const u64 = (b: Uint8Array, at: number) =>
  Number(new DataView(b.buffer, b.byteOffset).getBigUint64(at, true));

/** Directory entry of a sidecar section: [entry offset, section offset, length]. */
function sideEntry(b: Uint8Array, tag: string): [number, number, number] {
  const dir = u64(b, 32);
  for (let i = 0; i < u32(b, 28); i++) {
    const e = dir + 24 * i;
    if (String.fromCharCode(...b.subarray(e, e + 4)) === tag) {
      return [e, u64(b, e + 8), u64(b, e + 16)];
    }
  }
  throw new Error(`no ${tag}`);
}

async function citySmall() {
  const main = await gunzip(await Deno.readFile(`${EX}city_small/base.nav.gz`));
  const side = await gunzip(await Deno.readFile(`${EX}city_small/base.fields.nav.gz`));
  const load = decodeMainPack(main);
  const grid = parseBgrd(load.pack.grid!);
  const expect = sidecarExpectations(load.header.buildHash, main, grid, load.pack);
  return { main, side, load, expect };
}

Deno.test("bnvf: FLNK renamed or cut from the directory is refused, and inspect says unusable", async () => {
  const { side, expect } = await citySmall();
  const [e] = sideEntry(side, "FLNK");
  const renamed = side.slice();
  renamed[e + 3] = 0x58; // FLNK → FLNX
  assert(err(() => decodeSidecar(renamed, expect)).message.includes("FLNX"));
  const cut = side.slice();
  new DataView(cut.buffer).setUint32(28, u32(side, 28) - 1, true);
  assertEquals(err(() => decodeSidecar(cut, expect)).code, "stream_length");
  // An FLNK written properly but left out while the main pack has BOML links.
  const { model } = decodeSidecar(side, expect);
  const { encodeSidecar } = await import("../src/pack/bnvf/sidecar.ts");
  const without = encodeSidecar({ ...model, links: null });
  const x = err(() => decodeSidecar(without, expect));
  assertEquals(x.code, "count_mismatch");
  assert(x.message.includes("no FLNK"), x.message);
  const d = await copySet("city_small");
  await Deno.writeFile(`${d}/base.fields.nav.gz`, gzip(renamed));
  const r = await inspectPackSet(`${d}/base.nav.gz`);
  assertEquals([r.usable, r.sidecar.status], [false, "invalid"]);
  assert(r.unusableReason!.includes("FLNX"), r.unusableReason!);
  await Deno.remove(d, { recursive: true });
});

Deno.test("bnvf: FLNK record values are checked against their range and the main pack", async () => {
  const { side, expect } = await citySmall();
  const [, off] = sideEntry(side, "FLNK");
  const r0 = off + 16 + 12 * u32(side, off + 8);
  const cases: [string, (v: DataView) => void, string][] = [
    ["radius NaN", (v) => v.setFloat32(r0 + 24, NaN, true), "radius"],
    ["cost +Inf", (v) => v.setFloat32(r0 + 28, Infinity, true), "cost_modifier"],
    ["side 0 h NaN", (v) => v.setFloat32(r0 + 40, NaN, true), "h NaN"],
    ["boml_index 9999", (v) => v.setUint32(r0, 9999, true), "boml_index"],
    ["side 0 rid 99999", (v) => v.setUint32(r0 + 48, 99999, true), "region 99999"],
    ["valid 0", (v) => v.setUint8(r0 + 7, 0), "valid"],
    ["side 0 gx -2^31", (v) => v.setInt32(r0 + 32, -(2 ** 31), true), "is at cell"],
    ["cost 5 (not BOML's)", (v) => v.setFloat32(r0 + 28, 5, true), "is not BOML link"],
  ];
  for (const [what, mutate, msg] of cases) {
    const b = side.slice();
    mutate(new DataView(b.buffer));
    const e = err(() => decodeSidecar(b, expect));
    assert(e.message.includes(msg), `${what}: ${e.message}`);
    assertEquals(e.where.section, "FLNK", what);
  }
});

Deno.test("bnav: non-finite vertices and zone values, duplicate zones, orphan tiers: encoder throws", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}nav_test/base.nav.gz`));
  const { encodeMainPack } = await import("../src/pack/bnav/codec.ts");
  const cases: [string, (p: ReturnType<typeof decodeMainPack>["pack"]) => void, string][] = [
    ["vertex NaN", (p) => (p.vertices[0] = NaN), "vertex 0"],
    ["vertex height +Inf", (p) => (p.vertices[5] = Infinity), "vertex 1"],
    ["width NaN", (p) => (p.zones[0].width = NaN), "width"],
    ["height 0", (p) => (p.zones[0].height = 0), "height"],
    ["width -5", (p) => (p.zones[0].width = -5), "width"],
    ["floorY -Inf", (p) => (p.zones[0].floorY = -Infinity), "floor_y"],
    ["affine sx NaN", (p) => (p.zones[0].affine.sx = NaN), "affine sx"],
    ["affine sy 0", (p) => (p.zones[0].affine.sy = 0), "affine sy"],
    [
      "tier without parent",
      (p) => ((p.zones[0].flags |= 1), (p.zones[0].componentCount = 999)),
      "parent id 999",
    ],
    [
      "duplicate name",
      (p) => p.zones.push({ ...p.zones[0], id: 2, firstTriangle: 0, triangleCount: 0 }),
      "appears twice",
    ],
    [
      "duplicate id",
      (p) => p.zones.push({ ...p.zones[0], name: "x", firstTriangle: 0, triangleCount: 0 }),
      "appears twice",
    ],
  ];
  for (const [what, mutate, msg] of cases) {
    const p = decodeMainPack(main).pack;
    mutate(p);
    const e = err(() => encodeMainPack(p));
    assertEquals(e.code, "bad_value", what);
    assert(e.message.includes(msg), `${what}: ${e.message}`);
  }
});

Deno.test("bnav: the decoder refuses what the encoder would not write (zone table under the hash)", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}nav_test/base.nav.gz`));
  const load = decodeMainPack(main);
  // The zone table is stored uncompressed: patch zone 0's width to NaN and re-seal the hash.
  const { buildHashV5 } = await import("../src/pack/bnav/canonical.ts");
  const { readFront } = await import("../src/pack/bnav/codec.ts");
  const front = readFront(main, {});
  const b = main.slice();
  const off = front.zoneTable.byteOffset - main.byteOffset;
  new DataView(b.buffer).setFloat32(off + 20, NaN, true); // width of zone 0
  const hash = buildHashV5(
    b.subarray(off, off + front.zoneTable.length),
    load.pack.vertices,
    load.pack.triangles,
    load.pack.links,
  );
  new DataView(b.buffer).setBigUint64(56, hash, true);
  const e = err(() => decodeMainPack(b));
  assert(e.message.includes("width NaN"), e.message);
  assertEquals(e.where.zone, "nav_test");
});

Deno.test("bnav: BOML NaN/Inf floats and BGRD directory values are refused", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}city_small/base.nav.gz`));
  const load = decodeMainPack(main);
  const boml = load.sections.find((s) => s.tag === "BOML")!;
  const grid = load.gridSection!.offset;
  const nl = u32(main, grid + 40);
  const zAt = grid + 44 + ((nl + 3) & ~3);
  const t0 = zAt + 24;
  const cases: [string, (v: DataView) => void, string][] = [
    ["BOML radius NaN", (v) => v.setFloat32(boml.offset + 16 + 20, NaN, true), "radius"],
    ["BOML start x +Inf", (v) => v.setFloat32(boml.offset + 16 + 28, Infinity, true), "point"],
    ["BGRD x0 NaN", (v) => v.setFloat64(zAt, NaN, true), "origin"],
    ["BGRD y0 -Inf", (v) => v.setFloat64(zAt + 8, -Infinity, true), "origin"],
    ["tile_px subnormal", (v) => v.setFloat64(grid + 16, 5e-324, true), "tile_px"],
    ["apron 0", (v) => v.setFloat64(grid + 24, 0, true), "apron_px 0"],
    ["tile gx0 far away", (v) => v.setInt32(t0, 1000000, true), "tiles own"],
    [
      "tile owns one column",
      (v) => v.setInt32(t0 + 20, v.getInt32(t0 + 16, true), true),
      "tiles own",
    ],
    ["name not UTF-8", (v) => v.setUint8(grid + 44, 0xff), "UTF-8"],
    ["name renamed", (v) => v.setUint8(grid + 44, 0x4e), "not in the zone table"],
  ];
  for (const [what, mutate, msg] of cases) {
    const b = main.slice();
    mutate(new DataView(b.buffer));
    let e: NavscopeError;
    try {
      // The codec carries BGRD as raw bytes (its own errors come from parseBgrd, which the engine
      // and inspect run); a directory that parses must agree with the zone table.
      e = err(() => parseBgrd(decodeMainPack(b).pack.grid!));
    } catch (x) {
      throw new Error(`${what}: ${(x as Error).message}`);
    }
    assert(e.message.includes(msg), `${what}: ${e.message}`);
  }
});

Deno.test("bnav: a known section under a damaged tag is an error, not a warning", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}nav_test/base.nav.gz`));
  const load = decodeMainPack(main);
  for (const tag of ["BSRF", "BOML", "BGRD"]) {
    const i = load.sections.findIndex((s) => s.tag === tag);
    const b = main.slice();
    b[80 + 24 * i + 1] = 0x58; // e.g. BSRF → BXRF
    const e = err(() => decodeMainPack(b));
    assert(e.message.includes(`${tag} missing`), `${tag}: ${e.message}`);
  }
});

Deno.test("occluder pack that does not decode: inspect says invalid, plans say they ran without it", async () => {
  const { openEngine } = await import("../src/plan/engine.ts");
  const d = await copySet("nav_test");
  // nav_test's own pack has no scene; damage city_small's (OCLZ stream 0 length := 0xFFFFFF)
  // after renaming its record to nav_test so only the decode can fail.
  const { decodeOccluderPackAll, encodeOccluderPack } = await import("../src/pack/ocls/pack.ts");
  const scenes = decodeOccluderPackAll(
    await gunzip(await Deno.readFile(`${EX}city_small/base.occluder.gz`)),
  );
  const b = encodeOccluderPack([{ ...scenes[0], zone: "nav_test" }]).slice();
  const body = 12 + 2 + "nav_test".length + 4;
  new DataView(b.buffer).setUint32(body + 80, 0xffffff, true);
  await Deno.writeFile(`${d}/base.occluder.gz`, gzip(b));
  const r = await inspectPackSet(`${d}/base.nav.gz`);
  assertEquals([r.occluder.status, r.usable], ["invalid", true]);
  assert(r.occluder.error !== null && r.warnings.some((w) => w.includes("does not decode")));
  const e = await openEngine(`${d}/base.nav.gz`);
  assertEquals(e.info.error, null);
  assert(e.info.warnings[0].startsWith("occluders_unreadable"), e.info.warnings[0]);
  const res = await e.plan({ zone: "nav_test", start: [37.604, 21.0107], goal: [9.5955, 55.602] });
  assert(res.warnings.some((w) => w.startsWith("occluders_unreadable")), res.warnings.join());
  e.close();
  await Deno.remove(d, { recursive: true });
});

Deno.test("another world's occluder scene under our zone name is refused by engine and inspect", async () => {
  const { openEngine } = await import("../src/plan/engine.ts");
  const { decodeOccluderPackAll, encodeOccluderPack } = await import("../src/pack/ocls/pack.ts");
  const d = await copySet("nav_test");
  const scenes = decodeOccluderPackAll(
    await gunzip(await Deno.readFile(`${EX}city_small/base.occluder.gz`)),
  );
  await Deno.writeFile(
    `${d}/base.occluder.gz`,
    gzip(encodeOccluderPack([{ ...scenes[0], zone: "nav_test" }])),
  );
  const r = await inspectPackSet(`${d}/base.nav.gz`);
  assertEquals([r.occluder.status, r.usable], ["mismatched", false]);
  assertEquals(r.occluder.misplaced.map((m) => m.zone), ["nav_test"]);
  assert(r.unusableReason!.includes("wholly outside"), r.unusableReason!);
  const e = await openEngine(`${d}/base.nav.gz`);
  assert(e.info.error !== null && e.info.error.includes("wholly outside"), String(e.info.error));
  e.close();
  // The city's own scene, in its own set, belongs.
  const ok = await inspectPackSet(`${EX}city_small/base.nav.gz`);
  assertEquals([ok.occluder.status, ok.usable], ["ok", true]);
  await Deno.remove(d, { recursive: true });
});

Deno.test("a no-go table naming a foreign zone next to our own is refused by engine and inspect", async () => {
  const { openEngine } = await import("../src/plan/engine.ts");
  const d = await copySet("city_small");
  const t = JSON.parse(await Deno.readTextFile(`${d}/base.nogo.json`));
  t.zones.nav_test = [{ name: "elsewhere", rings: [[[1, 1], [5, 1], [5, 5], [1, 5]]] }];
  await Deno.writeTextFile(`${d}/base.nogo.json`, JSON.stringify(t));
  const r = await inspectPackSet(`${d}/base.nav.gz`);
  assertEquals([r.nogo.status, r.usable], ["mismatched", false]);
  const e = await openEngine(`${d}/base.nav.gz`);
  assert(e.info.error !== null && e.info.error.includes("nav_test"), String(e.info.error));
  e.close();
  await Deno.remove(d, { recursive: true });
});
