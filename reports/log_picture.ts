/**
 * A leg's picture from the log alone (issue 53): when no pack has the leg's zone (or none was
 * given), the planned path of `NAVMESH generated path.`, the observed track (MapLocator fixes),
 * the zipline hops, start and goal are drawn on a plain grid in zone coordinates (px), with the
 * same panel as reports/leg_svg.ts: title, the planner's message, a note saying why no walkable
 * cells are drawn, a legend entry per drawn layer (`data-layer` ↔ `data-legend-for`) and a px
 * scale bar. Cropped to what the log names (endpoints, paths, track, hops). Deterministic.
 * @module
 */
import type { Pt } from "../src/plan/types.ts";
import { esc, wrap, type ZiplineHop, ziplineLayer } from "./leg_svg.ts";
import { LOG_PATH_COLOUR, TRACK_COLOUR } from "./log_layers.ts";

/** What {@link logLegSvg} draws. */
export interface LogPictureInput {
  /** Title: leg or run, zone, class or cause. */
  title: string;
  /** The planner's message, verbatim. */
  message?: string;
  /** Notes under the message (why no cells are drawn, …). */
  notes?: readonly string[];
  start: Pt | null;
  goal: Pt | null;
  /** The log's planned paths (px). */
  planned: readonly (readonly Pt[])[];
  /** Observed track segments (px). */
  track: readonly (readonly Pt[])[];
  /** Zipline hops of the log. */
  hops?: readonly ZiplineHop[];
  /**
   * Where a run ended (its last valid fix), with the nearest point of its last planned path and
   * the distance between them (px), when known: drawn as the "end" layer (a run's picture).
   */
  end?: { at: Pt; nearest: Pt | null; offRoutePx: number | null } | null;
}

/** Map side, SVG units (the longer side of the crop). */
const MAP_SIDE = 900;
/** Panel width, SVG units. */
const PANEL_W = 340;

const f2 = (v: number) => (Math.round(v * 100) / 100).toString();

/** The smallest "nice" step (1, 2, 5 × 10^k) at least `min`. */
function niceStep(min: number): number {
  const e = Math.pow(10, Math.floor(Math.log10(Math.max(min, 1e-6))));
  for (const m of [1, 2, 5, 10]) if (m * e >= min) return m * e;
  return 10 * e;
}

/** The px box of everything drawn, with a margin; a lone point gets a 20-px box. */
function boxOf(inp: LogPictureInput): [number, number, number, number] {
  const pts: Pt[] = [];
  if (inp.start) pts.push(inp.start);
  if (inp.goal) pts.push(inp.goal);
  for (const l of [...inp.planned, ...inp.track]) pts.push(...l);
  for (const h of inp.hops ?? []) pts.push(h.from, h.to);
  if (inp.end) pts.push(inp.end.at);
  if (pts.length === 0) return [0, 0, 20, 20];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x), y0 = Math.min(y0, y), x1 = Math.max(x1, x), y1 = Math.max(y1, y);
  }
  const m = Math.max(8, 0.08 * Math.max(x1 - x0, y1 - y0));
  return [x0 - m, y0 - m, x1 + m, y1 + m];
}

/** The leg's log geometry on a plain grid, as SVG. */
export function logLegSvg(inp: LogPictureInput): string {
  const [x0, y0, x1, y1] = boxOf(inp);
  const s = MAP_SIDE / Math.max(x1 - x0, y1 - y0);
  const W = (x1 - x0) * s, H = (y1 - y0) * s;
  const X = (x: number) => (x - x0) * s, Y = (y: number) => H - (y - y0) * s;
  const xy = (q: Pt) => `${f2(X(q[0]))},${f2(Y(q[1]))}`;
  const layers: { id: string; label: string; swatch: string; attrs: string; body: string }[] = [];
  // The grid, labelled in zone px, about eight lines across.
  const step = niceStep(Math.max(x1 - x0, y1 - y0) / 8);
  let grid = "";
  for (let gx = Math.ceil(x0 / step) * step; gx <= x1; gx += step) {
    grid += `<line x1="${f2(X(gx))}" y1="0" x2="${f2(X(gx))}" y2="${f2(H)}"/>` +
      `<text x="${f2(X(gx) + 2)}" y="${f2(H - 3)}" font-size="10" stroke="none">${f2(gx)}</text>`;
  }
  for (let gy = Math.ceil(y0 / step) * step; gy <= y1; gy += step) {
    grid += `<line x1="0" y1="${f2(Y(gy))}" x2="${f2(W)}" y2="${f2(Y(gy))}"/>` +
      `<text x="3" y="${f2(Y(gy) - 2)}" font-size="10" stroke="none">${f2(gy)}</text>`;
  }
  layers.push({
    id: "grid",
    label: `Zone grid, ${f2(step)} px (no walkable cells: not replayed)`,
    swatch: `<path d="M0 0v12M12 0v12M24 0v12M0 6h24"/>`,
    attrs: `stroke="#c8c8c8" stroke-width="1" fill="#777"`,
    body: grid,
  });
  const lines = (ls: readonly (readonly Pt[])[]) =>
    ls.filter((l) => l.length >= 2).map((l) => `<polyline points="${l.map(xy).join(" ")}"/>`)
      .join("");
  const planned = lines(inp.planned), track = lines(inp.track);
  if (planned) {
    layers.push({
      id: "logpath",
      label: `Planned path from the log (${inp.planned.length})`,
      swatch: `<path d="M0 6h24"/>`,
      attrs: `stroke="${LOG_PATH_COLOUR}" stroke-width="3" fill="none"`,
      body: planned,
    });
  }
  if (track) {
    layers.push({
      id: "track",
      label: `Observed track from the log (${inp.track.length} segments)`,
      swatch: `<path d="M0 6h24"/>`,
      attrs: `stroke="${TRACK_COLOUR}" stroke-width="2" fill="none"`,
      body: track,
    });
  }
  if (inp.hops?.length) layers.push(ziplineLayer(inp.hops, xy, (v) => v));
  let ends = "";
  if (inp.start) ends += `<circle cx="${xy(inp.start).replace(",", '" cy="')}" r="7" fill="#2a2"/>`;
  if (inp.goal) ends += `<circle cx="${xy(inp.goal).replace(",", '" cy="')}" r="7" fill="#a22"/>`;
  if (ends) {
    layers.push({
      id: "endpoints",
      label: "Start (green) and goal (red)",
      swatch: `<circle cx="6" cy="6" r="4" fill="#2a2"/><circle cx="18" cy="6" r="4" fill="#a22"/>`,
      attrs: `stroke="#fff" stroke-width="1.5"`,
      body: ends,
    });
  }
  if (inp.end) layers.push(endLayer(inp.end, xy));
  return assemble(inp, layers, W, H, s);
}

