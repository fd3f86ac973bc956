/**
 * The embedded examples (`examples/<world>/`): manifests load, leg batteries parse and name
 * zones of their world, the README documents every world and leg, the generated small world is
 * byte-identical to a fresh `gen --seed 1 --scale 1` (packs included, re-baked in memory), and
 * the real-mesh worlds match `gen --real NAME` and carry their vendored mesh, licence and source
 * note.
 */
import { assert, assertEquals } from "./assert.ts";
import { generateWorld } from "../src/world/generator.ts";
import { loadManifest } from "../src/world/manifest.ts";
import { parseLegs } from "../src/legs/format.ts";
import { REAL_MESHES, realMeshSourceDir, realMeshWorldFiles } from "../src/world/real_meshes.ts";
import { bakeManifestFile } from "../src/world/bake_world.ts";
import { gzip } from "../src/codec/mod.ts";

const root = new URL("../examples/", import.meta.url).pathname;
const SMALL = "city_small";

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

async function worlds(): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(root)) {
    if (e.isDirectory && e.name !== "demo" && await exists(`${root}${e.name}/world.json`)) {
      out.push(e.name);
    }
  }
  return out.sort();
}

Deno.test("examples: every world has a manifest, a leg battery and a README entry", async () => {
  const ws = await worlds();
  assert(ws.includes(SMALL) && ws.includes("nav_test"), `worlds: ${ws}`);
  const readme = await Deno.readTextFile(`${root}README.md`);
  for (const w of ws) {
    assert(readme.includes(`\`${w}/\``), `README misses world ${w}`);
    const legs = parseLegs(await Deno.readTextFile(`${root}${w}/legs.json`), `${w}/legs.json`);
    for (const l of legs) assert(readme.includes(`\`${l.id}\``), `README misses leg ${w}/${l.id}`);
    const m = await loadManifest(`${root}${w}/world.json`);
    const zones = new Set(m.zones.map((z) => z.name));
    for (const l of legs) assert(zones.has(l.zone), `${w}/${l.id}: unknown zone ${l.zone}`);
    for (const z of m.zones) {
      for (const mesh of z.meshes) assert(await exists(mesh.file), mesh.file);
    }
  }
});

Deno.test("examples: the small world is byte-identical to gen --seed 1 --scale 1", async () => {
  const w = generateWorld({ seed: 1, scale: 1 });
  for (const [name, text] of w.files) {
    const committed = await Deno.readTextFile(`${root}${SMALL}/${name}`);
    assert(committed === text, `${SMALL}/${name} differs from the generator's output`);
  }
});

Deno.test("examples: the small world's packs are byte-identical to a fresh bake", async () => {
  const a = await bakeManifestFile(`${root}${SMALL}/world.json`);
  const read = (f: string) => Deno.readFile(`${root}${SMALL}/${f}`);
  assertEquals(gzip(a.mainBytes), await read("base.nav.gz"));
  assertEquals(gzip(a.sidecarBytes), await read("base.fields.nav.gz"));
  assertEquals(gzip(a.occluderBytes), await read("base.occluder.gz"));
  assertEquals(a.nogoText, await Deno.readTextFile(`${root}${SMALL}/base.nogo.json`));
  const size = (await Promise.all(["base.nav.gz", "base.fields.nav.gz", "base.occluder.gz"].map(
    async (f) => (await Deno.stat(`${root}${SMALL}/${f}`)).size,
  ))).reduce((s, v) => s + v, 0);
  assert(size <= 3 * 1024 * 1024, `packs ${size} bytes > 3 MB`);
});

Deno.test({
  name: "examples: real-mesh worlds match gen --real (mesh vendored beside the manifest)",
  fn: async () => {
    for (const spec of REAL_MESHES) {
      const dir = `${root}${spec.name}/`;
      assert(await exists(`${dir}world.json`), `${spec.name}/world.json`);
      assertEquals(realMeshSourceDir(spec) + "/", dir);
      const files = await realMeshWorldFiles(spec, ".", dir);
      for (const [name, text] of files) {
        assertEquals(await Deno.readTextFile(`${dir}${name}`), text);
      }
      const m = await loadManifest(`${dir}world.json`);
      assertEquals(m.zones[0].meshes[0].file, `${dir}${spec.file}`);
      // The mesh and the packs derived from it travel with its licence and a source note.
      const licence = await Deno.readTextFile(`${dir}${spec.licence}`);
      assert(/Mikko Mononen|Isaac Mason/.test(licence), `${spec.name}: licence text`);
      const source = await Deno.readTextFile(`${dir}SOURCE.md`);
      assert(source.includes(`\`${spec.file}\``) && /`[0-9a-f]{40}`/.test(source));
    }
    const legs = parseLegs(await Deno.readTextFile(`${root}nav_test/legs.json`), "nav_test");
    assertEquals(legs.filter((l) => l.id.startsWith("recast_pf_")).length, 21);
    assertEquals(
      legs[0].start,
      [18.138550 * 0.75 + 24, -21.319118 * 0.75 + 37].map((v) => Math.round(v * 4096) / 4096),
    );
  },
});
