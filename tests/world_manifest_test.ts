import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { parseManifest, resolvePath, SURFACE_PRESETS, validateManifest } from "../src/world/mod.ts";

/** A valid manifest; tests break one field at a time. */
function good(): Record<string, unknown> {
  return {
    format: "navscope-world",
    version: 1,
    name: "w",
    zones: [
      {
        name: "base",
        size_px: [100, 50],
        origin_px: [10, 20],
        floor_y: 2,
        affine: { sx: 1, tx: 0, sy: 1, ty: 0 },
        meshes: [{
          file: "meshes/ground.obj",
          px_per_m: 3,
          up: "z",
          match: "material",
          surfaces: { Water: "water", Lava: 0x100 },
          default_surface: 1,
        }],
        occluders: [{ file: "/abs/occ.obj" }],
        off_mesh_links: [{ a: [11, 21, 0], b: [50, 40, 3] }],
        no_go: [{ rings: [[[10, 20], [30, 20], [30, 40]]] }],
      },
      { name: "tier", size_px: [20, 20], parent: "base", affine: { sx: 2, tx: 5, sy: 2, ty: 5 } },
    ],
  };
}

// deno-lint-ignore no-explicit-any
function fails(mutate: (m: any) => void, path: string, re?: RegExp): NavscopeError {
  const m = good();
  mutate(m);
  const e = assertThrows(
    () => validateManifest(m, "/w/world.json"),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.where.file, "/w/world.json");
  assertEquals(e.where.section, path, e.message);
  assert(e.message.startsWith("/w/world.json: "), e.message);
  if (re) assert(re.test(e.message), `${e.message} !~ ${re}`);
  return e;
}

Deno.test("manifest: a valid manifest, defaults and resolved paths", () => {
  const w = validateManifest(good(), "/w/world.json");
  assertEquals(w.dir, "/w");
  const z = w.zones[0];
  assertEquals([z.id, z.name, z.originPx, z.floorY], [1, "base", [10, 20], 2]);
  const m = z.meshes[0];
  assertEquals(m.file, "/w/meshes/ground.obj");
  assertEquals([m.pxPerM, m.up, m.match, m.weld, m.steepSurface], [3, "z", "material", true, 0]);
  assertEquals(m.surfaces, { Lava: 0x100, Water: SURFACE_PRESETS.water });
  assertEquals(z.occluders[0].file, "/abs/occ.obj");
  assertEquals(z.offMeshLinks[0], {
    a: [11, 21, 0],
    b: [50, 40, 3],
    radius: 1,
    cost: 1,
    bidirectional: true,
  });
  assertEquals(z.noGo[0].floorY, undefined);
  const t = w.zones[1];
  assertEquals([t.id, t.parent, t.meshes.length, t.floorY], [2, "base", 0, 0]);
  assertEquals(resolvePath("/a/b", "../c/./d.obj"), "/a/c/d.obj");
});

