/**
 * One plan as an SVG (`navscope plan … --svg`; reused by the HTML report's drill-down): the
 * picture of src/plan/diagnostics/picture.ts with every layer in its own
 * `<g data-layer="ID" data-label="…">` and a legend `<g class="legend">` holding one
 * `data-legend-for="ID"` entry per drawn layer (docs/pictures.md lists the layers and colours).
 *
 * Geometry: the map sits at the SVG origin, {@link kCellUnits} units per cell, y flipped (the
 * world's y grows upwards); the root carries the crop origin `data-x0`/`data-y0` (global cells),
 * `data-cell` (units per cell) and `data-nx`/`data-ny`, so a client maps a point (u, v) of the
 * map to the global cell (x0 + ⌊u / cell⌋, y0 + ny − 1 − ⌊v / cell⌋). The panel on the right
 * holds the title, the crop note (full picture or focus crop under the pixel budget), the legend,
 * the metre and px scale bars, the north arrow and, for a focus crop, the overview.
 * No ids, no <style>: several pictures can be inlined in one page. Deterministic.
 * @module
 */

import { base64, Canvas, encodePng } from "./svg_png.ts";
import { type LegPicture, PictureCell } from "../src/plan/diagnostics/picture.ts";
import type { Pt } from "../src/plan/types.ts";

/** SVG units per cell of the map. */
export const kCellUnits = 4;
/** Cells per px (kCS = 0.25 px). */
const kCellsPerPx = 4;

