/**
 * The per-tile stage of the world bake (spec 预烘场, 格图段): runs the bake operators over one
 * tile window (512 × 512 owned cells + 64-cell apron = 641 × 641 cells) and keeps the results of
 * the OWNED cells only. Everything that needs the whole zone — region numbering, components,
 * the wall keep table's global region ids — leaves this stage as references that the zone
 * assembly resolves: a span outside the owned square is named by (global cell, height), which
 * is the same span in the tile that owns it (spans depend only on the cell's own samples and
 * its 1-cell seam neighbours, so they agree everywhere except on the window's outermost cells,
 * 64 cells away from any owned cell).
 *
 * The result holds typed arrays only, so a worker can transfer it without copying.
 * @module
 */

import { SpanFlag, STEP_DIRS } from "../pack/grid_types.ts";
import { flatStep, riseOk } from "../grid/rise_ok.ts";
import { occIndex, type SpanGrid, spanGridFromSorted } from "../grid/span_grid.ts";
import { BGRD_APRON_CELLS, BGRD_TILE_CELLS, type BgrdTileGeometry } from "../pack/bgrd/section.ts";
import {
  kCrackReach,
  kCrackRounds,
  kCS,
  kEdtCap,
  kEdtWin,
  kHoleMaxCells,
} from "../grid/constants.ts";
import { HEIGHT_STEP_INV } from "../pack/bgrd/tile_common.ts";
import { buildSortedSpans, type BuiltSpans } from "./build_spans.ts";
import { csrFromEdges, tarjanScc } from "./components.ts";
import { clearanceSq } from "./clearance.ts";
import { facadeSegments } from "./facade.ts";
import { FLAGS_CROP_MARGIN, regionFlagsBoxed } from "./flags.ts";
import { medialAxis } from "./medial.ts";
import { rasterize, type RasterMesh } from "./rasterize.ts";
import { labelRegions } from "./regions.ts";
import { type BakeWindow, SampleBuffer } from "./samples.ts";
import { seamBridgeSorted } from "./seam_bridge.ts";
import { stepBans } from "./step_bans.ts";
import { wallKeepTable } from "./wall_keep.ts";
import { collectWallEdges, forEachWallSample, stampWalls, type WallEdges } from "./walls.ts";
import { ufFind, ufInit, ufUnion } from "../util/union_find.ts";
import { int32List } from "../util/typed_list.ts";

/** The zone mesh as the tile stage needs it (zone-local triangle numbering). */
export interface ZoneMesh {
  /** u, v (px), h (m) per vertex. */
  verts: Float32Array;
  /** CCW triangles, 3 zone-local vertex ids each. */
  tris: Uint32Array;
  /** 1 = walkable, per triangle. */
  walkable: Uint8Array;
  /** Boundary bits per triangle (bit k = edge k has no neighbour after cleaning). */
  boundary: Uint8Array;
}

/** Stage names of {@link TileBake.timings}, in order. */
export const TILE_STAGES = [
  "select",
  "rasterize",
  "seamBridge",
  "buildSpans",
  "walls",
  "regions",
  "flags",
  "clearance",
  "medial",
  "stepBans",
  "facade",
  "wallKeep",
  "collect+sealed",
  "graph",
] as const;

/**
 * Owned records of one tile plus the references the zone assembly resolves. A *ref* is either
 * an owned record index (≥ 0) or `−1 − k` for external span `k` (`extGx/extGy/extH`).
 */
export interface TileBake {
  /** Tile index in the zone. */
  tile: number;
  /** Region labels of the window (1..count; see `bakeTile`'s zone labels). */
  regionCount: number;
  /** Zone region id of each window label (0: a piece no owned record reaches). */
  gidOfLabel: Uint32Array;
  /** Spans in the whole window (for the report). */
  windowSpans: number;
  /** Owned record count (spans + Ghost/Fill records). */
  n: number;
  /** Window label per record (u16 when the window has at most 65 535 labels). */
  rid: Uint16Array | Uint32Array;
  /** Height (f32; 0 for Fill). */
  h: Float32Array;
  /** Main clearance (squared cells). */
  clr: Uint16Array;
  /** Span flags. */
  flags: Uint8Array;
  /** Main step-ban bits. */
  steps: Uint8Array;
  /** Facade segment bits (sidecar). */
  seg: Uint8Array;
  /** Medial bit (sidecar). */
  medial: Uint8Array;
  /** Clearance minus sealed clearance (sidecar). */
  clr2d: Uint16Array;
  /** 1 = Ghost/Fill record (not a node of the component graph). */
  extra: Uint8Array;
  /** `ownStart[c] .. ownStart[c+1]`: records of owned cell c. */
  ownStart: Int32Array;
  /**
   * Component of each owned record in the tile's own RiseOk graph (owned spans, owned → owned
   * edges), from 1 in order of lowest record; Ghost/Fill records are isolated nodes.
   */
  comp: Int32Array;
  /** Number of tile components. */
  compCount: number;
  /** Tile component DAG edges (src, dst), sorted, distinct. */
  dagSrc: Int32Array;
  /** DAG edge targets. */
  dagDst: Int32Array;
  /** Edges leaving the owned square: source tile component. */
  xSrc: Int32Array;
  /** Edges leaving the owned square: target ref (always external). */
  xDst: Int32Array;
  /** Ghost records and the ref of the span whose component they take. */
  proxySrc: Int32Array;
  /** Proxy target refs. */
  proxyDst: Int32Array;
  /** External spans: global cell x. */
  extGx: Int32Array;
  /** External spans: global cell y. */
  extGy: Int32Array;
  /** External spans: height. */
  extH: Float32Array;
  /** Wall keep rows: edge keys (zone-local `3·t + k`), ascending. */
  wallKey: Int32Array;
  /** `wallRids[wallStart[i] .. wallStart[i+1])` are window-local regions keeping edge i. */
  wallStart: Int32Array;
  /** Window-local region ids. */
  wallRids: Uint32Array;
  /** Milliseconds per stage, in {@link TILE_STAGES} order. */
  timings: Float64Array;
}

const T = BGRD_TILE_CELLS;
/** Owned square offset in a BGRD window (pass 1; pass 2 reads `g.px0` of its window). */
const A = BGRD_APRON_CELLS;

/**
 * Cells a wide window adds around the BGRD window on each side (spec 填洞与合缝: FillHoles
 * leaves a hole alone when it touches the window edge; CloseCracks sees no core past it). The
 * clearance and sealed clearance of owned cells read the Walk mask up to kEdtCap/kCS = 48 cells
 * away (spec 净空; the stored value is capped at 48², clearance.ts), so the cells from
 * {@link FIELD_DEPTH} = 64 − 48 = 16 cells inside the BGRD window must have the whole zone's
 * flags. A hole of at most kHoleMaxCells = 32 cells that touches the edge lies within 31 cells
 * of it, and the 4 CloseCracks rounds of reach 2 carry a difference {@link CRACK_SPREAD} = 8
 * cells further: Walk is the zone's from 31 + 8 + 1 = 40 cells in (+1: the outermost cells'
 * spans lack their seam-bridge neighbour). 40 − 16 = 24.
 */
