/**
 * World generator benchmarks.
 *
 * `deno bench -A bench/world_gen_bench.ts`: generation time (small and large world, in memory)
 * and the bake of the small world.
 *
 * `deno run -A bench/world_gen_bench.ts --table [SCALE…]` (default scales 1 5): generation +
 * bake time, span records, pack sizes and bytes per record per field (against the spec's 0.94
 * bytes per record for the grid fields of map01base + map02base), one row per scale.
 */
import { generateWorld, writeGeneratedWorld } from "../src/world/generator.ts";
import { bakeManifestFile, bakeWorld, writeBakeOutputs } from "../src/world/bake_world.ts";
import { loadManifest } from "../src/world/manifest.ts";

const tmp = await Deno.makeTempDir({ prefix: "navscope-gen-bench-" });
const small = generateWorld({ seed: 1, scale: 1 });
await writeGeneratedWorld(small, `${tmp}/small`);

if (import.meta.main && Deno.args.includes("--table")) {
  const scales = Deno.args.filter((a) => /^\d+$/.test(a)).map(Number);
  await table(scales.length ? scales : [1, 5]);
  await Deno.remove(tmp, { recursive: true });
} else {
  Deno.bench("generate small world (scale 1, 486 px)", () => {
    generateWorld({ seed: 1, scale: 1 });
  });
  Deno.bench("generate large world (scale 5, 2406 px, ~26 M spans)", { n: 3 }, () => {
    generateWorld({ seed: 1, scale: 5 });
  });
  Deno.bench("bake small world (in process, 1 thread)", { n: 3 }, async () => {
    await bakeManifestFile(`${tmp}/small/world.json`);
  });
}

async function table(scales: number[]): Promise<void> {
  const rows: string[] = [
    "| scale | zone px | triangles | spans | tile records | gen ms | bake ms | base.nav.gz | base.fields.nav.gz | grid B/rec | fields B/rec |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const fieldRows: string[] = [];
  for (const s of scales) {
    const t0 = performance.now();
    const w = generateWorld({ seed: 1, scale: s });
    const dir = `${tmp}/s${s}`;
    await writeGeneratedWorld(w, dir);
    const tg = performance.now() - t0;
    const t1 = performance.now();
    const a = await bakeWorld(await loadManifest(`${dir}/world.json`));
    const tb = performance.now() - t1;
    const files = await writeBakeOutputs(a, dir);
    const r = a.report;
    const z = r.zones[0].grid!;
    const size = (role: string) => files.find((f) => f.role === role)?.bytes ?? 0;
    const g = r.gridBytesPerRecord as unknown as Record<string, number>;
    const f = r.fieldsBytesPerRecord as unknown as Record<string, number>;
    rows.push(
      `| ${s} | ${w.stats.sizePx} | ${w.stats.triangles} | ${z.spans} | ${z.tileRecords} | ${
        tg.toFixed(0)
      } | ${tb.toFixed(0)} | ${size("main")} | ${size("fields")} | ${g.total.toFixed(3)} | ${
        f.total.toFixed(3)
      } |`,
    );
    const fmt = (o: Record<string, number>) =>
      Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(", ");
    fieldRows.push(`scale ${s} grid: ${fmt(g)}`, `scale ${s} fields: ${fmt(f)}`);
  }
  console.log(rows.join("\n"));
  console.log("\nbytes per record per field (spec: 0.94 B/record for the grid fields)");
  console.log(fieldRows.join("\n"));
}