/** Colours of the cell-class layers (0xRRGGBBAA), by class (Empty, Core, Walk, NonCore). */
const CLASS_RGBA = [0, 0x9a9a9aff, 0xffffffff, 0xd9d4c7ff];
/** Flood colours: forward (from the start), reverse (to the goal). */
const FLOOD_FWD = 0x1f6fe0, FLOOD_REV = 0xef7d00;
/** Overview tints by flood bits: forward only, reverse only, both. */
const OVERVIEW_FLOOD = [0, 0x8fb8f5ff, 0xf9c48aff, 0xc2a8e6ff];
/** Height ramp stops (viridis-like), low → high. */
const RAMP: [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** A drawn layer. */
interface Layer {
  id: string;
  label: string;
  /** Legend swatch, drawn in a 24 × 12 box at the origin. */
  swatch: string;
  /** The layer's elements (inside its <g>). */
  body: string;
  /** Attributes of the layer's <g> (presentation attributes). */
  attrs?: string;
  /** Extra legend lines under the label (e.g. the metre scale). */
  legendExtra?: string;
  legendExtraHeight?: number;
}

const f2 = (v: number) => (Math.round(v * 100) / 100).toString();

/** An extra route drawn over the picture (e.g. the triangle-mesh planner's, `plan --planner both`). */
export interface ExtraRoute {
  /** Layer id. */
  id: string;
  /** Legend label. */
  label: string;
  /** Points, px. */
  points: readonly Pt[];
  /** Stroke colour. */
  colour: string;
}

/** A zipline hop from the log: mount tower → landing, with how the ride ended when known. */
export interface ZiplineHop {
  /** Mount (tower) point, px. */
  from: Pt;
  /** Landing point (the last tower of the hop), px. */
  to: Pt;
  /** How it ended, in words ("landed", "aim failed", …; "" when the log does not say). */
  outcome?: string;
}

/** Colour of the zipline layer (towers and hops). */
export const ZIPLINE_COLOUR = "#0a7f8c";

/** What a picture says beside its drawing (issue 53). */
export interface PictureText {
  /** The planner's message, verbatim (Chinese included), shown under the title. */
  message?: string;
  /** Notes shown under the message (e.g. "zone X not in the packs: …"). */
  notes?: readonly string[];
  /** Zipline hops of the log, drawn as a layer of their own. */
  hops?: readonly ZiplineHop[];
}

/**
 * Renders the picture; `title` goes into the SVG's <title> and the panel; `routes` are drawn as
 * layers of their own above the final route; `text` adds the planner's message, notes and the
 * log's zipline hops.
 */
export function legSvg(
  p: LegPicture,
  title = "navscope plan",
  routes: readonly ExtraRoute[] = [],
  text: PictureText = {},
): string {
  const U = kCellUnits, W = p.nx * U, H = p.ny * U;
  // Marks and labels on the map grow with it, like the panel (see assemble).
  const ms = panelScale(W, H);
  const X = (x: number) => f2((x / 0.25 - p.x0) * U);
  const Y = (y: number) => f2((p.ny - (y / 0.25 - p.y0)) * U);
  const layers: Layer[] = [];
  const c: Draw = {
    p,
    W,
    H,
    ms,
    X,
    Y,
    xy: (q) => `${X(q[0])},${Y(q[1])}`,
    r: (v) => f2(v * ms),
    add: (l) => {
      if (l.body !== "") layers.push(l);
    },
  };
  // Bottom to top: rasters, edges and segments, no-go and links, routes, the gap and endpoints.
  rasterLayers(c);
  edgeLayers(c);
  noGoAndLinkLayers(c);
  routeLayers(c, routes);
  if (text.hops?.length) {
    c.add(ziplineLayer(text.hops, c.xy, (v) => +c.r(v)));
  }
  gapAndEndpointLayers(c);
  const outside = outsideNotes(p, routes, text.hops ?? []);
  const said = outside.length ? { ...text, notes: [...(text.notes ?? []), ...outside] } : text;
  return assemble(p, title, layers, W, H, said);
}

/**
 * What the crop leaves out of the log's layers (it is chosen around the endpoints, the gap and
 * the route: src/plan/diagnostics/picture.ts), said in the panel so a cut track is not read as a
 * short one.
 */
function outsideNotes(
  p: LegPicture,
  routes: readonly ExtraRoute[],
  hops: readonly ZiplineHop[],
): string[] {
  const x0 = p.x0 / kCellsPerPx, y0 = p.y0 / kCellsPerPx;
  const x1 = (p.x0 + p.nx) / kCellsPerPx, y1 = (p.y0 + p.ny) / kCellsPerPx;
  const out = (q: Pt) => q[0] < x0 || q[0] > x1 || q[1] < y0 || q[1] > y1;
  const byLabel = new Map<string, [number, number]>();
  const count = (label: string, pts: readonly Pt[]) => {
    const c = byLabel.get(label) ?? [0, 0];
    byLabel.set(label, [c[0] + pts.filter(out).length, c[1] + pts.length]);
  };
  for (const r of routes) count(r.label, r.points);
  for (const h of hops) count("zipline towers", [h.from, h.to]);
  return [...byLabel].filter(([, [n]]) => n > 0).map(([label, [n, all]]) =>
    `${label}: ${n} of ${all} points outside this crop.`
  );
}

/** What the layer builders share: the picture, the map size and the px → map transforms. */
interface Draw {
  p: LegPicture;
  /** Map width, units. */
  W: number;
  /** Map height, units. */
  H: number;
  /** Mark scale (panelScale). */
  ms: number;
  /** px x → map units. */
  X: (x: number) => string;
  /** px y → map units (flipped). */
  Y: (y: number) => string;
  /** A point as `x,y` in map units. */
  xy: (q: Pt) => string;
  /** A mark size scaled by ms. */
  r: (v: number) => string;
  /** Adds a layer when it draws something. */
  add: (l: Layer) => void;
}

/** Cell classes, other regions, height shading and the two floods (embedded PNGs). */
function rasterLayers(c: Draw): void {
  const { p, W, H, add } = c;
  outsideLayer(c);
  // Cells.
  const labels: Record<number, [string, string]> = {
    2: ["cells-walk", "Walkable core cells"],
    1: ["cells-dead", "Core cells not walkable (Dead, under walls)"],
    3: ["cells-noncore", "Non-core cells (not walkable)"],
  };
  for (const cls of [3, 1, 2]) {
    const img = cellImage(p, (k) => (p.cells[k] === cls ? CLASS_RGBA[cls] : 0));
    const [id, label] = labels[cls];
    add({
      id,
      label,
      swatch: `<rect width="24" height="12" fill="${hex(CLASS_RGBA[cls] >>> 8)}" stroke="#777"/>`,
      body: img ? image(img, W, H) : "",
    });
  }
  // Cells holding only spans of other regions (the goal's region, a plateau behind a link).
  const cs = p.cellSpans;
  const other = cellImage(p, (k) => {
    if (p.cells[k] !== 0) return 0;
    for (let i = cs.start[k]; i < cs.start[k + 1]; i++) if (cs.region[i] < 0) return 0xc3cfdfff;
    return 0;
  });
  add({
    id: "cells-other",
    label: "Cells of other regions only (not searched)",
    swatch: `<rect width="24" height="12" fill="#c3cfdf" stroke="#777"/>`,
    body: other ? image(other, W, H) : "",
  });
  // Height shading with its metre scale.
  const hr = heightRange(p);
  if (hr) {
    const [lo, hi] = hr;
    const img = cellImage(p, (k) => {
      if (p.cells[k] !== 2 || !Number.isFinite(p.heights[k])) return 0;
      const [r, g, b] = ramp(hi > lo ? (p.heights[k] - lo) / (hi - lo) : 0.5);
      return ((r << 24) | (g << 16) | (b << 8) | 0x80) >>> 0;
    });
    const stops = RAMP.map((c, i) =>
      `<rect x="${i * 40}" width="40" height="10" fill="${
        hex((c[0] << 16) | (c[1] << 8) | c[2])
      }"/>`
    ).join("");
    add({
      id: "height",
      label: "Height of walkable cells (m)",
      swatch: `<rect width="24" height="12" fill="${hex(0x21918c)}" opacity="0.55"/>`,
      body: img ? image(img, W, H) : "",
      legendExtra: `<g transform="translate(30,2)" opacity="0.8">${stops}</g>` +
        `<text x="30" y="24" font-size="10">${f2(lo)} m</text>` +
        `<text x="230" y="24" font-size="10" text-anchor="end">${f2(hi)} m</text>` +
        `<text x="130" y="24" font-size="10" text-anchor="middle">Δ ${f2(hi - lo)} m</text>`,
      legendExtraHeight: 28,
    });
  }
  // Reach floods.
  const floods: [number, number, string, string][] = [
    [1, FLOOD_FWD, "flood-fwd", "Reach from the start (forward flood)"],
    [2, FLOOD_REV, "flood-rev", "Reach to the goal (reverse flood)"],
  ];
  for (const [bit, rgb, id, label] of floods) {
    const img = floodImage(p, bit, rgb);
    add({
      id,
      label,
      // Hatched like the layer: forward ↗, reverse ↘.
      swatch: `<rect width="24" height="12" fill="${hex(rgb)}" fill-opacity="0.15" stroke="${
        hex(rgb)
      }" stroke-width="2"/><path d="${
        bit === 1 ? "M0 12L12 0M6 12L18 0M12 12L24 0" : "M0 0L12 12M6 0L18 12M12 0L24 12"
      }" stroke="${hex(rgb)}" stroke-opacity="0.7"/>`,
      body: img ? image(img, W, H) : "",
    });
  }
}

/**
 * Crop cells outside the final window (the crop stretched to a raw endpoint outside it): light
 * grey, hatched; nothing is known there. The window's border is drawn where it lies inside the
 * crop.
 */
function outsideLayer(c: Draw): void {
  const { p, W, H, add } = c;
  const img = cellImage(p, (k) => {
    if (p.cells[k] !== PictureCell.Outside) return 0;
    const x = k % p.nx, y = (k / p.nx) | 0;
    return (x + y) % 4 === 0 ? 0xa8a8a8ff : 0xdededeff;
  });
  const win = p.crop.window;
  let border = "";
  if (img && win) {
    const U = kCellUnits, [wx, wy, wnx, wny] = win;
    // Window edges in map units (y flipped), each clipped to the crop.
    const l = (wx - p.x0) * U, r = (wx + wnx - p.x0) * U;
    const t = (p.ny - (wy + wny - p.y0)) * U, b = (p.ny - (wy - p.y0)) * U;
    const cx0 = Math.max(0, l), cx1 = Math.min(W, r), cy0 = Math.max(0, t), cy1 = Math.min(H, b);
    if (cx0 < cx1 && cy0 < cy1) {
      if (l > 0 && l < W) border += `M${l} ${cy0}V${cy1}`;
      if (r > 0 && r < W) border += `M${r} ${cy0}V${cy1}`;
      if (t > 0 && t < H) border += `M${cx0} ${t}H${cx1}`;
      if (b > 0 && b < H) border += `M${cx0} ${b}H${cx1}`;
    }
  }
  add({
    id: "outside-window",
    label: "Outside the final window (dashed: its border)",
    swatch: `<rect width="24" height="12" fill="#dedede" stroke="#777"/>` +
      `<path d="M0 12L12 0M12 12L24 0" stroke="#a8a8a8"/>`,
    body: img
      ? image(img, W, H) +
        (border
          ? `<path class="window-border" d="${border}" stroke="#333" stroke-width="1.5" stroke-dasharray="6 3" fill="none"/>`
          : "")
      : "",
  });
}

/** Refused steps on cell edges, walls and facades. */
function edgeLayers(c: Draw): void {
  const { p, X, Y, add } = c;
  // Blocked steps: RiseOk refusals and step bans on the cell edges.
  const rise = edgePaths(p, 3), ban = edgePaths(p, 12);
  add({
    id: "steps-rise",
    label: "Blocked steps, RiseOk refuses (dashed: one way)",
    swatch: `<path d="M0 6h24" stroke="#d40000" stroke-width="2"/>`,
    attrs: `stroke="#d40000" stroke-width="2.4" fill="none"`,
    body: pathsBody(rise),
  });
  add({
    id: "steps-ban",
    label: "Blocked steps, step bans (dashed: one way)",
    swatch: `<path d="M0 6h24" stroke="#8e24aa" stroke-width="2"/>`,
    attrs: `stroke="#8e24aa" stroke-width="1" fill="none"`,
    body: pathsBody(ban),
  });
  // Walls and facades.
  const segs = (s: readonly number[]) => {
    let d = "";
    for (let i = 0; i < s.length; i += 4) {
      d += `M${X(s[i])} ${Y(s[i + 1])}L${X(s[i + 2])} ${Y(s[i + 3])}`;
    }
    return d ? `<path class="blk" d="${d}"/>` : "";
  };
  add({
    id: "walls",
    label: "Walls (kept wall segments)",
    swatch: `<path d="M0 6h24" stroke="#111" stroke-width="2"/>`,
    attrs: `stroke="#111" stroke-width="1.5" fill="none"`,
    body: segs(p.walls),
  });
  add({
    id: "facades",
    label: "Facade segments",
    swatch: `<path d="M0 6h24" stroke="#8d5a2b" stroke-width="2"/>`,
    attrs: `stroke="#8d5a2b" stroke-width="1.5" fill="none"`,
    body: segs(p.facades),
  });
}

/** No-go polygons and discs, landed and unlanded links, drops. */
function noGoAndLinkLayers(c: Draw): void {
  const { p, X, Y, xy, add } = c;
  // No-go.
  add({
    id: "nogo",
    label: "Author no-go polygons",
    swatch: `<rect width="24" height="12" fill="#f66" fill-opacity="0.25" stroke="#c00"/>`,
    attrs: `fill="#f66" fill-opacity="0.25" stroke="#c00"`,
    body: p.rings.map((r) => `<polygon class="nogo" points="${r.map(xy).join(" ")}"/>`).join(""),
  });
  add({
    id: "discs",
    label: "Runtime no-go discs",
    swatch: `<circle cx="12" cy="6" r="5" fill="#f0a" fill-opacity="0.2" stroke="#a0a"/>`,
    attrs: `fill="#f0a" fill-opacity="0.2" stroke="#a0a"`,
    body: p.discs.map((d) =>
      `<circle class="nogo" cx="${X(d.x)}" cy="${Y(d.y)}" r="${
        f2(d.r * kCellsPerPx * kCellUnits)
      }"/>`
    ).join(""),
  });
  // Links and drops, with direction.
  let linkBody = "";
  for (let i = 0; i < p.links.length; i += 4) {
    linkBody += arrow(+X(p.links[i]), +Y(p.links[i + 1]), +X(p.links[i + 2]), +Y(p.links[i + 3]));
  }
  add({
    id: "links",
    label: "Off-mesh links (arrow: direction)",
    swatch: arrow(0, 6, 24, 6),
    attrs: `stroke="#00897b" fill="#00897b" stroke-width="1.5"`,
    body: linkBody,
  });
  let unlanded = "";
  for (let i = 0; i < p.unlandedLinks.length; i += 5) {
    const u = p.unlandedLinks;
    const [ax, ay, bx, by] = [+X(u[i]), +Y(u[i + 1]), +X(u[i + 2]), +Y(u[i + 3])];
    unlanded += arrow(ax, ay, bx, by) + (u[i + 4] ? arrow(bx, by, ax, ay) : "");
  }
  add({
    id: "links-unlanded",
    label: "Off-mesh links not landed (an end off the region)",
    swatch: arrow(0, 6, 24, 6),
    attrs: `stroke="#7a7a7a" fill="#7a7a7a" stroke-width="1.5" stroke-dasharray="4 3"`,
    body: unlanded,
  });
  let dropBody = "";
  for (const i of p.drops) {
    const a = p.points[i - 1], b = p.points[i];
    if (a && b) dropBody += arrow(+X(a[0]), +Y(a[1]), +X(b[0]), +Y(b[1]));
  }
  add({
    id: "drops",
    label: "Ledge drops on the route (arrow: down)",
    swatch: arrow(0, 6, 24, 6),
    attrs: `stroke="#0055cc" fill="#0055cc" stroke-width="2.5"`,
    body: dropBody,
  });
}

/** Every stage's polyline, extra routes and the waypoints. */
function routeLayers(c: Draw, routes: readonly ExtraRoute[]): void {
  const { p, X, Y, xy, r, add } = c;
  // Stage polylines.
  const stages: [string, string, readonly Pt[], string, string][] = [
    [
      "topology",
      "Topology pass cells",
      p.topology,
      "topo",
      `stroke="#999" stroke-width="3" opacity="0.6"`,
    ],
    ["taut", "Taut chain (geometry pass)", p.taut, "taut", `stroke="#f90" stroke-width="1.5"`],
    [
      "pulled",
      "String-pulled",
      p.pulled,
      "pulled",
      `stroke="#36c" stroke-width="1.5" stroke-dasharray="4 3"`,
    ],
    ["assembled", "Assembled", p.assembled, "asm", `stroke="#93c" stroke-width="1"`],
    ["final", "Final route", p.points, "final", `stroke="#d22" stroke-width="2"`],
  ];
  for (const [id, label, pts, cls, attrs] of stages) {
    add({
      id,
      label: `${label} (${pts.length} points)`,
      swatch: `<path d="M0 6h24" ${attrs}/>`,
      attrs: `${attrs} fill="none"`,
      body: pts.length < 2 ? "" : `<polyline class="${cls}" points="${pts.map(xy).join(" ")}"/>`,
    });
  }
  for (const e of routes) {
    add({
      id: e.id,
      label: `${e.label} (${e.points.length} points)`,
      swatch: `<path d="M0 6h24" stroke="${e.colour}" stroke-width="2"/>`,
      attrs: `stroke="${e.colour}" stroke-width="2" fill="none"`,
      body: e.points.length < 2
        ? ""
        : `<polyline class="${e.id}" points="${e.points.map(xy).join(" ")}"/>` +
          e.points.slice(1, -1).map((q) =>
            `<circle cx="${X(q[0])}" cy="${Y(q[1])}" r="${r(3)}" fill="${e.colour}" stroke="none"/>`
          ).join(""),
    });
  }
  add({
    id: "waypoints",
    label: "Waypoints",
    swatch: `<circle cx="12" cy="6" r="4" stroke="#d22" fill="none"/>`,
    body: p.waypoints.map((i) => p.points[i]).filter((q) => q).map((q) =>
      `<circle cx="${X(q[0])}" cy="${Y(q[1])}" r="${r(4)}" fill="none" stroke="#d22"/>`
    ).join(""),
  });
}

/**
 * The zipline layer: a tower square at each mount and landing, a dashed chord per hop (arrow to
 * the landing) labelled with its outcome. `xy` maps px to drawing units, `r` scales marks.
 */
export function ziplineLayer(
  hops: readonly ZiplineHop[],
  xy: (q: Pt) => string,
  r: (v: number) => number,
): { id: string; label: string; swatch: string; attrs: string; body: string } {
  let body = "";
  for (const h of hops) {
    const [ax, ay] = xy(h.from).split(",").map(Number), [bx, by] = xy(h.to).split(",").map(Number);
    const s = r(4);
    body += `<g class="hop" stroke-dasharray="6 3">${arrow(ax, ay, bx, by)}</g>` +
      `<rect x="${f2(ax - s)}" y="${f2(ay - s)}" width="${f2(2 * s)}" height="${
        f2(2 * s)
      }" fill="#fff"/>` +
      `<rect x="${f2(bx - s)}" y="${f2(by - s)}" width="${f2(2 * s)}" height="${
        f2(2 * s)
      }" fill="#fff"/>` +
      (h.outcome
        ? `<text x="${f2((ax + bx) / 2)}" y="${f2((ay + by) / 2 - s)}" font-size="${
          f2(r(11))
        }" stroke="#fff" stroke-width="3" paint-order="stroke" fill="${ZIPLINE_COLOUR}">${
          esc(h.outcome)
        }</text>`
        : "");
  }
  return {
    id: "zipline",
    label: `Zipline towers and hops from the log (${hops.length})`,
    swatch: `<rect x="0" y="3" width="6" height="6" fill="#fff"/>` +
      `<path d="M6 6h12" stroke-dasharray="3 2"/><rect x="18" y="3" width="6" height="6" fill="#fff"/>`,
    attrs: `stroke="${ZIPLINE_COLOUR}" fill="${ZIPLINE_COLOUR}" stroke-width="2"`,
    body,
  };
}

/** The gap pair with its label, and the endpoints. */
function gapAndEndpointLayers(c: Draw): void {
  const { p, W, X, Y, r, ms, add } = c;
  // The gap; its label turns to the left near the map's right edge (the map is clipped).
  const gapLabel = (x: number, y: number, t: string) => {
    const size = 12 * ms, w = 9 * ms + t.length * size * 0.56;
    const left = x + w > W && W - x < x; // to the left when the right has less room
    return `<text x="${f2(left ? x - 9 * ms : x + 9 * ms)}" y="${f2(y - 9 * ms)}" font-size="${
      f2(size)
    }"${
      left ? ' text-anchor="end"' : ""
    } fill="#c0c" stroke="#fff" stroke-width="3" stroke-dasharray="none" paint-order="stroke">${
      esc(t)
    }</text>`;
  };
  // The final judgement's distances: an endpoint more than 8 px from its anchor (where the
  // reach ends) is outside the reach domain (goal_outside_reach).
  const anchors: [Pt, Pt | undefined, number | null, string][] = [
    [p.start, p.topology[0], p.snap[0], "start"],
    [p.goal, p.topology.at(-1), p.snap[1], "goal"],
  ];
  let reachBody = "";
  for (const [q, a, d, what] of anchors) {
    if (!a || d === null || !(d > 0.5)) continue;
    reachBody += `<line x1="${X(q[0])}" y1="${Y(q[1])}" x2="${X(a[0])}" y2="${Y(a[1])}"/>` +
      `<circle cx="${X(a[0])}" cy="${Y(a[1])}" r="${r(4)}" fill="#fff"/>` +
      gapLabel(
        (+X(q[0]) + +X(a[0])) / 2,
        (+Y(q[1]) + +Y(a[1])) / 2,
        `${what} ${d.toFixed(1)} px from the reach${d > 8 ? " (> 8 px gate)" : ""}`,
      );
  }
  add({
    id: "reach-distance",
    label: "Endpoint → its anchor (reach-domain distance, gate 8 px)",
    swatch: `<path d="M0 6h24" stroke="#c0c" stroke-dasharray="3 2"/>`,
    attrs: `stroke="#c0c" stroke-width="1.5" stroke-dasharray="5 3"`,
    body: reachBody,
  });
  if (p.gap) {
    const g = p.gap;
    const dh = p.gapHeights
      ? `, ${f2(p.gapHeights[0])} m → ${f2(p.gapHeights[1])} m (Δh ${
        f2(p.gapHeights[1] - p.gapHeights[0])
      } m)`
      : "";
    add({
      id: "gap",
      label: `Gap pair: ${g.distance.toFixed(2)} px${dh}`,
      swatch: `<circle cx="6" cy="6" r="4" stroke="#c0c" stroke-width="2" fill="none"/>` +
        `<circle cx="18" cy="6" r="4" stroke="#c0c" stroke-width="2" fill="none"/>`,
      attrs: `stroke="#c0c" stroke-width="2" fill="none"`,
      body: `<circle class="gap" cx="${X(g.start[0])}" cy="${Y(g.start[1])}" r="${r(6)}"/>` +
        `<circle class="gap" cx="${X(g.goal[0])}" cy="${Y(g.goal[1])}" r="${r(6)}"/>` +
        `<line class="gap" x1="${X(g.start[0])}" y1="${Y(g.start[1])}" x2="${X(g.goal[0])}" y2="${
          Y(g.goal[1])
        }"/>` +
        gapLabel(+X(g.start[0]), +Y(g.start[1]), `gap ${g.distance.toFixed(2)} px${dh}`),
    });
  }
  add({
    id: "endpoints",
    label: "Start (green) and goal (red)",
    swatch: `<circle cx="6" cy="6" r="4" fill="#2a2"/><circle cx="18" cy="6" r="4" fill="#a22"/>`,
    attrs: `stroke="#fff" stroke-width="1.5"`,
    body: `<circle cx="${X(p.start[0])}" cy="${Y(p.start[1])}" r="${r(6)}" fill="#2a2"/>` +
      `<circle cx="${X(p.goal[0])}" cy="${Y(p.goal[1])}" r="${r(6)}" fill="#a22"/>`,
  });
}

/** Lays out the map, the panel (title, crop note, legend, scales, overview) and the root. */
function assemble(
  p: LegPicture,
  title: string,
  layers: Layer[],
  W: number,
  H: number,
  said: PictureText = {},
): string {
  // The panel is drawn in its own units and scaled so that it stays readable next to a big map.
  const s = panelScale(W, H), PW = 340;
  const panel: string[] = [];
  let y = 16;
  const text = (t: string, size = 11, weight = "normal") => {
    for (const line of wrap(t, Math.floor(320 / (size * 0.56)))) {
      panel.push(
        `<text x="0" y="${y}" font-size="${size}" font-weight="${weight}">${esc(line)}</text>`,
      );
      y += size + 3;
    }
  };
  text(title, 12, "bold");
  if (said.message) text(`Planner: ${said.message}`, 11, "bold");
  for (const n of said.notes ?? []) text(n);
  y += 4;
  const c = p.crop;
  const [, , wnx, wny] = c.window ?? c.interest;
  if (c.note) text(`${c.note}.`);
  if (c.window === null) {
    text(
      c.kind === "full"
        ? `Both endpoints: ${p.nx} × ${p.ny} cells at full resolution.`
        : `Crop ${p.nx} × ${p.ny} cells around ${c.around} (the endpoints, ${c.interest[2]} × ${
          c.interest[3]
        } cells, are over the ${c.budget}-cell picture budget).${
          p.overview ? " Overview below: the endpoints' area, downsampled." : ""
        }`,
    );
  } else if (c.kind === "full") {
    text(
      `Full picture: ${p.nx} × ${p.ny} cells at full resolution (window ${wnx} × ${wny} cells; budget ${c.budget} cells).`,
    );
  } else {
    text(
      `Focus crop: the area of interest (${c.interest[2]} × ${
        c.interest[3]
      } cells) is over the ${c.budget}-cell picture budget; drawn ${p.nx} × ${p.ny} cells at full resolution around ${c.around}. Overview below: the whole window (${wnx} × ${wny}), downsampled.`,
    );
  }
  const beyond = c.window !== null &&
    (p.x0 < c.window[0] || p.y0 < c.window[1] || p.x0 + p.nx > c.window[0] + c.window[2] ||
      p.y0 + p.ny > c.window[1] + c.window[3]);
  if (beyond) {
    text("The crop reaches beyond the final window to show the endpoints (hatched grey).");
  }
  y += 6;
  const legend: string[] = [];
  for (const l of [...layers, ...panelLayers(p)]) {
    legend.push(
      `<g class="legend-entry" data-legend-for="${l.id}" transform="translate(0,${y})">` +
        `<g transform="translate(0,-9)"${l.attrs ? " " + l.attrs : ""}>${l.swatch}</g>` +
        `<text x="30" y="1" font-size="10.5">${esc(l.label)}</text>` +
        (l.legendExtra ? `<g transform="translate(0,2)">${l.legendExtra}</g>` : "") + `</g>`,
    );
    y += 16 + (l.legendExtraHeight ?? 0);
  }
  panel.push(`<g class="legend">${legend.join("")}</g>`);
  y += 6;
  // px scale bar and north arrow (one layer), then the overview.
  const sc = scaleLayer(s, y);
  y += 50;
  const ov = overviewLayer(p, y);
  if (ov) y += ov.height + 10;
  const panelH = y * s, PX = W + 12;
  const VW = f2(PX + PW * s), VH = f2(Math.max(H, panelH));
  // Display size: a small crop opens enlarged (up to 4×, about 1600 px wide); units stay the same.
  const zoom = Math.max(1, Math.min(4, Math.floor(1600 / +VW)));
  const map = layers.map((l) =>
    `<g data-layer="${l.id}" data-label="${esc(l.label)}"${
      l.attrs ? " " + l.attrs : ""
    }>${l.body}</g>`
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f2(+VW * zoom)}" height="${
      f2(+VH * zoom)
    }" viewBox="0 0 ${VW} ${VH}" ` +
    `data-x0="${p.x0}" data-y0="${p.y0}" data-cell="${kCellUnits}" data-nx="${p.nx}" data-ny="${p.ny}" ` +
    `data-map-width="${W}" data-map-height="${H}" data-crop="${c.kind}" ` +
    // The endpoints and the gap pair in px, so a client can check what its viewport shows.
    `data-start="${p.start.join(",")}" data-goal="${p.goal.join(",")}"` +
    (p.gap ? ` data-gap="${[...p.gap.start, ...p.gap.goal].join(",")}"` : "") +
    // The final window, when the crop reaches beyond it (its outside cells have no spans).
    (beyond ? ` data-window="${c.window!.join(",")}"` : "") +
    ` font-family="sans-serif">`,
    `<title>${esc(title)}</title>`,
    // A nested <svg> clips the map's segments and arrows to the crop (no clipPath id needed).
    `<svg class="map" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" overflow="hidden">`,
    `<rect class="map-bg" width="${W}" height="${H}" fill="#eeeeee"/>`,
    ...map,
    `</svg>`,
    `<rect class="map-frame" width="${W}" height="${H}" fill="none" stroke="#555"/>`,
    `<g class="panel" transform="translate(${f2(PX)},0) scale(${f2(s)})">`,
    ...panel,
    sc.svg,
    ov ? ov.svg : "",
    `</g>`,
    "</svg>",
  ].filter((x) => x !== "").join("\n") + "\n";
}

