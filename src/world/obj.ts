/**
 * Wavefront OBJ import (world layer). Reads `v` and `f` (polygons are fan-triangulated; `v`,
 * `v/vt`, `v//vn`, `v/vt/vn` and negative indices are accepted) and remembers the current `g`,
 * `o` and `usemtl` names per triangle so the manifest can map them to surface flags. Every bad
 * input is one NavscopeError with file and line; degenerate triangles are dropped and counted.
 *
 * Axes: the source is right-handed. With `up = "y"` (the usual Y-up export) a vertex (x, y, z)
 * becomes `u = x·s + ox`, `v = z·s + oy`, `h = y + oh`: looking down −y, x goes right and z goes
 * down the map, like image rows. With `up = "z"`: `u = x·s + ox`, `v = −y·s + oy`, `h = z + oh`.
 * `s` is px per metre (horizontal only; heights stay in metres).
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { checkBound, COORD_PX, HEIGHT } from "../pack/bounds.ts";
import { readFileBytes } from "../codec/mod.ts";
import { orientCcw } from "../zone_mesh/mod.ts";
import type { MeshSpec, ZoneSpec } from "./manifest.ts";

/** A parsed OBJ file: positions, triangles and the names in force for each triangle. */
export interface ObjData {
  /** Source file (for errors). */
  file: string;
  /** x, y, z per vertex, as written. */
  positions: Float64Array;
  /** 1-based source line of each `v` statement. */
  vertLine: Uint32Array;
  /** 0-based vertex indices, 3 per triangle (fan-triangulated, repeated-index triangles removed). */
  triangles: Uint32Array;
  /** Index into `groups` per triangle (the last `g` name, "" if none). */
  triGroup: Uint32Array;
  /** Index into `objects` per triangle (the last `o` name, "" if none). */
  triObject: Uint32Array;
  /** Index into `materials` per triangle (the last `usemtl` name, "" if none). */
  triMaterial: Uint32Array;
  /** 1-based source line of each triangle's `f` statement. */
  triLine: Uint32Array;
  /** Distinct `g` names in first-seen order; index 0 is "". */
  groups: string[];
  /** Distinct `o` names; index 0 is "". */
  objects: string[];
  /** Distinct `usemtl` names; index 0 is "". */
  materials: string[];
  /** Counts. */
  stats: ObjStats;
}

/** What the parser saw. */
export interface ObjStats {
  /** Lines read. */
  lines: number;
  /** `v` statements. */
  vertices: number;
  /** `f` statements. */
  faces: number;
  /** Triangles kept after fan triangulation. */
  triangles: number;
  /** Triangles dropped because a vertex index repeats (e.g. `f 1 2 2`). */
  degenerate: number;
  /** Statements ignored (vt, vn, s, l, p, mtllib, unknown keywords…). */
  ignored: number;
}

/** Reads and parses an OBJ file; a missing file is one `io` error naming it. */
export async function readObj(path: string): Promise<ObjData> {
  const bytes = await readFileBytes(path);
  notObjCheck(bytes, path);
  const obj = parseObj(new TextDecoder().decode(bytes), path);
  if (obj.stats.vertices === 0 && obj.stats.faces === 0 && obj.stats.ignored > 0) {
    throw new NavscopeError(
      "bad_value",
      `not an OBJ file: none of its ${obj.stats.lines} lines is a 'v' or 'f' statement`,
      { file: path },
      "a Wavefront OBJ text file",
    );
  }
  return obj;
}

/** Rejects binary input (a .glb, a gzip, a pack) before it is parsed as OBJ text. */
function notObjCheck(bytes: Uint8Array, file: string): void {
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  const kind = magic === "glTF"
    ? "a binary glTF (.glb) file"
    : bytes[0] === 0x1f && bytes[1] === 0x8b
    ? "a gzip file"
    : bytes.subarray(0, 4096).includes(0)
    ? "binary data"
    : null;
  if (kind !== null) {
    throw new NavscopeError(
      "bad_value",
      `not an OBJ file: it is ${kind}`,
      { file, offset: 0 },
      "a Wavefront OBJ text file (convert glTF/FBX to OBJ first)",
    );
  }
}

