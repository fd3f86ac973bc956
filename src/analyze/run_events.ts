/**
 * What a navigation run keeps of its run-machinery lines (maaend-runlogs.md §1.6): cause
 * signals (incidents and terminal lines, for src/analyze/run_causes.ts), zipline hops with
 * their outcome, and one-line descriptions for the run's timeline.
 * @module
 */
import type { LogEvent, Point2 } from "../logs/types.ts";

/** Kinds of {@link RunSignal}: the lines a run's cause can come from. */
export const RUN_SIGNAL_KINDS = [
  "phase",
  "fail_navigation",
  "zipline_given_up",
  "worldmap_gave_up",
  "start_recovery_rejected",
  "blind_fallback_gave_up",
  "blind_fallback_rejected",
  "detour_failed",
  "plan_build_failed",
  "zone_infer_failed",
  "failed_leg",
] as const;

/** One signal kind. */
export type RunSignalKind = typeof RUN_SIGNAL_KINDS[number];

/** One line a run's cause may come from, reduced to what a run-cause rule looks at. */
export interface RunSignal {
  kind: RunSignalKind;
  /** `reason` of the line (phase transition, zipline given up, soft replan code), "" if none. */
  reason: string;
  /** `detail` (zipline given up) or the planner message (failed leg), "" if none. */
  detail: string;
  /** Phase transitions: `to_phase_name`; "" otherwise. */
  to: string;
  /** Phase transitions: `from_phase_name`; "" otherwise. */
  from: string;
  /** Log level of the line. */
  level: string;
  /**
   * The run ends here: a transition to `Failed` (it names the run's terminal reason, §1.6) or
   * the `FailNavigation` ERR line.
   */
  terminal: boolean;
  /** Naive epoch ms, NaN when unknown. */
  ms: number;
  /** `file:line`. */
  at: string;
  /** The line described (timeline wording). */
  text: string;
}

/** One step of a run's timeline. */
export interface RunStep {
  /** Log time as written, "" when unknown. */
  time: string;
  /** Naive epoch ms, NaN when unknown. */
  ms: number;
  /** `file:line`. */
  at: string;
  /** What happened, one line. */
  what: string;
}

/** One zipline hop of a run. */
export interface ZiplineHop {
  /** Mount point (`zipline/begin` plan, or the zipline expansion's mount), null if not logged. */
  mount: Point2 | null;
  /** Landing point (hop started / launched / `zipline/begin`), null if not logged. */
  landing: Point2 | null;
  /** Where the ride ended (landed at, or the position when given up), null if not logged. */
  end: Point2 | null;
  /**
   * `started`, `launched`, `landed`, `landed (still on tower)`, or `given up: <reason>`
   * (`given up: zipline_aim_failed`).
   */
  outcome: string;
}

/** The phases a transition into which is an incident or the end (maaend-runlogs.md §1.6). */
const SIGNAL_PHASES = new Set(["Recover", "Failed"]);

/** The terminal phase: a transition to it names the run's terminal reason (§1.6). */
export const FAILED_PHASE = "Failed";

const p2 = (p: Point2 | null) => (p ? `(${p[0].toFixed(1)}, ${p[1].toFixed(1)})` : "(?)");
const num = (v: number, unit: string) => (Number.isFinite(v) ? `${v}${unit}` : "?");

function signal(ev: LogEvent, kind: RunSignalKind, more: Partial<RunSignal> = {}): RunSignal {
  return {
    kind,
    reason: "",
    detail: "",
    to: "",
    from: "",
    level: ev.head.level,
    terminal: false,
    ms: ev.head.time,
    at: `${ev.src.file}:${ev.src.line}`,
    text: describeRunEvent(ev),
    ...more,
  };
}

