/**
 * BGRD grid section: header, per-zone tile directory, tile decode and whole-section encode
 * (spec 数据包 › 格图段; format-notes "BGRD section").
 *
 * ```
 * header (40 B)  "BGRD", u32 version (3, or columnar 2), f64 cell size (= kCS = 0.25),
 *                f64 tile_px (128), f64 apron_px (16), u32 zone count, u32 reserved
 * per zone       u32 name length, name padded to 4 B, f64 x0, f64 y0,
 *                u32 global_regions, u32 tile count, then 48 B per tile:
 *                i32 gx0, gy0, nx, ny; i32 px0, px1, py0, py1 (owned, tile-local, inclusive);
 *                u64 offset (from the section start), u32 len, u32 records
 * payloads       one per tile, in directory order (the encoder's layout; the decoder only
 *                follows the offsets)
 * ```
 * A tile owns 512 × 512 cells (128 px) and carries a 64-cell (16 px) apron on every side: its
 * window is 641 × 641 cells (cell centres: one more than cell edges). Owned rectangles do not
 * overlap and tile the zone; apron records repeat the neighbours' and are dropped when windows
 * are stitched.
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/mod.ts";
import { escapeControls, nameFault, PLAUSIBLE_NAME } from "../../codec/json_strict.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, COORD_PX, firstOutside, HEIGHT } from "../bounds.ts";
import { K_CS, type SpanColumns } from "../grid_types.ts";
import type { BgrdScratch } from "./streams.ts";
import { outputColumns, type TileContext, withVarintExpectation } from "./tile_common.ts";
import { decodeTileV2, encodeTileV2 } from "./tile_v2.ts";
import { decodeTileV3, encodeTileV3, readTileRegionsV3 } from "./tile_v3.ts";

/** Section tag. */
export const BGRD_TAG = "BGRD";
/** Header size in bytes. */
export const BGRD_HEADER_SIZE = 40;
/** Tile directory entry size in bytes. */
export const BGRD_TILE_ENTRY_SIZE = 48;
/** Tile side in px. */
export const BGRD_TILE_PX = 128;
/** Apron width in px. */
export const BGRD_APRON_PX = 16;
/** Owned cells per tile side (128 px / 0.25). */
export const BGRD_TILE_CELLS = 512;
/** Apron cells per side (16 px / 0.25). */
export const BGRD_APRON_CELLS = 64;
/** Window side in cells: 512 + 2·64 + 1. */
export const BGRD_WINDOW_CELLS = BGRD_TILE_CELLS + 2 * BGRD_APRON_CELLS + 1;
/** Largest window the decoder accepts (cells); a sanity bound against corrupt sizes. */
export const BGRD_MAX_TILE_CELLS = 1 << 28;

/** Geometry of one tile: its window on the global cell grid and the rectangle it owns. */
export interface BgrdTileGeometry {
  /** Window origin, global cells. */
  gx0: number;
  /** Window origin, global cells. */
  gy0: number;
  /** Window width in cells. */
  nx: number;
  /** Window height in cells. */
  ny: number;
  /** Owned rectangle, tile-local cells, inclusive. */
  px0: number;
  /** Owned rectangle, inclusive. */
  px1: number;
  /** Owned rectangle, inclusive. */
  py0: number;
  /** Owned rectangle, inclusive. */
  py1: number;
}

/** One tile directory entry. */
export interface BgrdTileEntry extends BgrdTileGeometry {
  /** Payload offset from the section start. */
  offset: number;
  /** Payload length in bytes. */
  len: number;
  /** Record count. */
  records: number;
}

/** One zone's directory. */
export interface BgrdZoneEntry {
  /** Zone name. */
  name: string;
  /** Zone origin, px. */
  x0: number;
  /** Zone origin, px. */
  y0: number;
  /** Number of regions in the whole zone. */
  globalRegions: number;
  /** Tiles in directory order. */
  tiles: BgrdTileEntry[];
  /** Sum of the tiles' record counts (apron duplicates included). */
  records: number;
}

