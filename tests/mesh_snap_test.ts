import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { gridSoup, joinSoups } from "./mesh_helpers_test.ts";
import {
  bucketCandidates,
  buildTriangleBuckets,
  cleanZone,
  closestOnTriangle,
  pointBucket,
  segmentDistance,
  type SnapOptions,
  snapPoint,
  triangleHeight,
  type ZoneClean,
} from "../src/zone_mesh/mod.ts";

/** Brute force: every walkable triangle, same keys, radius 8 then 16. */
function bruteSnap(zc: ZoneClean, x: number, y: number, o: SnapOptions) {
  const out = new Float64Array(2);
  for (const r of [8, 16]) {
    let best: { tri: number; key: number[]; dist: number } | null = null;
    for (let t = 0; t < zc.triCount; t++) {
      if (!zc.walkable[t]) continue;
      const d = closestOnTriangle(zc.vertices, zc.tris, t, x, y, out);
      if (d > r) continue;
      const h = triangleHeight(zc.vertices, zc.tris, t);
      let key: number[];
      if (o.deckY !== undefined) {
        const dh = Math.abs(h - o.deckY);
        key = [dh > 2 ? 1 : 0, d, dh, t];
      } else if (o.floorY !== undefined) {
        const dh = Math.abs(h - o.floorY);
        key = [dh > 12 ? 1 : 0, d, dh, zc.island[t], t];
      } else key = [d, -h, zc.island[t], t];
      const less = (a: number[], b: number[]) => {
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
        return false;
      };
      if (!best || less(key, best.key)) best = { tri: t, key, dist: d };
    }
    if (best) return best;
  }
  return null;
}

Deno.test("snap: stacked floors — highest without a floor, nearest band with one", () => {
  // Floor A at h=0 (tris 0,1), bridge B at h=5 over it (tris 2,3), far floor C at h=30.
  const s = joinSoups(gridSoup(1, 1, 10, 0), gridSoup(1, 1, 10, 5), gridSoup(1, 1, 10, 30, 40, 0));
  const zc = cleanZone({ name: "z", ...s });
  const b = buildTriangleBuckets(zc);
  assertEquals(snapPoint(zc, b, 5, 5)?.h, 5); // no floor: −H prefers the top layer
  assertEquals(snapPoint(zc, b, 5, 5, { floorY: 0.5 })?.h, 0);
  assertEquals(snapPoint(zc, b, 5, 5, { floorY: 4 })?.h, 5);
  // Deck: band 2 m; 3.4 is outside both bands → nearest by distance then |H−d| → 5.
  assertEquals(snapPoint(zc, b, 5, 5, { deckY: 3.4 })?.h, 5);
  assertEquals(snapPoint(zc, b, 5, 5, { deckY: 1 })?.h, 0);
  // Out of band wins only when nothing is in band: floor 30 is 35+ px away → falls back.
  const hit = snapPoint(zc, b, 5, 5, { floorY: 30 });
  assertEquals(hit?.h, 5); // both out of band ([1]), distance 0 tie, |H−30| smaller for 5
});

Deno.test("snap: radius 8 then 16, closest point and distance", () => {
  const zc = cleanZone({ name: "z", ...gridSoup(1, 1, 4, 2) });
  const b = buildTriangleBuckets(zc);
  const near = snapPoint(zc, b, 10, 2)!; // 6 px right of the square
  assertEquals([near.x, near.y, near.dist, near.radius], [4, 2, 6, 8]);
  const far = snapPoint(zc, b, 16, 2)!;
  assertEquals([far.dist, far.radius], [12, 16]);
  assertEquals(snapPoint(zc, b, 30, 2), null);
  assertEquals(snapPoint(zc, b, 2, 2)!.dist, 0);
  assertEquals(snapPoint(zc, b, 2, 2)!.h, 2);
});

Deno.test("snap: unwalkable triangles are skipped; accept filter applies", () => {
  const s = joinSoups(gridSoup(1, 1, 10, 0), gridSoup(1, 1, 10, 5));
  const zc = cleanZone({ name: "z", ...s, surfaceFlags: new Uint32Array([1, 1, 2, 2]) });
  const b = buildTriangleBuckets(zc);
  assertEquals(snapPoint(zc, b, 5, 5)!.h, 0);
  assertEquals(snapPoint(zc, b, 5, 5, { accept: (t) => t !== 0 && t !== 1 }), null);
});

Deno.test("snap: island bit ranks after distance and height", () => {
  // Big walkable grid (> 512 triangles) at h=0 and a small separate square at h=0 overlapping it.
  const big = gridSoup(20, 14, 2, 0);
  const small = gridSoup(1, 1, 2, 0, 10, 10);
  const zc = cleanZone({ name: "z", ...joinSoups(big, small) });
  const n = zc.triCount;
  assertEquals(zc.island[0], 0);
  assertEquals(zc.island[n - 1], 1);
  const b = buildTriangleBuckets(zc);
  // Inside both at distance 0, same height → the non-island triangle wins.
  assert(snapPoint(zc, b, 11, 11.5)!.tri < n - 2);
  // Just outside the big grid: the island triangle is nearer and wins despite its bit.
  const zc2 = cleanZone({ name: "z", ...joinSoups(big, gridSoup(1, 1, 2, 0, 50, 10)) });
  const hit = snapPoint(zc2, buildTriangleBuckets(zc2), 50.5, 11)!;
  assertEquals(hit.tri >= n - 2, true);
});

