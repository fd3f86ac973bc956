/** Sidecar pairing by file name (spec 数据包: 同目录同名配对). */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { pairSidecars, sidecarStatus } from "../src/pack/set/pairing.ts";

Deno.test("pairSidecars: names for .nav.gz and .nav main packs", () => {
  const p = pairSidecars("assets/navmesh/base.nav.gz");
  assertEquals(p.dir, "assets/navmesh/");
  assertEquals(p.base, "base");
  assertEquals(p.fields, ["assets/navmesh/base.fields.nav.gz", "assets/navmesh/base.fields.nav"]);
  assertEquals(p.occluder, ["assets/navmesh/base.occluder.gz", "assets/navmesh/base.occluder"]);
  assertEquals(p.nogo, "assets/navmesh/base.nogo.json");
  const raw = pairSidecars("world.v2.nav");
  assertEquals(raw.dir, "");
  assertEquals(raw.base, "world.v2");
  assertEquals(raw.fields, ["world.v2.fields.nav", "world.v2.fields.nav.gz"]);
  assertEquals(raw.occluder, ["world.v2.occluder.gz", "world.v2.occluder"]);
});

Deno.test("pairSidecars: refuses non-pack names and the fields sidecar itself", () => {
  for (const bad of ["base.nav.zip", "base", "dir/.nav", "base.occluder.gz"]) {
    const e = assertThrows(() => pairSidecars(bad), NavscopeError) as NavscopeError;
    assertEquals(e.code, "usage");
  }
  const e = assertThrows(
    () => pairSidecars("d/base.fields.nav.gz"),
    NavscopeError,
  ) as NavscopeError;
  assert(e.message.includes("base.nav.gz"), e.message);
});

Deno.test("sidecarStatus: reports the first existing candidate of each", async () => {
  const dir = await Deno.makeTempDir();
  const p = pairSidecars(`${dir}/base.nav.gz`);
  assertEquals(await sidecarStatus(p), { main: false, fields: null, occluder: null, nogo: null });
  for (const f of ["base.nav.gz", "base.fields.nav", "base.occluder", "base.nogo.json"]) {
    await Deno.writeFile(`${dir}/${f}`, new Uint8Array(1));
  }
  await Deno.mkdir(`${dir}/base.occluder.gz`); // a directory is not a pack
  assertEquals(await sidecarStatus(p), {
    main: true,
    fields: `${dir}/base.fields.nav`,
    occluder: `${dir}/base.occluder`,
    nogo: `${dir}/base.nogo.json`,
  });
  await Deno.writeFile(`${dir}/base.fields.nav.gz`, new Uint8Array(1));
  assertEquals((await sidecarStatus(p)).fields, `${dir}/base.fields.nav.gz`);
  await Deno.remove(dir, { recursive: true });
});
