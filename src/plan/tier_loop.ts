/**
 * The tier loop of planLocked (spec 窗口分档 › 椭圆档位, flowchart 选窗口 / 判结果): choose the
 * level's window, skip levels while a tentative window does not grow, switch to the full-region
 * window after level 64 or after a failed capped tier, check kMaxCells and cancellation, build the
 * window, route in it, and judge the result (final judgement: reach-domain distance and the
 * sealed goal). Every rejected tier leaves one reason in `tierNotes`.
 * @module
 */

import { buildWindow, type WindowGrid, windowTiles } from "./window/build_window.ts";
import type { DecodedTile, TileDecodePool } from "./window/tile_decode.ts";
import { PlanTiles } from "./window/plan_tiles.ts";
import { fallGateCaches, windowFallGate } from "./window/fall_gate_setup.ts";
import type { OccluderScene } from "../pack/ocls/types.ts";
import type { PlanContext } from "./context.ts";
import type { PlanSetup } from "./prechecks/prechecks.ts";
import { type RouteOutcome, type RouteSink, routeWindow } from "./route/route_window.ts";
import type { OtherStageName } from "./counters.ts";
import { PlanFailure, type PlanRequest, type Pt } from "./types.ts";
import {
  type CellRect,
  chooseWindow,
  kMaxCells,
  kMaxLevel,
  rectArea,
  regionRect,
  sameRect,
  type TierWindow,
} from "./window/window_tiers.ts";
import type { NoGoTable } from "../pack/nogo/table.ts";
import { kCS } from "../grid/constants.ts";
import { cFixed } from "./diagnostics/format.ts";
import type { ZoneState } from "./window/zone_state.ts";
import type { WindowGate } from "./window/window_gate.ts";
import { SPEC_PROFILE, type SwitchProbe } from "./profile.ts";
import type { FallGate } from "../grid/rise_ok.ts";

/** Reach-domain distance gate of the final judgement, px (kSnapRadius). */
const kReachGate = 8;
/** Suffix of a tier note when the next tier falls back to the full-region window. */
const kToFull = "→整类窗口";

/** The accepted tier. */
export interface TierResult {
  /** The window. */
  window: WindowGrid;
  /** Its choice. */
  choice: TierWindow;
  /** The route. */
  route: Extract<RouteOutcome, { status: "ok" }>;
}

/**
 * Runs the loop; throws PlanFailure when the leg fails. The loop's own time (window choice,
 * final judgement) outside every tier's window and search is the sub-stage `tier_choice`.
 */
export async function runTiers(
  ctx: PlanContext,
  zs: ZoneState,
  setup: PlanSetup,
  req: PlanRequest,
  noGo: NoGoTable,
  pool: TileDecodePool | null = null,
  occluders: OccluderScene | null = null,
  tiles: PlanTiles = new PlanTiles(zs),
  gate: WindowGate | null = null,
): Promise<TierResult> {
  const t0 = performance.now(), before = ctx.debug.tiers.length;
  const waited = { ms: 0 };
  try {
    return await tierLoop(ctx, zs, setup, req, noGo, pool, occluders, tiles, gate, waited);
  } finally {
    ctx.addOther("window_gate", waited.ms);
    let spent = waited.ms;
    for (const t of ctx.debug.tiers.slice(before)) spent += t.windowMs + t.searchMs;
    ctx.addOther("tier_choice", performance.now() - t0 - spent);
  }
}