Deno.test("snap: bucket query and keys match brute force on random meshes", () => {
  const rnd = mulberry32(424242);
  for (let trial = 0; trial < 12; trial++) {
    const layers = [];
    for (let l = 0; l < 3; l++) {
      const g = gridSoup(
        2 + Math.floor(rnd() * 6),
        2 + Math.floor(rnd() * 6),
        3 + rnd() * 10,
        Math.floor(rnd() * 20),
        rnd() * 60,
        rnd() * 60,
      );
      for (let i = 0; i < g.vertices.length; i++) g.vertices[i] += (rnd() - 0.5) * 0.8;
      layers.push(g);
    }
    const s = joinSoups(...layers);
    const n = s.triangles.length / 3;
    const flags = Uint32Array.from({ length: n }, () => (rnd() < 0.1 ? 2 : 1));
    flags[0] = 1;
    const zc = cleanZone({ name: "z", ...s, surfaceFlags: flags });
    const b = buildTriangleBuckets(zc);
    for (let q = 0; q < 150; q++) {
      const x = rnd() * 130 - 20, y = rnd() * 130 - 20;
      const optsList: SnapOptions[] = [{}, { floorY: rnd() * 30 }, { deckY: rnd() * 20 }];
      for (const o of optsList) {
        const got = snapPoint(zc, b, x, y, o);
        const want = bruteSnap(zc, x, y, o);
        assertEquals(got?.tri ?? -1, want?.tri ?? -1, `trial ${trial} q ${q} ${JSON.stringify(o)}`);
        if (got) assertEquals(got.dist, want!.dist);
      }
    }
  }
});

Deno.test("snap: buckets list each triangle once per query and in ascending order", () => {
  const zc = cleanZone({ name: "z", ...gridSoup(10, 10, 5) });
  const b = buildTriangleBuckets(zc);
  assertEquals(b.cell, 24);
  const c = bucketCandidates(b, 25, 25, 16);
  for (let i = 1; i < c.length; i++) assert(c[i] > c[i - 1]);
  assertEquals(bucketCandidates(b, -100, -100, 8).length, 0);
});

Deno.test("snap: a point's bucket lists every walkable triangle containing it, ascending, once", () => {
  // Two overlapping floors (offset lattices) and a tilted sheet, so buckets hold many layers.
  const zc = cleanZone({
    name: "z",
    ...joinSoups(gridSoup(8, 8, 7), gridSoup(6, 6, 9, 3, 5, 4), gridSoup(5, 5, 11, 6, -3, 8)),
  });
  const b = buildTriangleBuckets(zc), v = zc.vertices, rnd = mulberry32(9);
  const inside = (t: number, x: number, y: number) => {
    const p = [0, 1, 2].map((k) => 3 * zc.tris[3 * t + k]);
    const cr = (i: number, j: number) =>
      (v[p[j]] - v[p[i]]) * (y - v[p[i] + 1]) - (v[p[j] + 1] - v[p[i] + 1]) * (x - v[p[i]]);
    const c = [cr(0, 1), cr(1, 2), cr(2, 0)];
    return c.every((z) => z >= 0) || c.every((z) => z <= 0);
  };
  let found = 0;
  for (let i = 0; i < 2000; i++) {
    const x = rnd() * 80 - 10, y = rnd() * 80 - 10, k = pointBucket(b, x, y);
    const list = k < 0 ? [] : [...b.items.subarray(b.start[k], b.start[k + 1])];
    for (let j = 1; j < list.length; j++) assert(list[j] > list[j - 1], "ascending, no repeats");
    for (let t = 0; t < zc.triCount; t++) {
      if (!zc.walkable[t] || !inside(t, x, y)) continue;
      assert(list.includes(t), `(${x}, ${y}): triangle ${t} missing`);
      found++;
    }
    assertEquals(list, [...bucketCandidates(b, x, y, 0)]);
  }
  assert(found > 1500, `${found} containing triangles`);
});

Deno.test("geom: segment distance — crossing, touching, parallel, apart", () => {
  assertEquals(segmentDistance(0, 0, 2, 2, 0, 2, 2, 0), 0);
  assertEquals(segmentDistance(0, 0, 1, 0, 1, 0, 2, 5), 0);
  assertEquals(segmentDistance(0, 0, 4, 0, 0, 3, 4, 3), 3);
  assertEquals(segmentDistance(0, 0, 1, 0, 4, 4, 4, 8), 5);
  assertEquals(segmentDistance(0, 0, 4, 0, 1, 0, 2, 0), 0); // collinear overlap
});
