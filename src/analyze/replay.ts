/**
 * Replay of logged legs (`navscope replay`): the distinct legs of run logs (failed ones, or all
 * with `all`), their replay requests, deterministic shards, and the judgement of a re-planned
 * leg against what the logs said.
 *
 * - A navscope plan line carries every input of the request (zone, endpoints, floors, decks,
 *   discs), so it replays exactly; battery overrides (`legs.json` `overrides`) are not in the
 *   line and are recovered from a battery given with `batteries`.
 * - A MaaFramework navigator leg carries zone, start, goal and the declared goal deck only: it
 *   replays with what is known and is marked `partial_request` (missing fields listed).
 * - Legs without zone/endpoints, or whose zone no given pack has, are `not_replayable`.
 *
 * Bit-identity: for an exact request on the same pack (build hash) and planner version, the new
 * plan record equals the logged one in every field but the seven timings
 * ({@link TIMING_FIELDS}); {@link comparableRecord} is what is compared.
 * @module
 */
import { fnv1a64 } from "../codec/fnv.ts";
import type { Leg as LogLeg, PlanRecord, Point2 } from "../logs/types.ts";
import { parseLogs } from "../logs/reader.ts";
import type { ParseReport } from "../logs/types.ts";
import { planOverrides } from "../plan/battery.ts";
import type { PlanRequest } from "../plan/types.ts";
import { STAGE_NAMES } from "../plan/counters.ts";
import type { Leg as BatteryLeg } from "../legs/format.ts";
import { factsFromLeg, factsFromPlan, legKey } from "./log_collectors.ts";
import { classifyFailure } from "./rules.ts";

/** Outcome of one replayed leg. */
export type ReplayOutcome =
  | "fixed"
  | "still_failing"
  | "failing_differently"
  | "newly_failing"
  | "still_ok"
  | "not_replayable";

/** Outcomes in report order. */
export const REPLAY_OUTCOMES: readonly ReplayOutcome[] = [
  "fixed",
  "still_failing",
  "failing_differently",
  "newly_failing",
  "still_ok",
  "not_replayable",
];

/** Plan-record fields that are timings (never compared). */
export const TIMING_FIELDS = [...STAGE_NAMES, "total"] as const;

/** What the logs said about a leg (its last failure, or its last plan when it never failed). */
export interface OldOutcome {
  ok: boolean;
  /** `ok` or the failure class (`classify`'s). */
  class: string;
  /** Planner code ("" for navigator lines, which log none). */
  code: string;
  /** Error text. */
  error: string;
  /** Final tier (−1 unknown / before the loop). */
  tier: number;
  /** Final window kind ("" unknown). */
  kind: string;
  /** Total plan time, ms (NaN unknown). */
  total_ms: number;
}

/** One distinct leg of the logs. */
export interface ReplayLeg {
  /** Distinct-leg key ({@link replayKey}). */
  key: string;
  zone: string;
  start: Point2 | null;
  goal: Point2 | null;
  goalDeckY: number | null;
  /** Where the request comes from. */
  origin: "plan_line" | "navigator";
  /** The request to re-plan, or null when not replayable. */
  request: PlanRequest | null;
  /** True when the request lacks fields a plan line carries. */
  partial: boolean;
  /** Request fields the log did not carry (partial requests). */
  missing: string[];
  /** Why the leg cannot be replayed ("" when it can; the zone check comes later). */
  unreplayable: string;
  /** The logged record used for the request (plan-line legs), else null. */
  record: PlanRecord | null;
  /**
   * The logged record {@link ReplayLeg.old} describes (the last failure's, or the last plan's),
   * null when that line was no plan line: what an exact replay is compared with.
   */
  oldRecord: PlanRecord | null;
  /** Battery leg id the plan lines name (`[leg=…]`), "" when none. */
  legId: string;
  /** Battery leg id whose overrides were applied, "" when none. */
  battery: string;
  /** What the logs said. */
  old: OldOutcome;
  /** Times the leg was planned / failed in the logs. */
  occurrences: number;
  failures: number;
  /** Log times (as printed) of the first and last occurrence, "" when unknown. */
  firstSeen: string;
  lastSeen: string;
  /** Naive epoch ms of the first occurrence (NaN unknown): the replay line's timestamp. */
  time: number;
  /** `file:line` of the first occurrence. */
  where: string;
}

