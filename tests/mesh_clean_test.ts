import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { bruteClean, gridSoup, joinSoups, type Soup } from "./mesh_helpers_test.ts";
import {
  buildLinkIndex,
  centroidF32,
  cleanZone,
  cutOneSidedEdges,
  denseComponents,
  hasLink,
  isTraversableLink,
  linksFromNeighbours,
  type LinkTable,
  type LinkZoneView,
  mergeLinkTables,
  meshNeighbours,
  rawComponents,
  setSizes,
  triangleRecords,
  UnionFind,
  WALKABLE_MASK,
  walkableMarks,
  weldOldPack,
  zoneTopology,
} from "../src/zone_mesh/mod.ts";
import { NavscopeError } from "../src/errors.ts";

Deno.test("mesh: 2×1 grid — adjacency, components, boundary bits", () => {
  // Quads (0,0)-(1,1) and (1,0)-(2,1); triangles 0,1 in quad 0, 2,3 in quad 1.
  const g = gridSoup(2, 1);
  const zc = cleanZone({ name: "z", ...g, keepAdjacency: true });
  // Vertices y·3 + x. t0 = (0,1,4): 0→1 bottom (none), 1→4 shared with t3, 4→0 diagonal (t1).
  // t1 = (0,4,3): diagonal, top, left. t2 = (1,2,5): bottom, right, diagonal (t3).
  // t3 = (1,5,4): diagonal (t2), top, 4→1 shared with t0.
  assertEquals(Array.from(zc.adjacency!), [-1, 3, 1, 0, -1, -1, -1, -1, 3, 2, -1, 0]);
  assertEquals(Array.from(zc.boundary), [0b001, 0b110, 0b011, 0b010]);
  assertEquals(Array.from(zc.component), [0, 0, 0, 0]);
  assertEquals(zc.stats.components, 1);
  assertEquals(zc.stats.boundaryEdges, 6);
  assertEquals(Array.from(zc.island), [1, 1, 1, 1]); // raw component of 4 ≤ 512: island
});

Deno.test("mesh: CW triangles are flipped to CCW (swap vertices 1 and 2)", () => {
  const v = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const zc = cleanZone({ name: "z", vertices: v, triangles: new Uint32Array([0, 2, 1]) });
  assertEquals(Array.from(zc.tris), [0, 1, 2]);
  assertEquals(zc.stats.flipped, 1);
});

Deno.test("mesh: rule 1 — a duplicated directed edge cuts both sides", () => {
  // Edge 0→1 shared by three triangles: two above (0,1,2), (0,1,3) overlap, one below (1,0,4).
  const v = new Float32Array([0, 0, 0, 2, 0, 0, 1, 1, 0, 1, 2, 0, 1, -1, 0]);
  const t = new Uint32Array([0, 1, 2, 0, 1, 3, 1, 0, 4]);
  const zc = cleanZone({ name: "z", vertices: v, triangles: t, keepAdjacency: true });
  assertEquals(zc.stats.duplicateSlots, 2);
  assert(zc.stats.cutDuplicate >= 2);
  for (let s = 0; s < 9; s++) assertEquals(zc.adjacency![s], -1, `slot ${s}`);
  assertEquals(Array.from(zc.component), [0, 1, 2]);
});

Deno.test("mesh: rule 2 — one-sided adjacency is cleared on the pointing side", () => {
  // Triangle 0 points to 1 on slot 0; 1 points to 2 (not back); 2 points back to 1.
  const nb = new Int32Array([1, -1, -1, 2, -1, -1, 1, -1, -1]);
  assertEquals(cutOneSidedEdges(nb), 1);
  assertEquals(Array.from(nb), [-1, -1, -1, 2, -1, -1, 1, -1, -1]);
});

Deno.test("mesh: rule 3 — unwalkable triangles and missing links disconnect", () => {
  const g = gridSoup(3, 1); // 6 triangles in a strip
  const flags = new Uint32Array([1, 1, 2, 1, 1, 1]); // triangle 2 is water (0x2 ∉ mask)
  const zc = cleanZone({ name: "z", ...g, surfaceFlags: flags, keepAdjacency: true });
  assertEquals(zc.walkable[2], 0);
  assertEquals(zc.boundary[2], 0b111);
  // Triangle 2 touches 3 and 5: its two slots and their two reverse slots are cut.
  assertEquals(zc.stats.cutUnwalkable, 4);
  assertEquals(Array.from(zc.component), [0, 0, 2, 0, 4, 4]);
  // The same strip with link 0→3 missing from the pack's link table (3→0 is not enough: hasLink
  // asks for small → large).
  const nb = meshNeighbours(g.triangles.slice());
  const all = linksFromNeighbours(nb, 0);
  const keep = Array.from(all.source.keys()).filter((i) =>
    !(all.source[i] === 0 && all.target[i] === 3)
  );
  const links: LinkTable = {
    source: Uint32Array.from(keep, (i) => all.source[i]),
    target: Uint32Array.from(keep, (i) => all.target[i]),
  };
  const zc2 = cleanZone({ name: "z", ...g, links, keepAdjacency: true });
  assertEquals(zc2.stats.cutNoLink, 2);
  assertEquals(Array.from(zc2.component), [0, 0, 2, 2, 2, 2]);
});

