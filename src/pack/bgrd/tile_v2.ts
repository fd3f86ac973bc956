/**
 * BGRD v2 (columnar) tile payload: decode, plus an encoder used by tests and by tools that
 * write old packs (spec 格图段 「也接受列式的 v2」, format-notes "v2 tile").
 *
 * The whole payload is one zlib blob holding:
 * ```
 * varint n                       # 0 = empty tile, nothing follows [I]
 * f32 hmin; varint regions, ncell
 * 6 × (varint length, raw bytes):
 *   1 (cell step, count) varint pairs, ncell pairs; first step absolute, then ≥ 1 [I]
 *   2 height_q varints (h = f32(hmin + hq/64); Fill records read back as 0)
 *   3 region id varints
 *   4 flags bytes
 *   5 steps bytes
 *   6 clr varints
 * ```
 * `regions` (the number of distinct region ids) is informational: it is checked against n only.
 * @module
 */
import { ByteReader, ByteWriter, deflate, inflateExact } from "../../codec/mod.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, HEIGHT } from "../bounds.ts";
import type { SpanColumns } from "../grid_types.ts";
import { SpanFlag } from "../grid_types.ts";
import { varintBytes } from "./streams.ts";
import {
  groupCells,
  outputColumns,
  quantHeights,
  regionDictionary,
  type TileContext,
  tileHmin,
} from "./tile_common.ts";

/** Column names of the v2 blob, in order. */
export const V2_COLUMN_NAMES = [
  "cell steps and counts",
  "height_q",
  "region ids",
  "flags",
  "steps",
  "clr",
] as const;

/** Decodes a v2 tile payload (one zlib blob) into span columns. */
export function decodeTileV2(
  payload: Uint8Array,
  ctx: TileContext,
  into?: SpanColumns,
): SpanColumns {
  const outer = new ByteReader(payload, ctx.where, ctx.base);
  const blob = inflateExact(payload, outer, 0, "v2 tile blob");
  // Offsets inside the inflated blob are not section offsets: errors point at the tile's first
  // byte and name the inflated position in words.
  const r = new ByteReader(blob, {}, 0);
  try {
    return decodeBlob(r, ctx, into);
  } catch (e) {
    if (!(e instanceof NavscopeError)) throw e;
    const at = e.where.offset ?? r.pos;
    throw new NavscopeError(
      e.code,
      `v2 tile blob, inflated byte ${at}: ${e.what}`,
      { ...ctx.where, offset: ctx.base },
      e.expected,
    );
  }
}

function decodeBlob(r: ByteReader, ctx: TileContext, into?: SpanColumns): SpanColumns {
  const n = r.varint();
  if (n !== ctx.records) {
    throw r.error("count_mismatch", `blob holds ${n} records`, `${ctx.records} (directory)`, 0);
  }
  if (n === 0) {
    r.expectEnd("an empty tile's n = 0");
    return outputColumns(0, into);
  }
  const hminAt = r.pos;
  const hmin = r.f32();
  if (!Number.isFinite(hmin)) {
    // The encoder refuses non-finite heights; this base would make every height non-finite.
    throw r.error("bad_value", `height base hmin is ${hmin}`, "a finite f32", hminAt);
  }
  checkBound(hmin, HEIGHT, { ...r.where, offset: r.base + hminAt }, "tile header", "hmin");
  const regions = r.varint();
  const ncell = r.varint();
  if (regions < 1 || regions > n) {
    throw r.error("count_mismatch", `regions ${regions}`, `1..${n}`);
  }
  if (ncell < 1 || ncell > n || ncell > ctx.nx * ctx.ny) {
    throw r.error("count_mismatch", `ncell ${ncell}`, `1..${Math.min(n, ctx.nx * ctx.ny)}`);
  }
  const cols: ByteReader[] = [];
  for (let i = 0; i < 6; i++) {
    const at = r.pos;
    const len = r.varint();
    r.need(len, `column ${i + 1} (${V2_COLUMN_NAMES[i]})`);
    cols.push(new ByteReader(r.take(len), {}, at));
  }
  r.expectEnd("the sixth column");
  for (const i of [1, 2, 3, 4, 5]) {
    if (cols[i].remaining < n) {
      throw cols[i].error("truncated", `column ${i + 1} has ${cols[i].remaining} bytes`, `≥ ${n}`);
    }
  }
  const out = outputColumns(n, into);
  readCellColumn(cols[0], ncell, n, ctx, out);
  const hq = new Int32Array(n);
  for (let i = 0; i < n; i++) hq[i] = u32(cols[1], "height_q");
  for (let i = 0; i < n; i++) out.rid[i] = u32(cols[2], "region id");
  out.flags.set(cols[3].take(n, "flags"));
  out.steps.set(cols[4].take(n, "steps"));
  for (let i = 0; i < n; i++) {
    const v = cols[5].varint();
    if (v > 0xffff) throw cols[5].error("bad_value", `clr of record ${i} is ${v}`, "0..65535");
    out.clr[i] = v;
  }
  cols.forEach((c, i) => c.expectEnd(`column ${i + 1} (${V2_COLUMN_NAMES[i]})`));
  // hmin is finite and q/64 ≤ 2^26: every height is a finite f32.
  for (let i = 0; i < n; i++) {
    out.h[i] = out.flags[i] & SpanFlag.Fill ? 0 : hmin + hq[i] / 64;
  }
  return out;
}

