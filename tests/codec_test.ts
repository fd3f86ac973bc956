import { assertEquals, assertThrows } from "./assert.ts";
import {
  ByteReader,
  ByteWriter,
  Fnv1a64,
  fnv1a64,
  gunzip,
  gzip,
  readStream,
  writeStream,
  zigzagDecode,
  zigzagEncode,
} from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { mulberry32 } from "./rng.ts";

/** Reference FNV-1a 64 with BigInt, to check the split-halves version. */
function fnvRef(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h;
}

Deno.test("fnv1a64: known vectors", () => {
  const enc = new TextEncoder();
  assertEquals(fnv1a64(new Uint8Array()), 0xcbf29ce484222325n);
  assertEquals(fnv1a64(enc.encode("a")), 0xaf63dc4c8601ec8cn);
  assertEquals(fnv1a64(enc.encode("foobar")), 0x85944171f73967e8n);
});

Deno.test("fnv1a64: equals BigInt reference on random data, streaming in pieces", () => {
  const rnd = mulberry32(7);
  for (let t = 0; t < 50; t++) {
    const n = Math.floor(rnd() * 300);
    const b = new Uint8Array(n).map(() => Math.floor(rnd() * 256));
    const h = new Fnv1a64();
    const cut = Math.floor(rnd() * (n + 1));
    h.update(b.subarray(0, cut)).update(b.subarray(cut));
    assertEquals(h.digest(), fnvRef(b));
  }
});

Deno.test("varint/zigzag: round trip including 2^53 boundary", () => {
  const vals = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1];
  const w = new ByteWriter();
  for (const v of vals) w.varint(v);
  for (const v of vals.slice(0, -1)) w.svarint(-v);
  const r = new ByteReader(w.finish());
  for (const v of vals) assertEquals(r.varint(), v);
  for (const v of vals.slice(0, -1)) assertEquals(r.svarint(), v === 0 ? 0 : -v);
  r.expectEnd();
  for (let v = -1000; v < 1000; v++) assertEquals(zigzagDecode(zigzagEncode(v)), v);
});

Deno.test("varint: a shift past 63 bits is corruption", () => {
  const bad = new Uint8Array(11).fill(0x80);
  bad[10] = 1;
  const e = assertThrows(() => new ByteReader(bad, { section: "T" }).varint(), NavscopeError);
  assertEquals((e as NavscopeError).code, "varint_overflow");
});

Deno.test("varint: truncated", () => {
  const e = assertThrows(() => new ByteReader(new Uint8Array([0x80, 0x80])).varint());
  assertEquals((e as NavscopeError).code, "truncated");
});

Deno.test("stream unit: round trip, leftover and missing bytes rejected", () => {
  const raw = new Uint8Array(500).map((_, i) => i % 13);
  const w = new ByteWriter();
  writeStream(w, raw);
  const bytes = w.finish();
  assertEquals(readStream(new ByteReader(bytes)), raw);
  // Declared length one longer, with a junk byte: leftover inside the unit.
  const w2 = new ByteWriter();
  const z = bytes.subarray(1);
  w2.varint(z.length + 1).bytes(z).u8(0);
  const e1 = assertThrows(() => readStream(new ByteReader(w2.finish())));
  assertEquals((e1 as NavscopeError).code, "stream_length");
  // Declared length one shorter: the zlib data is cut.
  const w3 = new ByteWriter();
  w3.varint(z.length - 1).bytes(z.subarray(0, z.length - 1));
  const e2 = assertThrows(() => readStream(new ByteReader(w3.finish())));
  assertEquals((e2 as NavscopeError).code, "stream_length");
});

Deno.test("gzip: round trip, deterministic, truncation rejected", async () => {
  const raw = new Uint8Array(200_000).map((_, i) => (i * 31) & 0xff);
  const g = gzip(raw);
  assertEquals(gzip(raw), g);
  assertEquals(await gunzip(g), raw);
  const e = await gunzip(g.subarray(0, g.length - 100)).catch((x) => x);
  assertEquals(e instanceof NavscopeError, true);
});

Deno.test("ByteReader: reads past the end name section and offset", () => {
  const r = new ByteReader(new Uint8Array(3), { file: "x.nav", section: "BNAV header" }, 100);
  r.u16();
  const e = assertThrows(() => r.u32()) as NavscopeError;
  assertEquals(e.code, "truncated");
  assertEquals(e.where.offset, 102);
  assertEquals(e.message.startsWith("x.nav: BNAV header, offset 102"), true);
});