/** Panel units per SVG unit: the panel stays readable next to a big map. */
function panelScale(W: number, H: number): number {
  return Math.max(1, Math.max(W, H) / 640);
}

/** Legend entries of the layers drawn in the panel (scale bars, overview). */
function panelLayers(p: LegPicture): Layer[] {
  const out: Layer[] = [{
    id: "scale",
    label: "Scale bar (px) and north arrow (+y)",
    swatch: `<path d="M0 9h24M0 5v8M24 5v8" stroke="#000" fill="none"/>`,
    body: "x",
  }];
  if (p.overview) {
    out.push({
      id: "overview",
      label: `Overview (1 pixel = ${p.overview.factor}² cells; red box: the crop; tints: floods)`,
      swatch: `<rect width="24" height="12" fill="#ddd" stroke="#e00" stroke-width="2"/>`,
      body: "x",
    });
  }
  return out;
}

/** The px scale bar and the north arrow, in panel units (the map is s panel units per unit). */
function scaleLayer(s: number, y: number): { svg: string } {
  const unitsPerPx = kCellUnits * kCellsPerPx / s; // panel units per px
  let L = 1;
  for (const cand of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]) {
    if (cand * unitsPerPx <= 170) L = cand;
  }
  const len = f2(L * unitsPerPx);
  return {
    svg:
      `<g data-layer="scale" data-label="Scale bar (px) and north arrow (+y)" transform="translate(0,${y})">` +
      `<path d="M0 20h${len}M0 14v12M${len} 14v12" stroke="#000" stroke-width="1.5" fill="none"/>` +
      `<text x="0" y="38" font-size="10">${L} px = ${L * kCellsPerPx} cells</text>` +
      `<g transform="translate(230,0)"><path d="M0 4L-6 22L0 17L6 22Z" fill="#000"/>` +
      `<text x="0" y="38" font-size="10" text-anchor="middle">N (+y)</text></g></g>`,
  };
}

