/**
 * `navscope inspect` over a consistent synthetic pack set (main pack + BGRD, a sidecar built to
 * match it, an occluder pack, a no-go table), and over broken sets: each broken part is reported
 * and flips the exit status; a broken main pack is one clear error.
 */
import { assert, assertEquals } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/inspect.ts";
import { main } from "../commands/main.ts";
import { fnv1a64, gzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { encodeMainPack } from "../src/pack/bnav/mod.ts";
import { randomMainPack } from "../testing/bnav_random.ts";
import { encodeBgrd } from "../src/pack/bgrd/section.ts";
import { allocSpanColumns } from "../src/pack/grid_types.ts";
import { encodeSidecar } from "../src/pack/bnvf/sidecar.ts";
import { RUNTIME_FCON } from "../src/pack/bnvf/constants.ts";
import { buildComponentGraphs } from "../src/pack/bnvf/fscc.ts";
import { buildWallTable } from "../src/pack/bnvf/fwal.ts";
import { synthFieldsTile } from "../testing/bnvf_synth.ts";
import { encodeNoGoTable, noGoTableFromSpec } from "../src/pack/nogo/table.ts";
import { encodeOccluderPack } from "../src/pack/ocls/pack.ts";
import { emptyOccluderScene } from "../src/pack/ocls/types.ts";
import { inspectPackSet, type PackSetReport } from "../src/pack/set/pack_set.ts";
import { syntheticWorld } from "../testing/synthetic_grid.ts";
import { mulberry32 } from "./rng.ts";

interface PackSet {
  dir: string;
  main: string;
  zone: string;
  records: number;
}

/** Writes a consistent pack set into a fresh temp dir. */
async function makePackSet(seed = 3, emptyGrid = false): Promise<PackSet> {
  const dir = await Deno.makeTempDir({ prefix: "navscope_inspect_" });
  const pack = randomMainPack(seed, { zones: 2 });
  // The sidecar below has no FLNK: the main pack has no off-mesh links (FLNK must mirror BOML).
  pack.offMeshLinks = [];
  const zone = pack.zones[0].name;
  const grid = syntheticWorld({ seed: 2, width: 700, height: 520, name: zone });
  // The zone's size is its grid's (700 × 520 cells): the tiles must cover the zone exactly.
  pack.zones[0].width = 700 * 0.25;
  pack.zones[0].height = 520 * 0.25;
  if (emptyGrid) {
    for (const t of grid.zones[0].tiles) t.spans = allocSpanColumns(0);
  }
  pack.grid = encodeBgrd(grid);
  const mainBytes = encodeMainPack(pack);
  const hash = new DataView(mainBytes.buffer, mainBytes.byteOffset).getBigUint64(56, true);
  const rnd = mulberry32(9);
  const z = grid.zones[0];
  const sidecar = encodeSidecar({
    flags: 0,
    buildHash: hash,
    fileFnv: fnv1a64(mainBytes),
    rules: 2,
    fcon: RUNTIME_FCON.slice(),
    zones: [{
      name: zone,
      regions: z.globalRegions,
      // No FSCC components: the id guard then requires every scc to be 0.
      tiles: z.tiles.map((t) => {
        const f = synthFieldsTile(rnd, t.spans.n);
        f.scc.fill(0);
        return f;
      }),
      graphs: buildComponentGraphs([], false),
      walls: buildWallTable([]),
    }],
    links: null,
    opens: null,
  });
  await Deno.writeFile(`${dir}/base.nav.gz`, gzip(mainBytes));
  await Deno.writeFile(`${dir}/base.fields.nav.gz`, gzip(sidecar));
  await Deno.writeFile(
    `${dir}/base.occluder.gz`,
    gzip(encodeOccluderPack([emptyOccluderScene(zone)])),
  );
  const nogo = noGoTableFromSpec(
    new Map([[zone, [{ rings: [[[1, 1], [5, 1], [5, 5], [1, 5]]] }]]]),
  );
  await Deno.writeTextFile(`${dir}/base.nogo.json`, encodeNoGoTable(nogo));
  const records = z.tiles.reduce((a, t) => a + t.spans.n, 0);
  return { dir, main: `${dir}/base.nav.gz`, zone, records };
}

async function inspectJson(args: string[]): Promise<{ code: number; report: PackSetReport }> {
  const r = await captureOutput(() => run([...args, "--json"]));
  return { code: r.value, report: JSON.parse(r.out) };
}

Deno.test("inspect: a consistent set is usable; every part is reported", async () => {
  const s = await makePackSet();
  const { code, report } = await inspectJson([s.main]);
  assertEquals(code, 0);
  assertEquals(report.usable, true);
  assertEquals(report.main.verified, true);
  assertEquals(report.sidecar.status, "ok");
  assertEquals(report.occluder.status, "ok");
  assertEquals(report.nogo.status, "ok");
  assertEquals(report.nogo.zones, [{ zone: s.zone, polygons: 1 }]);
  const g = report.grid!;
  assertEquals(g.total.records, s.records);
  const zs = g.zones.find((z) => z.name === s.zone)!;
  assert(zs.bytesPerRecord.total > 0 && zs.bytesPerRecord.total < 2, "bytes per record");
  // The per-field bytes add up to the total payload.
  const b = zs.bytes;
  assertEquals(
    b.height + b.clr + b.flags + b.depth + b.steps + b.cell + b.regionIdx + b.regionDict + b.fixed,
    b.total,
  );
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("inspect --zone: tile table of that zone; unknown zone is a usage error", async () => {
  const s = await makePackSet();
  const { report } = await inspectJson([s.main, "--zone", s.zone]);
  assertEquals(report.tiles.length, 1);
  assertEquals(report.tiles[0].zone, s.zone);
  assertEquals(report.tiles[0].tiles.reduce((a, t) => a + t.records, 0), s.records);
  const text = await captureOutput(() => run([s.main, "--zone", s.zone]));
  assert(text.out.includes(`tiles of ${s.zone}`), "text output has the tile table");
  const e = await run([s.main, "--zone", "nowhere"]).catch((x) => x);
  assert(e instanceof NavscopeError && e.code === "usage", "unknown zone → usage error");
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("inspect: missing or mismatched sidecar makes the set unusable (exit 1)", async () => {
  const s = await makePackSet();
  // Mismatch: a sidecar from another main pack.
  const other = await makePackSet(4);
  await Deno.copyFile(`${other.dir}/base.fields.nav.gz`, `${s.dir}/base.fields.nav.gz`);
  let r = await inspectJson([s.main]);
  assertEquals(r.code, 1);
  assertEquals(r.report.sidecar.status, "invalid");
  assert(/build_hash|FNV|hash/i.test(r.report.sidecar.error!), r.report.sidecar.error!);
  await Deno.remove(`${s.dir}/base.fields.nav.gz`);
  r = await inspectJson([s.main]);
  assertEquals(r.code, 1);
  assertEquals(r.report.sidecar.status, "missing");
  await Deno.remove(s.dir, { recursive: true });
  await Deno.remove(other.dir, { recursive: true });
});

Deno.test("inspect: missing occluder and no-go are fine; an unreadable no-go table is not", async () => {
  const s = await makePackSet();
  await Deno.remove(`${s.dir}/base.occluder.gz`);
  await Deno.remove(`${s.dir}/base.nogo.json`);
  let r = await inspectJson([s.main]);
  assertEquals(r.code, 0);
  assertEquals([r.report.occluder.status, r.report.nogo.status], ["missing", "missing"]);
  await Deno.writeTextFile(`${s.dir}/base.nogo.json`, "{ not json");
  r = await inspectJson([s.main]);
  assertEquals(r.code, 1);
  assertEquals(r.report.nogo.status, "invalid");
  assert(r.report.unusableReason!.includes("no-go"), r.report.unusableReason!);
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("inspect: a corrupt main pack is one clear error through the CLI (exit 1)", async () => {
  const s = await makePackSet();
  const raw = await Deno.readFile(s.main);
  await Deno.writeFile(s.main, raw.subarray(0, raw.length - 50)); // truncated gzip
  const r = await captureOutput(() => main(["inspect", s.main]));
  assertEquals(r.value, 1);
  await Deno.writeFile(s.main, gzip(new TextEncoder().encode("XNAV and some bytes...........")));
  const e = await run([s.main]).catch((x) => x);
  assert(e instanceof NavscopeError && e.code === "bad_magic", String(e));
  assert(e.message.includes(s.main), "error names the file");
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("inspect: a sidecar or occluder pack given directly is summarised", async () => {
  const s = await makePackSet();
  let r = await captureOutput(() => run([`${s.dir}/base.fields.nav.gz`, "--json"]));
  assertEquals(r.value, 0);
  assertEquals(JSON.parse(r.out).zones[0].records, s.records);
  r = await captureOutput(() => run([`${s.dir}/base.occluder.gz`, "--json"]));
  assertEquals(JSON.parse(r.out).zones[0].name, s.zone);
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("cli: --help, --version and an unknown command", async () => {
  const help = await captureOutput(() => main(["--help"]));
  assertEquals(help.value, 0);
  assertEquals(await main(["no-such-command"]), 2);
  assertEquals(await main(["--version"]), 0);
});

Deno.test("inspect: a zone without grid records makes the set unusable", async () => {
  const s = await makePackSet(3, true);
  const { code, report } = await inspectJson([s.main]);
  assertEquals(code, 1);
  assertEquals(report.usable, false);
  assert(/has no grid records/.test(report.unusableReason ?? ""), report.unusableReason ?? "");
  await Deno.remove(s.dir, { recursive: true });
});

Deno.test("inspect: --nogo naming a missing file is an error, not an empty table", async () => {
  const s = await makePackSet();
  const r = await captureOutput(() => main(["inspect", s.main, "--nogo", `${s.dir}/nope.json`]));
  assertEquals(r.value, 1);
  let msg = "";
  try {
    await inspectPackSet(s.main, { nogoPath: `${s.dir}/nope.json` });
  } catch (e) {
    msg = e instanceof NavscopeError ? e.message : "";
  }
  assert(/no-go table \(--nogo\).*nope\.json.*cannot be read/.test(msg), msg);
  await Deno.remove(s.dir, { recursive: true });
});
