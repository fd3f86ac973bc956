/**
 * navscope's own plan log line: one line per plan, in the MaaFramework layout
 * (maaend-runlogs.md §1.1), carrying a whole {@link PlanRecord}. The real planner logs none of
 * tier, tier notes, timings, window or distances (maaend-runlogs.md §1.2); this line does, so
 * the analytics of spec "分档实测", "搜索实测" and "失败的分布" can be computed from logs, and
 * every leg can be replayed bit-exactly (zone, endpoints, floors, decks, no-go discs, planner
 * version, pack build hash).
 *
 * Shape:
 * `[2026-10-01 12:00:00.123][INF][Px1][Tx2][navscope][L0][plan] NAVSCOPE plan. [version=…] …`
 * followed by ` [key=value]` items in {@link PLAN_KEYS} order and a trailing space, like VAR().
 *
 * Value encoding (chosen so that parse(format(r)) equals r exactly):
 * - numbers: JavaScript's shortest round-trip form (`String(n)`), plus `-0`, `NaN`,
 *   `Infinity`, `-Infinity`; points and lists as `[a,b]` with the same number form;
 * - strings: raw when they are made only of `[A-Za-z0-9_.:/+-]`, else a JSON string literal
 *   (quotes, escapes), so brackets, spaces, `=` and newlines survive;
 * - string lists (`tier_notes`, `warnings`): a JSON array of strings;
 * - booleans: `true`/`false`;
 * - an absent optional (null, empty list, "") is written as no item at all.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import {
  emptyHead,
  field,
  formatTimestamp,
  parseBool,
  parseHead,
  parseNumber,
  parseNumberArray,
  parsePoint,
  scanFields,
  truncationCut,
} from "./line.ts";
import type { LineHead, LogLevel, NoGoDisc, PlanRecord, Point2, WindowKind } from "./types.ts";
import { COUNTER_NAMES, OTHER_STAGE_NAMES } from "../plan/counters.ts";

/** The message text that marks a plan line. */
export const PLAN_MESSAGE = "NAVSCOPE plan.";

/**
 * Every plan-line key, in writing order, with its unit. Absent optional items mean null /
 * empty. (Kept as data so the README table and the tests come from one place.)
 */
export const PLAN_KEYS: ReadonlyArray<readonly [key: string, unit: string, meaning: string]> = [
  ["version", "text", "planner version, e.g. navscope/0.1.0"],
  ["pack", "hex", "main pack build hash (absent: unknown)"],
  ["zone", "text", "zone name"],
  ["start", "[px,px]", "raw start point"],
  ["goal", "[px,px]", "raw goal point"],
  ["start_floor_y", "world Y", "start snap floor (absent: none)"],
  ["goal_floor_y", "world Y", "goal snap floor (absent: none)"],
  ["start_deck_y", "world Y", "declared start deck (absent: none)"],
  ["goal_deck_y", "world Y", "declared goal deck (absent: none)"],
  ["no_go_discs", "[[px,px,px]…]", "runtime no-go discs x, y, radius (absent: none)"],
  ["leg", "text", "battery leg id the plan was made for (absent: none)"],
  ["profile", "text", "planner profile: spec, reference or BASE:±switch… (absent: spec)"],
  ["ok", "bool", "a route was produced"],
  ["code", "text", "planner error code (absent when ok)"],
  ["error", "text", "planner error message, verbatim (absent when ok)"],
  ["no_go", "bool", "an endpoint lies in an author no-go zone"],
  ["tier", "count", "loop round the plan finished in; -1 = before the tier loop"],
  ["kind", "text", "final window kind: tentative | capped | full (absent: none built)"],
  ["tier_notes", "[text…]", "escalation reasons of earlier tiers (absent: none)"],
  ["window", "[cell,cell,cell,cell]", "final window x0, y0, nx, ny (absent: none built)"],
  ["window_cells", "cells", "nx·ny of the final window"],
  ["window_ms", "ms", "buildWindow of the final tier"],
  ["topology_ms", "ms", "topology pass"],
  ["geometry_ms", "ms", "geometry pass"],
  ["pull_ms", "ms", "string pull"],
  ["assemble_ms", "ms", "assemble"],
  ["lift_ms", "ms", "lift corners"],
  ["total_ms", "ms", "whole plan, from the planner entry"],
  ["other_ms", "name:ms,…", "sub-stages of other, nonzero only (docs/counters.md; absent: none)"],
  ["counters", "name:count,…", "work counters, nonzero only (docs/counters.md; absent: none)"],
  ["snap_start", "px", "start snap distance (absent: not computed)"],
  ["snap_goal", "px", "goal snap distance (absent: not computed)"],
  ["reach_start", "px", "start distance to the reach domain (absent: not computed)"],
  ["reach_goal", "px", "goal distance to the reach domain (absent: not computed)"],
  ["gap_start", "[px,px]", "gap cell centre on the start side (absent: no gap)"],
  ["gap_goal", "[px,px]", "gap cell centre on the goal side"],
  ["gap_distance", "px", "distance between the gap cell centres"],
  ["warnings", "[text…]", "planner warnings (absent: none)"],
  ["points", "count", "points in the final polyline"],
  ["length", "px", "polyline length"],
  ["drops", "count", "ledge drops in the route"],
];

