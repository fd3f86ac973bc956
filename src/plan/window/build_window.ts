/**
 * buildWindow (spec 建窗, steps 1–13): decode the window's tiles with the sidecar's columns and
 * FOPN, expand the records into raster layers and the span table, look up which boundary edges
 * the region keeps, clear author no-go rings and runtime discs, restore step bans and facade
 * segments, pick the seed span, collect the off-mesh links, compute the reach domain and join the
 * blocker segment table. Every failure is a {@link PlanFailure} the tier loop catches.
 *
 * Release points follow the spec (记录表展开完就释放 …): the record table is dropped after the
 * expansion, lh after the no-go rings, the three bit layers after the step-ban restoration.
 * @module
 */

import { collectWallEdges } from "../../grid/wall_edges.ts";
import { clearancePx } from "../../grid/clearance_decode.ts";
import { kCS, kMcHBand } from "../../grid/constants.ts";
import { markFaces, occIndex, type SpanGrid, spanGridFromSorted } from "../../grid/span_grid.ts";
import { zoneRange } from "../../pack/bnvf/tables.ts";
import { finalStepBits, SEG_MEDIAL_BIT } from "../../pack/bnvf/merge.ts";
import { type SpanColumns, SpanFlag } from "../../pack/grid_types.ts";
import { K_FLOOR_BAND, type NoGoTable, pointInRings } from "../../pack/nogo/table.ts";
import { tilesMeeting } from "./grid_access.ts";
import type { DecodedTile } from "./tile_decode.ts";
import { PlanTiles } from "./plan_tiles.ts";
import { reachDomain } from "./reach_domain.ts";
import { type NoGoDiscSpec, PlanFailure } from "../types.ts";
import type { CellRect } from "./window_tiers.ts";
import type { ZoneState } from "./zone_state.ts";
import { scratch } from "../scratch.ts";
import type { WindowGrid, WindowLinks } from "./window_grid.ts";
import type { SwitchProbe } from "../profile.ts";

export type { WindowGrid, WindowLinks } from "./window_grid.ts";

/** What buildWindow needs besides the zone. */
export interface BuildWindowInput {
  /** The window rectangle, global cells. */
  rect: CellRect;
  /** The region. */
  region: number;
  /** Seed cell (global) and height, from the region pick. */
  seed: { gx: number; gy: number; h: number };
  /** Author no-go table. */
  noGo: NoGoTable;
  /** Runtime discs. */
  discs: readonly NoGoDiscSpec[];
  /** Switch probes of the plan (`authorNoGo`: a cell cleared by the author table). */
  probe?: SwitchProbe | null;
}

interface RecordTable {
  n: number;
  cell: Int32Array;
  rid: Uint32Array;
  h: Float32Array;
  flags: Uint8Array;
  clr: Uint16Array;
  steps: Uint8Array;
  steps2: Uint8Array;
  seg: Uint8Array;
  scc: Int32Array;
}

/**
 * Builds a window (建窗). `decoded` are the window's tiles ({@link windowTiles} order) when a
 * decode pool already decoded them; otherwise they are decoded here, reusing the tiles the plan's
 * pre-checks decoded (`planTiles`).
 */
export function buildWindow(
  zs: ZoneState,
  inp: BuildWindowInput,
  decoded?: readonly DecodedTile[],
  planTiles: PlanTiles = new PlanTiles(zs),
): WindowGrid {
  // The record table and the per-cell bit gathers are scratch (scratch.ts): a whole-map window
  // needs about 3 GB of them, reused by the next window. The window keeps only fresh arrays.
  scratch.reserve(inp.rect.nx * inp.rect.ny * RESERVE_BYTES_PER_CELL);
  return scratch.frame(() => build(zs, inp, decoded, planTiles));
}

/**
 * Scratch bytes reserved per window cell before a window is built (scratch.reserve): above what
 * the build's frame (≈ 22 B/cell at 0.3 records per cell) and the route's (≈ 20 B/cell on the
 * full-window disconnected leg, docs/memory.md) take, so neither skips a chunk tail. Reserved
 * address space, not resident memory.
 */
export const RESERVE_BYTES_PER_CELL = 48;

