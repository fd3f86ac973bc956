/**
 * BSRF, the surface-attribute section (spec 数据包 › 面属性与离网连接). A 16-byte header, then one
 * 8-byte record per triangle: `u8 area, u8 poly_type, u16 reserved, u32 flags`. A triangle whose
 * flags AND the walkable whitelist 0x00020CDD is 0 is not walkable; without BSRF all are walkable.
 *
 * The spec gives only the header size. We lay it out like the BOML header (the one the spec does
 * spell out): `"BSRF", u16 version 1, u16 record length 8, u32 count, u32 reserved`.
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import type { SurfaceColumns } from "./types.ts";

/** BSRF section version. */
export const BSRF_VERSION = 1;
/** BSRF header size. */
export const BSRF_HEADER_SIZE = 16;
/** BSRF record size. */
export const BSRF_RECORD = 8;

/** Encodes surface columns as a BSRF section. */
export function encodeBsrf(s: SurfaceColumns): Uint8Array {
  const n = s.flags.length;
  const w = new ByteWriter(BSRF_HEADER_SIZE + BSRF_RECORD * n);
  w.tag("BSRF").u16(BSRF_VERSION).u16(BSRF_RECORD).u32(n).u32(0);
  for (let i = 0; i < n; i++) w.u8(s.area[i]).u8(s.polyType[i]).u16(0).u32(s.flags[i]);
  return w.finish();
}

/**
 * Decodes a BSRF section held in `bytes` (which start at absolute offset `base`); the record
 * count must equal `triangles` and fill the section exactly. `[from, to)` picks the triangles to
 * keep (a per-zone load keeps only its zone's records).
 */
export function decodeBsrf(
  bytes: Uint8Array,
  base: number,
  triangles: number,
  where: ErrorLocation,
  from = 0,
  to = triangles,
): SurfaceColumns {
  const r = new ByteReader(bytes, { ...where, section: "BSRF" }, base);
  r.need(BSRF_HEADER_SIZE, "BSRF header");
  const tag = r.tag();
  if (tag !== "BSRF") {
    throw r.error("bad_magic", `section tag is ${JSON.stringify(tag)}`, '"BSRF"', 0);
  }
  const version = r.u16();
  if (version !== BSRF_VERSION) throw r.error("bad_version", `BSRF version ${version}`, "1", 4);
  const recLen = r.u16();
  if (recLen !== BSRF_RECORD) {
    throw r.error("bad_value", `BSRF record length ${recLen}`, `${BSRF_RECORD}`, 6);
  }
  const n = r.u32();
  r.u32();
  if (n !== triangles) {
    throw r.error(
      "count_mismatch",
      `BSRF has ${n} records for ${triangles} triangles`,
      `${triangles}`,
      8,
    );
  }
  const body = BSRF_HEADER_SIZE + BSRF_RECORD * n;
  if (bytes.length !== body) {
    throw new NavscopeError(
      bytes.length < body ? "truncated" : "stream_length",
      `BSRF section is ${bytes.length} bytes for ${n} records`,
      { ...r.where, offset: base + Math.min(bytes.length, body) },
      `${body} bytes`,
    );
  }
  const m = to - from;
  const out: SurfaceColumns = {
    area: new Uint8Array(m),
    polyType: new Uint8Array(m),
    flags: new Uint32Array(m),
  };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0, o = BSRF_HEADER_SIZE + BSRF_RECORD * from; i < m; i++, o += BSRF_RECORD) {
    out.area[i] = bytes[o];
    out.polyType[i] = bytes[o + 1];
    out.flags[i] = dv.getUint32(o + 4, true);
  }
  return out;
}

/** The surface columns of triangles `[from, to)`. */
export function sliceSurfaces(s: SurfaceColumns, from: number, to: number): SurfaceColumns {
  return {
    area: s.area.slice(from, to),
    polyType: s.polyType.slice(from, to),
    flags: s.flags.slice(from, to),
  };
}
