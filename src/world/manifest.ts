/**
 * The world manifest: one JSON file that says which zones a world has and where their geometry,
 * occluders, off-mesh links and author no-go zones come from. Validation is strict: an unknown
 * key, a wrong type or an out-of-range value is one NavscopeError naming the manifest file and
 * the JSON path of the bad field (e.g. `zones[1].meshes[0].px_per_m`). Relative file paths
 * resolve against the manifest's directory. See the README section "World manifest".
 * @module
 */
import { type Landmark, validateLandmarks } from "./landmarks.ts";
import { NavscopeError } from "../errors.ts";
import { decodeUtf8Strict, parseJson, readFileBytes } from "../codec/mod.ts";
import { escapeControls, nameFault, PLAUSIBLE_NAME } from "../codec/json_strict.ts";

/** Format tag written in every manifest. */
export const MANIFEST_FORMAT = "navscope-world";
/** The only manifest version so far. */
export const MANIFEST_VERSION = 1;

/**
 * Named surface flags for manifests. `walkable` is bit 0 (inside the 0x00020CDD whitelist),
 * `water` bit 1 and `blocked` no bit (both outside it, so unwalkable: spec 面属性).
 */
export const SURFACE_PRESETS: Readonly<Record<string, number>> = {
  walkable: 0x1,
  water: 0x2,
  blocked: 0x0,
};

/**
 * Slope rule of a mesh entry without `max_slope_deg`: 45°, Recast's default walkable slope, so
 * ceilings, slab undersides and walls are never walkable by accident.
 */
export const DEFAULT_MAX_SLOPE_DEG = 45;

/** A pixel affine `x' = sx·x + tx`, `y' = sy·y + ty` (formulas.md #7). */
export interface Affine {
  /** x scale. */
  sx: number;
  /** x offset, px. */
  tx: number;
  /** y scale. */
  sy: number;
  /** y offset, px. */
  ty: number;
}

/** Where a source mesh's geometry goes: scale, up axis and offsets. */
export interface Placement {
  /** Absolute path of the OBJ file. */
  file: string;
  /** Horizontal px per metre (1 when the file is already in px). */
  pxPerM: number;
  /**
   * Metres per model unit, applied to all three axes before `pxPerM` (1 = the file is in metres;
   * 5 for a model built at 1/5 scale). Heights become `h · mPerUnit` metres.
   */
  mPerUnit: number;
  /** Up axis of the file. */
  up: "y" | "z";
  /** Added to (u, v) after scaling, px. */
  offsetPx: [number, number];
  /** Added to heights, m. */
  offsetH: number;
  /** `g`/`o` names whose triangles are dropped. */
  exclude: string[];
}

/** A walkable-geometry mesh of a zone. */
export interface MeshSpec extends Placement {
  /** Which OBJ name keys `surfaces`: the `g` name (falling back to `o`) or the `usemtl` name. */
  match: "group" | "material";
  /** Name → surface flags. */
  surfaces: Record<string, number>;
  /** Surface flags of triangles whose name is not in `surfaces`. */
  defaultSurface: number;
  /**
   * Triangles steeper than this many degrees get `steepSurface`; undefined = no slope rule
   * (manifest `"max_slope_deg": null`). The manifest default is {@link DEFAULT_MAX_SLOPE_DEG}.
   */
  maxSlopeDeg?: number;
  /** Surface flags of steep triangles. */
  steepSurface: number;
  /** Merge bit-identical vertices on import. */
  weld: boolean;
}

/** An off-mesh link between two points (px, px, m). */
export interface OffMeshLinkSpec {
  /** Start point. */
  a: [number, number, number];
  /** End point. */
  b: [number, number, number];
  /** Radius, px. */
  radius: number;
  /** Cost factor (the jump cost is max(cost, 1) × cell distance). */
  cost: number;
  /** Usable in both directions. */
  bidirectional: boolean;
}

/** An author no-go zone: polygon rings in px (even–odd rule), optionally tied to a floor. */
export interface NoGoSpec {
  /** Label for messages. */
  name: string;
  /** Rings of (x, y) px points, at least 3 each. */
  rings: [number, number][][];
  /** Floor height, m: only cells within ±12 m of it are marked; undefined = every layer. */
  floorY?: number;
}

