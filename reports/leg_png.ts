/**
 * A failing leg as a picture for triage (a GitHub comment or an artifact), issue 53: one drawing,
 * two outputs. With a replay picture it is the report's drill-down SVG (reports/leg_svg.ts: the
 * replayed window's cells, floods, the replanned route, the log's planned path and observed
 * track as layers); without one (no pack for the zone) it is the log's geometry on a plain zone
 * grid (reports/log_picture.ts). Both carry the title, the planner's message, notes, a legend per
 * drawn layer and a px scale bar; the PNG is that SVG rendered by reports/svg_raster.ts.
 * @module
 */
import type { LegPicture, Pt } from "../src/plan/types.ts";
import { legSvg, type ZiplineHop } from "./leg_svg.ts";
import { logRoutes } from "./log_layers.ts";
import { logLegSvg } from "./log_picture.ts";
import { svgToPng } from "./svg_raster.ts";

/** What to draw. */
export interface LegPngInput {
  /** The replay's picture (null: not replayed, the log's geometry on a plain grid). */
  picture: LegPicture | null;
  /** Title: leg, zone, class (or cause). */
  title?: string;
  /** The planner's message (the log's, verbatim). */
  message?: string;
  /** Notes under the message (the replay's verdict, or why no cells are drawn). */
  notes?: readonly string[];
  start: Pt | null;
  goal: Pt | null;
  /** The log's planned paths. */
  planned: readonly (readonly Pt[])[];
  /** The observed track segments. */
  track: readonly (readonly Pt[])[];
  /** The log's zipline hops. */
  hops?: readonly ZiplineHop[];
}

/** The leg's picture as SVG (see the module doc). */
export function legPictureSvg(inp: LegPngInput): string {
  const title = inp.title ?? "navscope triage";
  if (!inp.picture) return logLegSvg({ ...inp, title });
  return legSvg(inp.picture, title, logRoutes(inp.planned, inp.track), {
    ...(inp.message ? { message: inp.message } : {}),
    ...(inp.notes ? { notes: inp.notes } : {}),
    ...(inp.hops ? { hops: inp.hops } : {}),
  });
}

/** The leg's picture as PNG: {@link legPictureSvg} rendered with a real font. */
export async function legPng(inp: LegPngInput): Promise<Uint8Array> {
  return await svgToPng(legPictureSvg(inp));
}