/** A parsed BGRD section: header, directory and the raw bytes the tiles decode from. */
export interface BgrdSection {
  /** The section bytes, starting with the tag (kept, never copied). */
  bytes: Uint8Array;
  /** 2 (columnar) or 3. */
  version: 2 | 3;
  /** Cell side, px (0.25). */
  cellSize: number;
  /** Tile side, px. */
  tilePx: number;
  /** Apron width, px. */
  apronPx: number;
  /** Zones in directory order. */
  zones: BgrdZoneEntry[];
  /** Byte offset where the directory ends (payloads start at or after it). */
  directoryEnd: number;
  /**
   * Location facts given to {@link parseBgrd} (the file name, …): tile-decode errors carry
   * them too, so an error met long after parsing still names the file.
   */
  where?: ErrorLocation;
}

const SECTION = "BGRD";

/**
 * Parses the header and tile directory, checking every count, size and offset; tile payloads
 * are decoded later, one at a time, by {@link decodeBgrdTile}. `where` adds facts such as the
 * file name to every error.
 */
export function parseBgrd(bytes: Uint8Array, where: ErrorLocation = {}): BgrdSection {
  const loc = { ...where, section: SECTION };
  const r = new ByteReader(bytes, loc);
  if (bytes.length < BGRD_HEADER_SIZE) {
    throw r.error("truncated", `section is ${bytes.length} bytes`, "a 40-byte header", 0);
  }
  const tag = r.tag();
  if (tag !== BGRD_TAG) throw r.error("bad_magic", `tag ${JSON.stringify(tag)}`, '"BGRD"', 0);
  const version = r.u32();
  if (version !== 2 && version !== 3) {
    throw r.error("bad_version", `version ${version}`, "2 or 3", 4);
  }
  const cellSize = r.f64();
  // formulas.md 格图段 #8 [R]: |cs − 0.25| ≤ 1e-12, otherwise the section is rejected.
  if (!(Math.abs(cellSize - K_CS) <= 1e-12)) {
    throw r.error("bad_value", `cell size ${cellSize}`, `${K_CS} (kCS)`, 8);
  }
  const tilePx = r.f64();
  const apronPx = r.f64();
  // Spec 格图段: every tile owns 512 × 512 cells (128 px) with a 64-cell (16 px) apron; the
  // decoder and the planner rely on both (issue 27: a subnormal tile_px or a 0 apron loaded).
  if (tilePx !== BGRD_TILE_PX || apronPx !== BGRD_APRON_PX) {
    throw r.error(
      "bad_value",
      `tile_px ${tilePx}, apron_px ${apronPx}`,
      `${BGRD_TILE_PX} and ${BGRD_APRON_PX} px (spec 格图段)`,
      16,
    );
  }
  const zoneCount = r.u32();
  r.u32(); // reserved
  const zones: BgrdZoneEntry[] = [];
  const entryAt: number[][] = [];
  for (let z = 0; z < zoneCount; z++) {
    entryAt.push([]);
    zones.push(readZone(r, loc, z, entryAt[z]));
  }
  const section: BgrdSection = {
    bytes,
    version,
    cellSize,
    tilePx,
    apronPx,
    zones,
    directoryEnd: r.pos,
    where: { ...where },
  };
  checkOffsets(section, loc, entryAt);
  zones.forEach((z, zi) => checkOwnedDisjoint(z, { ...loc, zone: z.name }, entryAt[zi]));
  return section;
}

/**
 * Owned rectangles of one zone's tiles do not overlap (spec 格图段: 各瓦负责的矩形互不重叠); two
 * tiles owning a cell would give it two record sets. Sorted sweep over the rows.
 */
function checkOwnedDisjoint(z: BgrdZoneEntry, where: ErrorLocation, entryAt: number[]): void {
  const r = z.tiles.map((t, i) => ({
    i,
    x0: t.gx0 + t.px0,
    x1: t.gx0 + t.px1,
    y0: t.gy0 + t.py0,
    y1: t.gy0 + t.py1,
  })).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  for (let a = 0; a < r.length; a++) {
    for (let b = a + 1; b < r.length && r[b].y0 <= r[a].y1; b++) {
      if (r[b].x0 <= r[a].x1 && r[a].x0 <= r[b].x1) {
        const [p, q] = r[a].i < r[b].i ? [r[a], r[b]] : [r[b], r[a]];
        throw new NavscopeError(
          "bad_value",
          `tile ${q.i}'s owned cells ${q.x0}..${q.x1} × ${q.y0}..${q.y1} overlap tile ${p.i}'s ` +
            `${p.x0}..${p.x1} × ${p.y0}..${p.y1}`,
          { ...where, tile: q.i, offset: entryAt[q.i] + 16 },
          "owned rectangles that do not overlap (spec 格图段)",
        );
      }
    }
  }
}

