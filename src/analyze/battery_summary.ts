/**
 * The summary of a planned leg battery (`navscope plan --legs`): legs, matched expectations, and
 * the total-time percentiles (nearest rank, as every other navscope percentile).
 * @module
 */

import type { BatteryRow } from "../plan/battery.ts";
import { percentileSorted } from "./percentile.ts";

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
