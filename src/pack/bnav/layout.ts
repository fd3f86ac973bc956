/**
 * Byte accounting of a BNAV main pack (issue 10): every byte of the file must belong to the
 * header, the section directory (v4+), a flat table (v1–4) or a section, apart from alignment
 * padding. A damaged directory (a section count cut short, an entry's size or offset changed)
 * otherwise loads as a pack without some sections; here it is an error at the first byte that
 * nothing owns, or where two parts overlap.
 *
 * Padding rule (what navscope's writers produce): a gap of 1–7 zero bytes is allowed before a
 * part that starts on an 8-byte boundary (the v5 writer aligns every section to 8); the legacy
 * writer packs parts back to back. Nothing may follow the last part. Empty sections own no
 * bytes. Directory tags must be four printable ASCII characters (0x20–0x7E, as the encoder
 * requires); {@link sectionTagError} checks that, and {@link unknownSectionError} that each is one
 * of the four known sections.
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import type { MainPackHeader, SectionInfo } from "./types.ts";
import {
  BGEO_SINCE,
  FLOOR_Y_SINCE,
  KNOWN_SECTIONS,
  LINK_RECORD,
  SECTION_DIR_SINCE,
  SECTION_ENTRY_SIZE,
  TRIANGLE_RECORD,
  VERTEX_RECORD,
  ZONE_PREFIX,
  ZONE_PREFIX_V1,
} from "./types.ts";

/** One part of the file that owns a byte range. */
export interface OwnedRange {
  /** What it is, in words (`BNAV header`, `section directory`, `section BSRF`, …). */
  what: string;
  /** First byte. */
  start: number;
  /** One past the last byte. */
  end: number;
}

/** Largest zero-byte gap allowed before an 8-byte-aligned part. */
export const MAX_ALIGN_PAD = 7;

/** True for a byte that may appear in a section tag (printable ASCII). */
function tagByte(b: number): boolean {
  return b >= 0x20 && b <= 0x7e;
}

/**
 * The index of the first byte of `tag` (4 bytes at `bytes[at]`) that is not printable ASCII, or
 * −1 when the tag is well formed.
 */
export function badTagByte(bytes: Uint8Array, at: number): number {
  for (let i = 0; i < 4; i++) if (!tagByte(bytes[at + i])) return i;
  return -1;
}

/** Shows a raw tag with non-printable bytes escaped (`B\0RF`, `\x01ABC`). */
export function showTag(bytes: Uint8Array, at: number): string {
  let s = "";
  for (let i = 0; i < 4; i++) {
    const b = bytes[at + i];
    s += b === 0 ? "\\0" : tagByte(b) ? String.fromCharCode(b) : `\\x${b.toString(16)}`;
  }
  return s;
}

/** The error for a directory entry whose tag is not four printable ASCII characters, or null. */
export function sectionTagError(
  bytes: Uint8Array,
  entryAt: number,
  index: number,
  where: ErrorLocation,
): NavscopeError | null {
  const i = badTagByte(bytes, entryAt);
  if (i < 0) return null;
  return new NavscopeError(
    "bad_value",
    `entry ${index}'s tag "${showTag(bytes, entryAt)}" has byte ${i} = 0x${
      bytes[entryAt + i].toString(16).padStart(2, "0")
    }, not a printable ASCII character: the directory is damaged`,
    { ...where, section: "section directory", offset: entryAt + i },
    "a tag of four printable ASCII characters (BGEO, BOML, BSRF or BGRD)",
  );
}

/**
 * The error for the first directory entry whose tag is none of the four known sections, or null.
 * The spec (主包头与段目录: 已知四个段) knows BGEO, BOML, BSRF and BGRD and no correct writer
 * produces another, so an unknown tag is damage, not an extension to skip. When a known section
 * the version has is absent at the same time, the unknown entry is most likely that section under
 * a damaged tag (`BSRF`→`BXRF` made every triangle walkable, issue 27 item 7): the message says
 * so.
 */
export function unknownSectionError(
  h: MainPackHeader,
  sections: readonly SectionInfo[],
  where: ErrorLocation,
): NavscopeError | null {
  const known = KNOWN_SECTIONS as readonly string[];
  const i = sections.findIndex((s) => !known.includes(s.tag));
  if (i < 0) return null;
  const s = sections[i];
  const unknown = sections.filter((x) => !known.includes(x.tag)).length;
  const more = unknown > 1 ? ` (${unknown - 1} more unknown entr${unknown > 2 ? "ies" : "y"})` : "";
  // BGEO exists since v5; before, geometry sits in flat tables and the directory lists only the
  // other three.
  const expected = h.version >= BGEO_SINCE ? known : known.filter((t) => t !== "BGEO");
  const missing = expected.filter((t) => !sections.some((x) => x.tag === t));
  const renamed = missing.length > 0
    ? `; section${missing.length > 1 ? "s" : ""} ${missing.join(", ")} missing: a known ` +
      "section under a damaged tag?"
    : "";
  return new NavscopeError(
    "bad_value",
    `directory entry ${i} has tag ${JSON.stringify(s.tag)} (section at offset ${s.offset}, ` +
      `${s.size} bytes)${more}, not one of the four sections a main pack has ` +
      `(${KNOWN_SECTIONS.join(", ")}): no correct writer produces another${renamed}`,
    { ...where, section: "section directory", offset: h.sectionDirOffset + SECTION_ENTRY_SIZE * i },
    `a tag of ${KNOWN_SECTIONS.slice(0, 3).join(", ")} or ${KNOWN_SECTIONS[3]}`,
  );
}

/**
 * Byte size of the flat zone table at `off` (v1–4), or null when it runs past the file (the
 * zone decoder then reports the truncation).
 */