async function tierLoop(
  ctx: PlanContext,
  zs: ZoneState,
  setup: PlanSetup,
  req: PlanRequest,
  noGo: NoGoTable,
  pool: TileDecodePool | null,
  occluders: OccluderScene | null,
  tiles: PlanTiles,
  gate: WindowGate | null,
  waited: { ms: number },
): Promise<TierResult> {
  const cnt = ctx.counters;
  const gateCaches = fallGateCaches();
  const sw = (req.profile ?? SPEC_PROFILE).switches;
  // The legs.json `relax_closed` override wins over the profile's #6214 switch for its leg.
  const relaxClosed = req.overrides?.relaxClosed ?? !sw.skipClosed;
  const leg = {
    sx: setup.start[0],
    sy: setup.start[1],
    gx: setup.goal[0],
    gy: setup.goal[1],
    snapX: setup.startSnap.x,
    snapY: setup.startSnap.y,
  };
  const region = regionRect(setup.regionBox);
  ctx.debug.regionRect = [region.x0, region.y0, region.nx, region.ny];
  const full: TierWindow = { kind: "full", rect: region, cost: 0, segmentCapped: false };
  const maxCells = req.overrides?.maxCells ?? kMaxCells;
  const forced = req.overrides?.window;
  const dbg = ctx.debug;
  let level = 0, forceFull = false;
  let prev: CellRect | null = null;
  for (let tier = 0;; tier++) {
    let tw: TierWindow;
    if (forced) {
      const rect = { x0: forced[0], y0: forced[1], nx: forced[2], ny: forced[3] };
      tw = { kind: "full", rect, cost: 0, segmentCapped: false };
    } else if (forceFull) tw = full;
    else {
      tw = chooseWindow(leg, level, region);
      // A tentative window that did not grow gives the same result: skip levels (step 1).
      while (tw.kind === "tentative" && prev !== null && sameRect(tw.rect, prev)) {
        level++;
        if (level > kMaxLevel) {
          tw = full;
          break;
        }
        tw = chooseWindow(leg, level, region);
      }
    }
    if (tw.kind === "full" && rectArea(tw.rect) > maxCells) {
      throw new PlanFailure("region_too_large", `类过大 (${tw.rect.nx}×${tw.rect.ny} 格)`);
    }
    if (ctx.signal?.aborted || req.overrides?.cancelBeforeTier === tier) {
      throw new PlanFailure("cancelled", "规划已取消");
    }
    prev = tw.rect;
    const trace = {
      tier,
      level,
      kind: tw.kind,
      x0: tw.rect.x0 * kCS,
      y0: tw.rect.y0 * kCS,
      nx: tw.rect.nx,
      ny: tw.rect.ny,
      cost: tw.cost,
      reason: "",
      windowMs: 0,
      searchMs: 0,
    };
    dbg.tiers.push(trace);
    cnt["tiers.tried"]++;
    Object.assign(dbg, { tier, kind: tw.kind, level, x0: trace.x0, y0: trace.y0 });
    dbg.nx = tw.rect.nx;
    dbg.ny = tw.rect.ny;
    const reject = (reason: string, next: "level" | "full") => {
      // A rejected tier's window and search are other time (实测: 建窗只计最终那一档).
      ctx.addOther("rejected_window", trace.windowMs);
      ctx.addOther("rejected_search", trace.searchMs);
      trace.reason = next === "full" ? reason + kToFull : reason;
      dbg.tierNotes.push(trace.reason);
      if (next === "level") level++;
      else forceFull = true;
    };
    // A large window waits for the process's window gate (replay workers; window_gate.ts).
    if (gate) waited.ms += await gate.enter(tw.rect.nx * tw.rect.ny);
    // Build the window.
    let win: WindowGrid;
    const t0 = performance.now();
    cnt["window.builds"]++;
    cnt["window.cells"] += tw.rect.nx * tw.rect.ny;
    try {
      const decoded = pool
        ? await poolDecode(pool, zs, tiles, windowTiles(zs, tw.rect))
        : undefined;
      win = buildWindow(
        zs,
        {
          rect: tw.rect,
          region: setup.region,
          seed: setup.seed,
          noGo,
          discs: req.noGoDiscs ?? [],
          probe: ctx.probe,
        },
        decoded,
        tiles,
      );
    } catch (e) {
      trace.windowMs = performance.now() - t0;
      if (!(e instanceof PlanFailure) || tw.kind === "full" || forced) {
        ctx.debug.timing.window = trace.windowMs;
        throw e;
      }
      reject(e.message, tw.kind === "tentative" ? "level" : "full");
      continue;
    } finally {
      ctx.afterWindowBuild?.(); // instrumentation only (EngineOptions.afterWindowBuild)
      trace.windowMs = performance.now() - t0;
    }
    cnt["window.records"] += win.records;
    cnt["window.spans"] += win.spans.h.length;
    dbg.unlandableLinks = win.unlandableLinks;
    ctx.window = win;
    ctx.anchors = null;
    // Route in it.
    let out: RouteOutcome;
    const t1 = performance.now();
    const sink: RouteSink = { counters: cnt, gapMs: 0, gateMs: 0 };
    try {
      const tg = performance.now();
      // Without #6011 (reference profile) RiseOk's rule 1 refuses every drop beyond kClimb:
      // a gate that blocks every drop gives exactly that verdict at every RiseOk call.
      const gate = sw.ledgeDrops ? windowFallGate(zs, occluders, win, gateCaches) : blockEveryDrop;
      sink.gateMs = performance.now() - tg;
      const probe = ctx.probe;
      out = routeWindow(win, {
        kind: tw.kind,
        start: setup.start,
        goal: setup.goal,
        h0: setup.h0,
        startDeckY: req.startDeckY ?? null,
        goalDeckY: req.goalDeckY ?? null,
        gate: probe && sw.ledgeDrops ? probedGate(gate, probe) : gate,
        mesh: {
          mesh: zs.mesh,
          buckets: zs.driveBuckets(),
          ref: sw.waypointSampleGeometry ? null : zs.refDriveIndex(),
          probeRef: probe && sw.waypointSampleGeometry ? zs.refDriveIndex() : null,
        },
        scaleX: zs.record.affine.sx,
        relaxClosed,
        earlyAbandon: sw.earlyAbandon,
        chordDropExclusion: sw.chordDropExclusion,
        landingMargin: sw.landingMargin,
        cellPullBlockersOnly: sw.cellPullBlockersOnly,
        limwAccessInRouteMask: sw.limwAccessInRouteMask,
        waypointStartHeight: sw.waypointStartHeight,
        // The legs.json override wins over the switch: then turning it off changes nothing.
        probe: probe
          ? { probe, skipClosed: sw.skipClosed && req.overrides?.relaxClosed === undefined }
          : null,
        sink,
        onAnchors: (startSpan, goalSpans) => (ctx.anchors = { startSpan, goalSpans, gate }),
      });
    } catch (e) {
      trace.searchMs = performance.now() - t1;
      if (!(e instanceof PlanFailure) || tw.kind === "full" || forced) {
        finishTimes(ctx, trace, sink);
        throw e;
      }
      if (tw.kind === "tentative") reject(e.message, "level");
      else if (rectArea(region) <= maxCells) reject(e.message, "full");
      else {
        finishTimes(ctx, trace, sink);
        throw e;
      }
      continue;
    }
    trace.searchMs = performance.now() - t1;
    if (out.status === "escalate") {
      reject(out.reason, "level");
      continue;
    }
    finishTimes(ctx, trace, sink);
    // The final search's time outside the five timed parts (its set-up, post-processing steps
    // and result) goes to its sub-stages (issue 28).
    for (const [k, v] of Object.entries(out.otherMs)) ctx.addOther(k as OtherStageName, v);
    ctx.debug.timing.topology = out.topologyMs;
    ctx.debug.timing.geometry = out.geometryMs;
    dbg.tautPoints = out.tautPoints;
    dbg.pulledPoints = out.post.pulled;
    dbg.assembledPoints = out.post.assembled;
    ctx.debug.timing.pull = out.post.pullMs;
    ctx.debug.timing.assemble = out.post.assembleMs;
    ctx.debug.timing.lift = out.post.liftMs;
    dbg.topologyCells = out.topologyCells;
    dbg.snapStart = out.snapStart;
    dbg.snapGoal = out.snapGoal;
    dbg.topologyPoints = out.points;
    for (const w of out.warnings) ctx.warn(w);
    // Final judgement (step 7).
    if (out.snapStart > kReachGate || out.snapGoal > kReachGate || out.goalSealed) {
      throw new PlanFailure(
        "goal_outside_reach",
        `从起点走不到终点 (端点${out.goalSealed ? "被禁行边隔开" : "在可走面上"}, 可达区距 起 ${
          cFixed(out.snapStart, 1)
        }px / 终 ${cFixed(out.snapGoal, 1)}px)`,
        { sealed: out.goalSealed, startReach: out.snapStart, goalReach: out.snapGoal },
      );
    }
    return { window: win, choice: tw, route: out };
  }
}

