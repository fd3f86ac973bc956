/**
 * Synthetic grid records for benches and tests.
 *
 * - {@link syntheticWorld}: a realistic multi-layer zone — smooth sloped terrain with terraces
 *   (cliffs carry step bans and Dead cells), lakes, rocks (small ones hole-filled as Fill
 *   records), buildings with 2–3 floors and walls, and arched bridges over the terrain. Heights
 *   are continuous, clearance is the squared distance to the nearest obstacle cell on the same
 *   surface (exact EDT, capped at 48² like kEdtCap = 12 px), flags and step bans change rarely.
 *   Cut into standard 641 × 641 tiles with 64-cell aprons, ready for `encodeBgrd`.
 * - {@link randomTileSpans}: small random tiles (multi-layer cells, Fill records) for property
 *   tests and fuzzing.
 *
 * Deterministic: same options, same records.
 * @module
 */
import { mulberry32 } from "../src/rng.ts";
import { allocSpanColumns, type SpanColumns, SpanFlag, STEP_DIRS } from "../src/pack/grid_types.ts";
import {
  type BgrdInput,
  type BgrdTileInput,
  standardTileLayout,
} from "../src/pack/bgrd/section.ts";

/** Seeded PRNG (the project's one mulberry32). */
export const seededRandom: (seed: number) => () => number = mulberry32;

/** Options of {@link randomTileSpans}. */
export interface RandomTileOptions {
  /** Share of occupied cells (0..1). */
  occupancy?: number;
  /** Most layers per cell. */
  maxLayers?: number;
  /** Share of Fill records among single-layer cells. */
  fill?: number;
  /** Number of distinct region ids to draw from. */
  regions?: number;
}

/**
 * Random records for an `nx × ny` tile: heights on the 1/64 m grid above an f32 base (so the
 * codec round-trips them exactly), layers ascending, random clr/flags/steps and region ids.
 */
export function randomTileSpans(
  rnd: () => number,
  nx: number,
  ny: number,
  opts: RandomTileOptions = {},
): SpanColumns {
  const occ = opts.occupancy ?? 0.6;
  const maxL = opts.maxLayers ?? 3;
  const regions = opts.regions ?? 5;
  const fill = opts.fill ?? 0.05;
  const base = Math.fround((rnd() - 0.5) * 400);
  const cells: number[] = [];
  const qs: number[] = [];
  const isFill: boolean[] = [];
  for (let c = 0; c < nx * ny; c++) {
    if (rnd() >= occ) continue;
    const d = 1 + Math.floor(rnd() ** 2 * maxL);
    if (d === 1 && rnd() < fill) {
      cells.push(c);
      qs.push(0);
      isFill.push(true);
      continue;
    }
    let q = Math.floor(rnd() * 2000);
    for (let L = 0; L < d; L++) {
      cells.push(c);
      qs.push(q);
      isFill.push(false);
      q += 1 + Math.floor(rnd() * 600);
    }
  }
  const n = cells.length;
  const s = allocSpanColumns(n);
  // The lowest non-Fill record sits exactly at the base, so hmin = base.
  let qmin = Infinity;
  for (let i = 0; i < n; i++) if (!isFill[i] && qs[i] < qmin) qmin = qs[i];
  const rids = Array.from({ length: regions }, () => Math.floor(rnd() * 1e6));
  for (let i = 0; i < n; i++) {
    s.cell[i] = cells[i];
    s.h[i] = isFill[i] ? 0 : base + (qs[i] - qmin) / 64;
    s.rid[i] = rids[Math.floor(rnd() * regions)];
    s.clr[i] = rnd() < 0.1 ? Math.floor(rnd() * 65536) : Math.floor(rnd() * 60);
    s.flags[i] = isFill[i] ? SpanFlag.Fill | SpanFlag.Walk : Math.floor(rnd() * 32) & ~0x10;
    s.steps[i] = rnd() < 0.8 ? 0 : Math.floor(rnd() * 256);
  }
  return s;
}

/** Options of {@link syntheticWorld}. */
export interface SyntheticWorldOptions {
  /** Seed. */
  seed?: number;
  /** Zone width in cells (default 2560: 5 tiles). */
  width?: number;
  /** Zone height in cells (default 2048: 4 tiles). */
  height?: number;
  /** Zone name. */
  name?: string;
}

