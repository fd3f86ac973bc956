/**
 * BNVF fields sidecar throughput. Run:
 * `deno bench --allow-read --allow-write --allow-env bench/bnvf_bench.ts`.
 * Records/s = 200 000 / mean time of the FSPN decode. The tile is synthetic (seeded, from
 * `synthFieldsTile`): mostly-zero columns with random sparse changes, ≈ 1.3 payload bytes per
 * record — noisier, so slower to inflate, than a baked tile.
 */
import { decodeFieldsTile, encodeFieldsTile } from "../src/pack/bnvf/sidecar.ts";
import { synthFieldsTile } from "../testing/bnvf_synth.ts";
import { mergeFields } from "../src/pack/bnvf/merge.ts";
import { allocSpanColumns } from "../src/pack/grid_types.ts";
import { mulberry32 } from "../src/rng.ts";

const N = 200_000;
const tile = synthFieldsTile(mulberry32(42), N);
const payload = encodeFieldsTile(tile);
const cols = allocSpanColumns(N);
cols.clr.fill(2304);
console.log(
  `FSPN tile: ${N} records, ${payload.length} bytes (${(payload.length / N).toFixed(3)} B/record)`,
);

Deno.bench("FSPN tile decode, 200k records", { n: 50 }, () => {
  decodeFieldsTile(payload, N, {});
});

Deno.bench("FSPN tile encode, 200k records", { n: 10 }, () => {
  encodeFieldsTile(tile);
});

Deno.bench("fields merge (no write-back), 200k records", { n: 50 }, () => {
  mergeFields(cols, tile, {}, false);
});