/** A decimal number as OBJ writers print it (no hex/binary/octal literals, no words). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Face indices are stored as u32: a larger index can name no vertex (and would wrap). */
const MAX_INDEX = 0xffffffff;

/**
 * Parses OBJ text. Errors carry `file` and the 1-based `line`. U+FFFD anywhere (what a lossy
 * decode leaves for invalid UTF-8) is refused: names resolve surfaces, and a wrong byte there
 * would silently change which surface a triangle gets.
 */
export function parseObj(text: string, file = "<memory>"): ObjData {
  const bad = text.indexOf("\ufffd");
  if (bad >= 0) {
    let line = 1;
    for (let i = text.indexOf("\n"); i >= 0 && i < bad; i = text.indexOf("\n", i + 1)) line++;
    throw new NavscopeError(
      "bad_value",
      "invalid UTF-8 (or U+FFFD) in the text",
      { file, line },
      "UTF-8 text",
    );
  }
  // Growable typed columns instead of number[]: a large OBJ would otherwise leave hundreds of MB
  // of boxed arrays and promoted line strings resident (V8 keeps the pages) for the whole bake.
  const pos = new F64Growable(), tri = new U32Growable();
  const tg = new U32Growable(), to = new U32Growable(), tm = new U32Growable();
  const tl = new U32Growable(), vl = new U32Growable();
  const names = { g: new Names(), o: new Names(), m: new Names() };
  let g = 0, o = 0, m = 0;
  const stats: ObjStats = {
    lines: 0,
    vertices: 0,
    faces: 0,
    triangles: 0,
    degenerate: 0,
    ignored: 0,
  };
  // Positive indices may point forward in lenient files, so they are checked at the end.
  const pending: number[] = [];
  const idx: number[] = [];
  // Lines as `text.split(/\r\n|\n|\r/)` gives them, walked one at a time (no line array).
  const len = text.length;
  let at = 0;
  for (let ln = 0;; ln++) {
    let eol = at;
    while (eol < len) {
      const c = text.charCodeAt(eol);
      if (c === 10 || c === 13) break;
      eol++;
    }
    const line = text.slice(at, eol);
    stats.lines++;
    const hash = line.indexOf("#");
    const body = (hash >= 0 ? line.slice(0, hash) : line).trim();
    if (body !== "") {
      const tok = body.split(/\s+/);
      const where = { file, line: ln + 1 };
      switch (tok[0]) {
        case "v": {
          if (tok.length < 4) {
            throw new NavscopeError(
              "bad_value",
              `vertex has ${tok.length - 1} coordinates`,
              where,
              "v x y z",
            );
          }
          for (let k = 1; k <= 3; k++) {
            // Decimal only: Number() would also take 0x10, 0b11, 0o7 and "Infinity".
            const x = DECIMAL.test(tok[k]) ? Number(tok[k]) : NaN;
            // Vertices are stored as float32: a value finite as f64 but beyond f32 (1e308)
            // would import as ±Infinity.
            if (!Number.isFinite(x) || !Number.isFinite(Math.fround(x))) {
              throw new NavscopeError(
                "bad_value",
                `vertex coordinate ${k} is '${tok[k]}'`,
                where,
                Number.isFinite(x)
                  ? "a number within float32 range (|x| < 3.4e38)"
                  : "a finite decimal number",
              );
            }
            pos.push(x);
          }
          vl.push(ln + 1);
          stats.vertices++;
          break;
        }
        case "f": {
          if (tok.length < 4) {
            throw new NavscopeError(
              "bad_value",
              `face has ${tok.length - 1} vertices`,
              where,
              "at least 3",
            );
          }
          const nv = pos.length / 3;
          idx.length = 0;
          for (let k = 1; k < tok.length; k++) idx.push(faceIndex(tok[k], nv, where));
          stats.faces++;
          for (let k = 1; k + 1 < idx.length; k++) {
            const a = idx[0], b = idx[k], c = idx[k + 1];
            if (a === b || b === c || a === c) {
              stats.degenerate++;
              continue;
            }
            tri.push(a), tri.push(b), tri.push(c);
            tg.push(g);
            to.push(o);
            tm.push(m);
            tl.push(ln + 1);
            if (a >= nv || b >= nv || c >= nv) pending.push(tl.length - 1);
          }
          break;
        }
        case "g":
          g = names.g.id(tok.slice(1).join(" "));
          break;
        case "o":
          o = names.o.id(tok.slice(1).join(" "));
          break;
        case "usemtl":
          m = names.m.id(tok.slice(1).join(" "));
          break;
        default:
          stats.ignored++;
      }
    }
    if (eol >= len) break;
    at = eol + (text.charCodeAt(eol) === 13 && text.charCodeAt(eol + 1) === 10 ? 2 : 1);
  }
  const nv = pos.length / 3;
  const triA = tri.done(), tlA = tl.done();
  for (const t of pending) {
    for (let k = 0; k < 3; k++) {
      if (triA[3 * t + k] >= nv) {
        throw new NavscopeError(
          "offset_out_of_range",
          `face uses vertex ${triA[3 * t + k] + 1}, but the file has ${nv} vertices`,
          { file, line: tlA[t] },
          `1..${nv} or -1..-${nv}`,
        );
      }
    }
  }
  stats.triangles = tl.length;
  return {
    file,
    positions: pos.done(),
    vertLine: vl.done(),
    triangles: triA,
    triGroup: tg.done(),
    triObject: to.done(),
    triMaterial: tm.done(),
    triLine: tlA,
    groups: names.g.list,
    objects: names.o.list,
    materials: names.m.list,
    stats,
  };
}