function build(
  zs: ZoneState,
  inp: BuildWindowInput,
  decoded: readonly DecodedTile[] | undefined,
  planTiles: PlanTiles,
): WindowGrid {
  const { rect, region } = inp;
  const nx = rect.nx, ny = rect.ny, ncell = nx * ny;
  // Step 3: decode the tiles with the sidecar columns and FOPN.
  const { rec, tiles } = decodeWindowRecords(zs, rect, decoded, planTiles);
  // Step 4: the seed cell in window coordinates.
  const sx = inp.seed.gx - rect.x0, sy = inp.seed.gy - rect.y0;
  if (sx < 0 || sy < 0 || sx >= nx || sy >= ny) {
    throw new PlanFailure("seed_outside_window", "起点种子格落在窗外");
  }
  // Step 5: raster layers and the span vector.
  const lay = new Uint8Array(ncell), core = new Uint8Array(ncell), medial = new Uint8Array(ncell);
  const dist = new Float32Array(ncell);
  const stepbits = scratch.u8(ncell), stepbits2 = scratch.u8(ncell);
  const segbits = scratch.u8(ncell);
  const lh = scratch.f32(ncell, NaN);
  let nsp = 0;
  const keep = scratch.u8(rec.n);
  for (let i = 0; i < rec.n; i++) {
    const f = rec.flags[i], own = rec.rid[i] === region, c = rec.cell[i];
    if (own) {
      if ((f & SpanFlag.Walk) || !(f & SpanFlag.Core)) lay[c] = 1;
      if (f & SpanFlag.Core) core[c] = 1;
      dist[c] = clearancePx(rec.clr[i]);
      if (rec.seg[i] & SEG_MEDIAL_BIT) medial[c] = 1;
      stepbits[c] |= rec.steps[i];
      stepbits2[c] |= rec.steps2[i];
      segbits[c] |= rec.seg[i] & ~SEG_MEDIAL_BIT;
      if (!(f & (SpanFlag.Ghost | SpanFlag.Fill)) && !(lh[c] >= rec.h[i])) lh[c] = rec.h[i];
    }
    // Span table: no Fill, no Ghost of another region.
    if (f & SpanFlag.Fill) continue;
    if (!own && (f & SpanFlag.Ghost)) continue;
    keep[i] = 1;
    nsp++;
  }
  const spCell = new Int32Array(nsp), spH = new Float32Array(nsp);
  const vis3 = new Uint8Array(nsp), scc = new Int32Array(nsp), sflags = new Uint8Array(nsp);
  for (let i = 0, s = 0; i < rec.n; i++) {
    if (!keep[i]) continue;
    spCell[s] = rec.cell[i];
    spH[s] = rec.h[i];
    sflags[s] = rec.flags[i];
    if (rec.rid[i] === region) {
      vis3[s] = 1;
      scc[s] = rec.scc[i];
    }
    s++;
  }
  const records = rec.n;
  // Step 6: which boundary edges the region keeps (FWAL).
  const keptWalls = keptWallSegments(zs, rect, region);
  // Steps 7–8: author no-go rings (±12 band on lh) and runtime discs clear core, lay, dist.
  if (markAuthorNoGo(zs.name, inp.noGo, rect, lh, core, lay, dist) > 0) {
    inp.probe?.touch("authorNoGo");
  }
  markDiscs(inp.discs, rect, core, lay, dist);
  // Step 9: span table, step bans and facade segments.
  const spans = spanGridFromSorted(nx, ny, spCell, spH);
  markFaces(spans);
  const steps = new Uint8Array(ncell);
  const facades: number[] = [];
  for (let c = 0; c < ncell; c++) {
    if (!lay[c] || stepbits[c] === 0) continue;
    steps[c] = finalStepBits(stepbits[c], stepbits2[c]);
    const x = c % nx, y = (c / nx) | 0;
    for (let d = 0; d < 2; d++) {
      if (!((stepbits[c] >> (2 * d)) & 3) || !((segbits[c] >> d) & 1)) continue;
      // The common edge of c and its neighbour along STEP_DIRS[d], px.
      const gx = (rect.x0 + x) * kCS, gy = (rect.y0 + y) * kCS;
      if (d === 0) facades.push(gx + kCS, gy, gx + kCS, gy + kCS);
      else facades.push(gx, gy + kCS, gx + kCS, gy + kCS);
    }
  }
  // Step 10: the seed span — the region's span in the seed cell nearest the picked height.
  const seedSpan = seedSpanOf(spans, vis3, sy * nx + sx, inp.seed.h);
  if (seedSpan < 0) throw new PlanFailure("no_same_region_span", "起点格没有与终点同类的面");
  // Step 11: off-mesh links.
  const { links, unlandable } = collectLinks(zs, rect, region, spans, vis3);
  // Step 12: reach domain and the off-mesh closure.
  const reach = reachDomain(zs.componentGraphs(), region, spans, vis3, scc, seedSpan, links);
  // Step 13: blocker segments = kept walls + facades.
  const blockers = new Float64Array(keptWalls.length + facades.length);
  blockers.set(keptWalls, 0);
  blockers.set(facades, keptWalls.length);
  return {
    x0: rect.x0,
    y0: rect.y0,
    nx,
    ny,
    region,
    lay,
    core,
    dist,
    medial,
    steps,
    spans,
    vis3,
    scc,
    sflags,
    reach,
    seedSpan,
    links,
    unlandableLinks: unlandable,
    blockers,
    keptWalls: keptWalls.length / 4,
    records,
    tiles,
  };
}

