/**
 * BNVF sidecar: whole-file round trips, determinism, the six validation steps of 旁包校验 each
 * failing on its own, lazy reads, summary.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { gzip } from "../src/codec/mod.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  decodeFcon,
  decodeSidecar,
  encodeFcon,
  encodeSidecar,
  FCON_SIZE,
  formatSidecarSummary,
  linkJumpCost,
  loadSidecarFile,
  openSidecar,
  readComponentGraphs,
  readFieldsTile,
  readWallTable,
  RUNTIME_CONSTANTS,
  RUNTIME_FCON,
  type SidecarExpectations,
  sidecarPathFor,
  summarizeSidecar,
} from "../src/pack/bnvf/sidecar.ts";
import { synthLinkTable, synthSidecar } from "../testing/bnvf_synth.ts";

function err(fn: () => unknown): NavscopeError {
  return assertThrows(fn, NavscopeError) as NavscopeError;
}

/** A fixed valid sidecar used by the step tests. */
function fixture(seed = 11) {
  const { model, expect } = synthSidecar(mulberry32(seed), {
    zones: 2,
    tiles: 3,
    maxRecords: 120,
    links: true,
    opens: true,
  });
  return { model, expect, bytes: encodeSidecar(model) };
}

/** Directory entry of `tag` in encoded bytes: [entry offset, section offset, length]. */
function dirEntry(bytes: Uint8Array, tag: string): [number, number, number] {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  const count = v.getUint32(28, true);
  const dir = Number(v.getBigUint64(32, true));
  for (let i = 0; i < count; i++) {
    const e = dir + i * 24;
    const t = String.fromCharCode(...bytes.subarray(e, e + 4));
    if (t === tag) {
      return [e, Number(v.getBigUint64(e + 8, true)), Number(v.getBigUint64(e + 16, true))];
    }
  }
  throw new Error(`no ${tag}`);
}

Deno.test("bnvf: randomised whole-file round trips are byte-exact and models survive", () => {
  for (let seed = 1; seed <= 25; seed++) {
    const { model, expect } = synthSidecar(mulberry32(seed));
    const bytes = encodeSidecar(model);
    const { pack, model: back } = decodeSidecar(bytes, expect, { file: `seed${seed}` });
    assertEquals(encodeSidecar(back), bytes, `seed ${seed}`);
    assertEquals(back.zones.length, model.zones.length);
    model.zones.forEach((z, i) => {
      const b = back.zones[i];
      assertEquals(b.name, z.name);
      assertEquals(b.regions, z.regions);
      assertEquals(b.tiles, z.tiles, `seed ${seed} zone ${i} tiles`);
      assertEquals(b.graphs, z.graphs, `seed ${seed} zone ${i} graphs`);
      assertEquals(b.walls, z.walls, `seed ${seed} zone ${i} walls`);
    });
    assertEquals(back.opens?.hBits, model.opens?.hBits);
    assertEquals(back.links?.declHBits, model.links?.declHBits);
    assertEquals(back.links?.gx, model.links?.gx);
    assert(pack.paired);
  }
});

Deno.test("bnvf: encoding is deterministic", () => {
  const a = encodeSidecar(synthSidecar(mulberry32(99)).model);
  const b = encodeSidecar(synthSidecar(mulberry32(99)).model);
  assertEquals(a, b);
});

Deno.test("bnvf: unknown sections, directory flags and reserved bytes are refused (issue 27)", () => {
  const cases: [string, (m: ReturnType<typeof fixture>["model"]) => void, string, number][] = [
    [
      "unknown section",
      (m) => (m.unknown = [{ tag: "FXYZ", flags: 0, bytes: new Uint8Array(8) }]),
      "FXYZ",
      -1,
    ],
    ["entry flags", (m) => (m.sectionFlags = { FSPN: 5 }), "unused bytes", -1],
    ["reserved", (m) => (m.reserved = 0x1122334455667788n), "unused header bytes", 40],
    ["header flags", (m) => (m.flags = 0x8000), "unknown bits", 6],
  ];
  for (const [what, mutate, msg, offset] of cases) {
    const { model, expect } = fixture();
    mutate(model);
    const e = err(() => decodeSidecar(encodeSidecar(model), expect));
    assertEquals(e.code, "bad_value", what);
    assert(e.message.includes(msg), `${what}: ${e.message}`);
    if (offset >= 0) assertEquals(e.where.offset, offset, what);
  }
});