/** Prefix facts of a plan line. */
export interface PlanLineOptions {
  /** Naive epoch ms (see types.ts) or a Date (its UTC fields are printed). Default 0. */
  time?: number | Date;
  /** Level; default `INF` for ok plans, `WRN` for failures. */
  level?: Exclude<LogLevel, "">;
  /** Process id; default 0. */
  pid?: number;
  /** Thread id; default 0. */
  tid?: number;
  /** Source "file" bracket; default `navscope`. */
  srcFile?: string;
  /** Source line number; default 0. */
  srcLine?: number;
  /** Function bracket; default `plan`. */
  func?: string;
}

/** Shortest round-trip number text, keeping `-0`. */
export function formatNumber(n: number): string {
  return Object.is(n, -0) ? "-0" : String(n);
}

const SAFE_RAW = /^[A-Za-z0-9_.:/+-]+$/;

/** A string value: raw when safe, else a JSON string literal. */
export function formatString(s: string): string {
  return SAFE_RAW.test(s) ? s : JSON.stringify(s);
}

function readString(v: string): string {
  return v.charCodeAt(0) === 34 ? JSON.parse(v) as string : v;
}

function formatList(a: readonly number[]): string {
  return "[" + a.map(formatNumber).join(",") + "]";
}

/**
 * Formats one plan line (no newline; the line ends with a trailing space, as VAR() items do).
 * Floats round-trip exactly: `parsePlanLine(formatPlanLine(r))` deep-equals `r`.
 */
export function formatPlanLine(r: PlanRecord, opts: PlanLineOptions = {}): string {
  const t = opts.time instanceof Date ? opts.time.getTime() : opts.time ?? 0;
  const level = opts.level ?? (r.ok ? "INF" : "WRN");
  let s = `[${formatTimestamp(t)}][${level}][Px${opts.pid ?? 0}][Tx${opts.tid ?? 0}][${
    opts.srcFile ?? "navscope"
  }][L${opts.srcLine ?? 0}][${opts.func ?? "plan"}] ${PLAN_MESSAGE} `;
  const item = (k: string, v: string) => {
    s += `[${k}=${v}] `;
  };
  const num = (k: string, v: number | null) => {
    if (v !== null) item(k, formatNumber(v));
  };
  const str = (k: string, v: string) => {
    if (v !== "") item(k, formatString(v));
  };
  const strs = (k: string, v: readonly string[]) => {
    if (v.length) item(k, JSON.stringify(v));
  };
  str("version", r.version);
  str("pack", r.packHash);
  item("zone", formatString(r.zone));
  item("start", formatList(r.start));
  item("goal", formatList(r.goal));
  num("start_floor_y", r.startFloorY);
  num("goal_floor_y", r.goalFloorY);
  num("start_deck_y", r.startDeckY);
  num("goal_deck_y", r.goalDeckY);
  if (r.noGoDiscs.length) item("no_go_discs", "[" + r.noGoDiscs.map(formatList).join(",") + "]");
  str("leg", r.leg);
  if (r.profile !== undefined) str("profile", r.profile);
  item("ok", String(r.ok));
  str("code", r.code);
  str("error", r.error);
  item("no_go", String(r.noGo));
  num("tier", r.tier);
  str("kind", r.kind);
  strs("tier_notes", r.tierNotes);
  if (r.window) {
    const w = r.window;
    item("window", formatList([w.x0, w.y0, w.nx, w.ny]));
    num("window_cells", w.cells);
  }
  const tm = r.timing;
  num("window_ms", tm.window);
  num("topology_ms", tm.topology);
  num("geometry_ms", tm.geometry);
  num("pull_ms", tm.pull);
  num("assemble_ms", tm.assemble);
  num("lift_ms", tm.lift);
  num("total_ms", tm.total);
  if (r.otherTiming) item("other_ms", formatNamed(OTHER_STAGE_NAMES, r.otherTiming));
  if (r.counters) item("counters", formatNamed(COUNTER_NAMES, r.counters));
  num("snap_start", r.snapStart);
  num("snap_goal", r.snapGoal);
  num("reach_start", r.reachStart);
  num("reach_goal", r.reachGoal);
  if (r.gap) {
    item("gap_start", formatList(r.gap.start));
    item("gap_goal", formatList(r.gap.goal));
    num("gap_distance", r.gap.distance);
  }
  strs("warnings", r.warnings);
  num("points", r.points);
  num("length", r.length);
  num("drops", r.drops);
  return s;
}

