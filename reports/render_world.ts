/**
 * Top-down pictures of a baked zone (`navscope render-world`): the grid records of the main
 * pack's BGRD section drawn per cell block — the top span's height as shading with a hillshade,
 * core cells vs Dead cells vs walkable-but-not-core cells, Ghost/Fill records, columns holding
 * several layers, water triangles (surface flag 0x2) under everything — plus overlays:
 * landmarks, author no-go polygons, off-mesh links, and later leg routes (the same overlay
 * model). Output is SVG (the raster embedded as a PNG data URI, overlays as vectors) or PNG
 * (that SVG rendered with a real font by reports/svg_raster.ts).
 *
 * Image axes follow the base map: x to the right, y downwards, 1 zone px = `scale` pixels.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { type MainPack, ZONE_FLAG_TIER } from "../src/pack/bnav/types.ts";
import { decodeBgrdTile, findBgrdZone, parseBgrd } from "../src/pack/bgrd/section.ts";
import { K_CS, SpanFlag } from "../src/pack/grid_types.ts";
import { base64, Canvas } from "./svg_png.ts";
import { svgToPng } from "./svg_raster.ts";

/** Cell classes of the top record of an image pixel. */
export const CellClass = { Empty: 0, Core: 1, Walk: 2, Dead: 3, Ghost: 4, DeadCore: 5 } as const;

/** The zone rasterised at `scale` image pixels per zone px. */
export interface ZoneRaster {
  /** Zone name. */
  zone: string;
  /** Zone origin, px. */
  x0: number;
  /** Zone origin, px. */
  y0: number;
  /** Zone size, px. */
  widthPx: number;
  /** Zone size, px. */
  heightPx: number;
  /** Image pixels per zone px. */
  scale: number;
  /** Image width. */
  width: number;
  /** Image height. */
  height: number;
  /** Top height per pixel (NaN where empty). */
  top: Float32Array;
  /** {@link CellClass} of the top record per pixel. */
  cls: Uint8Array;
  /** Most layers (records) in one cell of the pixel. */
  layers: Uint8Array;
  /** 1 where a water triangle covers the pixel centre. */
  water: Uint8Array;
  /** Records drawn. */
  records: number;
  /** Shading range [lo, hi], m: 2nd–98th percentile of the whole zone's record heights. */
  range: [number, number];
  /** Which records were drawn: the top one per cell, layer N (0 = lowest) or a height band. */
  select: { layer?: number; heightRange?: [number, number] };
  /**
   * For a tier zone: its parent (whose grid records are drawn) and the tier → parent px affine;
   * the raster's `x0`/`y0`/`scale` are then in parent px.
   */
  tier?: { parent: string; affine: { sx: number; tx: number; sy: number; ty: number } };
}

/** An overlay item, in zone px. */
export type Overlay =
  | { kind: "marker"; x: number; y: number; label?: string; color?: string }
  | { kind: "rect"; x0: number; y0: number; x1: number; y1: number; color?: string }
  | { kind: "polygon"; rings: [number, number][][]; color?: string; label?: string }
  | {
    kind: "polyline";
    points: [number, number][];
    color?: string;
    arrow?: boolean;
    width?: number;
  };

/** Options of {@link rasterizeZone}. */
export interface RasterOptions {
  /** Image pixels per zone px; default: the largest power of two keeping both sides ≤ 2048. */
  scale?: number;
  /** Only this rectangle of the zone, px [x0, y0, x1, y1] (zone frame). */
  crop?: [number, number, number, number];
  /** Draw layer N of each column (0 = lowest non-Fill record) instead of the top record. */
  layer?: number;
  /** Draw the highest record with lo ≤ h ≤ hi (m) of each column instead of the top record. */
  heightRange?: [number, number];
}

/**
 * Default height band of a tier zone: its floor ± 2 m (the planner's deck tolerance, spec 吸附:
 * |H − deck| > 2 ranks a face last), so the picture shows that storey, not the roof above it.
 */
export const TIER_BAND_M = 2;

