/**
 * Load cost of one example pack set (main pack + every BGRD tile + sidecar + occluder pack + no-go
 * table, already un-gzipped), minimum and median of N loads in one process — for comparing the
 * validation cost of two checkouts (issue 55: the plausibility bounds).
 *
 *   deno run -A bench/example_load_bench.ts [CHECKOUT] [WORLD=dungeon] [N=30]
 *
 * CHECKOUT (default: this one) is a navscope directory; alternate two of them (A B A B) in one
 * sitting and note `uptime`.
 * @module
 */
const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const [dir = here, world = "dungeon", n = "30"] = Deno.args;
const mod = await import(`file://${dir}/mod.ts`);
const ex = `${dir}/examples/${world}`;
const main = await mod.gunzip(await Deno.readFile(`${ex}/base.nav.gz`));
const side = await mod.gunzip(await Deno.readFile(`${ex}/base.fields.nav.gz`));
const occ = await mod.gunzip(await Deno.readFile(`${ex}/base.occluder.gz`));
const nogo = await Deno.readTextFile(`${ex}/base.nogo.json`);

function once(): void {
  const load = mod.decodeMainPack(main);
  const g = mod.parseBgrd(load.pack.grid);
  g.zones.forEach((z: { tiles: unknown[] }, zi: number) =>
    z.tiles.forEach((_: unknown, ti: number) => mod.decodeBgrdTile(g, zi, ti))
  );
  mod.decodeSidecar(side, null);
  mod.decodeOccluderPackAll(occ);
  mod.parseNoGoTable(nogo);
}

for (let i = 0; i < 3; i++) once();
const t: number[] = [];
for (let i = 0; i < Number(n); i++) {
  const a = performance.now();
  once();
  t.push(performance.now() - a);
}
t.sort((a, b) => a - b);
console.log(
  `${dir} ${world}: min ${t[0].toFixed(2)} ms, median ${
    t[t.length >> 1].toFixed(2)
  } ms (${n} loads)`,
);
