/**
 * Author no-go table (spec 作者禁区 / 禁区表; 引擎装载 item 3; 标墙与标禁区). The spec gives
 * the semantics but no file format; navscope defines this JSON file (navscope's default name
 * beside a pack is `base.nogo.json`, see `pairing.ts`):
 *
 * ```json
 * {
 *   "format": "navscope-nogo",
 *   "version": 1,
 *   "zones": {
 *     "Wuling_Base": [
 *       { "name": "pit", "floor": 12.5, "rings": [[[10, 20], [30, 20], [30, 40]]] }
 *     ]
 *   }
 * }
 * ```
 *
 * - `zones`: zone name → list of polygons. A polygon is one or more `rings`; each ring is ≥ 3
 *   `[x, y]` points in px (zone map pixels), closed implicitly (repeating the first point is
 *   harmless). A point is inside a polygon when it is inside an odd number of its rings
 *   (even–odd rule over all rings together, so holes and hand-drawn self-intersecting rings
 *   have a definite answer — spec: "点是否在环内按奇偶规则判断").
 * - `floor` (optional, metres): the polygon only covers heights within ±12 m of that floor
 *   (kBaseNavFloorBand = 12, inclusive: |h − floor| ≤ 12, the same band snapping uses —
 *   formulas.md 64). Without `floor` the polygon covers every layer under it.
 * - `name` (optional): a label for diagnostics.
 *
 * Loading is strict (spec 数据包: "没有这个文件就当没有禁区,文件在却读不通,引擎同样不可用"):
 * a missing file is an empty table; a file that exists but is unreadable, not JSON, or has any
 * bad field is one NavscopeError naming the file and the JSON path of the bad field. Unknown keys
 * are errors too, so a typo (`"flor"`) cannot silently disable a band.
 * @module
 */
import { NavscopeError } from "../../errors.ts";
import { checkBound, COORD_PX, HEIGHT } from "../bounds.ts";
import { parseJson } from "../../codec/json.ts";
import {
  decodeUtf8Strict,
  escapeControls,
  isPlausibleName,
  nameFault,
} from "../../codec/json_strict.ts";

/** Format tag of the no-go table file. */
export const NOGO_FORMAT = "navscope-nogo";
/** The only format version. */
export const NOGO_VERSION = 1;
/** Height band around a polygon's floor, metres (spec: ±12, kBaseNavFloorBand). */
export const K_FLOOR_BAND = 12;

/** The polygons of one zone, flat. Polygon p owns rings `polyRingStart[p] .. [p+1]`. */
export interface NoGoZone {
  /** Number of polygons. */
  polyCount: number;
  /** Per polygon: floor in metres, or NaN when it covers every layer. */
  polyFloor: Float64Array;
  /** Ring ranges per polygon, length polyCount + 1. */
  polyRingStart: Uint32Array;
  /** Point ranges per ring, length ringCount + 1. */
  ringPointStart: Uint32Array;
  /** Ring points, (x, y) px pairs. */
  points: Float64Array;
  /** Per polygon bounding box (minx, miny, maxx, maxy) for a cheap first test. */
  polyBox: Float64Array;
  /** Per polygon label ("" when none). */
  names: string[];
}

/** A parsed no-go table: zone name → polygons. */
export interface NoGoTable {
  /** Where it came from (file path, or undefined for an empty/in-memory table). */
  file?: string;
  /** Zones with at least one polygon entry (possibly an empty list). */
  zones: Map<string, NoGoZone>;
}

/** The JSON shape of one polygon (also the input of {@link noGoTableFromSpec}). */
export interface NoGoPolygonSpec {
  /** Optional label. */
  name?: string;
  /** Optional floor, metres. */
  floor?: number;
  /** Rings of [x, y] px points. */
  rings: [number, number][][];
}

/** A table with no zones (the state when no file exists). */
export function emptyNoGoTable(): NoGoTable {
  return { zones: new Map() };
}

/**
 * Loads the table at `path`. `undefined` or a missing file → empty table; an unreadable or
 * invalid file → NavscopeError (the engine must then be unusable).
 */