/** The overview image with the crop marked (focus crops), in panel units. */
function overviewLayer(p: LegPicture, y: number): { svg: string; height: number } | null {
  const o = p.overview;
  if (!o) return null;
  const cv = new Canvas(o.nx, o.ny, 0xeeeeeeff);
  for (let yy = 0; yy < o.ny; yy++) {
    for (let x = 0; x < o.nx; x++) {
      const k = yy * o.nx + x, cls = o.cells[k], f = o.flood[k];
      // Flat tints: forward only, reverse only, both (blending them would read as a new class).
      const rgba = f ? OVERVIEW_FLOOD[f] : CLASS_RGBA[cls];
      if (rgba) cv.set(x, o.ny - 1 - yy, rgba);
    }
  }
  const scale = 250 / Math.max(o.nx, o.ny);
  const w = o.nx * scale, h = o.ny * scale;
  // Global cell → overview panel units.
  const ox = (gx: number) => ((gx - o.x0) / o.factor) * scale;
  const oy = (gy: number) => (o.ny - (gy - o.y0) / o.factor) * scale;
  const pt = (q: Pt, fill: string) =>
    `<circle cx="${f2(ox(q[0] / 0.25))}" cy="${f2(oy(q[1] / 0.25))}" r="3" fill="${fill}"/>`;
  const gap = p.gap
    ? `<circle cx="${f2(ox(p.gap.start[0] / 0.25))}" cy="${
      f2(oy(p.gap.start[1] / 0.25))
    }" r="4" fill="none" stroke="#c0c" stroke-width="1.5"/>`
    : "";
  const svg = `<g data-layer="overview" data-label="Overview" transform="translate(0,${y})">` +
    image(png(cv), f2(w), f2(h)) +
    `<rect width="${f2(w)}" height="${f2(h)}" fill="none" stroke="#555"/>` +
    `<rect class="overview-crop" x="${f2(ox(p.x0))}" y="${f2(oy(p.y0 + p.ny))}" width="${
      f2((p.nx / o.factor) * scale)
    }" height="${f2((p.ny / o.factor) * scale)}" fill="none" stroke="#e00" stroke-width="1.5"/>` +
    pt(p.start, "#2a2") + pt(p.goal, "#a22") + gap + `</g>`;
  return { svg, height: h };
}

