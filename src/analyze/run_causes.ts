/**
 * Every failed run explained (issue 53): the terminal cause of a navigation run that ended in
 * `Node.Action.Failed`, the chain of causes before it (terminal last), where the run ended
 * against its planned path, and the counts by cause `classify` prints. The taxonomy and its
 * rules are in src/analyze/run_cause_rules.ts (docs/run_causes.md).
 *
 * The cause comes from maaend-runlogs.md §1.6: "A run that ends in `Node.Action.Failed` after a
 * `Phase transition` to `Failed` has its cause in that transition's reason and the ERR line
 * beside it, even when every plan of the run succeeded."
 * @module
 */
import type { Leg, Point2 } from "../logs/types.ts";
import { navmeshZoneOf } from "../logs/messages.ts";
import { factsFromLeg } from "./log_collectors.ts";
import { classifyFailure, DEFAULT_RULE_SET, type RuleSet } from "./rules.ts";
import {
  causeOfFacts,
  DEFAULT_RUN_CAUSE_RULES,
  factsOfSignal,
  RUN_CAUSES,
  type RunCauseFacts,
  type RunCauseRule,
  UNKNOWN_CAUSE,
} from "./run_cause_rules.ts";
import type { RunSignal } from "./run_events.ts";
import type { NavRun } from "./nav_runs.ts";

/** One link of a run's cause chain: the cause and the first line that named it. */
export interface CauseLink {
  cause: string;
  /** `file:line` of that line. */
  at: string;
  /** The line described. */
  text: string;
  /** Id of the rule that named it. */
  rule: string;
}

/** The explanation of one failed run. */
export interface RunCause {
  /** The terminal cause (the last of `chain`). */
  cause: string;
  /** Causes in the order they first happened, each once; the terminal one last. */
  chain: CauseLink[];
  /** With `unknown`: the run's last navigator lines (`file:line text`). */
  lastLines: string[];
}

/** The run-cause rules of a rule set (its `runCauses`, else the defaults). */
export function runCauseRules(rules: RuleSet = DEFAULT_RULE_SET): readonly RunCauseRule[] {
  return rules.runCauses ?? DEFAULT_RUN_CAUSE_RULES;
}

interface Seen {
  facts: RunCauseFacts;
  terminal: boolean;
  at: string;
  text: string;
}

function legSeen(l: Leg, rules: RuleSet): Seen {
  const facts = factsFromLeg(l);
  const cls = classifyFailure(facts, rules).class;
  return {
    facts: {
      signal: "failed_leg",
      reason: l.status,
      message: l.error,
      to: "",
      level: "",
      class: cls,
    },
    terminal: false,
    at: `${l.src.file}:${l.src.line}`,
    text: `plan failed in ${l.zone || "?"} (${cls})${l.error ? `: ${l.error}` : ""}`,
  };
}

function signalSeen(s: RunSignal): Seen {
  return { facts: factsOfSignal(s), terminal: s.terminal, at: s.at, text: s.text };
}

/** Signals and failed legs in log order (legs by their time among the signals). */
function inOrder(run: NavRun, rules: RuleSet): Seen[] {
  // Legs are emitted when their last line is known, not always in time order.
  const legs = run.legs.filter((l) => !l.ok).sort((a, b) => (a.time - b.time) || 0);
  const out: Seen[] = [];
  let i = 0;
  for (const s of run.signals) {
    while (i < legs.length && legs[i].time <= s.ms) out.push(legSeen(legs[i++], rules));
    out.push(signalSeen(s));
  }
  while (i < legs.length) out.push(legSeen(legs[i++], rules));
  return out;
}

/**
 * The cause of a run: null unless it failed (`ok === false`). The chain lists each cause once,
 * in the order it first happened; the terminal cause — the one named by the last terminal line
 * (a transition to `Failed`, `FailNavigation`), else the last cause seen — is moved last. A
 * failed run with no cause line is `unknown`, with its last navigator lines.
 */
export function runCause(run: NavRun, rules: RuleSet = DEFAULT_RULE_SET): RunCause | null {
  if (run.ok !== false) return null;
  const crules = runCauseRules(rules);
  const chain: CauseLink[] = [];
  let terminal: string | null = null;
  for (const s of inOrder(run, rules)) {
    const c = causeOfFacts(s.facts, crules);
    if (!c) continue;
    if (s.terminal) terminal = c.cause;
    if (!chain.some((l) => l.cause === c.cause)) {
      chain.push({ cause: c.cause, at: s.at, text: s.text, rule: c.rule });
    }
  }
  if (chain.length === 0) {
    return {
      cause: UNKNOWN_CAUSE,
      chain: [{ cause: UNKNOWN_CAUSE, at: "", text: "no line of the run names a cause", rule: "" }],
      lastLines: [...run.lastLines],
    };
  }
  if (terminal !== null) {
    const k = chain.findIndex((l) => l.cause === terminal);
    chain.push(...chain.splice(k, 1));
  }
  return { cause: chain[chain.length - 1].cause, chain, lastLines: [] };
}