/** A zone's records on the global cell grid, before cutting into tiles. */
export interface SyntheticZone {
  /** Width in cells. */
  w: number;
  /** Height in cells. */
  h: number;
  /** Records of cell c are `start[c] .. start[c+1]−1` (cell = y·w + x). */
  start: Int32Array;
  /** Records, cell order, layers ascending. */
  spans: SpanColumns;
  /** Largest region id + 1. */
  globalRegions: number;
}

const CLR_CAP = 48 * 48; // kEdtCap = 12 px = 48 cells
const STOREY = 4; // m between building floors
const TERRACE = 4; // m per terrace step: more than kClimb, so cliffs split regions

interface Building {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  g: number;
  floors: number;
  hole: [number, number, number, number];
  clr: Uint16Array;
}

interface Bridge {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  alongX: boolean;
  ha: number;
  hb: number;
  clr: Uint16Array;
}

/** Terrain height (m) before quantisation: smooth slopes plus terraces. */
function terrainHeight(x: number, y: number): number {
  const base = 30 + 10 * Math.sin(x / 410 + 1.3) * Math.cos(y / 370) +
    4 * Math.sin((x + 2 * y) / 130) + 1.5 * Math.sin((3 * x - y) / 55);
  return base + TERRACE * terraceOf(x, y) + ROUGH_M * valueNoise(x / ROUGH_CELLS, y / ROUGH_CELLS);
}

const ROUGH_M = 0.35; // ground roughness amplitude (m): meshes are not perfectly smooth
const ROUGH_CELLS = 7; // roughness wavelength (cells)

function hash2(ix: number, iy: number): number {
  let h = Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

/** Bilinear value noise in [−1, 1), smoothstep-interpolated between integer lattice points. */
function valueNoise(x: number, y: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash2(ix, iy) + (hash2(ix + 1, iy) - hash2(ix, iy)) * sx;
  const b = hash2(ix, iy + 1) + (hash2(ix + 1, iy + 1) - hash2(ix, iy + 1)) * sx;
  return 2 * (a + (b - a) * sy) - 1;
}

function terraceOf(x: number, y: number): number {
  return Math.floor(2 + 1.9 * Math.sin(x / 520 + 0.7) * Math.sin(y / 460 + 2.1));
}

function isLake(x: number, y: number): boolean {
  return Math.sin(x / 190) * Math.sin(y / 230 + 0.5) > 0.82;
}

/** Heights on the global 1/64 m grid, so every tile's hmin is on it too. */
function q64(h: number): number {
  return Math.round(h * 64) / 64;
}

/**
 * Squared Euclidean distance transform (Felzenszwalb–Huttenlocher): for each free cell of
 * `free` (w × h, 1 = free), the squared distance in cells to the nearest non-free cell, treating
 * everything outside the box as non-free; capped.
 */
export function edtSquared(free: Uint8Array, w: number, h: number, cap = CLR_CAP): Uint16Array {
  const INF = 1e20;
  const g = new Float64Array(w * h);
  const n = Math.max(w, h) + 2;
  const f = new Float64Array(n);
  const d = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  // Pad each line with an obstacle at both ends (outside the box).
  for (let x = 0; x < w; x++) {
    f[0] = 0;
    for (let y = 0; y < h; y++) f[y + 1] = free[y * w + x] ? INF : 0;
    f[h + 1] = 0;
    edt1d(f, h + 2, d, v, z);
    for (let y = 0; y < h; y++) g[y * w + x] = d[y + 1];
  }
  const out = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) {
    f[0] = 0;
    for (let x = 0; x < w; x++) f[x + 1] = g[y * w + x];
    f[w + 1] = 0;
    edt1d(f, w + 2, d, v, z);
    for (let x = 0; x < w; x++) out[y * w + x] = Math.min(cap, d[x + 1]);
  }
  return out;
}

function edt1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array) {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const dq = q - v[k];
    d[q] = dq * dq + f[v[k]];
  }
}