/** A Float64Array that grows by doubling; `done` returns an exact-size copy. */
class F64Growable {
  #a = new Float64Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.#a.length) {
      const b = new Float64Array(2 * this.#a.length);
      b.set(this.#a);
      this.#a = b;
    }
    this.#a[this.length++] = x;
  }
  done(): Float64Array {
    return this.#a.slice(0, this.length);
  }
}

/** A Uint32Array that grows by doubling; `done` returns an exact-size copy. */
class U32Growable {
  #a = new Uint32Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.#a.length) {
      const b = new Uint32Array(2 * this.#a.length);
      b.set(this.#a);
      this.#a = b;
    }
    this.#a[this.length++] = x;
  }
  done(): Uint32Array {
    return this.#a.slice(0, this.length);
  }
}

class Names {
  readonly list: string[] = [""];
  readonly #map = new Map<string, number>([["", 0]]);
  id(name: string): number {
    let i = this.#map.get(name);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(name);
      this.#map.set(name, i);
    }
    return i;
  }
}

/** One `f` token (`v`, `v/vt`, `v//vn`, `v/vt/vn`) to a 0-based index; negatives count back. */
function faceIndex(token: string, nv: number, where: { file: string; line: number }): number {
  const head = token.split("/")[0];
  if (!/^[+-]?\d+$/.test(head)) {
    throw new NavscopeError(
      "bad_value",
      `face vertex '${token}' is not an index`,
      where,
      "v, v/vt, v//vn or v/vt/vn",
    );
  }
  const i = parseInt(head, 10);
  if (Math.abs(i) > MAX_INDEX) {
    throw new NavscopeError(
      "offset_out_of_range",
      `face vertex index ${head} is beyond any vertex count`,
      where,
      `|index| ≤ ${MAX_INDEX}`,
    );
  }
  if (i === 0) {
    throw new NavscopeError(
      "offset_out_of_range",
      "face uses vertex index 0",
      where,
      "OBJ indices start at 1",
    );
  }
  if (i < 0) {
    if (-i > nv) {
      throw new NavscopeError(
        "offset_out_of_range",
        `face uses relative vertex ${i}, but only ${nv} vertices precede it`,
        where,
        `-1..-${nv}`,
      );
    }
    return nv + i;
  }
  return i - 1;
}

/** How one OBJ becomes zone geometry (from a manifest mesh entry). */
export interface ObjImportOptions {
  /** Horizontal px per metre. */
  pxPerM: number;
  /** Metres per model unit on all three axes, applied before `pxPerM` (default 1). */
  mPerUnit?: number;
  /** Which source axis is up. */
  up: "y" | "z";
  /** Added to u, v after scaling, px. */
  offsetPx: readonly [number, number];
  /** Added to h, m. */
  offsetH: number;
  /**
   * Surface flags of a triangle from its `g`, `o` and `usemtl` names; `null` drops the triangle
   * (an excluded group, e.g. a hand-made navmesh stored beside the level).
   */
  surfaceOf: (group: string, object: string, material: string) => number | null;
  /** Triangles steeper than this (degrees from horizontal) get `steepSurface`. */
  maxSlopeDeg?: number;
  /** Surface flags for steep triangles. Default 0 (unwalkable). */
  steepSurface?: number;
  /** Merge vertices whose float32 (u, v, h) are bit-identical. Default true. */
  weld?: boolean;
}

