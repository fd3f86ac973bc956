/**
 * World input checks (issue 10): manifest names that match nothing, the metres-per-unit scale,
 * the 45° slope default, float32 overflow in OBJ coordinates, binary files given as OBJ, and
 * JSON syntax errors located by line and column.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { jsonSyntaxProblem, lineColumnAt, parseJson } from "../src/codec/json.ts";
import { parseNoGoTable } from "../src/pack/nogo/table.ts";
import {
  importObj,
  loadManifest,
  loadZoneGeometry,
  parseManifest,
  parseObj,
  readObj,
} from "../src/world/mod.ts";
import { bakeManifestFile } from "../src/world/bake_world.ts";

const BAKE = new URL("./fixtures/bake/", import.meta.url).pathname;

async function withWorld(
  files: Record<string, string | Uint8Array>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "navscope-input-" });
  try {
    for (const [name, data] of Object.entries(files)) {
      if (typeof data === "string") await Deno.writeTextFile(`${dir}/${name}`, data);
      else await Deno.writeFile(`${dir}/${name}`, data);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function manifest(mesh: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: "navscope-world",
    version: 1,
    zones: [{ name: "z", size_px: [24, 24], meshes: [{ file: "m.obj", ...mesh }], ...extra }],
  });
}

const FLOOR = "g floor\nv 0 0 0\nv 0 0 20\nv 20 0 20\nv 20 0 0\nf 1 2 3\nf 1 3 4\n" +
  "g pool\nv 2 0 2\nv 2 0 4\nv 4 0 4\nf 5 6 7\n";

Deno.test("manifest names: an exclude or surfaces name that matches no OBJ group is an error", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { exclude: ["navmsh"] },
      /\$\.zones\[0\]\.meshes\[0\]\.exclude\[0\].*"navmsh" matches no OBJ group/,
    ],
    [{ surfaces: { pol: "water" } }, /\$\.zones\[0\]\.meshes\[0\]\.surfaces\["pol"\].*"pol"/],
    [{ match: "material", surfaces: { pool: "water" } }, /matches no OBJ material.*materials none/],
  ];
  for (const [mesh, re] of cases) {
    await withWorld({ "m.obj": FLOOR, "w.json": manifest(mesh) }, async (dir) => {
      const w = await loadManifest(`${dir}/w.json`);
      const e = await assertRejects(loadZoneGeometry(w.zones[0])) as NavscopeError;
      assertEquals(e.code, "bad_value");
      assert(re.test(e.message), e.message);
      assert(e.message.startsWith(`${dir}/w.json: `), e.message);
      assert(/groups "floor", "pool"/.test(e.message) || /materials/.test(e.message), e.message);
    });
  }
  // Occluder excludes are checked the same way; names that exist are fine.
  await withWorld({
    "m.obj": FLOOR,
    "w.json": manifest({ surfaces: { pool: "water" } }, {
      occluders: [{ file: "m.obj", exclude: ["floor", "wall"] }],
    }),
  }, async (dir) => {
    const w = await loadManifest(`${dir}/w.json`);
    await loadZoneGeometry(w.zones[0]);
    const e = await assertRejects(bakeManifestFile(`${dir}/w.json`)) as NavscopeError;
    assert(/occluders\[0\]\.exclude\[1\].*"wall"/.test(e.message), e.message);
  });
});

Deno.test("slope: without max_slope_deg the 45° rule applies; null turns it off", () => {
  const ok = (mesh: Record<string, unknown>) =>
    parseManifest(manifest(mesh), "/w/w.json").zones[0].meshes[0].maxSlopeDeg;
  assertEquals(ok({}), 45);
  assertEquals(ok({ max_slope_deg: 60 }), 60);
  assertEquals(ok({ max_slope_deg: null }), undefined);
});

Deno.test("slope default: a ceiling (face looking down) is not walkable unless the rule is off", async () => {
  // Floor at 0 and a ceiling slab at 3 m wound to face down.
  const obj = "v 0 0 0\nv 0 0 20\nv 20 0 20\nv 20 0 0\nf 1 2 3\nf 1 3 4\n" +
    "v 0 3 0\nv 0 3 20\nv 20 3 20\nv 20 3 0\nf 5 7 6\nf 5 8 7\n";
  for (
    const [mesh, flags] of [[{}, [1, 1, 0, 0]], [{ max_slope_deg: null }, [1, 1, 1, 1]]] as const
  ) {
    await withWorld({ "m.obj": obj, "w.json": manifest(mesh) }, async (dir) => {
      const g = await loadZoneGeometry((await loadManifest(`${dir}/w.json`)).zones[0]);
      assertEquals(Array.from(g.surfaceFlags), [...flags]);
    });
  }
});

Deno.test("m_per_unit: a 1/5-scale copy of a mesh bakes to the same regions as the original", async () => {
  const text = await Deno.readTextFile(`${BAKE}world.obj`);
  // Every coordinate divided by 5 (the model built at 1/5 scale).
  const small = text.split("\n").map((l) =>
    l.startsWith("v ")
      ? "v " + l.slice(2).trim().split(/\s+/).map((x) => String(Number(x) / 5)).join(" ")
      : l
  ).join("\n");
  const m = JSON.parse(await Deno.readTextFile(`${BAKE}manifest.json`));
  m.zones = [m.zones[0]];
  m.zones[0].occluders = [];
  m.zones[0].off_mesh_links = [];
  const bake = async (obj: string, mesh: Record<string, unknown>) => {
    let out: Awaited<ReturnType<typeof bakeManifestFile>> | null = null;
    const mm = structuredClone(m);
    Object.assign(mm.zones[0].meshes[0], { file: "m.obj" }, mesh);
    await withWorld({ "m.obj": obj, "w.json": JSON.stringify(mm) }, async (dir) => {
      out = await bakeManifestFile(`${dir}/w.json`);
    });
    return out!.report.zones[0];
  };
  const full = await bake(text, {});
  const scaled = await bake(small, { m_per_unit: 5 });
  const naive = await bake(small, { px_per_m: 5 }); // horizontal only: heights stay 1/5
  assert(full.grid!.regions > 1, "the fixture has several regions");
  assertEquals(
    [scaled.grid!.regions, scaled.grid!.spans, scaled.grid!.components, scaled.walkable],
    [full.grid!.regions, full.grid!.spans, full.grid!.components, full.walkable],
  );
  assert(
    naive.grid!.regions !== full.grid!.regions || naive.grid!.components !== full.grid!.components,
    "scaling x/z alone gives different regions (the steps become 1/5 as high)",
  );
  const bad = assertThrows(() => parseManifest(manifest({ m_per_unit: 0 }), "/w/w.json"));
  assert(/meshes\[0\]\.m_per_unit: is 0/.test(bad.message), bad.message);
});

Deno.test("obj: coordinates beyond float32 are errors with file:line, also after scaling", () => {
  const e = assertThrows(() => parseObj("v 0 0 0\nv 1e308 0 0\n", "big.obj"), NavscopeError);
  assert(/big\.obj: line 2: vertex coordinate 1 is '1e308'.*float32/.test(e.message), e.message);
  const o = parseObj("v 0 0 0\nv 1 0 0\nv 3e38 0 1\nf 1 2 3\n", "s.obj");
  const e2 = assertThrows(
    () => importObj(o, { pxPerM: 4, up: "y", offsetPx: [0, 0], offsetH: 0, surfaceOf: () => 1 }),
    NavscopeError,
  );
  assert(/s\.obj: line 3: vertex 3 becomes u = Infinity/.test(e2.message), e2.message);
});

Deno.test("obj: a .glb, gzip or other non-OBJ file is 'not an OBJ file'", async () => {
  const glb = new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);
  await withWorld({
    "a.glb": glb,
    "b.gz": new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]),
    "c.json": '{"not": "an obj"}\n',
  }, async (dir) => {
    for (
      const [f, re] of [["a.glb", /binary glTF/], ["b.gz", /gzip/], [
        "c.json",
        /none of its 2 lines/,
      ]]
    ) {
      const e = await assertRejects(readObj(`${dir}/${f}`)) as NavscopeError;
      assert(e.message.includes(`${dir}/${f}`) && /not an OBJ file/.test(e.message), e.message);
      assert((re as RegExp).test(e.message), e.message);
    }
  });
});

Deno.test("json: syntax errors name line and column (manifest, no-go table)", () => {
  assertEquals(lineColumnAt("ab\ncd\nef", 4), { line: 2, column: 2 });
  const p = jsonSyntaxProblem(
    '{\n  "a": 1,\n  x\n}',
    (() => {
      try {
        JSON.parse('{\n  "a": 1,\n  x\n}');
      } catch (e) {
        return e;
      }
    })(),
  );
  assertEquals([p.line, p.column], [3, 3]);
  assert(!/position/.test(p.message), p.message);
  const e = assertThrows(() => parseJson('{"a": [1, 2', { file: "x.json" })) as NavscopeError;
  assertEquals([e.where.line, e.where.column], [1, 12]);
  const m = assertThrows(
    () => parseManifest('{\n  "format": "navscope-world",\n  "version": 1,,\n}', "w.json"),
    NavscopeError,
  );
  assert(/^w\.json: line 3, column 16: not valid JSON/.test(m.message), m.message);
  const n = assertThrows(() => parseNoGoTable('{\n "format": x}', "t.nogo.json"), NavscopeError);
  assert(/t\.nogo\.json: no-go table, line 2, column 12:/.test(n.message), n.message);
});
