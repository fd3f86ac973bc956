/**
 * The run-cause taxonomy and its rules (docs/run_causes.md): every name a failed navigation
 * run's cause can have, listed once, and the ordered rules that map one run signal (a line of
 * maaend-runlogs.md §1.6, or a failed leg) to a cause. Extensible through the rules file's
 * `run_causes` array, as the planner classes are through its `rules` (src/analyze/rules.ts).
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { RUN_SIGNAL_KINDS } from "./run_events.ts";
import type { RunSignal } from "./run_events.ts";

/** One cause of the taxonomy: its name (or name pattern) and what it means. */
export interface RunCauseDef {
  /** The name; `<class>` / `<reason>` stand for the planner class / the phase reason. */
  name: string;
  /** Plain words for a verdict ("zipline aim failure"). */
  words: string;
  /** What it means, and the line(s) it comes from. */
  means: string;
}

/** The taxonomy: every built-in cause, once (docs/run_causes.md renders this table). */
export const RUN_CAUSES: readonly RunCauseDef[] = [
  {
    name: "planner:<class>",
    words: "planner failure (<class>)",
    means: "a leg the planner failed; <class> is classify's class (RECAST plan failed. …)",
  },
  {
    name: "zipline:aim_failed",
    words: "zipline aim failure",
    means: "the zipline could not aim at the landing point (Action: ZIPLINE given up / " +
      "Phase transition, reason zipline_aim_failed)",
  },
  {
    name: "zipline:ride_failed",
    words: "zipline ride failure",
    means: "the zipline ride failed (reason zipline_ride_failed)",
  },
  {
    name: "zipline:given_up",
    words: "zipline given up",
    means: "Action: ZIPLINE given up with another reason",
  },
  {
    name: "offroute:wedge_timeout",
    words: "off-route wedge timeout",
    means: "off the route with no progress past the wedge timeout (FailNavigation ERR, " +
      "Phase transition to Failed, reason offroute_wedge_timeout)",
  },
  {
    name: "locator:worldmap_gave_up",
    words: "world-map search gave up",
    means: "the world-map search gave up without a confirmed icon (WorldMap: gave up …)",
  },
  {
    name: "start:recovery_rejected",
    words: "start recovery rejected",
    means: "the start was off the mesh with no mesh point within the blind-walk budget",
  },
  {
    name: "target:blind_fallback_gave_up",
    words: "blind-target fallback gave up",
    means: "the blind-target fallback exhausted its probe budget",
  },
  {
    name: "target:blind_fallback_rejected",
    words: "blind-target fallback rejected",
    means: "the blind-target fallback left a residual gap too large",
  },
  {
    name: "detour:no_bypass",
    words: "detour found no bypass",
    means: "a detour found no reachable bypass",
  },
  {
    name: "replan:plan_build_failed",
    words: "replan could not build a plan",
    means: "the run controller could not build a plan (NavRunController plan build failed.)",
  },
  {
    name: "expansion:zone_unknown",
    words: "navmesh zone unknown",
    means: "the route expansion could not infer the navmesh zone (ERR Failed to infer " +
      "NAVMESH base zone.)",
  },
  {
    name: "cancelled",
    words: "cancelled",
    means: "the plan or the run was cancelled (planner class cancelled, or a transition " +
      "whose reason says cancel/stop/abort)",
  },
  {
    name: "session:<reason>",
    words: "session failed (<reason>)",
    means: "a transition to Failed whose reason no rule above names",
  },
  {
    name: "unknown",
    words: "unknown cause",
    means: "Node.Action.Failed with none of the lines above: the run's last navigator lines " +
      "are shown",
  },
];

/** The cause of a failed run no signal explains. */
export const UNKNOWN_CAUSE = "unknown";

/** What a run-cause rule can see of one signal (strings "" when the line did not say). */
export interface RunCauseFacts {
  /** Signal kind (src/analyze/run_events.ts RUN_SIGNAL_KINDS). */
  signal: string;
  /** `reason` of the line. */
  reason: string;
  /** `detail` (zipline given up), the planner message (failed leg), else the line described. */
  message: string;
  /** Phase transition target. */
  to: string;
  /** Log level. */
  level: string;
  /** Failed legs: the planner class (classify's); "" otherwise. */
  class: string;
}

/** Conditions of a run-cause rule; every condition given must hold. */
export interface RunCauseMatch {
  signal?: readonly string[];
  reason?: RegExp;
  message?: RegExp;
  to?: readonly string[];
  level?: readonly string[];
  class?: readonly string[];
}

