/**
 * World manifests for the openly licensed real meshes vendored in `examples/<world>/` (Recast's
 * dungeon and nav_test, navcat's proto-level and tower-big), one zone each, and their leg
 * batteries: Recast's `nav_mesh_test.txt` path queries converted into legs.
 *
 * Each mesh lives next to its world's `world.json`, with its licence (`LICENSE.txt`) and a note
 * of where it came from (`SOURCE.md`); manifests point at it by a path relative to the manifest
 * (`dungeon.obj` from `examples/dungeon/`), so a clone re-bakes every example from its own files.
 *
 * Scale: the sources are in metres, y up. The planner's horizontal unit is the base-map pixel
 * (spec 约定: 1.33–1.42 m per px), so `px_per_m` = 0.75 (1 px = 1.333 m, Wuling's scale; 0.75 is
 * exact in binary, so the import is exact in float32) puts the character's clearance constants
 * (capped at 12 px, snap radius 8 px, cell 0.25 px ≈ 0.33 m) at their intended size in metres.
 * tower-big is modelled at about 1/5 scale (navcat uses cs 0.05 and an agent radius of 0.1), so
 * it gets 4 px per m horizontally; its heights stay as modelled (the importer never scales
 * heights), which makes its floors a stress case for the layer logic. Triangles steeper than
 * 45° (real angle, metres) are marked unwalkable (`max_slope_deg`).
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { MANIFEST_FORMAT, MANIFEST_VERSION, validateManifest } from "./manifest.ts";
import { loadZoneGeometry, type ZoneGeometry } from "./obj.ts";
import { mulberry32 } from "../rng.ts";
import { closestOnTriangle } from "../zone_mesh/geom.ts";
import { encodeLegs, type Leg } from "./legs.ts";

/** One real mesh and where it goes in its zone. */
export interface RealMeshSpec {
  /** World / zone name. */
  name: string;
  /** Mesh file name in the world's folder (`examples/<name>/`). */
  file: string;
  /** Licence file in the world's folder. */
  licence: string;
  /** Horizontal px per metre. */
  pxPerM: number;
  /** Offset after scaling, px (keeps the zone's coordinates positive). */
  offsetPx: [number, number];
  /** Zone size, px. */
  sizePx: [number, number];
  /** Main floor height, m. */
  floorY: number;
  /** Object names to drop (hand-made navmesh nodes). */
  exclude: string[];
  /** Recast test-case file (`pf` queries) in the world's folder, when there is one. */
  tests?: string;
  /** What the world is for. */
  note: string;
}

/** The real meshes navscope ships manifests for. */
export const REAL_MESHES: readonly RealMeshSpec[] = [
  {
    name: "dungeon",
    file: "dungeon.obj",
    licence: "LICENSE.txt",
    pxPerM: 0.75,
    offsetPx: [20, 70],
    sizePx: [60, 80],
    floorY: 0,
    exclude: [],
    note: "Recast dungeon: stacked floors (y ≈ 0, 5, 10, 15 m), stairs and bridges",
  },
  {
    name: "nav_test",
    file: "nav_test.obj",
    licence: "LICENSE.txt",
    pxPerM: 0.75,
    offsetPx: [24, 37],
    sizePx: [74, 64],
    floorY: -2.37,
    exclude: [],
    tests: "nav_mesh_test.txt",
    note: "Recast nav_test: platforms from −4.9 to 17 m, slopes; Recast's 21 path queries",
  },
  {
    name: "proto_level",
    file: "proto-level.obj",
    licence: "LICENSE.txt",
    pxPerM: 0.75,
    offsetPx: [40, 7],
    sizePx: [150, 78],
    floorY: 0,
    exclude: [],
    note: "navcat prototype level: floors, pallets and ramps; the largest real mesh here",
  },
  {
    name: "tower_big",
    file: "tower-big.obj",
    licence: "LICENSE.txt",
    pxPerM: 4,
    offsetPx: [14, 14],
    sizePx: [28, 28],
    floorY: 0,
    exclude: ["navmesh"],
    note: "navcat multi-floor tower at ~1/5 scale (heights unscaled): a layer stress case",
  },
];

