/**
 * The leg-battery file format, `legs.json` (`{"format": "navscope-legs", "version": 1, "legs":
 * [...]}`): planner requests with the outcome a correct planner must give. A leg names its zone,
 * start and goal (zone px), optional snapping floors, declared start/goal decks, runtime no-go
 * discs and test overrides, and `expected`: `ok` or a failure class name (the classes of spec
 * 失败的情形 as navscope's analytics name them, src/legs/codes.ts).
 *
 * The format sits below the planner and the world generator alike: the planner reads batteries
 * (src/plan/battery.ts), the generator writes them (src/world/legs.ts), neither through the
 * other. The streaming reader for huge batteries is src/legs/stream.ts.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { parseJson } from "../codec/json.ts";
import {
  escapeControls,
  isPlausibleName,
  nameFault,
  readTextStrict,
  textFault,
} from "../codec/json_strict.ts";
import { LEG_FAILURE_CODES } from "./codes.ts";

/** Format tag of a legs file. */
export const LEGS_FORMAT = "navscope-legs";

/** Outcomes a leg may expect: `ok` or a failure of the leg itself (spec 失败的情形). */
export const LEG_OUTCOMES = ["ok", ...LEG_FAILURE_CODES] as const;

/** One outcome. */
export type LegOutcome = typeof LEG_OUTCOMES[number];

/** A runtime no-go disc (spec 运行期虚拟禁区): centre and radius, px. */
export interface NoGoDisc {
  /** Centre x, px. */
  x: number;
  /** Centre y, px. */
  y: number;
  /** Radius, px. */
  r: number;
}

/** Test-only planner overrides. */
export interface LegOverrides {
  /** kMaxCells for this leg (spec: 4 亿格); a small value makes the full window too large. */
  max_cells?: number;
  /** Cancel before window tier k (0 = before the first window). */
  cancel_before_tier?: number;
  /** Force every window to this rectangle of global cells [gx0, gy0, nx, ny]. */
  window?: [number, number, number, number];
  /** Lazy Theta* relaxes closed spans like the C++ build before #6214 (golden comparisons). */
  relax_closed?: boolean;
}

/** The override keys a leg may carry, with the check of each value. */
const OVERRIDE_CHECKS: Record<string, [(v: unknown) => boolean, string]> = {
  max_cells: [(v) => Number.isInteger(v) && (v as number) > 0, "a positive integer"],
  cancel_before_tier: [(v) => Number.isInteger(v) && (v as number) >= 0, "a tier number ≥ 0"],
  window: [
    (v) =>
      Array.isArray(v) && v.length === 4 && v.every((x) => Number.isInteger(x)) &&
      v[2] > 0 && v[3] > 0,
    "[gx0, gy0, nx, ny] integers with nx, ny > 0",
  ],
  relax_closed: [(v) => typeof v === "boolean", "true or false"],
};

/** Route checks beyond the outcome. */
export interface LegChecks {
  /** The route is at most this long, px (e.g. it uses an allowed ledge drop). */
  max_length_px?: number;
  /** The route is at least this long, px (e.g. a blocked drop forces a detour). */
  min_length_px?: number;
}

/** One leg. */
export interface Leg {
  /** Unique id. */
  id: string;
  /** Zone (or tier zone) name; start/goal are in its px frame. */
  zone: string;
  /** Start, px. */
  start: [number, number];
  /** Goal, px. */
  goal: [number, number];
  /** Snapping floor for the start, m. */
  start_floor_y?: number;
  /** Snapping floor for the goal, m. */
  goal_floor_y?: number;
  /** Declared start deck, m. */
  start_deck_y?: number;
  /** Declared goal deck, m. */
  goal_deck_y?: number;
  /** Runtime no-go discs. */
  no_go_discs?: NoGoDisc[];
  /** Test overrides. */
  overrides?: LegOverrides;
  /** Expected outcome. */
  expected: LegOutcome;
  /** Extra route checks when `expected` is `ok`. */
  checks?: LegChecks;
  /** Landmarks the leg exercises. */
  landmarks: string[];
  /** Why the leg exists and why the outcome follows. */
  note: string;
}

