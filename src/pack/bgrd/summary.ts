/**
 * BGRD summary for `inspect`: per zone the tiles, records and compressed bytes per record of
 * each field, laid out like the spec's table (格图段: 高度, 净空, flags, 层数, 禁步位, 格号,
 * 类号下标), plus the share of zero residuals when asked (that needs inflating the streams).
 * @module
 */
import { ByteReader, inflateExact, varintSize } from "../../codec/mod.ts";
import { type BgrdSection, bgrdTilePayload } from "./section.ts";
import { type TileContext, withVarintExpectation } from "./tile_common.ts";
import { readV3Header } from "./tile_v3.ts";

/** Compressed bytes per part of a v3 tile (stream units include their length varint). */
export interface BgrdFieldBytes {
  /** Stream 3: height_q residuals. */
  height: number;
  /** Stream 5: clearance residuals. */
  clr: number;
  /** Stream 6: flags residuals. */
  flags: number;
  /** Stream 1: layers per cell. */
  depth: number;
  /** Stream 7: step-ban residuals. */
  steps: number;
  /** Stream 0: cell steps. */
  cell: number;
  /** Stream 4: region index residuals. */
  regionIdx: number;
  /** Stream 2: region dictionary. */
  regionDict: number;
  /** n, hmin, regions, ncell, kmax and the select bytes (v3); the whole blob for v2 tiles. */
  fixed: number;
  /** Everything. */
  total: number;
}

/** Share of zero residuals per predicted field (0..1), when computed. */
export interface BgrdZeroShare {
  /** height_q. */
  height: number;
  /** clr. */
  clr: number;
  /** flags. */
  flags: number;
  /** steps. */
  steps: number;
  /** region index. */
  regionIdx: number;
}

/** Summary of one zone. */
export interface BgrdZoneSummary {
  /** Zone name. */
  name: string;
  /** Tiles in the directory. */
  tiles: number;
  /** Tiles with no records. */
  emptyTiles: number;
  /** Records, apron duplicates included. */
  records: number;
  /** Occupied cells (v3 only; 0 for v2). */
  cells: number;
  /** Most layers in a cell over all tiles (v3 only). */
  kmax: number;
  /** Compressed bytes per part. */
  bytes: BgrdFieldBytes;
  /** `bytes / records` per part (0 when the zone has no records). */
  bytesPerRecord: BgrdFieldBytes;
  /** Zero-residual shares (only with `zeroResiduals`). */
  zeroShare?: BgrdZeroShare;
}

/** Summary of a section. */
export interface BgrdSummary {
  /** 2 or 3. */
  version: number;
  /** Cell side, px. */
  cellSize: number;
  /** Tile side, px. */
  tilePx: number;
  /** Apron width, px. */
  apronPx: number;
  /** Section size in bytes. */
  sectionBytes: number;
  /** Per zone. */
  zones: BgrdZoneSummary[];
  /** All zones together (name `*`). */
  total: BgrdZoneSummary;
}

/** Options of {@link summarizeBgrd}. */
export interface BgrdSummaryOptions {
  /** Inflate the residual streams and count zero residuals (slower). */
  zeroResiduals?: boolean;
}

const PARTS = [
  "cell",
  "depth",
  "regionDict",
  "height",
  "regionIdx",
  "clr",
  "flags",
  "steps",
] as const;

function emptyBytes(): BgrdFieldBytes {
  return {
    height: 0,
    clr: 0,
    flags: 0,
    depth: 0,
    steps: 0,
    cell: 0,
    regionIdx: 0,
    regionDict: 0,
    fixed: 0,
    total: 0,
  };
}

/**
 * Walks every tile's fixed part and stream lengths (no inflating unless `zeroResiduals`), and
 * adds them up per zone. Corrupt tiles throw the same NavscopeErrors as decoding.
 */
export function summarizeBgrd(section: BgrdSection, opts: BgrdSummaryOptions = {}): BgrdSummary {
  const zones = section.zones.map((z, zi) => {
    const acc = newAcc(z.name);
    z.tiles.forEach((t, ti) => {
      acc.s.tiles++;
      if (t.records === 0) acc.s.emptyTiles++;
      acc.s.records += t.records;
      const payload = bgrdTilePayload(section, zi, ti);
      const ctx: TileContext = {
        nx: t.nx,
        ny: t.ny,
        records: t.records,
        where: { section: "BGRD", zone: z.name, tile: ti },
        base: t.offset,
      };
      if (section.version === 2 || t.len === 0) {
        acc.s.bytes.fixed += payload.length;
      } else {
        withVarintExpectation(() => addV3Tile(acc, payload, ctx, opts));
      }
    });
    return finish(acc);
  });
  const all = newAcc("total");
  for (const z of zones) merge(all, z);
  return {
    version: section.version,
    cellSize: section.cellSize,
    tilePx: section.tilePx,
    apronPx: section.apronPx,
    sectionBytes: section.bytes.length,
    zones,
    total: finish(all),
  };
}