function placeBuildings(rnd: () => number, W: number, H: number): Building[] {
  const out: Building[] = [];
  const count = Math.round((W * H) / 70000);
  for (let i = 0; i < count * 4 && out.length < count; i++) {
    const bw = 24 + Math.floor(rnd() * 96);
    const bh = 24 + Math.floor(rnd() * 96);
    const x0 = 8 + Math.floor(rnd() * (W - bw - 16));
    const y0 = 8 + Math.floor(rnd() * (H - bh - 16));
    const b = { x0, y0, x1: x0 + bw - 1, y1: y0 + bh - 1 };
    if (
      out.some((o) => b.x0 <= o.x1 + 6 && o.x0 <= b.x1 + 6 && b.y0 <= o.y1 + 6 && o.y0 <= b.y1 + 6)
    ) {
      continue;
    }
    const cx = (x0 + b.x1) >> 1;
    const cy = (y0 + b.y1) >> 1;
    const hx = x0 + 3 + Math.floor(rnd() * (bw - 12));
    const hy = y0 + 3 + Math.floor(rnd() * (bh - 14));
    out.push({
      ...b,
      g: q64(terrainHeight(cx, cy) + 0.3),
      floors: 1 + Math.floor(rnd() * 2),
      hole: [hx, hy, hx + 5, hy + 9],
      clr: new Uint16Array(0),
    });
  }
  for (const b of out) {
    // Upper floors: the slab over the whole footprint minus the stairwell.
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    const free = new Uint8Array(w * h).fill(1);
    for (let y = b.hole[1]; y <= b.hole[3]; y++) {
      for (let x = b.hole[0]; x <= b.hole[2]; x++) free[(y - b.y0) * w + (x - b.x0)] = 0;
    }
    b.clr = edtSquared(free, w, h);
  }
  return out;
}

function placeBridges(rnd: () => number, W: number, H: number): Bridge[] {
  const out: Bridge[] = [];
  const count = Math.max(1, Math.round((W * H) / 300000));
  for (let i = 0; i < count; i++) {
    const alongX = rnd() < 0.5;
    const len = 150 + Math.floor(rnd() * 350);
    const wid = 8 + Math.floor(rnd() * 7);
    const lx = alongX ? len : wid;
    const ly = alongX ? wid : len;
    const x0 = 4 + Math.floor(rnd() * (W - lx - 8));
    const y0 = 4 + Math.floor(rnd() * (H - ly - 8));
    const x1 = x0 + lx - 1;
    const y1 = y0 + ly - 1;
    const ha = terrainHeight(x0, y0);
    const hb = terrainHeight(x1, y1);
    out.push({
      x0,
      y0,
      x1,
      y1,
      alongX,
      ha,
      hb,
      clr: edtSquared(new Uint8Array(lx * ly).fill(1), lx, ly),
    });
  }
  return out;
}

function deckHeight(b: Bridge, x: number, y: number): number {
  const t = b.alongX ? (x - b.x0) / (b.x1 - b.x0) : (y - b.y0) / (b.y1 - b.y0);
  return q64(b.ha + (b.hb - b.ha) * t + 7 * Math.sin(Math.PI * t));
}

