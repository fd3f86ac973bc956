/**
 * Drill-downs of the HTML report: the failing legs replayed on `--pack` with the window picture
 * (`engine.plan(req, {picture: true}).picture`) drawn by the `plan --svg` renderer
 * (reports/leg_svg.ts) and the crop cells' spans packed for the hover read-out
 * (reports/hover_spans.ts).
 *
 * A drill-down never shows a replay that cannot explain the logged failure without saying so:
 * - a navscope plan line replays exactly (`requestFromRecord`, as `navscope replay`), with the
 *   test overrides of its battery leg (`--battery`, matched by the line's `[leg=…]` as replay
 *   does); a navigator leg replays with zone, start, goal and the declared deck (a partial
 *   request);
 * - the replay's class is compared with the logged one; every reason the two may differ is
 *   listed in plain words (pack changed, planner version changed, overrides missing, partial
 *   request), and a difference with none of them is called what it is: the planner changed.
 *
 * Which legs: one leg of every failure class first (the one with the most failures), then the
 * rest by failures, `maxLegs` in all. Bounded so that the page stays small: pictures of at most
 * `maxCells` cells (a bigger window is drawn as a focus crop around what explains the failure
 * plus an overview, src/plan/diagnostics/picture.ts), at most `maxBytes` of SVG and
 * `maxHoverBytes` of packed spans in all.
 * @module
 */
import { batteryMatch, recordClass, requestFromRecord } from "../src/analyze/replay.ts";
import { planRecordFromResult } from "../src/logs/from_plan.ts";
import { openEngine } from "../src/plan/engine.ts";
import type { Engine } from "../src/plan/engine.ts";
import type { PlanProfile } from "../src/plan/profile.ts";
import type { LegPicture, PlanRequest, PlanResult } from "../src/plan/types.ts";
import type { Leg as BatteryLeg } from "../src/legs/format.ts";
import { NAVSCOPE_VERSION } from "../src/version.ts";
import { type ExtraRoute, legSvg, type PictureText } from "./leg_svg.ts";
import { packSpans } from "./hover_spans.ts";
import {
  addGlosses,
  type Drilldown,
  type FailingLeg,
  type ReportAccumulator,
  type ReportData,
} from "./report_data.ts";

/** Limits of {@link addDrilldowns}. */
export interface DrillOptions {
  /** Legs replayed at most (default 25). */
  maxLegs?: number;
  /** Pixel budget of a picture, cells (default 400 000; larger windows get a focus crop). */
  maxCells?: number;
  /** SVG bytes embedded at most (default 4 MB). */
  maxBytes?: number;
  /** Packed hover-span bytes embedded at most (default 2 MB). */
  maxHoverBytes?: number;
  /** Planner profile of the replays (default: the engine's, `spec`). */
  profile?: PlanProfile;
  /** Engine workers (default: the engine's). */
  workers?: number;
  /** Battery legs whose test overrides apply to the plan lines that name them. */
  batteries?: readonly BatteryLeg[];
  /**
   * Extra layers of a leg's picture: what the log says beside the replay (the planned path of
   * `NAVMESH generated path.`, the observed track), each a toggleable layer (issue 35).
   */
  extraRoutes?: (leg: FailingLeg) => ExtraRoute[];
  /** Called with each replayed leg's picture and result (triage draws its PNGs from it). */
  onReplay?: (leg: FailingLeg, picture: LegPicture | null, result: PlanResult) => void;
}

/** Legs in drill-down order: the top leg of every class first, then by failures. */
export function drillOrder(legs: readonly FailingLeg[]): FailingLeg[] {
  const first = new Map<string, FailingLeg>();
  for (const l of legs) if (l.origin !== "load" && !first.has(l.class)) first.set(l.class, l);
  const lead = [...first.values()];
  const inLead = new Set(lead);
  return [...lead, ...legs.filter((l) => !inLead.has(l))];
}

/** An open pack of the drill-down. */
interface DrillPack {
  path: string;
  engine: Engine;
  zones: Set<string>;
}

