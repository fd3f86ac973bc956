/**
 * Shared state of the world generator while it lays out blocks: the ground sheet, the free-form
 * walkable mesh (walls, pillars), the occluder mesh, landmarks, off-mesh links and author no-go
 * polygons. Block builders (gen_town, gen_river, gen_ledges, gen_defects) write into it in zone
 * px / metres, offset by their block origin.
 * @module
 */
import { type Area, MeshBuilder, Sheet } from "./gen_mesh.ts";
import { type Landmark, LandmarkSet, type Point3 } from "./landmarks.ts";

/** Side of one city block, px (streets included). */
export const BLOCK_PX = 240;
/** Street width, px (a street runs along the west and south edge of every block). */
export const STREET_PX = 6;
/** Zone-wide px → world scale, m per px (spec 约定: Wuling ≈ 1.33, Valley IV ≈ 1.42). */
export const PX_TO_M = 1.375;

/** An off-mesh link as written to the manifest. */
export interface LinkJson {
  /** Start (x px, y px, h m). */
  a: Point3;
  /** End. */
  b: Point3;
  /** Radius, px. */
  radius: number;
  /** Cost factor. */
  cost: number;
  /** Two-way. */
  bidirectional: boolean;
}

/** An author no-go polygon as written to the manifest. */
export interface NoGoJson {
  /** Label. */
  name: string;
  /** Rings of [x, y] px. */
  rings: [number, number][][];
  /** Floor (±12 m band) or undefined for every layer. */
  floor_y?: number;
}

/** A tier zone record as written to the manifest. */
export interface TierJson {
  /** Tier zone name. */
  name: string;
  /** Size, px. */
  size_px: [number, number];
  /** Floor height, m. */
  floor_y: number;
  /** Tier template px → parent px. */
  affine: { sx: number; tx: number; sy: number; ty: number };
}

/** Generator state for one zone. */
export class GenContext {
  /** Ground and stacked surfaces of the current sheet. */
  sheet = new Sheet();
  /** Free-form walkable geometry (walls, pillars): not on the sheet grid. */
  readonly mesh: MeshBuilder;
  /** Occluder geometry (railings, overhangs, kerbs). */
  readonly occ = new MeshBuilder();
  /** Landmarks. */
  readonly marks = new LandmarkSet();
  /** Off-mesh links. */
  readonly links: LinkJson[] = [];
  /** Author no-go polygons. */
  readonly noGo: NoGoJson[] = [];
  /** Tier zones. */
  readonly tiers: TierJson[] = [];
  /** Block origin, px (added to every local coordinate). */
  ox = 0;
  /** Block origin, px. */
  oy = 0;
  /** When false, landmarks, links, no-go and tiers of repeated blocks are not recorded. */
  record = true;
  /**
   * Relief added to every height of the current block (zone px → m), or null for flat blocks.
   * Repeated blocks of large worlds get rolling terrain so that their packs compress like
   * real maps rather than like flat planes; it vanishes on block edges so blocks still meet.
   */
  warp: ((x: number, y: number) => number) | null = null;

  constructor(
    /** Base zone name. */
    readonly zone: string,
    /** Seeded random source. */
    readonly rng: () => number,
    mesh: MeshBuilder,
  ) {
    this.mesh = mesh;
  }

  /** Adds a sheet area given in block-local px. */
  area(a: Area): void {
    const base = typeof a.h === "number" ? a.h : shift(a.h, this.ox, this.oy);
    const w = this.warp;
    const h = w === null
      ? base
      : typeof base === "number"
      ? (x: number, y: number) => base + w(x, y)
      : (x: number, y: number) => base(x, y) + w(x, y);
    this.sheet.add({
      ...a,
      x0: a.x0 + this.ox,
      x1: a.x1 + this.ox,
      y0: a.y0 + this.oy,
      y1: a.y1 + this.oy,
      h,
      xBreaks: a.xBreaks?.map((b) => b + this.ox),
      yBreaks: a.yBreaks?.map((b) => b + this.oy),
    });
  }

  /** A point in block-local px → zone px. */
  p(x: number, y: number, h: number): Point3 {
    return [x + this.ox, y + this.oy, h];
  }

  /** Records a landmark given in block-local px (skipped for repeated blocks). */
  mark(l: Omit<Landmark, "zone">): void {
    if (!this.record) return;
    const points: Record<string, Point3> = {};
    for (const [k, v] of Object.entries(l.points ?? {})) points[k] = this.p(v[0], v[1], v[2]);
    this.marks.add({
      ...l,
      zone: this.zone,
      at: this.p(l.at[0], l.at[1], l.at[2]),
      rect: l.rect
        ? [l.rect[0] + this.ox, l.rect[1] + this.oy, l.rect[2] + this.ox, l.rect[3] + this.oy]
        : undefined,
      points: l.points ? points : undefined,
    });
  }

  /** A vertical walkable wall (facade) in block-local px. */
  wall(group: string, x0: number, y0: number, x1: number, y1: number, h0: number, h1: number) {
    const ax = x0 + this.ox, ay = y0 + this.oy, bx = x1 + this.ox, by = y1 + this.oy;
    if (this.warp === null) {
      this.mesh.wall(group, ax, ay, bx, by, h0, h1);
      return;
    }
    const wa = this.warp(ax, ay), wb = this.warp(bx, by), m = this.mesh;
    m.quad(
      group,
      m.vert(ax, ay, h0 + wa),
      m.vert(bx, by, h0 + wb),
      m.vert(bx, by, h1 + wb),
      m.vert(ax, ay, h1 + wa),
    );
  }

  /** An occluder box in block-local px. */
  occluder(x0: number, y0: number, x1: number, y1: number, h0: number, h1: number, g: string) {
    const ax = x0 + this.ox, ay = y0 + this.oy, bx = x1 + this.ox, by = y1 + this.oy;
    const w = this.warp === null ? 0 : this.warp((ax + bx) / 2, (ay + by) / 2);
    this.occ.box(g, ax, ay, bx, by, h0 + w, h1 + w);
  }

  /** An off-mesh link in block-local px (recorded blocks only). */
  link(a: Point3, b: Point3, bidirectional: boolean): void {
    if (!this.record) return;
    this.links.push({
      a: this.p(a[0], a[1], a[2]),
      b: this.p(b[0], b[1], b[2]),
      radius: 1,
      cost: 1,
      bidirectional,
    });
  }

  /** An author no-go rectangle in block-local px (recorded blocks only). */
  noGoRect(name: string, x0: number, y0: number, x1: number, y1: number, floorY?: number) {
    if (!this.record) return;
    const r: [number, number][] = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map((
      [x, y],
    ) => [x + this.ox, y + this.oy]);
    const n: NoGoJson = { name, rings: [r] };
    if (floorY !== undefined) n.floor_y = floorY;
    this.noGo.push(n);
  }
}

function shift(f: (x: number, y: number) => number, ox: number, oy: number) {
  return (x: number, y: number) => f(x - ox, y - oy);
}