function fmtKeyNum(v: number | null): string {
  return v === null ? "-" : Number.isFinite(v) ? v.toFixed(2) : String(v);
}

/**
 * Distinct-leg key: `classify`'s {@link legKey} (zone, start, goal, goal deck to 0.01 px), plus
 * the extra inputs of a plan line when set (`|sf:`/`|gf:` floors, `|sd:` start deck, `|d:`
 * discs), so two requests that differ only there stay apart; `|leg=<id>` when the line names its
 * battery leg (`[leg=…]`). With batteries, a plan line without an id whose battery leg has
 * overrides gets `|o:<leg id>` too (collectReplayLegs).
 */
export function replayKey(leg: LogLeg): string {
  const deck = leg.plan ? leg.plan.goalDeckY : leg.goalDeckY;
  let k = legKey(leg.zone, leg.start, leg.goal, deck, leg.error);
  const p = leg.plan;
  if (p) {
    // A line that names its battery leg is that leg: battery legs may share every input but
    // their test overrides (legs.json `overrides`), and must never fold into one group.
    if (p.leg) k += `|leg=${p.leg}`;
    if (p.startFloorY !== null || p.goalFloorY !== null) {
      k += `|f:${fmtKeyNum(p.startFloorY)},${fmtKeyNum(p.goalFloorY)}`;
    }
    if (p.startDeckY !== null) k += `|sd:${fmtKeyNum(p.startDeckY)}`;
    if (p.noGoDiscs.length) {
      k += `|d:${p.noGoDiscs.map((d) => d.map((v) => fmtKeyNum(v)).join(",")).join(";")}`;
    }
  }
  return k;
}

/** Shard index (0-based) of a key among `n` shards: FNV-1a 64 of its UTF-8 bytes mod n. */
export function shardOf(key: string, n: number): number {
  return Number(fnv1a64(new TextEncoder().encode(key)) % BigInt(n));
}

/** `i/n` (1-based i) → {index, count}; throws a string describing the problem. */
export function parseShard(v: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(v.trim());
  if (!m) throw `--shard needs i/n (e.g. 2/4), got ${JSON.stringify(v)}`;
  const index = Number(m[1]), count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) {
    throw `--shard ${v}: i must be 1..n and n ≥ 1`;
  }
  return { index, count };
}

/** The class a plan record has (`ok` or classify's class). */
export function recordClass(r: PlanRecord): string {
  return r.ok ? "ok" : classifyFailure(factsFromPlan(r)).class;
}

/**
 * What the logs said. For a plan line, ok and class are the logged record's (as
 * {@link recordClass} judges the new record), so an identical replay is judged against the very
 * record it reproduced (see {@link checkReplayInvariant}).
 */
function oldOf(leg: LogLeg): OldOutcome {
  const p = leg.plan;
  return {
    ok: p ? p.ok : leg.ok,
    class: p ? recordClass(p) : leg.ok ? "ok" : classifyFailure(factsFromLeg(leg)).class,
    code: p ? p.code : "",
    error: leg.error,
    tier: p ? p.tier : -1,
    kind: p ? p.kind : "",
    total_ms: p ? p.timing.total : leg.planMs,
  };
}

const same = (a: number | null | undefined, b: number | null | undefined) =>
  (a ?? null) === (b ?? null);

/**
 * The battery leg a plan record was planned from: same zone, endpoints, floors, decks and discs;
 * among those, the one the line names (`[leg=…]`); for a line without the id (or with an id
 * these legs lack) and several such legs (they differ only in overrides), the one whose
 * expectation is the record's class, else the first.
 */
