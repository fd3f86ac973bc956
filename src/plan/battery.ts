/**
 * Leg batteries (`legs.json`, src/legs/format.ts) as planner requests: a leg's `overrides` become
 * the request's test knobs. Judging the outcome is analytics (src/analyze/battery.ts).
 * @module
 */

import type { Leg, LegOverrides } from "../legs/format.ts";
import type { PlanOverrides, PlanRequest } from "./types.ts";

/** A leg's `overrides` as the request's test knobs. */
export function planOverrides(o: LegOverrides | undefined): PlanOverrides | undefined {
  if (!o) return undefined;
  return {
    window: o.window,
    maxCells: o.max_cells,
    cancelBeforeTier: o.cancel_before_tier,
    relaxClosed: o.relax_closed,
  };
}

/** The request of a battery leg. */
export function legRequest(leg: Leg): PlanRequest {
  return {
    zone: leg.zone,
    start: [leg.start[0], leg.start[1]],
    goal: [leg.goal[0], leg.goal[1]],
    startFloorY: leg.start_floor_y ?? null,
    goalFloorY: leg.goal_floor_y ?? null,
    startDeckY: leg.start_deck_y ?? null,
    goalDeckY: leg.goal_deck_y ?? null,
    noGoDiscs: (leg.no_go_discs ?? []).map((d) => ({ x: d.x, y: d.y, r: d.r })),
    overrides: planOverrides(leg.overrides),
  };
}