/**
 * Step 3 (解码瓦片): tiles meeting the window, each merged with its FSPN tile (clearance may only
 * shrink) and then FOPN; owned records inside the window, re-indexed to window cells and
 * ordered by cell with a stable counting sort (a cell belongs to one tile, so its records keep
 * their (region, height) order). The result does not depend on the decode order.
 */
/** The tiles of a window (owned area meets it, at least one record), in directory order. */
export function windowTiles(zs: ZoneState, rect: CellRect): number[] {
  const z = zs.section.zones[zs.gridZone];
  return tilesMeeting(zs.section, zs.gridZone, rect).filter((t) => z.tiles[t].records > 0);
}

function decodeWindowRecords(
  zs: ZoneState,
  rect: CellRect,
  decoded: readonly DecodedTile[] | undefined,
  planTiles: PlanTiles,
): { rec: RecordTable; tiles: number } {
  const z = zs.section.zones[zs.gridZone];
  const ids = windowTiles(zs, rect);
  if (decoded && decoded.length !== ids.length) throw new Error("decoded tiles do not match");
  // A part is a tile's records with the tile-local box of its owned cells inside the window: the
  // box is tested again when the records are placed, instead of keeping each kept record's index
  // and window cell (8 B per tile record of the build's frame, issue 36, docs/memory.md).
  type Part = {
    cols: SpanColumns;
    steps2: Uint8Array;
    seg: Uint8Array;
    scc: Int32Array;
    /** Tile-local owned box inside the window (inclusive) and the tile's row length. */
    lx0: number;
    lx1: number;
    ly0: number;
    ly1: number;
    tnx: number;
    /** Window cell of tile-local cell (0, 0). */
    wc0: number;
  };
  const parts: Part[] = [];
  let total = 0;
  const ncell = rect.nx * rect.ny;
  const count = scratch.i32(ncell + 1);
  for (let k = 0; k < ids.length; k++) {
    const t = ids[k];
    const te = z.tiles[t];
    const d = decoded ? decoded[k] : planTiles.merged(t);
    const cols = d.cols;
    // Owned cells inside the window, as a tile-local box (inclusive).
    const p: Part = {
      cols,
      steps2: d.steps2,
      seg: d.seg,
      scc: d.scc,
      lx0: Math.max(te.px0, rect.x0 - te.gx0),
      lx1: Math.min(te.px1, rect.x0 + rect.nx - 1 - te.gx0),
      ly0: Math.max(te.py0, rect.y0 - te.gy0),
      ly1: Math.min(te.py1, rect.y0 + rect.ny - 1 - te.gy0),
      tnx: te.nx,
      wc0: (te.gy0 - rect.y0) * rect.nx + (te.gx0 - rect.x0),
    };
    for (let i = 0; i < cols.n; i++) {
      const wc = windowCellOf(p, rect.nx, cols.cell[i]);
      if (wc < 0) continue;
      count[wc + 1]++;
      total++;
    }
    parts.push(p);
  }
  for (let c = 0; c < ncell; c++) count[c + 1] += count[c];
  const rec: RecordTable = {
    n: total,
    cell: scratch.i32(total),
    rid: scratch.u32(total),
    h: scratch.f32(total),
    flags: scratch.u8(total),
    clr: scratch.u16(total),
    steps: scratch.u8(total),
    steps2: scratch.u8(total),
    seg: scratch.u8(total),
    scc: scratch.i32(total),
  };
  // The prefix sums are the first free slot of each cell and are needed only here: they advance
  // in place (no copy: 4 B per window cell less in the build's frame, issue 36).
  const fill = count;
  for (const p of parts) {
    const cols = p.cols;
    for (let i = 0; i < cols.n; i++) {
      const wc = windowCellOf(p, rect.nx, cols.cell[i]);
      if (wc < 0) continue;
      const o = fill[wc]++;
      rec.cell[o] = wc;
      rec.rid[o] = cols.rid[i];
      rec.h[o] = cols.h[i];
      rec.flags[o] = cols.flags[i];
      rec.clr[o] = cols.clr[i];
      rec.steps[o] = cols.steps[i];
      rec.steps2[o] = p.steps2[i];
      rec.seg[o] = p.seg[i];
      rec.scc[o] = p.scc[i];
    }
  }
  return { rec, tiles: ids.length };
}

