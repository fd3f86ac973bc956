/**
 * The world baker end to end: the fixture world (floor with a pool, ramp, 2-floor stair block,
 * bridge, water, an off-mesh link, an occluder, a no-go polygon; 3 tiles wide) is baked, written,
 * read back with the real decoders (main pack, BGRD, the sidecar with its six validation checks,
 * OCLS, no-go table) and compared field by field with the in-memory bake; the output is
 * byte-identical for 1, 2 and 4 workers; Recast's dungeon.obj (vendored in examples/dungeon/)
 * bakes and decodes.
 */
import { sidecarExpectations } from "../src/pack/set/pack_set.ts";
import { assert, assertEquals } from "./assert.ts";
import { QUICK } from "./tiers.ts";
import { fnv1a64Hex, readMaybeGzip } from "../src/codec/mod.ts";
import { decodeMainPack } from "../src/pack/bnav/mod.ts";
import { decodeBgrdTile, encodeBgrd, findBgrdZone, parseBgrd } from "../src/pack/bgrd/section.ts";
import {
  decodeSidecar,
  graphIndexOf,
  loadSidecarFile,
  readFieldsTile,
  type SidecarExpectations,
} from "../src/pack/bnvf/sidecar.ts";
import { mergeFields } from "../src/pack/bnvf/merge.ts";
import { decodeOccluderPackAll } from "../src/pack/ocls/pack.ts";
import { inAuthorNoGo, loadNoGoTable } from "../src/pack/nogo/table.ts";
import { type SpanColumns, SpanFlag } from "../src/pack/grid_types.ts";
import {
  type BakeArtifacts,
  bakeManifestFile,
  bakeOutputPaths,
  bakeToDirectory,
  writeBakeOutputs,
} from "../src/world/bake_world.ts";

const FIXTURE = new URL("./fixtures/bake/manifest.json", import.meta.url).pathname;
const DUNGEON_MANIFEST = new URL("./fixtures/bake/dungeon.json", import.meta.url).pathname;

let cached: BakeArtifacts | null = null;
async function fixture(): Promise<BakeArtifacts> {
  cached ??= await bakeManifestFile(FIXTURE, { keepGrid: true });
  return cached;
}

/** Records of the decoded BGRD zone `z` at global cell (gx, gy): [tile, record] pairs. */
function recordsAt(
  tiles: {
    gx0: number;
    gy0: number;
    nx: number;
    px0: number;
    px1: number;
    py0: number;
    py1: number;
    spans: SpanColumns;
  }[],
  gx: number,
  gy: number,
): { rid: number; h: number; flags: number; clr: number }[] {
  for (const t of tiles) {
    const lx = gx - t.gx0, ly = gy - t.gy0;
    if (lx < t.px0 || lx > t.px1 || ly < t.py0 || ly > t.py1) continue;
    const c = ly * t.nx + lx, out = [];
    for (let i = 0; i < t.spans.n; i++) {
      if (t.spans.cell[i] === c) {
        out.push({
          rid: t.spans.rid[i],
          h: t.spans.h[i],
          flags: t.spans.flags[i],
          clr: t.spans.clr[i],
        });
      }
    }
    return out;
  }
  return [];
}

