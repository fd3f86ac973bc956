/**
 * Plausibility bounds of the numeric pack fields (issue 55): values that are well-formed (finite,
 * in their integer type) yet no correct writer produces, such as a height of −3.4e38 m, a scale
 * of 0 or a denormal zone width. Each bound is listed here once; the decoders (the load
 * validation) and the encoders (the writers: bake, `encodeMainPack`, …) import it, so the load
 * and the write refuse the same values. The table with the reasons is in docs/pack_validation.md.
 *
 * Units (spec 约定, line 32 of the planner text: "水平单位是底图像素 … 竖直单位是米"): horizontal
 * coordinates are map pixels, heights metres. The spec sets no world size, so the limits are fixed
 * sane ranges: 1 px ≈ 1.33–1.42 m (same paragraph), so 1e5 px is ≈ 140 km, and the largest window
 * the planner will ever build (kMaxCells = 4e8 cells of 0.25 px, spec 窗口分档) is 5 000 px
 * square — a zone 20 times larger on a side cannot be planned in anyway.
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../errors.ts";

/** Smallest positive normal float32, 2^−126 ≈ 1.18e−38: below it a scale is a denormal. */
export const F32_MIN_NORMAL = 2 ** -126;
/** Largest |height| in metres anywhere in a pack (vertices, floors, grid, links, occluders). */
export const HEIGHT_LIMIT_M = 1e5;
/** Largest |horizontal coordinate| in px (vertices, zone sizes, grid origins, no-go points). */
export const EXTENT_LIMIT_PX = 1e5;
/** Largest |translation| of a zone affine and |world coordinate| of an occluder origin. */
export const WORLD_LIMIT = 1e6;
/** Cell size kCS, px (spec 约定: 体素是边长 0.25 像素的方格): the smallest zone side. */
export const MIN_ZONE_SIDE_PX = 0.25;

/** A closed interval `[lo, hi]`, optionally with 0 allowed besides (a radius of 0 = none). */
export interface FieldBound {
  /** Lower end (inclusive). */
  readonly lo: number;
  /** Upper end (inclusive). */
  readonly hi: number;
  /** 0 is accepted as well (for "none"); values strictly between 0 and `lo` are not. */
  readonly zeroOk?: boolean;
  /** Unit for the message ("m", "px", "" …). */
  readonly unit: string;
}

/** A height, metres. */
export const HEIGHT: FieldBound = { lo: -HEIGHT_LIMIT_M, hi: HEIGHT_LIMIT_M, unit: "m" };
/** A horizontal coordinate or origin, px. */
export const COORD_PX: FieldBound = { lo: -EXTENT_LIMIT_PX, hi: EXTENT_LIMIT_PX, unit: "px" };
/** A zone's width or height, px: at least one cell, at most the extent limit. */
export const ZONE_SIDE: FieldBound = { lo: MIN_ZONE_SIDE_PX, hi: EXTENT_LIMIT_PX, unit: "px" };
/**
 * |sx|, |sy| of a zone affine (m per px for a zone, px per template px for a tier zone). The spec
 * gives ≈ 1.33–1.42 m per px (约定); three orders of magnitude either side leave room for any
 * real map and tier template, and refuse 0 and denormals.
 */
export const AFFINE_SCALE: FieldBound = { lo: 1e-3, hi: 1e3, unit: "" };
/** tx, ty of a zone affine; an occluder origin in world units. */
export const WORLD_COORD: FieldBound = { lo: -WORLD_LIMIT, hi: WORLD_LIMIT, unit: "" };
/**
 * A strictly positive step or scale (occluder position step, terrain cell width, height scale):
 * above the float32 denormal range, at most the extent limit.
 */
export const POSITIVE_SCALE: FieldBound = { lo: F32_MIN_NORMAL, hi: EXTENT_LIMIT_PX, unit: "" };
/**
 * An off-mesh link radius, px: 0 (none) or a normal float up to the extent limit; the zone check
 * ({@link zoneRadiusBound}) narrows the top to the zone's larger side.
 */
