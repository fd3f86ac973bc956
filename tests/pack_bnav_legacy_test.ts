/**
 * BNAV versions 1–4 (flat tables at the header offsets): whole and per-zone loads, the per-field
 * "since" versions (floor_y from v3, section directory from v4), and re-encoding as v5.
 */
import {
  BGEO_SINCE,
  decodeMainPack,
  describeMainPack,
  encodeLegacyMainPack,
  encodeMainPack,
  FLOOR_Y_SINCE,
  loadZone,
  type MainPack,
  SECTION_DIR_SINCE,
  sliceZone,
} from "../src/pack/bnav/mod.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { NavscopeError } from "../src/errors.ts";
import { assert, assertEquals, assertThrows } from "./assert.ts";

/** What a pack looks like after a trip through version `v`. */
function expected(p: MainPack, v: number): MainPack {
  const old = v < SECTION_DIR_SINCE;
  return {
    ...p,
    zones: p.zones.map((z) => ({ ...z, floorY: v >= FLOOR_Y_SINCE ? z.floorY : 0 })),
    surfaces: old ? null : p.surfaces,
    offMeshLinks: old ? null : p.offMeshLinks,
    grid: old ? null : p.grid,
    extraSections: old ? [] : p.extraSections,
  };
}

Deno.test("bnav legacy: v1–v4 flat tables decode whole, per zone, and re-encode as v5", () => {
  for (let seed = 1; seed <= 8; seed++) {
    const pack = randomMainPack(seed, { zones: 1 + (seed % 4), maxTrianglesPerZone: 80 });
    for (let v = 1; v < BGEO_SINCE; v++) {
      const bytes = encodeLegacyMainPack(pack, v);
      const load = decodeMainPack(bytes, { file: `v${v}` });
      assertEquals(load.header.version, v);
      assertEquals(load.header.headerSize, v >= SECTION_DIR_SINCE ? 80 : 64);
      const want = expected(pack, v);
      assertEquals(load.pack, want, `seed ${seed} v${v}`);
      for (const z of pack.zones) {
        assertEquals(
          loadZone(bytes, z.name).pack,
          sliceZone(load.pack, z.name).pack,
          `zone ${z.name}`,
        );
      }
      // v1–3 have no directory, so no grid: such a pack cannot be re-encoded as v5 (every v5
      // pack carries BGRD) until it is given one; v4 keeps its grid.
      if (!load.pack.grid) {
        assert(v < SECTION_DIR_SINCE, `v${v} lost its grid`);
        const e = assertThrows(() => encodeMainPack(load.pack), NavscopeError) as NavscopeError;
        assertEquals([e.code, e.where.section], ["bad_value", "BGRD"]);
      }
      const v5 = encodeMainPack({ ...load.pack, grid: pack.grid });
      assertEquals(decodeMainPack(v5).pack, { ...want, grid: pack.grid });
      assertEquals(describeMainPack(bytes, { verify: true }).geometry.kind, "flat");
    }
  }
});

Deno.test("bnav legacy: v<5 keeps stored centroids (only v5 recomputes them)", () => {
  const pack = randomMainPack(4, { zones: 1, trianglesPerZone: 5 });
  pack.triangles.centroid[0] = 777;
  assertEquals(decodeMainPack(encodeLegacyMainPack(pack, 4)).pack.triangles.centroid[0], 777);
  const v5 = decodeMainPack(encodeMainPack(pack)).pack.triangles.centroid[0];
  assertEquals(v5 !== 777, true);
});
