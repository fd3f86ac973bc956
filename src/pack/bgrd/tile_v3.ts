/**
 * BGRD v3 tile payload: decode and encode (spec 数据包 › 格图段 「v3 瓦载荷」, format-notes
 * "v3 tile").
 *
 * ```
 * varint n                      # records; 0 = empty tile, nothing follows
 * f32    hmin                   # lowest non-Fill height of the tile
 * varint regions, ncell, kmax   # dictionary length, occupied cells, most layers in a cell
 * u8     select[5·kmax]         # select[f·kmax + L]: predictor of (field f, layer L)
 * 8 × stream (varint len + zlib):
 *   0 cell steps   ncell varints: first cell index, then the step to each next (≥ 1)
 *   1 depth        ncell varints: layers per cell (1..kmax, sum n, max kmax)
 *   2 regions      `regions` varints, each an absolute region id (written ascending)
 *   3..7           zigzag varint residuals of height_q, region index, clr, flags, steps,
 *                  each in field → layer → cell order
 * ```
 *
 * Predictors. The article: Up = 同一列(x 相同)、格号更小的最近一个有这一层的格,中间可以隔行,
 * column state cleared per (field, layer); Down = 同一格的下一层, and 第 0 层没有下一层,只能用 Up.
 * Format-notes words it as "0 = the previous live cell in the same column (same layer), 1 = the
 * same cell one layer up". Read literally, "one layer up" would be layer L+1, which contradicts
 * the article's rule that layer 0 cannot use Down (layer 0 would be the one layer that *has* an
 * L+1). The article wins: Down reads layer L−1, the previous record of the same cell (layers are
 * sorted by ascending height, so it is the layer below). "Previous live cell in the same column"
 * and the article's Up agree.
 * - Up (0): same column x, the nearest smaller cell index that has layer L (rows may be
 *   skipped); the column state is cleared to 0 at the start of every (field, layer).
 * - Down (1): the same cell's layer L−1. Layer 0 has none, so its select must be Up.
 *
 * The region dictionary holds absolute ids (format-notes, checked against the reference
 * implementation: a first-id-plus-steps dictionary is read there as ids and plans wrong). Only
 * stream 0 is delta-coded. The encoder writes the distinct ids ascending; the decoder takes
 * every value as an id and requires no order, as the reference does. A delta-coded dictionary
 * from an older navscope therefore decodes to wrong but plausible ids; `checkTileIds`
 * (bgrd_guard.ts) catches those that leave the zone's region or component range.
 *
 * Reconstructed details [I]:
 * - select byte order: field-major, `select[f·kmax + L]`, from the article's 「每个字段每一层」
 *   and its field → layer → cell residual order (format-notes' "kmax×5" gives only the count);
 * - the first cell step is an absolute value, later steps ≥ 1;
 * - every stream holds LEB128 varints (residuals zigzagged), u8 fields included.
 * @module
 */
import { ByteReader, ByteWriter, deflate, readStream } from "../../codec/mod.ts";
import type { ErrorLocation } from "../../errors.ts";
import { checkBound, HEIGHT } from "../bounds.ts";
import { type SpanColumns, SpanFlag } from "../grid_types.ts";
import {
  applyPredictors,
  BgrdScratch,
  buildLayerOrder,
  concatBytes,
  DEFAULT_SCRATCH,
  layerResiduals,
  Predictor,
  readU32Varints,
  readZigzagVarints,
  writeVarints,
  writeZigzagVarints,
} from "./streams.ts";
import {
  groupCells,
  outputColumns,
  quantHeights,
  regionDictionary,
  type TileContext,
  tileError,
  tileHmin,
} from "./tile_common.ts";

/** Names of the eight v3 streams, in payload order (used in errors and summaries). */
export const V3_STREAM_NAMES = [
  "cell steps",
  "depth",
  "region dictionary",
  "height_q residuals",
  "region index residuals",
  "clr residuals",
  "flags residuals",
  "steps residuals",
] as const;

/** Field numbers of the five residual streams (select byte `f·kmax + L`, stream `3 + f`). */
export const V3Field = { Height: 0, RegionIdx: 1, Clr: 2, Flags: 3, Steps: 4 } as const;