/** Plain words for a cause name (the verdict's wording); a user's cause reads as its name. */
export function causeWords(cause: string): string {
  const i = cause.indexOf(":");
  const fam = i < 0 ? cause : cause.slice(0, i), rest = i < 0 ? "" : cause.slice(i + 1);
  if (fam === "planner") return `planner failure (${rest})`;
  if (fam === "session") return `session failed (${rest})`;
  return RUN_CAUSES.find((d) => d.name === cause)?.words ?? cause;
}

/** The chain in words: "zipline aim failure then off-route wedge timeout". */
export function chainWords(c: RunCause): string {
  return c.chain.map((l) => causeWords(l.cause)).join(" then ");
}

/** One row of `classify`'s failed runs by cause (stable JSON shape). */
export interface RunCauseRow {
  /** Terminal cause. */
  cause: string;
  /** Failed runs with this terminal cause. */
  runs: number;
  /** Distinct chains among them, most runs first (`a → b`). */
  chains: Array<{ chain: string; runs: number }>;
  /** The first runs (node, `file:line` of the request). */
  examples: Array<{ node: string; at: string }>;
}

/** How many example runs a cause row keeps. */
export const MAX_RUN_EXAMPLES = 3;

/** Counts failed runs by terminal cause, most runs first, then by name. */
export function runCauseRows(
  runs: readonly NavRun[],
  rules: RuleSet = DEFAULT_RULE_SET,
): RunCauseRow[] {
  const m = new Map<
    string,
    { runs: number; chains: Map<string, number>; ex: RunCauseRow["examples"] }
  >();
  for (const r of runs) {
    const c = runCause(r, rules);
    if (!c) continue;
    let a = m.get(c.cause);
    if (!a) m.set(c.cause, a = { runs: 0, chains: new Map(), ex: [] });
    a.runs++;
    const ch = c.chain.map((l) => l.cause).join(" → ");
    a.chains.set(ch, (a.chains.get(ch) ?? 0) + 1);
    if (a.ex.length < MAX_RUN_EXAMPLES) a.ex.push({ node: r.nodeName, at: r.at });
  }
  return [...m].map(([cause, a]) => ({
    cause,
    runs: a.runs,
    chains: [...a.chains].map(([chain, runs]) => ({ chain, runs }))
      .sort((x, y) => y.runs - x.runs || (x.chain < y.chain ? -1 : 1)),
    examples: a.ex,
  })).sort((x, y) => y.runs - x.runs || (x.cause < y.cause ? -1 : x.cause > y.cause ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Where the run ended against its planned path.

/** Distance from `p` to the segment a–b, px. */
function segDist(p: Point2, a: Point2, b: Point2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const L = dx * dx + dy * dy;
  let t = L > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Distance from a point to a polyline (its nearest segment), px; NaN for an empty polyline. */
export function pointPolylineDistance(p: Point2, line: readonly Point2[]): number {
  if (line.length === 0) return NaN;
  if (line.length === 1) return Math.hypot(p[0] - line[0][0], p[1] - line[0][1]);
  let best = Infinity;
  for (let i = 1; i < line.length; i++) best = Math.min(best, segDist(p, line[i - 1], line[i]));
  return best;
}

/** The navmesh zone of a track zone (locator zones map by prefix, maaend-runlogs.md §4). */
export function trackZone(zone: string): string {
  return navmeshZoneOf(zone) || zone;
}

/** Where a run ended: its last valid fix and the distance to the last planned path there. */
export interface RunEnd {
  /** Last `status=0` fix of the run, null when the log has none (or no detail was kept). */
  point: Point2 | null;
  /** Its navmesh zone ("" when unknown). */
  zone: string;
  /** Distance to the last planned path of that zone, px; null when no path of that zone. */
  offRoutePx: number | null;
  /** The planned path it was measured against, null when none. */
  path: Point2[] | null;
}

/**
 * The end of a run against its planned path: point-to-polyline distance from the last
 * `status=0` fix to the last `NAVMESH generated path.` of the fix's zone.
 */
export function runEnd(run: NavRun): RunEnd {
  const seg = run.track[run.track.length - 1];
  const point = seg?.points[seg.points.length - 1] ?? null;
  const zone = seg ? trackZone(seg.zone) : "";
  if (!point) return { point: null, zone, offRoutePx: null, path: null };
  let path: Point2[] | null = null;
  for (let i = run.plannedPaths.length - 1; i >= 0; i--) {
    if (run.plannedPaths[i].zone === zone) {
      path = run.plannedPaths[i].points;
      break;
    }
  }
  return { point, zone, offRoutePx: path ? pointPolylineDistance(point, path) : null, path };
}