/** Decodes all four outputs in `dir` with the real decoders and checks them against `a`. */
async function checkRoundTrip(a: BakeArtifacts, dir: string): Promise<void> {
  const paths = bakeOutputPaths(dir);
  const mainBytes = await readMaybeGzip(paths.main);
  assertEquals(mainBytes, a.mainBytes);
  const load = decodeMainPack(mainBytes, { file: paths.main, fileFnv: true });
  const p = load.pack;
  assertEquals(p.zones, a.main.zones);
  assertEquals(p.vertices, a.main.vertices);
  assertEquals(p.triangles, a.main.triangles);
  assertEquals(p.links, a.main.links);
  assertEquals(p.surfaces, a.main.surfaces);
  assertEquals(p.offMeshLinks, a.main.offMeshLinks);
  assert(p.grid !== null, "main pack has a BGRD section");
  const section = parseBgrd(p.grid!, { file: paths.main });
  // The streaming section writer lays out exactly what encodeBgrd writes.
  assertEquals(p.grid, encodeBgrd({ zones: a.gridZones }));
  const expect: SidecarExpectations = {
    buildHash: load.header.buildHash,
    fileFnv: load.fileFnv!,
    zones: section.zones.map((z) => ({
      name: z.name,
      regions: z.globalRegions,
      tileRecords: z.tiles.map((t) => t.records),
    })),
  };
  // The sidecar loads through all six checks against the decoded main pack.
  const sc = await loadSidecarFile(paths.fields, expect);
  // … and through the FLNK checks against BOML, zone ids, region ids and owned cells (issue 27):
  // the fixture has links in two grid zones (ids 1 and 3), one of them with a single region.
  await loadSidecarFile(
    paths.fields,
    sidecarExpectations(load.header.buildHash, mainBytes, section, load.pack),
  );
  const { model } = decodeSidecar(sc.bytes, expect);
  assertEquals(model.zones.length, a.sidecar.zones.length);
  a.gridZones.forEach((gz, zi) => {
    const bz = findBgrdZone(section, gz.name);
    assertEquals(section.zones[bz].globalRegions, gz.globalRegions);
    gz.tiles.forEach((t, ti) => {
      const d = decodeBgrdTile(section, bz, ti);
      const e = t.spans;
      assertEquals(d.n, e.n, `zone ${gz.name} tile ${ti} records`);
      assertEquals(d.cell.subarray(0, d.n), e.cell, "cell");
      assertEquals(d.rid.subarray(0, d.n), e.rid, "rid");
      for (let i = 0; i < e.n; i++) {
        if (!Object.is(d.h[i], e.h[i])) {
          throw new Error(`tile ${ti} h[${i}] ${d.h[i]} vs ${e.h[i]} flags ${e.flags[i]}`);
        }
      }
      assertEquals(d.clr.subarray(0, d.n), e.clr, "clr");
      assertEquals(d.flags.subarray(0, d.n), e.flags, "flags");
      assertEquals(d.steps.subarray(0, d.n), e.steps, "steps");
      const f = readFieldsTile(sc, gz.name, ti);
      assertEquals(f, a.sidecar.zones[zi].tiles[ti], `fields tile ${ti}`);
      // The runtime merge accepts every tile (clr2d ≤ clr, seg bit 7 free).
      mergeFields(d, f, { zone: gz.name, tile: ti }, false);
    });
    assertEquals(model.zones[zi].graphs, a.sidecar.zones[zi].graphs);
    assertEquals(model.zones[zi].walls, a.sidecar.zones[zi].walls);
  });
  assertEquals(model.links, a.sidecar.links);
  assertEquals(model.opens, a.sidecar.opens);
  const occ = decodeOccluderPackAll(await readMaybeGzip(paths.occluder), paths.occluder);
  assertEquals(occ, a.occluders);
  const nogo = await loadNoGoTable(paths.nogo);
  assertEquals([...nogo.zones.keys()], [...(a.nogoText.includes('"base"') ? ["base"] : [])]);
}

