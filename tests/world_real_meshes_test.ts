/**
 * Real meshes vendored in examples/<world>/ (each with its LICENSE.txt and SOURCE.md).
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { importObj, loadManifest, loadZoneGeometry, readObj } from "../src/world/mod.ts";
import {
  buildTriangleBuckets,
  cleanZone,
  closestOnTriangle,
  snapPoint,
  triangleHeight,
} from "../src/zone_mesh/mod.ts";

/** The vendored real meshes: `examples/` of this repository. */
const EXAMPLES = new URL("../examples", import.meta.url).pathname;

/** Lexicographic strict `<` on equal-length keys. */
function keyLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

const DUNGEON = `${EXAMPLES}/dungeon/dungeon.obj`;
const TOWER = `${EXAMPLES}/tower_big/tower-big.obj`;

Deno.test({
  name: "real: Recast dungeon.obj — counts, cleaning invariants, snapping vs brute force",
  fn: async () => {
    const obj = await readObj(DUNGEON);
    // LICENSES.md: 5101 verts / 10133 tris, bbox (-25,0,-90)..(49.3,40.2,8.9).
    assertEquals([obj.stats.vertices, obj.stats.triangles, obj.stats.degenerate], [5101, 10133, 0]);
    const m = importObj(obj, {
      pxPerM: 3,
      up: "y",
      offsetPx: [100, 300],
      offsetH: 0,
      surfaceOf: () => 1,
      maxSlopeDeg: 60,
    });
    assertEquals(m.stats.triangles, 10133);
    let minU = Infinity, maxH = -Infinity;
    for (let i = 0; i < m.vertices.length; i += 3) {
      minU = Math.min(minU, m.vertices[i]);
      maxH = Math.max(maxH, m.vertices[i + 2]);
    }
    assert(Math.abs(minU - (100 - 25 * 3)) < 0.5 && Math.abs(maxH - 40.2) < 0.1, `${minU} ${maxH}`);
    const zc = cleanZone({ name: "dungeon", ...m, keepAdjacency: true });
    const s = zc.stats;
    assertEquals(s.triangles, 10133);
    // Up-facing and ≤ 45° only (the signed slope rule): floors, not ceilings or walls.
    assert(s.walkable > 2000 && s.walkable < 5000, `walkable ${s.walkable}`);
    // Invariants: symmetric adjacency between walkable triangles only; boundary bits match it;
    // every component label is its smallest member.
    const adj = zc.adjacency!;
    for (let t = 0; t < zc.triCount; t++) {
      for (let k = 0; k < 3; k++) {
        const j = adj[3 * t + k];
        assertEquals((zc.boundary[t] >> k) & 1, j < 0 ? 1 : 0);
        if (j < 0) continue;
        assert(zc.walkable[t] && zc.walkable[j]);
        assert(adj[3 * j] === t || adj[3 * j + 1] === t || adj[3 * j + 2] === t);
        assertEquals(zc.component[t], zc.component[j]);
      }
      assert(zc.component[t] <= t && zc.component[zc.component[t]] === zc.component[t]);
    }
    // Snapping vs brute force (no floor key) at random points over the bounding box.
    const b = buildTriangleBuckets(zc);
    const rnd = mulberry32(5101);
    const out = new Float64Array(2);
    let hits = 0;
    for (let q = 0; q < 150; q++) {
      const x = 25 + rnd() * 230, y = 30 + rnd() * 280;
      const got = snapPoint(zc, b, x, y);
      let best = -1, bk: number[] = [];
      for (const r of [8, 16]) {
        for (let t = 0; t < zc.triCount; t++) {
          if (!zc.walkable[t]) continue;
          const d = closestOnTriangle(zc.vertices, zc.tris, t, x, y, out);
          if (d > r) continue;
          const key = [d, -triangleHeight(zc.vertices, zc.tris, t), zc.island[t], t];
          const less = best < 0 || keyLess(key, bk);
          if (less) {
            best = t;
            bk = key;
          }
        }
        if (best >= 0) break;
      }
      assertEquals(got?.tri ?? -1, best, `query ${q} at (${x}, ${y})`);
      if (got) hits++;
    }
    assert(hits > 30, `only ${hits} snaps hit the mesh`);
  },
});

Deno.test({
  name: "real: navcat tower-big.obj — excluded navmesh object, welded glTF seams",
  fn: async () => {
    const obj = await readObj(TOWER);
    const m = importObj(obj, {
      pxPerM: 20,
      up: "y",
      offsetPx: [0, 0],
      offsetH: 0,
      surfaceOf: (_g, o) => (o === "navmesh" ? null : 1),
      maxSlopeDeg: 45,
    });
    assertEquals(m.stats.excluded + m.stats.triangles, obj.stats.triangles);
    assert(m.stats.excluded > 0 && m.stats.welded > 0 && m.stats.steep > 0);
    const zc = cleanZone({ name: "tower", ...m });
    assert(zc.stats.walkable > 0 && zc.stats.components < zc.triCount);
  },
});

const NAV_TEST = `${EXAMPLES}/nav_test/nav_test.obj`;

Deno.test({
  name: "real: Recast nav_test.obj through a manifest — quads fan-triangulated, v/vt/vn faces",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${dir}/world.json`,
        JSON.stringify({
          format: "navscope-world",
          version: 1,
          zones: [{
            name: "nav_test",
            size_px: [400, 300],
            meshes: [{ file: NAV_TEST, px_per_m: 3, offset_px: [100, 150], max_slope_deg: 50 }],
          }],
        }),
      );
      const w = await loadManifest(`${dir}/world.json`);
      const g = await loadZoneGeometry(w.zones[0]);
      // LICENSES.md: 884 verts / 792 faces (1612 tris).
      assertEquals(g.triangles.length / 3, 1612);
      assertEquals(g.meshStats[0].vertices, 884);
      const zc = cleanZone({ name: "nav_test", zoneId: w.zones[0].id, ...g });
      // Floors only: the slab undersides of this two-storey mesh face down (signed slope rule).
      assert(zc.stats.walkable > 400 && zc.stats.walkable < 806, `${zc.stats.walkable}`);
      const hit = snapPoint(zc, buildTriangleBuckets(zc), 100, 150);
      assert(hit !== null && hit.dist <= 16);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