/**
 * A named-number list, `name:value,…` in `names` order, zeros left out (an all-zero list is
 * `-`, so the item still says the plan recorded them).
 */
function formatNamed<K extends string>(names: readonly K[], v: Record<K, number>): string {
  const parts: string[] = [];
  for (const n of names) if (!Object.is(v[n], 0)) parts.push(`${n}:${formatNumber(v[n])}`);
  return parts.length ? parts.join(",") : "-";
}

/** Reads a {@link formatNamed} list: every name known, every value a number; absent names 0. */
function namedList<K extends string>(
  f: string[],
  key: string,
  names: readonly K[],
): Record<K, number> | null {
  const v = field(f, key);
  if (v === undefined) return null;
  const out = {} as Record<K, number>;
  for (const n of names) out[n] = 0;
  if (v === "-") return out;
  const known: ReadonlySet<string> = new Set(names);
  for (const part of v.split(",")) {
    const c = part.lastIndexOf(":");
    const name = part.slice(0, c), n = parseNumber(part.slice(c + 1));
    if (c <= 0 || !known.has(name)) throw new FieldError(`[${key}] unknown name "${name}"`);
    if (Number.isNaN(n) && !/^[-+]?nan/i.test(part.slice(c + 1))) {
      throw new FieldError(`[${key}] ${name} is not a number`);
    }
    out[name as K] = n;
  }
  return out;
}

/** Thrown (as a string) by the field readers; turned into a problem or a NavscopeError. */
class FieldError extends Error {}

function req(f: string[], k: string): string {
  const v = field(f, k);
  if (v === undefined) throw new FieldError(`missing [${k}=…]`);
  return v;
}

function num(f: string[], k: string, dflt: number): number {
  const v = field(f, k);
  if (v === undefined) return dflt;
  const n = parseNumber(v);
  if (Number.isNaN(n) && !/^[-+]?nan/i.test(v.trim())) throw new FieldError(`[${k}] not a number`);
  return n;
}

function optNum(f: string[], k: string): number | null {
  return field(f, k) === undefined ? null : num(f, k, NaN);
}

function point(f: string[], k: string): Point2 {
  const p = parsePoint(req(f, k));
  if (!p) throw new FieldError(`[${k}] is not [x,y]`);
  return p;
}

function strList(f: string[], k: string): string[] {
  const v = field(f, k);
  if (v === undefined) return [];
  let a: unknown;
  try {
    a = JSON.parse(v);
  } catch {
    throw new FieldError(`[${k}] is not a JSON string list`);
  }
  if (!Array.isArray(a) || !a.every((x) => typeof x === "string")) {
    throw new FieldError(`[${k}] is not a JSON string list`);
  }
  return a as string[];
}

function str(f: string[], k: string): string {
  const v = field(f, k);
  if (v === undefined) return "";
  try {
    return readString(v);
  } catch {
    throw new FieldError(`[${k}] is a broken JSON string`);
  }
}

const KINDS: ReadonlySet<string> = new Set(["tentative", "capped", "full", ""]);

/**
 * Builds a PlanRecord from the flat field list of a plan line; returns an error string when a
 * required item (zone, start, goal, ok) is missing or any item is malformed.
 */