interface Acc {
  s: BgrdZoneSummary;
  zeros: number[];
  zeroOn: boolean;
}

function newAcc(name: string): Acc {
  return {
    s: {
      name,
      tiles: 0,
      emptyTiles: 0,
      records: 0,
      cells: 0,
      kmax: 0,
      bytes: emptyBytes(),
      bytesPerRecord: emptyBytes(),
    },
    zeros: [0, 0, 0, 0, 0],
    zeroOn: false,
  };
}

function addV3Tile(acc: Acc, payload: Uint8Array, ctx: TileContext, opts: BgrdSummaryOptions) {
  const r = new ByteReader(payload, ctx.where, ctx.base);
  const n = r.varint();
  if (n === 0) {
    acc.s.bytes.fixed += payload.length;
    return;
  }
  const hd = readV3Header(r, ctx, n);
  acc.s.bytes.fixed += r.pos;
  acc.s.cells += hd.ncell;
  acc.s.kmax = Math.max(acc.s.kmax, hd.kmax);
  for (let i = 0; i < 8; i++) {
    const at = r.pos;
    const len = r.varint();
    const blob = r.take(len, `stream ${i}`);
    acc.s.bytes[PARTS[i]] += varintSize(len) + len;
    if (opts.zeroResiduals && i >= 3) {
      acc.zeroOn = true;
      acc.zeros[i - 3] += countZeroVarints(inflateExact(blob, r, at + varintSize(len)));
    }
  }
  r.expectEnd("the eighth stream");
}

/** Varints whose value is 0 (a 0x00 byte that starts a varint). */
function countZeroVarints(buf: Uint8Array): number {
  let zeros = 0;
  let start = true;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (start && b === 0) zeros++;
    start = b < 0x80;
  }
  return zeros;
}

function merge(into: Acc, z: BgrdZoneSummary): void {
  const s = into.s;
  s.tiles += z.tiles;
  s.emptyTiles += z.emptyTiles;
  s.records += z.records;
  s.cells += z.cells;
  s.kmax = Math.max(s.kmax, z.kmax);
  for (const k of Object.keys(s.bytes) as (keyof BgrdFieldBytes)[]) s.bytes[k] += z.bytes[k];
  if (z.zeroShare) {
    into.zeroOn = true;
    const zs = z.zeroShare;
    [zs.height, zs.regionIdx, zs.clr, zs.flags, zs.steps].forEach((v, i) => {
      into.zeros[i] += v * z.records;
    });
  }
}

function finish(acc: Acc): BgrdZoneSummary {
  const s = acc.s;
  const b = s.bytes;
  b.total = 0;
  for (const k of Object.keys(b) as (keyof BgrdFieldBytes)[]) if (k !== "total") b.total += b[k];
  for (const k of Object.keys(b) as (keyof BgrdFieldBytes)[]) {
    s.bytesPerRecord[k] = s.records ? b[k] / s.records : 0;
  }
  if (acc.zeroOn) {
    const f = (i: number) => (s.records ? acc.zeros[i] / s.records : 0);
    s.zeroShare = { height: f(0), regionIdx: f(1), clr: f(2), flags: f(3), steps: f(4) };
  }
  return s;
}

/** Column headings of {@link bgrdSummaryRows}. */
export const BGRD_SUMMARY_HEADINGS = [
  "zone",
  "tiles",
  "empty",
  "records",
  "kmax",
  "B/rec",
  "height",
  "clr",
  "flags",
  "depth",
  "steps",
  "cell",
  "region idx",
] as const;

/**
 * Table rows for `inspect` (one per zone, then the total): counts and compressed bytes per
 * record per field, in the order of the spec's table, 3 decimals.
 */
export function bgrdSummaryRows(summary: BgrdSummary): string[][] {
  const rows = [...summary.zones, summary.total].map((z) => {
    const b = z.bytesPerRecord;
    return [
      z.name,
      String(z.tiles),
      String(z.emptyTiles),
      String(z.records),
      String(z.kmax),
      ...[b.total, b.height, b.clr, b.flags, b.depth, b.steps, b.cell, b.regionIdx].map((v) =>
        v.toFixed(3)
      ),
    ];
  });
  return rows;
}