/** Number of predicted fields. */
export const V3_FIELDS = 5;

/** The fixed part of a v3 payload, as read before the streams. */
export interface V3Header {
  /** Records. */
  n: number;
  /** Lowest height (f32). */
  hmin: number;
  /** Region dictionary length. */
  regions: number;
  /** Occupied cells. */
  ncell: number;
  /** Most layers in one cell. */
  kmax: number;
  /** `select[f·kmax + L]`. */
  select: Uint8Array;
  /** Section offset of each stream's length varint, 8 entries. */
  streamAt: number[];
  /** Total bytes of each stream unit (length varint + zlib), 8 entries. */
  streamBytes: number[];
}

/**
 * Reads and checks the fixed part of a non-empty v3 payload; leaves `r` at the first stream.
 * Checks every count against the others before anything is allocated.
 */
export function readV3Header(r: ByteReader, ctx: TileContext, n: number): V3Header {
  const hminAt = r.pos;
  const hmin = r.f32();
  if (!Number.isFinite(hmin)) {
    // The encoder refuses non-finite heights; a NaN or ±Infinity base would turn every height
    // of the tile non-finite.
    throw tileError(
      ctx,
      "bad_value",
      `height base hmin is ${hmin}`,
      r.base + hminAt,
      "a finite f32",
    );
  }
  checkBound(hmin, HEIGHT, { ...ctx.where, offset: r.base + hminAt }, "tile header", "hmin");
  const at = r.pos;
  const regions = r.varint();
  const ncell = r.varint();
  const kmax = r.varint();
  const cellsInTile = ctx.nx * ctx.ny;
  const bad = (what: string, expected: string) =>
    tileError(ctx, "count_mismatch", what, r.base + at, expected);
  if (regions < 1 || regions > n) {
    throw bad(`region dictionary length ${regions}`, `1..${n} (at most one per record)`);
  }
  if (ncell < 1 || ncell > n || ncell > cellsInTile) {
    throw bad(`ncell ${ncell}`, `1..${Math.min(n, cellsInTile)} occupied cells`);
  }
  if (kmax < 1 || kmax > n || kmax * ncell < n) {
    throw bad(`kmax ${kmax} with ncell ${ncell} and n ${n}`, "1 ≤ kmax ≤ n ≤ kmax·ncell");
  }
  r.need(5 * kmax, "select bytes");
  const selAt = r.pos;
  const select = r.take(5 * kmax, "select bytes");
  for (let i = 0; i < select.length; i++) {
    const v = select[i];
    const layer0 = i % kmax === 0;
    if (v > 1 || (layer0 && v !== Predictor.Up)) {
      throw tileError(
        ctx,
        "bad_value",
        `select byte ${i} (field ${Math.floor(i / kmax)}, layer ${i % kmax}) is ${v}`,
        r.base + selAt + i,
        layer0 ? "0 (Up): layer 0 has no layer below" : "0 (Up) or 1 (Down)",
      );
    }
  }
  return { n, hmin, regions, ncell, kmax, select, streamAt: [], streamBytes: [] };
}

/**
 * A tile payload's record count (its first varint), which must equal the tile directory's: one
 * check for the full decode and the region-list read (format-notes.md, BGRD tile v3).
 */
function readRecordCount(r: ByteReader, ctx: TileContext): number {
  const n = r.varint();
  if (n !== ctx.records) {
    throw tileError(
      ctx,
      "count_mismatch",
      `tile payload holds ${n} records`,
      ctx.base,
      `${ctx.records} records as the tile directory says`,
    );
  }
  return n;
}

/**
 * Decodes a v3 tile payload into span columns (cell order, layers ascending within a cell).
 * `into` is reused when large enough; `scratch` holds the per-tile work buffers.
 */
