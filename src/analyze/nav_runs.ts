/**
 * Navigation runs: one `MapNavigateAction` request (`[req=…]`) up to its
 * `Node.Action.Succeeded/Failed`, with every leg planned inside it and what the navigator did
 * around them — start recovery, blind-target fallback, detours, zipline decisions, phase
 * transitions — and the observed track (maaend-bundles.md §3 LOG-PARSER, §4: the engineer
 * needs "planned vs observed track for one leg out of many runs"). Legs are the planner's
 * unit; runs are the user's ("取得快递后寻路失败" is one run).
 * @module
 */
import type { LogEvent, LogEventType, Point2, RouteTarget } from "../logs/types.ts";
import type { Leg } from "../logs/types.ts";
import { formatTimestamp } from "../logs/line.ts";
import { navmeshZoneOf } from "../logs/messages.ts";
import { describeRunEvent, hopOf, signalOf } from "./run_events.ts";
import type { RunSignal, RunStep, ZiplineHop } from "./run_events.ts";

/** A stretch of the observed track within one zone. */
export interface TrackSegment {
  zone: string;
  points: Point2[];
}

/** One navigation run. */
export interface NavRun {
  /** 1-based, in log order. */
  index: number;
  nodeName: string;
  taskId: string;
  /** `file:line` of the request. */
  at: string;
  /** Local time of the request as written, "" when unknown. */
  start: string;
  end: string;
  /** true succeeded, false failed, null when the log ends (or another run starts) first. */
  ok: boolean | null;
  /** Route JSON: `map_name`, `zip`, and the NAVMESH targets (zone, tier, declared deck). */
  mapName: string;
  zip: boolean | null;
  targets: RouteTarget[];
  /** Authored path length (steps). */
  pathSteps: number;
  legs: Leg[];
  failedLegs: number;
  startRecoveries: { applied: boolean; at: Point2; distance: number }[];
  blindFallbacks: { outcome: string; target: Point2; gap: number }[];
  detours: { selected: boolean; at: Point2 | null; zone: string }[];
  ziplines: { decision: string; why: string }[];
  phases: { from: string; to: string; reason: string }[];
  /** Planned paths from `NAVMESH generated path.` lines (zone, points). */
  plannedPaths: { zone: string; points: Point2[] }[];
  /** Observed positions (`status=0`, not held), split on zone change. */
  track: TrackSegment[];
  /**
   * What a terminal cause is made from (src/analyze/run_causes.ts): incidents and terminal
   * lines in log order — phase transitions to Recover/Failed, `FailNavigation`, zipline given
   * up, world-map search gave up, start recovery rejected, blind-target gave up, detour failed…
   * Kept for every run, detail or not (they are few); failed legs are in `legs`.
   */
  signals: RunSignal[];
  /** The last few navigator lines of the run, described (for a cause no line explains). */
  lastLines: string[];
  /** Timeline of the run (detail only; at most MAX_TIMELINE steps, the middle dropped). */
  timeline: RunStep[];
  /** Timeline steps dropped to keep it bounded. */
  timelineDropped: number;
  /** Zipline hops, in order, with their outcome. */
  hops: ZiplineHop[];
  /** `Navigation route replaced.` lines (a new route replaced the current one, §1.6). */
  replans: number;
  /** `NavRunController soft replan.` lines. */
  softReplans: number;
  /** Navmesh zone of the run's last leg / expansion / planned path, "" when none was logged. */
  zone: string;
  /** Naive epoch ms of the request and of the end, NaN when unknown. */
  startMs: number;
  endMs: number;
}

/** Counts over runs (beside the leg counts). */
export interface RunCounts {
  runs: number;
  failedRuns: number;
  /** Runs whose end was not in the logs. */
  openRuns: number;
  /** Runs with at least one failed leg. */
  runsWithFailedLegs: number;
}

function emptyRun(index: number): NavRun {
  return {
    index,
    nodeName: "",
    taskId: "",
    at: "",
    start: "",
    end: "",
    ok: null,
    mapName: "",
    zip: null,
    targets: [],
    pathSteps: 0,
    legs: [],
    failedLegs: 0,
    startRecoveries: [],
    blindFallbacks: [],
    detours: [],
    ziplines: [],
    phases: [],
    plannedPaths: [],
    track: [],
    signals: [],
    lastLines: [],
    timeline: [],
    timelineDropped: 0,
    hops: [],
    replans: 0,
    softReplans: 0,
    zone: "",
    startMs: NaN,
    endMs: NaN,
  };
}

