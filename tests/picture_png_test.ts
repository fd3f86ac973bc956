/**
 * Pictures that explain themselves (issue 53): every picture (the replayed leg's drill-down SVG,
 * the log-only picture on a plain grid, the triage PNGs) has a legend entry for exactly the
 * layers it draws; the PNG is the SVG rendered with a real font, so the title area holds words
 * (dark pixels that vanish when the title is removed) and a Chinese message renders as glyphs,
 * not as the font's missing-glyph box. PNGs are decoded by tests/png_decode.ts, not by the
 * renderer.
 */
import { assert, assertEquals } from "./assert.ts";
import { openEngine } from "../src/plan/engine.ts";
import type { PlanRequest } from "../src/plan/types.ts";
import { legSvg } from "../reports/leg_svg.ts";
import { legPictureSvg, type LegPngInput } from "../reports/leg_png.ts";
import { logLegSvg } from "../reports/log_picture.ts";
import { rasterFont, svgToPng } from "../reports/svg_raster.ts";
import { triage } from "../src/jobs/triage.ts";
import { darkPixels, decodePng } from "./png_decode.ts";

const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;
const BUNDLE = new URL("../examples/bundle/", import.meta.url).pathname;

/** Footbridge closed by a runtime disc, in a small forced window (as plan_picture_test). */
const DISCONNECTED: PlanRequest = {
  zone: "map01base",
  start: [364.75, 85],
  goal: [364.75, 150],
  noGoDiscs: [{ x: 364.75, y: 115, r: 3 }],
  overrides: { window: [1400, 320, 120, 300] },
};

/** The log's layers of a made-up leg: planned path, track, a zipline hop. */
const LOG: Omit<LegPngInput, "picture"> = {
  title: "leg 1 · route_disconnected · map01base · CrossBridge",
  message: "起点与终点不连通",
  notes: ["zone map01base not in the packs: no walkable cells drawn"],
  start: [364.75, 85],
  goal: [364.75, 150],
  planned: [[[364.75, 85], [364.75, 110], [364.75, 150]]],
  track: [[[364.5, 85.5], [364.9, 96], [365.2, 104]]],
  hops: [{ from: [365.2, 104], to: [366, 130], outcome: "aim failed" }],
};

