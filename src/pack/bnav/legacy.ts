/**
 * Flat-table main packs, versions 1–4 (spec 主包头与段目录: before v5 the zone table, vertices,
 * triangles and links sit uncompressed at the four header offsets; v5 moved them into BGEO and
 * voided the offsets). Triangles are stored as full 36-byte canonical records (their stored
 * centroid is kept), links as 8-byte records, so the build hash runs over the table bytes as
 * they are. Also a writer for these layouts, used for fixtures and tests (the encoder proper
 * writes only v5).
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { Fnv1a64 } from "../../codec/fnv.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { requireLittleEndian } from "./canonical.ts";
import type { MainPackHeader } from "./header.ts";
import {
  FLOOR_Y_SINCE,
  HEADER_SIZE,
  HEADER_SIZE_V1,
  LINK_RECORD,
  type LinkColumns,
  type MainPack,
  SECTION_DIR_SINCE,
  SECTION_ENTRY_SIZE,
  TRIANGLE_RECORD,
  type TriangleColumns,
  VERTEX_RECORD,
  type ZoneRecord,
} from "./types.ts";
import { checkZoneRanges, decodeZoneRecords } from "./zones.ts";
import { checkFiniteVertices } from "./bgeo.ts";
import { encodeBoml } from "./boml.ts";
import { encodeBsrf } from "./bsrf.ts";

/** Geometry decoded from flat tables. */
export interface FlatGeometry {
  /** Zones. */
  zones: ZoneRecord[];
  /** Zone table bytes (view). */
  zoneTable: Uint8Array;
  /** Vertices. */
  vertices: Float32Array;
  /** Triangles. */
  triangles: TriangleColumns;
  /** Links. */
  links: LinkColumns;
  /** Hash over the four tables. */
  hash: bigint;
}

/** Checks a flat table `[off, off+len)` lies inside the file. */
export function flatRange(
  bytes: Uint8Array,
  off: number,
  len: number,
  what: string,
  where: ErrorLocation,
): void {
  if (off + len > bytes.length) {
    throw new NavscopeError(
      "offset_out_of_range",
      `${what} [${off}, ${off + len}) runs past the end of the ${bytes.length}-byte file`,
      { ...where, section: what, offset: off },
      "a table inside the file",
    );
  }
}

/** Reads the flat zone table; returns the records and the table bytes. */
export function readFlatZones(
  bytes: Uint8Array,
  h: MainPackHeader,
  where: ErrorLocation,
): { zones: ZoneRecord[]; zoneTable: Uint8Array } {
  const off = h.tableOffsets.zones;
  flatRange(bytes, off, 0, "zone table", where);
  const r = new ByteReader(bytes, { ...where, section: "zone table" }, 0, off);
  const zones = decodeZoneRecords(r, h.zoneCount, h.version);
  checkZoneRanges(zones, h.triangleCount, where);
  return { zones, zoneTable: bytes.subarray(off, r.pos) };
}

/** Decodes flat triangle records `[from, to)` into `out` at index `dst`, validating indices. */
export function readFlatTriangles(
  bytes: Uint8Array,
  h: MainPackHeader,
  from: number,
  to: number,
  out: TriangleColumns,
  dst: number,
  where: ErrorLocation,
): void {
  const base = h.tableOffsets.triangles;
  flatRange(bytes, base, TRIANGLE_RECORD * h.triangleCount, "triangle table", where);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const V = h.vertexCount;
  const T = h.triangleCount;
  for (let t = from, i = dst; t < to; t++, i++) {
    const o = base + TRIANGLE_RECORD * t;
    for (let c = 0; c < 3; c++) {
      const v = dv.getUint32(o + 4 * c, true);
      const nb = dv.getInt32(o + 12 + 4 * c, true);
      if (v >= V || nb < -1 || nb >= T) {
        throw new NavscopeError(
          "bad_value",
          `triangle ${t} has vertex ${v} / neighbour ${nb}`,
          { ...where, section: "triangle table", offset: o },
          `vertices in [0, ${V}), neighbours in [-1, ${T})`,
        );
      }
      out.vertices[3 * i + c] = v;
      out.neighbours[3 * i + c] = nb;
    }
    out.component[i] = dv.getUint32(o + 24, true);
    out.centroid[2 * i] = dv.getFloat32(o + 28, true);
    out.centroid[2 * i + 1] = dv.getFloat32(o + 32, true);
  }
}

/** Decodes flat link records `[from, to)`; validates ranges and source order. */
export function readFlatLinks(
  bytes: Uint8Array,
  h: MainPackHeader,
  from: number,
  to: number,
  where: ErrorLocation,
): LinkColumns {
  const base = h.tableOffsets.links;
  flatRange(bytes, base, LINK_RECORD * h.linkCount, "link table", where);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = to - from;
  const out = { source: new Uint32Array(n), target: new Uint32Array(n) };
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const o = base + LINK_RECORD * (from + i);
    const s = dv.getUint32(o, true);
    const t = dv.getUint32(o + 4, true);
    if (s >= h.triangleCount || t >= h.triangleCount || s < prev) {
      throw new NavscopeError(
        "bad_value",
        `link ${from + i} runs ${s} → ${t}` + (s < prev ? ` after source ${prev}` : ""),
        { ...where, section: "link table", offset: o },
        `triangles in [0, ${h.triangleCount}), sources non-decreasing`,
      );
    }
    prev = s;
    out.source[i] = s;
    out.target[i] = t;
  }
  return out;
}