Deno.test("mesh: every triangle unwalkable is an error naming the zone", () => {
  const g = gridSoup(1, 1);
  const e = assertThrows(
    () => cleanZone({ name: "lake", ...g, surfaceFlags: new Uint32Array([2, 0]) }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals(e.where.zone, "lake");
});

Deno.test("mesh: bad geometry — NaN vertex, bad index, repeated vertex, empty zone", () => {
  const v = new Float32Array([0, 0, 0, 1, 0, 0, 0, NaN, 0]);
  const nan = assertThrows(
    () => cleanZone({ name: "z", vertices: v, triangles: new Uint32Array([0, 1, 2]) }),
    NavscopeError,
  ) as NavscopeError;
  assert(/not finite/.test(nan.message), nan.message);
  const idx = assertThrows(
    () => cleanZone({ name: "z", vertices: v, triangles: new Uint32Array([0, 1, 7]) }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(idx.code, "offset_out_of_range");
  const deg = assertThrows(
    () => cleanZone({ name: "z", vertices: v, triangles: new Uint32Array([0, 1, 1]) }),
    NavscopeError,
  ) as NavscopeError;
  assert(/degenerate/.test(deg.message));
  const empty = assertThrows(
    () => cleanZone({ name: "z", vertices: v, triangles: new Uint32Array(0) }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(empty.code, "count_mismatch");
});

Deno.test("mesh: walkable marks use the 0x00020CDD whitelist", () => {
  assertEquals(WALKABLE_MASK, 0x20cdd);
  const m = walkableMarks(5, new Uint32Array([0x1, 0x2, 0x20000, 0x100, 0]));
  assertEquals(Array.from(m), [1, 0, 1, 0, 0]);
  assertEquals(Array.from(walkableMarks(2)), [1, 1]);
});

Deno.test("mesh: old-pack weld chains heights 0, 2.5, 5 into 0 and rejects collapses", () => {
  // Three stacked vertices at (0,0) and their neighbours; plus one at (0.01, 0) that rounds in.
  const v = new Float32Array([
    0,
    0,
    0, // 0
    0,
    0,
    2.5, // 1
    0,
    0,
    5, // 2
    0.01,
    0,
    9, // 3: same rounded (x, y) but 4 m above 5 → new chain
    1,
    0,
    0, // 4
    0,
    1,
    0, // 5
  ]);
  const t = new Uint32Array([0, 4, 5, 1, 4, 5, 3, 4, 5]);
  const changed = weldOldPack(v, t, "z");
  assertEquals(changed, 1);
  assertEquals(Array.from(t), [0, 4, 5, 0, 4, 5, 3, 4, 5]);
  const bad = new Uint32Array([0, 1, 4]);
  assertThrows(() => weldOldPack(v, bad, "z"), NavscopeError);
});

/** A strip of quads along x: 2·n triangles, consecutive triangles share an edge. */
function strip(n: number): Soup {
  return gridSoup(n, 1);
}

Deno.test("mesh: islands — strict majority of small raw components", () => {
  for (const [small, island] of [[10, 0], [12, 1]] as const) {
    // 520-triangle big raw component, then `small` triangles split off in the pack neighbours.
    const g = strip((520 + small) / 2);
    const n = g.triangles.length / 3;
    const geo = meshNeighbours(g.triangles.slice());
    const pack = geo.slice();
    for (let s = 0; s < pack.length; s++) {
      const i = Math.floor(s / 3), j = pack[s];
      if (j >= 0 && (i < 520) !== (j < 520)) pack[s] = -1;
    }
    const raw = setSizes(rawComponents(pack, 0, n));
    assertEquals(raw[0], 520);
    assertEquals(raw[n - 1], small);
    // Only triangles 510.. are walkable: 10 big + `small` small in one cleaned component.
    const flags = new Uint32Array(n);
    for (let t = 510; t < n; t++) flags[t] = 1;
    const zc = cleanZone({
      name: "z",
      ...g,
      neighbours: pack,
      links: linksFromNeighbours(geo, 0),
      surfaceFlags: flags,
    });
    assertEquals(zc.component[n - 1], 510);
    assertEquals(zc.island[510], island, `small=${small}`);
    assertEquals(zc.island[n - 1], island);
    assertEquals(zc.island[0], 0); // unwalkable singleton of a big raw component: not an island
  }
});

Deno.test("mesh: isTraversableLink — zone, own neighbour, big components, 4 px gap", () => {
  // Two squares 3 px apart and one 10 px away; plus a big grid of 2·20·13 = 520 triangles.
  const a = gridSoup(1, 1, 1, 0, 0, 0); // tris 0,1
  const b = gridSoup(1, 1, 1, 0, 4, 0); // tris 2,3 (gap 3 px from a)
  const c = gridSoup(1, 1, 1, 0, 20, 0); // tris 4,5 (gap 19 px)
  const big = gridSoup(20, 13, 1, 0, 0, 50); // tris 6..525
  const s = joinSoups(a, b, c, big);
  const n = s.triangles.length / 3;
  const nb = meshNeighbours(s.triangles.slice());
  const rawSize = setSizes(rawComponents(nb, 0, n));
  const z: LinkZoneView = {
    zoneId: 1,
    firstTri: 0,
    triCount: n,
    vertices: s.vertices,
    tris: s.triangles,
    packNeighbours: nb,
    rawSize,
  };
  assert(isTraversableLink(z, 0, 1), "own neighbour");
  assert(isTraversableLink(z, 0, 2), "3 px apart");
  assert(!isTraversableLink(z, 0, 4), "19 px apart, small");
  assert(!isTraversableLink(z, 0, n), "other zone");
  assert(isTraversableLink(z, 6, 525) && rawSize[6] === 520, "both big");
  assert(!isTraversableLink(z, 4, 525), "one small, far");
  assert(!isTraversableLink({ ...z, zoneId: 0 }, 0, 1), "zone id 0");
  const links: LinkTable = {
    source: new Uint32Array([0, 0, 0, 1]),
    target: new Uint32Array([1, 2, 4, 0]),
  };
  const idx = buildLinkIndex(z, links);
  assertEquals(idx.rejected, 1);
  assert(hasLink(z, idx, 0, 1) && hasLink(z, idx, 0, 2) && hasLink(z, idx, 1, 0));
  assert(!hasLink(z, idx, 0, 4) && !hasLink(z, idx, 2, 0));
  assertEquals(Array.from(idx.extraSource), [0]);
});

Deno.test("mesh: union-find root is the smallest index (random unions vs brute force)", () => {
  const rnd = mulberry32(7);
  for (let trial = 0; trial < 20; trial++) {
    const n = 1 + Math.floor(rnd() * 60);
    const uf = new UnionFind(n);
    const pairs: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      const p: [number, number] = [Math.floor(rnd() * n), Math.floor(rnd() * n)];
      pairs.push(p);
      uf.union(p[0], p[1]);
    }
    const label = Array.from({ length: n }, (_, i) => i);
    for (let changed = true; changed;) {
      changed = false;
      for (const [x, y] of pairs) {
        const m = Math.min(label[x], label[y]);
        if (label[x] !== m || label[y] !== m) {
          label[x] = label[y] = m;
          changed = true;
        }
      }
    }
    assertEquals(Array.from(uf.roots()), label);
  }
});

/** Random mesh: a jittered grid with holes, duplicated triangles and overlapping extras. */
function randomSoup(rnd: () => number): Soup {
  const nx = 2 + Math.floor(rnd() * 6), ny = 2 + Math.floor(rnd() * 5);
  const g = gridSoup(nx, ny, 3);
  for (let i = 0; i < g.vertices.length; i += 3) g.vertices[i + 2] = Math.floor(rnd() * 3);
  const t: number[] = [];
  const n = g.triangles.length / 3;
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.15) continue; // hole
    const tri = Array.from(g.triangles.subarray(3 * i, 3 * i + 3));
    if (rnd() < 0.5) tri.reverse(); // CW input; cleaning flips it back
    t.push(...tri);
    if (rnd() < 0.08) t.push(...tri); // duplicate triangle → duplicate edges
  }
  if (t.length === 0) t.push(0, 1, nx + 2);
  return { vertices: g.vertices, triangles: new Uint32Array(t) };
}

Deno.test("mesh: cleanZone matches a brute-force reference on random meshes", () => {
  const rnd = mulberry32(20261130);
  const seen = { dup: 0, noLink: 0, unwalk: 0, flipped: 0 };
  for (let trial = 0; trial < 60; trial++) {
    const s = randomSoup(rnd);
    const n = s.triangles.length / 3;
    const flags = new Uint32Array(n);
    for (let t = 0; t < n; t++) flags[t] = rnd() < 0.15 ? 0x2 : 0x1;
    flags[0] = 1;
    const zc0 = cleanZone({ name: "z", ...s, surfaceFlags: flags });
    // Links: every geometric pair, with some small→large links dropped at random.
    const geo = meshNeighbours(zc0.tris.slice());
    const all = linksFromNeighbours(geo, 0);
    const keep: number[] = [];
    const dropped = new Set<string>();
    for (let i = 0; i < all.source.length; i++) {
      if (all.source[i] < all.target[i] && rnd() < 0.1) {
        dropped.add(`${all.source[i]},${all.target[i]}`);
      } else keep.push(i);
    }
    const links = {
      source: Uint32Array.from(keep, (i) => all.source[i]),
      target: Uint32Array.from(keep, (i) => all.target[i]),
    };
    const zc = cleanZone({ name: "z", ...s, surfaceFlags: flags, links, keepAdjacency: true });
    seen.dup += zc.stats.cutDuplicate;
    seen.noLink += zc.stats.cutNoLink;
    seen.unwalk += zc.stats.cutUnwalkable;
    seen.flipped += zc.stats.flipped;
    const ref = bruteClean(zc.tris, zc.walkable, (i, j) => {
      const isNb = geo[3 * i] === j || geo[3 * i + 1] === j || geo[3 * i + 2] === j;
      return isNb && !dropped.has(`${i},${j}`);
    });
    assertEquals(Array.from(zc.adjacency!), Array.from(ref.nb), `trial ${trial} adjacency`);
    assertEquals(Array.from(zc.component), Array.from(ref.comp), `trial ${trial} components`);
    for (let t = 0; t < n; t++) {
      let bits = 0;
      for (let k = 0; k < 3; k++) if (ref.nb[3 * t + k] < 0) bits |= 1 << k;
      assertEquals(zc.boundary[t], bits);
    }
  }
  // The generator must have exercised every rule.
  assert(
    seen.dup > 0 && seen.noLink > 0 && seen.unwalk > 0 && seen.flipped > 0,
    JSON.stringify(seen),
  );
});

Deno.test("mesh: triangle records — centroid ((a+b)+c)/3 in float32, global ids", () => {
  const v = new Float32Array([0.1, 0.2, 0, 0.7, 0.2, 0, 0.1, 0.9, 0]);
  const rec = triangleRecords(
    v,
    new Uint32Array([0, 1, 2]),
    new Int32Array([-1, 0, -1]),
    new Uint32Array([0]),
    10,
  );
  const f = Math.fround;
  assertEquals(rec.centroid[0], f(f(f(f(0.1) + f(0.7)) + f(0.1)) / 3));
  assertEquals(rec.centroid[0], centroidF32(v[0], v[3], v[6]));
  assertEquals(Array.from(rec.neighbour), [-1, 10, -1]);
  assertEquals(Array.from(rec.component), [10]);
  assertEquals(Array.from(denseComponents(new Uint32Array([0, 0, 2, 2, 4]))), [0, 0, 1, 1, 2]);
});

Deno.test("mesh: mergeLinkTables sorts by (source, target); old packs weld inside cleanZone", () => {
  const m = mergeLinkTables([
    { source: new Uint32Array([5, 5]), target: new Uint32Array([9, 6]) },
    { source: new Uint32Array([1]), target: new Uint32Array([2]) },
  ]);
  assertEquals([Array.from(m.source), Array.from(m.target)], [[1, 5, 5], [2, 6, 9]]);
  // Two squares whose shared edge uses different vertex copies 0.01 px and 1 m apart: only the
  // old-pack weld joins them into one component.
  const v = new Float32Array([
    0,
    0,
    0,
    1,
    0,
    0,
    1,
    1,
    0,
    0,
    1,
    0, // left square 0..3
    1.01,
    0,
    1,
    2,
    0,
    0,
    2,
    1,
    0,
    1.01,
    1,
    1, // right square 4..7, left edge copies
  ]);
  const t = new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
  assertEquals(cleanZone({ name: "z", vertices: v, triangles: t }).stats.components, 2);
  const old = cleanZone({ name: "z", vertices: v, triangles: t, oldPack: true });
  assertEquals([old.stats.components, old.stats.welded], [1, 3]); // 3 indices rewritten
  assertEquals(Array.from(t), [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]); // input untouched
});

Deno.test("mesh: zoneTopology written into a pack cleans to the same zone", () => {
  const g = gridSoup(4, 3);
  const topo = zoneTopology(g.triangles, 100);
  // t0 = (0, 1, 6): bottom edge, right edge (t3), diagonal (t1).
  assertEquals(Array.from(topo.neighbours.subarray(0, 3)), [-1, 103, 101]);
  for (let i = 1; i < topo.links.source.length; i++) {
    assert(topo.links.source[i] >= topo.links.source[i - 1]);
  }
  const fresh = cleanZone({ name: "z", ...g, firstTri: 100 });
  const packed = cleanZone({ name: "z", ...g, firstTri: 100, ...topo });
  assertEquals(packed.component, fresh.component);
  assertEquals(packed.boundary, fresh.boundary);
  assertEquals(packed.stats.linksRejected, 0);
});
