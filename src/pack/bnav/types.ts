/**
 * In-memory model of the BNAV main pack (spec 数据包 › 主包头与段目录, 几何段, 面属性与离网连接).
 * Geometry is columnar: one typed array per field, record `i` of a table is the `i`-th (or the
 * `3i..3i+2`-th) element of each column. Small tables (zones, off-mesh links) are plain records.
 * @module
 */
import { RUNTIME_CONSTANTS } from "../bnvf/constants.ts";

/** Current main-pack version written by the encoder (spec: 「版本,当前 5」). */
export const MAIN_PACK_VERSION = 5;
/** Oldest main-pack version the decoder reads. */
export const MAIN_PACK_MIN_VERSION = 1;
/**
 * Per-field "since" versions (spec 主包头与段目录: 「每个字段记的是自己出现的版本号」). Each field
 * is checked against the version it first appeared in, never against the current version, so
 * the next version bump cannot silently skip a field that old packs already carry.
 */
export const FLOOR_Y_SINCE = 3;
/** The section directory (and the 80-byte header) exists from version 4. */
export const SECTION_DIR_SINCE = 4;
/** Geometry lives in the chunked BGEO section from version 5 (header table offsets void). */
export const BGEO_SINCE = 5;
/**
 * Every pack from version 5 carries the BGRD grid section (spec 体积、内存与速度: the grid was
 * baked into the main pack by the same change that re-encoded the geometry, i.e. with BGEO);
 * v4 packs may or may not have one.
 */
export const BGRD_REQUIRED_SINCE = 5;

/** Header size before the section directory existed (format-notes: 64 bytes for v1–3). */
export const HEADER_SIZE_V1 = 64;
/** Header size from {@link SECTION_DIR_SINCE} on (spec: 「BNAV 头 80 字节」). */
export const HEADER_SIZE = 80;
/** Section directory entry size: tag[4], u32 flags, u64 offset, u64 size. */
export const SECTION_ENTRY_SIZE = 24;
/** Zone record prefix before floor_y (44 bytes), plus 4 bytes of floor_y from v3. */
export const ZONE_PREFIX_V1 = 44;
/** Zone record prefix including floor_y. */
export const ZONE_PREFIX = 48;
/** Vertex record: f32 u, v, height. */
export const VERTEX_RECORD = 12;
/** Canonical triangle record: 3×u32 vertex, 3×i32 neighbour, u32 component, 2×f32 centroid. */
export const TRIANGLE_RECORD = 36;
/** Link record: u32 source, u32 target. */
export const LINK_RECORD = 8;
/** Zone flag bit 0: a tier zone (no own triangles; `componentCount` holds the parent id). */
export const ZONE_FLAG_TIER = 0x0001;
/** Surface flags whitelist (spec 面属性): a triangle is walkable iff `flags & mask` ≠ 0. */
export const BSRF_WALKABLE_MASK: number = RUNTIME_CONSTANTS.kWalkableMask;
/** Known section tags. */
export const KNOWN_SECTIONS = ["BGEO", "BOML", "BSRF", "BGRD"] as const;

/** Tier affine: template px → parent px, `x_parent = sx·x + tx`, `y_parent = sy·y + ty`. */
export interface ZoneAffine {
  /** x scale (f32). */
  sx: number;
  /** x offset, px (f32). */
  tx: number;
  /** y scale (f32). */
  sy: number;
  /** y offset, px (f32). */
  ty: number;
}