function readZone(
  r: ByteReader,
  loc: ErrorLocation,
  z: number,
  entryAt: number[],
): BgrdZoneEntry {
  const zr = new ByteReader(r.bytes, { ...loc, zone: z }, 0, r.pos);
  const nameLen = zr.u32();
  const nameAt = zr.pos;
  const nameBytes = zr.take(nameLen, "zone name");
  const padAt = zr.pos;
  const pad = zr.take(pad4(nameLen) - nameLen, "zone name padding");
  let name: string;
  try {
    name = UTF8.decode(nameBytes);
  } catch {
    throw zr.error("bad_value", `zone ${z} name is not valid UTF-8`, "UTF-8 text", nameAt);
  }
  // The grid's zones are the zone table's, which holds only plausible names (bnav/zones.ts).
  const fault = nameFault(name);
  if (fault) {
    throw zr.error(
      "bad_value",
      `zone ${z} name "${escapeControls(name)}" is not a zone name: ${fault}`,
      PLAUSIBLE_NAME,
      nameAt,
    );
  }
  if (pad.some((b) => b !== 0)) {
    throw zr.error("bad_value", `zone ${name} name padding is not zero`, "zero bytes", padAt);
  }
  const named = new ByteReader(r.bytes, { ...loc, zone: name || z }, 0, zr.pos);
  const originAt = named.pos;
  const x0 = named.f64();
  const y0 = named.f64();
  if (!Number.isFinite(x0) || !Number.isFinite(y0)) {
    throw named.error("bad_value", `zone origin ${x0}, ${y0}`, "a finite origin (px)", originAt);
  }
  const at = (off: number) => ({ ...named.where, offset: originAt + off });
  checkBound(x0, COORD_PX, at(0), `zone ${name}`, "origin x0");
  checkBound(y0, COORD_PX, at(8), `zone ${name}`, "origin y0");
  const globalRegions = named.u32();
  const tileAt = named.pos;
  const tileCount = named.u32();
  if (tileCount * BGRD_TILE_ENTRY_SIZE > named.remaining) {
    throw named.error(
      "truncated",
      `zone declares ${tileCount} tiles but only ${named.remaining} directory bytes remain`,
      `${tileCount * BGRD_TILE_ENTRY_SIZE} bytes`,
      tileAt,
    );
  }
  const tiles: BgrdTileEntry[] = [];
  let records = 0;
  for (let t = 0; t < tileCount; t++) {
    const at = named.pos;
    entryAt.push(at);
    const e = readTileEntry(named);
    checkBgrdTileGeometry(e, { ...named.where, tile: t, offset: at });
    if (e.records > 0 && e.len === 0) {
      throw new NavscopeError(
        "count_mismatch",
        `tile holds ${e.records} records in a 0-byte payload`,
        { ...named.where, tile: t, offset: at + 40 },
        "a payload length > 0",
      );
    }
    records += e.records;
    tiles.push(e);
  }
  r.pos = named.pos;
  return { name, x0, y0, globalRegions, tiles, records };
}

function readTileEntry(r: ByteReader): BgrdTileEntry {
  const gx0 = r.i32();
  const gy0 = r.i32();
  const nx = r.i32();
  const ny = r.i32();
  const px0 = r.i32();
  const px1 = r.i32();
  const py0 = r.i32();
  const py1 = r.i32();
  const offset = r.u64();
  const len = r.u32();
  const records = r.u32();
  return { gx0, gy0, nx, ny, px0, px1, py0, py1, offset, len, records };
}