/** Window cell of tile-local cell c when it is an owned cell inside the window, else −1. */
function windowCellOf(
  p: { lx0: number; lx1: number; ly0: number; ly1: number; tnx: number; wc0: number },
  wnx: number,
  c: number,
): number {
  const ly = (c / p.tnx) | 0, lx = c - ly * p.tnx;
  if (lx < p.lx0 || lx > p.lx1 || ly < p.ly0 || ly > p.ly1) return -1;
  return p.wc0 + ly * wnx + lx;
}

/**
 * Step 6 (墙段取舍): the zone mesh's boundary edges near the window, each looked up in FWAL;
 * kept on this region → a blocker segment (px). An edge missing from the table means the
 * sidecar does not belong to this mesh.
 */
function keptWallSegments(zs: ZoneState, rect: CellRect, region: number): number[] {
  const m = zs.mesh;
  const edges = collectWallEdges(
    { verts: m.vertices, tris: m.tris, walkable: m.walkable },
    m.boundary,
    { x0: rect.x0 * kCS, y0: rect.y0 * kCS, nx: rect.nx, ny: rect.ny },
    zs.wallIndex(),
  );
  const table = zs.wallTable();
  const out: number[] = [];
  for (let i = 0; i < edges.n; i++) {
    const key = edges.key[i];
    const row = lowerBound(table.keys, key);
    if (row >= table.count || table.keys[row] !== key) {
      throw new PlanFailure(
        "sidecar_unreadable",
        `旁包留墙表没有这条边 (tri ${m.firstTri + Math.floor(key / 3)})`,
      );
    }
    const a = table.ridStart[row], b = table.ridStart[row + 1];
    const r = lowerBound(table.rids.subarray(a, b), region);
    if (r < b - a && table.rids[a + r] === region) {
      const o = 6 * i;
      out.push(edges.xyz[o], edges.xyz[o + 1], edges.xyz[o + 3], edges.xyz[o + 4]);
    }
  }
  return out;
}

