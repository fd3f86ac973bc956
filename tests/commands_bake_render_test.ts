/**
 * Issue 10, what a new user hits in `bake`, `gen` and `render-world`: a zone with no grid
 * records, the progress bar (TTY only), permission/OS errors naming the path, `--workers -1`,
 * the ignored OBJ line count, `gen --real` with --seed/--scale, the record estimate, and
 * render-world's errors, exit codes, image size, --layer / --height-range and tier zones.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { captureOutput, io } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { run as bake } from "../commands/bake.ts";
import { run as gen } from "../commands/gen.ts";
import { NavscopeError } from "../src/errors.ts";
import { bakeManifestFile, type BakeProgress, bakeToDirectory } from "../src/world/bake_world.ts";
import { generateWorld } from "../src/world/generator.ts";
import { readMainPackFile } from "../src/pack/bnav/codec.ts";
import { parseBgrd } from "../src/pack/bgrd/section.ts";
import { summarizeBgrd } from "../src/pack/bgrd/summary.ts";
import { rasterizeZone } from "../reports/render_world.ts";

const EX = new URL("../examples/city_small/", import.meta.url).pathname;
const FLOOR = "v 0 0 0\nv 0 0 20\nv 20 0 20\nv 20 0 0\nvt 0 0\nvn 0 1 0\ns off\nf 1 2 3\nf 1 3 4\n";

async function world(obj: string, zone: Record<string, unknown> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "navscope-cmd-" });
  await Deno.writeTextFile(`${dir}/m.obj`, obj);
  await Deno.writeTextFile(
    `${dir}/w.json`,
    JSON.stringify({
      format: "navscope-world",
      version: 1,
      zones: [{ name: "z", size_px: [24, 24], meshes: [{ file: "m.obj" }], ...zone }],
    }),
  );
  return dir;
}

/** Runs the CLI entry with stdout/stderr captured; `err` also gets console.error. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = [console.log, console.error];
  let out = "", err = "";
  console.log = (...a: unknown[]) => void (out += a.join(" ") + "\n");
  console.error = (...a: unknown[]) => void (err += a.join(" ") + "\n");
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: out + c.out, err: err + c.err };
  } finally {
    [console.log, console.error] = saved;
  }
}

Deno.test("bake: a zone whose mesh lies outside its rectangle is an error, not 0 records", async () => {
  const dir = await world(FLOOR, { origin_px: [100, 100], size_px: [24, 24] });
  try {
    const e = await assertRejects(bakeManifestFile(`${dir}/w.json`)) as NavscopeError;
    assertEquals(e.code, "bad_value");
    assert(
      /w\.json: \$\.zones\[0\], zone z: the zone bakes to no grid records/.test(e.message),
      e.message,
    );
    assert(/origin_px \[100,100\].*spans 0\.\.20 × 0\.\.20 px/.test(e.message), e.message);
    const r = await cli(["bake", `${dir}/w.json`, "--out", `${dir}/o`, "--workers", "1"]);
    assertEquals(r.code, 1);
    assert(!(await Deno.stat(`${dir}/o/base.nav.gz`).catch(() => null)), "no pack written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bake: progress reaches every tile; a bar on a TTY stderr, nothing otherwise", async () => {
  const dir = await world(FLOOR);
  try {
    const seen: BakeProgress[] = [];
    await bakeToDirectory(`${dir}/w.json`, `${dir}/o`, {
      workers: 1,
      onProgress: (p) => seen.push(p),
    });
    assertEquals(seen.map((p) => `${p.stage} ${p.done}/${p.total}`), [
      "pass1 1/1",
      "pass2 1/1",
      "assemble 1/1",
    ]);
    assert(seen[2].records > 0 && seen[2].zone === "z");
    // Not a terminal: no progress output at all.
    const plain = await captureOutput(() =>
      bake([`${dir}/w.json`, "--out", `${dir}/o`, "--workers", "1"])
    );
    assertEquals(plain.err, "");
    // A terminal: the bar is drawn and erased on stderr.
    let err = "";
    const c = await captureOutput(async () => {
      io.err = { write: (t) => void (err += t), isTerminal: true };
      return await bake([`${dir}/w.json`, "--out", `${dir}/o`, "--workers", "2", "--json"]);
    });
    assertEquals(c.value, 0);
    assert(
      /\r\[#+-*\] +\d+% zone z 1\/1: \w+ 1\/1 tiles, \d+ records/.test(err),
      JSON.stringify(err),
    );
    assert(err.endsWith("\r\x1b[K"), "the bar is erased at the end");
    // The OBJ statements the import ignores are counted in the report (vt, vn, s).
    const j = JSON.parse(c.out);
    assertEquals(j.zones[0].meshes[0].ignoredLines, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bake: OS and permission errors name the path, without Deno's --allow hint", async () => {
  const dir = await world(FLOOR);
  try {
    await Deno.writeTextFile(`${dir}/file`, "x");
    const r = await cli(["bake", `${dir}/w.json`, "--out", `${dir}/file/sub`]);
    assertEquals(r.code, 1);
    // Refused before baking (docs/exit_codes.md: outputs checked writable before work).
    assert(r.err.includes(`${dir}/file/sub: cannot write the bake output (--out):`), r.err);
    assert(!/allow|os error/.test(r.err), r.err);
    const w = await cli(["bake", `${dir}/w.json`, "--out", `${dir}/o`, "--workers", "-1"]);
    assertEquals(w.code, 2);
    assert(/--workers "-1" \(expected an integer 1\.\.256\)/.test(w.err), w.err);
    assert(!/ambiguous/.test(w.err), w.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // A permission Deno refuses (no --allow-write) reads "not permitted", not "run again with".
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      new URL("../commands/main.ts", import.meta.url).pathname,
      "bake",
      new URL("./fixtures/bake/manifest.json", import.meta.url).pathname,
      "--out",
      "/tmp/navscope-no-write-permission",
    ],
    stdout: "piped",
    stderr: "piped",
  });
  const o = await child.output();
  const err = new TextDecoder().decode(o.stderr);
  assertEquals(o.code, 1, err);
  assert(
    /\/tmp\/navscope-no-write-permission: cannot write the bake output \(--out\): not permitted/
      .test(err),
    err,
  );
  assert(!/run again/.test(err), err);
});

Deno.test("gen: --real rejects --seed/--scale/--zone; the record estimate matches a bake", async () => {
  for (const extra of [["--seed", "3"], ["--scale", "2"], ["--zone", "x"]]) {
    const e = await assertRejects(gen(["--real", "nav_test", "--out", "/tmp/never", ...extra]));
    assert(e instanceof NavscopeError && e.code === "usage", String(e));
    assert(/--real cannot be combined with --(seed|scale|zone)/.test(e.message), e.message);
  }
  // The committed small world is `gen --seed 1 --scale 1`: its BGRD record count is known.
  const est = generateWorld({ seed: 1, scale: 1 }).stats.estimatedRecords;
  const { pack } = await readMainPackFile(`${EX}base.nav.gz`);
  const baked = summarizeBgrd(parseBgrd(pack.grid!)).total.records;
  assert(Math.abs(est - baked) / baked < 0.05, `estimate ${est} vs baked ${baked}`);
});

Deno.test("render-world: unknown zone exits 2, errors name the file, short usage messages", async () => {
  const z = await cli([
    "render-world",
    `${EX}base.nav.gz`,
    "--zone",
    "nosuch",
    "--out",
    "/tmp/x.png",
  ]);
  assertEquals(z.code, 2);
  assert(
    /unknown zone "nosuch" in .*base\.nav\.gz \(expected one of map01base, map01lv001\)/.test(
      z.err,
    ),
    z.err,
  );
  const u = await cli(["render-world", `${EX}base.nav.gz`, "--out", "/tmp/x.gif"]);
  assertEquals(u.code, 2);
  assert(u.err.split("\n").filter((l) => l).length === 1 && /--help/.test(u.err), u.err);
  assert(!u.err.includes("Draws the zone"), "no help text pasted into the error");
  const b = await cli(["render-world", `${EX}base.nav.gz`, "--bogus", "--out", "/tmp/x.png"]);
  assertEquals(b.code, 2);
  assert(/Unknown option '--bogus'.*--help/.test(b.err) && !b.err.includes("Draws"), b.err);
  const f = await cli(["render-world", "/nonexistent/p.nav.gz", "--out", "/tmp/x.png"]);
  assertEquals(f.code, 1);
  assert(f.err.includes("/nonexistent/p.nav.gz"), f.err);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/legs.json`, '{\n  "legs": [,]\n}');
    const l = await cli([
      "render-world",
      `${EX}base.nav.gz`,
      "--out",
      `${dir}/m.png`,
      "--legs",
      `${dir}/legs.json`,
    ]);
    assertEquals(l.code, 1);
    assert(l.err.includes(`${dir}/legs.json: line 2, column 12`), l.err);
    for (
      const bad of [["--layer", "-1"], ["--layer", "x"], ["--height-range", "5"], [
        "--height-range",
        "9..2",
      ]]
    ) {
      const r = await cli(["render-world", `${EX}base.nav.gz`, "--out", `${dir}/m.png`, ...bad]);
      assertEquals(r.code, 2, bad.join(" "));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render-world: the printed size includes the legend; --layer, --height-range, tier zones", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await cli([
      "render-world",
      `${EX}base.nav.gz`,
      "--out",
      `${dir}/m.png`,
      "--scale",
      "1",
    ]);
    assertEquals(r.code, 0);
    const png = await Deno.readFile(`${dir}/m.png`);
    const dv = new DataView(png.buffer);
    const [w, h] = [dv.getUint32(16), dv.getUint32(20)];
    assert(r.out.startsWith(`${dir}/m.png: ${w}×${h} px (map 486×486 + legend)`), r.out);
    const t = await cli([
      "render-world",
      `${EX}base.nav.gz`,
      "--zone",
      "map01lv001",
      "--out",
      `${dir}/t.svg`,
    ]);
    assertEquals(t.code, 0, t.err);
    assert(/tier of map01base, h 14\.\.18 m/.test(t.out), t.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const { pack } = await readMainPackFile(`${EX}base.nav.gz`);
  const crop: [number, number, number, number] = [60, 60, 200, 200];
  const top = rasterizeZone(pack, "map01base", { crop, scale: 1 });
  const low = rasterizeZone(pack, "map01base", { crop, scale: 1, layer: 0 });
  const band = rasterizeZone(pack, "map01base", { crop, scale: 1, heightRange: [5, 7] });
  let lower = 0, differs = 0;
  for (let p = 0; p < top.top.length; p++) {
    if (Number.isNaN(top.top[p])) continue;
    assert(!(low.top[p] > top.top[p]), "layer 0 is never above the top record");
    if (low.top[p] < top.top[p]) lower++;
    if (!Number.isNaN(band.top[p])) assert(band.top[p] >= 5 && band.top[p] <= 7);
    if (band.top[p] !== top.top[p]) differs++;
  }
  assert(lower > 0, "stacked columns show their lowest layer with --layer 0");
  assert(differs > 0);
  // The tier zone: the parent's records in the tier's rectangle, near its floor (16 m).
  const tier = rasterizeZone(pack, "map01lv001");
  assertEquals(tier.tier?.parent, "map01base");
  assertEquals([tier.x0, tier.y0, tier.widthPx, tier.heightPx], [440, 435, 30, 30]);
  assert(tier.records > 0);
  for (const v of tier.top) if (!Number.isNaN(v)) assert(v >= 14 && v <= 18, `height ${v}`);
});
