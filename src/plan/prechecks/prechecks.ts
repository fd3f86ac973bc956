/**
 * The pre-checks of planLocked, in the spec's order (spec 前置检查与选类 items 5–11; items 1–4
 * are the engine's and the zone cache's): snap both endpoints (吸附, 起点所在的面), author no-go
 * (端点在虚拟禁区内), the zone-wide core-anchor gate (端点到核心可走区的距离), the two small grid
 * patches and the region pick (选类), and the region box. Any failure ends the plan with its own
 * code and the spec's message; the debug record keeps its defaults.
 * @module
 */

import { closestOnTriangle, triangleHeight } from "../../zone_mesh/geom.ts";
import { type SnapHit, snapPoint } from "../../zone_mesh/snap.ts";
import { inAuthorNoGo, type NoGoTable } from "../../pack/nogo/table.ts";
import { kCS } from "../../grid/constants.ts";
import { cFixed } from "../diagnostics/format.ts";
import type { PlanContext } from "../context.ts";
import { coreAnchorPx, kCoreGate } from "./core_anchor.ts";
import { boxAround, decodePatch, type GridPatch, unionRect } from "../window/grid_patch.ts";
import { PlanTiles } from "../window/plan_tiles.ts";
import {
  cellHasRegion,
  cellOf,
  kPickRadius,
  pickDeckRec,
  type PickedRecord,
  pickStartRec,
} from "./region_pick.ts";
import { PlanFailure, type PlanRequest, type Pt } from "../types.ts";
import { customProfile, SPEC_PROFILE } from "../profile.ts";
import type { RegionBox, ZoneState } from "../window/zone_state.ts";

/** Half side of the early start patch with a goal deck: (16 + 8) px (前置检查与选类). */
const kEarlyStartPatchCells = (16 + 8) / kCS;

/** What the pre-checks hand to the tier loop. */
export interface PlanSetup {
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** Start triangle snap. */
  startSnap: SnapHit;
  /** Goal triangle snap. */
  goalSnap: SnapHit;
  /** Start height h0: mean of the start triangle's vertex heights, m. */
  h0: number;
  /** The region the search runs in. */
  region: number;
  /** Seed record (from the start pick; its cell and height). */
  seed: PickedRecord;
  /** The region's cell bounding box. */
  regionBox: RegionBox;
}

/** Runs items 5–11. Throws {@link PlanFailure}. */
export function runPrechecks(
  ctx: PlanContext,
  zs: ZoneState,
  req: PlanRequest,
  noGo: NoGoTable,
  tiles: PlanTiles = new PlanTiles(zs),
): PlanSetup {
  const start: Pt = [req.start[0], req.start[1]], goal: Pt = [req.goal[0], req.goal[1]];
  const goalDeck = req.goalDeckY ?? null;
  let startPatch: GridPatch | null = null, goalPatch: GridPatch | null = null;
  let goalPick: PickedRecord | null = null;
  // 9839304 (起点所在的面 step 2; profile switch startByGoalRegion): the reference build snaps the
  // start as usual even when the goal declares a deck.
  if (goalDeck !== null && req.profile?.switches.startByGoalRegion !== false) {
    ctx.probe?.touch("startByGoalRegion");
    // Decoded before snapping: 起点所在的面 step 2 needs the goal's region. A failure here is
    // retried at item 9 (前置检查与选类).
    ctx.sub("region_pick", () => {
      try {
        goalPatch = decodePatch(
          zs,
          boxAround(cellOf(goal[0]), cellOf(goal[1]), kPickRadius),
          tiles,
        );
        startPatch = decodePatch(
          zs,
          boxAround(cellOf(start[0]), cellOf(start[1]), kEarlyStartPatchCells + kPickRadius),
          tiles,
        );
        goalPick = pickDeckRec(goalPatch, cellOf(goal[0]), cellOf(goal[1]), goalDeck);
      } catch {
        startPatch = goalPatch = goalPick = null;
      }
    });
  }
  const startSnap = ctx.sub("snap", () => snapStart(zs, req, start, startPatch, goalPick));
  if (!startSnap) throw new PlanFailure("snap_far_from_mesh", "起点不在网格附近");
  const goalSnap = ctx.sub(
    "snap",
    () => snapPoint(zs.mesh, zs.buckets, goal[0], goal[1], floorOpt(req.goalFloorY, req)),
  );
  if (!goalSnap) throw new PlanFailure("snap_far_from_mesh", "终点不在网格附近");
  if (ctx.probe && req.profile?.switches.snapKeys !== false) {
    probeSnapKeys(ctx, zs, req, start, goal, startPatch, goalPick, startSnap, goalSnap);
  }
  ctx.debug.meshSnapStart = startSnap.dist;
  ctx.debug.meshSnapGoal = goalSnap.dist;
  const h0 = startSnap.h;
  const inNoGo = ctx.sub(
    "nogo",
    () =>
      inAuthorNoGo(noGo, zs.name, start[0], start[1], startSnap.h) ||
      inAuthorNoGo(noGo, zs.name, goal[0], goal[1], goalSnap.h),
  );
  if (inNoGo) {
    // An empty table (no #5566) never says yes: the switch is on here.
    ctx.probe?.touch("authorNoGo");
    throw new PlanFailure("no_go", "端点在禁区内", { noGo: true });
  }
  const [cs, cg] = ctx.sub(
    "core_anchor",
    () => gridStep(() => coreAnchorPx(zs, [start, goal], tiles)),
  );
  ctx.debug.coreStart = cs;
  ctx.debug.coreGoal = cg;
  if (cs > kCoreGate || cg > kCoreGate) {
    throw new PlanFailure(
      "endpoint_far_from_core",
      `端点接不上可走层 (起 ${cFixed(cs, 1)}px / 终 ${cFixed(cg, 1)}px)`,
    );
  }
  const { region, seed, regionBox } = ctx.sub(
    "region_pick",
    () => pickRegion(zs, req, start, startSnap, startPatch, goalPatch, tiles),
  );
  ctx.debug.region = region;
  return { start, goal, startSnap, goalSnap, h0, region, seed, regionBox };
}