export const WORK_MARGIN = kHoleMaxCells - 1 + kCrackReach * kCrackRounds + 1 -
  (BGRD_APRON_CELLS - kEdtCap / kCS);

/** Depth in a BGRD window (cells from its edges) from which owned clearances read Walk: 16. */
const FIELD_DEPTH = BGRD_APRON_CELLS - kEdtCap / kCS;
/** How far CloseCracks carries a difference of the core: 4 rounds × 2 cells. */
const CRACK_SPREAD = kCrackReach * kCrackRounds;

/** The wide window of a tile: its BGRD window grown by {@link WORK_MARGIN} on each side. */
function wideGeometry(g: BgrdTileGeometry): BgrdTileGeometry {
  const m = WORK_MARGIN;
  return {
    gx0: g.gx0 - m,
    gy0: g.gy0 - m,
    nx: g.nx + 2 * m,
    ny: g.ny + 2 * m,
    px0: g.px0 + m,
    px1: g.px1 + m,
    py0: g.py0 + m,
    py1: g.py1 + m,
  };
}

/** What a wide-window bake takes over from the BGRD window's: spans, labels, zone regions. */
interface NarrowLabels {
  grid: SpanGrid;
  rid: Uint32Array;
  gid: Uint32Array;
}

/**
 * Zone region of each wide-window label: a wide label holds the narrow labels of its spans
 * (inside the BGRD window but its outermost cells the two windows have the same columns, span
 * for span), which all belong to one zone region or to none (0); a label reached only in the
 * margin gets 0, as a narrow label no owned record reaches.
 */
function wideGid(wide: SpanGrid, rid: Uint32Array, count: number, n: NarrowLabels): Uint32Array {
  const out = new Uint32Array(count + 1), m = WORK_MARGIN, g = n.grid, nocc = g.cs.length - 1;
  for (let j = 0; j < nocc; j++) {
    const c = g.cell[g.cs[j]], x = c % g.nx, y = (c - x) / g.nx;
    if (x === 0 || y === 0 || x === g.nx - 1 || y === g.ny - 1) continue;
    const jw = occIndex(wide, (y + m) * wide.nx + x + m);
    for (let k = 0; jw >= 0 && k < g.cs[j + 1] - g.cs[j]; k++) {
      const zr = n.gid[n.rid[g.cs[j] + k]], wl = rid[wide.cs[jw] + k];
      if (zr > out[wl]) out[wl] = zr;
    }
  }
  return out;
}

/** The tile result plus the stage's scratch: span → record and each record's owned cell. */
type TileWork = TileBake & { spanRec: Int32Array; ownCell: Int32Array };

/** Triangles whose box meets the window grown by `pad` px (zone-local ids, ascending). */
export function selectTriangles(mesh: ZoneMesh, win: BakeWindow, pad: number): Int32Array {
  const lx = win.x0 - pad, hx = win.x0 + win.nx * kCS + pad;
  const ly = win.y0 - pad, hy = win.y0 + win.ny * kCS + pad;
  const v = mesh.verts, t = mesh.tris, nt = t.length / 3;
  const out = new Int32Array(nt);
  let m = 0;
  for (let i = 0; i < nt; i++) {
    if (mesh.walkable[i] === 0) continue;
    const a = 3 * t[3 * i], b = 3 * t[3 * i + 1], c = 3 * t[3 * i + 2];
    const x0 = Math.min(v[a], v[b], v[c]), x1 = Math.max(v[a], v[b], v[c]);
    const y0 = Math.min(v[a + 1], v[b + 1], v[c + 1]), y1 = Math.max(v[a + 1], v[b + 1], v[c + 1]);
    if (x1 < lx || x0 > hx || y1 < ly || y0 > hy) continue;
    out[m++] = i;
  }
  return out.slice(0, m);
}

/** Rasterizer output buffer of this thread, reused by every window. */
const RASTER_SCRATCH = new SampleBuffer(1 << 16);

/** A window's spans: the first steps shared by both passes of the tile stage. */
interface WindowSpans {
  win: BakeWindow;
  sel: Int32Array;
  sub: RasterMesh;
  boundary: Uint8Array;
  built: BuiltSpans;
}

/**
 * Culls, rasterizes, bridges seams, builds spans and snaps heights (null: no triangle). With
 * `cache` (pass 1's spans of the same window) the spans are rebuilt from it instead: the same
 * operators on the same triangles give the same spans, so pass 2 does not redo them.
 */
function windowSpans(
  mesh: ZoneMesh,
  g: BgrdTileGeometry,
  lap: () => void,
  cache: SpanCache | null = null,
): WindowSpans | null {
  const win: BakeWindow = { x0: g.gx0 * kCS, y0: g.gy0 * kCS, nx: g.nx, ny: g.ny };
  const sel = selectTriangles(mesh, win, 5);
  const tris = new Uint32Array(3 * sel.length);
  const boundary = new Uint8Array(sel.length);
  for (let i = 0; i < sel.length; i++) {
    const s = sel[i];
    tris[3 * i] = mesh.tris[3 * s];
    tris[3 * i + 1] = mesh.tris[3 * s + 1];
    tris[3 * i + 2] = mesh.tris[3 * s + 2];
    boundary[i] = mesh.boundary[s];
  }
  const sub: RasterMesh = { verts: mesh.verts, tris };
  lap();
  // No triangle near the window: no sample, span, wall or record — skip the window-wide fields.
  if (sel.length === 0) return null;
  if (cache !== null && cache.count.length === win.nx * win.ny) {
    lap(), lap(); // rasterize, seamBridge: done in pass 1
    const built = spansFromCache(cache, win.nx, win.ny);
    lap();
    return { win, sel, sub, boundary, built };
  }
  RASTER_SCRATCH.n = 0; // reused window after window; seamBridgeSorted copies the samples
  const samples = rasterize(sub, win, RASTER_SCRATCH);
  lap();
  const bridged = seamBridgeSorted(samples, win.nx, win.ny);
  lap();
  const built = buildSortedSpans(bridged, win.nx, win.ny);
  snapHeights(built.grid.h);
  lap();
  return { win, sel, sub, boundary, built };
}

/**
 * A window's spans as pass 1 built them, kept compact for pass 2 (≈ 5 bytes per span): spans
 * per cell (u8), the snapped heights as i16 multiples of 1/64 m, the ins bits, the face bits
 * per occupied column and pass 1's labels. Empty arrays: no cache (no triangle, a cell with
 * more than 255 spans, or a height beyond ±512 m).
 */
