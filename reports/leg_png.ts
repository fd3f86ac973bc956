/**
 * A failing leg as a PNG (triage's picture per leg, for a GitHub comment or an artifact): the
 * replayed window's cells when a pack replayed it, the replanned route, the planned path from
 * the log (`NAVMESH generated path.`), the observed track (MapLocator fixes), start and goal.
 * Without a replay only the log's geometry is drawn, on a plain ground. Deterministic.
 * @module
 */
import type { LegPicture } from "../src/plan/types.ts";
import { Canvas, encodePng } from "./svg_png.ts";

type Pt = readonly [number, number];

/** What to draw. */
export interface LegPngInput {
  picture: LegPicture | null;
  start: Pt | null;
  goal: Pt | null;
  /** The log's planned paths. */
  planned: readonly (readonly Pt[])[];
  /** The observed track segments. */
  track: readonly (readonly Pt[])[];
}

/** Colours (0xRRGGBBAA), and the legend the triage prints beside the picture. */
export const PNG_COLOURS = {
  replanned: 0x1f6fd0ff,
  planned: 0xe08a00ff,
  track: 0x9b30c8ff,
  start: 0x1a9c3aff,
  goal: 0xd0202aff,
} as const;

const CELL_RGBA = [0xffffffff, 0xb9dcb2ff, 0xd9ecd5ff, 0xe4e4e4ff, 0xf4f4f4ff];

/** Renders the leg; at most `maxSide` pixels on the longer side. */
export function legPng(inp: LegPngInput, maxSide = 900): Uint8Array {
  const pts: Pt[] = [];
  const p = inp.picture;
  if (inp.start) pts.push(inp.start);
  if (inp.goal) pts.push(inp.goal);
  for (const l of inp.planned) pts.push(...l);
  for (const l of inp.track) pts.push(...l);
  if (p) { for (const q of p.points) pts.push(q); }
  // World box, px: the picture's crop when there is one, else the points' box with a margin.
  let x0: number, y0: number, x1: number, y1: number;
  if (p) {
    x0 = p.x0 * 0.25, y0 = p.y0 * 0.25, x1 = (p.x0 + p.nx) * 0.25, y1 = (p.y0 + p.ny) * 0.25;
  } else if (pts.length) {
    x0 = Math.min(...pts.map((q) => q[0])) - 10, x1 = Math.max(...pts.map((q) => q[0])) + 10;
    y0 = Math.min(...pts.map((q) => q[1])) - 10, y1 = Math.max(...pts.map((q) => q[1])) + 10;
  } else x0 = 0, y0 = 0, x1 = 20, y1 = 20;
  const span = Math.max(x1 - x0, y1 - y0, 1);
  const s = maxSide / span;
  const W = Math.max(8, Math.ceil((x1 - x0) * s)), H = Math.max(8, Math.ceil((y1 - y0) * s));
  const c = new Canvas(W, H, 0xfbfbf8ff);
  // y up in the world, down in the image.
  const X = (x: number) => (x - x0) * s, Y = (y: number) => H - (y - y0) * s;
  if (p) {
    const cs = 0.25 * s;
    for (let cy = 0; cy < p.ny; cy++) {
      for (let cx = 0; cx < p.nx; cx++) {
        const k = p.cells[cy * p.nx + cx];
        if (k === 0) continue;
        c.fillRect(cx * cs, H - (cy + 1) * cs, Math.max(1, cs), Math.max(1, cs), CELL_RGBA[k]);
      }
    }
  }
  const poly = (l: readonly Pt[], rgba: number, w: number) => {
    for (let i = 1; i < l.length; i++) {
      for (let d = -(w >> 1); d <= w >> 1; d++) {
        c.line(X(l[i - 1][0]) + d, Y(l[i - 1][1]), X(l[i][0]) + d, Y(l[i][1]), rgba);
        c.line(X(l[i - 1][0]), Y(l[i - 1][1]) + d, X(l[i][0]), Y(l[i][1]) + d, rgba);
      }
    }
  };
  for (const l of inp.track) poly(l, PNG_COLOURS.track, 1);
  for (const l of inp.planned) poly(l, PNG_COLOURS.planned, 3);
  if (p) poly(p.points, PNG_COLOURS.replanned, 3);
  const dot = (q: Pt | null, rgba: number) => {
    if (!q) return;
    c.fillRect(X(q[0]) - 5, Y(q[1]) - 5, 11, 11, rgba);
  };
  dot(inp.start, PNG_COLOURS.start);
  dot(inp.goal, PNG_COLOURS.goal);
  return encodePng(W, H, c.rgba);
}
