/**
 * render-world: the PNG encoder (CRC, chunk layout, pixels round-trip through zlib), the
 * canvas's blending, the zone raster of the committed small world checked at its landmarks (water, stacked
 * decks, roof height, core ground), SVG/PNG output and the command's flags.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { inflateSync } from "node:zlib";
import { Canvas, crc32, encodePng } from "../reports/svg_png.ts";
import {
  CellClass,
  paintRaster,
  rasterizeZone,
  worldPng,
  worldSvg,
  type ZoneRaster,
} from "../reports/render_world.ts";
import { readMainPackFile } from "../src/pack/bnav/codec.ts";
import { parseLandmarks } from "../src/world/landmarks.ts";
import { run } from "../commands/render_world.ts";
import { NavscopeError } from "../src/errors.ts";

const dir = new URL("../examples/city_small/", import.meta.url).pathname;
const pack = (await readMainPackFile(`${dir}base.nav.gz`)).pack;
const marks = parseLandmarks(await Deno.readTextFile(`${dir}world.json`), "world.json");
const raster = rasterizeZone(pack, "map01base");

function px(r: ZoneRaster, name: string, dx = 0, dy = 0): number {
  const l = marks.find((m) => m.name === name)!;
  const x = Math.floor((l.at[0] + dx - r.x0) * r.scale),
    y = Math.floor((l.at[1] + dy - r.y0) * r.scale);
  return y * r.width + x;
}

Deno.test("png: CRC-32 and a 2×1 image round-trip through zlib", () => {
  assertEquals(crc32(new TextEncoder().encode("IEND")), 0xae426082);
  const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 255, 128]);
  const png = encodePng(2, 1, rgba);
  assertEquals([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const dv = new DataView(png.buffer);
  assertEquals(dv.getUint32(16), 2); // IHDR width
  assertEquals(dv.getUint32(20), 1);
  const idatLen = dv.getUint32(33);
  assertEquals(new TextDecoder().decode(png.subarray(37, 41)), "IDAT");
  const raw = new Uint8Array(inflateSync(png.subarray(41, 41 + idatLen)));
  assertEquals([...raw], [0, ...rgba]);
  assertEquals(dv.getUint32(41 + idatLen), crc32(png.subarray(37, 41 + idatLen)));
  assertEquals(encodePng(2, 1, rgba), png); // deterministic
});

Deno.test("canvas: blending, points outside the image ignored", () => {
  const c = new Canvas(20, 10, 0x000000ff);
  c.set(1, 1, 0xffffff80);
  assertEquals([...c.rgba.subarray(4 * 21, 4 * 21 + 4)], [128, 128, 128, 255]);
  const before = c.rgba.slice();
  for (const [x, y] of [[-1, 0], [0, -1], [20, 0], [0, 10]]) c.set(x, y, 0xff0000ff);
  assertEquals(c.rgba, before);
});

Deno.test("raster: landmarks show water, stacked decks, the roof and core ground", () => {
  const r = raster;
  assertEquals(r.scale, 4); // one image pixel per cell for a 486-px zone
  assert(r.records > 1_000_000);
  assertEquals(r.water[px(r, "river", -5)], 1);
  assertEquals(r.top[px(r, "roof_a", 0.1, 0.1)], 12);
  assert(r.layers[px(r, "roof_a", 0.1, 0.1)] >= 4, "building column holds 4+ layers");
  const deck = px(r, "bridge", 0.1, 0.1);
  assertEquals(r.top[deck], 6);
  assert(r.layers[deck] >= 2);
  assertEquals(r.cls[px(r, "plaza")], CellClass.Core);
  assertEquals(r.top[px(r, "mesa")], 8);
  assert(Number.isNaN(r.top[px(r, "empty_lot")]));
  const crop = rasterizeZone(pack, "map01base", { scale: 8, crop: [100, 100, 140, 120] });
  assertEquals([crop.width, crop.height], [320, 160]);
});

Deno.test("render: SVG embeds the raster and labels; PNG is that SVG with its legend column", async () => {
  const cv = paintRaster(raster);
  const items = [{ kind: "marker" as const, x: 45, y: 28, label: "plaza<&>" }, {
    kind: "polygon" as const,
    rings: [[[375, 65], [385, 65], [385, 75]]] as [number, number][][],
  }, { kind: "polyline" as const, points: [[1, 1], [50, 50]] as [number, number][], arrow: true }];
  const svg = worldSvg(raster, cv, items, "t");
  assert(svg.startsWith("<svg") && svg.includes("data:image/png;base64,iVBOR"));
  assert(
    svg.includes("plaza&lt;&amp;&gt;") && svg.includes("<polyline") && svg.includes('<path d="M'),
  );
  const png = await worldPng(raster, cv, items, "t");
  assertEquals(new DataView(png.buffer).getUint32(16), raster.width + 190);
  assertEquals(new DataView(png.buffer).getUint32(20), Math.max(raster.height, 200));
});

Deno.test("render-world command: svg and png files, bad flags", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const log = console.log;
    console.log = () => {};
    try {
      assertEquals(
        await run([
          `${dir}base.nav.gz`,
          "--zone",
          "map01base",
          "--out",
          `${tmp}/m.svg`,
          "--crop",
          "0,0,120,120",
        ]),
        0,
      );
      assertEquals(
        await run([
          `${dir}base.nav.gz`,
          "--out",
          `${tmp}/m.png`,
          "--scale",
          "1",
          "--legs",
          `${dir}legs.json`,
        ]),
        0,
      );
    } finally {
      console.log = log;
    }
    assert((await Deno.readTextFile(`${tmp}/m.svg`)).includes("ledge_plain") === false);
    assert((await Deno.readTextFile(`${tmp}/m.svg`)).includes(">plaza<"));
    assertEquals([...(await Deno.readFile(`${tmp}/m.png`)).subarray(1, 4)], [80, 78, 71]);
    assert(
      (await assertRejects(run([`${dir}base.nav.gz`, "--out", `${tmp}/m.gif`]))) instanceof
        NavscopeError,
    );
    assert(
      (await assertRejects(
        run([`${dir}base.nav.gz`, "--out", `${tmp}/m.svg`, "--zone", "nope"]),
      )) instanceof NavscopeError,
    );
    assert(
      (await assertRejects(
        run([`${dir}base.nav.gz`, "--out", `${tmp}/m.svg`, "--crop", "1,2"]),
      )) instanceof NavscopeError,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