/** The pack for a leg: one that has its zone, the one with the logged build hash first. */
function packFor(packs: DrillPack[], zone: string, hash: string): DrillPack | null {
  const has = packs.filter((p) => !p.engine.info.error && p.zones.has(zone));
  return has.find((p) => hash && p.engine.info.buildHash === hash) ?? has[0] ?? null;
}

function overridesText(b: BatteryLeg): string {
  return Object.entries(b.overrides ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(
    ", ",
  );
}

/** The request of a leg and what the replay cannot know (see the module doc). */
function requestOf(
  leg: FailingLeg,
  acc: ReportAccumulator,
  batteries: readonly BatteryLeg[],
  haveBatteries: boolean,
): { req: PlanRequest; how: string; caveats: string[]; hash: string; version: string } {
  const rec = acc.recordOf(leg.key);
  const caveats: string[] = [];
  if (!rec) {
    caveats.push(
      "partial request: the navigator log carries zone, start, goal and the declared goal deck only — floors, start deck and runtime no-go discs are unknown and replayed as none",
    );
    return {
      req: {
        zone: leg.zone,
        start: [leg.start![0], leg.start![1]],
        goal: [leg.goal![0], leg.goal![1]],
        startFloorY: null,
        goalFloorY: null,
        startDeckY: null,
        goalDeckY: leg.deck,
        noGoDiscs: [],
      },
      how: "partial request from the navigator's log lines",
      caveats,
      hash: "",
      version: "",
    };
  }
  const bat = batteryMatch(rec, batteries);
  let how = "the plan line's exact request";
  if (bat?.overrides) how += ` with battery leg ${bat.id}'s test overrides (${overridesText(bat)})`;
  else if (bat) how += ` (battery leg ${bat.id}, no test overrides)`;
  if (rec.leg && (!bat || bat.id !== rec.leg)) {
    caveats.push(
      haveBatteries
        ? `overrides missing: the log names battery leg ${rec.leg}, which no --battery file has${
          bat ? ` (matched ${bat.id} by its inputs)` : ""
        }; its test overrides, if any, are not applied`
        : `overrides missing: the log names battery leg ${rec.leg}, but no --battery file was given; its test overrides (window, max_cells, cancel_before_tier), if any, are not applied`,
    );
  }
  return {
    req: requestFromRecord(rec, bat),
    how,
    caveats,
    hash: rec.packHash,
    version: rec.version,
  };
}

/** The picture's words: the logged message, the replay's when it differs, the verdict. */
function drillText(leg: FailingLeg, res: PlanResult, d: Drilldown): PictureText {
  const notes: string[] = [];
  if (!res.ok && res.message !== leg.error) notes.push(`Replay says: ${res.message}`);
  notes.push(
    d.differs
      ? `Replayed to ${d.class}, not the logged ${leg.class} (the drill-down says why).`
      : `Replay reproduces the logged class ${leg.class}.`,
  );
  return { message: leg.error, notes };
}

/** Replays the failing legs on `packs` and fills `data.drilldowns`; returns how many drew. */
export async function addDrilldowns(
  data: ReportData,
  acc: ReportAccumulator,
  packs: string | readonly string[],
  opts: DrillOptions = {},
): Promise<number> {
  const maxLegs = opts.maxLegs ?? 25, maxBytes = opts.maxBytes ?? 4_000_000;
  const maxCells = opts.maxCells ?? 400_000;
  const maxHover = opts.maxHoverBytes ?? 2_000_000;
  const batteries = opts.batteries ?? [];
  const paths = typeof packs === "string" ? [packs] : [...packs];
  const open: DrillPack[] = [];
  for (const path of paths) {
    const engine = await openEngine(path, {
      ...(opts.workers ? { workers: opts.workers } : {}),
      ...(opts.profile ? { profile: opts.profile } : {}),
    });
    open.push({ path, engine, zones: new Set(engine.info.zones ?? []) });
  }
  const planner = `navscope/${NAVSCOPE_VERSION}`;
  let drawn = 0, bytes = 0, hoverBytes = 0, tried = 0, differ = 0;
  try {
    for (const leg of drillOrder(data.failures.legs)) {
      if (tried >= maxLegs) break;
      if (leg.origin === "load") continue;
      tried++;
      if (!leg.start || !leg.goal) {
        data.drilldowns[leg.id] = {
          outcome: "-",
          message: "",
          why: "the log does not give the leg's endpoints: nothing to replay",
        };
        continue;
      }
      const r = requestOf(leg, acc, batteries, batteries.length > 0);
      const pack = packFor(open, leg.zone, r.hash);
      if (!pack) {
        const bad = open.filter((p) => p.engine.info.error);
        data.drilldowns[leg.id] = {
          outcome: "-",
          message: "",
          why: `zone ${leg.zone} is in none of the packs (${paths.join(", ")})` +
            (bad.length ? `; unusable: ${bad.map((p) => p.engine.info.error).join("; ")}` : ""),
        };
        continue;
      }
      const hash = pack.engine.info.buildHash;
      if (r.hash && r.hash !== hash) {
        r.caveats.push(
          `pack changed: the log planned on build ${r.hash}, the replay runs on ${hash} (${pack.path})`,
        );
      }
      if (r.version && r.version !== planner) {
        r.caveats.push(`planner changed: the log says ${r.version}, the replay runs ${planner}`);
      }
      // A window over the budget is drawn as a focus crop plus an overview (picture.ts).
      const res = await pack.engine.plan(r.req, { picture: true, pictureBudget: maxCells });
      const cls = recordClass(planRecordFromResult(r.req, res, { packHash: hash }));
      const d: Drilldown = {
        outcome: res.ok ? "ok" : res.error,
        message: res.message,
        class: cls,
        logged_class: leg.class,
        logged_message: leg.error,
        differs: cls !== leg.class,
        caveats: r.caveats,
        how: `replayed on ${pack.path} (build ${hash}) with ${r.how}`,
      };
      if (d.differs) {
        differ++;
        if (r.caveats.length === 0) {
          d.caveats!.push(
            "same request, pack build and planner version as the log, yet another outcome: the planner's code changed since the log was written",
          );
        }
      }
      const p = res.picture;
      opts.onReplay?.(leg, p ?? null, res);
      if (!p) d.why = "no picture (the request could not be planned)";
      else {
        const svg = legSvg(
          p,
          `${leg.class} · ${leg.leg || leg.key} · ${leg.zone}`,
          opts.extraRoutes?.(leg) ?? [],
          drillText(leg, res, d),
        );
        if (bytes + svg.length > maxBytes) {
          d.why = `the report's picture budget (${
            (maxBytes / 1e6).toFixed(1)
          } MB of SVG) is used up`;
        } else {
          d.svg = svg;
          bytes += svg.length;
          drawn++;
          const sp = packSpans(p);
          if (hoverBytes + sp.gz.length <= maxHover) {
            d.spans = sp;
            hoverBytes += sp.gz.length;
          }
        }
      }
      data.drilldowns[leg.id] = d;
    }
  } finally {
    for (const p of open) p.engine.close();
  }
  addGlosses(data);
  data.notes.push(
    `Drill-downs: ${tried} failing legs (one of every class first, then by failures) were replayed on ${
      paths.join(", ")
    }; ${drawn} drew (pictures ≤ ${maxCells} cells, bigger windows as a focus crop plus an overview; ${
      (bytes / 1e6).toFixed(2)
    } MB of pictures, budget ${(maxBytes / 1e6).toFixed(1)} MB; ${
      (hoverBytes / 1e6).toFixed(2)
    } MB of hover spans, budget ${(maxHover / 1e6).toFixed(1)} MB)` +
      (differ
        ? `; ${differ} replayed to another outcome than the log (each drill-down says why).`
        : "."),
  );
  return drawn;
}