/** The cause signal of an event, or null when the event is none. Failed legs: see run_causes. */
export function signalOf(ev: LogEvent): RunSignal | null {
  switch (ev.type) {
    case "phase":
      if (!SIGNAL_PHASES.has(ev.to)) return null;
      return signal(ev, "phase", {
        reason: ev.reason,
        to: ev.to,
        from: ev.from,
        terminal: ev.to === FAILED_PHASE,
      });
    case "fail_navigation":
      return signal(ev, "fail_navigation", { terminal: true });
    case "zipline_action":
      return ev.action === "given_up"
        ? signal(ev, "zipline_given_up", { reason: ev.reason, detail: ev.detail })
        : null;
    case "worldmap_gave_up":
      return signal(ev, "worldmap_gave_up", { detail: ev.icon });
    case "start_recovery":
      return ev.applied ? null : signal(ev, "start_recovery_rejected");
    case "blind_fallback":
      if (ev.outcome === "gave_up") return signal(ev, "blind_fallback_gave_up");
      if (ev.outcome === "rejected") return signal(ev, "blind_fallback_rejected");
      return null;
    case "detour":
      return ev.selected ? null : signal(ev, "detour_failed");
    case "session":
      if (ev.kind === "plan_build_failed") {
        return signal(ev, "plan_build_failed", { reason: ev.reason });
      }
      return ev.kind === "zone_infer_failed" ? signal(ev, "zone_infer_failed") : null;
    default:
      return null;
  }
}

function samePoint(a: Point2 | null, b: Point2 | null): boolean {
  return a === null || b === null || (Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) < 0.5);
}

/** Updates the run's hops with a zipline line (`hops` is the run's list, changed in place). */
export function hopOf(hops: ZiplineHop[], ev: LogEvent): void {
  const last = hops[hops.length - 1];
  const open = last !== undefined && (last.outcome === "started" || last.outcome === "launched");
  if (ev.type === "waypoint_expanded" && ev.viaZipline && ev.mount) {
    // Planned, not yet begun: the mount of the next hop.
    hops.push({ mount: ev.mount, landing: null, end: null, outcome: "planned" });
    return;
  }
  if (ev.type === "zipline_stage" && ev.stage === "begin") {
    if (last && (last.outcome === "planned" || (open && last.mount === null))) {
      last.mount ??= ev.mount;
      last.landing ??= ev.landing;
      if (last.outcome === "planned") last.outcome = "started";
    } else hops.push({ mount: ev.mount, landing: ev.landing, end: null, outcome: "started" });
    return;
  }
  if (ev.type !== "zipline_action") return;
  switch (ev.action) {
    case "hop_started":
      // The stage machine's `zipline/begin` and the action's "hop started" name one hop.
      if (last && (last.outcome === "planned" || (open && samePoint(last.landing, ev.point)))) {
        last.landing ??= ev.point;
        last.outcome = "started";
      } else hops.push({ mount: null, landing: ev.point, end: null, outcome: "started" });
      return;
    case "launched":
      if (open || last?.outcome === "planned") {
        last!.landing ??= ev.point;
        last!.outcome = "launched";
      } else hops.push({ mount: null, landing: ev.point, end: null, outcome: "launched" });
      return;
    case "landed":
    case "given_up": {
      const out = ev.action === "landed"
        ? (ev.stillOnTower ? "landed (still on tower)" : "landed")
        : `given up: ${ev.reason || "?"}`;
      if (open || last?.outcome === "planned") {
        last!.outcome = out;
        last!.end = ev.point;
      } else hops.push({ mount: null, landing: null, end: ev.point, outcome: out });
      return;
    }
  }
}

