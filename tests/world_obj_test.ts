import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  importObj,
  loadManifest,
  loadZoneGeometry,
  loadZoneOccluders,
  parseObj,
} from "../src/world/mod.ts";
import { cleanZone } from "../src/zone_mesh/mod.ts";

const FIXTURE = new URL("./fixtures/worlds/small/", import.meta.url).pathname;

function objError(text: string): NavscopeError {
  return assertThrows(() => parseObj(text, "t.obj"), NavscopeError) as NavscopeError;
}

Deno.test("obj: polygons fan-triangulated; v/vt/vn forms; negative indices; names", () => {
  const o = parseObj(
    [
      "o box",
      "v 0 0 0",
      "v 1 0 0",
      "v 1 0 1",
      "v 0 0 1",
      "g top",
      "usemtl Grass",
      "f 1/1/1 2//1 3/2 4",
      "g side",
      "f -4 -2 -1",
    ].join("\n"),
    "t.obj",
  );
  assertEquals(Array.from(o.triangles), [0, 1, 2, 0, 2, 3, 0, 2, 3]);
  assertEquals(o.groups, ["", "top", "side"]);
  assertEquals(Array.from(o.triGroup), [1, 1, 2]);
  assertEquals(Array.from(o.triObject), [1, 1, 1]);
  assertEquals(o.materials[o.triMaterial[2]], "Grass");
  assertEquals(Array.from(o.triLine), [8, 8, 10]);
  assertEquals(o.stats.faces, 2);
});

Deno.test("obj: errors carry file and line", () => {
  const cases: [string, number, RegExp][] = [
    ["v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4", 4, /vertex 4.*3 vertices/],
    ["v 0 0 0\nf 0 1 1", 2, /index 0/],
    ["v 0 0 0\nv 1 0 0\nf -3 -1 -2", 3, /relative vertex -3/],
    ["v 0 0 0\nv 1 nan 0", 2, /coordinate 2 is 'nan'/],
    ["v 0 0 Infinity", 1, /'Infinity'/],
    ["v 0 0 1e999", 1, /'1e999'/],
    ["v 0 0", 1, /2 coordinates/],
    ["v 0 0 0\nv 1 0 0\n\n# c\nf 1 2", 5, /2 vertices/],
    ["v 0 0 0\nf 1 a 1", 2, /'a' is not an index/],
  ];
  for (const [text, line, re] of cases) {
    const e = objError(text);
    assertEquals(e.where.file, "t.obj");
    assertEquals(e.where.line, line, text);
    assert(re.test(e.message), `${e.message} !~ ${re}`);
    assert(e.message.includes("line " + line), e.message);
  }
});

Deno.test("obj: degenerate triangles counted and dropped; forward references allowed", () => {
  const o = parseObj("f 1 2 3\nf 1 1 2\nv 0 0 0\nv 1 0 0\nv 0 0 1", "t.obj");
  assertEquals(o.stats.degenerate, 1);
  assertEquals(o.triangles.length, 3);
  // Collinear (zero area) triangles are dropped at import.
  const c = parseObj("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 4", "c.obj");
  const m = importObj(c, { pxPerM: 1, up: "y", offsetPx: [0, 0], offsetH: 0, surfaceOf: () => 1 });
  assertEquals(m.stats.degenerateArea, 1);
  assertEquals(m.triangles.length, 3);
});

Deno.test("obj: import axes — y-up and z-up, scale, offsets, CCW", () => {
  const o = parseObj("v 1 2 3\nv 2 2 3\nv 1 2 4\nf 1 2 3", "a.obj");
  const y = importObj(o, {
    pxPerM: 4,
    up: "y",
    offsetPx: [10, 20],
    offsetH: 0.5,
    surfaceOf: () => 1,
  });
  assertEquals(Array.from(y.vertices.subarray(0, 3)), [14, 32, 2.5]);
  const z = importObj(o, {
    pxPerM: 4,
    up: "z",
    offsetPx: [10, 20],
    offsetH: 0,
    surfaceOf: () => 1,
  });
  assertEquals(Array.from(z.vertices.subarray(0, 3)), [14, 12, 3]);
  const cross = (m: typeof y) => {
    const t = m.triangles, v = m.vertices;
    return (v[3 * t[1]] - v[3 * t[0]]) * (v[3 * t[2] + 1] - v[3 * t[0] + 1]) -
      (v[3 * t[1] + 1] - v[3 * t[0] + 1]) * (v[3 * t[2]] - v[3 * t[0]]);
  };
  assert(cross(y) > 0, "CCW after import");
  assertEquals(cross(z), 0); // with z up this triangle is a vertical wall: flat in plan
});