/** One imported mesh: zone-ready geometry and counts. */
export interface ImportedMesh {
  /** u, v, h per vertex (px, px, m), float32. */
  vertices: Float32Array;
  /** CCW triangles, 3 vertex indices each. */
  triangles: Uint32Array;
  /** Surface flags per triangle (BSRF). */
  surfaceFlags: Uint32Array;
  /** Source line per triangle. */
  triLine: Uint32Array;
  /** Counts. */
  stats: ImportStats;
}

/** What the import did. */
export interface ImportStats {
  /** Triangles kept. */
  triangles: number;
  /** Vertices kept (after welding and dropping unused ones). */
  vertices: number;
  /** Triangles dropped by the parser (repeated index). */
  degenerateIndex: number;
  /** Triangles dropped because welding repeated an index or their 3-D area is zero. */
  degenerateArea: number;
  /** Triangles dropped by an excluded group. */
  excluded: number;
  /** Triangles given the steep surface. */
  steep: number;
  /** Vertices merged into another by the weld. */
  welded: number;
  /** Triangles flipped to CCW. */
  flipped: number;
  /** OBJ statements ignored by the parser (vt, vn, s, l, p, mtllib, unknown keywords…). */
  ignoredLines: number;
}

/** Transforms, classifies, welds and orients one parsed OBJ. */
export function importObj(obj: ObjData, opt: ObjImportOptions): ImportedMesh {
  const s = opt.pxPerM, [ox, oy] = opt.offsetPx, oh = opt.offsetH;
  // Metres per model unit: every axis is scaled to metres first, then horizontally to px.
  const mu = opt.mPerUnit ?? 1, hs = mu * s;
  const nv = obj.positions.length / 3;
  const raw = new Float32Array(3 * nv);
  for (let i = 0; i < nv; i++) {
    const x = obj.positions[3 * i], y = obj.positions[3 * i + 1], z = obj.positions[3 * i + 2];
    raw[3 * i] = x * hs + ox;
    raw[3 * i + 1] = opt.up === "y" ? z * hs + oy : -y * hs + oy;
    raw[3 * i + 2] = opt.up === "y" ? y * mu + oh : z * mu + oh;
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(raw[3 * i + k])) {
        throw new NavscopeError(
          "bad_value",
          `vertex ${i + 1} becomes ${"uvh"[k]} = ${raw[3 * i + k]} after scaling and offset ` +
            `(px_per_m ${s}, m_per_unit ${mu})`,
          { file: obj.file, line: obj.vertLine[i] },
          "coordinates that stay within float32 range after the placement",
        );
      }
      // The pack's vertex bounds (issue 55, src/pack/bounds.ts), located at the source vertex.
      checkBound(
        raw[3 * i + k],
        k === 2 ? HEIGHT : COORD_PX,
        { file: obj.file, line: obj.vertLine[i] },
        `vertex ${i + 1} after scaling and offset`,
        "uvh"[k],
      );
    }
  }
  const remap = opt.weld === false ? identity(nv) : exactWeld(raw);
  const cosMax = opt.maxSlopeDeg === undefined ? -1 : Math.cos((opt.maxSlopeDeg * Math.PI) / 180);
  // Exact-size typed outputs filled in place (no number[]), so the import leaves little behind.
  const n = obj.triangles.length / 3;
  const tris = new Uint32Array(3 * n), flags = new Uint32Array(n), lines = new Uint32Array(n);
  const surfCache = new Map<string, number | null>();
  let excluded = 0, degenerateArea = 0, steep = 0, kept = 0;
  // Consecutive triangles nearly always share their names: reuse the last lookup.
  let lastG = -1, lastO = -1, lastM = -1;
  let lastF: number | null = null;
  for (let t = 0; t < n; t++) {
    const tg = obj.triGroup[t], to = obj.triObject[t], tm = obj.triMaterial[t];
    let f: number | null;
    if (tg === lastG && to === lastO && tm === lastM) f = lastF;
    else {
      const key = `${tg}/${to}/${tm}`;
      let cached = surfCache.get(key);
      if (cached === undefined) {
        cached = opt.surfaceOf(obj.groups[tg], obj.objects[to], obj.materials[tm]);
        surfCache.set(key, cached);
      }
      f = cached;
      lastG = tg, lastO = to, lastM = tm, lastF = cached;
    }
    if (f === null) {
      excluded++;
      continue;
    }
    const a = remap[obj.triangles[3 * t]], b = remap[obj.triangles[3 * t + 1]];
    const c = remap[obj.triangles[3 * t + 2]];
    const up = upComponent(raw, a, b, c, s);
    if (a === b || b === c || a === c || up.area === 0) {
      degenerateArea++;
      continue;
    }
    if (cosMax >= 0 && up.cos < cosMax) {
      f = opt.steepSurface ?? 0;
      steep++;
    }
    tris[3 * kept] = a, tris[3 * kept + 1] = b, tris[3 * kept + 2] = c;
    flags[kept] = f;
    lines[kept] = obj.triLine[t];
    kept++;
  }
  const { vertices, triangles } = compact(raw, tris.subarray(0, 3 * kept));
  const flipped = orientCcw(vertices, triangles);
  // remap[i] is the first vertex equal to i, so the distinct targets are the fixed points.
  let distinct = 0;
  for (let i = 0; i < nv; i++) if (remap[i] === i) distinct++;
  return {
    vertices,
    triangles,
    surfaceFlags: flags.slice(0, kept),
    triLine: lines.slice(0, kept),
    stats: {
      triangles: triangles.length / 3,
      vertices: vertices.length / 3,
      degenerateIndex: obj.stats.degenerate,
      degenerateArea,
      excluded,
      steep,
      welded: nv - distinct,
      flipped,
      ignoredLines: obj.stats.ignored,
    },
  };
}