/** Stable JSON text of a legs file. */
export function encodeLegs(legs: readonly Leg[]): string {
  const lines = legs.map((l) => " " + JSON.stringify(l));
  return `{"format": "${LEGS_FORMAT}", "version": 1, "legs": [\n${lines.join(",\n")}\n]}\n`;
}

/** Top-level keys of a legs file. */
const FILE_KEYS = new Set(["format", "version", "legs"]);

/** The legs-file version this reader understands. */
export const LEGS_VERSION = 1;

/**
 * Parses and validates a legs file; errors name the file and the JSON path. The JSON is read
 * strictly (duplicate keys, inexact integers, lone surrogates refused: codec/json_strict.ts);
 * `format` must be `navscope-legs`, `version` 1, and no other top-level key is accepted.
 */
export function parseLegs(text: string, file: string): Leg[] {
  const j = parseJson(text, { file });
  checkLegsHeader(j, file);
  const ids = new Set<string>();
  return ((j as Record<string, unknown>).legs as unknown[]).map((l, i) => {
    const leg = validateLeg(l, `$.legs[${i}]`, file);
    if (ids.has(leg.id)) fail(file, `$.legs[${i}].id`, `repeats id ${leg.id}`, "unique ids");
    ids.add(leg.id);
    return leg;
  });
}

/** Reads a legs file (strict UTF-8) and parses it with {@link parseLegs}. */
export async function loadLegs(path: string): Promise<Leg[]> {
  return parseLegs(await readTextStrict(path), path);
}

/** Checks the top level of a legs document: an object with format, version and legs only. */
export function checkLegsHeader(j: unknown, file: string): void {
  if (typeof j !== "object" || j === null || Array.isArray(j)) {
    fail(
      file,
      "$",
      "is not an object",
      `{"format": "${LEGS_FORMAT}", "version": 1, "legs": [...]}`,
    );
  }
  const o = j as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!FILE_KEYS.has(k)) fail(file, `$.${k}`, "is unknown", "format, version, legs");
  }
  if (o.format !== LEGS_FORMAT) {
    fail(file, "$.format", `is ${JSON.stringify(o.format) ?? "missing"}`, `"${LEGS_FORMAT}"`);
  }
  if (o.version !== LEGS_VERSION) {
    throw new NavscopeError(
      "bad_version",
      `$.version: is ${JSON.stringify(o.version) ?? "missing"}`,
      { file },
      `${LEGS_VERSION}`,
    );
  }
  if (!Array.isArray(o.legs)) {
    fail(file, "$.legs", Object.hasOwn(o, "legs") ? "is not an array" : "is missing", "[...]");
  }
}

function fail(file: string, path: string, what: string, expected: string): never {
  // Values are quoted from the file: control and bidi characters escaped (one honest line).
  throw new NavscopeError("bad_value", `${path}: ${escapeControls(what)}`, { file }, expected);
}

const LEG_KEYS = new Set([
  "id",
  "zone",
  "start",
  "goal",
  "start_floor_y",
  "goal_floor_y",
  "start_deck_y",
  "goal_deck_y",
  "no_go_discs",
  "overrides",
  "expected",
  "checks",
  "landmarks",
  "note",
]);