/** Height range of the walkable cells, or null. */
function heightRange(p: LegPicture): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  for (let k = 0; k < p.heights.length; k++) {
    const h = p.heights[k];
    if (p.cells[k] !== 2 || !Number.isFinite(h)) continue;
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  return lo <= hi ? [lo, hi] : null;
}

function ramp(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, t)) * (RAMP.length - 1), i = Math.min(RAMP.length - 2, x | 0);
  const u = x - i, a = RAMP[i], b = RAMP[i + 1];
  return [0, 1, 2].map((j) => Math.round(a[j] + (b[j] - a[j]) * u)) as [number, number, number];
}

/** A 1-pixel-per-cell image of the crop, or null when nothing is drawn. */
function cellImage(p: LegPicture, rgba: (k: number) => number): string | null {
  const cv = new Canvas(p.nx, p.ny, 0);
  let any = false;
  for (let y = 0; y < p.ny; y++) {
    for (let x = 0; x < p.nx; x++) {
      const v = rgba(y * p.nx + x);
      if (v & 0xff) (any = true), put(cv, x, p.ny - 1 - y, v);
    }
  }
  return any ? png(cv) : null;
}

/** A flood as a hatched translucent fill with an opaque rim (cells with an outside 4-neighbour). */
function floodImage(p: LegPicture, bit: number, rgb: number): string | null {
  const inF = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < p.nx && y < p.ny && (p.flood[y * p.nx + x] & bit) !== 0;
  return cellImage(p, (k) => {
    if (!(p.flood[k] & bit)) return 0;
    const x = k % p.nx, y = (k / p.nx) | 0;
    const rim = !inF(x + 1, y) || !inF(x - 1, y) || !inF(x, y + 1) || !inF(x, y - 1);
    // Hatched inside (forward ↗, reverse ↘: both readable where they overlap), solid rim.
    const hatch = (bit === 1 ? x + y : x - y + 4 * p.ny) % 4 === 0;
    return ((rgb << 8) | (rim ? 0xe0 : hatch ? 0x9c : 0x1c)) >>> 0;
  });
}

