/**
 * Mesh building blocks of the procedural world generator: a vertex/triangle accumulator that
 * writes deterministic OBJ text, and the *sheet*: a set of layered rectangular areas meshed on
 * one shared grid of break lines, so that neighbouring areas of equal height share vertices
 * (a conforming mesh, no T-junctions) and stairs get vertical riser faces between treads.
 *
 * Units follow the spec (约定): u, v in px, heights in metres. OBJ files are written y-up as
 * `v u h v` so that a manifest mesh entry with `px_per_m: 1, up: "y"` reads them back exactly.
 * @module
 */

/** Height of an area at a point (px, px) → m. */
export type HeightFn = (x: number, y: number) => number;

/** One rectangular area of a sheet layer. Later areas of the same layer win. */
export interface Area {
  /** Layer index: 0 = ground, higher layers are stacked surfaces (decks, floors, roofs). */
  layer: number;
  /** Rectangle, px (x0 < x1, y0 < y1). */
  x0: number;
  /** Rectangle, px. */
  y0: number;
  /** Rectangle, px. */
  x1: number;
  /** Rectangle, px. */
  y1: number;
  /** Constant height (m) or a height function; ignored for holes. */
  h: number | HeightFn;
  /** OBJ group name (the manifest maps group names to surface flags). */
  group: string;
  /** A hole: nothing is emitted in this layer over the rectangle. */
  hole?: boolean;
  /**
   * Sides ("W", "E", "S", "N": −x, +x, −y, +y) on which a vertical riser quad closes the gap to
   * a neighbour of another height in the same layer (stairs: the side facing down the flight).
   */
  risers?: string;
  /** Extra break lines inside the area (ridges of bumps, subdivisions). */
  xBreaks?: number[];
  /** Extra break lines inside the area. */
  yBreaks?: number[];
}

/** Rounds a coordinate to 1/4096 so that every emitted number prints short and exactly. */
export function q(v: number): number {
  const r = Math.round(v * 4096) / 4096;
  return r === 0 ? 0 : r;
}

/** Accumulates vertices (deduplicated by exact rounded position) and grouped triangles. */
export class MeshBuilder {
  private readonly xs: number[] = [];
  private readonly index = new Map<string, number>();
  private readonly groups = new Map<string, number[]>();
  private projected = 0;