function u32(r: ByteReader, what: string): number {
  const v = r.varint();
  if (v > 0x7fffffff && what === "height_q") {
    throw r.error("bad_value", `${what} ${v}`, "below 2^31");
  }
  if (v > 0xffffffff) throw r.error("bad_value", `${what} ${v}`, "a u32");
  return v;
}

function readCellColumn(
  c: ByteReader,
  ncell: number,
  n: number,
  ctx: TileContext,
  out: SpanColumns,
): void {
  const size = ctx.nx * ctx.ny;
  let cell = -1;
  let r = 0;
  for (let k = 0; k < ncell; k++) {
    const at = c.pos;
    const step = c.varint();
    const count = c.varint();
    if (k > 0 && step === 0) {
      throw c.error("bad_value", `occupied cell ${k} repeats cell ${cell}`, "steps ≥ 1", at);
    }
    cell = k === 0 ? step : cell + step;
    if (cell >= size) {
      throw c.error("bad_value", `occupied cell ${k} has index ${cell}`, `below ${size}`, at);
    }
    if (count < 1 || r + count > n) {
      throw c.error("count_mismatch", `cell ${cell} has ${count} layers`, `1..${n - r}`, at);
    }
    for (let L = 0; L < count; L++) out.cell[r++] = cell;
  }
  if (r !== n) {
    throw c.error("count_mismatch", `cell counts sum to ${r}`, `${n} records (n)`);
  }
}

/** Encodes span columns as a v2 tile payload (deterministic). */
export function encodeTileV2(
  spans: SpanColumns,
  nx: number,
  ny: number,
  where: ErrorLocation = { section: "BGRD" },
): Uint8Array {
  const n = spans.n;
  if (n === 0) return deflate(new Uint8Array([0]));
  const g = groupCells(spans, nx, ny, where);
  const hmin = tileHmin(spans, where);
  const hq = quantHeights(spans, hmin, where);
  const { dict } = regionDictionary(spans);
  const pairs = new Float64Array(2 * g.ncell);
  for (let k = 0; k < g.ncell; k++) {
    pairs[2 * k] = k === 0 ? g.cells[0] : g.cells[k] - g.cells[k - 1];
    pairs[2 * k + 1] = g.depth[k];
  }
  const cols = [
    varintBytes(pairs, pairs.length),
    varintBytes(hq, n),
    varintBytes(spans.rid, n),
    spans.flags.slice(0, n),
    spans.steps.slice(0, n),
    varintBytes(spans.clr, n),
  ];
  const w = new ByteWriter(64 + cols.reduce((a, c) => a + c.length + 5, 0));
  w.varint(n).f32(hmin).varint(dict.length).varint(g.ncell);
  for (const c of cols) w.varint(c.length).bytes(c);
  return deflate(w.finish());
}