/** The spec of real mesh `name` (throws a usage error when unknown). */
export function realMesh(name: string): RealMeshSpec {
  const s = REAL_MESHES.find((m) => m.name === name);
  if (!s) {
    throw new NavscopeError(
      "usage",
      `no real mesh called ${JSON.stringify(name)}`,
      {},
      REAL_MESHES.map((m) => m.name).join(", "),
    );
  }
  return s;
}

/**
 * The folder holding the vendored source files of real mesh `s` (mesh, licence, test case):
 * `examples/<name>/` of this repository.
 */
export function realMeshSourceDir(s: RealMeshSpec): string {
  return new URL(`../../examples/${s.name}`, import.meta.url).pathname;
}

/**
 * The manifest of a real mesh world. `meshRel` is the folder holding the mesh relative to the
 * manifest's directory (`.` for `examples/<world>/world.json`, the mesh beside it).
 */
export function realMeshManifest(s: RealMeshSpec, meshRel: string): Record<string, unknown> {
  const k = 1 / s.pxPerM;
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    name: s.name,
    zones: [{
      name: s.name,
      size_px: s.sizePx,
      origin_px: [0, 0],
      floor_y: s.floorY,
      // px → world metres: x = (u − ox)/s, z = (v − oy)/s (the source's own frame).
      affine: { sx: k, tx: -s.offsetPx[0] * k, sy: k, ty: -s.offsetPx[1] * k },
      meshes: [{
        file: meshPath(meshRel, s.file),
        px_per_m: s.pxPerM,
        up: "y",
        offset_px: s.offsetPx,
        default_surface: "walkable",
        exclude: s.exclude,
        max_slope_deg: 45,
        steep_surface: "blocked",
      }],
    }],
  };
}

/** `dir/file`, or `file` alone when `dir` is `.` (the mesh beside the manifest). */
function meshPath(dir: string, file: string): string {
  const d = dir.replace(/\/+$/, "");
  return d === "." || d === "" ? file : `${d}/${file}`;
}

/** Converts a source point (metres, y up) into zone px. */
export function toZonePx(s: RealMeshSpec, x: number, z: number): [number, number] {
  const r = (v: number) => Math.round(v * 4096) / 4096;
  return [r(x * s.pxPerM + s.offsetPx[0]), r(z * s.pxPerM + s.offsetPx[1])];
}

/**
 * Legs from a Recast test case (`pf sx sy sz ex ey ez include exclude` lines; spec of the
 * format in LICENSES.md). Each query becomes a leg with snapping floors at the query heights.
 * Recast's own answers are not in the file; every query lies on the walkable ground floor
 * (y ≈ −2.37) of nav_test, so the expected outcome is `ok`.
 */
export function recastTestLegs(text: string, s: RealMeshSpec, file = "<memory>"): Leg[] {
  const legs: Leg[] = [];
  text.split("\n").forEach((line, i) => {
    const t = line.trim().split(/\s+/);
    if (t[0] !== "pf") return;
    const v = t.slice(1, 7).map(Number);
    if (v.length !== 6 || !v.every(Number.isFinite)) {
      throw new NavscopeError(
        "bad_value",
        "malformed pf line",
        { file, line: i + 1 },
        "pf sx sy sz ex ey ez",
      );
    }
    legs.push({
      id: `recast_pf_${String(legs.length + 1).padStart(2, "0")}`,
      zone: s.name,
      start: toZonePx(s, v[0], v[2]),
      goal: toZonePx(s, v[3], v[5]),
      start_floor_y: v[1],
      goal_floor_y: v[4],
      expected: "ok",
      landmarks: [],
      note: `Recast ${file.slice(file.lastIndexOf("/") + 1)} line ${i + 1} (include ${
        t[7]
      }, exclude ${t[8]})`,
    });
  });
  return legs;
}