/** One zone of the world. */
export interface ZoneSpec {
  /** Zone id, 1-based in manifest order (0 is never used: isTraversableLink rule 1). */
  id: number;
  /** Unique zone name. */
  name: string;
  /** Width and height, px. */
  sizePx: [number, number];
  /** Origin of the zone's pixel frame, px. */
  originPx: [number, number];
  /** Main floor height, m. */
  floorY: number;
  /** Pixel → world affine; for a tier zone, tier template px → parent px. */
  affine: Affine;
  /** Parent zone name for a tier zone. */
  parent?: string;
  /** Walkable geometry. */
  meshes: MeshSpec[];
  /** Collision meshes for ledge-drop checks. */
  occluders: Placement[];
  /** Off-mesh links. */
  offMeshLinks: OffMeshLinkSpec[];
  /** Author no-go zones. */
  noGo: NoGoSpec[];
  /** The manifest file this zone comes from (for errors that name a JSON path). */
  manifest?: string;
}

/** A validated manifest with absolute paths. */
export interface WorldManifest {
  /** Absolute path of the manifest file. */
  file: string;
  /** Directory relative paths were resolved against. */
  dir: string;
  /** World name. */
  name: string;
  /** Zones in manifest order. */
  zones: ZoneSpec[];
  /** Named landmarks: features at known coordinates (empty when the manifest has none). */
  landmarks: Landmark[];
}

/** Reads and validates a manifest file. */
export async function loadManifest(path: string): Promise<WorldManifest> {
  const abs = absolutePath(path);
  const text = decodeUtf8Strict(await readFileBytes(abs), { file: abs });
  return parseManifest(text, abs);
}

/** Parses and validates manifest text; `file` names it in errors and anchors relative paths. */
export function parseManifest(text: string, file: string): WorldManifest {
  return validateManifest(parseJson(text, { file }), file);
}

/** Validates parsed JSON as a manifest. */
export function validateManifest(json: unknown, file: string): WorldManifest {
  const c = new Checker(file);
  const root = c.obj(json, "$", ["format", "version", "name", "zones", "landmarks"]);
  if (root.format !== MANIFEST_FORMAT) {
    c.fail("$.format", `is ${show(root.format)}`, `"${MANIFEST_FORMAT}"`);
  }
  if (root.version !== MANIFEST_VERSION) {
    c.fail("$.version", `is ${show(root.version)}`, `${MANIFEST_VERSION}`);
  }
  const name = root.name === undefined ? baseName(file) : c.str(root.name, "$.name");
  const zj = c.arr(root.zones, "$.zones", 1);
  // Relative paths resolve against the manifest's directory, made absolute first.
  const dir = dirName(absolutePath(file));
  const zones = zj.map((z, i) => ({ ...zone(c, z, `$.zones[${i}]`, i + 1, dir), manifest: file }));
  crossCheck(c, zones);
  const landmarks = root.landmarks === undefined ? [] : validateLandmarks(root.landmarks, file);
  landmarks.forEach((l, i) => {
    if (!zones.some((z) => z.name === l.zone)) {
      c.fail(`$.landmarks[${i}].zone`, `is ${show(l.zone)}`, "the name of a zone of this manifest");
    }
  });
  return { file, dir, name, zones, landmarks };
}

