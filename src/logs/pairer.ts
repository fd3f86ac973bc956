/**
 * Pairs the navigator lines of one plan into a {@link Leg}, by thread and order
 * (maaend-runlogs.md §1.3). One engine call logs, on its thread, in this order:
 *
 * - failure: `RECAST plan failed.` (zone, planner error) → `Failed to plan NAVMESH route.`
 *   (zones, start, goal, status, plan_ms) → optionally `Failed to plan NAVMESH waypoint on the
 *   declared deck.` / `Global NAVMESH target is unavailable on the declared deck.` (target,
 *   deck) when the leg declared a goal deck;
 * - success: `RECAST plan warning.` × k → `NAVMESH route planned.` (cost, point count, no
 *   endpoints) → optionally `NAVMESH generated path.` (start, goal, points).
 *
 * So a failed leg becomes replayable (zone, start, goal, deck when known) with its original
 * error. Detour probes log nothing (§1.3), so they never create legs. State is a few fields per
 * thread: memory is bounded by the number of threads, not by the log size. Lines without a
 * thread id (MaaEnd's short layout) are matched by zone and goal within a 1 s window instead.
 * @module
 */
import type { EventBase, Leg, LegEvent, LogEvent, PlanRecord, Point2 } from "./types.ts";

/** Max planar distance (px) between a failed leg's goal and a deck line's target to pair them. */
const TARGET_EPS = 0.01;
/**
 * Pending pieces older than this (ms, by log time) are emitted: a deck line follows its route
 * line within milliseconds, so a leg waiting longer is complete. Without thread ids (the short
 * layout), lines of concurrent plans can interleave, so there pieces are matched by zone (and
 * goal) and also emitted when too many wait.
 */
const LOOSE_WINDOW_MS = 1000;
const LOOSE_MAX_PENDING = 16;

interface PendingRecast {
  zone: string;
  error: string;
  base: EventBase;
}

interface ThreadState {
  /** True when the lines carry a thread id: one plan at a time, strict "next line" rules. */
  exact: boolean;
  /** Unconsumed `RECAST plan failed.` lines. */
  recasts: PendingRecast[];
  /** Warnings since the last plan outcome. */
  warnings: string[];
  /** The first warning's line (start of a successful leg). */
  warnBase: EventBase | null;
  /** Failed legs waiting for a possible declared-deck line. */
  failed: LegEvent[];
  /** Successful legs (`route planned`) waiting for a possible `generated path`. */
  planned: LegEvent[];
}

function near(a: Point2 | null, b: Point2): boolean {
  return a !== null && Math.abs(a[0] - b[0]) <= TARGET_EPS && Math.abs(a[1] - b[1]) <= TARGET_EPS;
}

function takeFirst<T>(list: T[], pred: (x: T) => boolean): T | null {
  const i = list.findIndex(pred);
  return i < 0 ? null : list.splice(i, 1)[0];
}

/** Turns navigator events into legs; call `push` per event in log order, then `finish`. */
export class LegPairer {
  #threads = new Map<number, ThreadState>();
  #taskId = "";
  /** Log time of the oldest pending piece over all threads (Infinity when none). */
  #oldest = Infinity;
  #nodeName = "";
  #emit: (e: LegEvent) => void;

  /** `emit` receives each completed leg. */
  constructor(emit: (e: LegEvent) => void) {
    this.#emit = emit;
  }