Deno.test("bnvf: bytes after the last section or orphaned between sections are refused", () => {
  const { bytes, expect } = fixture();
  const longer = new Uint8Array(bytes.length + 64);
  longer.set(bytes);
  const e = err(() => openSidecar(longer, expect));
  assertEquals([e.code, e.where.offset], ["stream_length", bytes.length]);
  // The section count cut by one: the last section's bytes are owned by nothing.
  const cut = bytes.slice();
  const dv = new DataView(cut.buffer);
  dv.setUint32(28, dv.getUint32(28, true) - 1, true);
  assertEquals(err(() => openSidecar(cut, expect)).code, "stream_length");
  // FWAL's entry pointed at a copy appended at the end: its old bytes are orphaned.
  const [e0, off, len] = dirEntry(bytes, "FWAL");
  const at = bytes.length + ((8 - (bytes.length % 8)) % 8);
  const moved = new Uint8Array(at + len);
  moved.set(bytes);
  moved.set(bytes.subarray(off, off + len), at);
  new DataView(moved.buffer).setBigUint64(e0 + 8, BigInt(at), true);
  const o = err(() => openSidecar(moved, expect));
  assertEquals(o.code, "stream_length");
  assert(o.message.includes("orphaned"), o.message);
});

Deno.test("bnvf: FCON constants — 144 bytes, kStepTax 0, values in FCON order", () => {
  assertEquals(RUNTIME_FCON.length, FCON_SIZE);
  assert(Object.isFrozen(RUNTIME_CONSTANTS));
  const d = decodeFcon(RUNTIME_FCON);
  assertEquals(d.kCS, 0.25);
  assertEquals(d.kStepTax, 0);
  assertEquals(d.kWalkableMask, 0x20cdd);
  assertEquals(d.kFieldsRulesVersion, 2);
  const v = new DataView(RUNTIME_FCON.buffer);
  const f64 = Array.from({ length: 15 }, (_, i) => v.getFloat64(i * 8, true));
  assertEquals(f64, [0.25, 3, 1, 0.5, 1.25, 1.25, 8, 0.25, 12, 0.4, 0.2, 4, 0, 0.5, 0]);
  const i32 = Array.from({ length: 6 }, (_, i) => v.getInt32(120 + i * 4, true));
  assertEquals(i32, [3, 2, 32, 0x20cdd, 2, 0]);
});

// ---- the six validation steps, each failing on its own ------------------------------------

Deno.test("bnvf step 1: bad magic and wrong version", () => {
  const { bytes, expect } = fixture();
  const m = bytes.slice();
  m[0] = 0x58;
  const e1 = err(() => openSidecar(m, expect, { file: "x.fields.nav" }));
  assertEquals(e1.code, "bad_magic");
  assertEquals(e1.where.file, "x.fields.nav");
  assertEquals(e1.where.offset, 0);
  const v = bytes.slice();
  v[4] = 3;
  const e2 = err(() => openSidecar(v, expect));
  assertEquals(e2.code, "bad_version");
  assertEquals(e2.where.offset, 4);
});

Deno.test("bnvf step 2: build_hash and main-pack FNV must match", () => {
  const { bytes, expect } = fixture();
  const e1 = err(() => openSidecar(bytes, { ...expect, buildHash: expect.buildHash ^ 1n }));
  assertEquals([e1.code, e1.where.offset], ["hash_mismatch", 8]);
  const e2 = err(() => openSidecar(bytes, { ...expect, fileFnv: expect.fileFnv + 1n }));
  assertEquals([e2.code, e2.where.offset], ["hash_mismatch", 16]);
  assert(e2.expected !== undefined);
});

Deno.test("bnvf step 3: rules version must be 2", () => {
  const { model, expect } = fixture();
  model.rules = 3;
  const e = err(() => openSidecar(encodeSidecar(model), expect));
  assertEquals([e.code, e.where.offset], ["bad_version", 24]);
});

Deno.test("bnvf step 4: each required section missing on its own", () => {
  const { bytes, expect } = fixture();
  for (const tag of ["FCON", "FZON", "FSPN", "FSCC", "FWAL"]) {
    const m = bytes.slice();
    const [e] = dirEntry(m, tag);
    m.set([0x51, 0x51, 0x51, 0x51], e); // rename to an unknown tag "QQQQ"
    const x = err(() => openSidecar(m, expect));
    assertEquals(x.code, "bad_value", tag);
    assert(x.message.includes(tag), x.message);
  }
  // An optional section renamed is an unknown section, refused (issue 27: FLNK→FLNX dropped the
  // links silently); an optional section the writer left out is fine.
  const m = bytes.slice();
  const [e] = dirEntry(m, "FOPN");
  m.set([0x46, 0x4f, 0x50, 0x58], e); // "FOPX"
  assert(err(() => openSidecar(m, expect)).message.includes("FOPX"));
  const { model } = fixture();
  model.opens = null;
  assertEquals(openSidecar(encodeSidecar(model), expect).opens, null);
});

Deno.test("bnvf step 5: FCON must equal the runtime constants byte for byte", () => {
  const { model, expect } = fixture();
  model.fcon = encodeFcon({ ...RUNTIME_CONSTANTS, kStepTax: 6 }); // the reference's old value
  const bytes = encodeSidecar(model);
  const e = err(() => openSidecar(bytes, expect));
  assertEquals(e.code, "constants_mismatch");
  assertEquals(e.where.section, "FCON");
  assert(e.message.includes("kStepTax"), e.message);
  const [, off] = dirEntry(bytes, "FCON");
  assertEquals(e.where.offset, off + 12 * 8 + 6); // first differing byte of slot 12
  // Accepted when the runtime carries the same constants.
  openSidecar(bytes, expect, { runtimeFcon: model.fcon });
});