Deno.test("manifest: each bad field is reported with its JSON path", () => {
  fails((m) => (m.format = "x"), "$.format");
  fails((m) => (m.version = 2), "$.version", /expected 1/);
  fails((m) => (m.zones = []), "$.zones", /at least 1/);
  fails((m) => (m.extra = 1), "$.extra", /not a known key/);
  fails((m) => (m.zones[0].size_px = [100, 0]), "$.zones[0].size_px");
  fails((m) => (m.zones[0].size_px = [100]), "$.zones[0].size_px", /exactly 2/);
  fails((m) => (m.zones[0].floor_y = "2"), "$.zones[0].floor_y", /finite number/);
  fails((m) => (m.zones[0].affine.sx = 0), "$.zones[0].affine", /zero scale/);
  fails((m) => delete m.zones[0].affine.ty, "$.zones[0].affine.ty", /missing/);
  fails((m) => (m.zones[0].meshes = []), "$.zones[0].meshes");
  fails((m) => (m.zones[0].meshes[0].px_per_m = -1), "$.zones[0].meshes[0].px_per_m");
  fails((m) => (m.zones[0].meshes[0].up = "x"), "$.zones[0].meshes[0].up");
  fails((m) => (m.zones[0].meshes[0].file = ""), "$.zones[0].meshes[0].file");
  fails(
    (m) => (m.zones[0].meshes[0].surfaces.Water = "lava"),
    '$.zones[0].meshes[0].surfaces["Water"]',
  );
  fails(
    (m) => (m.zones[0].meshes[0].surfaces.Water = 1.5),
    '$.zones[0].meshes[0].surfaces["Water"]',
  );
  fails((m) => (m.zones[0].meshes[0].max_slope_deg = 91), "$.zones[0].meshes[0].max_slope_deg");
  fails((m) => (m.zones[0].meshes[0].weld = "yes"), "$.zones[0].meshes[0].weld");
  fails((m) => (m.zones[0].meshes[0].colour = 1), "$.zones[0].meshes[0].colour");
  fails((m) => (m.zones[0].occluders[0].match = "group"), "$.zones[0].occluders[0].match");
  fails((m) => (m.zones[0].off_mesh_links[0].a = [11, 21]), "$.zones[0].off_mesh_links[0].a");
  fails((m) => (m.zones[0].off_mesh_links[0].a[2] = null), "$.zones[0].off_mesh_links[0].a[2]");
  fails((m) => (m.zones[0].off_mesh_links[0].radius = 0), "$.zones[0].off_mesh_links[0].radius");
  fails(
    (m) => (m.zones[0].off_mesh_links[0].b = [500, 40, 3]),
    "$.zones[0].off_mesh_links[0].b",
    /outside/,
  );
  fails(
    (m) => (m.zones[0].off_mesh_links[0].b = [11, 21, 0]),
    "$.zones[0].off_mesh_links[0]",
    /itself/,
  );
  fails(
    (m) => (m.zones[0].off_mesh_links[0].bidirectional = 1),
    "$.zones[0].off_mesh_links[0].bidirectional",
  );
  fails(
    (m) => (m.zones[0].no_go[0].rings[0].length = 2),
    "$.zones[0].no_go[0].rings[0]",
    /at least 3/,
  );
  fails((m) => (m.zones[0].no_go[0].rings[0][1] = [1, "a"]), "$.zones[0].no_go[0].rings[0][1][1]");
  fails((m) => (m.zones[0].no_go[0].floor_y = NaN), "$.zones[0].no_go[0].floor_y");
  fails((m) => (m.zones[1].name = "base"), "$.zones[1].name", /repeats/);
  fails((m) => (m.zones[1].parent = "nowhere"), "$.zones[1].parent", /unknown zone/);
  fails((m) => (m.zones[1].parent = "tier"), "$.zones[1].parent", /itself/);
  fails((m) => (m.zones[1].meshes = m.zones[0].meshes), "$.zones[1].meshes", /tier zone/);
  fails(
    (m) => {
      m.zones.push({ name: "t2", size_px: [1, 1], parent: "tier" });
    },
    "$.zones[2].parent",
    /tier zone/,
  );
});

Deno.test("manifest: a zone name no pack can hold is refused before baking", () => {
  const cases: [unknown, RegExp][] = [
    ["", /it is empty/],
    [" base", /white space at the start or end/],
    ["base\u3000", /white space at the start or end/], // ideographic space
    ["ba\x07se", /control character U\+0007 at index 2/],
    ["ba\u0085se", /control character U\+0085/],
    ["ba\u200dse", /format character U\+200D at index 2/],
    ["\u202ebase", /format character U\+202E at index 0/],
    [7, /is 7/],
  ];
  for (const [name, why] of cases) {
    const e = fails(
      (m) => {
        m.zones[0].name = name;
        m.zones[1].parent = name;
      },
      "$.zones[0].name",
      why,
    );
    assert(/not empty, no control .* or format/.test(e.message), e.message);
    // deno-lint-ignore no-control-regex
    assert(!/[\x00-\x1f\x7f-\x9f\u202e]/.test(e.message), JSON.stringify(e.message));
  }
  // Other scripts and inner spaces are names.
  const m = good() as { zones: { name: string; parent?: string }[] };
  m.zones[0].name = "四号 谷地";
  m.zones[1].parent = "四号 谷地";
  assertEquals(validateManifest(m, "/w/world.json").zones[0].name, "四号 谷地");
});

Deno.test("manifest: invalid JSON names the line", () => {
  const e = assertThrows(
    () => parseManifest('{\n  "format": "navscope-world",\n  "version": 1,,\n}', "/w/bad.json"),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.where.file, "/w/bad.json");
  assertEquals(e.where.line, 3);
});

Deno.test("manifest: landmarks are recorded in the manifest and checked against its zones", () => {
  const base = {
    format: "navscope-world",
    version: 1,
    zones: [{ name: "map01base", size_px: [10, 10], meshes: [{ file: "a.obj" }] }],
  };
  const ok = validateManifest(
    { ...base, landmarks: [{ name: "plaza", kind: "plaza", zone: "map01base", at: [1, 2, 0] }] },
    "/w/m.json",
  );
  assertEquals(ok.landmarks.map((l) => l.name), ["plaza"]);
  assertEquals(validateManifest(base, "/w/m.json").landmarks, []);
  const e1 = assertThrows(() =>
    validateManifest(
      { ...base, landmarks: [{ name: "x", zone: "nowhere", at: [0, 0, 0] }] },
      "/w/m.json",
    ), NavscopeError);
  assert(e1.message.includes("$.landmarks[0].zone"), e1.message);
  const e2 = assertThrows(
    () =>
      validateManifest(
        { ...base, landmarks: [{ name: "x", zone: "map01base", at: [0, 0] }] },
        "/w/m.json",
      ),
    NavscopeError,
  );
  assert(e2.message.includes("$.landmarks[0]"), e2.message);
});