/** Colour of a run's end and its distance off the route. */
const END_COLOUR = "#dc2626";

/** The "end" layer: a cross at the run's last fix, a dashed line to the route, the distance. */
function endLayer(
  end: NonNullable<LogPictureInput["end"]>,
  xy: (q: Pt) => string,
): { id: string; label: string; swatch: string; attrs: string; body: string } {
  const [ex, ey] = xy(end.at).split(",").map(Number);
  let body = `<path d="M${f2(ex - 7)} ${f2(ey - 7)}l14 14m0 -14l-14 14" stroke-width="3"/>`;
  let label = "Where the run ended (last fix)";
  if (end.nearest && end.offRoutePx !== null) {
    const [nx, ny] = xy(end.nearest).split(",").map(Number);
    const d = end.offRoutePx.toFixed(1);
    body += `<line x1="${f2(ex)}" y1="${f2(ey)}" x2="${f2(nx)}" y2="${f2(ny)}" ` +
      `stroke-dasharray="4 3"/>` +
      `<text x="${f2(ex + 9)}" y="${
        f2(ey - 9)
      }" font-size="12" stroke="none" fill="${END_COLOUR}">` +
      `${d} px off the route</text>`;
    label += `, ${d} px off the route`;
  }
  return {
    id: "end",
    label,
    swatch: `<path d="M6 0l12 12m0 -12l-12 12"/>`,
    attrs: `stroke="${END_COLOUR}" stroke-width="2" fill="none"`,
    body,
  };
}

function assemble(
  inp: LogPictureInput,
  layers: { id: string; label: string; swatch: string; attrs: string; body: string }[],
  W: number,
  H: number,
  s: number,
): string {
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
  text(inp.title, 12, "bold");
  if (inp.message) text(`Planner: ${inp.message}`, 11, "bold");
  for (const n of inp.notes ?? []) text(n);
  y += 10;
  const legend: string[] = [];
  const scaleLabel = "Scale bar (px) and north arrow (+y)";
  for (const l of [...layers, { id: "scale", label: scaleLabel, swatch: "", attrs: "" }]) {
    legend.push(
      `<g class="legend-entry" data-legend-for="${l.id}" transform="translate(0,${y})">` +
        `<g transform="translate(0,-9)"${l.attrs ? " " + l.attrs : ""}>${
          l.swatch || `<path d="M0 9h24M0 5v8M24 5v8" stroke="#000" fill="none"/>`
        }</g><text x="30" y="1" font-size="10.5">${esc(l.label)}</text></g>`,
    );
    y += 16;
  }
  panel.push(`<g class="legend">${legend.join("")}</g>`);
  y += 6;
  // A bar of a nice px length (1, 2, 5 × 10^k), at most 170 units.
  let L = 0.001;
  for (let e = -3; e <= 6; e++) {
    for (const m of [1, 2, 5]) if (m * 10 ** e * s <= 170) L = m * 10 ** e;
  }
  const len = f2(L * s);
  panel.push(
    `<g data-layer="scale" data-label="${scaleLabel}" transform="translate(0,${y})">` +
      `<path d="M0 20h${len}M0 14v12M${len} 14v12" stroke="#000" stroke-width="1.5" fill="none"/>` +
      `<text x="0" y="38" font-size="10">${f2(L)} px</text>` +
      `<g transform="translate(230,0)"><path d="M0 4L-6 22L0 17L6 22Z" fill="#000"/>` +
      `<text x="0" y="38" font-size="10" text-anchor="middle">N (+y)</text></g></g>`,
  );
  y += 50;
  const PX = W + 12, VW = f2(PX + PANEL_W), VH = f2(Math.max(H, y));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${VW}" height="${VH}" viewBox="0 0 ${VW} ${VH}" data-crop="log" font-family="sans-serif">`,
    `<title>${esc(inp.title)}</title>`,
    `<svg class="map" width="${f2(W)}" height="${f2(H)}" viewBox="0 0 ${f2(W)} ${
      f2(H)
    }" overflow="hidden">`,
    `<rect class="map-bg" width="${f2(W)}" height="${f2(H)}" fill="#fbfbf8"/>`,
    ...layers.map((l) =>
      `<g data-layer="${l.id}" data-label="${esc(l.label)}" ${l.attrs}>${l.body}</g>`
    ),
    `</svg>`,
    `<rect class="map-frame" width="${f2(W)}" height="${f2(H)}" fill="none" stroke="#555"/>`,
    `<g class="panel" transform="translate(${f2(PX)},0)">`,
    ...panel,
    `</g>`,
    `</svg>`,
  ].join("\n") + "\n";
}