Deno.test("bake: fixture world round-trips through every real decoder", async () => {
  const a = await fixture();
  const dir = await Deno.makeTempDir({ prefix: "navscope-bake-" });
  try {
    const files = await writeBakeOutputs(a, dir);
    assertEquals(files.map((f) => f.role), ["main", "fields", "occluder", "nogo"]);
    await checkRoundTrip(a, dir);
    // No temporaries left behind.
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assertEquals(names, [
      "base.fields.nav.gz",
      "base.nav.gz",
      "base.nogo.json",
      "base.occluder.gz",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bake: fixture world features land where the geometry puts them", async () => {
  const a = await fixture();
  const z = a.gridZones[0];
  const cell = (x: number, y: number) => [Math.floor(x / 0.25), Math.floor(y / 0.25)] as const;
  const at = (x: number, y: number) => recordsAt(z.tiles, ...cell(x, y));
  // 3 tiles wide (304 px = 1216 cells), one row; zone origin on a global cell line.
  assertEquals(z.tiles.length, 3);
  assertEquals(z.tiles[0].gx0, -8 - 64);
  // Plain floor: one walkable record at 0.
  const floor = at(5, 5);
  assertEquals(floor.length, 1);
  assertEquals(floor[0].h, 0);
  assert((floor[0].flags & SpanFlag.Walk) !== 0, "floor is Walk");
  // The floor is one zone region across both tile seams (x = 126 px and 254 px).
  const rFloor = floor[0].rid;
  for (const x of [125.9, 126.1, 253.9, 254.1, 290]) {
    assertEquals(at(x, 3).map((r) => r.rid), [rFloor], `floor region at x=${x}`);
  }
  // Water pool (unwalkable surface): no Walk record in its middle.
  assert(at(240, 20).every((r) => (r.flags & SpanFlag.Walk) === 0), "pool centre not walkable");
  // Ramp top / platform at 4 m above the floor; the stair block's upper floor above the floor.
  const plat = at(50, 15);
  assert(
    plat.some((r) => Math.abs(r.h - 4) < 0.01) && plat.some((r) => r.h === 0),
    "platform over floor",
  );
  const upper = at(115, 30);
  assert(upper.some((r) => Math.abs(r.h - 4) < 0.01), "upper floor");
  // Stairs connect the upper floor to the ground floor: one region.
  const upperRec = upper.find((r) => Math.abs(r.h - 4) < 0.01)!;
  assertEquals(upperRec.rid, rFloor);
  // The bridge at 5 m over the floor is a region of its own (|Δh| > 3 everywhere around it).
  const br = at(175, 17);
  const deck = br.find((r) => Math.abs(r.h - 5) < 0.01);
  assert(deck !== undefined && deck.rid !== rFloor, "bridge deck is another region");
  assertEquals(z.globalRegions, a.sidecar.zones[0].regions);
  // Records within a cell are ordered by (rid, h).
  for (const t of z.tiles) {
    const s = t.spans;
    for (let i = 1; i < s.n; i++) {
      if (s.cell[i] !== s.cell[i - 1]) continue;
      assert(
        s.rid[i] > s.rid[i - 1] || (s.rid[i] === s.rid[i - 1] && s.h[i] >= s.h[i - 1]),
        `order at record ${i}`,
      );
    }
  }
  // Components: every Walk record of a real span has a component in 1..nScc of its region.
  const f = a.sidecar.zones[0];
  z.tiles.forEach((t, ti) => {
    const ft = f.tiles[ti];
    for (let i = 0; i < t.spans.n; i++) {
      const fl = t.spans.flags[i];
      if ((fl & (SpanFlag.Ghost | SpanFlag.Fill)) !== 0) continue;
      const k = graphIndexOf(f.graphs, t.spans.rid[i]);
      assert(k >= 0 && ft.scc[i] >= 1 && ft.scc[i] <= f.graphs.nScc[k], `scc of record ${i}`);
    }
  });
  // The off-mesh link: BOML record with both end triangles, FLNK ends on the platform (4 m)
  // and on the floor (0 m), both usable.
  assertEquals(a.main.offMeshLinks!.length, 2);
  const l = a.sidecar.links!;
  assertEquals(l.count, 2);
  assertEquals([l.why[0], l.why[1]], [0, 0]);
  assertEquals([l.h[0], l.h[1]].map((h) => Math.round(h)), [4, 0]);
  assertEquals(l.valid[0], 3);
  // FWAL: every key is 3·t + k of a zone triangle; the pool shore edges are kept by the floor.
  const w = f.walls;
  assert(w.count > 0 && w.keys[w.count - 1] < 3 * a.main.zones[0].triangleCount, "FWAL keys");
  // Occluder pack: one scene for zone "base"; the no-go polygon is in the table.
  assertEquals(a.occluders.map((s) => s.zone), ["base"]);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/t.nogo.json`, a.nogoText);
    const t = await loadNoGoTable(`${dir}/t.nogo.json`);
    assert(inAuthorNoGo(t, "base", 105, 5, 0), "inside the no-go polygon");
    assert(!inAuthorNoGo(t, "base", 120, 5, 0), "outside the no-go polygon");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Tier zone: a zone record with the tier flag and the parent id, no triangles.
  const tier = a.main.zones[1];
  assertEquals([tier.flags & 1, tier.componentCount, tier.triangleCount], [1, 1, 0]);
  // Second zone: triangles and vertices follow the first zone's, its link's end triangles are
  // pack-global, FLNK has one zone-index entry per zone (ids 1 and 3), BGRD/FZON list 2 zones.
  const annex = a.main.zones[2];
  assertEquals([annex.id, annex.firstTriangle, annex.triangleCount], [3, 298, 8]);
  assertEquals(a.main.triangles.component.length, 306);
  const lk = a.main.offMeshLinks![1];
  assertEquals(lk.zone, 3);
  assert(lk.startTriangle >= 298 && lk.endTriangle >= 298 && lk.endTriangle < 306, "global tris");
  const annexV0 = a.main.vertices.length / 3 - 9; // annex.obj has 9 vertices, appended last
  assertEquals(Math.min(...a.main.triangles.vertices.subarray(3 * 298)), annexV0);
  assertEquals([...l.index.zone], [1, 3]);
  assertEquals([l.why[2], l.why[3], l.valid[1]], [0, 0, 3]);
  assertEquals(Math.round(l.h[2]), 1);
  assertEquals(a.gridZones.map((g) => g.name), ["base", "annex"]);
  assertEquals(a.sidecar.zones.map((g) => g.name), ["base", "annex"]);
});

// The quick tier skips it (three whole bakes); tests/world_examples_test.ts still checks a bake
// byte for byte against the committed example packs.
Deno.test(
  { name: "bake: output is byte-identical for 1, 2 and 4 workers", ignore: QUICK },
  async () => {
    const hashes: string[] = [];
    const dirs: string[] = [];
    try {
      for (const workers of [1, 2, 4]) {
        const dir = await Deno.makeTempDir({ prefix: `navscope-bake-w${workers}-` });
        dirs.push(dir);
        const a = await bakeToDirectory(FIXTURE, dir, { workers });
        assertEquals(a.report.workers, workers);
        const p = bakeOutputPaths(dir);
        const parts = [];
        for (const f of [p.main, p.fields, p.occluder, p.nogo]) {
          parts.push(fnv1a64Hex(await Deno.readFile(f)));
        }
        hashes.push(parts.join(","));
      }
      assertEquals(hashes[1], hashes[0]);
      assertEquals(hashes[2], hashes[0]);
      // And equal to the in-memory serial bake.
      const a = await fixture();
      const main = await readMaybeGzip(bakeOutputPaths(dirs[2]).main);
      assertEquals(main, a.mainBytes);
    } finally {
      for (const d of dirs) await Deno.remove(d, { recursive: true });
    }
  },
);

Deno.test({
  name: "bake: Recast dungeon.obj bakes (lenient: 138 non-manifold edges) and decodes",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "navscope-bake-dungeon-" });
    try {
      const a = await bakeToDirectory(DUNGEON_MANIFEST, dir, {
        workers: 2,
        strictManifold: false,
        keepGrid: true,
      });
      const z = a.report.zones[0];
      assertEquals(z.triangles, 10133);
      assert(z.grid !== null && z.grid.records > 100_000 && z.grid.regions >= 1, "grid baked");
      assert(z.warnings.some((w) => w.includes("non-manifold")), "non-manifold edges reported");
      await checkRoundTrip(a, dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
