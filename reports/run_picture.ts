/**
 * The picture of one failed navigation run (triage, issue 53): the planned paths, the observed
 * track, the zipline hops, where the run ended and how far off the route, on a plain grid in
 * zone coordinates (px) — with a title, the cause and its message, a legend of every layer drawn
 * and a scale bar. The same drawing as a leg's picture from the log alone (reports/log_picture.ts:
 * one drawing, docs/pictures.md); triage renders it to PNG with reports/svg_raster.ts.
 * @module
 */

import type { ZiplineHop } from "./leg_svg.ts";
import { logLegSvg } from "./log_picture.ts";

type P = [number, number];

/** Everything the picture of one failed run shows (plain data, built by reports/triage_runs.ts). */
export interface RunPictureData {
  /** Run id, e.g. `run-01`. */
  id: string;
  /** Title: run, node, zone, cause. */
  title: string;
  /** Zone drawn (navmesh zone of where the run ended), "" when unknown. */
  zone: string;
  /** Planned paths from the log (`NAVMESH generated path.`), by zone. */
  plannedPaths: { zone: string; points: [number, number][] }[];
  /** Observed track (`status=0` fixes), by navmesh zone. */
  track: { zone: string; points: [number, number][] }[];
  /** Zipline hops: mount, landing, outcome. */
  hops: { mount: [number, number] | null; landing: [number, number] | null; outcome: string }[];
  /** Last valid fix, null when none. */
  end: [number, number] | null;
  /** Distance of `end` to the last planned path of the zone, px; null when unknown. */
  offRoutePx: number | null;
  /** Terminal cause (`offroute:wedge_timeout`). */
  cause: string;
  /** The line that named it, described. */
  message: string;
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** The point of `line` nearest to `p` (the foot of the distance off the route). */
function nearestOn(p: P, line: readonly P[]): P | null {
  let best: P | null = null, bd = Infinity;
  for (let i = 0; i < line.length; i++) {
    const a = line[i], b = line[Math.min(i + 1, line.length - 1)];
    const dx = b[0] - a[0], dy = b[1] - a[1], L = dx * dx + dy * dy;
    let t = L > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L : 0;
    t = Math.max(0, Math.min(1, t));
    const q: P = [a[0] + t * dx, a[1] + t * dy];
    const ex = p[0] - q[0], ey = p[1] - q[1], d = ex * ex + ey * ey;
    if (d < bd) [bd, best] = [d, q];
  }
  return best;
}

/** The SVG of one failed run (see {@link RunPictureData}), drawn by {@link logLegSvg}. */
export function runPictureSvg(data: RunPictureData): string {
  const inZone = (z: string) => data.zone === "" || z === data.zone;
  const planned = data.plannedPaths.filter((p) => inZone(p.zone)).map((p) => p.points);
  const track = data.track.filter((t) => inZone(t.zone)).map((t) => t.points);
  const hops: ZiplineHop[] = [];
  for (const h of data.hops) {
    if (h.mount && h.landing) hops.push({ from: h.mount, to: h.landing, outcome: h.outcome });
  }
  const unplaced = data.hops.length - hops.length;
  const last = planned.at(-1);
  const notes = [
    `cause: ${data.cause}${data.message ? ` — ${data.message}` : ""}`,
    `${data.zone ? `zone ${data.zone}: ` : ""}the log's paths, track and zipline hops on a ` +
    "plain grid in zone coordinates (a run is not replayed: no walkable cells drawn)",
  ];
  if (unplaced > 0) {
    notes.push(`${unplaced} zipline hop${unplaced === 1 ? "" : "s"} without both ends in the log`);
  }
  return logLegSvg({
    title: data.title,
    notes,
    start: null,
    goal: null,
    planned,
    track,
    hops,
    end: data.end
      ? {
        at: data.end,
        nearest: last ? nearestOn(data.end, last) : null,
        offRoutePx: data.offRoutePx === null ? null : r1(data.offRoutePx),
      }
      : null,
  });
}
