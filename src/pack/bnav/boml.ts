/**
 * BOML, the baked off-mesh link table (spec 数据包 › 面属性与离网连接). Header, 16 bytes:
 * `tag "BOML", u16 version, u16 record length, u32 count, u32 reserved`.
 *
 * Reconciliation: format-notes describes the older v1 (80-byte records); the spec says #5844
 * raised it to v2 with 88-byte records, adding a direction-bits byte (bit 0: start→end walkable,
 * bit 1: end→start walkable) and the triangles under the two ends. We read both and write v2.
 * Neither source gives field offsets, so the record layout below is reconstructed from the
 * field list and from FLNK, which copies these fields (format-notes FLNK: zone u16, kind u8,
 * is_ext/bidirectional/area i32, link_type u16, direction u8, radius and cost_modifier f32):
 *
 * ```
 *  0 u16 zone        2 u8 kind        3 u8 reserved
 *  4 i32 is_ext      8 i32 bidirectional   12 i32 area
 * 16 u16 link_type  18 u8 direction  19 u8 reserved
 * 20 f32 radius     24 f32 cost_modifier
 * 28 f32 points[12]  four points × (x, y, z)
 * 76 u8 dir_bits (v2; reserved in v1)  77 u8[3] reserved
 * 80 u32 start_tri  84 u32 end_tri  (v2 only; pack-global, 0xFFFFFFFF = none)
 * ```
 *
 * v1 (MaaEnd builds before #5844) and v2 are told apart by the header's version and record
 * length; any other pair is an error. v1 records get `dirBits = bidirectional ? 3 : 1` here and
 * {@link NO_TRIANGLE} ends, and the pack loaders report them as `offMeshLinkEnds:
 * "v1-unresolved"`; the mesh layer (src/zone_mesh/link_ends.ts, `resolveLinkEnds`) fills them by
 * snapping the end points to the zone mesh as the baker does. Reserved bytes are ignored on read
 * and written as 0.
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import {
  checkBound,
  COORD_PX,
  COST_MODIFIER,
  HEIGHT,
  LINK_RADIUS,
  zoneAxisBound,
  zoneRadiusBound,
} from "../bounds.ts";
import { NO_TRIANGLE, type OffMeshLink } from "./types.ts";

/** BOML version written by the encoder. */
export const BOML_VERSION = 2;
/** BOML header size. */
export const BOML_HEADER_SIZE = 16;
/** Record size per BOML version (index = version). */
export const BOML_RECORD_SIZE: Readonly<Record<number, number>> = { 1: 80, 2: 88 };
/** Version from which records carry direction bits and end triangles (#5844). */
export const BOML_DIR_BITS_SINCE = 2;

/** Encodes off-mesh links as a BOML v2 section; validates field ranges. */
export function encodeBoml(links: readonly OffMeshLink[], where: ErrorLocation): Uint8Array {
  const rec = BOML_RECORD_SIZE[BOML_VERSION];
  const w = new ByteWriter(BOML_HEADER_SIZE + rec * links.length);
  w.tag("BOML").u16(BOML_VERSION).u16(rec).u32(links.length).u32(0);
  links.forEach((l, i) => {
    checkLink(l, i, where);
    w.u16(l.zone).u8(l.kind).u8(0).i32(l.isExt).i32(l.bidirectional).i32(l.area);
    w.u16(l.linkType).u8(l.direction).u8(0).f32(l.radius).f32(l.costModifier);
    for (let j = 0; j < 12; j++) w.f32(l.points[j]);
    w.u8(l.dirBits).zeros(3).u32(l.startTriangle).u32(l.endTriangle);
  });
  return w.finish();
}