export interface SpanCache {
  /** Spans per window cell. */
  count: Uint8Array;
  /** Span heights (snapped) × 64, in span order. */
  h: Int16Array;
  /** ins per span, packed bits. */
  ins: Uint8Array;
  /** face per occupied column, packed bits. */
  face: Uint8Array;
  /** Pass 1's window-local region per span (u16 when the count allows). */
  rid: Uint16Array | Uint32Array;
  /** Pass 1's region count. */
  regionCount: number;
}

/** The cache of built spans (null: a cell with more than 255 spans or a height beyond ±512 m). */
function cacheSpans(built: BuiltSpans, ncell: number): SpanCache | null {
  const { cell, h, face } = built.grid;
  const n = h.length, count = new Uint8Array(ncell);
  for (let s = 0; s < n; s++) {
    if (count[cell[s]] === 255) return null;
    count[cell[s]]++;
  }
  // Snapped heights are k/64 m: k is an exact integer, kept as i16 when it fits (|h| < 512 m).
  const hq = new Int16Array(n);
  for (let s = 0; s < n; s++) {
    const q = h[s] * HEIGHT_STEP_INV;
    if (!(q >= -32768 && q <= 32767) || q !== Math.trunc(q)) return null;
    hq[s] = q;
  }
  const ins = packBits(built.ins), faceBits = packBits(face);
  return { count, h: hq, ins, face: faceBits, rid: new Uint16Array(0), regionCount: 0 };
}