/**
 * Event types a run's cause, counters and timeline read, beside `request`, `node_result` and
 * `leg` (commands that skip position lines ask the parser for these).
 */
export const RUN_EVENT_TYPES: readonly LogEventType[] = [
  "request",
  "node_result",
  "leg",
  "phase",
  "fail_navigation",
  "session",
  "zipline_action",
  "zipline_stage",
  "worldmap_gave_up",
  "start_recovery",
  "blind_fallback",
  "detour",
  "zipline",
  "waypoint_expanded",
  "generated_path",
];

/** The most timeline steps a run keeps (the first half and the latest, the middle dropped). */
export const MAX_TIMELINE = 400;
/** Navigator lines kept per run for {@link NavRun.lastLines}. */
export const LAST_LINES = 6;

/** The largest number of track points kept per run (thinned beyond it). */
const MAX_TRACK = 20000;
/** Runs started after a run before its detail may be dropped (`failedOnly`). */
const PRUNE_LAG = 2;

/**
 * Groups events into runs. Feed every event (legs included) in log order with `add`; `finish`
 * closes the last run. Events outside any run (plan lines, a log cut before the request) are
 * not attached; legs outside runs are counted in `orphanLegs`.
 */
export class RunCollector {
  readonly runs: NavRun[] = [];
  orphanLegs = 0;
  #open: NavRun | null = null;
  #trackPoints = 0;
  /**
   * `detail`: keep the full per-run detail (tracks, paths); counting only when false.
   * `failedOnly`: keep that detail only for runs with a failed leg (the report's drill-down
   * needs no more, and a 130-MB log holds thousands of runs): a run's detail is dropped once
   * {@link PRUNE_LAG} newer runs have started and none of its legs failed — a leg is emitted
   * when its last line is known, which may be after the next request, never that late.
   */
  constructor(readonly detail = true, readonly failedOnly = false) {}

  /** Feeds one event. */
  add(ev: LogEvent): void {
    const r = this.#open;
    switch (ev.type) {
      case "request": {
        if (r) this.#close(null, "");
        const run = emptyRun(this.runs.length + 1);
        run.nodeName = ev.nodeName;
        run.taskId = ev.taskId;
        run.at = `${ev.src.file}:${ev.src.line}`;
        run.start = Number.isNaN(ev.head.time) ? "" : formatTimestamp(ev.head.time);
        run.mapName = ev.mapName;
        const p = ev.param as Record<string, unknown> | null;
        run.zip = p && typeof p.zip === "boolean" ? p.zip : null;
        run.targets = ev.targets;
        run.pathSteps = ev.path.length;
        run.startMs = ev.head.time;
        const z = ev.targets.find((t) => t.zoneId !== "");
        // The route names locator zones (`Wuling_Base`): kept as the navmesh zone (§4).
        if (z) run.zone = navmeshZoneOf(z.zoneId) || z.zoneId;
        if (this.detail) run.timeline.push(step(ev, describeRunEvent(ev)));
        this.runs.push(run);
        this.#open = run;
        this.#trackPoints = 0;
        if (this.failedOnly) this.#prune(this.runs.length - 1 - PRUNE_LAG);
        return;
      }
      case "node_result":
        if (r && (ev.name === r.nodeName || r.nodeName === "")) {
          r.endMs = ev.head.time;
          if (this.detail) this.#step(r, ev);
          this.#close(ev.ok, Number.isNaN(ev.head.time) ? "" : formatTimestamp(ev.head.time));
        }
        return;
      case "leg": {
        // The pairer emits a leg once its last line is known, which may be after the next
        // request: the leg names the request in effect at its first line (taskId, nodeName).
        const l = ev.leg;
        let run: NavRun | null = null;
        if (l.nodeName !== "" || l.taskId !== "") {
          for (let i = this.runs.length - 1; i >= 0; i--) {
            const c = this.runs[i];
            if (c.nodeName === l.nodeName && c.taskId === l.taskId) {
              run = c;
              break;
            }
          }
        }
        if (!run) {
          this.orphanLegs++;
          return;
        }
        if (!l.ok) run.failedLegs++;
        if (l.zone) run.zone = l.zone;
        if (this.detail || !l.ok) run.legs.push(l);
        return;
      }
    }
    if (!r) return;
    this.#machinery(r, ev);
    if (!this.detail) return;
    switch (ev.type) {
      case "start_recovery":
        r.startRecoveries.push({
          applied: ev.applied,
          at: ev.start,
          distance: ev.distance,
        });
        return;
      case "blind_fallback":
        r.blindFallbacks.push({ outcome: ev.outcome, target: ev.target, gap: ev.gap });
        return;
      case "detour":
        r.detours.push({ selected: ev.selected, at: ev.position, zone: ev.zone });
        return;
      case "zipline":
        r.ziplines.push({ decision: ev.decision, why: ev.why });
        return;
      case "phase":
        r.phases.push({ from: ev.from, to: ev.to, reason: ev.reason });
        return;
      case "generated_path":
        if (ev.navmeshZone) r.zone = ev.navmeshZone;
        if (ev.points.length) r.plannedPaths.push({ zone: ev.navmeshZone, points: ev.points });
        return;
      case "position":
        this.#position(r, ev.status, ev.held, ev.zone, ev.point);
        return;
    }
  }