function checkLink(l: OffMeshLink, i: number, where: ErrorLocation): void {
  const ranges: [string, number, number, number][] = [
    ["zone", l.zone, 0, 0xffff],
    ["kind", l.kind, 0, 0xff],
    ["isExt", l.isExt, -0x80000000, 0x7fffffff],
    ["bidirectional", l.bidirectional, -0x80000000, 0x7fffffff],
    ["area", l.area, -0x80000000, 0x7fffffff],
    ["linkType", l.linkType, 0, 0xffff],
    ["direction", l.direction, 0, 0xff],
    ["dirBits", l.dirBits, 0, 0xff],
    ["startTriangle", l.startTriangle, 0, 0xffffffff],
    ["endTriangle", l.endTriangle, 0, 0xffffffff],
  ];
  for (const [name, v, lo, hi] of ranges) {
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new NavscopeError("bad_value", `off-mesh link ${i}: ${name} = ${v}`, {
        ...where,
        section: "BOML",
      }, `an integer in [${lo}, ${hi}]`);
    }
  }
  if (l.points.length !== 12) {
    throw new NavscopeError("bad_value", `off-mesh link ${i} has ${l.points.length} coordinates`, {
      ...where,
      section: "BOML",
    }, "12 (four points × x, y, z)");
  }
  const e = linkValueError(l, i);
  if (e) throw new NavscopeError("bad_value", e[0], { ...where, section: "BOML" }, e[1]);
  checkLinkBounds(l, i, () => ({ ...where, section: "BOML" }));
}

/** Byte offset of each point coordinate in a BOML record (after radius and cost modifier). */
const POINT_AT = 28;

/**
 * The plausibility bounds of a BOML record on its own (issue 55, src/pack/bounds.ts): radius 0 or
 * a normal float ≤ 1e5 px, cost modifier in [0, 1e6], point x, y within ±1e5 px and h within
 * ±1e5 m (points are (x px, y px, h m): src/bake/assemble_links.ts). The zone-relative bounds
 * (radius ≤ the zone's larger side, points near the zone box) are {@link checkLinkZoneBounds}.
 * `at(off)` locates a field at record offset `off`.
 */
export function checkLinkBounds(
  l: OffMeshLink,
  i: number,
  at: (off: number) => ErrorLocation,
): void {
  const rec = `off-mesh link ${i}`;
  checkBound(l.radius, LINK_RADIUS, at(20), rec, "radius");
  checkBound(l.costModifier, COST_MODIFIER, at(24), rec, "cost modifier");
  for (let j = 0; j < 12; j++) {
    const b = j % 3 === 2 ? HEIGHT : COORD_PX;
    checkBound(l.points[j], b, at(POINT_AT + 4 * j), rec, `point ${(j / 3) | 0} ${"xyh"[j % 3]}`);
  }
}

/**
 * The zone-relative bounds of a BOML link (issue 55): its radius no larger than the zone's larger
 * side, its points' x, y within the zone's px rectangle widened by ZONE_BOX_MARGIN × that side.
 */
export function checkLinkZoneBounds(
  l: OffMeshLink,
  i: number,
  zone: { width: number; height: number },
  where: ErrorLocation,
): void {
  const rec = `off-mesh link ${i}`;
  const larger = Math.max(zone.width, zone.height);
  checkBound(l.radius, zoneRadiusBound(larger), where, rec, "radius (zone)");
  const bx = zoneAxisBound(zone.width, larger), by = zoneAxisBound(zone.height, larger);
  for (let p = 0; p < 4; p++) {
    checkBound(l.points[3 * p], bx, where, rec, `point ${p} x (zone box)`);
    checkBound(l.points[3 * p + 1], by, where, rec, `point ${p} y (zone box)`);
  }
}

/**
 * What no correct writer puts in a BOML record (issue 27): a non-finite or negative radius, a
 * non-finite cost modifier or point coordinate, direction bits beyond bit 1 (spec: 第 0 位 起端到终端,
 * 第 1 位 终端到起端). Returns [what, expected, byte offset in the record] or null.
 */
function linkValueError(l: OffMeshLink, i: number): [string, string, number] | null {
  // Finite here; its range (≥ 0, normal, within the zone) is the bound's (checkLinkBounds).
  if (!Number.isFinite(l.radius)) {
    return [`off-mesh link ${i}: radius ${l.radius}`, "a finite radius", 20];
  }
  if (!Number.isFinite(l.costModifier)) {
    return [`off-mesh link ${i}: cost modifier ${l.costModifier}`, "a finite value", 24];
  }
  for (let j = 0; j < 12; j++) {
    if (!Number.isFinite(l.points[j])) {
      return [`off-mesh link ${i}: point coordinate ${j} is ${l.points[j]}`, "finite", 28 + 4 * j];
    }
  }
  if (l.dirBits > 3) return [`off-mesh link ${i}: direction bits ${l.dirBits}`, "0..3", 76];
  return null;
}