/** The panel's words, lines joined by spaces (the panel wraps long lines). */
const wordsOf = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(" ");
const layersOf = (svg: string) =>
  new Set([...svg.matchAll(/<g data-layer="([^"]+)"/g)].map((m) => m[1]));
const legendOf = (svg: string) =>
  new Set([...svg.matchAll(/data-legend-for="([^"]+)"/g)].map((m) => m[1]));

/** Every drawn layer has a legend entry and every entry a drawn layer; returns the layers. */
function assertLegendMatches(svg: string, what: string): Set<string> {
  const drawn = layersOf(svg), legend = legendOf(svg);
  assertEquals([...legend].sort(), [...drawn].sort(), `${what}: legend entries = drawn layers`);
  assertEquals(
    svg.match(/data-legend-for=/g)?.length,
    legend.size,
    `${what}: one legend entry per layer`,
  );
  for (const m of svg.matchAll(/<g data-layer="([^"]+)"[^>]*>(.*?)<\/g>/g)) {
    assert(m[2] !== "", `${what}: layer ${m[1]} draws something`);
  }
  return drawn;
}

Deno.test("pictures: the legend names exactly the layers drawn (replayed leg, log-only leg, endpoints only)", async () => {
  const engine = await openEngine(PACK);
  try {
    const r = await engine.plan(DISCONNECTED, { picture: true });
    assert(r.picture, "a picture");
    const replayed = legPictureSvg({ ...LOG, picture: r.picture });
    const a = assertLegendMatches(replayed, "replayed");
    for (const id of ["flood-fwd", "flood-rev", "gap", "discs", "endpoints", "scale"]) {
      assert(a.has(id), `replayed draws ${id}`);
    }
    for (const id of ["logpath0", "track0", "zipline"]) assert(a.has(id), `replayed draws ${id}`);
    assert(
      wordsOf(replayed).includes("Planner: 起点与终点不连通"),
      "the planner's message is in the panel",
    );
    // A track leaving the crop is said to, so a cut track does not read as a short one.
    const far = legPictureSvg({
      ...LOG,
      picture: r.picture,
      track: [[[364.75, 85], [900, 85], [901, 86]]],
    });
    assert(
      wordsOf(far).includes("observed track (log): 2 of 3 points outside this crop."),
      wordsOf(far),
    );
    assert(!wordsOf(replayed).includes("outside this crop"), "nothing outside: no note");
    const plain = legSvg(r.picture, "plan --svg");
    const b = assertLegendMatches(plain, "plan --svg");
    assert(!b.has("zipline") && !b.has("track0"), "nothing of the log without the log");
  } finally {
    engine.close();
  }
  const log = legPictureSvg({ ...LOG, picture: null });
  assertEquals(
    [...assertLegendMatches(log, "log-only")].sort(),
    ["endpoints", "grid", "logpath", "scale", "track", "zipline"],
  );
  assert(
    wordsOf(log).includes("zone map01base not in the packs: no walkable cells drawn"),
    wordsOf(log),
  );
  assert(log.includes("aim failed"), "the hop's outcome");
  const bare = logLegSvg({ title: "t", start: [1, 2], goal: [30, 40], planned: [], track: [] });
  assertEquals([...assertLegendMatches(bare, "endpoints only")].sort(), [
    "endpoints",
    "grid",
    "scale",
  ]);
});

/** The panel's left edge and scale in PNG pixels (the root's width maps to the PNG's). */
function panelBox(svg: string, pngWidth: number, h: number): [number, number, number, number] {
  const rootW = +/<svg[^>]*\swidth="([\d.]+)"/.exec(svg)![1];
  const px = +/class="panel" transform="translate\(([\d.]+),0\)/.exec(svg)![1];
  const k = pngWidth / rootW;
  return [Math.floor(px * k), 0, pngWidth, Math.ceil(h * k)];
}

Deno.test("PNG: the title is written in words (dark pixels in the title area, none without it)", async () => {
  const svg = logLegSvg({ ...LOG, title: LOG.title!, notes: [], message: "" });
  const img = decodePng(await svgToPng(svg));
  const box = panelBox(svg, img.width, 20);
  const font = await rasterFont();
  const ink = darkPixels(img, box);
  const untitled = decodePng(await svgToPng(svg.replace(/(font-weight="bold">)[^<]*/g, "$1")));
  if (!font.path) {
    // No font on this machine: text is left out, and said so on stderr (svg_raster.ts).
    assertEquals(ink, 0);
    return;
  }
  assert(ink > 150, `title pixels: ${ink}`);
  assertEquals(darkPixels(untitled, box), 0, "no ink there without the title");
  // Same SVG, same bytes.
  assertEquals(await svgToPng(svg), await svgToPng(svg));
});

const font = await rasterFont();

Deno.test({
  name: "PNG: a Chinese message renders as glyphs, not as the missing-glyph box",
  ignore: !font.cjk,
  fn: async () => {
    const glyph = async (ch: string) =>
      decodePng(
        await svgToPng(
          `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" font-family="sans-serif">` +
            `<text x="10" y="60" font-size="56">${ch}</text></svg>`,
        ),
      );
    const diff = (a: { rgba: Uint8Array }, b: { rgba: Uint8Array }) =>
      a.rgba.reduce((n, v, i) => n + (Math.abs(v - b.rgba[i]) > 64 ? 1 : 0), 0);
    const [qi, dian, pua1, pua2] = await Promise.all(
      ["起", "点", "\uE000", "\uE001"].map(glyph),
    );
    const all: [number, number, number, number] = [0, 0, 80, 80];
    assert(darkPixels(qi, all) > 200, `ink of 起: ${darkPixels(qi, all)}`);
    // Two code points without a glyph draw the same missing-glyph box; two CJK glyphs differ
    // from each other and from that box.
    assertEquals(diff(pua1, pua2), 0, "the missing-glyph box is one picture");
    assert(diff(qi, dian) > 200, `起 vs 点: ${diff(qi, dian)}`);
    assert(diff(qi, pua1) > 200, `起 vs the box: ${diff(qi, pua1)}`);
  },
});

Deno.test("triage without a pack: every leg's PNG has a title in words", async () => {
  const zips: string[] = [];
  for await (const e of Deno.readDir(BUNDLE)) {
    if (e.name.endsWith(".zip")) zips.push(BUNDLE + e.name);
  }
  const r = await triage(zips.sort());
  assert(r.pngs.size >= 1, "pictures");
  for (const [name, png] of r.pngs) {
    const img = decodePng(png);
    // The panel is the right-hand 340 units; the title its first line.
    const ink = darkPixels(img, [img.width - 340, 0, img.width, 20]);
    if (font.path) assert(ink > 100, `${name}: title pixels ${ink}`);
  }
});

/** Runs tests/raster_font_probe.ts with reading limited to the checkout and `extra`. */
async function probe(extra: string[]) {
  const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--allow-read=${[root, ...extra].join(",")}`,
      `${root}/tests/raster_font_probe.ts`,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  return {
    code: out.code,
    err,
    said: (re: RegExp) => err.split("\n").filter((l) => re.test(l)).length,
    result: JSON.parse(new TextDecoder().decode(out.stdout)) as {
      font: { path: string; cjk: boolean };
      sizes: number[];
    },
  };
}

Deno.test({
  name: "PNG without a CJK font, or without any font: rendered all the same, said once on stderr",
  fn: async () => {
    const none = await probe([]);
    assertEquals(none.code, 0, none.err);
    assertEquals(none.result.font.path, "");
    assertEquals(none.said(/no font found/), 1, none.err);
    assert(none.result.sizes.every((n) => n > 50), "PNGs all the same");
    const latin = await probe(["/usr/share/fonts/truetype"]);
    assertEquals(latin.code, 0, latin.err);
    if (latin.result.font.path) {
      assertEquals(latin.result.font.cjk, false);
      assertEquals(latin.said(/no CJK font found/), 1, latin.err);
    }
  },
});

Deno.test("PNG: resvg's failure on shapes wholly outside a clip is worked around, never a crash", async () => {
  const far = `<polygon points="5632,-2044 5792,-2044 5792,-2204" fill="#f66"/>`;
  // A map clipped at the origin: drawn unclipped, the spill painted over (unclipMaps).
  const nested = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">` +
    `<svg class="map" width="300" height="300" viewBox="0 0 300 300" overflow="hidden">${far}` +
    `<rect width="400" height="10" fill="#000"/></svg><text x="310" y="20">t</text></svg>`;
  const a = decodePng(await svgToPng(nested));
  assertEquals([a.width, a.height], [400, 300]);
  assert(darkPixels(a, [0, 0, 300, 10]) > 2000, "the map's bar");
  assertEquals(darkPixels(a, [300, 0, 400, 10], 96) < 60, true, "its spill painted over");
  // A marker wholly outside the canvas fails too: the fallback drawing without markers, clips
  // and group opacity still gives the picture (and says so once on stderr).
  const marker = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">` +
    `<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" ` +
    `markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z"/></marker></defs>` +
    `<rect width="50" height="50"/>` +
    `<polyline points="1680,760 1860,800" stroke="#00f" marker-end="url(#a)"/></svg>`;
  const b = decodePng(await svgToPng(marker));
  assert(darkPixels(b, [10, 10, 50, 50]) > 1000, "drawn");
});