  /** Vertex index of (x px, y px, h m), creating it when new. */
  vert(x: number, y: number, h: number): number {
    const qx = q(x), qy = q(y), qh = q(h);
    const key = `${qx},${qy},${qh}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.xs.length / 3;
      this.xs.push(qx, qy, qh);
      this.index.set(key, i);
    }
    return i;
  }

  /** Adds triangle (a, b, c) to `group` (orientation is fixed on import: CCW). */
  tri(group: string, a: number, b: number, c: number): void {
    if (a === b || b === c || a === c) return;
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, g = []);
    g.push(a, b, c);
    const ax = this.xs[3 * a], ay = this.xs[3 * a + 1];
    const cr = (this.xs[3 * b] - ax) * (this.xs[3 * c + 1] - ay) -
      (this.xs[3 * b + 1] - ay) * (this.xs[3 * c] - ax);
    this.projected += Math.abs(cr) / 2;
  }

  /** Adds quad a-b-c-d (in order around the rim) as two triangles. */
  quad(group: string, a: number, b: number, c: number, d: number): void {
    this.tri(group, a, b, c);
    this.tri(group, a, c, d);
  }

  /** A flat horizontal rectangle at height h. */
  rect(group: string, x0: number, y0: number, x1: number, y1: number, h: number): void {
    this.quad(
      group,
      this.vert(x0, y0, h),
      this.vert(x1, y0, h),
      this.vert(x1, y1, h),
      this.vert(x0, y1, h),
    );
  }

  /** A vertical wall quad from (x0, y0) to (x1, y1), heights h0..h1. */
  wall(group: string, x0: number, y0: number, x1: number, y1: number, h0: number, h1: number) {
    this.quad(
      group,
      this.vert(x0, y0, h0),
      this.vert(x1, y1, h0),
      this.vert(x1, y1, h1),
      this.vert(x0, y0, h1),
    );
  }

  /** A closed box (4 sides + top + bottom): for occluders. */
  box(group: string, x0: number, y0: number, x1: number, y1: number, h0: number, h1: number) {
    this.wall(group, x0, y0, x1, y0, h0, h1);
    this.wall(group, x1, y0, x1, y1, h0, h1);
    this.wall(group, x1, y1, x0, y1, h0, h1);
    this.wall(group, x0, y1, x0, y0, h0, h1);
    this.rect(group, x0, y0, x1, y1, h1);
    this.rect(group, x0, y0, x1, y1, h0);
  }

  /** Vertex count. */
  get vertexCount(): number {
    return this.xs.length / 3;
  }

  /** Triangle count. */
  get triangleCount(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.length / 3;
    return n;
  }

  /** Sum of the triangles' plan-view areas, px² (× 16 ≈ span records it rasterises to). */
  get projectedArea(): number {
    return this.projected;
  }

  /** Vertices (x, y, h) and triangles (all groups, sorted by group name) as flat arrays. */
  arrays(): {
    vertices: Float64Array;
    triangles: Uint32Array;
    groups: string[];
    triGroup: Uint16Array;
  } {
    const names = [...this.groups.keys()].sort();
    const tris: number[] = [], tg: number[] = [];
    names.forEach((n, gi) => {
      const t = this.groups.get(n)!;
      for (let k = 0; k < t.length; k++) tris.push(t[k]);
      for (let k = 0; k < t.length / 3; k++) tg.push(gi);
    });
    return {
      vertices: new Float64Array(this.xs),
      triangles: new Uint32Array(tris),
      groups: names,
      triGroup: new Uint16Array(tg),
    };
  }

  /** OBJ text: header comments, `v u h v` lines, then one `g` block per group (sorted by name). */
  toObj(header: string[]): string {
    const out: string[] = header.map((l) => `# ${l}`);
    for (let i = 0; i < this.xs.length; i += 3) {
      out.push(`v ${num(this.xs[i])} ${num(this.xs[i + 2])} ${num(this.xs[i + 1])}`);
    }
    for (const name of [...this.groups.keys()].sort()) {
      out.push(`g ${name}`);
      const t = this.groups.get(name)!;
      for (let k = 0; k < t.length; k += 3) {
        out.push(`f ${t[k] + 1} ${t[k + 1] + 1} ${t[k + 2] + 1}`);
      }
    }
    return out.join("\n") + "\n";
  }
}

/** Shortest exact decimal of a value already rounded by {@link q}. */
function num(v: number): string {
  return Object.is(v, -0) ? "0" : String(v);
}

/**
 * A sheet: areas meshed on a shared grid of break lines. Every area edge (and its extra breaks)
 * becomes a break line across the whole sheet, each grid cell takes the last area of its layer
 * that contains the cell centre, and vertices are shared by exact position, so equal heights
 * join and different heights leave a boundary (a ledge or a seam) — or a riser face when
 * either side asks for one.
 */
export class Sheet {
  /** Areas in the order they were added. */
  readonly areas: Area[] = [];

  /** Adds an area and returns it. */
  add(a: Area): Area {
    if (!(a.x1 > a.x0 && a.y1 > a.y0)) throw new RangeError(`empty area ${a.group}`);
    this.areas.push(a);
    return a;
  }

