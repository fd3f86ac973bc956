/**
 * The procedural world generator (`navscope gen`): a deterministic city of 240-px blocks that
 * holds every feature and every failure case the planner specification describes, at known
 * coordinates (landmarks), plus a leg battery that exercises them.
 *
 * Layout: the base zone `map01base` is N × N blocks with N = 2·scale; a street runs along the
 * west and south edge of every block and closing streets along the north and east edge, so the
 * streets form one large region (long legs end in a capped window: the region box exceeds
 * kLocalMaxCells = 3 M cells). Block (bx, by) has type (by mod 2)·2 + (bx mod 2): town, river,
 * ledges, defects (gen_town.ts …). The first block of each type records its landmarks, links,
 * no-go polygons and the tier zone `map01lv001`; the repeated blocks of large worlds only add
 * geometry (seed-dependent variations) for benchmark-sized packs.
 *
 * Units (spec 约定): px horizontally, metres vertically; the zone affine maps px to world at
 * {@link PX_TO_M} m per px. Same seed and scale → byte-identical files.
 * @module
 */
import { mulberry32 } from "../rng.ts";
import { NavscopeError } from "../errors.ts";
import { zoneTiles } from "../bake/tiles.ts";
import { writeFileAtomic } from "../codec/mod.ts";
import { MeshBuilder, Sheet } from "./gen_mesh.ts";
import { BLOCK_PX, GenContext, PX_TO_M, STREET_PX } from "./gen_context.ts";
import { buildTown } from "./gen_town.ts";
import { buildRiver } from "./gen_river.ts";
import { buildLedges } from "./gen_ledges.ts";
import { buildDefects } from "./gen_defects.ts";
import type { Landmark } from "./landmarks.ts";
import { encodeLegs, generatedLegs, type Leg } from "./legs.ts";
import { MANIFEST_FORMAT, MANIFEST_VERSION } from "./manifest.ts";

/** Generator options. */
export interface GenOptions {
  /** Seed (u32). */
  seed: number;
  /** Scale ≥ 1: the zone is (2·scale)² blocks of 240 px. */
  scale: number;
  /** Base zone name (default `map01base`). */
  zone?: string;
}

/** What the generator produced, before anything is written. */
export interface GeneratedWorld {
  /** Manifest JSON object (validated by `validateManifest`). */
  manifest: Record<string, unknown>;
  /** Files of the world folder: name → text (manifest, meshes, landmarks, legs). */
  files: Map<string, string>;
  /** Landmarks. */
  landmarks: Landmark[];
  /** Leg battery. */
  legs: Leg[];
  /** Counts. */
  stats: GenStats;
}

/** Size figures of a generated world. */
export interface GenStats {
  /** Zone side, px. */
  sizePx: number;
  /** Blocks per side. */
  blocks: number;
  /** Walkable-mesh vertices. */
  vertices: number;
  /** Walkable-mesh triangles. */
  triangles: number;
  /** Occluder triangles. */
  occluderTriangles: number;
  /** Plan-view area of the walkable mesh, px² (each px² holds 16 cells). */
  projectedAreaPx2: number;
  /** Rough span-record estimate: 16 × plan area (walls and multi-layer stacks add more). */
  estimatedRecords: number;
}

/** File names inside a world folder. */
export const WORLD_FILES = {
  manifest: "world.json",
  legs: "legs.json",
} as const;

