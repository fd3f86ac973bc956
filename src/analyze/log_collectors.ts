/**
 * Thin adapter from the log layer's events (`src/logs/types.ts`) to what the analytics need:
 * failures (with their classification facts) and plan records (for tier/timing statistics).
 *
 * Why an adapter: the log layer owns its record shapes; classification rules see only
 * {@link FailureFacts}, so a new log source needs a new mapping here, not new rules.
 *
 * Counting policy (avoids double counts): a failure is a failed **leg** (`leg` events — the
 * pairer folds `RECAST plan failed.`, `Failed to plan NAVMESH route.`, deck lines and
 * navscope plan lines of one plan into one leg), plus pack-load failures (`navmesh_load_failed`),
 * which happen before any leg is planned. When a stream carries no `leg` events at all (the
 * pairer was off), navscope `plan` events stand in for legs; see {@link FailureCollector}.
 * @module
 */
import type { Leg, LogEvent, PlanRecord, Point2 } from "../logs/types.ts";
import type { FailureFacts } from "./classes.ts";
import { EMPTY_FACTS } from "./classes.ts";

/** A failure ready for classification and counting. */
export interface Failure {
  /** Classification facts. */
  facts: FailureFacts;
  /** Distinct-leg key: zone + start + goal (+ deck); see {@link legKey}. */
  leg: string;
  /** Naive epoch ms (see src/logs/types.ts), NaN when unknown. */
  time: number;
  /** Log file. */
  file: string;
  /** 1-based line in that file. */
  line: number;
  /** Battery leg id the plan line names (`[leg=…]`), absent when none. */
  legId?: string;
}

/**
 * The distinct-leg key of a plan record: {@link legKey}, plus `|leg=<id>` when the line names
 * its battery leg, since battery legs may share every input but their test overrides.
 */
export function planLegKey(r: PlanRecord, error: string): string {
  const k = legKey(r.zone, r.start, r.goal, r.goalDeckY, error);
  return r.leg ? `${k}|leg=${r.leg}` : k;
}

/** Deck hints in the error text: the planner only talks about 目标面/声明面 for deck legs. */
const DECK_TEXT = /目标面|声明面|target_deck_y/;

function pt(p: Point2 | null): string {
  return p ? `${fmt(p[0])},${fmt(p[1])}` : "?";
}

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toFixed(2) : String(v);
}

/**
 * Distinct-leg key. A leg is (zone, start, goal, goal deck) with coordinates rounded to 0.01 px
 * (the expander prints waypoints with two decimals). When the log did not record the endpoints
 * (navigator `RECAST plan failed.` lines alone), the key falls back to (zone, error text): the
 * spec counted such legs by (zone, distance to the reach domain), and the error text carries
 * those distances (spec 失败的分布: 1316 failures, 76 combinations).
 */
export function legKey(
  zone: string,
  start: Point2 | null,
  goal: Point2 | null,
  deck: number | null,
  error: string,
): string {
  if (start === null && goal === null) return `${zone}|msg:${error}`;
  return `${zone}|${pt(start)}|${pt(goal)}|${deck === null ? "-" : fmt(deck)}`;
}

/**
 * Planner codes that are spelled differently from the class names (src/logs/types.ts
 * `PlanRecord.code` examples: `goal_not_reachable`, `disconnected`, `core_far`). Mapped before
 * the rules run so that user rules can match on class-named codes only.
 */
export const CODE_ALIASES: Readonly<Record<string, string>> = {
  goal_not_reachable: "goal_outside_reach",
  goal_unreachable: "goal_outside_reach",
  disconnected: "route_disconnected",
  core_far: "endpoint_far_from_core",
  endpoint_far: "endpoint_far_from_core",
  snap_far: "snap_far_from_mesh",
  deck_unreachable: "target_deck_unreachable",
  seed_outside: "seed_outside_window",
  no_same_region: "no_same_region_span",
  region_too_big: "region_too_large",
  sidecar_error: "sidecar_unreadable",
  grid_decode: "grid_decode_failed",
};

function normCode(code: string): string {
  return CODE_ALIASES[code] ?? code;
}