/** The pre-#6011 RiseOk rule 1 as a FallGate: every drop beyond kClimb is blocked. */
const blockEveryDrop: FallGate = () => true;

/**
 * The FallGate with the `ledgeDrops` probe: every drop it lets through (a null gate lets every
 * drop through) would be refused without #6011 (blockEveryDrop); a drop it blocks, or one the
 * seam look-ahead refuses before it is asked, is refused either way.
 */
function probedGate(gate: FallGate | null, probe: SwitchProbe): FallGate {
  return (from, to, h0, h1) => {
    const blocked = gate !== null && gate(from, to, h0, h1);
    if (!blocked) probe.touch("ledgeDrops");
    return blocked;
  };
}

/** The window's tiles: those the pre-checks decoded merged here, the others by the pool. */
async function poolDecode(
  pool: TileDecodePool,
  zs: ZoneState,
  tiles: PlanTiles,
  ids: number[],
): Promise<DecodedTile[]> {
  const missing = ids.filter((t) => !tiles.has(t));
  const got = await pool.decode({
    gridZone: zs.gridZone,
    fieldsZone: zs.fieldsZone,
    zoneId: zs.zoneId,
    records: (t) => zs.section.zones[zs.gridZone].tiles[t].records,
  }, missing);
  for (const t of missing) tiles.countDecode(t);
  let k = 0;
  return ids.map((t) => (tiles.has(t) ? tiles.merged(t) : got[k++]));
}

function finishTimes(
  ctx: PlanContext,
  t: { windowMs: number; searchMs: number },
  sink: RouteSink,
): void {
  // Only the final tier's window and search count as the stage times (实测: 建窗只计最终那一档);
  // the fall gate's set-up and the gap location are sub-stages of "other" (issue 28).
  ctx.debug.timing.window = t.windowMs;
  ctx.debug.timing.topology = t.searchMs - sink.gateMs - sink.gapMs;
  ctx.addOther("fall_gate", sink.gateMs);
  ctx.addOther("gap", sink.gapMs);
}

/** Length of a polyline, px. */
export function polylineLength(pts: readonly Pt[]): number {
  let L = 0;
  for (let i = 1; i < pts.length; i++) {
    const dx = pts[i][0] - pts[i - 1][0], dy = pts[i][1] - pts[i - 1][1];
    L += Math.sqrt(dx * dx + dy * dy);
  }
  return L;
}