export function planRecordFromFields(f: string[]): PlanRecord | string {
  try {
    const ok = parseBool(req(f, "ok"));
    if (ok === null) throw new FieldError("[ok] is not a bool");
    const kind = str(f, "kind");
    if (!KINDS.has(kind)) throw new FieldError(`[kind=${kind}] unknown`);
    const win = field(f, "window");
    let window: PlanRecord["window"] = null;
    if (win !== undefined) {
      const a = parseNumberArray(win);
      if (!a || a.length !== 4 || !a.every((x) => typeof x === "number")) {
        throw new FieldError("[window] is not [x0,y0,nx,ny]");
      }
      const [x0, y0, nx, ny] = a as number[];
      window = { x0, y0, nx, ny, cells: num(f, "window_cells", nx * ny) };
    }
    const discs: NoGoDisc[] = [];
    const dv = field(f, "no_go_discs");
    if (dv !== undefined) {
      const a = parseNumberArray(dv);
      if (!a) throw new FieldError("[no_go_discs] malformed");
      for (const d of a) {
        if (!Array.isArray(d) || d.length !== 3) throw new FieldError("[no_go_discs] malformed");
        discs.push([d[0], d[1], d[2]]);
      }
    }
    const gs = field(f, "gap_start");
    const gap = gs === undefined ? null : {
      start: point(f, "gap_start"),
      goal: point(f, "gap_goal"),
      distance: num(f, "gap_distance", NaN),
    };
    return {
      version: str(f, "version"),
      packHash: str(f, "pack"),
      zone: readString(req(f, "zone")),
      start: point(f, "start"),
      goal: point(f, "goal"),
      startFloorY: optNum(f, "start_floor_y"),
      goalFloorY: optNum(f, "goal_floor_y"),
      startDeckY: optNum(f, "start_deck_y"),
      goalDeckY: optNum(f, "goal_deck_y"),
      noGoDiscs: discs,
      leg: str(f, "leg"),
      ...(field(f, "profile") === undefined ? {} : { profile: str(f, "profile") }),
      ok,
      code: str(f, "code"),
      error: str(f, "error"),
      noGo: parseBool(field(f, "no_go")) ?? false,
      tier: num(f, "tier", -1),
      kind: kind as WindowKind,
      tierNotes: strList(f, "tier_notes"),
      window,
      timing: {
        window: num(f, "window_ms", NaN),
        topology: num(f, "topology_ms", NaN),
        geometry: num(f, "geometry_ms", NaN),
        pull: num(f, "pull_ms", NaN),
        assemble: num(f, "assemble_ms", NaN),
        lift: num(f, "lift_ms", NaN),
        total: num(f, "total_ms", NaN),
      },
      counters: namedList(f, "counters", COUNTER_NAMES),
      otherTiming: namedList(f, "other_ms", OTHER_STAGE_NAMES),
      snapStart: optNum(f, "snap_start"),
      snapGoal: optNum(f, "snap_goal"),
      reachStart: optNum(f, "reach_start"),
      reachGoal: optNum(f, "reach_goal"),
      gap,
      warnings: strList(f, "warnings"),
      points: num(f, "points", NaN),
      length: num(f, "length", NaN),
      drops: num(f, "drops", 0),
    };
  } catch (e) {
    if (e instanceof FieldError || e instanceof SyntaxError) return e.message;
    throw e;
  }
}

/**
 * Parses one plan line (as written by formatPlanLine) back to its record and prefix.
 * Throws a NavscopeError (`bad_value`, with `line` when given) if it is not a plan line.
 */
export function parsePlanLine(
  line: string,
  where: { file?: string; line?: number } = {},
): { record: PlanRecord; head: LineHead } {
  const head = emptyHead();
  let s = line.endsWith("\r") ? line.slice(0, -1) : line;
  const m = parseHead(s, head);
  if (m < 0 || !s.startsWith(PLAN_MESSAGE, m)) {
    throw new NavscopeError("bad_value", "not a navscope plan line", where, `"${PLAN_MESSAGE}"`);
  }
  const cut = truncationCut(s);
  if (cut >= 0) {
    head.truncated = true;
    s = s.slice(0, cut);
  }
  const f: string[] = [];
  scanFields(s, m + PLAN_MESSAGE.length, f);
  const r = planRecordFromFields(f);
  if (typeof r === "string") {
    throw new NavscopeError("bad_value", `plan line: ${r}`, where, "a complete plan line");
  }
  return { record: r, head };
}

/** A record with every optional input unset and zero timings: a base for callers and tests. */
export function emptyPlanRecord(zone: string, start: Point2, goal: Point2): PlanRecord {
  return {
    version: "",
    packHash: "",
    zone,
    start,
    goal,
    startFloorY: null,
    goalFloorY: null,
    startDeckY: null,
    goalDeckY: null,
    noGoDiscs: [],
    leg: "",
    ok: false,
    code: "",
    error: "",
    noGo: false,
    tier: -1,
    kind: "",
    tierNotes: [],
    window: null,
    timing: { window: 0, topology: 0, geometry: 0, pull: 0, assemble: 0, lift: 0, total: 0 },
    counters: null,
    otherTiming: null,
    snapStart: null,
    snapGoal: null,
    reachStart: null,
    reachGoal: null,
    gap: null,
    warnings: [],
    points: 0,
    length: 0,
    drops: 0,
  };
}