function flatZoneTableSize(bytes: Uint8Array, h: MainPackHeader): number | null {
  const prefix = h.version >= FLOOR_Y_SINCE ? ZONE_PREFIX : ZONE_PREFIX_V1;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = h.tableOffsets.zones;
  for (let z = 0; z < h.zoneCount; z++) {
    if (p + prefix > bytes.length) return null;
    p += prefix + dv.getUint32(p + 4, true);
    if (p > bytes.length) return null;
  }
  return p - h.tableOffsets.zones;
}

/**
 * The parts that own bytes of the file: header, directory, flat tables (v1–4) and non-empty
 * sections. Null when a flat table cannot be sized or runs past the file (its decoder reports
 * that).
 */
export function ownedRanges(
  bytes: Uint8Array,
  h: MainPackHeader,
  sections: readonly SectionInfo[],
): OwnedRange[] | null {
  const out: OwnedRange[] = [{ what: "the BNAV header", start: 0, end: h.headerSize }];
  if (h.version >= SECTION_DIR_SINCE && h.sectionCount > 0) {
    out.push({
      what: `the section directory (${h.sectionCount} entries)`,
      start: h.sectionDirOffset,
      end: h.sectionDirOffset + h.sectionCount * SECTION_ENTRY_SIZE,
    });
  }
  if (h.version < BGEO_SINCE) {
    const zt = flatZoneTableSize(bytes, h);
    if (zt === null) return null;
    const t = h.tableOffsets;
    const tables: [string, number, number][] = [
      ["the zone table", t.zones, zt],
      ["the vertex table", t.vertices, VERTEX_RECORD * h.vertexCount],
      ["the triangle table", t.triangles, TRIANGLE_RECORD * h.triangleCount],
      ["the link table", t.links, LINK_RECORD * h.linkCount],
    ];
    for (const [what, start, size] of tables) {
      // A table past the end of the file is its reader's error (offset_out_of_range).
      if (start + size > bytes.length) return null;
      if (size > 0) out.push({ what, start, end: start + size });
    }
  }
  for (const s of sections) {
    if (s.size > 0) out.push({ what: `section ${s.tag}`, start: s.offset, end: s.offset + s.size });
  }
  return out;
}

/**
 * Checks that the owned ranges account for every byte of the file: no overlaps, no gaps other
 * than alignment padding, nothing after the last part. Throws a NavscopeError at the first byte
 * where the layout stops making sense.
 */
export function checkPackLayout(
  bytes: Uint8Array,
  h: MainPackHeader,
  sections: readonly SectionInfo[],
  where: ErrorLocation,
): void {
  const ranges = ownedRanges(bytes, h, sections);
  if (!ranges) return;
  ranges.sort((a, b) => a.start - b.start || a.end - b.end);
  let pos = 0;
  let prev: OwnedRange | null = null;
  const check = (next: number, nextPart: OwnedRange | null) => {
    if (next === pos) return;
    const gap = next - pos;
    const zero = bytes.subarray(pos, next).every((b) => b === 0);
    if (zero && gap <= MAX_ALIGN_PAD && next % 8 === 0) return;
    throw gapError(bytes, h, pos, next, prev, nextPart, where);
  };
  for (const r of ranges) {
    if (r.start < pos) {
      throw new NavscopeError(
        "offset_out_of_range",
        `${r.what} [${r.start}, ${r.end}) overlaps ${prev?.what} [${prev?.start}, ${prev?.end})`,
        { ...where, section: "section directory", offset: r.start },
        "parts of the file that do not overlap",
      );
    }
    check(r.start, r);
    pos = r.end;
    prev = r;
  }
  check(bytes.length, null);
}

function gapError(
  bytes: Uint8Array,
  h: MainPackHeader,
  from: number,
  to: number,
  prev: OwnedRange | null,
  next: OwnedRange | null,
  where: ErrorLocation,
): NavscopeError {
  const span = `bytes [${from}, ${to}) (${to - from} bytes)`;
  const after = prev ? `after ${prev.what}` : "at the start";
  const where2 = { ...where, section: "section directory", offset: from };
  // A section count cut short leaves the rest of the directory as an unowned gap right after
  // it: say so, naming the entries found there.
  const dirEnd = h.sectionDirOffset + h.sectionCount * SECTION_ENTRY_SIZE;
  if (h.version >= SECTION_DIR_SINCE && from === dirEnd) {
    const tags: string[] = [];
    for (let p = from; p + SECTION_ENTRY_SIZE <= to; p += SECTION_ENTRY_SIZE) {
      if (badTagByte(bytes, p) >= 0) break;
      tags.push(showTag(bytes, p));
    }
    if (tags.length > 0) {
      return new NavscopeError(
        "count_mismatch",
        `${span} ${after} belong to no part of the pack, and they hold ${tags.length} more ` +
          `directory entries (${tags.join(", ")}): the section count ${h.sectionCount} at ` +
          `offset 72 looks damaged`,
        where2,
        `${h.sectionCount + tags.length} sections, or no bytes between the directory and the ` +
          "first section",
      );
    }
  }
  const what = next
    ? `${span} between ${prev?.what ?? "the file start"} and ${next.what} belong to no part of ` +
      "the pack"
    : `${span} after the last part (${prev?.what}) belong to no part of the pack`;
  return new NavscopeError(
    next ? "bad_value" : "count_mismatch",
    `${what}: a section entry's offset or size, or the section count, is damaged`,
    where2,
    `every byte owned by the header, the directory, a table or a section (gaps only as ≤ ${MAX_ALIGN_PAD} zero bytes before an 8-byte boundary)`,
  );
}