Deno.test("bnvf step 6: zones, region counts, tile counts and tile records must match BGRD", () => {
  const { bytes, expect } = fixture();
  const z0 = expect.zones[0];
  const cases: [SidecarExpectations, string][] = [
    [{ ...expect, zones: [{ ...z0, name: "other" }, expect.zones[1]] }, "FZON"],
    [{ ...expect, zones: [{ ...z0, regions: z0.regions + 1 }, expect.zones[1]] }, "FZON"],
    [{
      ...expect,
      zones: [{ ...z0, tileRecords: [...Array.from(z0.tileRecords), 0] }, expect.zones[1]],
    }, "FZON"],
    [{
      ...expect,
      zones: [
        { ...z0, tileRecords: Array.from(z0.tileRecords, (n, t) => t === 1 ? n + 1 : n) },
        expect.zones[1],
      ],
    }, "FSPN"],
    [{ ...expect, zones: [z0] }, "FZON"],
  ];
  for (const [ex, section] of cases) {
    const e = err(() => openSidecar(bytes, ex));
    assertEquals([e.code, e.where.section], ["count_mismatch", section], e.message);
    assert(e.where.zone !== undefined, e.message);
  }
  const e = err(() => openSidecar(bytes, cases[3][0]));
  assertEquals(e.where.tile, 1);
});

Deno.test("bnvf: without main-pack facts, steps 2 and 6 are skipped", () => {
  const { bytes } = fixture();
  const pack = openSidecar(bytes, null);
  assertEquals(pack.paired, false);
});

Deno.test("bnvf: lazy reads agree with the full decode", () => {
  const { model, bytes, expect } = fixture(5);
  const pack = openSidecar(bytes, expect);
  model.zones.forEach((z, i) => {
    z.tiles.forEach((t, k) => assertEquals(readFieldsTile(pack, z.name, k), t));
    assertEquals(readComponentGraphs(pack, i), z.graphs);
    assertEquals(readWallTable(pack, z.name), z.walls);
  });
  const e = err(() => readFieldsTile(pack, "nope", 0));
  assertEquals(e.where.zone, "nope");
});

Deno.test("bnvf: summary lists sections, zones and pairing facts", () => {
  const { model, bytes, expect } = fixture();
  const pack = openSidecar(bytes, null, { file: "base.fields.nav" });
  const s = summarizeSidecar(pack, expect);
  assertEquals(s.sections.map((x) => x.tag), [
    "FCON",
    "FZON",
    "FSPN",
    "FSCC",
    "FWAL",
    "FLNK",
    "FOPN",
  ]);
  assertEquals(s.sections[0].size, 144);
  assertEquals(
    s.zones.map((z) => z.records),
    model.zones.map((z) => z.tiles.reduce((a, t) => a + t.n, 0)),
  );
  assertEquals(s.zones.map((z) => z.graphRegions), model.zones.map((z) => z.graphs.count));
  assertEquals(s.zones.map((z) => z.walls), model.zones.map((z) => z.walls.count));
  assertEquals(s.pairing, { checked: true, buildHashMatches: true, fileFnvMatches: true });
  const bad = summarizeSidecar(pack, { buildHash: 1n, fileFnv: expect.fileFnv });
  assertEquals(bad.pairing.buildHashMatches, false);
  assertEquals(summarizeSidecar(pack).pairing.checked, false);
  const text = formatSidecarSummary(s).join("\n");
  assert(text.includes("zone 四号谷地"), text);
  JSON.stringify(s); // JSON-able (no bigints)
});

Deno.test("bnvf: sidecar path pairing and loading a gzip file", async () => {
  assertEquals(sidecarPathFor("/a/b/base.nav.gz"), "/a/b/base.fields.nav.gz");
  assertEquals(sidecarPathFor("base.nav"), "base.fields.nav");
  assertEquals(err(() => sidecarPathFor("base.bin")).code, "usage");
  const { bytes, expect } = fixture();
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/base.fields.nav.gz`;
    await Deno.writeFile(path, gzip(bytes));
    const pack = await loadSidecarFile(path, expect);
    assertEquals(pack.file, path);
    assertEquals(pack.bytes, bytes);
    const e = await assertRejects(loadSidecarFile(`${dir}/missing.fields.nav`, expect));
    assertEquals((e as NavscopeError).code, "io");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bnvf: FLNK jump cost is f32(max(c,1)) × f32(cell distance)", () => {
  const t = synthLinkTable(mulberry32(3), [0], 3);
  t.costModifier[0] = 0.5;
  t.gx.set([0, 3], 0);
  t.gy.set([0, 4], 0);
  assertEquals(linkJumpCost(t, 0), 5);
  t.costModifier[1] = 1.1;
  t.gx.set([10, 11], 2);
  t.gy.set([10, 11], 2);
  assertEquals(linkJumpCost(t, 1), Math.fround(Math.fround(1.1) * Math.fround(Math.SQRT2)));
});