export const LINK_RADIUS: FieldBound = {
  lo: F32_MIN_NORMAL,
  hi: EXTENT_LIMIT_PX,
  zeroOk: true,
  unit: "px",
};
/**
 * An off-mesh link cost modifier: the jump cost is `max(cost_modifier, 1) × distance`
 * (format-notes FLNK), so a negative one means nothing; 1e6 is a million times a step, far above
 * any hand-set cost (the examples use 1).
 */
export const COST_MODIFIER: FieldBound = { lo: 0, hi: 1e6, unit: "" };

/**
 * A position may lie outside its zone's px rectangle by this share of the zone's larger side
 * (an off-mesh link may leave its zone: the sidecar's reason 1 出界 is a landing outside the
 * grid), but not farther.
 */
export const ZONE_BOX_MARGIN = 1;

/** True when `v` lies outside `b` (NaN is outside every bound). */
export function outside(v: number, b: FieldBound): boolean {
  return !(v >= b.lo && v <= b.hi) && !(b.zeroOk === true && v === 0);
}

/** The bound in words, e.g. `[-100000, 100000] m` or `0 or [1.1754943508222875e-38, 100000] px`. */
export function boundText(b: FieldBound): string {
  const r = `[${b.lo}, ${b.hi}]${b.unit ? " " + b.unit : ""}`;
  return b.zeroOk ? `0 or ${r}` : r;
}

/** `[lo, hi]` of a zone's px rectangle widened by {@link ZONE_BOX_MARGIN}, one axis. */
export function zoneAxisBound(side: number, larger: number): FieldBound {
  const m = ZONE_BOX_MARGIN * larger;
  return { lo: -m, hi: side + m, unit: "px" };
}

/** A link radius bound no larger than the zone's larger side. */
export function zoneRadiusBound(larger: number): FieldBound {
  return { ...LINK_RADIUS, hi: Math.min(LINK_RADIUS.hi, larger) };
}

/**
 * First index `i` in `[from, to)` (stepping by `stride`) with `a[i]` outside `[lo, hi]`, or −1.
 * A plain loop over the typed array: the load cost stays a compare per value.
 */
export function firstOutside(
  a: ArrayLike<number>,
  b: FieldBound,
  from = 0,
  to = a.length,
  stride = 1,
): number {
  const lo = b.lo, hi = b.hi, z = b.zeroOk === true;
  for (let i = from; i < to; i += stride) {
    const v = a[i];
    if (!(v >= lo && v <= hi) && !(z && v === 0)) return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Reporting: throw at once (every load and write), or collect all (`inspect --strict`).

let collector: NavscopeError[] | null = null;

/**
 * The located error of one value outside its bound: `record R: field F = V` with the bound as
 * the expectation. `where` carries file, section, zone/tile and byte offset.
 */
export function boundError(
  where: ErrorLocation,
  record: string,
  field: string,
  value: number,
  b: FieldBound,
): NavscopeError {
  const rec = record ? `${record}: ` : "";
  return new NavscopeError(
    "bad_value",
    `${rec}${field} = ${value} is outside its plausible range`,
    where,
    boundText(b),
  );
}

/**
 * Checks `value` against `b`; outside it, throws the located error — or, while
 * {@link collectBoundViolations} runs, records it and lets the load go on (so `inspect --strict`
 * lists every violation, not only the first). Returns true when the value was inside.
 */
export function checkBound(
  value: number,
  b: FieldBound,
  where: ErrorLocation,
  record: string,
  field: string,
): boolean {
  if (!outside(value, b)) return true;
  reportBound(boundError(where, record, field, value, b));
  return false;
}

/** Throws `e`, or records it while a collector runs. */
export function reportBound(e: NavscopeError): void {
  if (collector === null) throw e;
  if (!collector.some((x) => x.message === e.message)) collector.push(e);
}

/**
 * Runs `fn` with bound violations recorded instead of thrown; returns what `fn` returned (or
 * threw, as `error`) and every violation met, in order. Structural errors still end the load.
 * Only one collection runs at a time (the `inspect --strict` command).
 */
export async function collectBoundViolations<T>(
  fn: () => Promise<T>,
): Promise<{ result?: T; error?: unknown; violations: NavscopeError[] }> {
  const mine: NavscopeError[] = [];
  const prev = collector;
  collector = mine;
  try {
    return { result: await fn(), violations: mine };
  } catch (error) {
    return { error, violations: mine };
  } finally {
    collector = prev;
  }
}
