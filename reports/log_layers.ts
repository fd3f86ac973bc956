/**
 * What the log says beside a replayed failing leg (issue 35): the navigation run the leg was
 * planned in, the planned path of its `NAVMESH generated path.` lines and the observed track
 * (MapLocator fixes), as extra layers of the leg's picture — the report's drill-down, triage's
 * report and PNGs, each a toggleable layer of the SVG legend (docs/pictures.md).
 * @module
 */
import type { NavRun } from "../src/analyze/nav_runs.ts";
import type { Point2 } from "../src/logs/types.ts";
import type { FailingLeg } from "./report_data.ts";
import type { ExtraRoute, ZiplineHop } from "./leg_svg.ts";

/** Layer colours: the log's planned path, the observed track (as in the PNG, leg_png.ts). */
export const LOG_PATH_COLOUR = "#e08a00", TRACK_COLOUR = "#9b30c8";

/** The log's layers of one leg. */
export interface LegLogLayers {
  /** Planned paths (px) of the leg's run in the leg's zone. */
  planned: Point2[][];
  /** Observed track segments (px) of the leg's run. */
  track: Point2[][];
  /** Zipline hops of the leg's run (mount → landing), when the run records them. */
  hops: ZiplineHop[];
}

/**
 * The zipline hops of a run (mount → landing, from `zipline/begin` and `Action: ZIPLINE …` lines,
 * spec maaend-runlogs.md §1.6) that the log locates at both ends; [] when it records none.
 */
export function hopsOf(run: NavRun | null): ZiplineHop[] {
  const out: ZiplineHop[] = [];
  for (const h of run?.hops ?? []) {
    if (h.mount && h.landing) out.push({ from: h.mount, to: h.landing, outcome: h.outcome });
  }
  return out;
}

/** Looks up a failing leg's run and its log layers. */
export interface LogLayers {
  /** The run the leg was planned in (by its first failure's line, else its endpoints). */
  runOf(leg: FailingLeg): NavRun | null;
  /** The leg's planned paths and track (empty without a run). */
  layers(leg: FailingLeg): LegLogLayers;
  /** The same as picture layers (`addDrilldowns`' `extraRoutes`). */
  routes(leg: FailingLeg): ExtraRoute[];
}

const keyOfLeg = (zone: string, s: Point2 | null, g: Point2 | null) =>
  `${zone}|${s?.join(",")}|${g?.join(",")}`;

/** Indexes `runs` by their legs' lines and endpoints. */
export function logLayers(runs: readonly NavRun[]): LogLayers {
  const byLine = new Map<string, NavRun>(), byKey = new Map<string, NavRun>();
  for (const r of runs) {
    for (const l of r.legs) {
      byLine.set(`${l.src.file}:${l.src.line}`, r);
      if (!l.ok) byKey.set(keyOfLeg(l.zone, l.start, l.goal), r);
    }
  }
  const runOf = (l: FailingLeg) =>
    byLine.get(l.example) ?? byKey.get(keyOfLeg(l.zone, l.start, l.goal)) ?? null;
  const layers = (l: FailingLeg): LegLogLayers => {
    const r = runOf(l);
    if (!r) return { planned: [], track: [], hops: [] };
    return {
      // A generated path without a zone name is the run's (the older navigator omits it).
      planned: r.plannedPaths.filter((p) => p.zone === l.zone || p.zone === "").map((p) =>
        p.points
      ),
      track: r.track.map((t) => t.points),
      hops: hopsOf(r),
    };
  };
  const routes = (l: FailingLeg): ExtraRoute[] => {
    const { planned, track } = layers(l);
    return logRoutes(planned, track);
  };
  return { runOf, layers, routes };
}

/** The log's planned paths and track segments as picture layers (one per path or segment). */
export function logRoutes(
  planned: readonly (readonly Point2[])[],
  track: readonly (readonly Point2[])[],
): ExtraRoute[] {
  return [
    ...planned.map((points, i) => ({
      id: `logpath${i}`,
      label: "planned path (log)",
      points,
      colour: LOG_PATH_COLOUR,
    })),
    ...track.map((points, i) => ({
      id: `track${i}`,
      label: "observed track (log)",
      points,
      colour: TRACK_COLOUR,
    })),
  ];
}