function lowerBound(a: ArrayLike<number>, v: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Step 7 (作者禁区): cells whose centre lies in a polygon (even-odd) lose core, lay and dist; a
 * polygon drawn on a floor marks only cells whose lh is within ±12 m of it. Returns the cells
 * cleared.
 */
function markAuthorNoGo(
  zone: string,
  table: NoGoTable,
  rect: CellRect,
  lh: Float32Array,
  core: Uint8Array,
  lay: Uint8Array,
  dist: Float32Array,
): number {
  const z = table.zones.get(zone);
  if (!z) return 0;
  let cleared = 0;
  for (let p = 0; p < z.polyCount; p++) {
    const B = z.polyBox, o = 4 * p;
    const cx0 = Math.max(0, Math.floor(B[o] / kCS - 0.5) - rect.x0);
    const cy0 = Math.max(0, Math.floor(B[o + 1] / kCS - 0.5) - rect.y0);
    const cx1 = Math.min(rect.nx - 1, Math.ceil(B[o + 2] / kCS - 0.5) - rect.x0);
    const cy1 = Math.min(rect.ny - 1, Math.ceil(B[o + 3] / kCS - 0.5) - rect.y0);
    const floor = z.polyFloor[p];
    for (let y = cy0; y <= cy1; y++) {
      for (let x = cx0; x <= cx1; x++) {
        const c = y * rect.nx + x;
        if (!Number.isNaN(floor) && !(Math.abs(lh[c] - floor) <= K_FLOOR_BAND)) continue;
        const px = (rect.x0 + x + 0.5) * kCS, py = (rect.y0 + y + 0.5) * kCS;
        if (!pointInRings(z, z.polyRingStart[p], z.polyRingStart[p + 1], px, py)) continue;
        core[c] = lay[c] = 0;
        dist[c] = 0;
        cleared++;
      }
    }
  }
  return cleared;
}

/** Step 8 (运行期虚拟禁区): cells whose centre is within r of a disc's centre, any height. */
function markDiscs(
  discs: readonly NoGoDiscSpec[],
  rect: CellRect,
  core: Uint8Array,
  lay: Uint8Array,
  dist: Float32Array,
): void {
  for (const d of discs) {
    const cx0 = Math.max(0, Math.floor((d.x - d.r) / kCS) - rect.x0);
    const cy0 = Math.max(0, Math.floor((d.y - d.r) / kCS) - rect.y0);
    const cx1 = Math.min(rect.nx - 1, Math.ceil((d.x + d.r) / kCS) - rect.x0);
    const cy1 = Math.min(rect.ny - 1, Math.ceil((d.y + d.r) / kCS) - rect.y0);
    for (let y = cy0; y <= cy1; y++) {
      for (let x = cx0; x <= cx1; x++) {
        const dx = (rect.x0 + x + 0.5) * kCS - d.x, dy = (rect.y0 + y + 0.5) * kCS - d.y;
        if (Math.sqrt(dx * dx + dy * dy) > d.r) continue;
        const c = y * rect.nx + x;
        core[c] = lay[c] = 0;
        dist[c] = 0;
      }
    }
  }
}

/** Step 10: the region's span of the seed cell nearest height h (`|h_s ⊖ f32(h)|`, first wins). */
function seedSpanOf(g: SpanGrid, vis3: Uint8Array, c: number, h: number): number {
  const [a, b] = spanRangeOf(g, c);
  const hf = Math.fround(h);
  let best = -1, bd = Infinity;
  for (let s = a; s < b; s++) {
    if (!vis3[s]) continue;
    const d = Math.abs(Math.fround(g.h[s] - hf));
    if (d < bd) bd = d, best = s;
  }
  return best;
}

/** Span range `[a, b)` of window cell c (empty when unoccupied). */
export function spanRangeOf(g: SpanGrid, c: number): [number, number] {
  const j = occIndex(g, c);
  return j < 0 ? [0, 0] : [g.cs[j], g.cs[j + 1]];
}

/**
 * Step 11 (离网连接): FLNK records of the zone whose both ends land in the window on a span of the
 * region within kMcHBand = 8 m (the nearest, `|h_s ⊖ h|`); one-way links give one directed
 * link, two-way links two. Links whose both ends are in the region but do not land are counted.
 */
function collectLinks(
  zs: ZoneState,
  rect: CellRect,
  region: number,
  g: SpanGrid,
  vis3: Uint8Array,
): { links: WindowLinks; unlandable: number } {
  const from: number[] = [], to: number[] = [], cost: number[] = [];
  let unlandable = 0;
  const t = zs.sidecar.links;
  if (t) {
    const [first, end] = zoneRange(t.index, zs.zoneId);
    for (let i = first; i < end; i++) {
      const a = landing(t.gx[2 * i], t.gy[2 * i], t.h[2 * i], rect, g, vis3);
      const b = landing(t.gx[2 * i + 1], t.gy[2 * i + 1], t.h[2 * i + 1], rect, g, vis3);
      if (a < 0 || b < 0) {
        if (t.rid[2 * i] === region && t.rid[2 * i + 1] === region) unlandable++;
        continue;
      }
      const dx = t.gx[2 * i + 1] - t.gx[2 * i], dy = t.gy[2 * i + 1] - t.gy[2 * i];
      const c = Math.fround(
        Math.fround(Math.max(t.costModifier[i], 1)) * Math.fround(Math.sqrt(dx * dx + dy * dy)),
      );
      from.push(a), to.push(b), cost.push(c);
      if (t.bidirectional[i] !== 0) from.push(b), to.push(a), cost.push(c);
    }
  }
  return {
    links: {
      n: from.length,
      fromSpan: Int32Array.from(from),
      toSpan: Int32Array.from(to),
      cost: Float64Array.from(cost),
    },
    unlandable,
  };
}

function landing(
  gx: number,
  gy: number,
  h: number,
  rect: CellRect,
  g: SpanGrid,
  vis3: Uint8Array,
): number {
  const x = gx - rect.x0, y = gy - rect.y0;
  if (x < 0 || y < 0 || x >= rect.nx || y >= rect.ny) return -1;
  const [a, b] = spanRangeOf(g, y * rect.nx + x);
  let best = -1, bd = Infinity;
  for (let s = a; s < b; s++) {
    if (!vis3[s]) continue;
    const d = Math.abs(Math.fround(g.h[s] - h));
    if (d < bd) bd = d, best = s;
  }
  return bd <= kMcHBand ? best : -1;
}
