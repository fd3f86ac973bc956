/**
 * Whole-pack and per-zone load of a main pack with ≥ 5 M grid records: time and peak RSS, each
 * load in a fresh process so memory is measured alone.
 *
 *   deno run -A bench/pack_load_bench.ts            # build /tmp/navscope_load/base.nav.gz, measure, print a table
 *
 * "Whole" = read + gunzip (ISIZE-sized) + decodeMainPack (streaming build_hash) + parseBgrd +
 * decode every tile of every zone. "Zone" = read + gunzip + loadZone + decode the tiles of one zone.
 * @module
 */
import { gzip, readMaybeGzip } from "../src/codec/mod.ts";
import { decodeMainPack, encodeMainPack, loadZone } from "../src/pack/bnav/mod.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { type BgrdInput, decodeBgrdTile, encodeBgrd, parseBgrd } from "../src/pack/bgrd/section.ts";
import { BgrdScratch } from "../src/pack/bgrd/streams.ts";
import type { SpanColumns } from "../src/pack/grid_types.ts";
import { syntheticWorld } from "../testing/synthetic_grid.ts";

const DIR = "/tmp/navscope_load";
const PACK = `${DIR}/base.nav.gz`;

async function make(): Promise<number> {
  const pack = randomMainPack(11, { zones: 2, trianglesPerZone: 200_000 });
  const names = pack.zones.map((z) => z.name);
  const parts = [0, 1].map((i) =>
    syntheticWorld({ seed: 7 + i, width: 2560, height: 2048, name: names[i] })
  );
  const grid: BgrdInput = { version: 3, zones: parts.flatMap((p) => p.zones) };
  const records = grid.zones.reduce(
    (a, z) => a + z.tiles.reduce((b, t) => b + t.spans.n, 0),
    0,
  );
  pack.grid = encodeBgrd(grid);
  await Deno.mkdir(DIR, { recursive: true });
  await Deno.writeFile(PACK, gzip(encodeMainPack(pack)));
  return records;
}

function decodeZoneTiles(
  section: ReturnType<typeof parseBgrd>,
  zi: number,
  into: { cols?: SpanColumns },
  scratch: BgrdScratch,
): number {
  let n = 0;
  for (let t = 0; t < section.zones[zi].tiles.length; t++) {
    into.cols = decodeBgrdTile(section, zi, t, into.cols, scratch);
    n += into.cols.n;
  }
  return n;
}

async function measure(mode: string): Promise<void> {
  const t0 = performance.now();
  const bytes = await readMaybeGzip(PACK);
  const scratch = new BgrdScratch();
  const into: { cols?: SpanColumns } = {};
  let records = 0;
  if (mode === "whole") {
    const load = decodeMainPack(bytes, { file: PACK });
    const g = load.gridSection!;
    const section = parseBgrd(bytes.subarray(g.offset, g.offset + g.size));
    for (let z = 0; z < section.zones.length; z++) {
      records += decodeZoneTiles(section, z, into, scratch);
    }
  } else {
    const zl = loadZone(bytes, 0, { file: PACK });
    const section = parseBgrd(zl.pack.grid!);
    const zi = section.zones.findIndex((z) => z.name === zl.pack.zones[0].name);
    records = decodeZoneTiles(section, zi, into, scratch);
  }
  const ms = performance.now() - t0;
  const rss = Deno.memoryUsage().rss;
  console.log(JSON.stringify({ mode, ms, records, rss, bytes: bytes.length }));
}

async function child(mode: string) {
  // Peak RSS from the kernel (VmHWM), since the process may have shrunk by the time it reports.
  const cmd = new Deno.Command("bash", {
    args: [
      "-c",
      `deno run -A ${new URL(import.meta.url).pathname} --measure ${mode} & pid=$!; peak=0; ` +
      `while kill -0 $pid 2>/dev/null; do v=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); ` +
      `[ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v; sleep 0.02; done; wait $pid; echo "HWM $peak"`,
    ],
    stdout: "piped",
  });
  const out = new TextDecoder().decode((await cmd.output()).stdout).trim().split("\n");
  const r = JSON.parse(out.find((l) => l.startsWith("{"))!);
  const hwm = Number(out.find((l) => l.startsWith("HWM"))!.split(" ")[1]) * 1024;
  return { ...r, peak: Math.max(hwm, r.rss) };
}

if (Deno.args[0] === "--measure") {
  await measure(Deno.args[1]);
} else {
  const records = await make();
  const size = (await Deno.stat(PACK)).size;
  console.log(`pack: ${PACK}, ${(size / 1e6).toFixed(1)} MB gzip, ${records} grid records`);
  console.log("| load | time (best of 3) | records decoded | Mrec/s | peak RSS |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const mode of ["whole", "zone"]) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await child(mode));
    const best = runs.reduce((a, b) => (a.ms < b.ms ? a : b));
    const peak = Math.max(...runs.map((r) => r.peak));
    console.log(
      `| ${mode} | ${best.ms.toFixed(0)} ms | ${best.records} | ${
        (best.records / best.ms / 1e3).toFixed(1)
      } | ${(peak / 2 ** 20).toFixed(0)} MiB |`,
    );
  }
}