function zone(c: Checker, j: unknown, p: string, id: number, dir: string): ZoneSpec {
  const o = c.obj(j, p, [
    "name",
    "size_px",
    "origin_px",
    "floor_y",
    "affine",
    "parent",
    "meshes",
    "occluders",
    "off_mesh_links",
    "no_go",
  ]);
  const name = c.zoneName(o.name, `${p}.name`);
  const sizePx = c.vec(o.size_px, `${p}.size_px`, 2) as [number, number];
  if (!(sizePx[0] > 0 && sizePx[1] > 0)) {
    c.fail(`${p}.size_px`, `is ${show(sizePx)}`, "two positive numbers");
  }
  const originPx = o.origin_px === undefined ? [0, 0] : c.vec(o.origin_px, `${p}.origin_px`, 2);
  const floorY = o.floor_y === undefined ? 0 : c.num(o.floor_y, `${p}.floor_y`);
  const affine = o.affine === undefined
    ? { sx: 1, tx: 0, sy: 1, ty: 0 }
    : affineOf(c, o.affine, `${p}.affine`);
  const parent = o.parent === undefined ? undefined : c.str(o.parent, `${p}.parent`);
  const meshes = (o.meshes === undefined ? [] : c.arr(o.meshes, `${p}.meshes`, 0)).map((m, i) =>
    meshSpec(c, m, `${p}.meshes[${i}]`, dir)
  );
  if (parent === undefined && meshes.length === 0) {
    c.fail(
      `${p}.meshes`,
      "is missing or empty",
      "at least one mesh for a zone that is not a tier zone",
    );
  }
  if (parent !== undefined && meshes.length > 0) {
    c.fail(
      `${p}.meshes`,
      "is given for a tier zone",
      "no meshes: a tier zone has no triangles of its own (spec 区表)",
    );
  }
  const occluders = (o.occluders === undefined ? [] : c.arr(o.occluders, `${p}.occluders`, 0)).map((
    m,
    i,
  ) => placement(c, c.obj(m, `${p}.occluders[${i}]`, PLACEMENT_KEYS), `${p}.occluders[${i}]`, dir));
  const links =
    (o.off_mesh_links === undefined ? [] : c.arr(o.off_mesh_links, `${p}.off_mesh_links`, 0))
      .map((l, i) => offMeshLink(c, l, `${p}.off_mesh_links[${i}]`));
  const noGo = (o.no_go === undefined ? [] : c.arr(o.no_go, `${p}.no_go`, 0)).map((n, i) =>
    noGoSpec(c, n, `${p}.no_go[${i}]`)
  );
  return {
    id,
    name,
    sizePx,
    originPx: originPx as [number, number],
    floorY,
    affine,
    parent,
    meshes,
    occluders,
    offMeshLinks: links,
    noGo,
  };
}

const PLACEMENT_KEYS = [
  "file",
  "px_per_m",
  "m_per_unit",
  "up",
  "offset_px",
  "offset_h",
  "exclude",
];

function placement(c: Checker, o: Record<string, unknown>, p: string, dir: string): Placement {
  const f = c.str(o.file, `${p}.file`);
  const pxPerM = o.px_per_m === undefined ? 1 : c.num(o.px_per_m, `${p}.px_per_m`);
  if (!(pxPerM > 0)) c.fail(`${p}.px_per_m`, `is ${pxPerM}`, "a positive number");
  const mPerUnit = o.m_per_unit === undefined ? 1 : c.num(o.m_per_unit, `${p}.m_per_unit`);
  if (!(mPerUnit > 0)) c.fail(`${p}.m_per_unit`, `is ${mPerUnit}`, "a positive number");
  const up = o.up === undefined ? "y" : o.up;
  if (up !== "y" && up !== "z") c.fail(`${p}.up`, `is ${show(up)}`, `"y" or "z"`);
  const offsetPx = o.offset_px === undefined ? [0, 0] : c.vec(o.offset_px, `${p}.offset_px`, 2);
  const offsetH = o.offset_h === undefined ? 0 : c.num(o.offset_h, `${p}.offset_h`);
  const exclude = o.exclude === undefined
    ? []
    : c.arr(o.exclude, `${p}.exclude`, 0).map((e, i) => c.str(e, `${p}.exclude[${i}]`));
  return {
    file: resolvePath(dir, f),
    pxPerM,
    mPerUnit,
    up: up as "y" | "z",
    offsetPx: offsetPx as [number, number],
    offsetH,
    exclude,
  };
}

function meshSpec(c: Checker, j: unknown, p: string, dir: string): MeshSpec {
  const o = c.obj(j, p, [
    ...PLACEMENT_KEYS,
    "match",
    "surfaces",
    "default_surface",
    "max_slope_deg",
    "steep_surface",
    "weld",
  ]);
  const base = placement(c, o, p, dir);
  const match = o.match === undefined ? "group" : o.match;
  if (match !== "group" && match !== "material") {
    c.fail(`${p}.match`, `is ${show(match)}`, `"group" or "material"`);
  }
  const surfaces: Record<string, number> = {};
  if (o.surfaces !== undefined) {
    const s = c.obj(o.surfaces, `${p}.surfaces`, null);
    for (const k of Object.keys(s).sort()) {
      surfaces[k] = surface(c, s[k], `${p}.surfaces[${JSON.stringify(k)}]`);
    }
  }
  const defaultSurface = o.default_surface === undefined
    ? SURFACE_PRESETS.walkable
    : surface(c, o.default_surface, `${p}.default_surface`);
  let maxSlopeDeg: number | undefined = DEFAULT_MAX_SLOPE_DEG;
  if (o.max_slope_deg === null) maxSlopeDeg = undefined;
  else if (o.max_slope_deg !== undefined) {
    maxSlopeDeg = c.num(o.max_slope_deg, `${p}.max_slope_deg`);
    if (!(maxSlopeDeg >= 0 && maxSlopeDeg <= 90)) {
      c.fail(`${p}.max_slope_deg`, `is ${maxSlopeDeg}`, "0..90");
    }
  }
  const steepSurface = o.steep_surface === undefined
    ? SURFACE_PRESETS.blocked
    : surface(c, o.steep_surface, `${p}.steep_surface`);
  const weld = o.weld === undefined ? true : c.bool(o.weld, `${p}.weld`);
  return { ...base, match, surfaces, defaultSurface, maxSlopeDeg, steepSurface, weld };
}