export async function loadNoGoTable(path: string | undefined): Promise<NoGoTable> {
  if (path === undefined) return emptyNoGoTable();
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return emptyNoGoTable();
    throw new NavscopeError("io", `cannot read the no-go table: ${(e as Error).message}`, {
      file: path,
      section: "no-go table",
    });
  }
  return parseNoGoTable(decodeUtf8Strict(bytes, { file: path, section: "no-go table" }), path);
}

/** Parses and validates the JSON text of a no-go table. */
export function parseNoGoTable(text: string, file = "<memory>"): NoGoTable {
  const doc = parseJson(
    text,
    { file, section: "no-go table" },
    "the no-go table is not valid JSON",
  );
  return fromDocument(doc, file);
}

type Json = unknown;

function fail(file: string, path: string, what: string, expected?: string): never {
  throw new NavscopeError(
    "bad_value",
    `${path}: ${what}`,
    { file, section: "no-go table" },
    expected,
  );
}

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkKeys(file: string, path: string, o: Record<string, Json>, allowed: string[]): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) {
      fail(file, path, `unknown key ${JSON.stringify(k)}`, `one of ${allowed.join(", ")}`);
    }
  }
}

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${base}.${key}`
    : `${base}[${escapeControls(JSON.stringify(key))}]`;
}

function fromDocument(doc: Json, file: string): NoGoTable {
  if (!isObject(doc)) fail(file, "$", "the table must be a JSON object");
  checkKeys(file, "$", doc, ["format", "version", "zones"]);
  if (doc.format !== NOGO_FORMAT) {
    fail(file, "$.format", `found ${JSON.stringify(doc.format)}`, JSON.stringify(NOGO_FORMAT));
  }
  if (doc.version !== NOGO_VERSION) {
    fail(file, "$.version", `found ${JSON.stringify(doc.version)}`, `${NOGO_VERSION}`);
  }
  if (!isObject(doc.zones)) fail(file, "$.zones", "must be an object of zone name → polygon list");
  const specs = new Map<string, NoGoPolygonSpec[]>();
  for (const [zone, list] of Object.entries(doc.zones)) {
    const zp = keyPath("$.zones", zone);
    if (!isPlausibleName(zone)) {
      fail(file, zp, "is not a zone name (empty, control characters or outer spaces)");
    }
    if (!Array.isArray(list)) fail(file, zp, "must be a list of polygons");
    specs.set(zone, list.map((p, i) => polygonSpec(file, `${zp}[${i}]`, p)));
  }
  const t = noGoTableFromSpec(specs);
  t.file = file;
  return t;
}

function polygonSpec(file: string, path: string, p: Json): NoGoPolygonSpec {
  if (!isObject(p)) fail(file, path, 'a polygon must be an object with "rings"');
  checkKeys(file, path, p, ["name", "floor", "rings"]);
  const out: NoGoPolygonSpec = { rings: [] };
  if (p.name !== undefined) {
    if (typeof p.name !== "string") fail(file, `${path}.name`, "must be a string");
    const f = nameFault(p.name);
    if (f) fail(file, `${path}.name`, `is ${JSON.stringify(p.name)}: ${f}`);
    out.name = p.name;
  }
  if (p.floor !== undefined) {
    if (typeof p.floor !== "number" || !Number.isFinite(p.floor)) {
      fail(file, `${path}.floor`, `found ${JSON.stringify(p.floor)}`, "a finite number of metres");
    }
    checkBound(p.floor, HEIGHT, { file, section: "no-go table" }, path, "floor");
    out.floor = p.floor;
  }
  if (!Array.isArray(p.rings) || p.rings.length === 0) {
    fail(file, `${path}.rings`, "must be a non-empty list of rings");
  }
  p.rings.forEach((ring: Json, r: number) =>
    out.rings.push(ringSpec(file, `${path}.rings[${r}]`, ring))
  );
  return out;
}

function ringSpec(file: string, path: string, ring: Json): [number, number][] {
  if (!Array.isArray(ring) || ring.length < 3) {
    fail(file, path, "a ring must be a list of at least 3 [x, y] points");
  }
  return ring.map((pt: Json, k: number) => {
    if (!Array.isArray(pt) || pt.length !== 2) {
      fail(file, `${path}[${k}]`, "a point must be [x, y]");
    }
    for (let a = 0; a < 2; a++) {
      if (typeof pt[a] !== "number" || !Number.isFinite(pt[a])) {
        fail(file, `${path}[${k}][${a}]`, `found ${JSON.stringify(pt[a])}`, "a finite number (px)");
      }
      checkBound(pt[a], COORD_PX, { file, section: "no-go table" }, `${path}[${k}]`, "xy"[a]);
    }
    return [pt[0], pt[1]] as [number, number];
  });
}

/**
 * The writer's copy of the parse-time bounds (issue 55): floor within ±1e5 m, ring points within
 * ±1e5 px (src/pack/bounds.ts), so navscope never writes a table it would refuse.
 */
function checkNoGoSpecBounds(p: NoGoPolygonSpec, path: string): void {
  const where = { section: "no-go table" };
  if (p.floor !== undefined) checkBound(p.floor, HEIGHT, where, path, "floor");
  p.rings.forEach((r, ri) =>
    r.forEach((pt, k) => {
      checkBound(pt[0], COORD_PX, where, `${path}.rings[${ri}][${k}]`, "x");
      checkBound(pt[1], COORD_PX, where, `${path}.rings[${ri}][${k}]`, "y");
    })
  );
}

/** Builds a table from plain polygon specs (already valid; the baker's and tests' entry point). */
export function noGoTableFromSpec(zones: Map<string, NoGoPolygonSpec[]>): NoGoTable {
  const out = emptyNoGoTable();
  for (const [zone, polys] of zones) out.zones.set(zone, buildZone(polys));
  return out;
}

function buildZone(polys: NoGoPolygonSpec[]): NoGoZone {
  const ringCount = polys.reduce((a, p) => a + p.rings.length, 0);
  const pointCount = polys.reduce((a, p) => a + p.rings.reduce((b, r) => b + r.length, 0), 0);
  const z: NoGoZone = {
    polyCount: polys.length,
    polyFloor: new Float64Array(polys.length),
    polyRingStart: new Uint32Array(polys.length + 1),
    ringPointStart: new Uint32Array(ringCount + 1),
    points: new Float64Array(2 * pointCount),
    polyBox: new Float64Array(4 * polys.length),
    names: polys.map((p) => p.name ?? ""),
  };
  let ring = 0, pt = 0;
  polys.forEach((p, i) => {
    z.polyFloor[i] = p.floor ?? NaN;
    z.polyBox.set([Infinity, Infinity, -Infinity, -Infinity], 4 * i);
    for (const r of p.rings) {
      for (const [x, y] of r) {
        z.points[2 * pt] = x;
        z.points[2 * pt + 1] = y;
        pt++;
        growBox(z.polyBox, 4 * i, x, y);
      }
      z.ringPointStart[++ring] = pt;
    }
    z.polyRingStart[i + 1] = ring;
  });
  return z;
}

function growBox(b: Float64Array, o: number, x: number, y: number): void {
  if (x < b[o]) b[o] = x;
  if (y < b[o + 1]) b[o + 1] = y;
  if (x > b[o + 2]) b[o + 2] = x;
  if (y > b[o + 3]) b[o + 3] = y;
}

/**
 * Even–odd test of (x, y) against rings `r0 .. r1` of a zone. Boundary rule (PNPOLY, half-open):
 * an edge counts when exactly one end is strictly above y (`(yi > y) !== (yj > y)`) and the
 * point is strictly left of the edge's crossing. Consequences: points on horizontal edges and
 * on right-hand edges are outside, points on left-hand edges are inside, and a point on an edge
 * shared by two adjacent polygons is inside exactly one of them — deterministic and gap-free.
 */
export function pointInRings(z: NoGoZone, r0: number, r1: number, x: number, y: number): boolean {
  let inside = false;
  const P = z.points;
  for (let r = r0; r < r1; r++) {
    const a = z.ringPointStart[r], b = z.ringPointStart[r + 1];
    for (let i = a, j = b - 1; i < b; j = i++) {
      const xi = P[2 * i], yi = P[2 * i + 1], xj = P[2 * j], yj = P[2 * j + 1];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/**
 * Index of the first polygon of `zone` containing (x, y) px at height h (metres), or −1.
 * Floor-banded polygons need |h − floor| ≤ 12; when h is not given they are assumed to apply
 * (an unknown height must never let a point out of a zone the author closed) [I].
 */
export function authorNoGoIndex(
  table: NoGoTable,
  zone: string,
  x: number,
  y: number,
  h?: number,
): number {
  const z = table.zones.get(zone);
  if (!z) return -1;
  for (let p = 0; p < z.polyCount; p++) {
    const o = 4 * p, B = z.polyBox;
    if (x < B[o] || x > B[o + 2] || y < B[o + 1] || y > B[o + 3]) continue;
    const f = z.polyFloor[p];
    if (h !== undefined && !Number.isNaN(f) && !(Math.abs(h - f) <= K_FLOOR_BAND)) continue;
    if (pointInRings(z, z.polyRingStart[p], z.polyRingStart[p + 1], x, y)) return p;
  }
  return -1;
}

/** True if (x, y) px at height h lies in an author no-go zone of `zone` (spec 前置检查 #7). */
export function inAuthorNoGo(
  table: NoGoTable,
  zone: string,
  x: number,
  y: number,
  h?: number,
): boolean {
  return authorNoGoIndex(table, zone, x, y, h) >= 0;
}

/** The polygons of a zone back as specs (file order). */
export function noGoZoneSpecs(z: NoGoZone): NoGoPolygonSpec[] {
  const out: NoGoPolygonSpec[] = [];
  for (let p = 0; p < z.polyCount; p++) {
    const spec: NoGoPolygonSpec = { rings: [] };
    if (z.names[p] !== "") spec.name = z.names[p];
    if (!Number.isNaN(z.polyFloor[p])) spec.floor = z.polyFloor[p];
    for (let r = z.polyRingStart[p]; r < z.polyRingStart[p + 1]; r++) {
      const ring: [number, number][] = [];
      for (let k = z.ringPointStart[r]; k < z.ringPointStart[r + 1]; k++) {
        ring.push([z.points[2 * k], z.points[2 * k + 1]]);
      }
      spec.rings.push(ring);
    }
    out.push(spec);
  }
  return out;
}

/**
 * Stable JSON text of a table (the baker's writer): zones sorted by name (UTF-16 code-unit
 * order), polygons and rings in table order, keys in the order name, floor, rings, one ring per
 * line, numbers in JavaScript's shortest round-trip form. Parsing the text gives the same table,
 * and encoding that again gives the same text.
 */
export function encodeNoGoTable(table: NoGoTable): string {
  const names = [...table.zones.keys()].sort();
  const lines = [
    "{",
    `  "format": ${JSON.stringify(NOGO_FORMAT)},`,
    `  "version": ${NOGO_VERSION},`,
  ];
  if (names.length === 0) {
    lines.push('  "zones": {}', "}");
    return lines.join("\n") + "\n";
  }
  lines.push('  "zones": {');
  names.forEach((zn, zi) => {
    const polys = noGoZoneSpecs(table.zones.get(zn)!);
    const zc = zi + 1 < names.length ? "," : "";
    if (polys.length === 0) {
      lines.push(`    ${JSON.stringify(zn)}: []${zc}`);
      return;
    }
    lines.push(`    ${JSON.stringify(zn)}: [`);
    polys.forEach((p, pi) => {
      checkNoGoSpecBounds(p, `$.zones[${JSON.stringify(zn)}][${pi}]`);
      lines.push("      {");
      if (p.name !== undefined) lines.push(`        "name": ${JSON.stringify(p.name)},`);
      if (p.floor !== undefined) lines.push(`        "floor": ${JSON.stringify(p.floor)},`);
      lines.push('        "rings": [');
      p.rings.forEach((r, ri) => {
        const pts = r.map(([x, y]) => `[${JSON.stringify(x)}, ${JSON.stringify(y)}]`).join(", ");
        lines.push(`          [${pts}]${ri + 1 < p.rings.length ? "," : ""}`);
      });
      lines.push("        ]", `      }${pi + 1 < polys.length ? "," : ""}`);
    });
    lines.push(`    ]${zc}`);
  });
  lines.push("  }", "}");
  return lines.join("\n") + "\n";
}
