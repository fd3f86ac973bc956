/**
 * Leg batteries (`legs.json`, src/world/legs.ts) through the planner: a leg becomes a request
 * (its `overrides` become the request's test knobs), each plan is checked against the leg's
 * expectation and route checks, and the rows carry the stable `plan --legs --json` fields.
 * @module
 */

import type { Leg } from "../world/legs.ts";
import type { Engine } from "./engine.ts";
import type { PlanRequest, PlanResult, Pt } from "./types.ts";

/** The request of a battery leg. */
export function legRequest(leg: Leg): PlanRequest {
  const o = leg.overrides;
  return {
    zone: leg.zone,
    start: [leg.start[0], leg.start[1]],
    goal: [leg.goal[0], leg.goal[1]],
    startFloorY: leg.start_floor_y ?? null,
    goalFloorY: leg.goal_floor_y ?? null,
    startDeckY: leg.start_deck_y ?? null,
    goalDeckY: leg.goal_deck_y ?? null,
    noGoDiscs: (leg.no_go_discs ?? []).map((d) => ({ x: d.x, y: d.y, r: d.r })),
    overrides: o
      ? {
        window: o.window,
        maxCells: o.max_cells,
        cancelBeforeTier: o.cancel_before_tier,
      }
      : undefined,
  };
}

/** One battery row (`plan --legs --json` `legs[]`). */
export interface BatteryRow {
  /** Leg id. */
  id: string;
  /** Planned ok. */
  ok: boolean;
  /** Outcome class: `ok` or the error code. */
  class: string;
  /** The leg's expectation. */
  expected: string;
  /** Outcome matches the expectation and the route checks hold. */
  matched: boolean;
  /** Why it did not match ("" when it did). */
  mismatch: string;
  /** The planner's message ("" when ok). */
  error: string;
  /** Final tier (−1 before the loop). */
  tier: number;
  /** Final window kind. */
  kind: string;
  /** Escalation reasons. */
  tier_notes: string[];
  /** Final window: origin px, size cells. */
  window: [number, number, number, number];
  /** Window cells. */
  window_cells: number;
  /** Route points, px. */
  points: Pt[];
  /** Route length, px. */
  length: number;
  /** Waypoint indices. */
  waypoints: number[];
  /** Warnings. */
  warnings: string[];
  /** Stage times, ms. */
  timing_ms: Record<string, number>;
}

/** Plans one leg and judges it. */
export async function planLeg(
  engine: Engine,
  leg: Leg,
): Promise<{ row: BatteryRow; result: PlanResult }> {
  const result = await engine.plan(legRequest(leg));
  const cls = result.ok ? "ok" : result.error;
  let mismatch = cls === leg.expected ? "" : `expected ${leg.expected}, got ${cls}`;
  if (!mismatch && result.ok && leg.checks) {
    const c = leg.checks;
    if (c.max_length_px !== undefined && result.length > c.max_length_px) {
      mismatch = `length ${result.length.toFixed(2)} px > max ${c.max_length_px}`;
    }
    if (c.min_length_px !== undefined && result.length < c.min_length_px) {
      mismatch = `length ${result.length.toFixed(2)} px < min ${c.min_length_px}`;
    }
  }
  const d = result.debug;
  return {
    result,
    row: {
      id: leg.id,
      ok: result.ok,
      class: cls,
      expected: leg.expected,
      matched: mismatch === "",
      mismatch,
      error: result.message,
      tier: d.tier,
      kind: d.kind,
      tier_notes: d.tierNotes,
      window: [d.x0, d.y0, d.nx, d.ny],
      window_cells: d.nx * d.ny,
      points: result.points,
      length: result.length,
      waypoints: result.waypoints,
      warnings: result.warnings,
      timing_ms: { ...d.timing },
    },
  };
}