/** One line describing a navigator event for a run's timeline; "" for events it leaves out. */
export function describeRunEvent(ev: LogEvent): string {
  switch (ev.type) {
    case "request":
      return `request: node ${ev.nodeName || "?"} (task ${ev.taskId || "?"}), ` +
        `${ev.targets.length} NAVMESH target${ev.targets.length === 1 ? "" : "s"}`;
    case "node_result":
      return `end: Node.Action.${ev.ok ? "Succeeded" : "Failed"} (${ev.name || "?"})`;
    case "route_failed":
      return `plan failed in ${ev.navmeshZone}: ${p2(ev.start)} → ${p2(ev.goal)} (${
        ev.status || "?"
      })`;
    case "recast_failed":
      return `planner error: ${ev.error}`;
    case "generated_path":
      return `leg planned in ${ev.navmeshZone}: ${p2(ev.start)} → ${p2(ev.goal)}, ` +
        `${ev.points.length} points, cost ${num(Math.round(ev.cost * 10) / 10, " px")}`;
    case "waypoint_expanded":
      return ev.viaZipline
        ? `zipline leg planned in ${ev.navmeshZone || "?"}, mount ${p2(ev.mount ?? null)}`
        : "";
    case "deck_failed":
      return ev.terminal ? `declared deck ${ev.deckY} unreachable at ${p2(ev.target)}` : "";
    case "empty_path":
      return "planning returned an empty path";
    case "phase":
      return `phase ${ev.from || "?"} → ${ev.to || "?"} (${ev.reason || "no reason"})`;
    case "fail_navigation":
      return `FailNavigation: off route ${num(ev.distance, " px")}, yaw error ` +
        `${num(ev.yawError, "°")}, no progress for ${num(ev.stalledMs, " ms")} ` +
        "(wedge timeout)";
    case "session":
      switch (ev.kind) {
        case "route_replaced":
          return `route replaced (${ev.reason || "?"})`;
        case "soft_replan":
          return `soft replan (reason code ${ev.reason || "?"})`;
        case "plan_build_failed":
          return `run controller plan build failed (reason code ${ev.reason || "?"})`;
        case "starting":
          return `navigation started, ${num(ev.count, "")} targets`;
        case "initial_fix":
          return `initial position ${p2(ev.point)}`;
        case "zone_infer_failed":
          return `could not infer the navmesh zone (map ${ev.zone || "?"})`;
        case "expansion_finished":
          return `route expansion finished in ${ev.zone || "?"}, ${num(ev.count, "")} waypoints`;
        default:
          return "";
      }
    case "zipline_action":
      switch (ev.action) {
        case "hop_started":
          return `zipline hop started toward ${p2(ev.point)}`;
        case "launched":
          return `zipline launched toward ${p2(ev.point)}`;
        case "landed":
          return `zipline ride landed${ev.point ? ` at ${p2(ev.point)}` : ""}${
            ev.stillOnTower ? " (still on tower)" : ""
          }`;
        case "given_up":
          return `zipline given up: ${ev.reason || "?"}${ev.detail ? ` (${ev.detail})` : ""}${
            ev.point ? ` at ${p2(ev.point)}` : ""
          }`;
      }
      return "";
    case "zipline_stage":
      return ev.stage === "classified"
        ? `zipline ride classified (landing code ${num(ev.landingCode, "")})${
          ev.reached ? ` at ${p2(ev.reached)}` : ""
        }`
        : "";
    case "zipline":
      return `zipline route: ${ev.decision}${ev.why ? ` (${ev.why})` : ""}`;
    case "worldmap_gave_up":
      return `world-map search gave up without a confirmed icon (${ev.icon || "?"} in ${
        ev.zone || "?"
      }, ${num(ev.maxAttempts, "")} attempts)`;
    case "start_recovery":
      return ev.applied
        ? `start off mesh: walked ${num(Math.round(ev.distance * 10) / 10, " px")} onto the mesh`
        : `start recovery rejected: no mesh point within ${num(ev.radius, " px")}`;
    case "blind_fallback":
      return `blind-target fallback ${ev.outcome.replace("_", " ")} at ${p2(ev.target)}`;
    case "detour":
      return ev.selected
        ? `detour selected via ${p2(ev.detour)}`
        : `detour failed to find a bypass at ${p2(ev.position)}`;
    default:
      return "";
  }
}
