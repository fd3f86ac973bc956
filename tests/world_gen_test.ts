/**
 * Procedural world generator: determinism, manifest validity, conforming sheets and risers,
 * landmark coverage of every feature the issue lists, geometry at the landmarks (slopes, stairs,
 * stacked decks, water, islands, manifoldness), and the leg battery (every outcome, every
 * landmark, endpoint snapping checked against a brute-force nearest-triangle search).
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { generateWorld, WORLD_FILES, writeGeneratedWorld } from "../src/world/generator.ts";
import { MeshBuilder, ramp, Sheet } from "../src/world/gen_mesh.ts";
import { loadManifest, validateManifest } from "../src/world/manifest.ts";
import { loadZoneGeometry, type ZoneGeometry } from "../src/world/obj.ts";
import { cleanZone } from "../src/zone_mesh/zone_clean.ts";
import { closestOnTriangle } from "../src/zone_mesh/geom.ts";
import { encodeLegs, LEG_OUTCOMES, parseLegs } from "../src/legs/format.ts";
import { encodeLandmarks, parseLandmarks } from "../src/world/landmarks.ts";
import { NavscopeError } from "../src/errors.ts";

const world = generateWorld({ seed: 1, scale: 1 });

let geomCache: ZoneGeometry | null = null;
async function geometry(): Promise<ZoneGeometry> {
  if (geomCache) return geomCache;
  const dir = await Deno.makeTempDir();
  await writeGeneratedWorld(world, dir);
  const m = await loadManifest(`${dir}/${WORLD_FILES.manifest}`);
  geomCache = await loadZoneGeometry(m.zones[0]);
  await Deno.remove(dir, { recursive: true });
  return geomCache;
}

/** Triangles with a non-zero plan area whose plan view contains (x, y): height and flags. */
function trianglesAt(g: ZoneGeometry, x: number, y: number): { h: number; flags: number }[] {
  const out: { h: number; flags: number }[] = [];
  const v = g.vertices, t = g.triangles;
  for (let i = 0; i < t.length / 3; i++) {
    const [a, b, c] = [3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2]];
    const cr = (p: number, q: number, px: number, py: number) =>
      (v[q] - v[p]) * (py - v[p + 1]) - (v[q + 1] - v[p + 1]) * (px - v[p]);
    const area = cr(a, b, v[c], v[c + 1]);
    if (area === 0) continue;
    const s = Math.sign(area);
    if (s * cr(a, b, x, y) >= 0 && s * cr(b, c, x, y) >= 0 && s * cr(c, a, x, y) >= 0) {
      out.push({ h: (v[a + 2] + v[b + 2] + v[c + 2]) / 3, flags: g.surfaceFlags[i] });
    }
  }
  return out;
}

/** Distance from (x, y) to the nearest walkable triangle (brute force). */
function nearestWalkable(g: ZoneGeometry, x: number, y: number): number {
  let best = Infinity;
  const out = new Float64Array(2);
  for (let i = 0; i < g.triangles.length / 3; i++) {
    if ((g.surfaceFlags[i] & 0x00020cdd) === 0) continue;
    best = Math.min(best, closestOnTriangle(g.vertices, g.triangles, i, x, y, out));
  }
  return best;
}

Deno.test("gen: same seed → byte-identical files; another seed differs", () => {
  const again = generateWorld({ seed: 1, scale: 1 });
  assertEquals([...again.files.keys()], [...world.files.keys()]);
  for (const [k, v] of world.files) assert(again.files.get(k) === v, `file ${k} differs`);
  const other = generateWorld({ seed: 2, scale: 1 });
  assert(other.files.get("map01base.obj") !== world.files.get("map01base.obj"));
  assertEquals(other.landmarks.length, world.landmarks.length);
});

Deno.test("gen: the manifest validates, with a base zone, a tier zone and the px→world scale", () => {
  const text = world.files.get(WORLD_FILES.manifest)!;
  const m = validateManifest(JSON.parse(text), "/tmp/x/world.json");
  assertEquals(m.zones.map((z) => z.name), ["map01base", "map01lv001"]);
  const [base, tier] = m.zones;
  assert(base.affine.sx >= 1.33 && base.affine.sx <= 1.42, "px → world scale 1.33–1.42 m/px");
  assertEquals(tier.parent, "map01base");
  assertEquals(tier.meshes.length, 0);
  assertEquals(tier.floorY, 16);
  assertEquals(base.noGo.length, 2);
  assertEquals(base.noGo.filter((n) => n.floorY === 16).length, 1);
  assertEquals(base.offMeshLinks.map((l) => l.bidirectional), [false, true, false]);
  assertEquals(m.zones[0].meshes[0].surfaces, { water: 2 });
});

