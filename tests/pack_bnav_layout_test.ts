/**
 * BNAV section directory and byte accounting (issue 10 item 13): a section count cut short, a
 * tag byte changed, a section size or offset changed, trailing bytes and overlaps are errors at
 * the offset where the layout stops making sense; a tag other than the four known sections is an
 * error naming the tag (issue 27); every pack navscope writes (v5 with alignment padding, legacy
 * v1–4 back to back, the examples) loads.
 */
import { assert, assertEquals } from "./assert.ts";
import { type ErrorCode, NavscopeError } from "../src/errors.ts";
import { readMaybeGzip } from "../src/codec/mod.ts";
import {
  decodeMainPack,
  describeMainPack,
  encodeLegacyMainPack,
  encodeMainPack,
  loadZone,
  type MainPack,
} from "../src/pack/bnav/mod.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { gzip } from "../src/codec/mod.ts";

const FILE = "base.nav";

function sample(): { pack: MainPack; bytes: Uint8Array } {
  const pack = randomMainPack(11, { zones: 2, trianglesPerZone: 30 });
  return { pack, bytes: encodeMainPack(pack) };
}

function dv(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Directory entries of a v5 pack: [tag, entry offset, section offset, size]. */
function entries(b: Uint8Array): { tag: string; at: number; offset: number; size: number }[] {
  const d = dv(b);
  const dir = Number(d.getBigUint64(64, true));
  const n = d.getUint32(72, true);
  return Array.from({ length: n }, (_, i) => {
    const at = dir + 24 * i;
    return {
      tag: String.fromCharCode(...b.subarray(at, at + 4)),
      at,
      offset: Number(d.getBigUint64(at + 8, true)),
      size: Number(d.getBigUint64(at + 16, true)),
    };
  });
}

function expectError(b: Uint8Array, code: ErrorCode, offset: number, text: RegExp): NavscopeError {
  for (const f of [() => decodeMainPack(b, { file: FILE }), () => loadZone(b, 0, { file: FILE })]) {
    try {
      f();
    } catch (e) {
      if (!(e instanceof NavscopeError)) throw e;
      assertEquals(e.code, code, e.message);
      assertEquals(e.where.file, FILE, e.message);
      assertEquals(e.where.offset, offset, e.message);
      assert(text.test(e.message), e.message);
      continue;
    }
    throw new Error(`expected a ${code} error`);
  }
  try {
    describeMainPack(b, { file: FILE });
  } catch (e) {
    return e as NavscopeError;
  }
  throw new Error("describeMainPack accepted it");
}

Deno.test("bnav layout: a section count cut short is an error naming the lost entries", () => {
  const { bytes } = sample();
  const es = entries(bytes);
  assertEquals(es.map((e) => e.tag), ["BGEO", "BOML", "BSRF", "BGRD"]);
  const b = bytes.slice();
  dv(b).setUint32(72, 1, true);
  expectError(b, "count_mismatch", 80 + 24, /3 more directory entries \(BOML, BSRF, BGRD\)/);
  dv(b).setUint32(72, 3, true);
  expectError(b, "count_mismatch", 80 + 72, /section count 3 at offset 72/);
});

Deno.test("bnav layout: a tag that is not four printable ASCII characters is rejected", () => {
  const { bytes } = sample();
  const bsrf = entries(bytes).find((e) => e.tag === "BSRF")!;
  const b = bytes.slice();
  b[bsrf.at + 1] = 0; // BSRF → B\0RF
  const e = expectError(b, "bad_value", bsrf.at + 1, /tag "B\\0RF" has byte 1 = 0x00/);
  assertEquals(e.where.section, "section directory");
  const c = bytes.slice();
  c[bsrf.at + 3] = 0x80;
  expectError(c, "bad_value", bsrf.at + 3, /not a printable ASCII character/);
});

Deno.test("bnav layout: a changed size or offset, tail bytes and overlaps are errors", () => {
  const { bytes } = sample();
  const es = entries(bytes);
  const boml = es.find((e) => e.tag === "BOML")!;
  const bsrf = es.find((e) => e.tag === "BSRF")!;
  // BOML 16 bytes shorter: its last 16 bytes belong to nothing.
  const a = bytes.slice();
  dv(a).setBigUint64(boml.at + 16, BigInt(boml.size - 16), true);
  expectError(a, "bad_value", boml.offset + boml.size - 16, /between section BOML and section/);
  // Bytes after the last section.
  const t = new Uint8Array(bytes.length + 5);
  t.set(bytes);
  t.fill(1, bytes.length);
  expectError(t, "count_mismatch", bytes.length, /after the last part \(section BGRD\)/);
  // Even zero bytes after the end when they do not pad to an 8-byte boundary… (file length
  // must then be a multiple of 8); and more than 7 are never padding.
  const z = new Uint8Array(bytes.length + 8 + (8 - bytes.length % 8) % 8);
  z.set(bytes);
  expectError(z, "count_mismatch", bytes.length, /after the last part/);
  // BSRF moved onto BOML.
  const o = bytes.slice();
  dv(o).setBigUint64(bsrf.at + 8, BigInt(boml.offset), true);
  expectError(o, "offset_out_of_range", boml.offset, /overlaps/);
  // A non-zero byte in the alignment padding before BOML (the writer pads with zeros).
  const bgeo = es.find((e) => e.tag === "BGEO")!;
  const padAt = bgeo.offset + bgeo.size;
  assert(padAt < boml.offset, "the sample has padding before BOML");
  const p = bytes.slice();
  p[padAt] = 7;
  expectError(p, "bad_value", padAt, /between section BGEO and section BOML/);
});

Deno.test("bnav layout: a section tag other than the four known ones is an error naming it", () => {
  const pack = randomMainPack(11, { zones: 2, trianglesPerZone: 30, extraSection: true });
  assertEquals(pack.extraSections.map((s) => s.tag), ["XTRA"]);
  const bytes = encodeMainPack(pack);
  const xtra = entries(bytes).find((e) => e.tag === "XTRA")!;
  assertEquals(xtra.at, 80 + 24 * 4);
  const e = expectError(
    bytes,
    "bad_value",
    xtra.at,
    new RegExp(
      `entry 4 has tag "XTRA" \\(section at offset ${xtra.offset}, ${xtra.size} bytes\\), not one ` +
        "of the four sections a main pack has \\(BGEO, BOML, BSRF, BGRD\\)",
    ),
  );
  assertEquals(e.where.section, "section directory");
  assertEquals(e.where.offset, xtra.at);
  // All four known sections present: nothing hints at a renamed one.
  assert(!e.message.includes("damaged tag"), e.message);
  // The same for a v4 pack (directory without BGEO).
  const v4 = encodeLegacyMainPack(pack, 4);
  const e4 = expectError(v4, "bad_value", entries(v4).find((x) => x.tag === "XTRA")!.at, /"XTRA"/);
  assert(!e4.message.includes("missing"), e4.message);
  // Without the extra section the pack loads.
  decodeMainPack(sample().bytes);
});

Deno.test("bnav layout: a known section under a damaged tag names the missing one", () => {
  const { bytes } = sample();
  for (const [i, tag] of ["BGEO", "BOML", "BSRF", "BGRD"].entries()) {
    const b = bytes.slice();
    b[80 + 24 * i + 2] = 0x58; // BGEO → BGXO, BSRF → BSXF, …
    const bad = `${tag.slice(0, 2)}X${tag[3]}`;
    const e = expectError(b, "bad_value", 80 + 24 * i, new RegExp(`"${bad}"`));
    assert(
      e.message.includes(`section ${tag} missing: a known section under a damaged tag?`),
      e.message,
    );
  }
});

Deno.test("bnav layout: inspect refuses a pack with an unknown section: one line, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope_layout_" });
  const pack = randomMainPack(11, { zones: 2, trianglesPerZone: 30, extraSection: true });
  await Deno.writeFile(`${dir}/base.nav.gz`, gzip(encodeMainPack(pack)));
  for (const args of [[], ["--json"]]) {
    const errs: string[] = [];
    const orig = console.error; // main prints its one error line there
    console.error = (...a: unknown[]) => void errs.push(a.join(" "));
    try {
      const r = await captureOutput(() => main(["inspect", `${dir}/base.nav.gz`, ...args]));
      assertEquals(r.value, 1, r.err);
      assertEquals([r.out, r.err], ["", ""], args.join());
    } finally {
      console.error = orig;
    }
    assertEquals(errs.length, 1, errs.join("\n"));
    assert(!errs[0].includes("\n"), errs[0]);
    assert(/^navscope inspect: error: .*base\.nav\.gz.*"XTRA"/.test(errs[0]), errs[0]);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bnav layout: every pack navscope writes accounts for its bytes", async () => {
  for (let seed = 1; seed <= 12; seed++) {
    const pack = randomMainPack(seed, { zones: 1 + seed % 3, sections: seed % 4 !== 0 });
    decodeMainPack(encodeMainPack(pack));
    for (let v = 1; v <= 4; v++) decodeMainPack(encodeLegacyMainPack(pack, v));
  }
  for (const w of ["city_small", "nav_test", "dungeon", "proto_level", "tower_big"]) {
    const bytes = await readMaybeGzip(`examples/${w}/base.nav.gz`);
    assertEquals(
      decodeMainPack(bytes).sections.map((x) => x.tag),
      ["BGEO", "BOML", "BSRF", "BGRD"],
      w,
    );
  }
});
