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

const EX = new URL("../examples/", import.meta.url).pathname;
const FILES = ["base.nav.gz", "base.fields.nav.gz", "base.occluder.gz", "base.nogo.json"];

/** Copies an example's pack set into a fresh temp directory. */
export async function copySet(world: string): Promise<string> {
  const d = await Deno.makeTempDir({ prefix: "ns_valid_" });
  for (const f of FILES) await Deno.copyFile(`${EX}${world}/${f}`, `${d}/${f}`);
  return d;
}

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