function surface(c: Checker, v: unknown, p: string): number {
  if (typeof v === "string") {
    const f = SURFACE_PRESETS[v];
    if (f === undefined) {
      c.fail(p, `is ${show(v)}`, `one of ${Object.keys(SURFACE_PRESETS).join(", ")} or a u32`);
    }
    return f;
  }
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    c.fail(
      p,
      `is ${show(v)}`,
      `a surface name (${Object.keys(SURFACE_PRESETS).join(", ")}) or an integer 0..0xFFFFFFFF`,
    );
  }
  return v as number;
}

function affineOf(c: Checker, j: unknown, p: string): Affine {
  const o = c.obj(j, p, ["sx", "tx", "sy", "ty"]);
  const a = {
    sx: c.num(o.sx, `${p}.sx`),
    tx: c.num(o.tx, `${p}.tx`),
    sy: c.num(o.sy, `${p}.sy`),
    ty: c.num(o.ty, `${p}.ty`),
  };
  if (a.sx === 0 || a.sy === 0) c.fail(p, "has a zero scale", "sx ≠ 0 and sy ≠ 0");
  return a;
}

function offMeshLink(c: Checker, j: unknown, p: string): OffMeshLinkSpec {
  const o = c.obj(j, p, ["a", "b", "radius", "cost", "bidirectional"]);
  const a = c.vec(o.a, `${p}.a`, 3) as [number, number, number];
  const b = c.vec(o.b, `${p}.b`, 3) as [number, number, number];
  const radius = o.radius === undefined ? 1 : c.num(o.radius, `${p}.radius`);
  if (!(radius > 0)) c.fail(`${p}.radius`, `is ${radius}`, "a positive number of px");
  const cost = o.cost === undefined ? 1 : c.num(o.cost, `${p}.cost`);
  if (!(cost >= 0)) c.fail(`${p}.cost`, `is ${cost}`, "a number ≥ 0");
  const bidirectional = o.bidirectional === undefined
    ? true
    : c.bool(o.bidirectional, `${p}.bidirectional`);
  if (a[0] === b[0] && a[1] === b[1] && a[2] === b[2]) {
    c.fail(p, "joins a point to itself", "two different points");
  }
  return { a, b, radius, cost, bidirectional };
}

function noGoSpec(c: Checker, j: unknown, p: string): NoGoSpec {
  const o = c.obj(j, p, ["name", "rings", "floor_y"]);
  const name = o.name === undefined ? p : c.str(o.name, `${p}.name`);
  const rings = c.arr(o.rings, `${p}.rings`, 1).map((r, i) => {
    const pts = c.arr(r, `${p}.rings[${i}]`, 3);
    return pts.map((pt, k) => c.vec(pt, `${p}.rings[${i}][${k}]`, 2) as [number, number]);
  });
  const floorY = o.floor_y === undefined ? undefined : c.num(o.floor_y, `${p}.floor_y`);
  return { name, rings, floorY };
}