export function decodeTileV3(
  payload: Uint8Array,
  ctx: TileContext,
  into?: SpanColumns,
  scratch: BgrdScratch = DEFAULT_SCRATCH,
): SpanColumns {
  const r = new ByteReader(payload, ctx.where, ctx.base);
  const n = readRecordCount(r, ctx);
  if (n === 0) {
    r.expectEnd("an empty tile's n = 0");
    return outputColumns(0, into);
  }
  const hd = readV3Header(r, ctx, n);
  const raw: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) {
    hd.streamAt.push(r.base + r.pos);
    raw.push(readStream(r, `stream ${i} (${V3_STREAM_NAMES[i]})`));
  }
  r.expectEnd("the eighth stream");
  const need = [hd.ncell, hd.ncell, hd.regions, n, n, n, n, n];
  for (let i = 0; i < 8; i++) {
    if (raw[i].length < need[i]) {
      throw streamShort(ctx, hd, i, need[i], raw[i].length);
    }
  }
  const s = scratch;
  s.ensure(n, hd.ncell, ctx.nx);
  decodeCells(raw[0], ctx, hd, s);
  decodeDepth(raw[1], ctx, hd, s);
  const dict = decodeDictionary(raw[2], ctx, hd, s);
  const layerStart = buildLayerOrder(s, hd.ncell, hd.kmax, ctx.nx);
  const out = outputColumns(n, into);
  fillCells(out, s, hd.ncell);
  // Flags first: the height step needs the Fill bit.
  decodeField(raw, ctx, hd, s, layerStart, V3Field.Flags);
  storeByteField(out.flags, s.vals, n, ctx, hd, V3Field.Flags);
  decodeField(raw, ctx, hd, s, layerStart, V3Field.Height);
  storeHeights(out, s.vals, hd.hmin, n);
  decodeField(raw, ctx, hd, s, layerStart, V3Field.RegionIdx);
  storeRegions(out.rid, s.vals, dict, n, ctx, hd);
  decodeField(raw, ctx, hd, s, layerStart, V3Field.Clr);
  storeClr(out.clr, s.vals, n, ctx, hd);
  decodeField(raw, ctx, hd, s, layerStart, V3Field.Steps);
  storeByteField(out.steps, s.vals, n, ctx, hd, V3Field.Steps);
  return out;
}

/**
 * The region dictionary of a v3 tile payload (stream 2: the distinct region ids its records
 * carry, apron included), read without inflating the other seven streams: the header is checked
 * as {@link decodeTileV3} checks it, streams 0 and 1 are stepped over by their length varints.
 * An empty tile has none. What a region's bounding box needs to know which tiles to decode
 * (src/plan/window/zone_state.ts); the records themselves are checked when a tile is decoded.
 */
export function readTileRegionsV3(
  payload: Uint8Array,
  ctx: TileContext,
  scratch: BgrdScratch = DEFAULT_SCRATCH,
): Uint32Array {
  const r = new ByteReader(payload, ctx.where, ctx.base);
  const n = readRecordCount(r, ctx);
  if (n === 0) return new Uint32Array(0);
  const hd = readV3Header(r, ctx, n);
  for (let i = 0; i < 2; i++) {
    hd.streamAt.push(r.base + r.pos);
    const len = r.varint();
    r.take(len, `stream ${i} (${V3_STREAM_NAMES[i]})`);
  }
  hd.streamAt.push(r.base + r.pos);
  const raw = readStream(r, `stream 2 (${V3_STREAM_NAMES[2]})`);
  if (raw.length < hd.regions) throw streamShort(ctx, hd, 2, hd.regions, raw.length);
  scratch.ensure(hd.regions, 0, 0);
  return decodeDictionary(raw, ctx, hd, scratch);
}

function streamShort(ctx: TileContext, hd: V3Header, i: number, count: number, size: number) {
  return tileError(
    ctx,
    "stream_length",
    `stream ${i} (${V3_STREAM_NAMES[i]}) ends after ${size} bytes, before its ${count} varints`,
    hd.streamAt[i],
    `${count} varints`,
  );
}

/** Reads `count` varints of stream i into `out`, requiring the stream to be used exactly. */
function readStreamVarints(
  buf: Uint8Array,
  count: number,
  out: Int32Array,
  ctx: TileContext,
  hd: V3Header,
  i: number,
  zigzag = false,
): void {
  const end = zigzag ? readZigzagVarints(buf, count, out) : readU32Varints(buf, count, out);
  if (end < 0) {
    throw tileError(
      ctx,
      "varint_overflow",
      `stream ${i} (${V3_STREAM_NAMES[i]}) holds a varint wider than 32 bits`,
      hd.streamAt[i],
      "varints of at most 32 bits",
    );
  }
  if (end > buf.length) throw streamShort(ctx, hd, i, count, buf.length);
  if (end < buf.length) {
    throw tileError(
      ctx,
      "stream_length",
      `stream ${i} (${V3_STREAM_NAMES[i]}) has ${buf.length - end} bytes left over after ` +
        `its ${count} varints`,
      hd.streamAt[i],
      `exactly ${end} bytes`,
    );
  }
}

