/**
 * The plan context (Recast's `rcContext`): one object per plan that times every stage and keeps
 * every intermediate for debugging (spec 诊断: "成功和失败都输出诊断"). Stages add their time with
 * {@link PlanContext.time}; the tier loop records one {@link TierTrace} per round.
 * @module
 */

import { emptyDebug, type PlanDebug, type StageTimings } from "./types.ts";
import type { WindowGrid } from "./window/window_grid.ts";
import type { FallGate } from "../grid/rise_ok.ts";

/** Timer and debug sink of one plan. */
export class PlanContext {
  /** Plan entry time (performance.now()). */
  readonly t0: number;
  /** The debug record being filled. */
  readonly debug: PlanDebug;
  /** Cancellation signal, checked before every tier (椭圆档位 step 3). */
  readonly signal?: AbortSignal;
  /** The last window built (kept for the plan's picture; released with the context). */
  window: WindowGrid | null = null;
  /**
   * Start span, goal spans and FallGate of the last window's search (the picture's reach floods
   * start from them); null before the first anchors are set.
   */
  anchors: { startSpan: number; goalSpans: number[]; gate: FallGate | null } | null = null;

  constructor(signal?: AbortSignal) {
    this.t0 = performance.now();
    this.debug = emptyDebug();
    this.signal = signal;
  }

  /** Runs `f` and adds its wall time to `stage`. */
  time<T>(stage: Exclude<keyof StageTimings, "total">, f: () => T): T {
    const t = performance.now();
    try {
      return f();
    } finally {
      this.debug.timing[stage] += performance.now() - t;
    }
  }

  /** Milliseconds since the plan entry. */
  elapsed(): number {
    return performance.now() - this.t0;
  }

  /** Records a warning once (spec warning names). */
  warn(w: string): void {
    if (!this.debug.warnings.includes(w)) this.debug.warnings.push(w);
  }

  /** Closes the record: total time. */
  finish(): PlanDebug {
    this.debug.timing.total = this.elapsed();
    return this.debug;
  }
}