/** Checks a tile's window size and owned rectangle (shared by the parser and the encoder). */
export function checkBgrdTileGeometry(g: BgrdTileGeometry, where: ErrorLocation): void {
  if (!(g.nx >= 1 && g.ny >= 1 && g.nx * g.ny <= BGRD_MAX_TILE_CELLS)) {
    throw new NavscopeError(
      "bad_value",
      `tile window ${g.nx}×${g.ny} cells`,
      where,
      `1 ≤ nx, ny and nx·ny ≤ 2^28`,
    );
  }
  if (
    !(0 <= g.px0 && g.px0 <= g.px1 && g.px1 < g.nx && 0 <= g.py0 && g.py0 <= g.py1 &&
      g.py1 < g.ny)
  ) {
    throw new NavscopeError(
      "bad_value",
      `owned rectangle x ${g.px0}..${g.px1}, y ${g.py0}..${g.py1}`,
      where,
      `inside the ${g.nx}×${g.ny} window with px0 ≤ px1, py0 ≤ py1`,
    );
  }
}

function checkOffsets(s: BgrdSection, loc: ErrorLocation, entryAt: number[][]): void {
  checkPayloadsInside(s, loc, entryAt);
  checkPayloadCover(s, loc, entryAt);
}

function checkPayloadsInside(s: BgrdSection, loc: ErrorLocation, entryAt: number[][]): void {
  s.zones.forEach((z, zi) => {
    z.tiles.forEach((t, i) => {
      if (t.len === 0) return;
      if (t.offset < s.directoryEnd || t.offset + t.len > s.bytes.length) {
        throw new NavscopeError(
          "offset_out_of_range",
          `tile payload at ${t.offset}, ${t.len} bytes`,
          { ...loc, zone: z.name, tile: i, offset: entryAt[zi][i] + 32 },
          `a payload inside ${s.directoryEnd}..${s.bytes.length} (after the directory)`,
        );
      }
    });
  });
}

/**
 * Every byte after the directory belongs to exactly one tile payload (issue 27): the payloads
 * follow the directory back to back, as the writer lays them out (spec 格图段: the directory
 * points at each tile's bytes). Bytes no tile owns mean the directory lost entries — a zone count
 * cut by one drops that zone's grid silently — and two tiles sharing bytes mean a damaged offset.
 */