/** One bit per byte of `a` (bit i & 7 of byte i >> 3). */
function packBits(a: Uint8Array): Uint8Array {
  const out = new Uint8Array((a.length + 7) >> 3);
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** The bytes (0/1) of `m` packed bits. */
function unpackBits(b: Uint8Array, m: number): Uint8Array {
  const out = new Uint8Array(m);
  for (let i = 0; i < m; i++) out[i] = (b[i >> 3] >> (i & 7)) & 1;
  return out;
}

/** Rebuilds the span table from a {@link SpanCache} (same cells, heights, ins and faces). */
function spansFromCache(cache: SpanCache, nx: number, ny: number): BuiltSpans {
  const n = cache.h.length, cell = new Int32Array(n), count = cache.count;
  let nocc = 0;
  for (let c = 0, s = 0; c < count.length; c++) {
    if (count[c] !== 0) nocc++;
    for (let k = count[c]; k > 0; k--) cell[s++] = c;
  }
  const h = new Float32Array(n);
  for (let s = 0; s < n; s++) h[s] = cache.h[s] / HEIGHT_STEP_INV + 0;
  const grid = spanGridFromSorted(nx, ny, cell, h, unpackBits(cache.face, nocc));
  return { grid, ins: unpackBits(cache.ins, n), count: new Int32Array(0) };
}

/**
 * Pass 1 of the tile stage: the window's regions, which of them own a span, the owned spans on
 * the border of the owned square (the only owned spans another tile's ring can name) and the
 * spans on the ring around the owned square — what the zone needs to unite regions across seams
 * before any region-dependent field is computed.
 */
export interface TileRegions {
  /** Tile index. */
  tile: number;
  /** Window-local regions. */
  regionCount: number;
  /** 1 = the local region has a span in the owned square. */
  owns: Uint8Array;
  /** `borderStart[b] .. borderStart[b+1]`: spans of border cell b (see {@link borderIndex}). */
  borderStart: Int32Array;
  /** Border span heights. */
  borderH: Float32Array;
  /** Border span regions (window-local). */
  borderRid: Uint32Array;
  /** Ring spans: global x. */
  ringGx: Int32Array;
  /** Ring spans: global y. */
  ringGy: Int32Array;
  /** Ring spans: height. */
  ringH: Float32Array;
  /** Ring spans: window-local region. */
  ringRid: Uint32Array;
  /** Milliseconds per stage (select, rasterize, seamBridge, buildSpans, regions). */
  timings: Float64Array;
  /** The window's spans for pass 2 ({@link SpanCache}; empty arrays: none). */
  cacheCount: Uint8Array;
  /** Cached span heights × 64. */
  cacheH: Int16Array;
  /** Cached ins bits. */
  cacheIns: Uint8Array;
  /** Cached face bits. */
  cacheFace: Uint8Array;
  /** Cached window-local regions. */
  cacheRid: Uint16Array | Uint32Array;
}

/** The span cache carried by a pass 1 result, or null. */
export function spanCacheOf(t: TileRegions): SpanCache | null {
  if (t.cacheCount.length === 0) return null;
  return {
    count: t.cacheCount,
    h: t.cacheH,
    ins: t.cacheIns,
    face: t.cacheFace,
    rid: t.cacheRid,
    regionCount: t.regionCount,
  };
}

/** Border cells of the owned square: 4·512 − 4. */
export const BORDER_CELLS = 4 * T - 4;

/**
 * Index of owned cell (ox, oy) on the border of the owned square (top row, bottom row, left
 * column, right column without the corners), or −1 inside.
 */
export function borderIndex(ox: number, oy: number): number {
  if (ox < 0 || oy < 0 || ox >= T || oy >= T) return -1;
  if (oy === 0) return ox;
  if (oy === T - 1) return T + ox;
  if (ox === 0) return 2 * T + oy - 1;
  if (ox === T - 1) return 3 * T - 2 + oy - 1;
  return -1;
}

/**
 * Runs pass 1 for tile `tile` (see {@link TileRegions}); with `keepSpans` the result also
 * carries the window's spans for pass 2 ({@link spanCacheOf}).
 */
export function tileRegions(
  mesh: ZoneMesh,
  g: BgrdTileGeometry,
  tile: number,
  keepSpans = false,
): TileRegions {
  const timings = new Float64Array(5);
  let stage = 0, t0 = performance.now();
  const lap = () => {
    const t1 = performance.now();
    timings[stage++] += t1 - t0;
    t0 = t1;
  };
  const ws = windowSpans(mesh, g, lap);
  const out: TileRegions = {
    tile,
    regionCount: 0,
    owns: new Uint8Array(1),
    borderStart: new Int32Array(BORDER_CELLS + 1),
    borderH: new Float32Array(0),
    borderRid: new Uint32Array(0),
    ringGx: new Int32Array(0),
    ringGy: new Int32Array(0),
    ringH: new Float32Array(0),
    ringRid: new Uint32Array(0),
    timings,
    cacheCount: new Uint8Array(0),
    cacheH: new Int16Array(0),
    cacheIns: new Uint8Array(0),
    cacheFace: new Uint8Array(0),
    cacheRid: new Uint16Array(0),
  };
  if (ws === null) return out;
  const grid = ws.built.grid;
  const cache = keepSpans ? cacheSpans(ws.built, grid.nx * grid.ny) : null;
  const { rid, count } = labelRegions(grid);
  if (cache !== null) {
    (out.cacheCount = cache.count), (out.cacheH = cache.h), (out.cacheIns = cache.ins);
    out.cacheFace = cache.face;
    out.cacheRid = count <= 0xffff ? new Uint16Array(rid) : rid;
  }
  out.regionCount = count;
  out.owns = new Uint8Array(count + 1);
  const nx = grid.nx, ns = grid.h.length;
  const bidx = new Int32Array(ns);
  for (let s = 0; s < ns; s++) {
    const c = grid.cell[s], ox = c % nx - A, oy = Math.floor(c / nx) - A;
    const inside = ox >= 0 && oy >= 0 && ox < T && oy < T;
    if (inside) out.owns[rid[s]] = 1;
    const b = bidx[s] = inside ? borderIndex(ox, oy) : -1;
    if (b >= 0) out.borderStart[b + 1]++;
  }
  for (let b = 0; b < BORDER_CELLS; b++) out.borderStart[b + 1] += out.borderStart[b];
  const nb = out.borderStart[BORDER_CELLS], fill = out.borderStart.slice(0, BORDER_CELLS);
  out.borderH = new Float32Array(nb);
  out.borderRid = new Uint32Array(nb);
  for (let s = 0; s < ns; s++) {
    if (bidx[s] < 0) continue;
    const k = fill[bidx[s]]++;
    out.borderH[k] = grid.h[s];
    out.borderRid[k] = rid[s];
  }
  ringRefs(grid, rid, out, g);
  lap();
  return out;
}

/**
 * Window labels from zone regions: window-local regions with the same zone region id become one
 * label (labels 1..m in ascending zone id), so every region-dependent operator sees the region
 * as the whole zone does inside this window; local regions no owned record reaches (zone id 0)
 * get labels after m in local order. Returns the relabelled ids, the count and label → zone id.
 */
function zoneLabels(
  rid: Uint32Array,
  count: number,
  gidLocal: Uint32Array,
): { rid: Uint32Array; count: number; gidOfLabel: Uint32Array } {
  const ids = [...new Set(Array.from(gidLocal.subarray(1, count + 1)).filter((x) => x > 0))]
    .sort((a, b) => a - b);
  const labelOfGid = new Map<number, number>();
  ids.forEach((gid, i) => labelOfGid.set(gid, i + 1));
  const map = new Uint32Array(count + 1);
  let next = ids.length;
  for (let r = 1; r <= count; r++) {
    map[r] = gidLocal[r] > 0 ? labelOfGid.get(gidLocal[r])! : ++next;
  }
  const gidOfLabel = new Uint32Array(next + 1);
  ids.forEach((gid, i) => (gidOfLabel[i + 1] = gid));
  const out = new Uint32Array(rid.length);
  for (let s = 0; s < rid.length; s++) out[s] = map[rid[s]];
  return { rid: out, count: next, gidOfLabel };
}

/**
 * Pass 2, the tile stage proper, for tile `tile` with geometry `g`. `gidLocal` maps pass 1's
 * window-local regions to zone regions (see {@link zoneLabels}); null treats every local region
 * as a zone region of its own (a single-tile bake).
 */
export function bakeTile(
  mesh: ZoneMesh,
  g: BgrdTileGeometry,
  tile: number,
  gidLocal: Uint32Array | null = null,
  cache: SpanCache | null = null,
): TileBake {
  return tileStage(mesh, g, tile, gidLocal, cache, null);
}

/**
 * {@link bakeTile} over window `g`; `narrow`: `g` is the wide window of a tile whose BGRD
 * window bake found a hole cut by the window edge (its labels and zone regions given).
 */
function tileStage(
  mesh: ZoneMesh,
  g: BgrdTileGeometry,
  tile: number,
  gidLocal: Uint32Array | null,
  cache: SpanCache | null,
  narrow: NarrowLabels | null,
): TileBake {
  const timings = new Float64Array(TILE_STAGES.length);
  let stage = 0, t0 = performance.now();
  const lap = () => {
    const t1 = performance.now();
    timings[stage++] += t1 - t0;
    t0 = t1;
  };
  const ws = windowSpans(mesh, g, lap, cache);
  if (ws === null) return { ...emptyTile(tile), timings };
  const { win, sel, sub, boundary, built } = ws;
  const grid = built.grid;
  const walls = collectWallEdges(sub, boundary, win);
  for (let i = 0; i < walls.n; i++) {
    const k = walls.key[i] % 3;
    walls.key[i] = 3 * sel[(walls.key[i] - k) / 3] + k; // back to zone-local triangle ids
  }
  const dead = stampWalls(grid, walls, win);
  lap();
  // Pass 1 labelled the same spans: reuse its labels when it handed them over.
  const local = cache !== null && cache.rid.length === grid.h.length
    ? { rid: new Uint32Array(cache.rid), count: cache.regionCount }
    : labelRegions(grid);
  const identity = Uint32Array.from({ length: local.count + 1 }, (_, i) => i);
  const gidOf = narrow !== null
    ? wideGid(grid, local.rid, local.count, narrow)
    : gidLocal ?? identity;
  const { rid, count, gidOfLabel } = zoneLabels(local.rid, local.count, gidOf);
  lap();
  const flags = new Uint8Array(grid.h.length);
  // Each region's spans (ascending) and their cell box grown by the crop margin: the flags of
  // a region are computed over its box, not the whole window (regionFlagsBoxed).
  const { spansOf, boxOf } = regionSpans(grid, rid, count);
  const ex = {
    cell: [] as number[],
    h: [] as number[],
    flags: [] as number[],
    rid: [] as number[],
  };
  let cut = false;
  for (let r = 1; r <= count; r++) {
    // A cut hole only matters when it reaches FIELD_DEPTH − CRACK_SPREAD = 8 cells in.
    const depth = FIELD_DEPTH - CRACK_SPREAD;
    const f = regionFlagsBoxed(grid, built.ins, dead, flags, spansOf(r), boxOf(r), depth);
    cut ||= f.edgeHole;
    for (let i = 0; i < f.addCell.length; i++) {
      ex.cell.push(f.addCell[i]), ex.h.push(snapHeight(f.addH[i])), ex.flags.push(f.addFlags[i]);
      ex.rid.push(r);
    }
  }
  lap();
  if (cut && narrow === null) {
    // A hole the whole zone may fill is cut by the BGRD window's edge and reaches the cells the
    // owned clearances read (spec 填洞与合缝): bake the tile again over the wide window, where
    // those cells get the zone's flags (WORK_MARGIN). Rare (such holes are small and must lie
    // across the window edge); the tile's timings include both bakes.
    const wide = tileStage(mesh, wideGeometry(g), tile, null, null, {
      grid,
      rid: local.rid,
      gid: gidLocal ?? identity,
    });
    for (let i = 0; i < stage; i++) wide.timings[i] += timings[i];
    return wide;
  }
  const obstacle = new Uint8Array(win.nx * win.ny).fill(1);
  for (let s = 0; s < grid.h.length; s++) {
    if ((flags[s] & SpanFlag.Walk) !== 0) obstacle[grid.cell[s]] = 0;
  }
  for (let i = 0; i < ex.cell.length; i++) {
    if ((ex.flags[i] & SpanFlag.Walk) !== 0) obstacle[ex.cell[i]] = 0;
  }
  // Only owned cells' clearance and step bytes are kept (collectOwned), so those stages work
  // on the owned square; every value there is the whole-window value.
  const a = g.px0, owned = { x0: a, y0: a, x1: a + T, y1: a + T };
  const clr = clearanceSq(obstacle, win.nx, win.ny, owned);
  lap();
  const medial = medialAxis(obstacle, win.nx, win.ny, undefined, owned);
  lap();
  const steps = stepBans(grid, rid, owned);
  lap();
  const seg = facadeSegments(grid, steps);
  lap();
  const keep = wallKeepTable(grid, rid, count, flags, walls, win);
  lap();
  const out = collectOwned(grid, rid, count, flags, steps, seg, clr, medial, ex, g, tile);
  out.gidOfLabel = gidOfLabel;
  regionSealed(out, obstacle, walls, keep, win, a);
  lap();
  out.windowSpans = grid.h.length;
  graphRefs(grid, rid, out, g, ex);
  wallRows(keep.key, keep.rids, out);
  lap();
  const { spanRec: _drop, ownCell: _cells, ...result } = out;
  result.timings = timings;
  return result;
}

/**
 * Span heights go onto the BGRD height grid (1/64 m, spec 格图段) before any operator reads
 * them, so the fields are computed on exactly the heights the runtime decodes (the codec's
 * quantiser is then exact: 「the baked heights already sit on the 1/64 grid」). The grid is
 * global (multiples of 1/64 m), so every tile snaps a span the same way.
 */
export function snapHeight(h: number): number {
  return Math.fround(Math.round(h * HEIGHT_STEP_INV) / HEIGHT_STEP_INV + 0); // no -0
}

function snapHeights(h: Float32Array): void {
  for (let i = 0; i < h.length; i++) {
    h[i] = Math.round(h[i] * HEIGHT_STEP_INV) / HEIGHT_STEP_INV + 0;
  }
}

/**
 * clr2d per record (spec 旁包: 「把保留下来的区网格边界边也当作障碍求出的净空」), per region:
 * the edges region r keeps (FWAL) are stamped as extra obstacles (StampWalls sampling) into the
 * obstacle mask over r's owned box plus 49 cells — the EDT's reach (kEdtWin), so the sealed
 * clearance of r's cells equals a whole-window one — and clr2d = clr − sealed ≥ 0. A region
 * whose kept edges add no obstacle cell gets 0 without an EDT. [I] The spec sizes the region
 * window with kFieldHalo = 32; 49 keeps sealed ≤ clr exact.
 */
function regionSealed(
  out: TileWork,
  obstacle: Uint8Array,
  walls: WallEdges,
  keep: { key: Int32Array; rids: Uint32Array[] },
  win: BakeWindow,
  A: number,
): void {
  const nr = out.regionCount;
  if (walls.n === 0 || nr === 0) return;
  // Records grouped by region (counting sort), with each region's owned box (window cells).
  const start = new Int32Array(nr + 2);
  for (let k = 0; k < out.n; k++) start[out.rid[k] + 1]++;
  for (let r = 0; r <= nr; r++) start[r + 1] += start[r];
  const byRegion = new Int32Array(out.n), fill = start.slice();
  const box = new Int32Array(4 * (nr + 1)).fill(-1);
  for (let k = 0; k < out.n; k++) {
    const r = out.rid[k];
    byRegion[fill[r]++] = k;
    const oc = out.ownCell[k], x = (oc % T) + A, y = Math.floor(oc / T) + A, b = 4 * r;
    if (box[b] < 0) (box[b] = box[b + 1] = x), (box[b + 2] = box[b + 3] = y);
    else {
      box[b] = Math.min(box[b], x), box[b + 1] = Math.max(box[b + 1], x);
      box[b + 2] = Math.min(box[b + 2], y), box[b + 3] = Math.max(box[b + 3], y);
    }
  }
  // Edges kept per region.
  const rowOf = new Map<number, number>();
  keep.key.forEach((k, i) => rowOf.set(k, i));
  const edgesOf: number[][] = Array.from({ length: nr + 1 }, () => []);
  for (let i = 0; i < walls.n; i++) {
    const row = rowOf.get(walls.key[i]);
    if (row !== undefined) { for (const r of keep.rids[row]) edgesOf[r].push(i); }
  }
  const M = kEdtWin;
  for (let r = 1; r <= nr; r++) {
    if (edgesOf[r].length === 0 || box[4 * r] < 0) continue;
    const x0 = Math.max(0, box[4 * r] - M), x1 = Math.min(win.nx - 1, box[4 * r + 1] + M);
    const y0 = Math.max(0, box[4 * r + 2] - M), y1 = Math.min(win.ny - 1, box[4 * r + 3] + M);
    const sw = x1 - x0 + 1, sh = y1 - y0 + 1;
    const mask = new Uint8Array(sw * sh);
    for (let y = y0; y <= y1; y++) {
      mask.set(obstacle.subarray(y * win.nx + x0, y * win.nx + x1 + 1), (y - y0) * sw);
    }
    let added = false;
    for (const i of edgesOf[r]) {
      forEachWallSample(walls, i, win, (c) => {
        const x = c % win.nx, y = (c - x) / win.nx;
        if (x < x0 || x > x1 || y < y0 || y > y1) return;
        const q = (y - y0) * sw + (x - x0);
        if (mask[q] === 0) (mask[q] = 1), (added = true);
      });
    }
    if (!added) continue;
    // Only the region's owned records read the sealed clearance: compute the owned box only.
    const ob = { x0: box[4 * r] - x0, x1: box[4 * r + 1] - x0 + 1, y0: box[4 * r + 2] - y0 };
    const sealed = clearanceSq(mask, sw, sh, { ...ob, y1: box[4 * r + 3] - y0 + 1 });
    for (let j = start[r]; j < start[r + 1]; j++) {
      const k = byRegion[j], oc = out.ownCell[k];
      const x = (oc % T) + A, y = Math.floor(oc / T) + A;
      out.clr2d[k] = Math.max(0, out.clr[k] - sealed[(y - y0) * sw + (x - x0)]);
    }
  }
}

interface Extras {
  cell: number[];
  h: number[];
  flags: number[];
  rid: number[];
}

/** Gathers owned records (spans, then Ghost/Fill) by owned cell; `spanRec` maps span → record. */
function collectOwned(
  grid: SpanGrid,
  rid: Uint32Array,
  regionCount: number,
  flags: Uint8Array,
  steps: Uint8Array,
  seg: Uint8Array,
  clr: Uint16Array,
  medial: Uint8Array,
  ex: Extras,
  g: BgrdTileGeometry,
  tile: number,
): TileWork {
  const nx = g.nx, A = g.px0;
  const ownStart = new Int32Array(T * T + 1);
  const ownedCell = (c: number): number => {
    const x = c % nx, y = (c - x) / nx;
    const ox = x - A, oy = y - A;
    return ox < 0 || oy < 0 || ox >= T || oy >= T ? -1 : oy * T + ox;
  };
  const ns = grid.h.length, ne = ex.cell.length;
  const spanOwned = new Int32Array(ns), exOwned = new Int32Array(ne);
  for (let s = 0; s < ns; s++) {
    const o = spanOwned[s] = ownedCell(grid.cell[s]);
    if (o >= 0) ownStart[o + 1]++;
  }
  for (let i = 0; i < ne; i++) {
    const o = exOwned[i] = ownedCell(ex.cell[i]);
    if (o >= 0) ownStart[o + 1]++;
  }
  for (let c = 0; c < T * T; c++) ownStart[c + 1] += ownStart[c];
  const n = ownStart[T * T];
  const fill = ownStart.slice(0, T * T);
  const r: TileWork = {
    tile,
    regionCount,
    windowSpans: ns,
    n,
    ownCell: new Int32Array(n),
    rid: regionCount <= 0xffff ? new Uint16Array(n) : new Uint32Array(n),
    h: new Float32Array(n),
    clr: new Uint16Array(n),
    flags: new Uint8Array(n),
    steps: new Uint8Array(n),
    seg: new Uint8Array(n),
    medial: new Uint8Array(n),
    clr2d: new Uint16Array(n),
    extra: new Uint8Array(n),
    ownStart,
    ...emptyComponentFields(),
    timings: new Float64Array(0),
    spanRec: new Int32Array(ns).fill(-1),
  };
  for (let s = 0; s < ns; s++) {
    const o = spanOwned[s];
    if (o < 0) continue;
    const k = fill[o]++, c = grid.cell[s];
    r.spanRec[s] = k;
    r.ownCell[k] = o;
    r.rid[k] = rid[s];
    r.h[k] = grid.h[s];
    r.clr[k] = clr[c];
    r.flags[k] = flags[s];
    r.steps[k] = steps[s];
    r.seg[k] = seg[s];
    r.medial[k] = medial[c] ? 1 : 0;
  }
  for (let i = 0; i < ne; i++) {
    const o = exOwned[i];
    if (o < 0) continue;
    const k = fill[o]++, c = ex.cell[i];
    r.ownCell[k] = o;
    r.rid[k] = ex.rid[i];
    r.h[k] = ex.h[i];
    r.clr[k] = clr[c];
    r.flags[k] = ex.flags[i];
    r.medial[k] = medial[c] ? 1 : 0;
    r.extra[k] = 1;
  }
  return r;
}

/** The component, seam and wall fields before (or without) the component stage: all empty. */
function emptyComponentFields() {
  return {
    comp: new Int32Array(0),
    compCount: 0,
    dagSrc: new Int32Array(0),
    dagDst: new Int32Array(0),
    xSrc: new Int32Array(0),
    xDst: new Int32Array(0),
    proxySrc: new Int32Array(0),
    proxyDst: new Int32Array(0),
    extGx: new Int32Array(0),
    extGy: new Int32Array(0),
    extH: new Float32Array(0),
    gidOfLabel: new Uint32Array(1),
    wallKey: new Int32Array(0),
    wallStart: new Int32Array(1),
    wallRids: new Uint32Array(0),
  };
}

/** The result of a tile with no triangles (what the full stage yields for an empty window). */
function emptyTile(tile: number): TileBake {
  return {
    tile,
    regionCount: 0,
    windowSpans: 0,
    n: 0,
    rid: new Uint32Array(0),
    h: new Float32Array(0),
    clr: new Uint16Array(0),
    flags: new Uint8Array(0),
    steps: new Uint8Array(0),
    seg: new Uint8Array(0),
    medial: new Uint8Array(0),
    clr2d: new Uint16Array(0),
    extra: new Uint8Array(0),
    ownStart: new Int32Array(T * T + 1),
    ...emptyComponentFields(),
    timings: new Float64Array(TILE_STAGES.length),
  };
}

/** Spans per region (counting sort, ascending) and each region's span box ± the crop margin. */
function regionSpans(
  grid: SpanGrid,
  rid: Uint32Array,
  count: number,
): {
  spansOf: (r: number) => Int32Array;
  boxOf: (r: number) => { x0: number; y0: number; x1: number; y1: number };
} {
  const ns = grid.h.length, nx = grid.nx, ny = grid.ny;
  const start = new Int32Array(count + 2);
  for (let s = 0; s < ns; s++) start[rid[s] + 1]++;
  for (let r = 0; r <= count; r++) start[r + 1] += start[r];
  const fill = start.slice(), order = new Int32Array(ns);
  const box = new Int32Array(4 * (count + 1)).fill(-1);
  for (let s = 0; s < ns; s++) {
    const r = rid[s], c = grid.cell[s], x = c % nx, y = (c - x) / nx, b = 4 * r;
    order[fill[r]++] = s;
    if (box[b] < 0) (box[b] = box[b + 2] = x), (box[b + 1] = box[b + 3] = y);
    else {
      if (x < box[b]) box[b] = x;
      if (x > box[b + 2]) box[b + 2] = x;
      if (y < box[b + 1]) box[b + 1] = y;
      if (y > box[b + 3]) box[b + 3] = y;
    }
  }
  const M = FLAGS_CROP_MARGIN;
  return {
    spansOf: (r) => order.subarray(start[r], start[r + 1]),
    boxOf: (r) => ({
      x0: Math.max(0, box[4 * r] - M),
      y0: Math.max(0, box[4 * r + 1] - M),
      x1: Math.min(nx, box[4 * r + 2] + M + 1),
      y1: Math.min(ny, box[4 * r + 3] + M + 1),
    }),
  };
}

const GRAPH_ADJ = int32List(1024), GRAPH_DST = int32List(1024);
const GRAPH_XS = int32List(1024), GRAPH_XD = int32List(1024);

/**
 * Distinct (a, b) pairs from keys `a·2^26 + b` (non-negative integers < 2^26), sorted by
 * (a, b): the keys are sorted as a typed array in place (no per-pair objects).
 */
function distinctPairs(keys: Float64Array): [Int32Array, Int32Array] {
  const sorted = keys.sort();
  const m = sorted.length;
  let d = 0;
  for (let i = 0; i < m; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[d++] = sorted[i];
  const as = new Int32Array(d), bs = new Int32Array(d);
  for (let i = 0; i < d; i++) {
    as[i] = Math.floor(sorted[i] / PAIR);
    bs[i] = sorted[i] - as[i] * PAIR;
  }
  return [as, bs];
}

const PAIR = 2 ** 26;

/** External span table with de-duplication by (window span index). */
class ExtTable {
  gx = int32List(1024);
  gy = int32List(1024);
  h: number[] = [];
  bySpan = new Map<number, number>();
  ref(span: number, grid: SpanGrid, g: BgrdTileGeometry): number {
    let k = this.bySpan.get(span);
    if (k === undefined) {
      k = this.h.length;
      this.bySpan.set(span, k);
      const c = grid.cell[span], x = c % g.nx, y = (c - x) / g.nx;
      this.gx.push(g.gx0 + x);
      this.gy.push(g.gy0 + y);
      this.h.push(grid.h[span]);
    }
    return -1 - k;
  }
}

/**
 * The RiseOk span graph of the owned spans (spec 垂直可达判据 › 分量): u → v for spans of the
 * same region in 8-neighbour cells when RiseOk holds (no FallGate, as components.ts), and the
 * Ghost proxies ({@link ghostProxy}). `ex` holds the window's Ghost/Fill records.
 */
function graphRefs(
  grid: SpanGrid,
  rid: Uint32Array,
  out: TileWork,
  g: BgrdTileGeometry,
  ex: Extras,
): void {
  const A = g.px0; // owned square offset of this window
  const ext = new ExtTable();
  const { nx, ny, h } = grid;
  const refOf = (t: number) => out.spanRec[t] >= 0 ? out.spanRec[t] : ext.ref(t, grid, g);
  // Owned → owned edges straight into CSR (records are visited in span order, but CSR rows are
  // by record, so collect (src, dst) first); owned → apron edges by tile component later.
  // Owned records of spans come in span order (both are row-major by cell, spans before the
  // Ghost/Fill records of a cell), so the CSR rows fill directly in record order.
  // The edge lists are scratch reused by every tile of this thread (reset, not reallocated:
  // window after window they would otherwise grow from 1 k entries and be thrown away).
  const oneSrc = GRAPH_ADJ.reset(), oneDst = GRAPH_DST.reset();
  const xs = GRAPH_XS.reset(), xd = GRAPH_XD.reset();
  // Union-find over records: the root is the lower index (the class's lowest record).
  const parent = ufInit(out.n);
  const nocc = grid.cs.length - 1;
  // Neighbour columns of the current column, in (dy, dx) order: column ranges of the rows above
  // and below (forward pointers) and adjacency in the same row — no per-span lookups.
  const nbJ = new Int32Array(8), nbDx = new Int32Array(8), nbDy = new Int32Array(8);
  const spanRec = out.spanRec, cs = grid.cs, cell = grid.cell;
  const rowPtr = new Int32Array(4); // forward pointers: row above (lo, hi), row below (lo, hi)
  for (let j = 0; j < nocc; j++) {
    const s0 = cs[j], s1 = cs[j + 1];
    if (spanRec[s0] < 0) continue; // not an owned column
    const c = cell[s0], x = c % nx, y = (c - x) / nx;
    let nn = 0;
    for (let dy = -1; dy <= 1; dy++) {
      const qy = y + dy;
      if (qy < 0 || qy >= ny) continue;
      if (dy === 0) {
        if (x > 0 && j > 0 && cell[cs[j - 1]] === c - 1) {
          (nbJ[nn] = j - 1), (nbDx[nn] = -1), (nbDy[nn++] = 0);
        }
        if (x + 1 < nx && j + 1 < nocc && cell[cs[j + 1]] === c + 1) {
          (nbJ[nn] = j + 1), (nbDx[nn] = 1), (nbDy[nn++] = 0);
        }
        continue;
      }
      // Columns of cells [row + max(x−1, 0), row + min(x+1, nx−1)]: both ends grow with c, so
      // forward pointers find them (same ranges as two rank lookups).
      const row = qy * nx, lo = row + Math.max(x - 1, 0), hi = row + Math.min(x + 1, nx - 1) + 1;
      const pi = dy < 0 ? 0 : 2;
      let ja = rowPtr[pi], jb = rowPtr[pi + 1];
      while (ja < nocc && cell[cs[ja]] < lo) ja++;
      if (jb < ja) jb = ja;
      while (jb < nocc && cell[cs[jb]] < hi) jb++;
      (rowPtr[pi] = ja), (rowPtr[pi + 1] = jb);
      for (let q = ja; q < jb; q++) {
        (nbJ[nn] = q), (nbDx[nn] = cell[cs[q]] - row - x), (nbDy[nn++] = dy);
      }
    }
    for (let s = s0; s < s1; s++) {
      const k = spanRec[s];
      const r = rid[s], hs = h[s];
      for (let q = 0; q < nn; q++) {
        const dx = nbDx[q], dy = nbDy[q], jq = nbJ[q];
        const after = dy > 0 || (dy === 0 && dx > 0);
        for (let t = cs[jq], e = cs[jq + 1]; t < e; t++) {
          if (rid[t] !== r) continue;
          const ht = h[t], up = ht - hs, kt = spanRec[t];
          if (kt < 0) { // external: only the edge leaving the square
            if (!flatStep(up) && !riseOk(grid, x, y, hs, dx, dy, ht)) continue;
            xs.push(k), xd.push(ext.ref(t, grid, g));
            continue;
          }
          // An owned pair is judged once, from its earlier span, in both directions (the
          // same riseOk calls the later span's own visit would make).
          if (!after) continue;
          const down = hs - ht;
          const fwd = flatStep(up) || riseOk(grid, x, y, hs, dx, dy, ht);
          const bwd = flatStep(down) ||
            riseOk(grid, x + dx, y + dy, ht, -dx, -dy, hs);
          if (fwd && bwd) ufUnion(parent, k, kt);
          else if (fwd) oneSrc.push(k), oneDst.push(kt);
          else if (bwd) oneSrc.push(kt), oneDst.push(k);
        }
      }
    }
  }
  // Mutual edges put both ends in one component: their classes (union-find, root = lowest
  // record) are the nodes of a quotient graph that keeps only the one-way edges. Its SCCs are
  // the SCCs of the full graph, and numbering them by lowest quotient node (= by lowest class
  // record, classes being numbered in record order) numbers them by lowest record, exactly as
  // Tarjan over the full graph does.
  const qid = new Int32Array(out.n);
  let nq = 0;
  for (let v = 0; v < out.n; v++) qid[v] = ufFind(parent, v) === v ? nq++ : qid[parent[v]];
  const qs = new Int32Array(oneSrc.n), qd = new Int32Array(oneSrc.n);
  for (let i = 0; i < oneSrc.n; i++) (qs[i] = qid[oneSrc.a[i]]), (qd[i] = qid[oneDst.a[i]]);
  const qc = tarjanScc(csrFromEdges(nq, qs, qd));
  const comp = new Int32Array(out.n);
  for (let v = 0; v < out.n; v++) comp[v] = qc.comp[qid[v]];
  out.comp = comp;
  out.compCount = qc.count;
  // Inter-component edges (a, b) packed as a·2^26 + b: only one-way edges can join two
  // components (a mutual edge lies inside one).
  // Edges come in span order, so a ledge yields long runs of one pair: repeats of the
  // previous key are skipped before sorting (distinctPairs drops the rest).
  let m = 0;
  for (let i = 0, last = -1; i < oneSrc.n; i++) {
    const a = comp[oneSrc.a[i]], b = comp[oneDst.a[i]];
    if (a !== b && a * PAIR + b !== last) m++, (last = a * PAIR + b);
  }
  const dk = new Float64Array(m);
  m = 0;
  for (let i = 0, last = -1; i < oneSrc.n; i++) {
    const a = comp[oneSrc.a[i]], b = comp[oneDst.a[i]];
    if (a !== b && a * PAIR + b !== last) dk[m++] = last = a * PAIR + b;
  }
  [out.dagSrc, out.dagDst] = distinctPairs(dk.subarray(0, m));
  // External edges by (tile component, external span), distinct, sorted.
  const xk = new Float64Array(xs.n);
  for (let i = 0; i < xs.n; i++) xk[i] = comp[xs.a[i]] * PAIR + (-1 - xd.a[i]);
  [out.xSrc, out.xDst] = distinctPairs(xk);
  for (let i = 0; i < out.xDst.length; i++) out.xDst[i] = -1 - out.xDst[i];
  const ps = int32List(1024), pd = int32List(1024);
  // Window cells holding a Ghost record, by (region, cell).
  const ncell = nx * ny, ghostAt = new Set<number>();
  for (let i = 0; i < ex.cell.length; i++) {
    if ((ex.flags[i] & SpanFlag.Ghost) !== 0) ghostAt.add(ex.rid[i] * ncell + ex.cell[i]);
  }
  for (let k = 0; k < out.n; k++) {
    if (out.extra[k] === 0 || (out.flags[k] & SpanFlag.Ghost) === 0) continue;
    const oc = out.ownCell[k], ox = oc % T, oy = (oc - ox) / T;
    const best = ghostProxy(grid, rid, ghostAt, (oy + A) * nx + ox + A, out.rid[k], out.h[k]);
    if (best >= 0) {
      ps.push(k);
      pd.push(refOf(best));
    }
  }
  out.proxySrc = ps.done();
  out.proxyDst = pd.done();
  out.extGx = ext.gx.done();
  out.extGy = ext.gy.done();
  out.extH = Float32Array.from(ext.h);
}

/**
 * The span whose component a Ghost record (region r, window cell c, height hg) takes [I]: a
 * breadth-first search from c over 4-steps (STEP_DIRS order: +x, +y, −x, −y) through the cells
 * holding a Ghost record of r; the first BFS layer of cells holding a span of r decides, and in
 * it the span with the smallest |h − hg|, ties to the first in BFS discovery order (cell order,
 * then span order in the cell). For a Ghost next to a span this is the closest same-region
 * 4-neighbour span. Why: Ghost records are not RiseOk nodes, yet the runtime keeps a region's
 * Ghost spans in its span table and reads their scc (spec 建窗 › 展开成栅格图层: 「本类的 Ghost …
 * 都留下」; 可达域 step 2: 「分量号为 0 或超出集合范围时报错」), so every Ghost record needs a
 * component of its region. Inside a filled hole bigger than one cell the Ghost cells away from
 * the rim have no span neighbour: the proxy is carried through the hole.
 *
 * Always found: a Ghost height is propagated from 4-neighbours already known (spans of r, or
 * Ghost cells of earlier rounds; flags.ts `propagate`), so a chain of Ghost cells of r leads
 * from every Ghost cell to a span of r. Window-independent: Ghost cells are the cells of
 * holes FillHoles fills (spec 填洞与合缝), and a filled hole never touches the window edge, so
 * the hole, its Ghost records and its rim spans are the same in every window holding it (the
 * tile window, the wide re-bake and the whole zone); the BFS never leaves hole ∪ rim, and its
 * order depends on relative cell positions only. The chosen span may lie outside the owned
 * square: it is an external ref resolved by the zone assembly like every other ref. Returns
 * the window span index, or −1 (only for inconsistent input).
 */
function ghostProxy(
  grid: SpanGrid,
  rid: Uint32Array,
  ghostAt: Set<number>,
  c: number,
  r: number,
  hg: number,
): number {
  const { nx, ny, h } = grid, ncell = nx * ny;
  let layer = [c];
  const seen = new Set<number>([c]);
  while (layer.length > 0) {
    let best = -1, bestD = Infinity;
    const next: number[] = [];
    for (const u of layer) {
      const x = u % nx, y = (u - x) / nx;
      for (let d = 0; d < 4; d++) {
        const [dx, dy] = STEP_DIRS[d & 1];
        const sx = d < 2 ? x + dx : x - dx, sy = d < 2 ? y + dy : y - dy;
        if (sx < 0 || sy < 0 || sx >= nx || sy >= ny) continue;
        const v = sy * nx + sx;
        if (seen.has(v)) continue;
        seen.add(v);
        if (ghostAt.has(r * ncell + v)) next.push(v);
        const j = occIndex(grid, v);
        if (j < 0) continue;
        for (let t = grid.cs[j]; t < grid.cs[j + 1]; t++) {
          const dh = Math.abs(h[t] - hg);
          if (rid[t] === r && dh < bestD) (best = t), (bestD = dh);
        }
      }
    }
    if (best >= 0) return best;
    layer = next;
  }
  return -1;
}

/** Spans on the 1-cell ring around the owned square: the seams where regions continue. */
function ringRefs(
  grid: SpanGrid,
  rid: Uint32Array,
  out: TileRegions,
  g: BgrdTileGeometry,
): void {
  const gx = int32List(1024), gy = int32List(1024), hh: number[] = [], rr: number[] = [];
  const nx = grid.nx;
  const visit = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= grid.nx || y >= grid.ny) return;
    const j = occIndex(grid, y * nx + x);
    if (j < 0) return;
    for (let t = grid.cs[j]; t < grid.cs[j + 1]; t++) {
      gx.push(g.gx0 + x);
      gy.push(g.gy0 + y);
      hh.push(grid.h[t]);
      rr.push(rid[t]);
    }
  };
  for (let x = A - 1; x <= A + T; x++) visit(x, A - 1), visit(x, A + T);
  for (let y = A; y < A + T; y++) visit(A - 1, y), visit(A + T, y);
  out.ringGx = gx.done();
  out.ringGy = gy.done();
  out.ringH = Float32Array.from(hh);
  out.ringRid = Uint32Array.from(rr);
}

function wallRows(key: Int32Array, rids: Uint32Array[], out: TileBake): void {
  out.wallKey = key;
  out.wallStart = new Int32Array(key.length + 1);
  let m = 0;
  for (let i = 0; i < key.length; i++) m += rids[i].length, (out.wallStart[i + 1] = m);
  out.wallRids = new Uint32Array(m);
  for (let i = 0; i < key.length; i++) out.wallRids.set(rids[i], out.wallStart[i]);
}

/** Every typed array of a tile result (the transfer list of a worker message). */
export function tileBuffers(t: TileBake | TileRegions): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of Object.values(t)) {
    if (ArrayBuffer.isView(v) && !out.includes(v.buffer as ArrayBuffer)) {
      out.push(v.buffer as ArrayBuffer);
    }
  }
  return out;
}