/** Rasterises one zone of a decoded main pack. */
export function rasterizeZone(pack: MainPack, zone: string, opts: RasterOptions = {}): ZoneRaster {
  if (!pack.grid) {
    throw new NavscopeError(
      "bad_value",
      "the pack has no grid section",
      { section: "BGRD" },
      "a baked pack",
    );
  }
  const tierRec = pack.zones.find((z) => z.name === zone);
  if (tierRec && (tierRec.flags & ZONE_FLAG_TIER) !== 0) return rasterizeTier(pack, tierRec, opts);
  const grid = parseBgrd(pack.grid);
  const zi = findBgrdZone(grid, zone);
  const zrec = pack.zones.find((z) => z.name === zone);
  if (zi < 0 || !zrec) {
    throw new NavscopeError(
      "bad_value",
      `no zone ${JSON.stringify(zone)} in the grid section`,
      { section: "BGRD", zone },
      `one of ${grid.zones.map((z) => z.name).join(", ")}`,
    );
  }
  const ze = grid.zones[zi];
  const [cx0, cy0, cx1, cy1] = opts.crop ?? [0, 0, zrec.width, zrec.height];
  if (!(cx1 > cx0 && cy1 > cy0)) {
    throw new NavscopeError("usage", `empty crop ${opts.crop}`, { zone }, "x0 < x1 and y0 < y1");
  }
  const widthPx = cx1 - cx0, heightPx = cy1 - cy0;
  let scale = opts.scale ?? 0;
  if (!(scale > 0)) {
    scale = 1 / 64;
    while (scale * 2 * Math.max(widthPx, heightPx) <= 2048 && scale < 16) scale *= 2;
  }
  const width = Math.max(1, Math.ceil(widthPx * scale)),
    height = Math.max(1, Math.ceil(heightPx * scale));
  const n = width * height;
  const r: ZoneRaster = {
    zone,
    x0: ze.x0 + cx0,
    y0: ze.y0 + cy0,
    widthPx,
    heightPx,
    scale,
    width,
    height,
    top: new Float32Array(n).fill(NaN),
    cls: new Uint8Array(n),
    layers: new Uint8Array(n),
    water: new Uint8Array(n),
    records: 0,
    range: [0, 1],
    select: {
      ...(opts.layer === undefined ? {} : { layer: opts.layer }),
      ...(opts.heightRange === undefined ? {} : { heightRange: opts.heightRange }),
    },
  };
  const selecting = opts.layer !== undefined || opts.heightRange !== undefined;
  const sample: number[] = [];
  waterMask(pack, zrec.firstTriangle, zrec.triangleCount, r);
  const perCell = scale * K_CS; // image pixels per cell
  for (let t = 0; t < ze.tiles.length; t++) {
    const tile = ze.tiles[t];
    const s = decodeBgrdTile(grid, zi, t);
    let i = 0;
    while (i < s.n) {
      const c = s.cell[i];
      let e = i + 1;
      while (e < s.n && s.cell[e] === c) e++;
      const lx = c % tile.nx, ly = (c - lx) / tile.nx;
      if (lx >= tile.px0 && lx <= tile.px1 && ly >= tile.py0 && ly <= tile.py1) {
        const k = selecting ? selectRecord(s.h, s.flags, i, e, opts) : -1;
        // Zone-wide sample (every 16th owned cell) so crops share one colour scale.
        if ((c & 15) === 0) {
          if (!selecting && !(s.flags[e - 1] & SpanFlag.Fill)) sample.push(s.h[e - 1]);
          else if (selecting && k >= 0) sample.push(s.h[k]);
        }
        const gx = tile.gx0 + lx, gy = tile.gy0 + ly;
        const ix = Math.floor((gx * K_CS - r.x0) * scale);
        const iy = Math.floor((gy * K_CS - r.y0) * scale);
        if (selecting && k < 0) {
          // no record of this column is selected: the cell stays empty
        } else if (ix >= 0 && iy >= 0 && ix < width && iy < height) {
          if (selecting) putCell(r, iy * width + ix, s.h, s.flags, k, k + 1, e - i);
          else putCell(r, iy * width + ix, s.h, s.flags, i, e);
          r.records += selecting ? 1 : e - i;
          if (perCell > 1) spread(r, ix, iy, Math.ceil(perCell));
        }
      }
      i = e;
    }
  }
  r.range = percentileRange(sample);
  return r;
}