/** One run-cause rule: `cause` may hold `$class` / `$reason` (filled from the facts). */
export interface RunCauseRule {
  id: string;
  cause: string;
  match: RunCauseMatch;
}

const SIG = (...k: string[]) => k;

/** The built-in run-cause rules, in the order they are tried (first match wins). */
export const DEFAULT_RUN_CAUSE_RULES: readonly RunCauseRule[] = [
  {
    id: "planner.cancelled",
    cause: "cancelled",
    match: { signal: SIG("failed_leg"), class: ["cancelled"] },
  },
  { id: "planner", cause: "planner:$class", match: { signal: SIG("failed_leg") } },
  {
    id: "zipline.aim_failed",
    cause: "zipline:aim_failed",
    match: { signal: SIG("zipline_given_up", "phase"), reason: /^zipline_aim_failed$/ },
  },
  {
    id: "zipline.ride_failed",
    cause: "zipline:ride_failed",
    match: { signal: SIG("zipline_given_up", "phase"), reason: /^zipline_ride_failed$/ },
  },
  { id: "zipline.given_up", cause: "zipline:given_up", match: { signal: SIG("zipline_given_up") } },
  {
    id: "offroute.fail_navigation",
    cause: "offroute:wedge_timeout",
    match: { signal: SIG("fail_navigation") },
  },
  {
    id: "offroute.phase",
    cause: "offroute:wedge_timeout",
    match: { signal: SIG("phase"), reason: /^offroute_wedge_timeout$/ },
  },
  {
    id: "cancelled.phase",
    cause: "cancelled",
    match: { signal: SIG("phase"), reason: /cancel|stop|abort/i },
  },
  {
    id: "locator.worldmap",
    cause: "locator:worldmap_gave_up",
    match: { signal: SIG("worldmap_gave_up") },
  },
  {
    id: "start.recovery_rejected",
    cause: "start:recovery_rejected",
    match: { signal: SIG("start_recovery_rejected") },
  },
  {
    id: "target.blind_gave_up",
    cause: "target:blind_fallback_gave_up",
    match: { signal: SIG("blind_fallback_gave_up") },
  },
  {
    id: "target.blind_rejected",
    cause: "target:blind_fallback_rejected",
    match: { signal: SIG("blind_fallback_rejected") },
  },
  { id: "detour.no_bypass", cause: "detour:no_bypass", match: { signal: SIG("detour_failed") } },
  {
    id: "replan.plan_build_failed",
    cause: "replan:plan_build_failed",
    match: { signal: SIG("plan_build_failed") },
  },
  {
    id: "expansion.zone_unknown",
    cause: "expansion:zone_unknown",
    match: { signal: SIG("zone_infer_failed"), level: ["ERR"] },
  },
  {
    id: "session.failed",
    cause: "session:$reason",
    match: { signal: SIG("phase"), to: ["Failed"] },
  },
];

function matches(m: RunCauseMatch, f: RunCauseFacts): boolean {
  if (m.signal && !m.signal.includes(f.signal)) return false;
  if (m.to && !m.to.includes(f.to)) return false;
  if (m.level && !m.level.includes(f.level)) return false;
  if (m.class && !m.class.includes(f.class)) return false;
  if (m.reason && !m.reason.test(f.reason)) return false;
  if (m.message && !m.message.test(f.message)) return false;
  return true;
}

/** The cause one signal names (first matching rule), or null when no rule matches. */
export function causeOfFacts(
  f: RunCauseFacts,
  rules: readonly RunCauseRule[] = DEFAULT_RUN_CAUSE_RULES,
): { cause: string; rule: string } | null {
  for (const r of rules) {
    if (!matches(r.match, f)) continue;
    const cause = r.cause
      .replace("$class", f.class || "unclassified")
      .replace("$reason", f.reason || "no_reason");
    return { cause, rule: r.id };
  }
  return null;
}

/** The facts of a run signal (failed legs are made by run_causes.ts). */
export function factsOfSignal(s: RunSignal): RunCauseFacts {
  return {
    signal: s.kind,
    reason: s.reason,
    message: s.detail || s.text,
    to: s.to,
    level: s.level,
    class: "",
  };
}

// ---------------------------------------------------------------------------------------------
// The rules file's `run_causes` array (docs/run_causes.md).