/** Source of flat link `i` (for binary search). */
export function flatLinkSource(bytes: Uint8Array, h: MainPackHeader, i: number): number {
  const o = bytes.byteOffset + h.tableOffsets.links + LINK_RECORD * i;
  return new DataView(bytes.buffer, o, 4).getUint32(0, true);
}

/** Reads all four flat tables and their build hash. */
export function decodeFlatGeometry(
  bytes: Uint8Array,
  h: MainPackHeader,
  where: ErrorLocation,
): FlatGeometry {
  requireLittleEndian();
  const { zones, zoneTable } = readFlatZones(bytes, h, where);
  const voff = h.tableOffsets.vertices;
  flatRange(bytes, voff, VERTEX_RECORD * h.vertexCount, "vertex table", where);
  const vbytes = bytes.slice(voff, voff + VERTEX_RECORD * h.vertexCount);
  const vertices = new Float32Array(vbytes.buffer, 0, 3 * h.vertexCount);
  const T = h.triangleCount;
  flatRange(bytes, h.tableOffsets.triangles, TRIANGLE_RECORD * T, "triangle table", where);
  const triangles: TriangleColumns = {
    vertices: new Uint32Array(3 * T),
    neighbours: new Int32Array(3 * T),
    component: new Uint32Array(T),
    centroid: new Float32Array(2 * T),
  };
  readFlatTriangles(bytes, h, 0, T, triangles, 0, where);
  const links = readFlatLinks(bytes, h, 0, h.linkCount, where);
  const toff = h.tableOffsets.triangles;
  const loff = h.tableOffsets.links;
  const hash = new Fnv1a64().update(zoneTable).update(vbytes)
    .update(bytes.subarray(toff, toff + TRIANGLE_RECORD * T))
    .update(bytes.subarray(loff, loff + LINK_RECORD * h.linkCount)).digest();
  checkFiniteVertices(vertices, 0, h.vertexCount, 0, { ...where, section: "vertices" });
  return { zones, zoneTable, vertices, triangles, links, hash };
}

/**
 * Writes a flat-table pack of version 1–4 (fixtures and tests). Triangles keep their stored
 * centroids; v4 also gets a section directory for BOML, BSRF, BGRD and extra sections.
 */
export function encodeLegacyMainPack(pack: MainPack, version: number): Uint8Array {
  if (!(version >= 1 && version < 5)) {
    throw new NavscopeError("bad_version", `legacy writer asked for v${version}`, {}, "1–4");
  }
  requireLittleEndian();
  const zt = new ByteWriter();
  for (const z of pack.zones) {
    const name = new TextEncoder().encode(z.name);
    zt.u16(z.id).u16(z.flags).u32(name.length).u32(z.firstTriangle).u32(z.triangleCount);
    zt.u32(z.componentCount).f32(z.width).f32(z.height);
    zt.f32(z.affine.sx).f32(z.affine.tx).f32(z.affine.sy).f32(z.affine.ty);
    if (version >= FLOOR_Y_SINCE) zt.f32(z.floorY);
    zt.bytes(name);
  }
  const T = pack.triangles.component.length;
  const tri = new ByteWriter(36 * T + 16);
  const t = pack.triangles;
  for (let i = 0; i < T; i++) {
    for (let c = 0; c < 3; c++) tri.u32(t.vertices[3 * i + c]);
    for (let c = 0; c < 3; c++) tri.i32(t.neighbours[3 * i + c]);
    tri.u32(t.component[i]).f32(t.centroid[2 * i]).f32(t.centroid[2 * i + 1]);
  }
  const lw = new ByteWriter();
  for (let i = 0; i < pack.links.source.length; i++) {
    lw.u32(pack.links.source[i]).u32(pack.links.target[i]);
  }
  const vb = new Uint8Array(
    pack.vertices.buffer,
    pack.vertices.byteOffset,
    pack.vertices.byteLength,
  );
  const tables = [zt.finish(), vb, tri.finish(), lw.finish()];
  const sections: { tag: string; bytes: Uint8Array; flags: number }[] = [];
  if (version >= SECTION_DIR_SINCE) {
    if (pack.offMeshLinks) {
      sections.push({ tag: "BOML", bytes: encodeBoml(pack.offMeshLinks, {}), flags: 0 });
    }
    if (pack.surfaces) sections.push({ tag: "BSRF", bytes: encodeBsrf(pack.surfaces), flags: 0 });
    if (pack.grid) sections.push({ tag: "BGRD", bytes: pack.grid, flags: 0 });
    sections.push(...pack.extraSections);
  }
  const headerSize = version >= SECTION_DIR_SINCE ? HEADER_SIZE : HEADER_SIZE_V1;
  let off = headerSize + sections.length * SECTION_ENTRY_SIZE;
  const tableOff: number[] = [];
  for (const b of tables) {
    tableOff.push(off);
    off += b.length;
  }
  const secOff: number[] = [];
  for (const s of sections) {
    secOff.push(off);
    off += s.bytes.length;
  }
  const hash = new Fnv1a64();
  for (const b of tables) hash.update(b);
  const w = new ByteWriter(off);
  w.tag("BNAV").u16(version).u16(pack.flags);
  w.u32(pack.zones.length).u32(pack.vertices.length / 3).u32(T).u32(pack.links.source.length);
  for (const o of tableOff) w.u64(o);
  w.u64big(hash.digest());
  if (version >= SECTION_DIR_SINCE) {
    w.u64(headerSize).u32(sections.length).u32(0);
    sections.forEach((s, i) => w.tag(s.tag).u32(s.flags).u64(secOff[i]).u64(s.bytes.length));
  }
  for (const b of tables) w.bytes(b);
  for (const s of sections) w.bytes(s.bytes);
  return w.finish();
}
