/**
 * BOML v1 and v2 (issue 8): MaaEnd builds before #5844 write v1 (80-byte records, no direction
 * byte, no end triangles); navscope writes v2. Both decode to the same links: v1 direction bits
 * follow from the single/two-way field, and the end triangles — left unresolved by the pack
 * decoder — from the mesh layer's `resolveLinkEnds`, which snaps the end points to the zone mesh
 * as the baker does. Any other (version, record length) pair is an error.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { ByteWriter, readMaybeGzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { decodeMainPack, encodeMainPack, loadZone } from "../src/pack/bnav/mod.ts";
import { NO_TRIANGLE, type OffMeshLink } from "../src/pack/bnav/types.ts";
import { decodeBoml, encodeBoml, readBomlHeader } from "../src/pack/bnav/boml.ts";
import { resolveLinkEnds } from "../src/zone_mesh/link_ends.ts";

const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;

/** A v1 section of the same links: version 1, 80-byte records = the first 80 bytes of v2's. */
function bomlV1(links: readonly OffMeshLink[]): Uint8Array {
  const v2 = encodeBoml(links, {});
  const w = new ByteWriter(16 + 80 * links.length);
  w.tag("BOML").u16(1).u16(80).u32(links.length).u32(0);
  for (let i = 0; i < links.length; i++) w.bytes(v2.subarray(16 + 88 * i, 16 + 88 * i + 80));
  return w.finish();
}

/** The example pack re-encoded with a v1 BOML section in place of its v2 one. */
async function v1Pack(): Promise<{ v2: Uint8Array; v1: Uint8Array; links: OffMeshLink[] }> {
  const v2 = await readMaybeGzip(PACK);
  const pack = decodeMainPack(v2).pack;
  const links = pack.offMeshLinks!;
  // The encoder writes BOML as v2 only and refuses a known tag among the extra sections: write
  // the v1 bytes under a stand-in tag, then rename the directory entry.
  const bytes = encodeMainPack({
    ...pack,
    offMeshLinks: null,
    extraSections: [...pack.extraSections, { tag: "XOML", flags: 0, bytes: bomlV1(links) }],
  });
  const at = [...bytes.keys()].filter((i) =>
    bytes[i] === 0x58 && bytes[i + 1] === 0x4f && bytes[i + 2] === 0x4d && bytes[i + 3] === 0x4c
  );
  assertEquals(at.length, 1, "one XOML directory tag");
  bytes[at[0]] = 0x42; // "B"
  return { v2, v1: bytes, links };
}

Deno.test("boml: v1 and v2 sections of the example pack decode to the same links", async () => {
  const { v1, v2, links } = await v1Pack();
  assertEquals(decodeMainPack(v2).offMeshLinkEnds, "stored");
  assert(links.length >= 2, "the example has off-mesh links");
  assert(links.some((l) => l.bidirectional) && links.some((l) => !l.bidirectional));
  for (const l of links) {
    assert(l.startTriangle !== NO_TRIANGLE && l.endTriangle !== NO_TRIANGLE, "v2 ends are set");
  }
  // The section alone carries no end triangles in v1 …
  const raw = decodeBoml(bomlV1(links), 0, 1 << 30, {});
  assertEquals(
    raw.map((l) => [l.startTriangle, l.endTriangle]),
    links.map(() => [-1 >>> 0, -1 >>> 0]),
  );
  assertEquals(raw.map((l) => l.dirBits), links.map((l) => (l.bidirectional ? 3 : 1)));
  // … nor does the whole-pack load, which says so; the mesh layer snaps them, exactly as the
  // baker chose them for v2.
  const load = decodeMainPack(v1);
  assertEquals(load.offMeshLinkEnds, "v1-unresolved");
  assertEquals(
    load.pack.offMeshLinks!.map((l) => [l.startTriangle, l.endTriangle]),
    links.map(() => [NO_TRIANGLE, NO_TRIANGLE]),
  );
  resolveLinkEnds(load);
  assertEquals(load.offMeshLinkEnds, "v1-snapped");
  assertEquals(load.pack.offMeshLinks!, links);
  // A zone load, resolved the same way, gets them as zone-local indices, as it does for v2.
  const zone = load.pack.zones[0].name;
  const z1 = loadZone(v1, zone), z2 = loadZone(v2, zone);
  assertEquals([z1.offMeshLinkEnds, z2.offMeshLinkEnds], ["v1-unresolved", "stored"]);
  resolveLinkEnds(z1);
  resolveLinkEnds(z2); // stored ends: left alone
  assertEquals(z1.pack.offMeshLinks, z2.pack.offMeshLinks);
});

function code(fn: () => unknown): string {
  return (assertThrows(fn, NavscopeError) as NavscopeError).code;
}

Deno.test("boml: a v1 header with 88-byte records (and v2 with 80) is an error", async () => {
  const { links } = await v1Pack();
  const v1 = bomlV1(links);
  const bad = encodeBoml(links, {}).slice();
  new DataView(bad.buffer).setUint16(4, 1, true); // version 1, record length still 88
  const e = assertThrows(
    () => readBomlHeader(bad, 0, { file: "x.nav" }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assert(e.message.includes("BOML v1 record length 88"), e.message);
  const bad2 = v1.slice();
  new DataView(bad2.buffer).setUint16(4, 2, true); // version 2, record length 80
  assertEquals(code(() => readBomlHeader(bad2, 0, {})), "bad_value");
  const bad3 = v1.slice();
  new DataView(bad3.buffer).setUint16(4, 3, true);
  assertEquals(code(() => readBomlHeader(bad3, 0, {})), "bad_version");
  assertEquals(readBomlHeader(v1, 0, {}), { version: 1, recordSize: 80, count: links.length });
});
