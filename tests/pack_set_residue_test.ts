/**
 * What the fuzz harness of issue 27 still counts at library level (docs/fuzz.md, "The external
 * campaign"): inputs a correct writer produces for another pack set — a main pack without its BOML
 * or BSRF section, a sidecar without FLNK, an occluder scene under a well-formed zone name the main
 * pack lacks. Each file alone decodes; in the pack set every one makes the engine unusable, and
 * `inspect` says why. (A legs file naming such a zone: tests/plan_battery_stream_test.ts.)
 */
import { assert, assertEquals } from "./assert.ts";
import { gunzip, gzip } from "../src/codec/gzip.ts";
import { decodeMainPack, encodeMainPack } from "../src/pack/bnav/codec.ts";
import { decodeSidecar, encodeSidecar } from "../src/pack/bnvf/sidecar.ts";
import { decodeOccluderPackAll, encodeOccluderPack } from "../src/pack/ocls/pack.ts";
import { inspectPackSet } from "../src/pack/set/pack_set.ts";
import { copySet } from "./pack_set_copy.ts";

const EX = new URL("../examples/city_small/", import.meta.url).pathname;

/** A copy of the city_small pack set with `file` replaced by `bytes` (gzipped). */
async function setWith(file: string, bytes: Uint8Array): Promise<string> {
  const dir = await copySet("city_small");
  await Deno.writeFile(`${dir}/${file}`, gzip(bytes));
  return dir;
}

async function unusable(dir: string, needle: string): Promise<void> {
  try {
    const r = await inspectPackSet(`${dir}/base.nav.gz`);
    assertEquals(r.usable, false, `${needle}: the set must be unusable`);
    assert(r.unusableReason!.includes(needle), r.unusableReason!);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const mainBytes = async () => await gunzip(await Deno.readFile(EX + "base.nav.gz"));

Deno.test("pack set: the example set itself is usable", async () => {
  const r = await inspectPackSet(EX + "base.nav.gz");
  assertEquals(r.usable, true, r.unusableReason ?? "");
});

Deno.test("pack set: a main pack re-written without BOML or without BSRF is refused through its sidecar", async () => {
  const { pack } = decodeMainPack(await mainBytes());
  assert(pack.offMeshLinks && pack.surfaces, "the example has BOML and BSRF");
  for (const cut of [{ offMeshLinks: null }, { surfaces: null }]) {
    const bytes = encodeMainPack({ ...pack, ...cut });
    decodeMainPack(bytes); // alone it is a valid pack: both sections are optional
    // The sidecar's file_fnv covers every byte of the main pack (spec 旁包 › 配对).
    await unusable(await setWith("base.nav.gz", bytes), "changed after the sidecar was baked");
  }
});

Deno.test("pack set: a sidecar re-written without FLNK is refused against the main pack's BOML", async () => {
  const side = await gunzip(await Deno.readFile(EX + "base.fields.nav.gz"));
  const { model } = decodeSidecar(side, null);
  assert(model.links !== null, "the example sidecar has FLNK");
  const bytes = encodeSidecar({ ...model, links: null });
  decodeSidecar(bytes, null); // alone: FLNK is optional
  await unusable(await setWith("base.fields.nav.gz", bytes), "no FLNK section");
});

Deno.test("pack set: an occluder scene under a well-formed zone name the main pack lacks is refused", async () => {
  const scenes = decodeOccluderPackAll(await gunzip(await Deno.readFile(EX + "base.occluder.gz")));
  for (const s of scenes) s.zone = s.zone + "_other";
  const bytes = encodeOccluderPack(scenes);
  assertEquals(decodeOccluderPackAll(bytes)[0].zone, "map01base_other"); // alone: a valid pack
  await unusable(await setWith("base.occluder.gz", bytes), "map01base_other");
});
