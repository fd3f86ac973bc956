/**
 * `navscope render-world PACK --zone Z --out map.svg|png`: a top-down picture of a baked zone
 * (reports/render_world.ts) with its landmarks, author no-go polygons and, optionally, a leg
 * battery's endpoints.
 * @module
 */
import { NavscopeError, withLocation } from "../src/errors.ts";
import { fsErrorText, writeFileAtomic } from "../src/codec/mod.ts";
import { readMainPackFile } from "../src/pack/bnav/codec.ts";
import type { MainPack } from "../src/pack/bnav/types.ts";
import { loadNoGoTable } from "../src/pack/nogo/table.ts";
import { pairSidecars } from "../src/pack/set/pairing.ts";
import { parseLandmarks } from "../src/world/landmarks.ts";
import { parseLegs } from "../src/legs/format.ts";
import {
  imageSize,
  type Overlay,
  overlayToRaster,
  paintRaster,
  rasterizeZone,
  selectionNote,
  worldPng,
  worldSvg,
} from "../reports/render_world.ts";
import { parseFlags } from "./support/terminal.ts";
import { requireWritable } from "./support/preflight.ts";

/** One line for the command list. */
export const summary = "Draw a top-down picture of a baked zone (SVG or PNG)";

/** Usage text. */
export const help = `navscope render-world PACK [--zone Z] --out FILE.svg|FILE.png [options]

Draws the zone's grid records seen from above: height shading with a hillshade, core cells,
Dead cells, walkable-but-not-core cells, Ghost/Fill records, columns with several layers and
water triangles, then the landmarks, author no-go polygons (magenta; floor-limited ones purple)
and off-mesh links (orange one-way, green two-way arrows) on top. The legend panel sits to the
right of the map; the size printed is that of the whole image.

  --zone Z            zone name (default: the first zone with triangles). A tier zone is drawn
                      from its parent's records inside the tier's rectangle (mapped by its
                      affine), by default only records within ±2 m of the tier's floor_y
  --out FILE          .svg (raster embedded as PNG + vector overlays) or .png
  --scale S           image pixels per zone px (default: the largest power of two ≤ 16 that
                      keeps the map's sides ≤ 2048; 4 for a 486-px zone)
  --crop X0,Y0,X1,Y1  draw only this rectangle of the zone (px)
  --layer N           draw the N-th record of each column from the bottom (0 = lowest;
                      Fill records are skipped) instead of the top one
  --height-range A..B draw the highest record with A ≤ h ≤ B (metres) of each column
  --landmarks FILE    a world manifest (or landmarks file) with the landmarks to draw
                      (default: world.json next to the pack, if present)
  --legs FILE         also mark the start (green) and goal (blue) of every leg of this zone
  --no-labels         markers without labels

Exit status: 0 written; 1 bad or unreadable input (the message names the file);
2 usage error (bad flag or value, unknown zone).`;