function crossCheck(c: Checker, zones: ZoneSpec[]): void {
  const byName = new Map<string, ZoneSpec>();
  zones.forEach((z, i) => {
    if (byName.has(z.name)) {
      c.fail(`$.zones[${i}].name`, `repeats zone name ${show(z.name)}`, "unique zone names");
    }
    byName.set(z.name, z);
  });
  zones.forEach((z, i) => {
    if (z.parent === undefined) return;
    const p = byName.get(z.parent);
    if (!p) {
      c.fail(
        `$.zones[${i}].parent`,
        `names unknown zone ${show(z.parent)}`,
        "the name of another zone",
      );
    }
    if (p === z) c.fail(`$.zones[${i}].parent`, "names the zone itself", "another zone");
    if (p!.parent !== undefined) {
      c.fail(
        `$.zones[${i}].parent`,
        `names tier zone ${show(z.parent)}`,
        "a zone that is not itself a tier zone",
      );
    }
  });
  zones.forEach((z, i) => {
    const [x0, y0] = z.originPx, [w, h] = z.sizePx;
    z.offMeshLinks.forEach((l, k) => {
      for (const [end, pt] of [["a", l.a], ["b", l.b]] as const) {
        if (pt[0] < x0 || pt[0] > x0 + w || pt[1] < y0 || pt[1] > y0 + h) {
          c.fail(
            `$.zones[${i}].off_mesh_links[${k}].${end}`,
            `(${pt[0]}, ${pt[1]}) lies outside the zone`,
            `a point in [${x0}, ${x0 + w}] × [${y0}, ${y0 + h}] px`,
          );
        }
      }
    });
  });
}

/** Typed accessors that fail with the JSON path. */
class Checker {
  constructor(readonly file: string) {}

  fail(path: string, what: string, expected: string): never {
    // The path goes in `section`, so the message reads "file: $.zones[0].x: is … (expected …)".
    throw new NavscopeError("bad_value", what, { file: this.file, section: path }, expected);
  }

  obj(v: unknown, p: string, keys: string[] | null): Record<string, unknown> {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      this.fail(p, `is ${show(v)}`, "an object");
    }
    const o = v as Record<string, unknown>;
    if (keys) {
      for (const k of Object.keys(o)) {
        if (!keys.includes(k)) {
          this.fail(`${p}.${k}`, "is not a known key", `one of ${keys.join(", ")}`);
        }
      }
    }
    return o;
  }

  arr(v: unknown, p: string, min: number): unknown[] {
    if (!Array.isArray(v)) this.fail(p, `is ${show(v)}`, "an array");
    if (v.length < min) this.fail(p, `has ${v.length} entries`, `at least ${min}`);
    return v;
  }

  str(v: unknown, p: string): string {
    if (typeof v !== "string" || v === "") this.fail(p, `is ${show(v)}`, "a non-empty string");
    return v;
  }

  /**
   * A zone name: a string that is a plausible name (`isPlausibleName`), as the pack encoders
   * and decoders require — refused here, before anything is baked, so bake never writes one.
   */
  zoneName(v: unknown, p: string): string {
    if (typeof v !== "string") this.fail(p, `is ${show(v)}`, PLAUSIBLE_NAME);
    const fault = nameFault(v);
    if (fault) this.fail(p, `is ${show(v)}: ${fault}`, PLAUSIBLE_NAME);
    return v;
  }

  num(v: unknown, p: string): number {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      this.fail(p, `is ${show(v)}`, "a finite number");
    }
    return v;
  }

  bool(v: unknown, p: string): boolean {
    if (typeof v !== "boolean") this.fail(p, `is ${show(v)}`, "true or false");
    return v;
  }

  vec(v: unknown, p: string, n: number): number[] {
    const a = this.arr(v, p, 0);
    if (a.length !== n) this.fail(p, `has ${a.length} entries`, `exactly ${n} numbers`);
    return a.map((x, i) => this.num(x, `${p}[${i}]`));
  }
}

function show(v: unknown): string {
  if (v === undefined) return "missing";
  // JSON.stringify leaves DEL, C1 and bidi controls as they are: escaped for a one-line message.
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : escapeControls(s.length > 60 ? s.slice(0, 57) + "..." : s);
}

function absolutePath(p: string): string {
  return p.startsWith("/") ? normalize(p) : normalize(`${Deno.cwd()}/${p}`);
}

/** Resolves `p` against directory `dir` (absolute paths are kept), normalising `.` and `..`. */
export function resolvePath(dir: string, p: string): string {
  return p.startsWith("/") ? normalize(p) : normalize(`${dir}/${p}`);
}

function normalize(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

function dirName(file: string): string {
  const i = file.lastIndexOf("/");
  return i > 0 ? file.slice(0, i) : i === 0 ? "/" : ".";
}

function baseName(file: string): string {
  const b = file.slice(file.lastIndexOf("/") + 1);
  return b.replace(/\.json$/i, "") || "world";
}