/** Facts of a navscope plan record. */
export function factsFromPlan(r: PlanRecord): FailureFacts {
  const message = r.error;
  return {
    ...EMPTY_FACTS,
    message,
    code: normCode(r.noGo && r.code === "" ? "no_go" : r.code),
    status: r.noGo ? "no_go" : "",
    event: "NAVSCOPE plan.",
    zone: r.zone,
    deckDeclared: r.goalDeckY !== null || DECK_TEXT.test(message),
    gapPresent: r.gap !== null,
  };
}

/** Facts of a leg (navigator lines or a plan line). */
export function factsFromLeg(leg: Leg): FailureFacts {
  if (leg.plan) {
    const f = factsFromPlan(leg.plan);
    return { ...f, status: f.status || leg.status };
  }
  const message = leg.error;
  // The navigator logs no gap (maaend-runlogs.md §3: NavmeshExpansionFailure is never logged),
  // so a navigator leg never has one: deck legs fall to target_deck_unreachable, as the spec
  // observed (失败的分布: "断开处的定位一次也没有运行过").
  return {
    ...EMPTY_FACTS,
    message,
    status: leg.status,
    zone: leg.zone,
    deckDeclared: leg.goalDeckY !== null || DECK_TEXT.test(message),
    gapPresent: false,
    event: leg.origin,
  };
}

/** Failure of a failed leg. */
export function failureFromLeg(leg: Leg): Failure {
  const facts = factsFromLeg(leg);
  const error = facts.message || facts.status;
  const f: Failure = {
    facts,
    leg: legKey(leg.zone, leg.start, leg.goal, leg.goalDeckY, error),
    time: leg.time,
    file: leg.src.file,
    line: leg.src.line,
  };
  if (leg.plan?.leg) {
    f.leg += `|leg=${leg.plan.leg}`;
    f.legId = leg.plan.leg;
  }
  return f;
}

/**
 * Turns a stream of log events into failures. Legs are preferred; `plan` events are used only
 * while no `leg` event has been seen, and are dropped once legs appear (a stream either pairs
 * or does not, so this never double counts within one parse).
 */
export class FailureCollector {
  private sawLeg = false;
  private pendingPlans: Failure[] = [];

  /** Feeds one event; returns the failures it completes (usually zero or one). */
  add(ev: LogEvent): Failure[] {
    switch (ev.type) {
      case "leg":
        if (!this.sawLeg) {
          this.sawLeg = true;
          this.pendingPlans = [];
        }
        return ev.leg.ok ? [] : [failureFromLeg(ev.leg)];
      case "plan": {
        if (this.sawLeg || ev.record.ok) return [];
        const r = ev.record;
        const facts = factsFromPlan(r);
        this.pendingPlans.push({
          facts,
          leg: planLegKey(r, facts.message),
          time: ev.head.time,
          file: ev.src.file,
          line: ev.src.line,
          ...(r.leg ? { legId: r.leg } : {}),
        });
        return [];
      }
      case "navmesh_load_failed":
        return [{
          facts: {
            ...EMPTY_FACTS,
            message: ev.error,
            event: "navmesh_load_failed",
            level: ev.head.level,
            zone: ev.zone,
          },
          leg: `${ev.zone}|load:${ev.error}`,
          time: ev.head.time,
          file: ev.src.file,
          line: ev.src.line,
        }];
      default:
        return [];
    }
  }

  /** Failures held back until the end of the stream (plan events of an unpaired stream). */
  finish(): Failure[] {
    const out = this.sawLeg ? [] : this.pendingPlans;
    this.pendingPlans = [];
    return out;
  }
}

/** A plan record with where and when it was logged, for statistics. */
export interface TimedPlan {
  /** The record. */
  record: PlanRecord;
  /** Naive epoch ms, NaN when unknown. */
  time: number;
}

/**
 * Plan records for statistics: from `plan` events, or from `leg` events whose leg carries a
 * record — whichever the stream has, never both for one plan (same policy as
 * {@link FailureCollector}).
 */
export class PlanCollector {
  private sawPlan = false;

  /** Feeds one event; returns the plan record it carries, if any. */
  add(ev: LogEvent): TimedPlan | null {
    if (ev.type === "plan") {
      this.sawPlan = true;
      return { record: ev.record, time: ev.head.time };
    }
    if (ev.type === "leg" && !this.sawPlan && ev.leg.plan) {
      return { record: ev.leg.plan, time: ev.leg.time };
    }
    return null;
  }
}