/** Validates one parsed leg at JSON path `p` of `file`; returns it typed. */
export function validateLeg(l: unknown, p: string, file: string): Leg {
  if (typeof l !== "object" || l === null || Array.isArray(l)) {
    fail(file, p, "is not an object", "a leg");
  }
  const o = l as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!LEG_KEYS.has(k)) fail(file, `${p}.${k}`, "is unknown", "a leg key");
  }
  if (typeof o.id !== "string" || o.id === "") fail(file, `${p}.id`, "is not a string", "an id");
  const idFault = nameFault(o.id);
  if (idFault) {
    fail(
      file,
      `${p}.id`,
      `is ${JSON.stringify(o.id)}: ${idFault}`,
      "a leg id (no control or format characters, no outer spaces)",
    );
  }
  if (typeof o.zone !== "string") fail(file, `${p}.zone`, "is not a string", "a zone name");
  if (!isPlausibleName(o.zone)) {
    fail(
      file,
      `${p}.zone`,
      `is ${JSON.stringify(o.zone)}`,
      "a zone name (no control or format characters, no outer spaces)",
    );
  }
  for (const k of ["start", "goal"]) {
    const v = o[k];
    if (
      !Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === "number" && isFinite(x))
    ) {
      fail(file, `${p}.${k}`, "is not [x, y]", "two finite numbers (px)");
    }
  }
  for (const k of ["start_floor_y", "goal_floor_y", "start_deck_y", "goal_deck_y"]) {
    if (o[k] !== undefined && (typeof o[k] !== "number" || !isFinite(o[k] as number))) {
      fail(file, `${p}.${k}`, "is not a number", "metres");
    }
  }
  if (!LEG_OUTCOMES.includes(o.expected as LegOutcome)) {
    fail(file, `${p}.expected`, `is ${JSON.stringify(o.expected)}`, LEG_OUTCOMES.join(", "));
  }
  if (o.no_go_discs !== undefined) {
    if (!Array.isArray(o.no_go_discs)) fail(file, `${p}.no_go_discs`, "is not an array", "discs");
    o.no_go_discs.forEach((d, k) => {
      const ok = typeof d === "object" && d !== null && [d.x, d.y, d.r].every((v) =>
        typeof v === "number" && isFinite(v)
      ) && d.r > 0;
      if (!ok) fail(file, `${p}.no_go_discs[${k}]`, "is malformed", "{x, y, r > 0}");
    });
  }
  if (o.overrides !== undefined) {
    const ov = o.overrides;
    if (typeof ov !== "object" || ov === null || Array.isArray(ov)) {
      fail(file, `${p}.overrides`, "is not an object", "test knobs");
    }
    for (const [k, v] of Object.entries(ov as Record<string, unknown>)) {
      const check = OVERRIDE_CHECKS[k];
      if (!check) {
        fail(file, `${p}.overrides.${k}`, "is unknown", Object.keys(OVERRIDE_CHECKS).join(", "));
      }
      if (!check[0](v)) fail(file, `${p}.overrides.${k}`, `is ${JSON.stringify(v)}`, check[1]);
    }
  }
  if (o.checks !== undefined) validateChecks(o.checks, `${p}.checks`, file);
  if (!Array.isArray(o.landmarks) || !o.landmarks.every((s) => typeof s === "string")) {
    fail(file, `${p}.landmarks`, "is not a string array", "landmark names");
  }
  o.landmarks.forEach((s, k) => {
    const f = textFault(s);
    if (f) fail(file, `${p}.landmarks[${k}]`, f, "text without control characters");
  });
  if (typeof o.note !== "string") fail(file, `${p}.note`, "is not a string", "a note");
  const noteFault = textFault(o.note);
  if (noteFault) {
    fail(file, `${p}.note`, noteFault, "text without control characters (tab, line feed allowed)");
  }
  return o as unknown as Leg;
}

/** The route checks a leg may carry: finite lengths ≥ 0, px. */
const CHECK_KEYS = ["max_length_px", "min_length_px"] as const;

function validateChecks(c: unknown, p: string, file: string): void {
  if (typeof c !== "object" || c === null || Array.isArray(c)) {
    fail(file, p, `is ${JSON.stringify(c)}`, `an object with ${CHECK_KEYS.join(", ")}`);
  }
  const o = c as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (!(CHECK_KEYS as readonly string[]).includes(k)) {
      fail(file, `${p}.${k}`, "is unknown", CHECK_KEYS.join(", "));
    }
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      fail(file, `${p}.${k}`, `is ${JSON.stringify(v)}`, "a finite length ≥ 0, px");
    }
  }
  const { min_length_px: lo, max_length_px: hi } = o as LegChecks;
  if (lo !== undefined && hi !== undefined && lo > hi) {
    fail(file, p, `min_length_px ${lo} > max_length_px ${hi}`, "min ≤ max");
  }
}