Deno.test("gen: scale bounds and sizes", () => {
  assertThrows(() => generateWorld({ seed: 1, scale: 0 }), NavscopeError);
  assertThrows(() => generateWorld({ seed: 1, scale: 1.5 }), NavscopeError);
  const big = generateWorld({ seed: 1, scale: 3 });
  assertEquals(big.stats.sizePx, 6 * 240 + 6);
  // Repeated blocks add geometry but no landmarks or legs.
  assertEquals(big.landmarks.length, world.landmarks.length);
  assert(big.stats.estimatedRecords > 8 * world.stats.estimatedRecords);
});

Deno.test("sheet: neighbours of equal height share vertices, holes emit nothing, risers close steps", () => {
  const s = new Sheet();
  s.add({ layer: 0, x0: 0, y0: 0, x1: 2, y1: 1, h: 0, group: "a" });
  s.add({ layer: 0, x0: 2, y0: 0, x1: 3, y1: 1, h: ramp("x", 2, 3, 0, 1), group: "b" });
  s.add({ layer: 0, x0: 3, y0: 0, x1: 4, y1: 1, h: 1.5, group: "c", risers: "W" });
  s.add({ layer: 0, x0: 0.5, y0: 0.25, x1: 1, y1: 0.75, h: 0, group: "hole", hole: true });
  const m = new MeshBuilder();
  s.emit(m);
  const a = m.arrays();
  // Break lines x: 0, 0.5, 1, 2, 3, 4; y: 0, 0.25, 0.75, 1 → 15 cells, 1 hole → 14 quads, plus
  // one riser quad per row (1.0 → 1.5 between b and c).
  assertEquals(a.triangles.length / 3, 2 * 14 + 2 * 3);
  assertEquals(a.groups, ["a", "b", "c", "riser"]);
  // The ramp's top edge meets c's riser at h = 1; the ramp's foot shares a's vertices at h = 0.
  const at = (x: number, y: number, h: number) => {
    for (let i = 0; i < a.vertices.length; i += 3) {
      if (a.vertices[i] === x && a.vertices[i + 1] === y && a.vertices[i + 2] === h) return true;
    }
    return false;
  };
  assert(at(2, 0, 0) && at(3, 0, 1) && at(3, 0, 1.5) && !at(2, 0, 0.5));
  const obj = m.toObj(["t"]);
  assert(obj.startsWith("# t\nv 0 0 0\n"), obj.slice(0, 40));
});

Deno.test("gen: every feature of the issue has a landmark", () => {
  const names = new Set(world.landmarks.map((l) => l.name));
  const required = [
    "street_grid",
    "plaza",
    "kerb",
    "bump_100",
    "bump_125",
    "dip_075",
    "slope_30",
    "slope_44",
    "slope_55",
    "slope_65",
    "slope_75",
    "building_a",
    "stairs_05",
    "stairs_10",
    "balcony",
    "roof_a",
    "arcade",
    "facade_a",
    "bridge",
    "footbridge",
    "river",
    "river_bank",
    "ledge_plain",
    "ledge_railing",
    "ledge_overhang",
    "ledge_kerb",
    "ledge_terrace",
    "mesa",
    "crack_050",
    "crack_075",
    "crack_100",
    "seam_gap",
    "seam_step",
    "hole_single",
    "hole_field",
    "hole_mid",
    "hole_large",
    "islands",
    "plateau_oneway",
    "plateau_twoway",
    "ledge_link",
    "nogo_base",
    "nogo_floor",
    "high_deck",
    "thin_beam",
    "empty_lot",
  ]; // deno-fmt-ignore
  for (const r of required) assert(names.has(r), `landmark ${r}`);
  const text = encodeLandmarks(world.landmarks);
  assertEquals(parseLandmarks(text, "x").length, world.landmarks.length);
  assertThrows(() => parseLandmarks('{"format":"nope"}', "x"), NavscopeError);
});