function checkPayloadCover(s: BgrdSection, loc: ErrorLocation, entryAt: number[][]): void {
  const parts: { at: number; end: number; zone: number; tile: number }[] = [];
  s.zones.forEach((z, zi) =>
    z.tiles.forEach((t, i) => {
      if (t.len > 0) parts.push({ at: t.offset, end: t.offset + t.len, zone: zi, tile: i });
    })
  );
  parts.sort((a, b) => a.at - b.at || a.end - b.end);
  let pos = s.directoryEnd;
  for (const p of parts) {
    if (p.at !== pos) {
      const z = s.zones[p.zone];
      const where = { ...loc, zone: z.name, tile: p.tile, offset: entryAt[p.zone][p.tile] + 32 };
      if (p.at < pos) {
        throw new NavscopeError(
          "offset_out_of_range",
          `tile payload at ${p.at} (${p.end - p.at} bytes) overlaps the bytes before ${pos}`,
          where,
          "payloads that do not share bytes",
        );
      }
      throw new NavscopeError(
        "stream_length",
        `${p.at - pos} bytes at [${pos}, ${p.at}) belong to no tile (orphaned bytes: a directory ` +
          "entry lost?)",
        { ...loc, offset: pos },
        "tile payloads back to back after the directory",
      );
    }
    pos = p.end;
  }
  if (pos !== s.bytes.length) {
    throw new NavscopeError(
      "stream_length",
      `${s.bytes.length - pos} bytes at [${pos}, ${s.bytes.length}) after the last tile payload ` +
        "belong to no tile (orphaned bytes: a zone or tile entry lost?)",
      { ...loc, offset: pos },
      "the section to end with its last tile payload",
    );
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function pad4(n: number): number {
  return (n + 3) & ~3;
}

/** Index of the zone with this name, or −1. */
export function findBgrdZone(section: BgrdSection, name: string): number {
  return section.zones.findIndex((z) => z.name === name);
}

/** The raw payload bytes of one tile (a view into the section). */
export function bgrdTilePayload(section: BgrdSection, zone: number, tile: number): Uint8Array {
  const t = section.zones[zone].tiles[tile];
  return section.bytes.subarray(t.offset, t.offset + t.len);
}

/**
 * Decodes one tile into span columns: cell order, layers ascending, apron included (cells are
 * tile-local `y·nx + x`). `into` is reused when large enough, `scratch` holds the work buffers;
 * pass one scratch per worker when decoding in parallel.
 */
export function decodeBgrdTile(
  section: BgrdSection,
  zone: number,
  tile: number,
  into?: SpanColumns,
  scratch?: BgrdScratch,
): SpanColumns {
  const z = section.zones[zone];
  const t = z?.tiles[tile];
  if (!t) {
    throw new NavscopeError(
      "bad_value",
      `no tile ${tile} in zone ${zone}`,
      { ...section.where, section: SECTION, zone: z?.name ?? zone, tile },
    );
  }
  const ctx: TileContext = {
    nx: t.nx,
    ny: t.ny,
    records: t.records,
    where: { ...section.where, section: SECTION, zone: z.name, tile },
    base: t.offset,
  };
  if (t.len === 0) return outputColumns(0, into);
  const payload = bgrdTilePayload(section, zone, tile);
  const out = withVarintExpectation(() =>
    section.version === 3
      ? decodeTileV3(payload, ctx, into, scratch)
      : decodeTileV2(payload, ctx, into)
  );
  checkTileHeights(out, ctx.where);
  return out;
}

/**
 * The region ids a tile's records carry (its region dictionary, apron included), or null for a
 * v2 section (no dictionary apart from the records: decode the tile). Only the header and the
 * dictionary stream are read and checked (tile_v3.ts readTileRegionsV3).
 */
export function bgrdTileRegions(
  section: BgrdSection,
  zone: number,
  tile: number,
): Uint32Array | null {
  if (section.version !== 3) return null;
  const z = section.zones[zone];
  const t = z.tiles[tile];
  if (t.len === 0) return new Uint32Array(0);
  const ctx: TileContext = {
    nx: t.nx,
    ny: t.ny,
    records: t.records,
    where: { ...section.where, section: SECTION, zone: z.name, tile },
    base: t.offset,
  };
  const payload = bgrdTilePayload(section, zone, tile);
  return withVarintExpectation(() => readTileRegionsV3(payload, ctx));
}

/**
 * Every record height within the height bound (issue 55): the tile's hmin is checked where it
 * is read, this catches a plausible hmin with a runaway `hq` (h = f32(hmin + hq/64)). Fill
 * records carry h = 0. One compare per record.
 */
function checkTileHeights(s: SpanColumns, where: ErrorLocation): void {
  const i = firstOutside(s.h, HEIGHT, 0, s.n);
  if (i >= 0) checkBound(s.h[i], HEIGHT, where, `record ${i}`, "h");
}

// ---------------------------------------------------------------------------------------------
// Encoder

/** One tile to encode: its geometry and records. */
export interface BgrdTileInput extends BgrdTileGeometry {
  /** Records in cell order, layers ascending within a cell. */
  spans: SpanColumns;
}

/** One zone to encode. */
export interface BgrdZoneInput {
  /** Zone name. */
  name: string;
  /** Zone origin, px. */
  x0: number;
  /** Zone origin, px. */
  y0: number;
  /** Number of regions in the whole zone. */
  globalRegions: number;
  /** Tiles in directory order. */
  tiles: BgrdTileInput[];
}

/** A whole BGRD section to encode (and what {@link decodeBgrd} returns). */
export interface BgrdInput {
  /** Payload version, 3 by default. */
  version?: 2 | 3;
  /** Tile side in px, 128 by default. */
  tilePx?: number;
  /** Apron width in px, 16 by default. */
  apronPx?: number;
  /** Zones in directory order. */
  zones: BgrdZoneInput[];
}

/**
 * Encodes a whole section: header, directory, then the payloads in directory order. Refuses a
 * zone name that is not a plausible zone name (`isPlausibleName`), as the decoder does.
 * Deterministic; `encodeBgrd(decodeBgrd(b))` gives back `b` for any section this encoder wrote.
 */
export function encodeBgrd(input: BgrdInput): Uint8Array {
  const version = input.version ?? 3;
  const enc = new TextEncoder();
  input.zones.forEach((z, zi) => {
    const loc = { section: SECTION, zone: z.name };
    checkBound(z.x0, COORD_PX, loc, `zone ${zi}`, "origin x0");
    checkBound(z.y0, COORD_PX, loc, `zone ${zi}`, "origin y0");
    const fault = nameFault(z.name);
    if (fault) {
      throw new NavscopeError(
        "bad_value",
        `zone ${zi} name "${escapeControls(z.name)}" is not a zone name: ${fault}`,
        { section: SECTION, zone: escapeControls(z.name) },
        PLAUSIBLE_NAME,
      );
    }
  });
  const payloads: Uint8Array[][] = input.zones.map((z) =>
    z.tiles.map((t, i) => {
      const where = { section: SECTION, zone: z.name, tile: i };
      checkBgrdTileGeometry(t, where);
      return version === 3
        ? encodeTileV3(t.spans, t.nx, t.ny, where)
        : encodeTileV2(t.spans, t.nx, t.ny, where);
    })
  );
  let dirSize = BGRD_HEADER_SIZE;
  for (const z of input.zones) {
    dirSize += 4 + pad4(enc.encode(z.name).length) + 24 + z.tiles.length * BGRD_TILE_ENTRY_SIZE;
  }
  let total = dirSize;
  for (const ps of payloads) for (const p of ps) total += p.length;
  const w = new ByteWriter(total);
  w.tag(BGRD_TAG).u32(version).f64(K_CS);
  w.f64(input.tilePx ?? BGRD_TILE_PX).f64(input.apronPx ?? BGRD_APRON_PX);
  w.u32(input.zones.length).u32(0);
  let offset = dirSize;
  input.zones.forEach((z, zi) => {
    const name = enc.encode(z.name);
    w.u32(name.length).bytes(name).align(4);
    w.f64(z.x0).f64(z.y0).u32(z.globalRegions).u32(z.tiles.length);
    z.tiles.forEach((t, ti) => {
      const p = payloads[zi][ti];
      w.i32(t.gx0).i32(t.gy0).i32(t.nx).i32(t.ny);
      w.i32(t.px0).i32(t.px1).i32(t.py0).i32(t.py1);
      w.u64(offset).u32(p.length).u32(t.spans.n);
      offset += p.length;
    });
  });
  for (const ps of payloads) for (const p of ps) w.bytes(p);
  return w.finish();
}

/** Decodes every tile of a section into an {@link BgrdInput} (the encoder's input shape). */
export function decodeBgrd(section: BgrdSection): BgrdInput {
  return {
    version: section.version,
    tilePx: section.tilePx,
    apronPx: section.apronPx,
    zones: section.zones.map((z, zi) => ({
      name: z.name,
      x0: z.x0,
      y0: z.y0,
      globalRegions: z.globalRegions,
      tiles: z.tiles.map((t, ti) => ({
        gx0: t.gx0,
        gy0: t.gy0,
        nx: t.nx,
        ny: t.ny,
        px0: t.px0,
        px1: t.px1,
        py0: t.py0,
        py1: t.py1,
        spans: decodeBgrdTile(section, zi, ti),
      })),
    })),
  };
}

/**
 * The standard tile layout of a zone (spec 格图段): tiles own 512 × 512-cell squares starting
 * at global cell (gxMin, gyMin), row by row, each with a 64-cell apron, windows 641 × 641.
 * `w`, `h` are the zone's size in cells.
 */
export function standardTileLayout(
  gxMin: number,
  gyMin: number,
  w: number,
  h: number,
): BgrdTileGeometry[] {
  const out: BgrdTileGeometry[] = [];
  const T = BGRD_TILE_CELLS;
  const A = BGRD_APRON_CELLS;
  for (let ty = 0; ty * T < h; ty++) {
    for (let tx = 0; tx * T < w; tx++) {
      out.push({
        gx0: gxMin + tx * T - A,
        gy0: gyMin + ty * T - A,
        nx: BGRD_WINDOW_CELLS,
        ny: BGRD_WINDOW_CELLS,
        px0: A,
        px1: A + T - 1,
        py0: A,
        py1: A + T - 1,
      });
    }
  }
  return out;
}