/** Writes an RGBA pixel as it is (Canvas.set blends and makes it opaque). */
function put(cv: Canvas, x: number, y: number, rgba: number): void {
  const o = 4 * (y * cv.width + x);
  cv.rgba[o] = rgba >>> 24;
  cv.rgba[o + 1] = (rgba >>> 16) & 0xff;
  cv.rgba[o + 2] = (rgba >>> 8) & 0xff;
  cv.rgba[o + 3] = rgba & 0xff;
}

function png(cv: Canvas): string {
  return base64(encodePng(cv.width, cv.height, cv.rgba));
}

function image(b64: string, w: number | string, h: number | string): string {
  return `<image width="${w}" height="${h}" preserveAspectRatio="none" style="image-rendering:pixelated" href="data:image/png;base64,${b64}"/>`;
}

/**
 * The blocked edges of `mask` bits (3: RiseOk, 12: step bans) as merged runs: solid when both
 * directions are refused, dashed for one way. Vertical edges (dir 0, between x and x+1) merge
 * along y, horizontal ones (dir 1) along x.
 */
function edgePaths(p: LegPicture, mask: number): { solid: string; dashed: string } {
  const U = kCellUnits, b = p.blockedSteps;
  // key = (dir, line, style) → sorted positions.
  const runs = new Map<string, number[]>();
  for (let i = 0; i < b.cell.length; i++) {
    const m = b.kind[i] & mask;
    if (!m) continue;
    const both = m === mask;
    const x = b.cell[i] % p.nx, y = (b.cell[i] / p.nx) | 0;
    const key = b.dir[i] === 0 ? `0,${x},${both}` : `1,${y},${both}`;
    const pos = b.dir[i] === 0 ? y : x;
    const l = runs.get(key);
    if (l) l.push(pos);
    else runs.set(key, [pos]);
  }
  let solid = "", dashed = "";
  for (const [key, list] of [...runs.entries()].sort()) {
    const [dir, line, both] = key.split(",");
    list.sort((a, c) => a - c);
    for (let i = 0; i < list.length;) {
      let j = i;
      while (j + 1 < list.length && list[j + 1] === list[j] + 1) j++;
      const n = j - i + 1, a = list[i], L = +line;
      const d = dir === "0"
        ? `M${(L + 1) * U} ${(p.ny - a - n) * U}v${n * U}`
        : `M${a * U} ${(p.ny - L - 1) * U}h${n * U}`;
      if (both === "true") solid += d;
      else dashed += d;
      i = j + 1;
    }
  }
  return { solid, dashed };
}