/**
 * The record of cell records [i, e) chosen by `layer` (N-th lowest non-Fill record) or
 * `heightRange` (the highest non-Fill record inside the band); −1 when none qualifies.
 */
function selectRecord(
  h: Float32Array,
  f: Uint8Array,
  i: number,
  e: number,
  opts: RasterOptions,
): number {
  const ks: number[] = [];
  for (let k = i; k < e; k++) {
    if (f[k] & SpanFlag.Fill) continue;
    if (opts.heightRange && !(h[k] >= opts.heightRange[0] && h[k] <= opts.heightRange[1])) {
      continue;
    }
    ks.push(k);
  }
  if (ks.length === 0) return -1;
  ks.sort((a, b) => h[a] - h[b] || a - b);
  if (opts.layer !== undefined) return opts.layer < ks.length ? ks[opts.layer] : -1;
  return ks[ks.length - 1];
}

/** A tier zone: its parent's records inside the tier's rectangle (mapped by its affine). */
function rasterizeTier(
  pack: MainPack,
  tier: MainPack["zones"][number],
  opts: RasterOptions,
): ZoneRaster {
  const parent = pack.zones.find((z) => z.id === tier.componentCount && z.name !== tier.name);
  if (!parent) {
    throw new NavscopeError(
      "bad_value",
      `tier zone ${
        JSON.stringify(tier.name)
      } names parent id ${tier.componentCount}, which no zone has`,
      { section: "BGEO zone table", zone: tier.name },
      "the id of a zone of the pack",
    );
  }
  const a = tier.affine;
  const [tx0, ty0, tx1, ty1] = opts.crop ?? [0, 0, tier.width, tier.height];
  const xs = [a.sx * tx0 + a.tx, a.sx * tx1 + a.tx].sort((p, q) => p - q);
  const ys = [a.sy * ty0 + a.ty, a.sy * ty1 + a.ty].sort((p, q) => p - q);
  const grid = parseBgrd(pack.grid!);
  const zi = findBgrdZone(grid, parent.name);
  const ox = zi >= 0 ? grid.zones[zi].x0 : 0, oy = zi >= 0 ? grid.zones[zi].y0 : 0;
  const s = Math.max(Math.abs(a.sx), Math.abs(a.sy));
  const r = rasterizeZone(pack, parent.name, {
    crop: [xs[0] - ox, ys[0] - oy, xs[1] - ox, ys[1] - oy],
    scale: opts.scale === undefined ? undefined : opts.scale / s,
    layer: opts.layer,
    heightRange: opts.layer !== undefined || opts.heightRange !== undefined
      ? opts.heightRange
      : [tier.floorY - TIER_BAND_M, tier.floorY + TIER_BAND_M],
  });
  return { ...r, zone: tier.name, tier: { parent: parent.name, affine: { ...a } } };
}

/** A tier zone's overlay (tier template px) moved into the raster's parent-px frame. */
export function overlayToRaster(r: ZoneRaster, o: Overlay): Overlay {
  if (!r.tier) return o;
  const { sx, tx, sy, ty } = r.tier.affine;
  const P = (p: [number, number]): [number, number] => [sx * p[0] + tx, sy * p[1] + ty];
  switch (o.kind) {
    case "marker": {
      const [x, y] = P([o.x, o.y]);
      return { ...o, x, y };
    }
    case "rect": {
      const [x0, y0] = P([o.x0, o.y0]), [x1, y1] = P([o.x1, o.y1]);
      return {
        ...o,
        x0: Math.min(x0, x1),
        y0: Math.min(y0, y1),
        x1: Math.max(x0, x1),
        y1: Math.max(y0, y1),
      };
    }
    case "polygon":
      return { ...o, rings: o.rings.map((ring) => ring.map(P)) };
    case "polyline":
      return { ...o, points: o.points.map(P) };
  }
}