function decodeCells(buf: Uint8Array, ctx: TileContext, hd: V3Header, s: BgrdScratch): void {
  const cells = s.cells;
  readStreamVarints(buf, hd.ncell, cells, ctx, hd, 0);
  const size = ctx.nx * ctx.ny;
  let c = -1;
  for (let k = 0; k < hd.ncell; k++) {
    const step = cells[k] >>> 0;
    if (k > 0 && step === 0) {
      throw tileError(
        ctx,
        "bad_value",
        `occupied cell ${k} repeats cell ${c}`,
        hd.streamAt[0],
        "cell indices strictly ascending (steps ≥ 1)",
      );
    }
    c = k === 0 ? step : c + step;
    if (c >= size) {
      throw tileError(
        ctx,
        "bad_value",
        `occupied cell ${k} has index ${c}, outside the ${ctx.nx}×${ctx.ny} tile`,
        hd.streamAt[0],
        `cell indices below ${size}`,
      );
    }
    cells[k] = c;
  }
}

function decodeDepth(buf: Uint8Array, ctx: TileContext, hd: V3Header, s: BgrdScratch): void {
  const depth = s.depth;
  readStreamVarints(buf, hd.ncell, depth, ctx, hd, 1);
  let sum = 0;
  let max = 0;
  for (let k = 0; k < hd.ncell; k++) {
    const d = depth[k] >>> 0;
    if (d < 1 || d > hd.kmax) {
      throw tileError(
        ctx,
        "count_mismatch",
        `cell ${s.cells[k]} has ${d} layers`,
        hd.streamAt[1],
        `1..${hd.kmax} (kmax)`,
      );
    }
    sum += d;
    if (d > max) max = d;
  }
  if (sum !== hd.n || max !== hd.kmax) {
    throw tileError(
      ctx,
      "count_mismatch",
      `depths sum to ${sum} records with at most ${max} layers`,
      hd.streamAt[1],
      `${hd.n} records (n) and ${hd.kmax} layers (kmax)`,
    );
  }
}

function decodeDictionary(
  buf: Uint8Array,
  ctx: TileContext,
  hd: V3Header,
  s: BgrdScratch,
): Uint32Array {
  // s.res is free here and holds at least n ≥ regions entries. Every entry is an absolute id
  // (a u32 varint: readStreamVarints rejects wider ones); no order is required.
  readStreamVarints(buf, hd.regions, s.res, ctx, hd, 2);
  const dict = new Uint32Array(hd.regions);
  for (let i = 0; i < hd.regions; i++) dict[i] = s.res[i] >>> 0;
  return dict;
}

function fillCells(out: SpanColumns, s: BgrdScratch, ncell: number): void {
  const { cells, depth } = s;
  const cell = out.cell;
  let r = 0;
  for (let k = 0; k < ncell; k++) {
    const c = cells[k];
    const d = depth[k];
    if (d === 1) cell[r++] = c;
    else {
      for (let L = 0; L < d; L++) cell[r++] = c;
    }
  }
}

function decodeField(
  raw: Uint8Array[],
  ctx: TileContext,
  hd: V3Header,
  s: BgrdScratch,
  layerStart: Int32Array,
  f: number,
): void {
  readStreamVarints(raw[3 + f], hd.n, s.res, ctx, hd, 3 + f, true);
  applyPredictors(s, layerStart, hd.select, f * hd.kmax, ctx.nx);
}

function rangeError(
  vals: Int32Array,
  n: number,
  max: number,
  ctx: TileContext,
  hd: V3Header,
  f: number,
  label: string,
) {
  let r = 0;
  while (r < n && vals[r] >= 0 && vals[r] <= max) r++;
  return tileError(
    ctx,
    "bad_value",
    `${label} of record ${r} decodes to ${vals[r]}`,
    hd.streamAt[3 + f],
    `0..${max}`,
  );
}