/**
 * Files of a real mesh world folder: world.json, legs.json (name → text). `meshRel` is the
 * folder holding the mesh (and its test case) relative to the world folder, `meshAbs` the same
 * folder as a path (absolute or relative to the cwd).
 */
export async function realMeshWorldFiles(
  s: RealMeshSpec,
  meshRel: string,
  meshAbs: string,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set("world.json", JSON.stringify(realMeshManifest(s, meshRel), null, 1) + "\n");
  let legs: Leg[] = [];
  const root = (meshAbs.startsWith("/") ? meshAbs : `${Deno.cwd()}/${meshAbs}`).replace(
    /\/+$/,
    "",
  );
  if (s.tests) {
    const path = `${root}/${s.tests}`;
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (e) {
      throw new NavscopeError("io", `cannot read test case: ${(e as Error).message}`, {
        file: path,
      });
    }
    legs = recastTestLegs(text, s, path);
  }
  const m = validateManifest(realMeshManifest(s, root), `${root}/world.json`);
  legs.push(...geometryLegs(s, await loadZoneGeometry(m.zones[0])));
  files.set("legs.json", encodeLegs(legs));
  return files;
}

/** Walkable triangles as flat arrays with a 4-px bucket grid for point queries. */
interface Walk {
  g: ZoneGeometry;
  cell: number;
  nx: number;
  ny: number;
  start: Int32Array;
  items: Int32Array;
}

function walkIndex(g: ZoneGeometry, w: number, h: number): Walk {
  const cell = 4, nx = Math.ceil(w / cell) + 1, ny = Math.ceil(h / cell) + 1;
  const lists: number[][] = Array.from({ length: nx * ny }, () => []);
  const v = g.vertices, t = g.triangles;
  for (let i = 0; i < t.length / 3; i++) {
    if ((g.surfaceFlags[i] & 0x00020cdd) === 0) continue;
    const xs = [0, 1, 2].map((k) => v[3 * t[3 * i + k]]),
      ys = [0, 1, 2].map((k) => v[3 * t[3 * i + k] + 1]);
    const x0 = Math.max(0, Math.floor(Math.min(...xs) / cell)),
      x1 = Math.min(nx - 1, Math.floor(Math.max(...xs) / cell));
    const y0 = Math.max(0, Math.floor(Math.min(...ys) / cell)),
      y1 = Math.min(ny - 1, Math.floor(Math.max(...ys) / cell));
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) lists[y * nx + x].push(i);
  }
  const start = new Int32Array(nx * ny + 1);
  lists.forEach((l, k) => (start[k + 1] = start[k] + l.length));
  return { g, cell, nx, ny, start, items: Int32Array.from(lists.flat()) };
}

/** Heights of the walkable surfaces over (x, y) (barycentric interpolation). */
function surfacesAt(w: Walk, x: number, y: number): number[] {
  const bx = Math.floor(x / w.cell), by = Math.floor(y / w.cell);
  if (bx < 0 || by < 0 || bx >= w.nx || by >= w.ny) return [];
  const out: number[] = [];
  const v = w.g.vertices, t = w.g.triangles;
  for (let k = w.start[by * w.nx + bx]; k < w.start[by * w.nx + bx + 1]; k++) {
    const i = w.items[k];
    const a = 3 * t[3 * i], b = 3 * t[3 * i + 1], c = 3 * t[3 * i + 2];
    const d = (v[b] - v[a]) * (v[c + 1] - v[a + 1]) - (v[b + 1] - v[a + 1]) * (v[c] - v[a]);
    if (d === 0) continue;
    const l1 = ((x - v[a]) * (v[c + 1] - v[a + 1]) - (y - v[a + 1]) * (v[c] - v[a])) / d;
    const l2 = ((v[b] - v[a]) * (y - v[a + 1]) - (v[b + 1] - v[a + 1]) * (x - v[a])) / d;
    if (l1 < 0 || l2 < 0 || l1 + l2 > 1) continue;
    out.push(v[a + 2] + l1 * (v[b + 2] - v[a + 2]) + l2 * (v[c + 2] - v[a + 2]));
  }
  return out;
}