Deno.test("gen: geometry at the landmarks", async () => {
  const g = await geometry();
  const lm = (n: string) => world.landmarks.find((l) => l.name === n)!;
  const P = (n: string, k: string) => lm(n).points![k];
  // Bridge over the street: deck (6 m) and street (0 m) in the same column.
  const deck = P("bridge", "deck");
  const hs = trianglesAt(g, deck[0] + 0.1, deck[1] + 0.1).map((t) => Math.round(t.h * 100) / 100);
  assert(hs.includes(0) && hs.includes(6), `bridge column ${hs}`);
  // Link ledge: a 2-m slab (≤ kClimb, > kBumpUp) alone in its column; the ladder's foot on the
  // ground next to it.
  const top = P("ledge_link", "link_top"), foot = P("ledge_link", "link_foot");
  assertEquals(trianglesAt(g, top[0] + 0.1, top[1] + 0.1).map((t) => t.h), [2]);
  assertEquals(trianglesAt(g, foot[0] + 0.1, foot[1] + 0.1).map((t) => t.h), [0]);
  // Footbridge: walkable 0.3 m deck over water (flag 0x2 only).
  const fb = trianglesAt(g, lm("footbridge").at[0], lm("footbridge").at[1]);
  assert(
    fb.some((t) => t.flags === 2) && fb.some((t) => t.flags === 1 && Math.abs(t.h - 0.3) < 1e-3),
    JSON.stringify(fb),
  );
  // Building: ground floor, floors 2 and 3 and the roof stacked.
  const b = lm("roof_a").at;
  const stack = trianglesAt(g, b[0] + 0.1, b[1] + 0.1).map((t) => t.h).sort((x, y) => x - y);
  assertEquals(stack.map((h) => Math.round(h)), [0, 4, 8, 12]);
  // Slopes: rise per px along the ramp = tan θ (planner frame).
  for (const deg of [30, 44, 55, 65, 75]) {
    const r = lm(`slope_${deg}`).rect!;
    const v = g.vertices;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < v.length; i += 3) {
      if (v[i + 1] === Math.fround(r[1]) && v[i] >= r[0] - 1e-4 && v[i] <= r[2] + 1e-4) {
        lo = Math.min(lo, v[i + 2]);
        hi = Math.max(hi, v[i + 2]);
      }
    }
    const tan = (hi - lo) / (r[2] - r[0]);
    assert(Math.abs(tan - Math.tan((deg * Math.PI) / 180)) < 1e-3, `slope ${deg}: ${tan}`);
  }
  // No edge is shared by more than two triangles (the baker rejects non-manifold zones).
  const count = new Map<string, number>();
  for (let i = 0; i < g.triangles.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = g.triangles[i + k], c = g.triangles[i + (k + 1) % 3];
      const key = a < c ? `${a},${c}` : `${c},${a}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  assertEquals([...count.values()].filter((n) => n > 2).length, 0);
  // Islands: small components (≤ 512 triangles) marked by zone cleaning.
  const zc = cleanZone(
    { name: "map01base", zoneId: 1, firstTri: 0, ...g } as Parameters<typeof cleanZone>[0],
  );
  assert(zc.stats.islandTriangles > 0 && zc.stats.islandTriangles < zc.stats.triangles / 2);
});

Deno.test("gen: the leg battery covers every outcome and every landmark", async () => {
  const legs = world.legs;
  const outcomes = new Set(legs.map((l) => l.expected));
  for (const o of LEG_OUTCOMES) assert(outcomes.has(o), `outcome ${o}`);
  const covered = new Set(legs.flatMap((l) => l.landmarks));
  for (const l of world.landmarks) {
    if (l.kind === "water" || l.kind === "lot" || l.name === "street_inner") continue;
    assert(covered.has(l.name), `landmark ${l.name} has no leg`);
  }
  assertEquals(new Set(legs.map((l) => l.id)).size, legs.length);
  assertEquals(parseLegs(encodeLegs(legs), "x"), JSON.parse(encodeLegs(legs)).legs);
  const g = await geometry();
  for (const l of legs) {
    if (l.zone !== "map01base") continue;
    const ds = nearestWalkable(g, l.start[0], l.start[1]);
    const dg = nearestWalkable(g, l.goal[0], l.goal[1]);
    if (l.expected === "snap_far_from_mesh") {
      assert(ds > 16, `${l.id}: start ${ds} px from the mesh`);
    } else assert(ds < 1e-6 && dg < 1e-6, `${l.id}: endpoints on the mesh (${ds}, ${dg})`);
  }
});

Deno.test("legs: validation errors name the JSON path", () => {
  const bad = (legs: unknown, path: string) => {
    const e = assertThrows(
      () => parseLegs(JSON.stringify({ format: "navscope-legs", version: 1, legs }), "b.json"),
      NavscopeError,
    );
    assert(e.message.includes(path) && e.message.includes("b.json"), e.message);
  };
  const ok = {
    id: "a",
    zone: "z",
    start: [0, 0],
    goal: [1, 1],
    expected: "ok",
    landmarks: [],
    note: "",
  };
  bad([{ ...ok, expected: "fine" }], "$.legs[0].expected");
  bad([{ ...ok, start: [0] }], "$.legs[0].start");
  bad([{ ...ok, extra: 1 }], "$.legs[0].extra");
  bad([ok, ok], "$.legs[1].id");
  bad([{ ...ok, no_go_discs: [{ x: 0, y: 0, r: 0 }] }], "$.legs[0].no_go_discs[0]");
  bad([{ ...ok, overrides: { max_cell: 5 } }], "$.legs[0].overrides.max_cell");
  bad([{ ...ok, overrides: { relax_closed: 1 } }], "$.legs[0].overrides.relax_closed");
  bad([{ ...ok, overrides: { window: [0, 0, 0, 4] } }], "$.legs[0].overrides.window");
  bad([{ ...ok, overrides: [] }], "$.legs[0].overrides");
  const knobs = { max_cells: 9, cancel_before_tier: 0, window: [1, 2, 3, 4], relax_closed: true };
  assertEquals(
    parseLegs(
      JSON.stringify({ format: "navscope-legs", version: 1, legs: [{ ...ok, overrides: knobs }] }),
      "b.json",
    ).length,
    1,
  );
  assertEquals(
    parseLegs(JSON.stringify({ format: "navscope-legs", version: 1, legs: [ok] }), "b.json").length,
    1,
  );
});

Deno.test("gen command: writes the world folder; bad flags are usage errors", async () => {
  const { run } = await import("../commands/gen.ts");
  const tmp = await Deno.makeTempDir();
  const log = console.log;
  console.log = () => {};
  try {
    assertEquals(await run(["--seed", "1", "--scale", "1", "--out", `${tmp}/w`]), 0);
    for (const [name, text] of world.files) {
      assertEquals(await Deno.readTextFile(`${tmp}/w/${name}`), text);
    }
    for (
      const bad of [
        ["--out", tmp, "--scale", "0"],
        ["--seed", "x", "--out", tmp],
        ["--scale", "1"],
        [
          "--out",
          tmp,
          "--real",
          "nope",
        ],
        ["--out", tmp, "--zone", "a b"],
        ["--bogus"],
      ]
    ) {
      let err: unknown = null;
      try {
        await run(bad);
      } catch (e) {
        err = e;
      }
      assert(err instanceof NavscopeError && err.code === "usage", `${bad}: ${err}`);
    }
  } finally {
    console.log = log;
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("real meshes: Recast pf lines become legs; a malformed line names its line", async () => {
  const { realMesh, recastTestLegs, realMeshManifest } = await import(
    "../src/world/real_meshes.ts"
  );
  const s = realMesh("nav_test");
  const legs = recastTestLegs(
    "s Solo Mesh\nf nav_test.obj\npf 1 -2 3  4 -5 6  0x3 0x0\n",
    s,
    "t.txt",
  );
  assertEquals(legs.length, 1);
  assertEquals(legs[0].start, [1 * 0.75 + 24, 3 * 0.75 + 37]);
  assertEquals([legs[0].start_floor_y, legs[0].goal_floor_y], [-2, -5]);
  const e = assertThrows(() => recastTestLegs("pf 1 2 x\n", s, "t.txt"), NavscopeError);
  assert(e.message.includes("t.txt") && e.message.includes("line 1"), e.message);
  const m = validateManifest(realMeshManifest(s, "."), "/r/examples/nav_test/world.json");
  assertEquals(m.zones[0].meshes[0].file, "/r/examples/nav_test/nav_test.obj");
  assertEquals(
    validateManifest(realMeshManifest(s, "../src"), "/r/out/world.json").zones[0].meshes[0].file,
    "/r/src/nav_test.obj",
  );
  assertEquals(m.zones[0].meshes[0].maxSlopeDeg, 45);
  assertThrows(() => realMesh("nope"), NavscopeError);
});

Deno.test("gen: repeated blocks of larger worlds get relief that vanishes on block edges", async () => {
  const { parseObj } = await import("../src/world/obj.ts");
  const w = generateWorld({ seed: 3, scale: 2 });
  const obj = parseObj(w.files.get("map01base.obj")!, "big.obj");
  const p = obj.positions; // x, h, z (y-up)
  let relief = 0, edgeMax = 0;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i], h = p[i + 1], y = p[i + 2];
    const repeated = x >= 480 || y >= 480; // blocks (2..3, *) and (*, 2..3) of a 4×4 world
    if (!repeated) continue;
    const onEdge = x % 240 === 0 || y % 240 === 0;
    const frac = Math.abs(h * 4 - Math.round(h * 4));
    if (!onEdge && frac > 1e-3) relief++;
    // Feature heights are multiples of 0.05 m (up to the 1/4096 rounding); relief is not.
    if (onEdge) edgeMax = Math.max(edgeMax, Math.abs(h * 20 - Math.round(h * 20)) > 2e-3 ? 1 : 0);
  }
  assert(relief > 1000, `relief vertices ${relief}`);
  assertEquals(edgeMax, 0);
  const count = new Map<string, number>();
  const t = obj.triangles;
  for (let i = 0; i < t.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = t[i + k], c = t[i + (k + 1) % 3];
      const key = a < c ? a * 4194304 + c : c * 4194304 + a;
      count.set(String(key), (count.get(String(key)) ?? 0) + 1);
    }
  }
  assertEquals([...count.values()].filter((n) => n > 2).length, 0);
});
