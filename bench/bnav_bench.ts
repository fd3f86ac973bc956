/**
 * BNAV main pack decode speed. Run: `deno bench --allow-read bench/bnav_bench.ts`.
 * The pack: 20 zones × 50 000 triangles (1 M triangles, ~0.6 M vertices, ~1.2 M links, BSRF,
 * BOML), default chunk sizes. MB/s = pack bytes / mean time (printed once at start).
 */
import { decodeMainPack, encodeMainPack, loadZone } from "../src/pack/bnav/mod.ts";
import { randomMainPack } from "../testing/bnav_random.ts";

const pack = randomMainPack(2026, { zones: 20, trianglesPerZone: 50_000, tierZones: 2 });
const t0 = performance.now();
const bytes = encodeMainPack(pack);
const encMs = performance.now() - t0;
console.log(
  `pack: ${(bytes.length / 1e6).toFixed(2)} MB, ${pack.triangles.component.length} triangles, ` +
    `${pack.vertices.length / 3} vertices, ${pack.links.source.length} links; ` +
    `one encode took ${encMs.toFixed(0)} ms`,
);

Deno.bench("bnav decodeMainPack (1M triangles, hash checked)", { n: 10, warmup: 2 }, () => {
  decodeMainPack(bytes);
});

Deno.bench("bnav loadZone (one 50k-triangle zone)", { n: 30, warmup: 3 }, () => {
  loadZone(bytes, "dungeon-74");
});

Deno.bench("bnav encodeMainPack (1M triangles)", { n: 3, warmup: 1 }, () => {
  encodeMainPack(pack);
});
