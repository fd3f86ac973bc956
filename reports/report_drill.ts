/**
 * Drill-downs of the HTML report: the failing legs replayed on `--pack` with the window picture
 * (`engine.plan(req, {picture: true}).picture`) drawn by the `plan --svg` renderer
 * (reports/leg_svg.ts). A navscope plan line replays exactly (`requestFromRecord`, as
 * `navscope replay`); a navigator leg replays with zone, start, goal and the declared deck.
 *
 * Bounded so that the page stays small: at most `maxLegs` legs (the ones with the most
 * failures first), pictures of at most `maxCells` cells (a bigger window is drawn as a focus crop
 * around what explains the failure plus an overview), and at most `maxBytes` of SVG in all.
 * @module
 */
import { requestFromRecord } from "../src/analyze/replay.ts";
import { openEngine } from "../src/plan/engine.ts";
import type { PlanRequest } from "../src/plan/types.ts";
import { legSvg } from "./leg_svg.ts";
import type { ReportAccumulator, ReportData } from "./report_data.ts";

/** Limits of {@link addDrilldowns}. */
export interface DrillOptions {
  /** Legs replayed at most (default 25). */
  maxLegs?: number;
  /** Pixel budget of a picture, cells (default 400 000; larger windows get a focus crop). */
  maxCells?: number;
  /** SVG bytes embedded at most (default 1.5 MB). */
  maxBytes?: number;
  /** Engine workers (default: the engine's). */
  workers?: number;
}

/** Replays the top failing legs on `pack` and fills `data.drilldowns`; returns how many drew. */
export async function addDrilldowns(
  data: ReportData,
  acc: ReportAccumulator,
  pack: string,
  opts: DrillOptions = {},
): Promise<number> {
  const maxLegs = opts.maxLegs ?? 25, maxCells = opts.maxCells ?? 400_000;
  const maxBytes = opts.maxBytes ?? 1_500_000;
  const engine = await openEngine(pack, opts.workers ? { workers: opts.workers } : {});
  let drawn = 0, bytes = 0, tried = 0;
  try {
    const zones = new Set(engine.info.zones ?? []);
    for (const leg of data.failures.legs) {
      if (tried >= maxLegs) break;
      if (leg.origin === "load" || !leg.start || !leg.goal) continue;
      tried++;
      if (engine.info.error) {
        data.drilldowns[leg.id] = { outcome: "-", message: "", why: engine.info.error };
        continue;
      }
      if (zones.size && !zones.has(leg.zone)) {
        data.drilldowns[leg.id] = {
          outcome: "-",
          message: "",
          why: `zone ${leg.zone} is not in ${pack}`,
        };
        continue;
      }
      const rec = acc.recordOf(leg.key);
      const req: PlanRequest = rec ? requestFromRecord(rec) : {
        zone: leg.zone,
        start: [leg.start[0], leg.start[1]],
        goal: [leg.goal[0], leg.goal[1]],
        startFloorY: null,
        goalFloorY: null,
        startDeckY: null,
        goalDeckY: leg.deck,
        noGoDiscs: [],
      };
      // A window over the budget is drawn as a focus crop plus an overview (picture.ts).
      const res = await engine.plan(req, { picture: true, pictureBudget: maxCells });
      const d = { outcome: res.ok ? "ok" : res.error, message: res.message } as ReportData[
        "drilldowns"
      ][string];
      const p = res.picture;
      if (!p) d.why = "no picture (the request could not be planned)";
      else {
        const svg = legSvg(p, `${leg.class} ${leg.zone} ${leg.key}`);
        if (bytes + svg.length > maxBytes) d.why = "the report's picture budget is used up";
        else {
          d.svg = svg;
          bytes += svg.length;
          drawn++;
        }
      }
      data.drilldowns[leg.id] = d;
    }
  } finally {
    engine.close();
  }
  data.notes.push(
    `Drill-down pictures: the ${tried} failing legs with the most failures were replayed on ${pack}; ${drawn} drew (pictures ≤ ${maxCells} cells, bigger windows as a focus crop plus an overview; ≤ ${
      (maxBytes / 1e6).toFixed(1)
    } MB of pictures).`,
  );
  return drawn;
}
