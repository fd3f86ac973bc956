/**
 * Issue 27: every v5 main pack carries the BGRD grid (spec 体积、内存与速度: 「体素格图第 4 代起
 * 离线烘进主包 … 主包多出 BGRD 段;同一次改动重新编码了几何与格图」). A v5 pack whose BGRD entry was
 * dropped and whose directory was re-laid out cleanly (what the external fuzz harness produced, 42
 * of 30 000 mutations accepted) is refused by whole loads, per-zone loads, `describeMainPack` and
 * `inspect`'s pack-set check; the encoder refuses `grid: null`; v1–4 packs without a grid still
 * load.
 * @module
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { gunzip, gzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  decodeMainPack,
  describeMainPack,
  encodeLegacyMainPack,
  encodeMainPack,
  loadZone,
} from "../src/pack/bnav/mod.ts";
import { inspectPackSet } from "../src/pack/set/pack_set.ts";
import { randomMainPack } from "../testing/bnav_random.ts";

const FILE = "base.nav";
const EX = new URL("../examples/", import.meta.url).pathname;
const SET = ["base.nav.gz", "base.fields.nav.gz", "base.occluder.gz", "base.nogo.json"];

/** The NavscopeError `f` throws (fails when it accepts or throws anything else). */
const err = (f: () => unknown) => assertThrows(f, NavscopeError) as NavscopeError;

/**
 * `bytes` (v5) without the BGRD section: its directory entry removed, the other sections re-laid
 * out on 8-byte boundaries after the shorter directory as the encoder lays them out, no bytes
 * left over. Nothing but the grid is missing: layout, BGEO and build_hash are all intact.
 */
function dropGrid(bytes: Uint8Array): Uint8Array {
  const d = describeMainPack(bytes);
  const kept = d.sections.filter((s) => s.tag !== "BGRD");
  assertEquals(kept.length, d.sections.length - 1, "the pack had a grid");
  let off = 80 + 24 * kept.length;
  const placed = kept.map((s) => {
    off += (8 - (off % 8)) % 8;
    const at = off;
    off += s.size;
    return { s, at };
  });
  const out = new Uint8Array(off);
  out.set(bytes.subarray(0, 80));
  const v = new DataView(out.buffer);
  v.setUint32(72, kept.length, true);
  placed.forEach(({ s, at }, i) => {
    const e = 80 + 24 * i;
    out.set(new TextEncoder().encode(s.tag), e);
    v.setUint32(e + 4, s.flags, true);
    v.setBigUint64(e + 8, BigInt(at), true);
    v.setBigUint64(e + 16, BigInt(s.size), true);
    out.set(bytes.subarray(s.offset, s.offset + s.size), at);
  });
  return out;
}

/** Checks `e` is the no-BGRD refusal, pointing at the section directory. */
function assertNoGrid(e: NavscopeError, file = FILE): void {
  assertEquals(e.code, "bad_value", e.message);
  assertEquals(
    [e.where.file, e.where.section, e.where.offset],
    [file, "section directory", 80],
    e.message,
  );
  assert(e.message.includes("v5 pack has no BGRD section"), e.message);
  assert(e.message.includes("主包多出 BGRD 段"), `the expected text cites the spec: ${e.message}`);
}

Deno.test("bnav: a v5 pack without BGRD is refused by whole, per-zone loads and describe", () => {
  for (const seed of [1, 2, 3]) {
    for (const sections of [true, false]) {
      const pack = randomMainPack(seed, { zones: 3, trianglesPerZone: 20, sections });
      const bytes = encodeMainPack(pack);
      // The same pack with its grid loads: only the missing grid is refused below.
      assertEquals(decodeMainPack(bytes).pack.grid, pack.grid);
      const b = dropGrid(bytes);
      assertNoGrid(err(() => decodeMainPack(b, { file: FILE })));
      for (const z of pack.zones) {
        const e = err(() => loadZone(b, z.name, { file: FILE }));
        assertNoGrid(e);
      }
      assertNoGrid(err(() => describeMainPack(b, { file: FILE })));
      assertNoGrid(err(() => describeMainPack(b, { file: FILE, verify: true })));
    }
  }
});

Deno.test("bnav: the encoder refuses a pack without a grid (it writes v5 only)", () => {
  const pack = randomMainPack(5, { zones: 2, trianglesPerZone: 10 });
  const e = err(() => encodeMainPack({ ...pack, grid: null }, { file: FILE }));
  assertEquals([e.code, e.where.file, e.where.section], ["bad_value", FILE, "BGRD"], e.message);
  assert(e.message.includes("no grid"), e.message);
  encodeMainPack(pack); // with its grid it encodes
});

Deno.test("bnav: v1–4 packs without a grid stay readable (an older generation)", () => {
  const pack = { ...randomMainPack(6, { zones: 2, trianglesPerZone: 10 }), grid: null };
  for (let v = 1; v <= 4; v++) {
    const bytes = encodeLegacyMainPack(pack, v);
    const load = decodeMainPack(bytes, { file: `v${v}` });
    assertEquals([load.header.version, load.pack.grid, load.gridSection], [v, null, null]);
    for (const z of pack.zones) assertEquals(loadZone(bytes, z.name).pack.grid, null);
    assertEquals(describeMainPack(bytes, { verify: true }).grid, null);
  }
});

Deno.test("bnav: an example world's main pack without BGRD: inspect's pack-set check refuses it", async () => {
  const main = await gunzip(await Deno.readFile(`${EX}city_small/base.nav.gz`));
  const d = await Deno.makeTempDir({ prefix: "ns_bgrd_" });
  for (const f of SET) await Deno.copyFile(`${EX}city_small/${f}`, `${d}/${f}`);
  try {
    const path = `${d}/base.nav.gz`;
    await Deno.writeFile(path, gzip(dropGrid(main)));
    let e: unknown = null;
    try {
      await inspectPackSet(path);
    } catch (x) {
      e = x;
    }
    assert(e instanceof NavscopeError, `refused: ${e}`);
    assertNoGrid(e, path);
  } finally {
    await Deno.remove(d, { recursive: true });
  }
});