  /** Meshes every layer of the sheet into `mesh`. */
  emit(mesh: MeshBuilder): void {
    const xb = breaks(this.areas, "x"), yb = breaks(this.areas, "y");
    const nx = xb.length - 1, ny = yb.length - 1;
    const layers = [...new Set(this.areas.map((a) => a.layer))].sort((a, b) => a - b);
    for (const layer of layers) {
      const owner = new Int32Array(nx * ny).fill(-1);
      this.areas.forEach((a, ai) => {
        if (a.layer !== layer) return;
        const i0 = lowerIndex(xb, a.x0), i1 = lowerIndex(xb, a.x1);
        const j0 = lowerIndex(yb, a.y0), j1 = lowerIndex(yb, a.y1);
        for (let j = j0; j < j1; j++) owner.fill(ai, j * nx + i0, j * nx + i1);
      });
      const heightOf = (ai: number, x: number, y: number) => {
        const h = this.areas[ai].h;
        return typeof h === "number" ? h : h(x, y);
      };
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const ai = owner[j * nx + i];
          if (ai < 0 || this.areas[ai].hole) continue;
          const a = this.areas[ai];
          const x0 = xb[i], x1 = xb[i + 1], y0 = yb[j], y1 = yb[j + 1];
          mesh.quad(
            a.group,
            mesh.vert(x0, y0, heightOf(ai, x0, y0)),
            mesh.vert(x1, y0, heightOf(ai, x1, y0)),
            mesh.vert(x1, y1, heightOf(ai, x1, y1)),
            mesh.vert(x0, y1, heightOf(ai, x0, y1)),
          );
          // Risers towards the +x and +y neighbours (each shared edge is visited once).
          if (i + 1 < nx) {
            this.riser(mesh, owner[j * nx + i + 1], ai, "E", "W", x1, y0, x1, y1, heightOf);
          }
          if (j + 1 < ny) {
            this.riser(mesh, owner[(j + 1) * nx + i], ai, "N", "S", x0, y1, x1, y1, heightOf);
          }
        }
      }
    }
  }

  private riser(
    mesh: MeshBuilder,
    bi: number,
    ai: number,
    sideA: string,
    sideB: string,
    xa: number,
    ya: number,
    xb: number,
    yb: number,
    heightOf: (ai: number, x: number, y: number) => number,
  ): void {
    if (bi < 0 || bi === ai) return;
    const a = this.areas[ai], b = this.areas[bi];
    if (b.hole || !(a.risers?.includes(sideA) || b.risers?.includes(sideB))) return;
    const ha0 = q(heightOf(ai, xa, ya)), ha1 = q(heightOf(ai, xb, yb));
    const hb0 = q(heightOf(bi, xa, ya)), hb1 = q(heightOf(bi, xb, yb));
    if (ha0 === hb0 && ha1 === hb1) return;
    mesh.quad(
      "riser",
      mesh.vert(xa, ya, ha0),
      mesh.vert(xb, yb, ha1),
      mesh.vert(xb, yb, hb1),
      mesh.vert(xa, ya, hb0),
    );
  }
}

function breaks(areas: Area[], axis: "x" | "y"): number[] {
  const s = new Set<number>();
  for (const a of areas) {
    if (axis === "x") {
      s.add(q(a.x0)).add(q(a.x1));
      for (const b of a.xBreaks ?? []) if (b > a.x0 && b < a.x1) s.add(q(b));
    } else {
      s.add(q(a.y0)).add(q(a.y1));
      for (const b of a.yBreaks ?? []) if (b > a.y0 && b < a.y1) s.add(q(b));
    }
  }
  return [...s].sort((a, b) => a - b);
}

/** Index of the break equal to v (breaks include every area edge, rounded by {@link q}). */
function lowerIndex(b: number[], v: number): number {
  const t = q(v);
  let lo = 0, hi = b.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (b[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Height function of a planar ramp rising from h0 at `from` to h1 at `to` along one axis. */
export function ramp(axis: "x" | "y", from: number, to: number, h0: number, h1: number): HeightFn {
  return (x, y) => {
    const t = ((axis === "x" ? x : y) - from) / (to - from);
    return t <= 0 ? h0 : t >= 1 ? h1 : h0 + (h1 - h0) * t;
  };
}

/** Height function of a tent (bump when peak > 0, dip when < 0) across one axis, 0 at both ends. */
export function tent(axis: "x" | "y", from: number, to: number, peak: number): HeightFn {
  const mid = (from + to) / 2, half = (to - from) / 2;
  return (x, y) => {
    const d = Math.abs((axis === "x" ? x : y) - mid) / half;
    return d >= 1 ? 0 : peak * (1 - d);
  };
}