/**
 * Legs derived from the geometry, deterministic for the mesh: up to three straight walks on
 * one flat floor (every 0.1 px of the segment, and 0.5 px to either side, over a walkable
 * triangle within 0.2 m of the start height — the lowest surface at the start for which this
 * holds — with nothing from 0.2 to 2.5 m above it) — `ok` —
 * and a start far (> 16 px) from every walkable triangle — `snap_far_from_mesh`.
 */
export function geometryLegs(s: RealMeshSpec, g: ZoneGeometry): Leg[] {
  const w = walkIndex(g, s.sizePx[0], s.sizePx[1]);
  const rng = mulberry32(0x5eed);
  const legs: Leg[] = [];
  const r = (v: number) => Math.round(v * 4) / 4;
  // On the floor at h, with no surface within 2.5 m above it (a ceiling lower than the
  // character, or a floor the snap would prefer); surfaces below are allowed (slab undersides).
  const flatAt = (x: number, y: number, h: number) => {
    const hs = surfacesAt(w, x, y);
    return hs.some((z) => Math.abs(z - h) <= 0.2) && hs.every((z) => z <= h + 0.2 || z > h + 2.5);
  };
  for (let tries = 0; tries < 20000 && legs.length < 3; tries++) {
    const ax = r(rng() * s.sizePx[0]), ay = r(rng() * s.sizePx[1]);
    const all = surfacesAt(w, ax, ay).sort((a, b) => a - b);
    if (all.length === 0) continue;
    const ang = rng() * 2 * Math.PI, len = 6 + 14 * rng();
    const bx = r(ax + len * Math.cos(ang)), by = r(ay + len * Math.sin(ang));
    const L = Math.hypot(bx - ax, by - ay), nx = -(by - ay) / (2 * L), ny = (bx - ax) / (2 * L);
    // The lowest surface at the start whose whole strip is one clear floor (a floor under a
    // high ceiling before the roof above it).
    const h = all.find((h0) => {
      for (let k = 0; k <= L * 10; k++) {
        const x = ax + ((bx - ax) * k) / (L * 10), y = ay + ((by - ay) * k) / (L * 10);
        if (!(flatAt(x, y, h0) && flatAt(x + nx, y + ny, h0) && flatAt(x - nx, y - ny, h0))) {
          return false;
        }
      }
      return true;
    });
    if (h === undefined) continue;
    const hs = [h];
    legs.push({
      id: `flat_walk_${legs.length + 1}`,
      zone: s.name,
      start: [ax, ay],
      goal: [bx, by],
      start_floor_y: Math.round(hs[0] * 100) / 100,
      goal_floor_y: Math.round(hs[0] * 100) / 100,
      expected: "ok",
      landmarks: [],
      note: `straight ${L.toFixed(1)}-px walk on one flat floor (h ≈ ${
        hs[0].toFixed(2)
      } m, 0.5 px margin)`,
    });
  }
  // The grid point (2-px steps) farthest from the walkable triangles, if it is > 16 px away.
  let best = { d: 0, x: 0, y: 0 };
  const out = new Float64Array(2);
  for (let y = 0; y <= s.sizePx[1]; y += 2) {
    for (let x = 0; x <= s.sizePx[0]; x += 2) {
      let d = Infinity;
      for (let i = 0; i < g.triangles.length / 3 && d > best.d; i++) {
        if ((g.surfaceFlags[i] & 0x00020cdd) === 0) continue;
        d = Math.min(d, closestOnTriangle(g.vertices, g.triangles, i, x, y, out));
      }
      if (d > best.d) best = { d, x, y };
    }
  }
  if (best.d > 16.5 && legs.length > 0) {
    legs.push({
      id: "snap_far",
      zone: s.name,
      start: [best.x, best.y],
      goal: legs[0].start,
      expected: "snap_far_from_mesh",
      landmarks: [],
      note: `start ${
        best.d.toFixed(1)
      } px from the nearest walkable triangle (> 16 px snap radius)`,
    });
  }
  return legs;
}