/** Builds the zone-wide records of a synthetic world (see the module comment). */
export function syntheticZone(opts: SyntheticWorldOptions = {}): SyntheticZone {
  const W = opts.width ?? 2560;
  const H = opts.height ?? 2048;
  const rnd = seededRandom(opts.seed ?? 1);
  const N = W * H;
  const th = new Float64Array(N);
  const terr = new Uint8Array(N); // 0 none, 1 terrain, 2 Fill, 3 Dead (cliff)
  const tIdx = new Int8Array(N);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = y * W + x;
      th[c] = q64(terrainHeight(x, y));
      tIdx[c] = terraceOf(x, y);
      terr[c] = isLake(x, y) ? 0 : 1;
    }
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = y * W + x;
      if (
        terr[c] === 1 && ((x + 1 < W && tIdx[c + 1] !== tIdx[c]) ||
          (y + 1 < H && tIdx[c + W] !== tIdx[c]))
      ) terr[c] = 3;
    }
  }
  // Rocks and trees: discs with no span; small ones are hole-filled (Fill records).
  const rocks = Math.round(N / 900);
  for (let i = 0; i < rocks; i++) {
    const cx = Math.floor(rnd() * W);
    const cy = Math.floor(rnd() * H);
    const r = rnd() < 0.4 ? 1 : 2 + rnd() * 6;
    const kind = r <= 1 ? 2 : 0;
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(H - 1, cy + r); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(W - 1, cx + r); x++) {
        const c = y * W + x;
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r && terr[c] !== 0) terr[c] = kind;
      }
    }
  }
  const buildings = placeBuildings(rnd, W, H);
  const bId = new Int32Array(N).fill(-1);
  buildings.forEach((b, i) => {
    for (let y = b.y0; y <= b.y1; y++) {
      for (let x = b.x0; x <= b.x1; x++) bId[y * W + x] = i;
    }
  });
  const bridges = placeBridges(rnd, W, H);
  const brId = new Int32Array(N).fill(-1);
  bridges.forEach((b, i) => {
    for (let y = b.y0; y <= b.y1; y++) {
      for (let x = b.x0; x <= b.x1; x++) if (bId[y * W + x] < 0) brId[y * W + x] = i;
    }
  });
  // Ground surface (terrain + building ground floors) for the clearance transform.
  const ground = new Uint8Array(N);
  const groundH = new Float64Array(N);
  for (let c = 0; c < N; c++) {
    const bi = bId[c];
    if (bi >= 0) {
      const b = buildings[bi];
      const x = c % W;
      const y = (c - x) / W;
      const wall = x === b.x0 || x === b.x1 || y === b.y0 || y === b.y1;
      const door = y === b.y1 && x >= b.x0 + 6 && x < b.x0 + 10;
      ground[c] = wall && !door ? 0 : 1;
      groundH[c] = b.g;
      continue;
    }
    ground[c] = terr[c] === 1 || terr[c] === 2 ? 1 : 0;
    groundH[c] = th[c];
    const bri = brId[c];
    if (bri >= 0 && deckHeight(bridges[bri], c % W, Math.floor(c / W)) - th[c] < 2.5) {
      ground[c] = 0; // the ramp replaces the ground here
    }
  }
  const groundClr = edtSquared(ground, W, H);
  return emitRecords(W, H, {
    terr,
    tIdx,
    ground,
    groundH,
    groundClr,
    bId,
    buildings,
    brId,
    bridges,
  });
}

interface Layers {
  terr: Uint8Array;
  tIdx: Int8Array;
  ground: Uint8Array;
  groundH: Float64Array;
  groundClr: Uint16Array;
  bId: Int32Array;
  buildings: Building[];
  brId: Int32Array;
  bridges: Bridge[];
}

function emitRecords(W: number, H: number, L: Layers): SyntheticZone {
  const N = W * H;
  let cap = Math.ceil(N * 1.3);
  let s = allocSpanColumns(cap);
  const start = new Int32Array(N + 1);
  let n = 0;
  const push = (c: number, h: number, rid: number, clr: number, flags: number, steps: number) => {
    if (n === cap) {
      cap = Math.ceil(cap * 1.5);
      const t = allocSpanColumns(cap);
      t.cell.set(s.cell);
      t.rid.set(s.rid);
      t.h.set(s.h);
      t.clr.set(s.clr);
      t.flags.set(s.flags);
      t.steps.set(s.steps);
      s = t;
    }
    s.cell[n] = c;
    s.h[n] = h;
    s.rid[n] = rid;
    s.clr[n] = clr;
    s.flags[n] = flags;
    s.steps[n] = steps;
    n++;
  };
  const BUILDING_RID = 100;
  const BRIDGE_RID = 100 + 4 * L.buildings.length;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = y * W + x;
      start[c] = n;
      const bi = L.bId[c];
      const bri = L.brId[c];
      const t = L.terr[c];
      let deck = Infinity;
      if (bri >= 0) deck = deckHeight(L.bridges[bri], x, y);
      // Layer 0: the ground (Fill, terrain, cliff or building ground floor).
      // A cliff cell under a bridge ramp is replaced by the ramp, like the ground around it.
      const cliff = t === 3 && (bri < 0 || deck - L.groundH[c] >= 2.5);
      if (L.ground[c] || cliff) {
        const clr = L.groundClr[c];
        if (bi >= 0) {
          push(c, L.groundH[c], BUILDING_RID + 4 * bi, clr, walkFlags(clr), 0);
        } else if (t === 2) {
          push(c, 0, 1 + L.tIdx[c], clr, SpanFlag.Fill | SpanFlag.Walk | SpanFlag.Core, 0);
        } else if (t === 3) {
          push(c, L.groundH[c], 1 + L.tIdx[c], 0, SpanFlag.Dead, stepBans(L, W, H, x, y));
        } else {
          const edge = x < 2 || y < 2 || x >= W - 2 || y >= H - 2;
          const f = walkFlags(clr) | (edge ? SpanFlag.Ghost : 0);
          push(c, L.groundH[c], 1 + L.tIdx[c], clr, f, stepBans(L, W, H, x, y));
        }
      }
      if (bri >= 0) {
        const b = L.bridges[bri];
        const clr = b.clr[(y - b.y0) * (b.x1 - b.x0 + 1) + (x - b.x0)];
        push(c, deck, BRIDGE_RID + bri, clr, walkFlags(clr), 0);
      }
      if (bi >= 0) {
        const b = L.buildings[bi];
        const bw = b.x1 - b.x0 + 1;
        const clr = b.clr[(y - b.y0) * bw + (x - b.x0)];
        if (clr > 0) {
          for (let k = 1; k <= b.floors; k++) {
            push(c, b.g + STOREY * k, BUILDING_RID + 4 * bi + k, clr, walkFlags(clr), 0);
          }
        }
      }
    }
  }
  start[N] = n;
  const out = allocSpanColumns(n);
  out.cell.set(s.cell.subarray(0, n));
  out.rid.set(s.rid.subarray(0, n));
  out.h.set(s.h.subarray(0, n));
  out.clr.set(s.clr.subarray(0, n));
  out.flags.set(s.flags.subarray(0, n));
  out.steps.set(s.steps.subarray(0, n));
  return { w: W, h: H, start, spans: out, globalRegions: BRIDGE_RID + L.bridges.length };
}