function putCell(
  r: ZoneRaster,
  p: number,
  h: Float32Array,
  f: Uint8Array,
  i: number,
  e: number,
  layers = e - i,
) {
  // Records of a cell are sorted by height: the last non-Fill record is the top surface.
  let k = e - 1;
  while (k > i && (f[k] & SpanFlag.Fill)) k--;
  const fl = f[k];
  const top = fl & SpanFlag.Fill ? 0 : h[k];
  if (!(top <= r.top[p])) r.top[p] = top;
  else if (!Number.isNaN(r.top[p])) return;
  // Dead cells that keep Core are crossed by the search (spec 几何层 figure: one-cell Dead
  // bands with Walk and Core on roads and stairs); only Dead without Core is a real obstacle.
  r.cls[p] = fl & SpanFlag.Dead
    ? (fl & SpanFlag.Core ? CellClass.DeadCore : CellClass.Dead)
    : fl & (SpanFlag.Ghost | SpanFlag.Fill)
    ? CellClass.Ghost
    : fl & SpanFlag.Core
    ? CellClass.Core
    : CellClass.Walk;
  r.layers[p] = Math.max(r.layers[p], Math.min(255, layers));
}

function spread(r: ZoneRaster, ix: number, iy: number, k: number): void {
  const p = iy * r.width + ix;
  for (let dy = 0; dy < k; dy++) {
    for (let dx = 0; dx < k; dx++) {
      if ((dx | dy) === 0 || ix + dx >= r.width || iy + dy >= r.height) continue;
      const q = (iy + dy) * r.width + ix + dx;
      r.top[q] = r.top[p];
      r.cls[q] = r.cls[p];
      r.layers[q] = r.layers[p];
    }
  }
}

/** Marks pixels whose centre lies in a water triangle (surface flag bit 1) of the zone. */
function waterMask(pack: MainPack, first: number, count: number, r: ZoneRaster): void {
  const sf = pack.surfaces?.flags;
  if (!sf) return;
  const v = pack.vertices, tv = pack.triangles.vertices;
  for (let t = first; t < first + count; t++) {
    if (!(sf[t] & 0x2) || (sf[t] & 0x00020cdd)) continue;
    const a = tv[3 * t], b = tv[3 * t + 1], c = tv[3 * t + 2];
    const xs = [v[3 * a], v[3 * b], v[3 * c]].map((x) => (x - r.x0) * r.scale);
    const ys = [v[3 * a + 1], v[3 * b + 1], v[3 * c + 1]].map((y) => (y - r.y0) * r.scale);
    const x0 = Math.max(0, Math.floor(Math.min(...xs))),
      x1 = Math.min(r.width - 1, Math.ceil(Math.max(...xs)));
    const y0 = Math.max(0, Math.floor(Math.min(...ys))),
      y1 = Math.min(r.height - 1, Math.ceil(Math.max(...ys)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        if (inTri(x + 0.5, y + 0.5, xs, ys)) r.water[y * r.width + x] = 1;
      }
    }
  }
}

