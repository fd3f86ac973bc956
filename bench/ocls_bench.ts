/**
 * Occluder pack benchmarks: OCLZ decode / encode, index (two-level tree) build, dropBlocked
 * queries, author no-go point queries. Run:
 * `deno bench --allow-read --allow-write --allow-env bench/ocls_bench.ts`
 *
 * Scene: 64 templates × 64 triangles (random closed-ish blobs), 20 000 instances spread over a
 * 2 km square with random rotations / scales, 256 terrain blocks of 33 × 33 samples.
 */
import { mulberry32 } from "../src/rng.ts";
import { OccluderSceneBuilder } from "../src/pack/ocls/build.ts";
import { decodeOccluderZone, encodeOccluderZone } from "../src/pack/ocls/pack.ts";
import { buildOccluderIndex } from "../src/pack/ocls/occluder_index.ts";
import { dropRule } from "../src/pack/ocls/drop_blocked.ts";
import { inAuthorNoGo, type NoGoPolygonSpec, noGoTableFromSpec } from "../src/pack/nogo/table.ts";

const r = mulberry32(42);
const b = new OccluderSceneBuilder("Bench", { blockSamples: 33, cellWidth: 2, posStep: 1 / 1024 });
const tpls: number[] = [];
for (let t = 0; t < 64; t++) {
  const v: number[] = [], idx: number[] = [];
  for (let k = 0; k < 40; k++) v.push(r() * 4 - 2, r() * 4, r() * 4 - 2);
  for (let k = 0; k < 64; k++) {
    idx.push(Math.floor(r() * 40), Math.floor(r() * 40), Math.floor(r() * 40));
  }
  tpls.push(b.addTemplate(v, idx, -10));
}
for (let i = 0; i < 20000; i++) {
  const q: [number, number, number, number] = [0, r() - 0.5, 0, 1];
  b.addInstance(tpls[i % 64], [r() * 2000 - 1000, r() * 10, r() * 2000 - 1000], q, [
    1 + r(),
    1,
    1 + r(),
  ]);
}
for (let bz = 0; bz < 16; bz++) {
  for (let bx = 0; bx < 16; bx++) {
    b.addBlock(bx * 32 - 256, bz * 32 - 256, Array.from({ length: 33 * 33 }, () => r() * 2));
  }
}
const scene = b.build();
const body = encodeOccluderZone(scene);
console.log(`OCLZ body: ${(body.length / 1e6).toFixed(2)} MB`);
const ix = buildOccluderIndex(scene);

const queries = Array.from({ length: 1000 }, () => {
  const x = r() * 1000 - 500, z = r() * 1000 - 500, y = 3 + r() * 8;
  return [{ x, y, z }, { x: x + r() * 4 - 2, y: r() * 2, z: z + r() * 4 - 2 }] as const;
});

Deno.bench("OCLZ decode (20k instances, 256 blocks)", { n: 20 }, () => {
  decodeOccluderZone(body, "Bench");
});
Deno.bench("OCLZ encode", { n: 20 }, () => {
  encodeOccluderZone(scene);
});
Deno.bench("occluder index build (instance + template trees)", { n: 10 }, () => {
  buildOccluderIndex(scene);
});
Deno.bench("dropBlocked × 1000 random drops", { n: 20 }, () => {
  for (const [a, l] of queries) dropRule(ix, a, l);
});

const polys: NoGoPolygonSpec[] = Array.from({ length: 200 }, () => {
  const cx = r() * 4000, cy = r() * 4000;
  const ring = Array.from({ length: 24 }, (_, k) => {
    const a = (k / 24) * 2 * Math.PI, rad = 20 + r() * 30;
    return [cx + rad * Math.cos(a), cy + rad * Math.sin(a)] as [number, number];
  });
  return { rings: [ring], floor: r() < 0.5 ? r() * 50 : undefined };
});
const table = noGoTableFromSpec(new Map([["Z", polys]]));
Deno.bench("inAuthorNoGo × 10 000 points (200 polygons × 24 points)", { n: 20 }, () => {
  for (let k = 0; k < 10000; k++) inAuthorNoGo(table, "Z", (k * 37) % 4000, (k * 91) % 4000, 10);
});