/** Parsed BOML header. */
export interface BomlHeader {
  /** Version (1 or 2). */
  version: number;
  /** Record length. */
  recordSize: number;
  /** Record count. */
  count: number;
}

/** Reads and validates the BOML header; the records must fill the section exactly. */
export function readBomlHeader(bytes: Uint8Array, base: number, where: ErrorLocation): BomlHeader {
  const r = new ByteReader(bytes, { ...where, section: "BOML" }, base);
  r.need(BOML_HEADER_SIZE, "BOML header");
  const tag = r.tag();
  if (tag !== "BOML") {
    throw r.error("bad_magic", `section tag is ${JSON.stringify(tag)}`, '"BOML"', 0);
  }
  const version = r.u16();
  const expectRec = BOML_RECORD_SIZE[version];
  if (expectRec === undefined) throw r.error("bad_version", `BOML version ${version}`, "1 or 2", 4);
  const recordSize = r.u16();
  if (recordSize !== expectRec) {
    throw r.error("bad_value", `BOML v${version} record length ${recordSize}`, `${expectRec}`, 6);
  }
  const count = r.u32();
  const body = BOML_HEADER_SIZE + recordSize * count;
  if (bytes.length !== body) {
    throw new NavscopeError(
      bytes.length < body ? "truncated" : "stream_length",
      `BOML section is ${bytes.length} bytes for ${count} records of ${recordSize}`,
      { ...r.where, offset: base + Math.min(bytes.length, body) },
      `${body} bytes`,
    );
  }
  return { version, recordSize, count };
}

/**
 * Decodes a BOML section. End triangles must be triangles of the pack (`< triangles`) or the
 * sentinel.
 */
export function decodeBoml(
  bytes: Uint8Array,
  base: number,
  triangles: number,
  where: ErrorLocation,
): OffMeshLink[] {
  const h = readBomlHeader(bytes, base, where);
  const r = new ByteReader(bytes, { ...where, section: "BOML" }, base, BOML_HEADER_SIZE);
  const out: OffMeshLink[] = [];
  const v2 = h.version >= BOML_DIR_BITS_SINCE;
  for (let i = 0; i < h.count; i++) {
    const at = r.pos;
    const zone = r.u16();
    const kind = r.u8();
    r.u8();
    const isExt = r.i32();
    const bidirectional = r.i32();
    const area = r.i32();
    const linkType = r.u16();
    const direction = r.u8();
    r.u8();
    const radius = r.f32();
    const costModifier = r.f32();
    const points: number[] = [];
    for (let j = 0; j < 12; j++) points.push(r.f32());
    let dirBits = bidirectional ? 3 : 1;
    let startTriangle = NO_TRIANGLE;
    let endTriangle = NO_TRIANGLE;
    if (v2) {
      dirBits = r.u8();
      r.take(3);
      startTriangle = r.u32();
      endTriangle = r.u32();
      for (const t of [startTriangle, endTriangle]) {
        if (t !== NO_TRIANGLE && t >= triangles) {
          throw r.error(
            "bad_value",
            `off-mesh link ${i} ends on triangle ${t}`,
            `a triangle in [0, ${triangles}) or 0xFFFFFFFF`,
            at + 80,
          );
        }
      }
    } else r.take(4);
    const link = {
      zone,
      kind,
      isExt,
      bidirectional,
      area,
      linkType,
      direction,
      radius,
      costModifier,
      points,
      dirBits,
      startTriangle,
      endTriangle,
    };
    const e = linkValueError(link, i);
    if (e) throw r.error("bad_value", e[0], e[1], at + e[2]);
    checkLinkBounds(link, i, (off) => ({ ...r.where, offset: r.base + at + off }));
    out.push(link);
  }
  return out;
}