/** Items 9–11: the two small grid patches, the region pick (选类) and the region box. */
function pickRegion(
  zs: ZoneState,
  req: PlanRequest,
  start: Pt,
  startSnap: SnapHit,
  early: GridPatch | null,
  earlyGoal: GridPatch | null,
  tiles: PlanTiles,
): { region: number; seed: PickedRecord; regionBox: RegionBox } {
  const goal = req.goal, goalDeck = req.goalDeckY ?? null, h0 = startSnap.h;
  let startPatch = early, goalPatch = earlyGoal;
  const sc = [cellOf(start[0]), cellOf(start[1])] as const;
  const pc = [cellOf(startSnap.x), cellOf(startSnap.y)] as const;
  if (!startPatch || (goalDeck !== null && !goalPatch)) {
    gridStep(() => {
      startPatch = decodePatch(
        zs,
        unionRect([boxAround(sc[0], sc[1], kPickRadius), boxAround(pc[0], pc[1], kPickRadius)]),
        tiles,
      );
      if (goalDeck !== null) {
        goalPatch = decodePatch(
          zs,
          boxAround(cellOf(goal[0]), cellOf(goal[1]), kPickRadius),
          tiles,
        );
      }
    });
  }
  const sp = startPatch!;
  const seed = pickStartRec(sp, sc[0], sc[1], h0) ?? pickStartRec(sp, pc[0], pc[1], h0);
  if (!seed) {
    throw new PlanFailure("no_walkable_voxel", `起点附近无可走体素 (gx=${sc[0]},gy=${sc[1]})`);
  }
  let region = seed.rid;
  if (goalDeck !== null) {
    const g = pickDeckRec(goalPatch!, cellOf(goal[0]), cellOf(goal[1]), goalDeck);
    if (!g) {
      throw new PlanFailure(
        "target_deck_unreachable",
        `终点附近没有声明的面 (deck=${cFixed(goalDeck, 6)})`,
      );
    }
    region = g.rid;
  }
  const regionBox = zs.regionBox(region);
  if (!regionBox) throw new PlanFailure("region_empty", "类内没有格图");
  return { region, seed, regionBox };
}

function floorOpt(
  y: number | null | undefined,
  req: PlanRequest,
): { floorY?: number; oldKeys?: boolean } {
  // formulas.md #64: the reference profile (switch snapKeys off) ranks with the older keys.
  const o = req.profile?.switches.snapKeys === false ? { oldKeys: true } : {};
  return y === null || y === undefined ? o : { ...o, floorY: y };
}

/**
 * Switch probe of `snapKeys` (formulas.md #64): both endpoints snapped again with the older keys;
 * touched when either hit differs.
 */
function probeSnapKeys(
  ctx: PlanContext,
  zs: ZoneState,
  req: PlanRequest,
  start: Pt,
  goal: Pt,
  startPatch: GridPatch | null,
  goalPick: PickedRecord | null,
  startSnap: SnapHit,
  goalSnap: SnapHit,
): void {
  const old: PlanRequest = {
    ...req,
    profile: customProfile(req.profile ?? SPEC_PROFILE, { snapKeys: false }),
  };
  const s = snapStart(zs, old, start, startPatch, goalPick);
  const g = snapPoint(zs.mesh, zs.buckets, goal[0], goal[1], floorOpt(req.goalFloorY, old));
  if (JSON.stringify([s, g]) !== JSON.stringify([startSnap, goalSnap])) {
    ctx.probe!.touch("snapKeys");
  }
}

/** Item 9: a grid decode failure is `预烘格图解不开`. */
function gridStep<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PlanFailure) throw e;
    throw new PlanFailure(
      "grid_decode_failed",
      `预烘格图解不开 (${e instanceof Error ? e.message : String(e)})`,
    );
  }
}

/**
 * 起点所在的面: (1) a declared start deck snaps with the deck key; (2) otherwise, with a goal
 * deck, only triangles whose seed cell holds a non-Fill span of the goal's region are
 * candidates; (3) otherwise (or when 1–2 find nothing) the floor keys as usual.
 */
function snapStart(
  zs: ZoneState,
  req: PlanRequest,
  start: Pt,
  startPatch: GridPatch | null,
  goalPick: PickedRecord | null,
): SnapHit | null {
  const { mesh, buckets } = zs;
  if (req.startDeckY !== null && req.startDeckY !== undefined) {
    const hit = snapPoint(mesh, buckets, start[0], start[1], { deckY: req.startDeckY });
    if (hit) return hit;
  } else if (startPatch && goalPick) {
    const q = new Float64Array(2);
    const sc = [cellOf(start[0]), cellOf(start[1])] as const;
    const accept = (t: number) => {
      closestOnTriangle(mesh.vertices, mesh.tris, t, start[0], start[1], q);
      const H = triangleHeight(mesh.vertices, mesh.tris, t);
      const seed = pickStartRec(startPatch, sc[0], sc[1], H) ??
        pickStartRec(startPatch, cellOf(q[0]), cellOf(q[1]), H);
      return seed !== null && cellHasRegion(startPatch, seed.gx, seed.gy, goalPick.rid);
    };
    const hit = snapPoint(mesh, buckets, start[0], start[1], {
      ...floorOpt(req.startFloorY, req),
      accept,
    });
    if (hit) return hit;
  }
  return snapPoint(mesh, buckets, start[0], start[1], floorOpt(req.startFloorY, req));
}