  /**
   * Run machinery (maaend-runlogs.md §1.6) of the open run: its cause signals, counters, hops
   * and last lines always; a timeline step with detail.
   */
  #machinery(r: NavRun, ev: LogEvent): void {
    if (ev.type === "position") return;
    const sig = signalOf(ev);
    if (sig) r.signals.push(sig);
    if (ev.type === "session") {
      if (ev.kind === "route_replaced") r.replans++;
      else if (ev.kind === "soft_replan") r.softReplans++;
      else if (ev.kind === "expansion_finished" && ev.zone) r.zone = ev.zone;
    }
    hopOf(r.hops, ev);
    const text = describeRunEvent(ev);
    if (text === "") return;
    r.lastLines.push(`${ev.src.file}:${ev.src.line} ${text}`);
    if (r.lastLines.length > LAST_LINES) r.lastLines.shift();
    if (this.detail) this.#step(r, ev, text);
  }

  #step(r: NavRun, ev: LogEvent, text = describeRunEvent(ev)): void {
    if (text === "") return;
    r.timeline.push(step(ev, text));
    if (r.timeline.length > MAX_TIMELINE) {
      r.timeline.splice(MAX_TIMELINE / 2, 1);
      r.timelineDropped++;
    }
  }

  #position(r: NavRun, status: number, held: boolean, zone: string, p: Point2): void {
    // LOG-PARSER's rule: valid fixes only (status 0, not held), ≥ 1 px steps, a new segment on
    // a zone change.
    if (status !== 0 || held || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) return;
    let seg = r.track[r.track.length - 1];
    if (!seg || seg.zone !== zone) {
      seg = { zone, points: [] };
      r.track.push(seg);
    }
    const last = seg.points[seg.points.length - 1];
    if (last) {
      const dx = p[0] - last[0], dy = p[1] - last[1];
      if (dx * dx + dy * dy < 1) return;
    }
    if (this.#trackPoints >= MAX_TRACK) return;
    this.#trackPoints++;
    seg.points.push([p[0], p[1]]);
  }

  #prune(i: number): void {
    const r = this.runs[i];
    // A failed run keeps its detail even without a failed leg (its cause may be no plan's).
    if (!r || r.failedLegs > 0 || r.ok === false) return;
    r.legs = [];
    r.track = [];
    r.plannedPaths = [];
    r.detours = [];
    r.ziplines = [];
    r.phases = [];
    r.startRecoveries = [];
    r.blindFallbacks = [];
    r.timeline = [];
    r.hops = [];
  }

  #close(ok: boolean | null, end: string): void {
    const r = this.#open!;
    r.ok = ok;
    r.end = end;
    this.#open = null;
    // A run that did not fail needs no cause: its signals and last lines are dropped.
    if (ok === true) {
      r.signals = [];
      r.lastLines = [];
    }
  }

  /** Ends the input (an open run stays `ok: null`). */
  finish(): NavRun[] {
    this.#open = null;
    return this.runs;
  }

  /** Counts over the runs so far. */
  counts(): RunCounts {
    let failed = 0, open = 0, withFailed = 0;
    for (const r of this.runs) {
      if (r.ok === false) failed++;
      if (r.ok === null) open++;
      if (r.failedLegs > 0) withFailed++;
    }
    return {
      runs: this.runs.length,
      failedRuns: failed,
      openRuns: open,
      runsWithFailedLegs: withFailed,
    };
  }
}

/** The run a leg belongs to (by identity), or null. */
export function runOfLeg(runs: readonly NavRun[], leg: Leg): NavRun | null {
  for (const r of runs) if (r.legs.includes(leg)) return r;
  return null;
}

function step(ev: LogEvent, text: string): RunStep {
  return {
    time: Number.isNaN(ev.head.time) ? "" : formatTimestamp(ev.head.time),
    ms: ev.head.time,
    at: `${ev.src.file}:${ev.src.line}`,
    what: text,
  };
}