/** One zone-table record (spec 几何段 › 区表). Floats hold f32-representable values. */
export interface ZoneRecord {
  /** Zone id (u16). */
  id: number;
  /** Flags (u16); bit 0 = tier zone. */
  flags: number;
  /** Zone name (UTF-8 on disk, unpadded). */
  name: string;
  /** First triangle of the zone's contiguous range. */
  firstTriangle: number;
  /** Number of triangles (0 for a tier zone). */
  triangleCount: number;
  /** Component count; for a tier zone, the parent zone id. */
  componentCount: number;
  /** Zone width, px (f32). */
  width: number;
  /** Zone height, px (f32). */
  height: number;
  /** Tier affine (identity-like zeros for ordinary zones, whatever the baker wrote). */
  affine: ZoneAffine;
  /** Preferred floor height, m (f32; present from v3, 0 when read from older packs). */
  floorY: number;
}

/** Triangle columns (canonical record minus nothing: the model keeps all 36 bytes' fields). */
export interface TriangleColumns {
  /** Vertex indices, 3 per triangle. */
  vertices: Uint32Array;
  /** Neighbour triangle indices, 3 per triangle, −1 = none. */
  neighbours: Int32Array;
  /** Component id per triangle. */
  component: Uint32Array;
  /** Centroid (u, v) per triangle, `((a+b)+c)/3` in f32 (recomputed on read from v5). */
  centroid: Float32Array;
}

/** Link columns, sorted by source (non-decreasing). */
export interface LinkColumns {
  /** Source triangle. */
  source: Uint32Array;
  /** Target triangle. */
  target: Uint32Array;
}

/** BSRF surface attributes, one per triangle. */
export interface SurfaceColumns {
  /** Area id (u8). */
  area: Uint8Array;
  /** Polygon type (u8). */
  polyType: Uint8Array;
  /** Surface flags (u32); walkable iff `flags & BSRF_WALKABLE_MASK` ≠ 0. */
  flags: Uint32Array;
}

/** Triangle index meaning "no triangle" in BOML ends (also: an end outside the loaded zone). */
export const NO_TRIANGLE = 0xffffffff;

/** One BOML off-mesh link (v2 record; v1 records fill `dirBits` and the end triangles). */
export interface OffMeshLink {
  /** Zone id (u16). */
  zone: number;
  /** Kind (u8). */
  kind: number;
  /** Extension flag (i32). */
  isExt: number;
  /** Bidirectional flag (i32). */
  bidirectional: number;
  /** Area (i32). */
  area: number;
  /** Link type (u16). */
  linkType: number;
  /** Direction (u8). */
  direction: number;
  /** Radius, px (f32). */
  radius: number;
  /** Cost multiplier (f32). */
  costModifier: number;
  /** Four points × (x, y, z) as f32: start, end, and the two declared landing points. */
  points: number[];
  /** v2 direction bits: bit 0 start→end walkable, bit 1 end→start walkable. */
  dirBits: number;
  /** Triangle under the start point (pack-global; {@link NO_TRIANGLE} if none). */
  startTriangle: number;
  /** Triangle under the end point (pack-global; {@link NO_TRIANGLE} if none). */
  endTriangle: number;
}

/** A section the codec does not interpret, kept byte for byte. */
export interface RawSection {
  /** 4-character tag. */
  tag: string;
  /** Directory flags (u32). */
  flags: number;
  /** Section bytes. */
  bytes: Uint8Array;
}

/** The whole main pack in memory. Counts are the column lengths. */
export interface MainPack {
  /** Header flags (u16). */
  flags: number;
  /** Zone table, in file order. */
  zones: ZoneRecord[];
  /** Vertices: u, v, height per vertex (f32 ×3). */
  vertices: Float32Array;
  /** Triangles. */
  triangles: TriangleColumns;
  /** Links (source-sorted). */
  links: LinkColumns;
  /** BSRF surface attributes, or null when the pack has no BSRF (all walkable). */
  surfaces: SurfaceColumns | null;
  /** BOML off-mesh links, or null when the pack has no BOML. */
  offMeshLinks: OffMeshLink[] | null;
  /** BGRD grid section bytes (decoded elsewhere), or null. */
  grid: Uint8Array | null;
  /**
   * Sections written after the known ones, in directory order: the encoder writes them (tests use
   * one to stage a damaged directory); a decoded pack has none, since the decoder refuses every
   * tag but BGEO, BOML, BSRF and BGRD.
   */
  extraSections: RawSection[];
}

