/**
 * Leg batteries through the planner (`navscope plan --legs`): each leg's plan is judged against
 * its expectation and route checks; rows carry the stable `plan --legs --json` fields and the
 * summary the total-time percentiles (nearest rank, as every navscope percentile).
 * @module
 */

import type { Engine } from "../plan/engine.ts";
import { legRequest } from "../plan/battery.ts";
import type { PlanResult, Pt } from "../plan/types.ts";
import type { Leg } from "../legs/format.ts";
import { planRecordFromResult } from "../logs/from_plan.ts";
import type { PlanRecord } from "../logs/types.ts";
import { percentileSorted } from "./percentile.ts";

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
  /** The planner's own code ("" when ok). */
  code: string;
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
  /** Sub-stage times of "other", ms (docs/counters.md). */
  other_ms: Record<string, number>;
  /** Work counters (docs/counters.md). */
  counters: Record<string, number>;
}

/** Plans one leg and judges it: the planner's code against the leg's expectation and checks. */
export async function planLeg(
  engine: Engine,
  leg: Leg,
): Promise<{ row: BatteryRow; result: PlanResult; record: PlanRecord }> {
  const req = legRequest(leg);
  const result = await engine.plan(req);
  const record = planRecordFromResult(req, result, {
    packHash: engine.info.buildHash,
    leg: leg.id,
  });
  // The planner's code is its class (the class names of classify); the route expander's deck-leg
  // rule (失败的情形 › 展开器的处理) belongs to `classify` on logs, not to the planner's battery.
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
    record,
    row: {
      id: leg.id,
      ok: result.ok,
      class: cls,
      expected: leg.expected,
      matched: mismatch === "",
      mismatch,
      error: result.message,
      code: result.error,
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
      other_ms: { ...d.otherTiming },
      counters: { ...d.counters },
    },
  };
}

/** Battery summary (`plan --legs --json` `summary`). */
export interface BatterySummary {
  /** Legs planned. */
  legs: number;
  /** Legs whose outcome matched. */
  matched: number;
  /** Legs whose outcome did not. */
  mismatched: number;
  /** Median total time, ms. */
  p50_total_ms: number;
  /** 90th percentile total time, ms. */
  p90_total_ms: number;
}

/** Summarises rows. */
export function summarizeBattery(rows: readonly BatteryRow[]): BatterySummary {
  const totals = rows.map((r) => r.timing_ms.total).sort((a, b) => a - b);
  const matched = rows.filter((r) => r.matched).length;
  return {
    legs: rows.length,
    matched,
    mismatched: rows.length - matched,
    p50_total_ms: totals.length ? percentileSorted(totals, 50) : 0,
    p90_total_ms: totals.length ? percentileSorted(totals, 90) : 0,
  };
}
