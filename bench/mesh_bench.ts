/**
 * Zone cleaning and snapping throughput on the largest real mesh (navcat proto-level.obj,
 * 26 773 triangles, vendored in examples/proto_level/) and on a synthetic 1 M-triangle grid.
 *
 *   deno bench --allow-read bench/mesh_bench.ts
 */
import { importObj, readObj } from "../src/world/mod.ts";
import { buildTriangleBuckets, cleanZone, snapPoint } from "../src/zone_mesh/mod.ts";

const PROTO = new URL("../examples/proto_level/proto-level.obj", import.meta.url).pathname;

const proto = importObj(await readObj(PROTO), {
  pxPerM: 3,
  up: "y",
  offsetPx: [0, 0],
  offsetH: 0,
  surfaceOf: () => 1,
  maxSlopeDeg: 60,
});

/** A grid of n×n quads, 1 px apart, two triangles each. */
function grid(n: number) {
  const v = new Float32Array(3 * (n + 1) * (n + 1));
  for (let y = 0, i = 0; y <= n; y++) {
    for (let x = 0; x <= n; x++, i += 3) {
      v[i] = x;
      v[i + 1] = y;
      v[i + 2] = Math.sin(x * 0.01) * Math.cos(y * 0.01);
    }
  }
  const t = new Uint32Array(6 * n * n);
  for (let y = 0, k = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x, b = a + 1, c = a + n + 2, d = a + n + 1;
      t.set([a, b, c, a, c, d], k);
      k += 6;
    }
  }
  return { vertices: v, triangles: t };
}
const big = grid(708); // 1 002 528 triangles

Deno.bench("cleanZone proto-level.obj (26 773 tris)", () => {
  cleanZone({ name: "proto", ...proto });
});

Deno.bench("cleanZone synthetic grid (1 002 528 tris)", { n: 5 }, () => {
  cleanZone({ name: "grid", ...big });
});

const zc = cleanZone({ name: "grid", ...big });
const buckets = buildTriangleBuckets(zc);
Deno.bench("buildTriangleBuckets synthetic grid (1 002 528 tris)", { n: 5 }, () => {
  buildTriangleBuckets(zc);
});

let q = 0;
Deno.bench("snapPoint synthetic grid, 1000 queries", () => {
  for (let i = 0; i < 1000; i++) {
    q = (q * 1103515245 + 12345) >>> 0;
    snapPoint(zc, buckets, (q % 7000) / 10, ((q >>> 12) % 7000) / 10, { floorY: 0 });
  }
});