Deno.test("obj: slope rule uses metres (px per metre divides the run)", () => {
  // Rise 1 m over a run of 1 m: 45°. With 4 px/m the run is 4 px but the slope is still 45°.
  const o = parseObj("v 0 0 0\nv 1 1 0\nv 0 0 1\nf 1 3 2", "s.obj"); // wound to face up
  const opts = {
    pxPerM: 4,
    up: "y" as const,
    offsetPx: [0, 0] as const,
    offsetH: 0,
    surfaceOf: () => 1,
  };
  assertEquals(importObj(o, { ...opts, maxSlopeDeg: 46 }).surfaceFlags[0], 1);
  const steep = importObj(o, { ...opts, maxSlopeDeg: 44, steepSurface: 2 });
  assertEquals([steep.surfaceFlags[0], steep.stats.steep], [2, 1]);
});

Deno.test("world: fixture manifest loads; surfaces, exclusion, weld, occluders", async () => {
  const w = await loadManifest(FIXTURE + "manifest.json");
  assertEquals(w.zones.map((z) => [z.id, z.name, z.parent]), [[1, "base", undefined], [
    2,
    "base_tier1",
    "base",
  ]]);
  const base = w.zones[0];
  assertEquals(base.meshes[0].file, FIXTURE + "ground.obj");
  assertEquals(base.meshes[0].surfaces, { ramp: 1025, water: 2 });
  assertEquals(base.offMeshLinks[0], {
    a: [9, 9, 0],
    b: [20, 12, 1],
    radius: 1.5,
    cost: 2,
    bidirectional: false,
  });
  assertEquals(base.noGo[0].floorY, 0);
  assertEquals(w.zones[1].affine, { sx: 0.5, tx: 8, sy: 0.5, ty: 8 });
  const g = await loadZoneGeometry(base);
  assertEquals(g.triangles.length / 3, 10);
  assertEquals(g.vertices.length / 3, 12);
  assertEquals(g.meshStats[0].degenerateIndex, 1);
  assertEquals(g.meshStats[0].excluded, 1);
  assertEquals(g.meshStats[0].welded, 2);
  assertEquals(Array.from(g.surfaceFlags), [1, 1, 1, 1, 1, 1, 2, 2, 1025, 1025]);
  // Ramp top: x = 4 m → u = 4·4 + 8 = 24 px, h = 1 m.
  let maxU = 0, maxH = 0;
  for (let i = 0; i < g.vertices.length; i += 3) {
    maxU = Math.max(maxU, g.vertices[i]);
    maxH = Math.max(maxH, g.vertices[i + 2]);
  }
  assertEquals([maxU, maxH], [24, 1]);
  // The zone cleans: water is cut off; ground + ramp form one component.
  const zc = cleanZone({ name: base.name, zoneId: base.id, ...g });
  assertEquals(zc.stats.walkable, 8);
  assertEquals(zc.stats.components, 3); // ground+ramp, and the two water triangles
  const occ = await loadZoneOccluders(base);
  assertEquals(occ[0].triangles.length / 3, 2);
});

Deno.test("world: a missing mesh file is an io error naming it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/m.json`,
      JSON.stringify({
        format: "navscope-world",
        version: 1,
        zones: [{ name: "z", size_px: [10, 10], meshes: [{ file: "sub/../nope.obj" }] }],
      }),
    );
    const w = await loadManifest(`${dir}/m.json`);
    assertEquals(w.zones[0].meshes[0].file, `${dir}/nope.obj`);
    const e = await assertRejects(loadZoneGeometry(w.zones[0])) as NavscopeError;
    assertEquals(e.code, "io");
    assertEquals(e.where.file, `${dir}/nope.obj`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("world: a zone left without triangles is an error naming the zone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.obj`, "o navmesh\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
    await Deno.writeTextFile(
      `${dir}/m.json`,
      JSON.stringify({
        format: "navscope-world",
        version: 1,
        zones: [{
          name: "z",
          size_px: [10, 10],
          meshes: [{ file: "a.obj", exclude: ["navmesh"] }],
        }],
      }),
    );
    const w = await loadManifest(`${dir}/m.json`);
    const e = await assertRejects(loadZoneGeometry(w.zones[0])) as NavscopeError;
    assertEquals(e.where.zone, "z");
    assert(/no triangles/.test(e.message));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("obj import: the slope rule is signed — faces that look down are never walkable", () => {
  // y-up: an up-facing floor (normal +y) and a down-facing slab underside 1 m higher.
  const yUp = "v 0 0 0\nv 0 0 1\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 1 1\nf 1 2 3\nf 4 5 6\n";
  // z-up: the same pair with the normal along ±z.
  const zUp = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 1 1\nv 1 0 1\nf 1 2 3\nf 4 5 6\n";
  for (const [text, up] of [[yUp, "y"], [zUp, "z"]] as const) {
    const m = importObj(parseObj(text), {
      pxPerM: 1,
      offsetPx: [0, 0],
      offsetH: 0,
      up,
      maxSlopeDeg: 45,
      surfaceOf: () => 1,
      steepSurface: 0,
    });
    assertEquals(Array.from(m.surfaceFlags), [1, 0], `up = ${up}`);
    assertEquals(m.stats.steep, 1);
  }
});