function walkFlags(clr: number): number {
  return clr <= 2 ? SpanFlag.Walk : SpanFlag.Walk | SpanFlag.Core;
}

/** Step bans of a terrain cell: bit 2d forbids rising more than 1 m to the neighbour, 2d+1 back. */
function stepBans(L: Layers, W: number, H: number, x: number, y: number): number {
  let bits = 0;
  const c = y * W + x;
  for (let d = 0; d < 4; d++) {
    const bx = x + STEP_DIRS[d][0];
    const by = y + STEP_DIRS[d][1];
    if (bx < 0 || by < 0 || bx >= W || by >= H) continue;
    const b = by * W + bx;
    if (!L.ground[b] && L.terr[b] !== 3) continue;
    const dh = L.groundH[b] - L.groundH[c];
    if (dh > 1) bits |= 1 << (2 * d);
    if (dh < -1) bits |= 1 << (2 * d + 1);
  }
  return bits;
}

/** Cuts a zone into standard tiles (641 × 641 windows, 64-cell aprons), row by row. */
export function cutTiles(zone: SyntheticZone): BgrdTileInput[] {
  return standardTileLayout(0, 0, zone.w, zone.h).map((g) => {
    const x0 = Math.max(0, g.gx0);
    const x1 = Math.min(zone.w - 1, g.gx0 + g.nx - 1);
    const y0 = Math.max(0, g.gy0);
    const y1 = Math.min(zone.h - 1, g.gy0 + g.ny - 1);
    let n = 0;
    for (let y = y0; y <= y1; y++) {
      n += zone.start[y * zone.w + x1 + 1] - zone.start[y * zone.w + x0];
    }
    const t = allocSpanColumns(n);
    const z = zone.spans;
    let o = 0;
    for (let y = y0; y <= y1; y++) {
      const a = zone.start[y * zone.w + x0];
      const b = zone.start[y * zone.w + x1 + 1];
      for (let i = a; i < b; i++) {
        const gx = z.cell[i] % zone.w;
        t.cell[o] = (y - g.gy0) * g.nx + (gx - g.gx0);
        o++;
      }
      t.rid.set(z.rid.subarray(a, b), o - (b - a));
      t.h.set(z.h.subarray(a, b), o - (b - a));
      t.clr.set(z.clr.subarray(a, b), o - (b - a));
      t.flags.set(z.flags.subarray(a, b), o - (b - a));
      t.steps.set(z.steps.subarray(a, b), o - (b - a));
    }
    return { ...g, spans: t };
  });
}

/** A one-zone BGRD input of the synthetic world (zone origin at px 0, 0). */
export function syntheticWorld(opts: SyntheticWorldOptions = {}): BgrdInput {
  const zone = syntheticZone(opts);
  return {
    version: 3,
    zones: [{
      name: opts.name ?? "synthetic",
      x0: 0,
      y0: 0,
      globalRegions: zone.globalRegions,
      tiles: cutTiles(zone),
    }],
  };
}