/**
 * 3-D area (×2) and the signed cosine of the slope of triangle (a, b, c), measured in metres: the
 * horizontal coordinates are divided by px-per-metre so that slope means the real angle; the
 * cosine is negative for a face that looks down.
 */
function upComponent(
  v: Float32Array,
  a: number,
  b: number,
  c: number,
  s: number,
): { area: number; cos: number } {
  const e1x = (v[3 * b] - v[3 * a]) / s, e1y = (v[3 * b + 1] - v[3 * a + 1]) / s;
  const e1h = v[3 * b + 2] - v[3 * a + 2];
  const e2x = (v[3 * c] - v[3 * a]) / s, e2y = (v[3 * c + 1] - v[3 * a + 1]) / s;
  const e2h = v[3 * c + 2] - v[3 * a + 2];
  const nx = e1y * e2h - e1h * e2y, ny = e1h * e2x - e1x * e2h, nh = e1x * e2y - e1y * e2x;
  const area = Math.sqrt(nx * nx + ny * ny + nh * nh);
  // Signed, as Recast's walkable test (normal.y > cos slope): faces wound towards the ground
  // (slab undersides, ceilings) are never walkable. Both up-axis mappings into (u, v, h) mirror
  // the OBJ frame, so an up-facing OBJ triangle (CCW seen from above) has nh < 0 here.
  return { area, cos: area > 0 ? -nh / area : 0 };
}

function identity(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Maps each vertex to the first vertex with bit-identical float32 (u, v, h); −0 counts as +0. */
export function exactWeld(v: Float32Array): Uint32Array {
  const n = v.length / 3;
  const canon = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) canon[i] = v[i] === 0 ? 0 : v[i];
  const bits = new Uint32Array(canon.buffer);
  // Open addressing over the three bit patterns (power-of-two table, load ≤ 1/2, linear probing)
  // instead of a Map with string keys: no per-vertex strings. A slot holds vertex index + 1 of the
  // first vertex with that key, so each vertex still maps to the first equal one.
  let cap = 16;
  while (cap < 2 * n) cap *= 2;
  const mask = cap - 1;
  const slot = new Uint32Array(cap);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = bits[3 * i], y = bits[3 * i + 1], z = bits[3 * i + 2];
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    let k = h & mask;
    for (;;) {
      const e = slot[k];
      if (e === 0) {
        slot[k] = i + 1;
        out[i] = i;
        break;
      }
      const j = e - 1;
      if (bits[3 * j] === x && bits[3 * j + 1] === y && bits[3 * j + 2] === z) {
        out[i] = j;
        break;
      }
      k = (k + 1) & mask;
    }
  }
  return out;
}