const CAUSE_RE = /^[a-z][a-z0-9_]*(?::[a-z$][a-z0-9_$]*)?$/;
const MATCH_KEYS = ["signal", "reason", "message", "to", "level", "class"];

function bad(file: string, path: string, what: string, expected?: string): NavscopeError {
  return new NavscopeError("bad_value", what, { file, section: path }, expected);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(file: string, path: string, v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) return v;
  throw bad(file, path, `got ${JSON.stringify(v)}`, "a string or a non-empty array of strings");
}

function regex(file: string, path: string, v: unknown): RegExp {
  if (typeof v !== "string") throw bad(file, path, `got ${typeof v}`, "a regular expression");
  try {
    return new RegExp(v);
  } catch (e) {
    throw bad(file, path, `invalid regular expression: ${(e as Error).message}`);
  }
}

function compileRule(file: string, path: string, v: unknown): RunCauseRule {
  if (!isObj(v)) throw bad(file, path, `got ${JSON.stringify(v)}`, "a run-cause rule object");
  for (const k of Object.keys(v)) {
    if (!["id", "cause", "match", "note"].includes(k)) {
      throw bad(file, `${path}.${k}`, `unknown key "${k}"`, "one of id, cause, match, note");
    }
  }
  if (typeof v.id !== "string" || v.id === "") {
    throw bad(file, `${path}.id`, `got ${JSON.stringify(v.id)}`, "a non-empty string");
  }
  if (typeof v.cause !== "string" || !CAUSE_RE.test(v.cause)) {
    throw bad(
      file,
      `${path}.cause`,
      `got ${JSON.stringify(v.cause)}`,
      "a cause name like family:name ([a-z][a-z0-9_]*, $class / $reason allowed after :)",
    );
  }
  const mp = `${path}.match`;
  const m = v.match;
  if (!isObj(m)) throw bad(file, mp, `got ${JSON.stringify(m)}`, "an object of conditions");
  const out: RunCauseMatch = {};
  for (const k of Object.keys(m)) {
    if (!MATCH_KEYS.includes(k)) {
      throw bad(file, `${mp}.${k}`, `unknown key "${k}"`, `one of ${MATCH_KEYS.join(", ")}`);
    }
  }
  if (m.signal !== undefined) {
    out.signal = strings(file, `${mp}.signal`, m.signal);
    for (const s of out.signal) {
      if (!(RUN_SIGNAL_KINDS as readonly string[]).includes(s)) {
        throw bad(file, `${mp}.signal`, `unknown signal "${s}"`, RUN_SIGNAL_KINDS.join(", "));
      }
    }
  }
  if (m.reason !== undefined) out.reason = regex(file, `${mp}.reason`, m.reason);
  if (m.message !== undefined) out.message = regex(file, `${mp}.message`, m.message);
  if (m.to !== undefined) out.to = strings(file, `${mp}.to`, m.to);
  if (m.level !== undefined) out.level = strings(file, `${mp}.level`, m.level);
  if (m.class !== undefined) out.class = strings(file, `${mp}.class`, m.class);
  if (Object.keys(out).length === 0) {
    throw bad(file, mp, "empty match would catch every signal", "at least one condition");
  }
  return { id: v.id, cause: v.cause, match: out };
}

/**
 * Compiles a rules file's `run_causes` (absent: the defaults). A rule with the id of a default
 * replaces it in place; new rules go before every default, so they win. Errors name the file
 * and the JSON path (`$.run_causes[0].match.signal`).
 */
export function compileRunCauseRules(
  v: unknown,
  file = "<rules>",
  base: readonly RunCauseRule[] = DEFAULT_RUN_CAUSE_RULES,
): RunCauseRule[] {
  if (v === undefined) return [...base];
  if (!Array.isArray(v)) {
    throw bad(file, "$.run_causes", `got ${JSON.stringify(v)}`, "an array of run-cause rules");
  }
  const rules = [...base];
  const front: RunCauseRule[] = [];
  const seen = new Set<string>();
  v.forEach((x, i) => {
    const r = compileRule(file, `$.run_causes[${i}]`, x);
    if (seen.has(r.id)) throw bad(file, `$.run_causes[${i}].id`, `duplicate rule id "${r.id}"`);
    seen.add(r.id);
    const at = rules.findIndex((d) => d.id === r.id);
    if (at >= 0) rules[at] = r;
    else front.push(r);
  });
  return [...front, ...rules];
}