/** Generates a world in memory. */
export function generateWorld(opts: GenOptions): GeneratedWorld {
  const seed = opts.seed >>> 0;
  if (!Number.isInteger(opts.scale) || opts.scale < 1 || opts.scale > 64) {
    throw new NavscopeError("usage", `scale ${opts.scale} is out of range`, {}, "an integer 1..64");
  }
  const zone = opts.zone ?? "map01base";
  const n = 2 * opts.scale;
  const size = n * BLOCK_PX + STREET_PX;
  const mesh = new MeshBuilder();
  const c = new GenContext(zone, mulberry32(seed), mesh);
  const single = n <= 2; // small worlds: one conforming sheet (no seams between blocks)
  for (let by = 0; by < n; by++) {
    for (let bx = 0; bx < n; bx++) {
      c.ox = bx * BLOCK_PX;
      c.oy = by * BLOCK_PX;
      c.record = bx < 2 && by < 2;
      c.warp = c.record ? null : relief(seed, c.ox, c.oy);
      if (c.warp) {
        // Subdivide the block every 3 px so the relief shows inside large flat areas.
        const br: number[] = [];
        for (let k = 3; k < BLOCK_PX; k += 3) br.push(k);
        c.area({
          layer: -1,
          x0: 0,
          y0: 0,
          x1: BLOCK_PX,
          y1: BLOCK_PX,
          h: 0,
          group: "grid",
          hole: true,
          xBreaks: br,
          yBreaks: br,
        });
      }
      streets(c);
      const type = (by % 2) * 2 + (bx % 2);
      [buildTown, buildRiver, buildLedges, buildDefects][type](c);
      if (!single) flushSheet(c);
    }
  }
  c.ox = c.oy = 0;
  c.warp = null;
  const e = n * BLOCK_PX;
  c.area({ layer: 0, x0: e, y0: 0, x1: e + STREET_PX, y1: e + STREET_PX, h: 0, group: "street" });
  c.area({ layer: 0, x0: 0, y0: e, x1: e, y1: e + STREET_PX, h: 0, group: "street" });
  flushSheet(c);
  c.record = true;
  c.mark({
    name: "street_grid",
    kind: "street",
    at: [3, 3, 0],
    rect: [0, 0, size, size],
    points: { sw: [3, 3, 0], nw: [3, size - 3, 0], ne: [size - 3, size - 3, 0] },
    note: "streets along every block edge: one region whose box exceeds 3 M cells",
  });
  c.mark({
    name: "empty_lot",
    kind: "empty",
    at: [BLOCK_PX + 200, 215, 0],
    note: "no triangle within 16 px (snap fails)",
  });
  // Landmarks are recorded in the manifest itself, after the zones.
  const manifest = { ...manifestOf(c, zone, size, seed, opts.scale), landmarks: c.marks.list };
  const legs = generatedLegs(c.marks, zone, c.tiers[0]?.name);
  const header = [
    `navscope generated world: seed ${seed}, scale ${opts.scale}, zone ${zone}`,
    "units: x, z in px; y (up) in metres",
  ];
  const files = new Map<string, string>();
  files.set(WORLD_FILES.manifest, JSON.stringify(manifest, null, 1) + "\n");
  files.set(`${zone}.obj`, mesh.toObj(header));
  files.set(`${zone}.occluders.obj`, c.occ.toObj([...header, "occluders (ledge-drop checks)"]));
  files.set(WORLD_FILES.legs, encodeLegs(legs));
  return {
    manifest,
    files,
    landmarks: c.marks.list,
    legs,
    stats: {
      sizePx: size,
      blocks: n,
      vertices: mesh.vertexCount,
      triangles: mesh.triangleCount,
      occluderTriangles: c.occ.triangleCount,
      projectedAreaPx2: Math.round(mesh.projectedArea),
      estimatedRecords: estimateRecords(mesh.projectedArea, size),
    },
  };
}

/**
 * Rolling terrain of a repeated block: three seeded sine waves (30–90 px wavelengths, 2.4 m
 * peak to peak at most) times sin(π·u)·sin(π·v) over the block, so it is 0 on the block edges
 * and neighbouring blocks (and the flat recorded blocks) still meet at equal heights.
 */