export function batteryMatch(r: PlanRecord, legs: readonly BatteryLeg[]): BatteryLeg | undefined {
  const c = legs.filter((b) =>
    b.zone === r.zone && b.start[0] === r.start[0] && b.start[1] === r.start[1] &&
    b.goal[0] === r.goal[0] && b.goal[1] === r.goal[1] &&
    same(b.start_floor_y, r.startFloorY) && same(b.goal_floor_y, r.goalFloorY) &&
    same(b.start_deck_y, r.startDeckY) && same(b.goal_deck_y, r.goalDeckY) &&
    (b.no_go_discs ?? []).length === r.noGoDiscs.length &&
    (b.no_go_discs ?? []).every((d, i) =>
      d.x === r.noGoDiscs[i][0] && d.y === r.noGoDiscs[i][1] && d.r === r.noGoDiscs[i][2]
    )
  );
  // A line that names its leg is that leg (battery legs may differ only in their overrides).
  // An id the matching legs do not have is another version of the battery: judged by the rest.
  const named = r.leg ? c.find((b) => b.id === r.leg) : undefined;
  if (named) return named;
  if (c.length <= 1) return c[0];
  const cls = recordClass(r);
  return c.find((b) => b.expected === cls) ?? c[0];
}

/** The exact request of a plan record (with a battery leg's overrides when it has some). */
export function requestFromRecord(r: PlanRecord, bat?: BatteryLeg): PlanRequest {
  return {
    zone: r.zone,
    start: [r.start[0], r.start[1]],
    goal: [r.goal[0], r.goal[1]],
    startFloorY: r.startFloorY,
    goalFloorY: r.goalFloorY,
    startDeckY: r.startDeckY,
    goalDeckY: r.goalDeckY,
    noGoDiscs: r.noGoDiscs.map(([x, y, rad]) => ({ x, y, r: rad })),
    overrides: planOverrides(bat?.overrides),
  };
}

/** Options of {@link collectReplayLegs}. */
export interface CollectOptions {
  /** Every distinct leg, not only those that failed. */
  all?: boolean;
  /** Keep only shard `index` (1-based) of `count`. */
  shard?: { index: number; count: number } | null;
  /** Batteries whose overrides a matching plan line gets. */
  batteries?: readonly BatteryLeg[];
  /** Stop at the first unreadable file. */
  strict?: boolean;
}

/** The distinct legs of the logs, sorted by key, and what the parse saw. */
export interface CollectedLegs {
  legs: ReplayLeg[];
  /** Distinct legs selected before sharding (failed ones, or all). */
  totalBeforeShard: number;
  parse: ParseReport;
}

