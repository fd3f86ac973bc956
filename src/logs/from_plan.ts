/**
 * The planner → run-log bridge: a plan request and its result become the {@link PlanRecord} of
 * navscope's plan line, so every plan can be logged (`plan --log`) and read back by `classify`
 * and `stats` unchanged.
 * @module
 */

import type { PlanRequest, PlanResult } from "../plan/types.ts";
import { NAVSCOPE_VERSION } from "../version.ts";
import type { PlanRecord, WindowKind } from "./types.ts";

const kCS = 0.25;

/** Facts about the engine a record carries. */
export interface RecordContext {
  /** Main pack build_hash, hex. */
  packHash: string;
  /** Planner version (default `navscope/<version>`). */
  version?: string;
  /** Battery leg id the plan was made for (default: none). */
  leg?: string;
}

/** The plan-line record of one plan. */
export function planRecordFromResult(
  req: PlanRequest,
  res: PlanResult,
  ctx: RecordContext,
): PlanRecord {
  const d = res.debug;
  const built = d.nx > 0 && d.ny > 0;
  return {
    version: ctx.version ?? `navscope/${NAVSCOPE_VERSION}`,
    packHash: ctx.packHash,
    zone: req.zone,
    start: [req.start[0], req.start[1]],
    goal: [req.goal[0], req.goal[1]],
    startFloorY: req.startFloorY ?? null,
    goalFloorY: req.goalFloorY ?? null,
    startDeckY: req.startDeckY ?? null,
    goalDeckY: req.goalDeckY ?? null,
    noGoDiscs: (req.noGoDiscs ?? []).map((c) => [c.x, c.y, c.r]),
    leg: ctx.leg ?? "",
    ...(res.profile === undefined ? {} : { profile: res.profile }),
    ok: res.ok,
    code: res.error,
    error: res.message,
    noGo: res.noGo,
    tier: d.tier,
    kind: d.kind as WindowKind,
    tierNotes: [...d.tierNotes],
    window: built
      ? {
        x0: Math.round(d.x0 / kCS),
        y0: Math.round(d.y0 / kCS),
        nx: d.nx,
        ny: d.ny,
        cells: d.nx * d.ny,
      }
      : null,
    timing: { ...d.timing },
    counters: { ...d.counters },
    otherTiming: { ...d.otherTiming },
    snapStart: d.snapStart,
    snapGoal: d.snapGoal,
    reachStart: d.snapStart,
    reachGoal: d.snapGoal,
    gap: d.gap ? { start: d.gap.start, goal: d.gap.goal, distance: d.gap.distance } : null,
    warnings: [...res.warnings],
    points: res.points.length,
    length: res.length,
    drops: res.drops.length,
  };
}