function pathsBody(e: { solid: string; dashed: string }): string {
  return (e.solid ? `<path class="both" d="${e.solid}"/>` : "") +
    (e.dashed ? `<path class="oneway" stroke-dasharray="2 1.5" d="${e.dashed}"/>` : "");
}

/** A line from a to b with an arrowhead at b (units). */
export function arrow(ax: number, ay: number, bx: number, by: number): string {
  const dx = bx - ax, dy = by - ay, L = Math.sqrt(dx * dx + dy * dy) || 1;
  const ux = dx / L, uy = dy / L, hl = Math.min(7, L * 0.6), hw = hl * 0.5;
  const px = bx - ux * hl, py = by - uy * hl;
  return `<line x1="${f2(ax)}" y1="${f2(ay)}" x2="${f2(px)}" y2="${f2(py)}"/>` +
    `<polygon stroke="none" points="${f2(bx)},${f2(by)} ${f2(px - uy * hw)},${f2(py + ux * hw)} ${
      f2(px + uy * hw)
    },${f2(py - ux * hw)}"/>`;
}

function hex(rgb: number): string {
  return "#" + (rgb & 0xffffff).toString(16).padStart(6, "0");
}

/**
 * Splits `t` into lines of at most `width` half-width characters, at spaces; a word longer than
 * a line (a Chinese message has no spaces) breaks between characters, CJK counting double.
 */
export function wrap(t: string, width: number): string[] {
  const cw = (
    ch: string,
  ) => (/[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1);
  const out: string[] = [];
  let line = "", lw = 0;
  for (const word of t.split(" ")) {
    const ww = [...word].reduce((n, ch) => n + cw(ch), 0);
    if (line && lw + 1 + ww <= width) {
      line += " " + word;
      lw += 1 + ww;
      continue;
    }
    if (line) out.push(line);
    line = "";
    lw = 0;
    for (const ch of word) {
      if (line && lw + cw(ch) > width) (out.push(line), (line = ""), (lw = 0));
      line += ch;
      lw += cw(ch);
    }
  }
  if (line) out.push(line);
  return out;
}

/** Escapes text for SVG. */
export function esc(s: string): string {
  return s.replace(
    /[<>&"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!,
  );
}