function storeByteField(
  out: Uint8Array,
  vals: Int32Array,
  n: number,
  ctx: TileContext,
  hd: V3Header,
  f: number,
): void {
  let bad = 0;
  for (let r = 0; r < n; r++) {
    const v = vals[r];
    bad |= v;
    out[r] = v;
  }
  if (bad & ~0xff) {
    throw rangeError(vals, n, 0xff, ctx, hd, f, f === V3Field.Flags ? "flags" : "steps");
  }
}

function storeClr(
  out: Uint16Array,
  vals: Int32Array,
  n: number,
  ctx: TileContext,
  hd: V3Header,
): void {
  let bad = 0;
  for (let r = 0; r < n; r++) {
    const v = vals[r];
    bad |= v;
    out[r] = v;
  }
  if (bad & ~0xffff) throw rangeError(vals, n, 0xffff, ctx, hd, V3Field.Clr, "clr");
}

function storeRegions(
  out: Uint32Array,
  vals: Int32Array,
  dict: Uint32Array,
  n: number,
  ctx: TileContext,
  hd: V3Header,
): void {
  const m = dict.length;
  for (let r = 0; r < n; r++) {
    const i = vals[r];
    if (i >>> 0 >= m) {
      throw tileError(
        ctx,
        "bad_value",
        `region index of record ${r} decodes to ${i}`,
        hd.streamAt[3 + V3Field.RegionIdx],
        `an index below the dictionary length ${m}`,
      );
    }
    out[r] = dict[i];
  }
}

function storeHeights(out: SpanColumns, hq: Int32Array, hmin: number, n: number): void {
  const h = out.h;
  const flags = out.flags;
  // formulas.md 格图段 #11: h = f32(double(hmin) + double(q)/64); the Float32Array store is
  // the f32 rounding. Fill records read back as 0. hmin is finite (readV3Header) and
  // |q/64| < 2^26, far below the 2^103 that would round the largest f32 up to Infinity, so
  // every height is finite.
  for (let r = 0; r < n; r++) {
    h[r] = flags[r] & SpanFlag.Fill ? 0 : hmin + hq[r] / 64;
  }
}

// ---------------------------------------------------------------------------------------------
// Encoder

/**
 * Encodes span columns as a v3 tile payload. Records must be sorted by cell and lie inside the
 * `nx × ny` window. Each (field, layer ≥ 1) predictor is chosen by compressing that layer's
 * residuals both ways (Down only when strictly smaller); the resulting field stream is then
 * compared with the all-Up stream and the smaller kept (all-Up on a tie), so the choice is
 * never larger than all-Up. Deterministic: same columns, same bytes.
 */
export function encodeTileV3(
  spans: SpanColumns,
  nx: number,
  ny: number,
  where: ErrorLocation = { section: "BGRD" },
  opts: V3EncodeOptions = {},
): Uint8Array {
  const n = spans.n;
  if (n === 0) return new Uint8Array([0]);
  const g = groupCells(spans, nx, ny, where);
  const hmin = tileHmin(spans, where);
  const hq = quantHeights(spans, hmin, where);
  const { dict, idx } = regionDictionary(spans);
  const s = ENC.scratch;
  s.ensure(n, g.ncell, nx);
  s.cells.set(g.cells.subarray(0, g.ncell));
  s.depth.set(g.depth.subarray(0, g.ncell));
  const layerStart = buildLayerOrder(s, g.ncell, g.kmax, nx);
  const fields: Int32Array[] = [
    hq,
    idx,
    Int32Array.from(spans.clr.subarray(0, n)),
    Int32Array.from(spans.flags.subarray(0, n)),
    Int32Array.from(spans.steps.subarray(0, n)),
  ];
  const select = new Uint8Array(V3_FIELDS * g.kmax);
  const streams: Uint8Array[] = [
    deflate(varintsInto(g.cells, g.ncell, true)),
    deflate(varintsInto(g.depth, g.ncell, false)),
    deflate(varintsInto(dict, dict.length, false)),
  ];
  for (let f = 0; f < V3_FIELDS; f++) {
    const chosen = opts.allUp
      ? { select: new Uint8Array(g.kmax), z: deflate(allUpBytes(s, layerStart, fields[f], nx)) }
      : chooseField(s, layerStart, fields[f], nx);
    select.set(chosen.select, f * g.kmax);
    streams.push(chosen.z);
  }
  const w = new ByteWriter(1024);
  w.varint(n).f32(hmin).varint(dict.length).varint(g.ncell).varint(g.kmax);
  w.bytes(select);
  for (const z of streams) w.varint(z.length).bytes(z);
  return w.finish();
}