function relief(seed: number, ox: number, oy: number): (x: number, y: number) => number {
  const r = mulberry32(
    (seed ^ Math.imul(ox + 1, 0x9e3779b1) ^ Math.imul(oy + 7, 0x85ebca77)) >>> 0,
  );
  const waves = [0, 1, 2].map(() => {
    const a = r() * 2 * Math.PI, lambda = 30 + 60 * r();
    return {
      kx: (Math.cos(a) * 2 * Math.PI) / lambda,
      ky: (Math.sin(a) * 2 * Math.PI) / lambda,
      ph: r() * 6.283,
      amp: 0.2 + 0.2 * r(),
    };
  });
  return (x, y) => {
    let s = 0;
    for (const w of waves) s += w.amp * Math.sin(w.kx * x + w.ky * y + w.ph);
    return s * Math.sin((Math.PI * (x - ox)) / BLOCK_PX) *
      Math.sin((Math.PI * (y - oy)) / BLOCK_PX);
  };
}

function streets(c: GenContext): void {
  c.area({ layer: 0, x0: 0, y0: 0, x1: STREET_PX, y1: BLOCK_PX, h: 0, group: "street" });
  c.area({ layer: 0, x0: STREET_PX, y0: 0, x1: BLOCK_PX, y1: STREET_PX, h: 0, group: "street" });
}

function flushSheet(c: GenContext): void {
  c.sheet.emit(c.mesh);
  c.sheet = new Sheet();
}

function manifestOf(
  c: GenContext,
  zone: string,
  size: number,
  seed: number,
  scale: number,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    name: zone,
    size_px: [size, size],
    origin_px: [0, 0],
    floor_y: 0,
    affine: { sx: PX_TO_M, tx: 0, sy: PX_TO_M, ty: 0 },
    meshes: [{
      file: `${zone}.obj`,
      px_per_m: 1,
      up: "y",
      match: "group",
      surfaces: { water: "water" },
      default_surface: "walkable",
      // No slope rule: the ramps (up to 75°) are judged by the grid's step rules, and the
      // generator builds no ceilings or slab undersides.
      max_slope_deg: null,
    }],
    occluders: [{ file: `${zone}.occluders.obj`, px_per_m: 1, up: "y" }],
    off_mesh_links: c.links,
    no_go: c.noGo,
  };
  const tiers = c.tiers.map((t) => ({ ...t, parent: zone }));
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    name: `gen-seed${seed}-scale${scale}`,
    zones: [base, ...tiers],
  };
}

/**
 * BGRD records a bake of the world will write, about: one record per cell of projected walkable
 * area (16 cells per px²), times the apron factor — each tile's window (its 512² owned cells plus
 * a 64-cell apron, cut to the zone) stores copies of its neighbours' records, so the records are
 * Σ over tiles of |window ∩ zone| / |zone| times the spans (≈ 1.54 for the 486-px world).
 */
export function estimateRecords(projectedAreaPx2: number, sizePx: number): number {
  const zt = zoneTiles(0, 0, sizePx, sizePx);
  let covered = 0;
  for (const t of zt.tiles) {
    const wx = Math.min(zt.gxMin + zt.w, t.gx0 + t.nx) - Math.max(zt.gxMin, t.gx0);
    const wy = Math.min(zt.gyMin + zt.h, t.gy0 + t.ny) - Math.max(zt.gyMin, t.gy0);
    covered += Math.max(0, wx) * Math.max(0, wy);
  }
  return Math.round(projectedAreaPx2 * 16 * (covered / (zt.w * zt.h)));
}

/** Writes a generated world's files into `dir` (created when missing); returns the paths. */
export async function writeGeneratedWorld(w: GeneratedWorld, dir: string): Promise<string[]> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (e) {
    throw new NavscopeError("io", `cannot create directory: ${(e as Error).message}`, {
      file: dir,
    });
  }
  const out: string[] = [];
  const enc = new TextEncoder();
  for (const [name, text] of w.files) {
    const p = `${dir.replace(/\/+$/, "")}/${name}`;
    await writeFileAtomic(p, enc.encode(text));
    out.push(p);
  }
  return out;
}