/** Drops unused vertices, keeping the survivors in their original order. */
function compact(
  raw: Float32Array,
  tris: Uint32Array,
): { vertices: Float32Array; triangles: Uint32Array } {
  const n = raw.length / 3;
  const used = new Uint8Array(n);
  for (const i of tris) used[i] = 1;
  const map = new Int32Array(n).fill(-1);
  let m = 0;
  for (let i = 0; i < n; i++) if (used[i]) map[i] = m++;
  const vertices = new Float32Array(3 * m);
  for (let i = 0; i < n; i++) {
    if (map[i] < 0) continue;
    vertices.set(raw.subarray(3 * i, 3 * i + 3), 3 * map[i]);
  }
  const triangles = new Uint32Array(tris.length);
  for (let k = 0; k < tris.length; k++) triangles[k] = map[tris[k]];
  return { vertices, triangles };
}

/** The walkable geometry of one zone, assembled from its manifest meshes. */
export interface ZoneGeometry {
  /** The zone's manifest entry. */
  zone: ZoneSpec;
  /** u, v, h per vertex (px, px, m). */
  vertices: Float32Array;
  /** CCW triangles, 3 vertex indices each. */
  triangles: Uint32Array;
  /** Surface flags per triangle (BSRF). */
  surfaceFlags: Uint32Array;
  /** Index into `zone.meshes` per triangle. */
  triMesh: Uint16Array;
  /** Source line per triangle (in that mesh's file). */
  triLine: Uint32Array;
  /** Import counts per mesh. */
  meshStats: ImportStats[];
  /** Vertices shared across meshes by the zone-wide weld. */
  weldedAcross: number;
}

/** Surface flags resolver of a manifest mesh entry (exclusions first, then names, then default). */
export function surfaceResolver(m: MeshSpec): ObjImportOptions["surfaceOf"] {
  const has = (k: string) => k !== "" && Object.hasOwn(m.surfaces, k);
  return (group, object, material) => {
    if (m.exclude.includes(group) || m.exclude.includes(object)) return null;
    if (m.match === "material") return has(material) ? m.surfaces[material] : m.defaultSurface;
    if (has(group)) return m.surfaces[group];
    if (has(object)) return m.surfaces[object];
    return m.defaultSurface;
  };
}

/**
 * Reads every mesh of a zone, imports it with its placement and surfaces, and joins them; when
 * every mesh welds, bit-identical vertices are also shared across meshes. A zone left without
 * triangles is an error naming the zone and its files.
 */
export async function loadZoneGeometry(zone: ZoneSpec): Promise<ZoneGeometry> {
  const parts: ImportedMesh[] = [];
  for (const m of zone.meshes) {
    const obj = await readObj(m.file);
    checkNames(obj, m, m.exclude, zone, `${zonePath(zone)}.meshes[${parts.length}]`);
    parts.push(importObj(obj, {
      pxPerM: m.pxPerM,
      mPerUnit: m.mPerUnit,
      up: m.up,
      offsetPx: m.offsetPx,
      offsetH: m.offsetH,
      surfaceOf: surfaceResolver(m),
      maxSlopeDeg: m.maxSlopeDeg,
      steepSurface: m.steepSurface,
      weld: m.weld,
    }));
  }
  let nv = 0, nt = 0;
  for (const p of parts) {
    nv += p.vertices.length / 3;
    nt += p.triangles.length / 3;
  }
  if (nt === 0) {
    throw new NavscopeError(
      "bad_value",
      `no triangles left after import (files: ${zone.meshes.map((m) => m.file).join(", ")})`,
      { zone: zone.name, section: "meshes" },
      "at least one non-degenerate, non-excluded triangle",
    );
  }
  const vertices = new Float32Array(3 * nv);
  const triangles = new Uint32Array(3 * nt);
  const surfaceFlags = new Uint32Array(nt), triLine = new Uint32Array(nt);
  const triMesh = new Uint16Array(nt);
  let vo = 0, to = 0;
  parts.forEach((p, mi) => {
    vertices.set(p.vertices, 3 * vo);
    for (let k = 0; k < p.triangles.length; k++) triangles[3 * to + k] = p.triangles[k] + vo;
    surfaceFlags.set(p.surfaceFlags, to);
    triLine.set(p.triLine, to);
    triMesh.fill(mi, to, to + p.triangles.length / 3);
    vo += p.vertices.length / 3;
    to += p.triangles.length / 3;
  });
  let weldedAcross = 0;
  let outV: Float32Array = vertices, outT: Uint32Array = triangles;
  if (parts.length > 1 && zone.meshes.every((m) => m.weld)) {
    const remap = exactWeld(vertices);
    for (let k = 0; k < triangles.length; k++) triangles[k] = remap[triangles[k]];
    ({ vertices: outV, triangles: outT } = compact(vertices, triangles));
    weldedAcross = nv - outV.length / 3;
  }
  return {
    zone,
    vertices: outV,
    triangles: outT,
    surfaceFlags,
    triMesh,
    triLine,
    meshStats: parts.map((p) => p.stats),
    weldedAcross,
  };
}

