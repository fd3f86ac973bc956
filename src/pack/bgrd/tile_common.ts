/**
 * Pieces shared by the v2 and v3 BGRD tile codecs (spec 数据包 › 格图段): the tile context
 * used in error messages, height quantisation, the region dictionary and input validation.
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, HEIGHT } from "../bounds.ts";
import { allocSpanColumns, type SpanColumns, SpanFlag } from "../grid_types.ts";

/** What a tile decoder needs to know from the directory, and where errors point. */
export interface TileContext {
  /** Window width in cells. */
  nx: number;
  /** Window height in cells. */
  ny: number;
  /** Record count from the directory (the payload's n must equal it). */
  records: number;
  /** Location facts for errors (section BGRD, zone, tile). */
  where: ErrorLocation;
  /** Offset of the payload's first byte within the section. */
  base: number;
}

/** Heights are quantised to 1/64 m above the tile's lowest height (spec 格图段). */
export const HEIGHT_STEP_INV = 64;

/** Largest |height_q| the encoder accepts: keeps every residual inside int32. */
export const MAX_HQ = 2 ** 30;

/**
 * Dequantises one height (formulas.md 格图段 #11 [R]): `h = f32(double(hmin) + double(q)/64)`;
 * Fill records read back as 0. The caller stores the result in a Float32Array (the f32 step).
 */
export function dequantHeight(hmin: number, q: number): number {
  return hmin + q / HEIGHT_STEP_INV;
}

/**
 * The encoder's quantiser: `q = round((h − hmin)·64)`, half rounds up [I] (the baked heights
 * already sit on the 1/64 grid, so ties never occur in practice). Decoding then re-encoding a
 * tile gives back the same q for |h| < 2^17 m, where one f32 ulp is below 1/64.
 */
export function quantHeight(h: number, hmin: number): number {
  return Math.round((h - hmin) * HEIGHT_STEP_INV);
}

/** Lowest height of the non-Fill records (f32), or 0 when every record is Fill. */
export function tileHmin(spans: SpanColumns, where: ErrorLocation): number {
  let hmin = Infinity;
  for (let i = 0; i < spans.n; i++) {
    if (spans.flags[i] & SpanFlag.Fill) continue;
    const h = spans.h[i];
    if (!Number.isFinite(h)) {
      throw new NavscopeError("bad_value", `record ${i} has height ${h}`, where, "a finite height");
    }
    checkBound(h, HEIGHT, where, `record ${i}`, "h");
    if (h < hmin) hmin = h;
  }
  return hmin === Infinity ? 0 : Math.fround(hmin);
}

/** Quantised heights of every record (Fill → 0), range-checked. */
export function quantHeights(spans: SpanColumns, hmin: number, where: ErrorLocation): Int32Array {
  const hq = new Int32Array(spans.n);
  for (let i = 0; i < spans.n; i++) {
    if (spans.flags[i] & SpanFlag.Fill) continue;
    const q = quantHeight(spans.h[i], hmin);
    if (!(Math.abs(q) < MAX_HQ)) {
      throw new NavscopeError(
        "bad_value",
        `record ${i} height ${spans.h[i]} is ${q}/64 m from the tile minimum ${hmin}`,
        where,
        `less than 2^30/64 m`,
      );
    }
    hq[i] = q;
  }
  return hq;
}

/** Cell grouping of a tile's records: occupied cells in order and their layer counts. */
export interface CellGroups {
  /** Occupied cell indices, ascending. */
  cells: Int32Array;
  /** Records per occupied cell. */
  depth: Int32Array;
  /** Number of occupied cells. */
  ncell: number;
  /** Largest depth. */
  kmax: number;
}

/**
 * Checks the encoder's input (cells ascending and inside the `nx × ny` window) and groups the
 * records by cell.
 */
export function groupCells(
  spans: SpanColumns,
  nx: number,
  ny: number,
  where: ErrorLocation,
): CellGroups {
  const n = spans.n;
  const size = nx * ny;
  const cells = new Int32Array(n);
  const depth = new Int32Array(n);
  let ncell = 0;
  let kmax = 0;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const c = spans.cell[i];
    if (!(c >= 0 && c < size)) {
      throw new NavscopeError(
        "bad_value",
        `record ${i} has cell ${c}`,
        where,
        `a cell index in 0..${size - 1}`,
      );
    }
    if (c < prev) {
      throw new NavscopeError(
        "bad_value",
        `record ${i} has cell ${c} after cell ${prev}`,
        where,
        "records sorted by cell index",
      );
    }
    if (c !== prev) {
      cells[ncell] = c;
      depth[ncell] = 0;
      ncell++;
      prev = c;
    }
    const d = ++depth[ncell - 1];
    if (d > kmax) kmax = d;
  }
  return { cells: cells.subarray(0, ncell), depth: depth.subarray(0, ncell), ncell, kmax };
}

/** The region dictionary: distinct region ids ascending, and each record's index into it. */
export function regionDictionary(spans: SpanColumns): { dict: Uint32Array; idx: Int32Array } {
  const sorted = spans.rid.slice(0, spans.n).sort();
  let m = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[m++] = sorted[i];
  }
  const dict = sorted.slice(0, m);
  const index = new Map<number, number>();
  for (let i = 0; i < m; i++) index.set(dict[i], i);
  const idx = new Int32Array(spans.n);
  for (let i = 0; i < spans.n; i++) idx[i] = index.get(spans.rid[i])!;
  return { dict, idx };
}

/**
 * Output columns for `n` records. When `into` is given it is reused, and its arrays are
 * replaced by larger ones (with 25 % slack) when they are too small, so a caller decoding many
 * tiles into one `into` stops allocating after the largest tile.
 */
export function outputColumns(n: number, into?: SpanColumns): SpanColumns {
  if (!into) return allocSpanColumns(n);
  if (
    into.cell.length < n || into.rid.length < n || into.h.length < n ||
    into.clr.length < n || into.flags.length < n || into.steps.length < n
  ) {
    const fresh = allocSpanColumns(Math.ceil(n * 1.25));
    into.cell = fresh.cell;
    into.rid = fresh.rid;
    into.h = fresh.h;
    into.clr = fresh.clr;
    into.flags = fresh.flags;
    into.steps = fresh.steps;
  }
  into.n = n;
  return into;
}

/** Location of a tile error: the context's facts plus an absolute section offset. */
export function tileError(
  ctx: TileContext,
  code: ConstructorParameters<typeof NavscopeError>[0],
  what: string,
  offset: number,
  expected?: string,
): NavscopeError {
  return new NavscopeError(code, what, { ...ctx.where, offset }, expected);
}

/**
 * Runs `fn`, adding an expectation to a `varint_overflow` error from the shared varint reader
 * (which reports what went wrong but not what was expected).
 */
export function withVarintExpectation<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof NavscopeError && e.code === "varint_overflow" && e.expected === undefined) {
      const out = new NavscopeError(e.code, e.what, e.where, "a varint of at most 63 bits");
      out.stack = e.stack;
      throw out;
    }
    throw e;
  }
}
