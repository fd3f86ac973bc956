/**
 * The BNAV header and section directory (spec 数据包 › 主包头与段目录; format-notes "BNAV main
 * pack"). The header is 64 bytes before {@link SECTION_DIR_SINCE} and 80 bytes from it:
 *
 * ```
 *  0 "BNAV"  4 u16 version  6 u16 flags
 *  8 u32 zones  12 u32 vertices  16 u32 triangles  20 u32 links (links must be > 0)
 * 24 u64 ×4 table offsets: zone table, vertices, triangles, links (void from BGEO_SINCE)
 * 56 u64 build_hash
 * 64 u64 section directory offset  72 u32 section count  76 u32 reserved   (v4+)
 * ```
 *
 * Directory entry (24 bytes): `tag[4], u32 flags, u64 offset, u64 size`, offsets from file start.
 * @module
 */
import { ByteReader, type ByteWriter } from "../../codec/bytes.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import {
  HEADER_SIZE,
  HEADER_SIZE_V1,
  MAIN_PACK_MIN_VERSION,
  MAIN_PACK_VERSION,
  type MainPackHeader,
  SECTION_DIR_SINCE,
  SECTION_ENTRY_SIZE,
  type SectionInfo,
} from "./types.ts";
import { sectionTagError } from "./layout.ts";

export type { MainPackHeader, SectionInfo };

/** Reads and validates the header. */
export function readHeader(bytes: Uint8Array, where: ErrorLocation): MainPackHeader {
  const w = { ...where, section: "BNAV header" };
  const r = new ByteReader(bytes, w);
  r.need(8, "BNAV header");
  const magic = r.tag();
  if (magic !== "BNAV") {
    throw r.error("bad_magic", `magic is ${JSON.stringify(magic)}`, '"BNAV"', 0);
  }
  const version = r.u16();
  if (version < MAIN_PACK_MIN_VERSION || version > MAIN_PACK_VERSION) {
    throw r.error(
      "bad_version",
      `BNAV version ${version}`,
      `${MAIN_PACK_MIN_VERSION}–${MAIN_PACK_VERSION}`,
      4,
    );
  }
  const headerSize = version >= SECTION_DIR_SINCE ? HEADER_SIZE : HEADER_SIZE_V1;
  r.need(headerSize - 8, `v${version} BNAV header (${headerSize} bytes)`);
  const flags = r.u16();
  const zoneCount = r.u32();
  const vertexCount = r.u32();
  const triangleCount = r.u32();
  const linkCount = r.u32();
  if (linkCount === 0) {
    throw r.error("bad_value", "link count is 0", "a link count > 0 (spec 主包头)", 20);
  }
  const tableOffsets = { zones: r.u64(), vertices: r.u64(), triangles: r.u64(), links: r.u64() };
  const buildHash = r.u64big();
  let sectionDirOffset = 0;
  let sectionCount = 0;
  if (version >= SECTION_DIR_SINCE) {
    sectionDirOffset = r.u64();
    sectionCount = r.u32();
    r.u32();
  }
  return {
    version,
    flags,
    zoneCount,
    vertexCount,
    triangleCount,
    linkCount,
    tableOffsets,
    buildHash,
    sectionDirOffset,
    sectionCount,
    headerSize,
  };
}

/**
 * Reads the section directory (v4+); every entry must lie inside the file and carry a tag of
 * four printable ASCII characters.
 */
export function readSections(
  bytes: Uint8Array,
  h: MainPackHeader,
  where: ErrorLocation,
): SectionInfo[] {
  if (h.version < SECTION_DIR_SINCE) return [];
  const w = { ...where, section: "section directory" };
  const end = h.sectionDirOffset + h.sectionCount * SECTION_ENTRY_SIZE;
  if (end > bytes.length) {
    throw new NavscopeError(
      "offset_out_of_range",
      `section directory [${h.sectionDirOffset}, ${end}) runs past the end of the ` +
        `${bytes.length}-byte file`,
      { ...w, offset: h.sectionDirOffset },
      `${h.sectionCount} entries of 24 bytes inside the file`,
    );
  }
  const r = new ByteReader(bytes, w, 0, h.sectionDirOffset);
  const out: SectionInfo[] = [];
  for (let i = 0; i < h.sectionCount; i++) {
    const at = r.pos;
    const bad = sectionTagError(bytes, at, i, where);
    if (bad) throw bad;
    const s = { tag: r.tag(), flags: r.u32(), offset: r.u64(), size: r.u64() };
    if (s.offset + s.size > bytes.length) {
      throw new NavscopeError(
        "offset_out_of_range",
        `section ${s.tag} [${s.offset}, ${s.offset + s.size}) runs past the end of the ` +
          `${bytes.length}-byte file`,
        { ...where, section: s.tag, offset: at + 8 },
        "a range inside the file",
      );
    }
    out.push(s);
  }
  return out;
}

/** Header fields the encoder writes (always v5, void table offsets = 0). */
export interface HeaderFields {
  /** Flags. */
  flags: number;
  /** Counts. */
  zones: number;
  /** Vertex count. */
  vertices: number;
  /** Triangle count. */
  triangles: number;
  /** Link count. */
  links: number;
  /** Build hash. */
  buildHash: bigint;
  /** Sections in directory order (absolute offsets). */
  sections: SectionInfo[];
}

/** Writes the v5 header followed directly by the section directory. */
export function writeHeaderAndDirectory(w: ByteWriter, f: HeaderFields): void {
  w.tag("BNAV").u16(MAIN_PACK_VERSION).u16(f.flags);
  w.u32(f.zones).u32(f.vertices).u32(f.triangles).u32(f.links);
  w.u64(0).u64(0).u64(0).u64(0);
  w.u64big(f.buildHash);
  w.u64(HEADER_SIZE).u32(f.sections.length).u32(0);
  for (const s of f.sections) w.tag(s.tag).u32(s.flags).u64(s.offset).u64(s.size);
}