/** JSON path of a zone in its manifest (ids are 1-based in manifest order). */
function zonePath(zone: ZoneSpec): string {
  return `$.zones[${zone.id - 1}]`;
}

function listNames(names: string[]): string {
  const real = names.filter((n) => n !== "");
  if (real.length === 0) return "none";
  const shown = real.slice(0, 20).map((n) => JSON.stringify(n)).join(", ");
  return real.length > 20 ? `${shown}, … (${real.length} in all)` : shown;
}

/**
 * Every name the manifest gives for a mesh (`exclude`, `surfaces` keys) must name something in
 * the OBJ: a typo would otherwise bake the wrong world without a word. One error with the JSON
 * path and the names the file has.
 */
function checkNames(
  obj: ObjData,
  m: MeshSpec | null,
  exclude: readonly string[],
  zone: ZoneSpec,
  path: string,
): void {
  const gro = new Set([...obj.groups, ...obj.objects]);
  gro.delete("");
  const has = `${obj.file} has groups ${listNames(obj.groups)}; objects ${listNames(obj.objects)}`;
  const file = zone.manifest ?? obj.file;
  exclude.forEach((name, i) => {
    if (!gro.has(name)) {
      throw new NavscopeError(
        "bad_value",
        `${JSON.stringify(name)} matches no OBJ group or object (${has})`,
        { file, section: `${path}.exclude[${i}]`, zone: zone.name },
        "the g or o name of triangles in the file",
      );
    }
  });
  if (m === null) return;
  const byMaterial = m.match === "material";
  const pool = byMaterial ? new Set(obj.materials.filter((n) => n !== "")) : gro;
  for (const name of Object.keys(m.surfaces)) {
    if (!pool.has(name)) {
      const what = byMaterial ? "OBJ material (usemtl)" : "OBJ group or object";
      const names = byMaterial ? `${obj.file} has materials ${listNames(obj.materials)}` : has;
      throw new NavscopeError(
        "bad_value",
        `${JSON.stringify(name)} matches no ${what} (${names})`,
        { file, section: `${path}.surfaces[${JSON.stringify(name)}]`, zone: zone.name },
        byMaterial ? "a usemtl name of the file" : "the g or o name of triangles in the file",
      );
    }
  }
}

/** Occluder meshes of a zone, imported with their placements (no surfaces, no slope rule). */
export async function loadZoneOccluders(zone: ZoneSpec): Promise<ImportedMesh[]> {
  const out: ImportedMesh[] = [];
  for (const o of zone.occluders) {
    const obj = await readObj(o.file);
    checkNames(obj, null, o.exclude, zone, `${zonePath(zone)}.occluders[${out.length}]`);
    out.push(importObj(obj, {
      pxPerM: o.pxPerM,
      mPerUnit: o.mPerUnit,
      up: o.up,
      offsetPx: o.offsetPx,
      offsetH: o.offsetH,
      surfaceOf: (g, ob) => (o.exclude.includes(g) || o.exclude.includes(ob) ? null : 0),
    }));
  }
  return out;
}