function inTri(px: number, py: number, xs: number[], ys: number[]): boolean {
  const d = (i: number, j: number) =>
    (xs[j] - xs[i]) * (py - ys[i]) - (ys[j] - ys[i]) * (px - xs[i]);
  const a = d(0, 1), b = d(1, 2), c = d(2, 0);
  return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

/** Colours (0xRRGGBBAA). */
export const PALETTE = {
  background: 0xe4e7ecff,
  water: 0x7fb2e5ff,
  dead: 0xb8322cff,
  deadCore: 0xb8322c59,
  walk: 0xe8a33aff,
  ghost: 0x9b7fd4ff,
  layered: 0x1d3a8a40,
  text: 0x111111ff,
  halo: 0xffffffff,
} as const;

/** 2nd and 98th percentile of heights (the shading range); [0, 1] when empty. */
export function percentileRange(hs: number[]): [number, number] {
  if (hs.length === 0) return [0, 1];
  const v = Float64Array.from(hs).sort();
  const lo = v[Math.floor(v.length * 0.02)], hi = v[Math.floor(v.length * 0.98)];
  return [lo, hi > lo ? hi : lo + 1];
}

/** Terrain colour of a core cell at height fraction t ∈ [0, 1], lit by `shade` ∈ [0.6, 1.3]. */
function terrain(t: number, shade: number): number {
  // green-grey (low) → olive → sand → brown (high); no stop close to the background colour
  const stops = [[0x5d, 0x7a, 0x5a], [0xa9, 0xb3, 0x7c], [0xd9, 0xc0, 0x80], [0x9c, 0x6b, 0x4a]];
  const x = Math.min(0.999, Math.max(0, t)) * (stops.length - 1);
  const k = Math.floor(x), f = x - k;
  const c = [0, 1, 2].map((i) =>
    Math.min(255, Math.round((stops[k][i] * (1 - f) + stops[k + 1][i] * f) * shade))
  );
  return ((c[0] << 24) | (c[1] << 16) | (c[2] << 8) | 0xff) >>> 0;
}

/** Paints the raster: water, cells by class, height shading with a north-west hillshade. */
export function paintRaster(r: ZoneRaster): Canvas {
  const cv = new Canvas(r.width, r.height, PALETTE.background);
  const [lo, hi] = r.range;
  const zPerPx = 4 / Math.max(1e-6, r.scale); // exaggerate relief for the hillshade
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const p = y * r.width + x;
      if (r.water[p]) cv.set(x, y, PALETTE.water);
      const h = r.top[p];
      if (Number.isNaN(h)) continue;
      const cls = r.cls[p];
      if (cls === CellClass.Dead) cv.set(x, y, PALETTE.dead);
      else if (cls === CellClass.DeadCore) {
        cv.set(x, y, terrain((h - lo) / (hi - lo), 0.8));
        cv.set(x, y, PALETTE.deadCore);
      } else if (cls === CellClass.Walk) cv.set(x, y, PALETTE.walk);
      else if (cls === CellClass.Ghost) cv.set(x, y, PALETTE.ghost);
      else {
        const hw = x > 0 && !Number.isNaN(r.top[p - 1]) ? r.top[p - 1] : h;
        const hn = y > 0 && !Number.isNaN(r.top[p - r.width]) ? r.top[p - r.width] : h;
        const slope = ((h - hw) + (h - hn)) / zPerPx;
        const shade = Math.min(1.3, Math.max(0.6, 1 + 0.8 * Math.tanh(slope)));
        cv.set(x, y, terrain((h - lo) / (hi - lo), shade));
      }
      if (r.layers[p] >= 2) cv.set(x, y, PALETTE.layered);
    }
  }
  return cv;
}

function inside(r: ZoneRaster, x: number, y: number): boolean {
  return x >= r.x0 && y >= r.y0 && x <= r.x0 + r.widthPx && y <= r.y0 + r.heightPx;
}

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

const LEGEND: [string, string][] = [
  ["#5d7a5a", "core (low)"],
  ["#9c6b4a", "core (high)"],
  ["#e8a33a", "walkable, not core"],
  ["#b8322c", "Dead"],
  ["#8f6a4f", "Dead, still core"],
  ["#9b7fd4", "Ghost / Fill"],
  ["#7fb2e5", "water"],
  ["#8a96bd", "≥ 2 layers"],
];

/** Width and height of the whole picture: the map plus the legend panel on its right. */
export function imageSize(r: ZoneRaster): [number, number] {
  return [r.width + 190, Math.max(r.height, 200)];
}

/** One line saying which records were drawn ("" for the default: the top record). */
export function selectionNote(r: ZoneRaster): string {
  const parts: string[] = [];
  if (r.tier) parts.push(`tier of ${r.tier.parent}`);
  if (r.select.layer !== undefined) parts.push(`layer ${r.select.layer}`);
  if (r.select.heightRange) {
    parts.push(`h ${r.select.heightRange[0]}..${r.select.heightRange[1]} m`);
  }
  return parts.join(", ");
}