  #state(b: EventBase): ThreadState {
    // Thread ids are per process: key on both (pid/tid are −1 when the layout lacks them).
    const key = (b.head.pid + 1) * 65537 + (b.head.tid + 1);
    let st = this.#threads.get(key);
    if (!st) {
      st = {
        exact: b.head.tid >= 0,
        recasts: [],
        warnings: [],
        warnBase: null,
        failed: [],
        planned: [],
      };
      this.#threads.set(key, st);
    }
    return st;
  }

  #leg(b: EventBase, fill: Partial<Leg>): LegEvent {
    const leg: Leg = {
      origin: "navigator",
      src: b.src,
      time: b.head.time,
      tid: b.head.tid,
      zone: "",
      locatorZone: "",
      start: null,
      goal: null,
      goalDeckY: null,
      ok: false,
      error: "",
      status: "",
      planMs: NaN,
      cost: NaN,
      pointCount: NaN,
      warnings: [],
      replayable: false,
      taskId: this.#taskId,
      nodeName: this.#nodeName,
      plan: null,
      ...fill,
    };
    return { src: b.src, head: b.head, type: "leg", leg };
  }

  #out(e: LegEvent): void {
    const l = e.leg;
    l.replayable = l.zone !== "" && l.start !== null && l.goal !== null;
    this.#emit(e);
  }

  #recastLeg(r: PendingRecast): void {
    this.#out(this.#leg(r.base, { zone: r.zone, error: r.error }));
  }

  /** Emits every pending leg of a thread (exact mode: the plan is over). */
  #flush(st: ThreadState): void {
    for (const f of st.failed) this.#out(f);
    for (const p of st.planned) this.#out(p);
    st.failed = [];
    st.planned = [];
  }

  #flushRecasts(st: ThreadState): void {
    for (const r of st.recasts) this.#recastLeg(r);
    st.recasts = [];
  }

  /** Emits pending pieces older than the window (or beyond the cap). */
  #expire(st: ThreadState, now: number): void {
    const old = (b: EventBase) => now - b.head.time > LOOSE_WINDOW_MS;
    while (
      st.recasts.length && (old(st.recasts[0].base) || st.recasts.length > LOOSE_MAX_PENDING)
    ) {
      this.#recastLeg(st.recasts.shift()!);
    }
    while (st.failed.length && (old(st.failed[0]) || st.failed.length > LOOSE_MAX_PENDING)) {
      this.#out(st.failed.shift()!);
    }
    while (st.planned.length && (old(st.planned[0]) || st.planned.length > LOOSE_MAX_PENDING)) {
      this.#out(st.planned.shift()!);
    }
  }

  #pending(b: EventBase): void {
    if (b.head.time < this.#oldest) this.#oldest = b.head.time;
  }

  /** Emits, on every thread, pieces older than the window before `now`. */
  #sweep(now: number): void {
    if (!(now - this.#oldest > LOOSE_WINDOW_MS)) return;
    let oldest = Infinity;
    for (const st of this.#threads.values()) {
      this.#expire(st, now);
      for (const x of [...st.recasts.map((r) => r.base), ...st.failed, ...st.planned]) {
        if (x.head.time < oldest) oldest = x.head.time;
      }
    }
    this.#oldest = oldest;
  }

  /** Feeds one event (legs and events of other kinds pass through untouched). */
  push(ev: LogEvent): void {
    this.#sweep(ev.head.time);
    switch (ev.type) {
      case "plan":
        this.#out(this.#leg(ev, fromPlan(ev.record)));
        return;
      case "request":
        this.#taskId = ev.taskId;
        this.#nodeName = ev.nodeName;
        return;
      case "node_result":
        if (ev.name === this.#nodeName || this.#nodeName === "") this.#taskId = this.#nodeName = "";
        return;
      case "leg":
      case "phase":
      case "navmesh_load_failed":
      // Run machinery (maaend-runlogs.md §1.6) is no part of a leg: it must not flush one.
      case "fail_navigation":
      case "session":
      case "zipline_action":
      case "zipline_stage":
      case "worldmap_gave_up":
      case "zipline_account":
        return;
    }
    const st = this.#state(ev);
    switch (ev.type) {
      case "recast_failed":
        if (st.exact) {
          this.#flush(st);
          this.#flushRecasts(st);
        } else {
          const same = takeFirst(st.recasts, (r) => r.zone === ev.zone);
          if (same) this.#recastLeg(same);
        }
        st.warnings = [];
        st.warnBase = null;
        st.recasts.push({ zone: ev.zone, error: ev.error, base: ev });
        this.#pending(ev);
        return;
      case "recast_warning":
        if (st.exact) this.#flush(st);
        if (!st.warnings.length) st.warnBase = ev;
        st.warnings.push(ev.warning);
        return;
      case "route_failed": {
        if (st.exact) this.#flush(st);
        const r = takeFirst(st.recasts, (x) => x.zone === ev.navmeshZone || x.zone === "");
        if (st.exact) this.#flushRecasts(st);
        this.#pending(r ? r.base : ev);
        st.failed.push(this.#leg(r ? r.base : ev, {
          zone: ev.navmeshZone,
          locatorZone: ev.locatorZone,
          start: ev.start,
          goal: ev.goal,
          error: r ? r.error : "",
          status: ev.status,
          planMs: ev.planMs,
        }));
        st.warnings = [];
        st.warnBase = null;
        return;
      }
      case "route_planned":
        if (st.exact) {
          this.#flush(st);
          this.#flushRecasts(st);
        }
        this.#pending(st.warnBase ?? ev);
        st.planned.push(this.#leg(st.warnBase ?? ev, {
          zone: ev.navmeshZone,
          locatorZone: ev.locatorZone,
          ok: true,
          status: "success",
          planMs: ev.planMs,
          cost: ev.cost,
          pointCount: ev.pointCount,
          warnings: st.warnings,
        }));
        st.warnings = [];
        st.warnBase = null;
        return;
      case "generated_path": {
        const p = takeFirst(st.planned, (x) => x.leg.zone === ev.navmeshZone);
        if (st.exact) this.#flush(st);
        if (p) {
          p.leg.start = ev.start;
          p.leg.goal = ev.goal;
          if (Number.isNaN(p.leg.cost)) p.leg.cost = ev.cost;
          if (Number.isNaN(p.leg.pointCount)) p.leg.pointCount = ev.pointCount;
          this.#out(p);
        } else {
          this.#out(this.#leg(st.warnBase ?? ev, {
            zone: ev.navmeshZone,
            ok: true,
            status: "success",
            start: ev.start,
            goal: ev.goal,
            cost: ev.cost,
            pointCount: ev.pointCount,
            warnings: st.warnings,
          }));
          st.warnings = [];
          st.warnBase = null;
        }
        return;
      }
      case "deck_failed": {
        const f = takeFirst(
          st.failed,
          (x) => x.leg.zone === ev.navmeshZone && near(x.leg.goal, ev.target),
        );
        if (f) {
          f.leg.goalDeckY = ev.deckY;
          this.#out(f);
        }
        if (st.exact) this.#flush(st);
        return;
      }
      case "waypoint_unreachable":
      case "blind_fallback": {
        if (st.exact) return this.#flush(st);
        // The deck line would have come first: a leg to this target declared no deck.
        const t = ev.target;
        const f = takeFirst(st.failed, (x) => x.leg.zone === ev.navmeshZone && near(x.leg.goal, t));
        if (f) this.#out(f);
        return;
      }
      default:
        if (st.exact) this.#flush(st);
    }
  }

  /** Emits every pending leg (end of input). */
  finish(): void {
    for (const st of this.#threads.values()) {
      this.#flush(st);
      this.#flushRecasts(st);
    }
    this.#threads.clear();
    this.#oldest = Infinity;
  }
}

function fromPlan(r: PlanRecord): Partial<Leg> {
  return {
    origin: "plan_line",
    zone: r.zone,
    start: r.start,
    goal: r.goal,
    goalDeckY: r.goalDeckY,
    ok: r.ok,
    error: r.error,
    status: r.ok ? "success" : "unreachable",
    planMs: r.timing.total,
    cost: r.length,
    pointCount: r.points,
    warnings: r.warnings,
    plan: r,
  };
}
