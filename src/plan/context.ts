/**
 * The plan context (Recast's `rcContext`): one object per plan that times every stage and keeps
 * every intermediate for debugging (spec 诊断: "成功和失败都输出诊断"). Stages add their time with
 * {@link PlanContext.time}; the steps between the six stages time themselves with
 * {@link PlanContext.sub} (exclusive: a nested sub-stage's time leaves its parent's), so "other"
 * is broken down (issue 28); the stages add their work counters to `debug.counters` (issue 26).
 * The tier loop records one {@link TierTrace} per round.
 * @module
 */

import { emptyDebug, type PlanDebug, type StageTimings } from "./types.ts";
import type { CounterName, OtherStageName, WorkCounters } from "./counters.ts";
import type { WindowGrid } from "./window/window_grid.ts";
import type { FallGate } from "../grid/rise_ok.ts";
import type { SwitchProbe } from "./profile.ts";

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
  /** Time of the nested sub-stages of each open {@link sub} frame, ms (innermost last). */
  private readonly inner: number[] = [];
  /**
   * Start span, goal spans and FallGate of the last window's search (the picture's reach floods
   * start from them); null before the first anchors are set.
   */
  anchors: { startSpan: number; goalSpans: number[]; gate: FallGate | null } | null = null;
  /** The engine's `afterWindowBuild` instrumentation (EngineOptions); null: none. */
  afterWindowBuild: (() => void) | null = null;
  /** Switch probes of this plan (`PlanCallOptions.probeSwitches`); null: not probing. */
  readonly probe: SwitchProbe | null;

  constructor(signal?: AbortSignal, probe: SwitchProbe | null = null) {
    this.t0 = performance.now();
    this.debug = emptyDebug();
    this.signal = signal;
    this.probe = probe;
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

  /**
   * Runs `f` as sub-stage `name` of "other": its wall time, less that of the sub-stages nested
   * in it, is added to `debug.otherTiming[name]`.
   */
  sub<T>(name: OtherStageName, f: () => T): T {
    const t = performance.now();
    this.inner.push(0);
    try {
      return f();
    } finally {
      this.closeSub(name, performance.now() - t);
    }
  }

  /** {@link sub} for an async step. */
  async subAsync<T>(name: OtherStageName, f: () => Promise<T>): Promise<T> {
    const t = performance.now();
    this.inner.push(0);
    try {
      return await f();
    } finally {
      this.closeSub(name, performance.now() - t);
    }
  }

  /** Closes the innermost sub-stage frame: its exclusive time to `name`, its whole to the parent. */
  private closeSub(name: OtherStageName, dt: number): void {
    this.debug.otherTiming[name] += dt - this.inner.pop()!;
    if (this.inner.length) this.inner[this.inner.length - 1] += dt;
  }

  /** Adds `ms` measured elsewhere (a stage's own clock) to sub-stage `name`. */
  addOther(name: OtherStageName, ms: number): void {
    this.debug.otherTiming[name] += ms;
    if (this.inner.length) this.inner[this.inner.length - 1] += ms;
  }

  /** The plan's work counters (stages add to them). */
  get counters(): WorkCounters {
    return this.debug.counters;
  }

  /** Adds `n` to counter `name`. */
  count(name: CounterName, n: number): void {
    this.debug.counters[name] += n;
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