/** SVG text: the painted raster as an embedded PNG plus vector overlays, a title and a legend. */
export function worldSvg(
  r: ZoneRaster,
  cv: Canvas,
  items: readonly Overlay[],
  title: string,
): string {
  const X = (x: number) => ((x - r.x0) * r.scale).toFixed(2),
    Y = (y: number) => ((y - r.y0) * r.scale).toFixed(2);
  const [W, H] = imageSize(r);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">`,
  );
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(
    `<image x="0" y="0" width="${r.width}" height="${r.height}" style="image-rendering:pixelated" href="data:image/png;base64,${
      base64(cv.png())
    }"/>`,
  );
  out.push(`<clipPath id="map"><rect width="${r.width}" height="${r.height}"/></clipPath>`);
  out.push(`<g clip-path="url(#map)">`);
  out.push(`<g fill="none" stroke-width="1">`);
  for (const o of items) {
    if (o.kind === "rect") {
      out.push(
        `<rect x="${X(o.x0)}" y="${Y(o.y0)}" width="${
          ((o.x1 - o.x0) * r.scale).toFixed(2)
        }" height="${((o.y1 - o.y0) * r.scale).toFixed(2)}" stroke="${
          o.color ?? "#333333"
        }" stroke-dasharray="3 2"/>`,
      );
    } else if (o.kind === "polygon") {
      const d = o.rings.map((ring) =>
        "M" + ring.map((p) => `${X(p[0])},${Y(p[1])}`).join("L") + "Z"
      ).join("");
      out.push(
        `<path d="${d}" stroke="${o.color ?? "#d01c8b"}" fill="${
          o.color ?? "#d01c8b"
        }" fill-opacity="0.25" fill-rule="evenodd"/>`,
      );
    } else if (o.kind === "polyline") {
      const pts = o.points.map((p) => `${X(p[0])},${Y(p[1])}`).join(" ");
      out.push(
        `<polyline points="${pts}" stroke="${o.color ?? "#1f4fd1"}" stroke-width="${
          o.width ?? 1.5
        }"${
          // An arrowhead past the map's edge would be clipped anyway; left out, it also keeps
          // resvg off a marker wholly outside the canvas (svg_raster.ts).
          o.arrow && inside(r, ...o.points[o.points.length - 1])
            ? ` marker-end="url(#arrow)"`
            : ""}/>`,
      );
    }
  }
  out.push(`</g>`);
  out.push(
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#1f4fd1"/></marker></defs>`,
  );
  out.push(`<g font-size="9">`);
  for (const o of items) {
    if (o.kind !== "marker" || !inside(r, o.x, o.y)) continue;
    const c = o.color ?? "#111111";
    out.push(`<circle cx="${X(o.x)}" cy="${Y(o.y)}" r="3" fill="none" stroke="${c}"/>`);
    if (o.label) {
      out.push(
        `<text x="${(Number(X(o.x)) + 5).toFixed(2)}" y="${
          (Number(Y(o.y)) + 3).toFixed(2)
        }" fill="${c}" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">${
          esc(o.label)
        }</text>`,
      );
    }
  }
  out.push(`</g></g>`);
  out.push(`<g font-size="11" transform="translate(${r.width + 10},14)">`);
  out.push(`<text font-weight="bold">${esc(title)}</text>`);
  LEGEND.forEach(([c, l], i) => {
    out.push(`<rect x="0" y="${12 + 16 * i}" width="12" height="12" fill="${c}" stroke="#555"/>`);
    out.push(`<text x="18" y="${22 + 16 * i}">${esc(l)}</text>`);
  });
  out.push(
    `<text y="${
      30 + 16 * LEGEND.length
    }">${r.widthPx}×${r.heightPx} px, ${r.scale} img px/px</text>`,
  );
  out.push(`<text y="${44 + 16 * LEGEND.length}">${r.records} records</text>`);
  const note = selectionNote(r);
  if (note) out.push(`<text y="${58 + 16 * LEGEND.length}">${esc(note)}</text>`);
  out.push(`</g></svg>`);
  return out.join("\n") + "\n";
}

/**
 * PNG bytes: the SVG picture ({@link worldSvg}: raster, vector overlays, labels and legend)
 * rendered at one image pixel per SVG unit with a real font (reports/svg_raster.ts).
 */
export async function worldPng(
  r: ZoneRaster,
  cv: Canvas,
  items: readonly Overlay[],
  title: string,
): Promise<Uint8Array> {
  const [W, H] = imageSize(r);
  return await svgToPng(worldSvg(r, cv, items, title), { maxSide: Math.max(W, H) });
}