/** Options of {@link encodeTileV3}. */
export interface V3EncodeOptions {
  /** Use Up for every (field, layer) instead of choosing (a baseline for tests and benches). */
  allUp?: boolean;
}

function allUpBytes(s: BgrdScratch, layerStart: Int32Array, vals: Int32Array, nx: number) {
  const kmax = layerStart.length - 1;
  const tmp = encF64(layerStart[1]);
  const parts: Uint8Array[] = [];
  for (let L = 0; L < kmax; L++) {
    const cnt = layerResiduals(s, layerStart, L, Predictor.Up, vals, nx, tmp);
    parts.push(zigzagInto(tmp, cnt).slice());
  }
  return concatBytes(parts);
}

/**
 * Buffers reused by every {@link encodeTileV3} call: the encoder is synchronous, so no two calls
 * share them, and each buffer is written before it is read within a call. Reusing them keeps a
 * bake's assembly from piling up tens of MB of short-lived arrays per tile (peak RSS).
 */
const ENC = {
  scratch: new BgrdScratch(),
  f64: new Float64Array(0),
  bytes: new Uint8Array(0),
};

function encF64(n: number): Float64Array {
  if (ENC.f64.length < n) ENC.f64 = new Float64Array(Math.max(64, Math.ceil(n * 1.25)));
  return ENC.f64;
}

function encBytes(n: number): Uint8Array {
  if (ENC.bytes.length < n) ENC.bytes = new Uint8Array(Math.max(64, Math.ceil(n * 1.25)));
  return ENC.bytes;
}

/**
 * LEB128 bytes of `count` values — with `diff`, of the first value and then the step to each
 * next one (cell indices, ascending) — into the shared byte buffer: the same bytes as
 * `varintBytes`, valid until the next call.
 */
function varintsInto(a: ArrayLike<number>, count: number, diff: boolean): Uint8Array {
  const out = encBytes(count * 5 + 8);
  return out.subarray(0, writeVarints(a, count, out, diff));
}

/** Zigzag LEB128 bytes of `count` residuals in the shared byte buffer (valid until the next call). */
function zigzagInto(res: Float64Array, count: number): Uint8Array {
  const out = encBytes(count * 5 + 8);
  return out.subarray(0, writeZigzagVarints(res, count, out));
}

/** Picks one field's predictors and returns them with the compressed stream. */
function chooseField(
  s: BgrdScratch,
  layerStart: Int32Array,
  vals: Int32Array,
  nx: number,
): { select: Uint8Array; z: Uint8Array } {
  const kmax = layerStart.length - 1;
  const tmp = encF64(layerStart[1]);
  const select = new Uint8Array(kmax);
  const upParts: Uint8Array[] = [];
  const chosenParts: Uint8Array[] = [];
  for (let L = 0; L < kmax; L++) {
    const cnt = layerResiduals(s, layerStart, L, Predictor.Up, vals, nx, tmp);
    const up = zigzagInto(tmp, cnt).slice();
    upParts.push(up);
    if (L === 0) {
      chosenParts.push(up);
      continue;
    }
    layerResiduals(s, layerStart, L, Predictor.Down, vals, nx, tmp);
    const down = zigzagInto(tmp, cnt).slice();
    if (!sameBytes(up, down) && deflate(down).length < deflate(up).length) {
      select[L] = Predictor.Down;
      chosenParts.push(down);
    } else chosenParts.push(up);
  }
  const zUp = deflate(concatBytes(upParts));
  if (select.every((v) => v === Predictor.Up)) return { select, z: zUp };
  const zChosen = deflate(concatBytes(chosenParts));
  if (zUp.length <= zChosen.length) return { select: new Uint8Array(kmax), z: zUp };
  return { select, z: zChosen };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