/** Reads the logs and collects their distinct legs (see the module doc). */
export async function collectReplayLegs(
  inputs: readonly string[],
  opts: CollectOptions = {},
): Promise<CollectedLegs> {
  const stream = parseLogs(inputs, { strict: opts.strict, include: ["leg"] });
  const groups = new Map<string, LogLeg[]>();
  for await (const ev of stream) {
    if (ev.type !== "leg") continue;
    let k = replayKey(ev.leg);
    const bat = ev.leg.plan ? batteryMatch(ev.leg.plan, opts.batteries ?? []) : undefined;
    if (bat?.overrides && !ev.leg.plan?.leg) k += `|o:${bat.id}`;
    const g = groups.get(k);
    if (g) g.push(ev.leg);
    else groups.set(k, [ev.leg]);
  }
  const out: ReplayLeg[] = [];
  let total = 0;
  for (const [key, g] of groups) {
    const failed = g.filter((l) => !l.ok);
    if (!opts.all && failed.length === 0) continue;
    total++;
    if (opts.shard && shardOf(key, opts.shard.count) !== opts.shard.index - 1) continue;
    out.push(buildLeg(key, g, failed, opts.batteries ?? []));
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { legs: out, totalBeforeShard: total, parse: stream.report };
}

function buildLeg(
  key: string,
  g: LogLeg[],
  failed: LogLeg[],
  batteries: readonly BatteryLeg[],
): ReplayLeg {
  const first = g[0];
  const last = failed.length ? failed[failed.length - 1] : g[g.length - 1];
  // Every line of a group has the same inputs (and battery leg, see collectReplayLegs).
  // The request comes from the line the old outcome comes from when it is a plan line.
  const exact = last.plan ? last : g.find((l) => l.plan !== null);
  const base = exact ?? first;
  let request: PlanRequest | null = null;
  let missing: string[] = [];
  let unreplayable = "";
  let battery = "";
  if (exact) {
    const bat = batteryMatch(exact.plan!, batteries);
    if (bat?.overrides) battery = bat.id;
    request = requestFromRecord(exact.plan!, bat);
  } else if (!base.zone) unreplayable = "zone unknown";
  else if (!base.start || !base.goal) unreplayable = "endpoints unknown";
  else {
    request = {
      zone: base.zone,
      start: [base.start[0], base.start[1]],
      goal: [base.goal[0], base.goal[1]],
      goalDeckY: base.goalDeckY,
    };
    missing = ["start_floor_y", "goal_floor_y", "start_deck_y", "no_go_discs"];
  }
  const timeText = (l: LogLeg) => (Number.isNaN(l.time) ? "" : formatLogTime(l.time));
  return {
    key,
    zone: base.zone,
    start: base.start,
    goal: base.goal,
    goalDeckY: base.plan ? base.plan.goalDeckY : base.goalDeckY,
    origin: exact ? "plan_line" : "navigator",
    request,
    partial: !exact && request !== null,
    missing,
    unreplayable,
    record: exact?.plan ?? null,
    oldRecord: last.plan,
    legId: exact?.plan?.leg ?? "",
    battery,
    old: oldOf(last),
    occurrences: g.length,
    failures: failed.length,
    firstSeen: timeText(first),
    lastSeen: timeText(g[g.length - 1]),
    time: first.time,
    where: `${first.src.file}:${first.src.line}`,
  };
}

function formatLogTime(t: number): string {
  return new Date(t).toISOString().replace("T", " ").replace("Z", "");
}

/**
 * A plan record without its timings and work counters: the fields a bit-identical replay must
 * reproduce (the counters measure the planner's work, not its outcome; a line logged before
 * they existed has none). A line without a profile was planned under `spec` (the only
 * behaviour before profiles).
 */
export function comparableRecord(
  r: PlanRecord,
): Omit<PlanRecord, "timing" | "counters" | "otherTiming"> {
  const { timing: _t, counters: _c, otherTiming: _o, profile, ...rest } = r;
  return { ...rest, profile: profile ?? "spec" };
}

/** Judges a re-planned leg: the outcome given the old state and the new class. */
export function judge(oldOk: boolean, oldClass: string, newClass: string): ReplayOutcome {
  if (!oldOk) {
    if (newClass === "ok") return "fixed";
    return newClass === oldClass ? "still_failing" : "failing_differently";
  }
  return newClass === "ok" ? "still_ok" : "newly_failing";
}

/** Outcomes that report a change (what a planner engineer acts on). */
export const CHANGE_OUTCOMES: readonly ReplayOutcome[] = [
  "fixed",
  "failing_differently",
  "newly_failing",
];

/**
 * The replay invariant: a leg replayed identical (same pack, same planner, the new record equal
 * to the logged one but for timings) reproduced what the logs said, so it can never report a
 * change (fixed, failing differently, newly failing). Throws when a row breaks it: a wrong
 * verdict is never printed.
 */
export function checkReplayInvariant(
  row: { key: string; identical: boolean | null; outcome: ReplayOutcome },
): void {
  if (row.identical === true && CHANGE_OUTCOMES.includes(row.outcome)) {
    throw new Error(
      `replay invariant broken: leg ${row.key} was replayed identical but judged ${row.outcome}`,
    );
  }
}

/** Human label of an outcome. */
export function outcomeLabel(o: ReplayOutcome): string {
  switch (o) {
    case "fixed":
      return "fixed";
    case "still_failing":
      return "still failing (same class)";
    case "failing_differently":
      return "failing differently";
    case "newly_failing":
      return "newly failing";
    case "still_ok":
      return "still ok";
    default:
      return "not replayable";
  }
}

/**
 * Removes the timing items (`[window_ms=…]` … `[total_ms=…]`, `[other_ms=…]`) from plan-line
 * text; the work counters stay (they are the same for any `--jobs`).
 */
export function stripLineTimings(text: string): string {
  return text.replace(
    /\[(?:window|topology|geometry|pull|assemble|lift|total|other)_ms=[^\]]*\] /g,
    "",
  );
}