/** Record counts of a pack (the column lengths). */
export function mainPackCounts(
  p: MainPack,
): { vertices: number; triangles: number; links: number } {
  return {
    vertices: p.vertices.length / 3,
    triangles: p.triangles.component.length,
    links: p.links.source.length,
  };
}

/** Allocates triangle columns for `n` triangles. */
export function allocTriangles(n: number): TriangleColumns {
  return {
    vertices: new Uint32Array(3 * n),
    neighbours: new Int32Array(3 * n),
    component: new Uint32Array(n),
    centroid: new Float32Array(2 * n),
  };
}

/**
 * Recomputes centroids for triangles `[from, to)` (spec 几何段: 「按 ((a+b)+c)/3.0f 补回」).
 * Each step rounds to f32: `f32(f32(f32(a+b)+c)/3)`; multiplying by 1/3 would not be bit-identical.
 */
export function fillCentroids(
  verts: Float32Array,
  tris: TriangleColumns,
  from = 0,
  to = tris.component.length,
  vertexBase = 0,
): void {
  const tv = tris.vertices;
  const c = tris.centroid;
  const fr = Math.fround;
  for (let t = from; t < to; t++) {
    const a = 3 * (tv[3 * t] - vertexBase);
    const b = 3 * (tv[3 * t + 1] - vertexBase);
    const d = 3 * (tv[3 * t + 2] - vertexBase);
    c[2 * t] = fr(fr(fr(verts[a] + verts[b]) + verts[d]) / 3);
    c[2 * t + 1] = fr(fr(fr(verts[a + 1] + verts[b + 1]) + verts[d + 1]) / 3);
  }
}

/** True if triangle `t` is walkable under the BSRF whitelist (all walkable without BSRF). */
export function isWalkable(p: MainPack, t: number, mask = BSRF_WALKABLE_MASK): boolean {
  return p.surfaces === null || (p.surfaces.flags[t] & mask) !== 0;
}

/** Ids of the tier zones hanging (transitively) under zone `id`, in zone-table order. */
export function tierChildren(zones: readonly ZoneRecord[], id: number): ZoneRecord[] {
  const out: ZoneRecord[] = [];
  const seen = new Set<number>([id]);
  let frontier = [id];
  while (frontier.length) {
    const next: number[] = [];
    for (const z of zones) {
      if ((z.flags & ZONE_FLAG_TIER) && frontier.includes(z.componentCount) && !seen.has(z.id)) {
        seen.add(z.id);
        next.push(z.id);
      }
    }
    frontier = next;
  }
  for (const z of zones) if (seen.has(z.id) && z.id !== id) out.push(z);
  return out;
}

/** The decoded BNAV header. */
export interface MainPackHeader {
  /** Pack version (1–5). */
  version: number;
  /** Header flags (u16). */
  flags: number;
  /** Zone count. */
  zoneCount: number;
  /** Vertex count. */
  vertexCount: number;
  /** Triangle count. */
  triangleCount: number;
  /** Link count (> 0). */
  linkCount: number;
  /** Flat-table offsets (meaningful before v5 only). */
  tableOffsets: { zones: number; vertices: number; triangles: number; links: number };
  /** Stored build hash. */
  buildHash: bigint;
  /** Section directory offset (0 before v4). */
  sectionDirOffset: number;
  /** Section count (0 before v4). */
  sectionCount: number;
  /** Header size in bytes (64 or 80). */
  headerSize: number;
}

/** One section directory entry. */
export interface SectionInfo {
  /** 4-character tag. */
  tag: string;
  /** Entry flags. */
  flags: number;
  /** Absolute offset in the file. */
  offset: number;
  /** Size in bytes. */
  size: number;
}
