/**
 * FNV-1a 64 throughput. Run: `deno bench bench/fnv_bench.ts`. MB/s = 64 MiB / mean time.
 */
import { Fnv1a64 } from "../src/codec/fnv.ts";

const data = new Uint8Array(64 << 20);
for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;

Deno.bench("fnv1a64 64 MiB", { n: 10 }, () => {
  new Fnv1a64().update(data);
});