/** Runs render-world; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values: v, positionals } = parseFlags("render-world", args, {
    zone: { type: "string" },
    out: { type: "string" },
    scale: { type: "string" },
    crop: { type: "string" },
    layer: { type: "string" },
    "height-range": { type: "string" },
    landmarks: { type: "string" },
    legs: { type: "string" },
    "no-labels": { type: "boolean" },
  });
  const usage = (what: string, expected?: string): never => {
    throw new NavscopeError(
      "usage",
      `render-world: ${what}${
        expected ? ` (expected ${expected})` : ""
      }; see navscope render-world --help`,
    );
  };
  if (positionals.length !== 1) {
    usage(positionals.length === 0 ? "no PACK given" : "more than one PACK given", "one PACK");
  }
  if (!v.out || !/\.(svg|png)$/i.test(v.out)) {
    usage(
      v.out ? `--out ${JSON.stringify(v.out)}` : "--out FILE is required",
      "FILE.svg or FILE.png",
    );
  }
  const out = v.out!;
  await requireWritable([{ path: out, what: "the picture (--out)" }]);
  const packPath = positionals[0];
  const scale = v.scale === undefined ? undefined : Number(v.scale);
  if (scale !== undefined && !(scale > 0 && scale <= 64)) {
    usage(`bad --scale ${JSON.stringify(v.scale)}`, "a number in (0, 64]");
  }
  let crop: [number, number, number, number] | undefined;
  if (v.crop !== undefined) {
    const c = v.crop.split(",").map(Number);
    if (c.length !== 4 || !c.every(Number.isFinite) || !(c[2] > c[0] && c[3] > c[1])) {
      usage(`bad --crop ${JSON.stringify(v.crop)}`, "X0,Y0,X1,Y1 in px with X0 < X1, Y0 < Y1");
    }
    crop = c as [number, number, number, number];
  }
  let layer: number | undefined;
  if (v.layer !== undefined) {
    layer = Number(v.layer);
    if (!/^\d+$/.test(v.layer) || layer > 255) {
      usage(`bad --layer ${JSON.stringify(v.layer)}`, "an integer 0..255");
    }
  }
  let heightRange: [number, number] | undefined;
  if (v["height-range"] !== undefined) {
    const m = /^\s*(-?[\d.]+(?:e-?\d+)?)\s*\.\.\s*(-?[\d.]+(?:e-?\d+)?)\s*$/i.exec(
      v["height-range"],
    );
    const lo = m ? Number(m[1]) : NaN, hi = m ? Number(m[2]) : NaN;
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi)) {
      usage(`bad --height-range ${JSON.stringify(v["height-range"])}`, "A..B in metres with A ≤ B");
    }
    heightRange = [lo, hi];
  }
  const { pack } = await readMainPackFile(packPath);
  if (!pack.grid) {
    throw new NavscopeError("bad_value", "the pack has no grid section", {
      file: packPath,
      section: "BGRD",
    }, "a baked pack");
  }
  const zone = v.zone ?? pack.zones.find((z) => z.triangleCount > 0)?.name ?? "";
  if (!pack.zones.some((z) => z.name === zone)) {
    usage(
      `unknown zone ${JSON.stringify(zone)} in ${packPath}`,
      `one of ${pack.zones.map((z) => z.name).join(", ")}`,
    );
  }
  const raster = withLocation(
    { file: packPath },
    () => rasterizeZone(pack, zone, { scale, crop, layer, heightRange }),
  );
  const items = (await overlays(packPath, zone, v.landmarks, v.legs, !v["no-labels"]))
    .map((o) => overlayToRaster(raster, o));
  items.unshift(...linkOverlays(pack, raster.tier?.parent ?? zone));
  const cv = paintRaster(raster);
  const title = `${zone} - ${basename(packPath)}`;
  const svg = /\.svg$/i.test(out);
  const data = svg
    ? new TextEncoder().encode(worldSvg(raster, cv, items, title))
    : await worldPng(raster, cv, items, title);
  await writeFileAtomic(out, data);
  const [w, h] = imageSize(raster);
  const note = selectionNote(raster);
  console.log(
    `${out}: ${w}×${h} px (map ${raster.width}×${raster.height} + legend), ` +
      `${raster.records} records${note ? ` (${note})` : ""}, ${items.length} overlays`,
  );
  return 0;
}

/** Off-mesh links of the zone (BOML points are (x px, y px, h m)): arrows, two-way in green. */
export function linkOverlays(pack: MainPack, zone: string): Overlay[] {
  const z = pack.zones.find((r) => r.name === zone);
  if (!z || !pack.offMeshLinks) return [];
  return pack.offMeshLinks.filter((l) => l.zone === z.id).map((l) => ({
    kind: "polyline" as const,
    points: [[l.points[0], l.points[1]], [l.points[3], l.points[4]]] as [number, number][],
    color: l.bidirectional ? "#1a9850" : "#e66101",
    arrow: true,
    width: 1.5,
  }));
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new NavscopeError("io", `cannot read: ${fsErrorText(e)}`, { file: path });
  }
}

/** Overlays for a zone: landmarks (+ rects), author no-go polygons, optional leg endpoints. */
export async function overlays(
  packPath: string,
  zone: string,
  landmarksPath: string | undefined,
  legsPath: string | undefined,
  labels: boolean,
): Promise<Overlay[]> {
  const items: Overlay[] = [];
  const dir = packPath.slice(0, packPath.lastIndexOf("/") + 1);
  const lmPath = landmarksPath ?? `${dir}world.json`;
  const lmText = await readText(lmPath);
  if (lmText === null && landmarksPath !== undefined) {
    throw new NavscopeError("io", "landmarks file not found", { file: landmarksPath });
  }
  const nogo = await loadNoGoTable(pairSidecars(packPath).nogo);
  const z = nogo.zones.get(zone);
  if (z) {
    for (let p = 0; p < z.polyCount; p++) {
      const rings: [number, number][][] = [];
      for (let r = z.polyRingStart[p]; r < z.polyRingStart[p + 1]; r++) {
        const ring: [number, number][] = [];
        for (let k = z.ringPointStart[r]; k < z.ringPointStart[r + 1]; k++) {
          ring.push([z.points[2 * k], z.points[2 * k + 1]]);
        }
        rings.push(ring);
      }
      items.push({
        kind: "polygon",
        rings,
        color: Number.isNaN(z.polyFloor[p]) ? "#d01c8b" : "#7a1fa2",
      });
    }
  }
  if (lmText !== null) {
    for (const l of parseLandmarks(lmText, lmPath)) {
      if (l.zone !== zone) continue;
      if (l.rect && l.rect[2] > l.rect[0] && l.rect[3] > l.rect[1] && l.kind !== "street") {
        items.push({ kind: "rect", x0: l.rect[0], y0: l.rect[1], x1: l.rect[2], y1: l.rect[3] });
      }
      items.push({ kind: "marker", x: l.at[0], y: l.at[1], label: labels ? l.name : undefined });
    }
  }
  if (legsPath !== undefined) {
    const text = await readText(legsPath);
    if (text === null) throw new NavscopeError("io", "legs file not found", { file: legsPath });
    for (const leg of parseLegs(text, legsPath)) {
      if (leg.zone !== zone) continue;
      items.push({
        kind: "polyline",
        points: [leg.start, leg.goal],
        color: "#1f4fd1",
        arrow: true,
        width: 0.8,
      });
      items.push({ kind: "marker", x: leg.start[0], y: leg.start[1], color: "#1a9850" });
      items.push({ kind: "marker", x: leg.goal[0], y: leg.goal[1], color: "#1f4fd1" });
    }
  }
  return items;
}
