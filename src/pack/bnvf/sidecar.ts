/**
 * BNVF v2 fields sidecar: open + validate, lazy per-tile/per-zone decode, full decode, encode
 * (spec 旁包, 旁包校验, 引擎装载; format-notes "BNVF fields sidecar").
 *
 * Layout (all offsets absolute within the decompressed file):
 * - 48-byte header: "BNVF", u16 version 2, u16 flags, u64 build_hash, u64 file_fnv, u32 rules 2,
 *   u32 section count, u64 directory offset, 8 unused bytes;
 * - directory: 24-byte entries tag[4], u32 unused, u64 offset, u64 length;
 * - sections FCON, FZON, FSPN, FSCC, FWAL (required), FLNK, FOPN (optional).
 *
 * FZON (zone offsets are relative to the start of the FSPN / FSCC / FWAL section — [I], the
 * notes say only "pairs into FSPN, FSCC and FWAL"): u32 zone count, then per zone u32 name
 * length, the name padded to 4 with zeros, u32 regions, u32 tiles, 3 × (u64 offset, u64 length).
 * FSPN zone block: a 16-byte-per-tile table (u32 records, u64 payload offset from the block
 * start, u32 payload length) in BGRD tile order, followed by the payloads.
 *
 * The encoder writes one canonical layout (directory right after the header, sections in the
 * order above, each 8-aligned, zone blocks and tile payloads back to back), so
 * `encodeSidecar(decodeSidecar(b).model)` reproduces any file this encoder wrote, byte for byte.
 *
 * Validation follows 旁包校验 exactly, in order: (1) magic and version, (2) build_hash and
 * file FNV against the main pack, (3) rules version, (4) the five required sections, (5) FCON
 * byte-equal with the runtime constants, (6) zones against BGRD (same names, region counts,
 * tile counts, per-tile record counts). Any failure is one NavscopeError; the engine is then
 * unusable (引擎装载 step 2) — there is no degraded path.
 * @module
 */
import { pairSidecars } from "../set/pairing.ts";
import { ByteReader, ByteWriter, readMaybeGzip } from "../../codec/mod.ts";
import { escapeControls, nameFault, PLAUSIBLE_NAME } from "../../codec/json_strict.ts";
import { type ErrorLocation, NavscopeError, withLocation } from "../../errors.ts";
import {
  FCON_SIZE,
  fconFirstDifference,
  fconSlotName,
  FIELDS_RULES_VERSION,
  RUNTIME_FCON,
} from "./constants.ts";
import { decodeComponentGraphs, encodeComponentGraphs } from "./fscc.ts";
import { decodeFieldsTile, encodeFieldsTile, MAX_DEFLATE_RATIO } from "./fspn.ts";
import { decodeWallTable, encodeWallTable } from "./fwal.ts";
import {
  decodeLinkTable,
  decodeOpenTable,
  encodeLinkTable,
  encodeOpenTable,
  FLNK_RECORD_SIZE,
} from "./tables.ts";
import {
  BNVF_DIR_ENTRY_SIZE,
  BNVF_FLAG_SCC_EXTRA,
  BNVF_HEADER_SIZE,
  BNVF_MAGIC,
  BNVF_OPTIONAL_SECTIONS,
  BNVF_REQUIRED_SECTIONS,
  BNVF_VERSION,
  type ComponentGraphs,
  type FieldsTile,
  type SidecarExpectations,
  type SidecarHeader,
  type SidecarLinkTable,
  type SidecarModel,
  type SidecarOpenTable,
  type SidecarRawSection,
  type SidecarSection,
  type SidecarZone,
  type WallTable,
  type ZoneFields,
} from "./types.ts";

export * from "./types.ts";
export * from "./constants.ts";
export { allocFieldsTile, decodeFieldsTile, encodeFieldsTile } from "./fspn.ts";
export {
  buildComponentGraphs,
  decodeComponentGraphs,
  encodeComponentGraphs,
  graphIndexOf,
  reachFrom,
} from "./fscc.ts";
export {
  buildWallTable,
  decodeWallTable,
  encodeWallTable,
  wallIndexOf,
  wallKeptFor,
} from "./fwal.ts";
export {
  buildOpenTable,
  decodeLinkTable,
  decodeOpenTable,
  encodeLinkTable,
  encodeOpenTable,
  FLNK_RECORD_SIZE,
  FOPN_RECORD_SIZE,
  linkJumpCost,
  openIndexOf,
  zoneRange,
} from "./tables.ts";

const KNOWN_ORDER = ["FCON", "FZON", "FSPN", "FSCC", "FWAL", "FLNK", "FOPN"];
const SECTION_ALIGN = 8;
/** Smallest FZON zone entry: name length + empty name + regions + tiles + 6 u64. */
const MIN_ZONE_ENTRY = 4 + 4 + 4 + 48;

/** An opened, validated sidecar. Heavy parts (FSPN payloads, FSCC, FWAL) decode on demand. */
export interface SidecarPack {
  /** File label for error messages. */
  file: string;
  /** The whole decompressed sidecar. */
  bytes: Uint8Array;
  /** Header. */
  header: SidecarHeader;
  /** Directory entries, in file order. */
  sections: SidecarSection[];
  /** The FCON bytes (a view). */
  fcon: Uint8Array;
  /** Zones in FZON order. */
  zones: SidecarZone[];
  /** Zone index by name. */
  zoneByName: Map<string, number>;
  /** FLNK, if present. */
  links: SidecarLinkTable | null;
  /** FOPN, if present. */
  opens: SidecarOpenTable | null;
  /** Whether the main-pack pairing (steps 2 and 6) was checked. */
  paired: boolean;
}

/** Options for {@link openSidecar}. */
export interface OpenSidecarOptions {
  /** File label for errors (default `<memory>`). */
  file?: string;
  /** Runtime FCON bytes to compare with (default {@link RUNTIME_FCON}). */
  runtimeFcon?: Uint8Array;
}

/**
 * Opens a decompressed sidecar and runs the six checks of 旁包校验. With `expect === null` the
 * main-pack checks (step 2 and step 6) are skipped — only for `inspect` on a lone file; the
 * engine always passes the main pack's facts.
 */
export function openSidecar(
  bytes: Uint8Array,
  expect: SidecarExpectations | null,
  opts: OpenSidecarOptions = {},
): SidecarPack {
  const file = opts.file ?? "<memory>";
  return withLocation(
    { file },
    () => openInner(bytes, expect, file, opts.runtimeFcon ?? RUNTIME_FCON),
  );
}

function openInner(
  bytes: Uint8Array,
  expect: SidecarExpectations | null,
  file: string,
  runtimeFcon: Uint8Array,
): SidecarPack {
  const header = readHeader(bytes);
  checkPairing(header, expect);
  if (header.rules !== FIELDS_RULES_VERSION) {
    throw new NavscopeError(
      "bad_version",
      `rules version ${header.rules} (旁包判据版本不符)`,
      { section: "BNVF header", offset: 24 },
      `${FIELDS_RULES_VERSION}`,
    );
  }
  const sections = readDirectory(bytes, header);
  const byTag = new Map(sections.map((s) => [s.tag, s]));
  for (const tag of BNVF_REQUIRED_SECTIONS) {
    if (!byTag.has(tag)) {
      throw new NavscopeError("bad_value", `required section ${tag} is missing (旁包缺段)`, {
        section: "BNVF directory",
        offset: header.dirOffset,
      }, `sections ${BNVF_REQUIRED_SECTIONS.join(", ")}`);
    }
  }
  checkSidecarLayout(bytes, header, sections);
  const fconSec = byTag.get("FCON")!;
  const fcon = sectionBytes(bytes, fconSec);
  checkFcon(fcon, fconSec, runtimeFcon);
  const zones = readZones(bytes, byTag);
  const zoneByName = new Map<string, number>();
  zones.forEach((z, i) => {
    if (zoneByName.has(z.name)) {
      throw new NavscopeError("bad_value", `zone name appears twice`, {
        section: "FZON",
        zone: z.name,
      });
    }
    zoneByName.set(z.name, i);
  });
  if (expect) checkZones(zones, zoneByName, expect);
  const lk = byTag.get("FLNK");
  const op = byTag.get("FOPN");
  const links = lk ? decodeLinkTable(sectionBytes(bytes, lk), { file }, lk.offset) : null;
  if (expect) checkLinksAgainstMain(links, lk ?? null, header, expect);
  return {
    file,
    bytes,
    header,
    sections,
    fcon,
    zones,
    zoneByName,
    links,
    opens: op ? decodeOpenTable(sectionBytes(bytes, op), { file }, op.offset) : null,
    paired: expect !== null,
  };
}

/**
 * Header and directory fields no correct writer sets, and the byte accounting of the file
 * (format-notes "BNVF fields sidecar"; issue 27): header flag bits other than bit 0, the 8
 * unused header bytes, the 4 unused bytes of a directory entry, a tag that is neither a required
 * nor an optional section (the format has no extension mechanism, so an unknown tag is a damaged
 * or foreign file — e.g. FLNK→FLNX would drop the links silently), sections overlapping each
 * other or the directory, gaps other than ≤ 7 zero bytes of 8-byte alignment before a part, and
 * bytes after the last part (a section count cut short leaves its section's bytes there).
 */
function checkSidecarLayout(
  bytes: Uint8Array,
  h: SidecarHeader,
  sections: SidecarSection[],
): void {
  if ((h.flags & ~BNVF_FLAG_SCC_EXTRA) !== 0) {
    throw new NavscopeError(
      "bad_value",
      `header flags 0x${h.flags.toString(16)} set unknown bits`,
      { section: "BNVF header", offset: 6 },
      `only bit 0 (0x${BNVF_FLAG_SCC_EXTRA.toString(16)})`,
    );
  }
  if (h.reserved !== 0n) {
    throw new NavscopeError(
      "bad_value",
      `the 8 unused header bytes hold 0x${h.reserved.toString(16)}`,
      { section: "BNVF header", offset: 40 },
      "zero",
    );
  }
  const known = new Set<string>([...BNVF_REQUIRED_SECTIONS, ...BNVF_OPTIONAL_SECTIONS]);
  sections.forEach((s, i) => {
    const at = h.dirOffset + i * BNVF_DIR_ENTRY_SIZE;
    if (!known.has(s.tag)) {
      throw new NavscopeError(
        "bad_value",
        `directory entry ${i} names an unknown section ${JSON.stringify(s.tag)} (旁包未知段)`,
        { section: "BNVF directory", offset: at },
        `one of ${[...known].join(", ")} (the sidecar format has no extension sections)`,
      );
    }
    if (s.flags !== 0) {
      throw new NavscopeError(
        "bad_value",
        `directory entry ${i} (${s.tag}) has 0x${s.flags.toString(16)} in its unused bytes`,
        { section: "BNVF directory", offset: at + 4 },
        "zero",
      );
    }
  });
  const parts = [
    { what: "header", start: 0, end: BNVF_HEADER_SIZE },
    {
      what: "directory",
      start: h.dirOffset,
      end: h.dirOffset + h.sectionCount * BNVF_DIR_ENTRY_SIZE,
    },
    ...sections.filter((s) => s.length > 0).map((s) => ({
      what: `section ${s.tag}`,
      start: s.offset,
      end: s.offset + s.length,
    })),
  ].sort((a, b) => a.start - b.start || a.end - b.end);
  let pos = 0, prev = "start of file";
  for (const p of parts) {
    if (p.start < pos) {
      throw new NavscopeError(
        "offset_out_of_range",
        `${p.what} [${p.start}, ${p.end}) overlaps ${prev} (ends at ${pos})`,
        { section: "BNVF directory", offset: p.start },
        "parts that do not overlap",
      );
    }
    checkGap(bytes, pos, p.start, `before ${p.what}`);
    pos = p.end;
    prev = p.what;
  }
  if (pos !== bytes.length) {
    throw new NavscopeError(
      "stream_length",
      `${bytes.length - pos} bytes after the last part (${prev}) that no directory entry owns ` +
        "(旁包尾部多余字节: a section count cut short?)",
      { section: "BNVF directory", offset: pos },
      `the file to end at ${pos}`,
    );
  }
}

/** A gap between parts may only be 0–7 zero bytes of alignment before an 8-aligned part. */
function checkGap(bytes: Uint8Array, from: number, to: number, where: string): void {
  if (from === to) return;
  const pad = to - from < SECTION_ALIGN && to % SECTION_ALIGN === 0;
  let zero = true;
  for (let i = from; i < to && zero; i++) zero = bytes[i] === 0;
  if (!pad || !zero) {
    throw new NavscopeError(
      "stream_length",
      `${to - from} bytes at [${from}, ${to}) ${where} belong to no section (orphaned bytes)`,
      { section: "BNVF directory", offset: from },
      "at most 7 zero bytes of 8-byte alignment between parts",
    );
  }
}

/**
 * FLNK against the main pack (issue 27 item 2): FLNK is "由 BOML 换算" — present exactly when the
 * main pack has off-mesh links, one record per BOML link; each record's zone and link fields are
 * that BOML record's, and a landing side's region id is in 1..its zone's region count. Only the facts the
 * caller gave are checked (`expect.offMeshLinks` undefined: the BOML checks are skipped).
 */
function checkLinksAgainstMain(
  links: SidecarLinkTable | null,
  sec: SidecarSection | null,
  h: SidecarHeader,
  expect: SidecarExpectations,
): void {
  const boml = expect.offMeshLinks;
  const fail = (what: string, expected: string, offset?: number) =>
    new NavscopeError("count_mismatch", what, {
      section: links ? "FLNK" : "BNVF directory",
      offset: offset ?? (sec ? sec.offset : h.dirOffset),
    }, expected);
  if (boml !== undefined) {
    const n = boml?.length ?? 0;
    if (!links && n > 0) {
      throw fail(
        `the sidecar has no FLNK section but the main pack has ${n} off-mesh links (旁包缺 FLNK)`,
        `an FLNK section with ${n} records`,
      );
    }
    if (links && links.count !== n) {
      throw fail(
        `FLNK has ${links.count} records but the main pack has ${n} off-mesh links`,
        `${n} records, one per BOML link`,
      );
    }
  }
  if (!links) return;
  const regionsById = new Map<number, number>();
  const cellsById = new Map<number, readonly number[]>();
  for (const z of expect.zones) {
    if (z.id !== undefined) regionsById.set(z.id, z.regions);
    if (z.id !== undefined && z.cells) cellsById.set(z.id, z.cells);
  }
  // Without zone ids: the union of every zone's owned cells.
  const allCells = expect.zones.reduce<number[] | null>(
    (a, z) =>
      !z.cells ? a : !a ? [...z.cells] : [
        Math.min(a[0], z.cells[0]),
        Math.min(a[1], z.cells[1]),
        Math.max(a[2], z.cells[2]),
        Math.max(a[3], z.cells[3]),
      ],
    null,
  );
  const maxRegions = Math.max(0, ...expect.zones.map((z) => z.regions));
  const base = (sec?.offset ?? 0) + 16 + 12 * links.index.zone.length;
  for (let i = 0; i < links.count; i++) {
    const at = base + FLNK_RECORD_SIZE * i;
    const zone = links.zone[i];
    const b = boml?.[i];
    if (b) {
      const same = b.zone === zone && b.kind === links.kind[i] && b.isExt === links.isExt[i] &&
        b.bidirectional === links.bidirectional[i] && b.area === links.area[i] &&
        b.linkType === links.linkType[i] && b.direction === links.direction[i] &&
        Math.fround(b.radius) === links.radius[i] &&
        Math.fround(b.costModifier) === links.costModifier[i];
      if (!same) {
        throw fail(
          `FLNK record ${i} (zone ${zone}, radius ${links.radius[i]}, cost ${
            links.costModifier[i]
          }) is not BOML link ${i} (zone ${b.zone}, radius ${b.radius}, cost ${b.costModifier})`,
          "the BOML record's zone, kind, flags, radius and cost modifier",
          at,
        );
      }
    }
    // Without zone ids (facts from BGRD alone) a region id is still below the largest zone's.
    const regions = regionsById.size > 0 ? regionsById.get(zone) : maxRegions;
    if (regions === undefined) {
      throw fail(
        `FLNK record ${i} is in zone ${zone}, which has no grid`,
        "a BGRD zone id",
        at + 4,
      );
    }
    const cells = regionsById.size > 0 ? cellsById.get(zone) : allCells;
    for (let k = 0; k < 2; k++) {
      const s = 2 * i + k, gx = links.gx[s], gy = links.gy[s];
      // Reason 1 (出界) is the only side whose cell no tile owns.
      if (
        cells && links.why[s] !== 1 &&
        !(gx >= cells[0] && gx <= cells[2] && gy >= cells[1] && gy <= cells[3])
      ) {
        throw fail(
          `FLNK record ${i} side ${k} (reason ${links.why[s]}) is at cell ${gx}, ${gy}`,
          `a cell the zone's tiles own (${cells[0]}..${cells[2]} × ${cells[1]}..${cells[3]})`,
          at + 32 + 24 * k,
        );
      }
      const rid = links.rid[s];
      if (links.why[s] !== 0 && links.why[s] !== 4) continue;
      // Region ids run 1..global_regions (BGRD guard; 0 is no region).
      if (rid < 1 || rid > regions) {
        throw fail(
          `FLNK record ${i} side ${k} lands in region ${rid}`,
          `1..${regions} (the zone's global_regions)`,
          at + 32 + 24 * k + 16,
        );
      }
    }
  }
}

/**
 * The sidecar path paired with a main pack path (spec 数据包: same directory, same name):
 * `base.nav.gz` → `base.fields.nav.gz`, `base.nav` → `base.fields.nav`.
 */
export function sidecarPathFor(mainPath: string): string {
  // One pairing rule for the whole project: src/pack/set/pairing.ts.
  return pairSidecars(mainPath).fields[0];
}

/**
 * Reads a sidecar file (gzip or raw) and opens it (spec 引擎装载 step 2). A missing file is an
 * `io` error: the engine is unusable without its sidecar.
 */
export async function loadSidecarFile(
  path: string,
  expect: SidecarExpectations | null,
  runtimeFcon?: Uint8Array,
): Promise<SidecarPack> {
  const bytes = await readMaybeGzip(path, { magic: ["BNVF"] });
  return openSidecar(bytes, expect, { file: path, runtimeFcon });
}

/** Step 1: magic and version; plus the header's own bounds. */
function readHeader(bytes: Uint8Array): SidecarHeader {
  const r = new ByteReader(bytes, { section: "BNVF header" });
  r.need(4, "magic");
  const magic = r.tag();
  if (magic !== BNVF_MAGIC) {
    throw r.error("bad_magic", `magic ${JSON.stringify(magic)} (旁包不是 BNVF)`, `"BNVF"`, 0);
  }
  r.need(BNVF_HEADER_SIZE - 4, "header");
  const version = r.u16();
  if (version !== BNVF_VERSION) {
    throw r.error("bad_version", `format version ${version}`, `version ${BNVF_VERSION}`, 4);
  }
  const flags = r.u16();
  const buildHash = r.u64big();
  const fileFnv = r.u64big();
  const rules = r.u32();
  const sectionCount = r.u32();
  const dirOffset = r.u64();
  const reserved = r.u64big();
  return { version, flags, buildHash, fileFnv, rules, sectionCount, dirOffset, reserved };
}

const hex = (v: bigint) => v.toString(16).padStart(16, "0");

/** Step 2: the sidecar belongs to this main pack. */
function checkPairing(h: SidecarHeader, expect: SidecarExpectations | null): void {
  if (!expect) return;
  if (h.buildHash !== BigInt.asUintN(64, expect.buildHash)) {
    throw new NavscopeError(
      "hash_mismatch",
      `build_hash ${hex(h.buildHash)} is not the main pack's${
        expect.mainFile ? ` (${expect.mainFile})` : ""
      } (旁包不是配这份主包的)`,
      { section: "BNVF header", offset: 8 },
      hex(BigInt.asUintN(64, expect.buildHash)),
    );
  }
  if (h.fileFnv !== BigInt.asUintN(64, expect.fileFnv)) {
    throw new NavscopeError(
      "hash_mismatch",
      `main-pack FNV ${hex(h.fileFnv)} is not the FNV of the main pack's decompressed bytes, ` +
        `though its build_hash matches: the main pack${
          expect.mainFile ? ` ${expect.mainFile}` : ""
        } changed after the sidecar was baked ` +
        `(bytes outside the hashed tables differ: the section directory, BOML, BSRF or the ` +
        `BGRD grid — damaged, or re-written by another tool)`,
      { section: "BNVF header", offset: 16 },
      hex(BigInt.asUintN(64, expect.fileFnv)),
    );
  }
}

function readDirectory(bytes: Uint8Array, h: SidecarHeader): SidecarSection[] {
  const end = h.dirOffset + h.sectionCount * BNVF_DIR_ENTRY_SIZE;
  if (h.dirOffset < BNVF_HEADER_SIZE || end > bytes.length) {
    throw new NavscopeError(
      "offset_out_of_range",
      `section directory [${h.dirOffset}, ${end}) lies outside the file of ${bytes.length} bytes (旁包段目录越界)`,
      { section: "BNVF directory", offset: 32 },
      `a directory inside [${BNVF_HEADER_SIZE}, ${bytes.length})`,
    );
  }
  const r = new ByteReader(bytes, { section: "BNVF directory" }, 0, h.dirOffset);
  const out: SidecarSection[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < h.sectionCount; i++) {
    const at = r.pos;
    const tag = r.tag();
    const flags = r.u32();
    const offset = r.u64();
    const length = r.u64();
    if (seen.has(tag)) {
      throw r.error("bad_value", `section ${tag} is listed twice`, "distinct tags", at);
    }
    seen.add(tag);
    if (offset < BNVF_HEADER_SIZE || offset + length > bytes.length) {
      throw r.error(
        "offset_out_of_range",
        `section ${tag} [${offset}, ${
          offset + length
        }) lies outside the file of ${bytes.length} bytes (旁包段 ${tag} 越界)`,
        `a range inside [${BNVF_HEADER_SIZE}, ${bytes.length})`,
        at,
      );
    }
    out.push({ tag, flags, offset, length });
  }
  return out;
}

function sectionBytes(bytes: Uint8Array, s: SidecarSection): Uint8Array {
  return bytes.subarray(s.offset, s.offset + s.length);
}

/** Step 5: FCON byte-equal with the runtime constants. */
function checkFcon(fcon: Uint8Array, s: SidecarSection, runtime: Uint8Array): void {
  const d = fconFirstDifference(fcon, runtime);
  if (d < 0) return;
  const what = fcon.length !== FCON_SIZE
    ? `FCON is ${fcon.length} bytes`
    : `FCON byte ${d} (${
      fconSlotName(d)
    }) differs from the runtime constants (旁包的判据常数与运行期不符)`;
  throw new NavscopeError(
    "constants_mismatch",
    what,
    { section: "FCON", offset: s.offset + d },
    `${FCON_SIZE} bytes equal to the runtime snapshot`,
  );
}

function readZones(bytes: Uint8Array, byTag: Map<string, SidecarSection>): SidecarZone[] {
  const fz = byTag.get("FZON")!;
  const r = new ByteReader(sectionBytes(bytes, fz), { section: "FZON" }, fz.offset);
  const count = r.u32();
  if (count * MIN_ZONE_ENTRY > r.remaining) {
    throw r.error(
      "truncated",
      `zone count ${count} cannot fit in ${r.remaining} bytes (旁包区表残缺)`,
      "fewer zones",
      0,
    );
  }
  const dec = new TextDecoder("utf-8", { fatal: true });
  const zones: SidecarZone[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const nameLen = r.u32();
    const raw = r.take(nameLen, "zone name");
    let name: string;
    try {
      name = dec.decode(raw);
    } catch {
      throw r.error("bad_value", `zone ${i} name is not UTF-8`, "a UTF-8 name", at + 4);
    }
    // The sidecar's zones are the main pack's, whose zone table holds only plausible names.
    const fault = nameFault(name);
    if (fault) {
      throw r.error(
        "bad_value",
        `zone ${i} name "${escapeControls(name)}" is not a zone name: ${fault}`,
        PLAUSIBLE_NAME,
        at + 4,
      );
    }
    const padAt = r.pos;
    const pad = r.take((4 - (nameLen % 4)) % 4, "name padding");
    if (pad.some((b) => b !== 0)) {
      throw r.error("bad_value", `zone ${name} name padding is not zero`, "zero padding", padAt);
    }
    const regions = r.u32();
    const tiles = r.u32();
    const rel = [r.u64(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64()];
    const zone = withLocation(
      { zone: name },
      () => zoneBlocks(bytes, byTag, name, regions, tiles, rel, at),
    );
    zones.push(zone);
  }
  r.expectEnd("the zone table");
  return zones;
}

function zoneBlocks(
  bytes: Uint8Array,
  byTag: Map<string, SidecarSection>,
  name: string,
  regions: number,
  tiles: number,
  rel: number[],
  entryAt: number,
): SidecarZone {
  const abs: number[] = [];
  ["FSPN", "FSCC", "FWAL"].forEach((tag, k) => {
    const s = byTag.get(tag)!;
    const off = rel[2 * k], len = rel[2 * k + 1];
    if (off + len > s.length) {
      throw new NavscopeError(
        "offset_out_of_range",
        `${tag} block [${off}, ${
          off + len
        }) lies outside the ${tag} section of ${s.length} bytes (旁包区的段范围越界)`,
        { section: "FZON", offset: byTag.get("FZON")!.offset + entryAt },
        `a range inside [0, ${s.length})`,
      );
    }
    abs.push(s.offset + off, len);
  });
  const [fspnOffset, fspnLength] = abs;
  if (tiles * 16 > fspnLength) {
    throw new NavscopeError(
      "offset_out_of_range",
      `tile table of ${tiles} tiles needs ${
        tiles * 16
      } bytes but the FSPN block has ${fspnLength} (瓦表越界)`,
      { section: "FSPN", offset: fspnOffset },
      `at least ${tiles * 16} bytes`,
    );
  }
  const r = new ByteReader(
    bytes.subarray(fspnOffset, fspnOffset + fspnLength),
    { section: "FSPN" },
    fspnOffset,
  );
  const tileRecords = new Uint32Array(tiles);
  const tileOffset = new Float64Array(tiles);
  const tileLength = new Uint32Array(tiles);
  for (let t = 0; t < tiles; t++) {
    const at = r.pos;
    tileRecords[t] = r.u32();
    const off = r.u64();
    const len = r.u32();
    if (off + len > fspnLength) {
      throw new NavscopeError(
        "offset_out_of_range",
        `tile payload [${off}, ${
          off + len
        }) lies outside the zone's FSPN block of ${fspnLength} bytes (瓦载荷越界)`,
        { section: "FSPN", tile: t, offset: fspnOffset + at },
        `a range inside [0, ${fspnLength})`,
      );
    }
    if (tileRecords[t] > len * MAX_DEFLATE_RATIO) {
      throw new NavscopeError(
        "bad_value",
        `tile table claims ${tileRecords[t]} records for a ${len}-byte payload`,
        { section: "FSPN", tile: t, offset: fspnOffset + at },
        `at most ${MAX_DEFLATE_RATIO} records per payload byte`,
      );
    }
    tileOffset[t] = fspnOffset + off;
    tileLength[t] = len;
  }
  return {
    name,
    regions,
    tiles,
    fspnOffset,
    fspnLength,
    fsccOffset: abs[2],
    fsccLength: abs[3],
    fwalOffset: abs[4],
    fwalLength: abs[5],
    tileRecords,
    tileOffset,
    tileLength,
  };
}

/** Step 6: the zone table agrees with BGRD, zone by zone and tile by tile. */
function checkZones(
  zones: SidecarZone[],
  byName: Map<string, number>,
  expect: SidecarExpectations,
): void {
  const mainNames = new Set<string>();
  for (const ez of expect.zones) {
    mainNames.add(ez.name);
    const i = byName.get(ez.name);
    if (i === undefined) {
      throw new NavscopeError("count_mismatch", `the sidecar has no zone ${ez.name} (旁包没有区)`, {
        section: "FZON",
        zone: ez.name,
      }, "every BGRD zone in FZON");
    }
    const z = zones[i];
    if (z.regions !== ez.regions || z.tiles !== ez.tileRecords.length) {
      throw new NavscopeError(
        "count_mismatch",
        `zone has ${z.regions} regions and ${z.tiles} tiles (旁包区的类数或瓦数与格图不符)`,
        { section: "FZON", zone: z.name },
        `${ez.regions} regions and ${ez.tileRecords.length} tiles as in BGRD`,
      );
    }
    for (let t = 0; t < z.tiles; t++) {
      if (z.tileRecords[t] !== ez.tileRecords[t]) {
        throw new NavscopeError(
          "count_mismatch",
          `tile table says ${z.tileRecords[t]} records (旁包区第 ${t} 瓦记录数与格图不符)`,
          { section: "FSPN", zone: z.name, tile: t, offset: z.fspnOffset + t * 16 },
          `${ez.tileRecords[t]} records as in BGRD`,
        );
      }
    }
  }
  for (const z of zones) {
    if (!mainNames.has(z.name)) {
      throw new NavscopeError("count_mismatch", `zone is not in the main pack's BGRD`, {
        section: "FZON",
        zone: z.name,
      }, "only BGRD zones");
    }
  }
}

function zoneAt(pack: SidecarPack, zone: number | string): [number, SidecarZone] {
  const i = typeof zone === "number" ? zone : pack.zoneByName.get(zone) ?? -1;
  const z = pack.zones[i];
  if (!z) {
    throw new NavscopeError("bad_value", `the sidecar has no zone ${zone} (旁包里没有这个区)`, {
      file: pack.file,
      section: "FZON",
      zone,
    });
  }
  return [i, z];
}

/** Decodes FSPN tile `tile` of a zone (index or name). */
export function readFieldsTile(pack: SidecarPack, zone: number | string, tile: number): FieldsTile {
  const [, z] = zoneAt(pack, zone);
  if (!(tile >= 0 && tile < z.tiles)) {
    throw new NavscopeError("bad_value", `tile ${tile} does not exist`, {
      file: pack.file,
      section: "FSPN",
      zone: z.name,
    }, `0..${z.tiles - 1}`);
  }
  const off = z.tileOffset[tile];
  const payload = pack.bytes.subarray(off, off + z.tileLength[tile]);
  return decodeFieldsTile(
    payload,
    z.tileRecords[tile],
    { file: pack.file, zone: z.name, tile },
    off,
  );
}

function zoneRecords(z: SidecarZone): number {
  let n = 0;
  for (let t = 0; t < z.tiles; t++) n += z.tileRecords[t];
  return n;
}

/** Decodes a zone's FSCC component DAGs. */
export function readComponentGraphs(pack: SidecarPack, zone: number | string): ComponentGraphs {
  const [, z] = zoneAt(pack, zone);
  const block = pack.bytes.subarray(z.fsccOffset, z.fsccOffset + z.fsccLength);
  const extra = (pack.header.flags & BNVF_FLAG_SCC_EXTRA) !== 0;
  return decodeComponentGraphs(
    block,
    extra,
    zoneRecords(z),
    { file: pack.file, zone: z.name },
    z.fsccOffset,
  );
}

/** Decodes a zone's FWAL keep table. */
export function readWallTable(pack: SidecarPack, zone: number | string): WallTable {
  const [, z] = zoneAt(pack, zone);
  const block = pack.bytes.subarray(z.fwalOffset, z.fwalOffset + z.fwalLength);
  return decodeWallTable(block, { file: pack.file, zone: z.name }, z.fwalOffset);
}

/** Decodes everything of one zone. */
export function readZoneFields(pack: SidecarPack, zone: number | string): ZoneFields {
  const [i, z] = zoneAt(pack, zone);
  const tiles: FieldsTile[] = [];
  for (let t = 0; t < z.tiles; t++) tiles.push(readFieldsTile(pack, i, t));
  return {
    name: z.name,
    regions: z.regions,
    tiles,
    graphs: readComponentGraphs(pack, i),
    walls: readWallTable(pack, i),
  };
}

/** Opens, validates and fully decodes a sidecar: the pack plus the encodable model. */
export function decodeSidecar(
  bytes: Uint8Array,
  expect: SidecarExpectations | null,
  opts: OpenSidecarOptions = {},
): { pack: SidecarPack; model: SidecarModel } {
  const pack = openSidecar(bytes, expect, opts);
  const known = new Set(KNOWN_ORDER);
  const sectionFlags: Record<string, number> = {};
  const unknown: SidecarRawSection[] = [];
  for (const s of pack.sections) {
    if (known.has(s.tag)) {
      if (s.flags) sectionFlags[s.tag] = s.flags;
    } else unknown.push({ tag: s.tag, flags: s.flags, bytes: sectionBytes(bytes, s).slice() });
  }
  const model: SidecarModel = {
    flags: pack.header.flags,
    buildHash: pack.header.buildHash,
    fileFnv: pack.header.fileFnv,
    rules: pack.header.rules,
    reserved: pack.header.reserved,
    fcon: pack.fcon.slice(),
    zones: pack.zones.map((_, i) => readZoneFields(pack, i)),
    links: pack.links,
    opens: pack.opens,
    unknown,
    sectionFlags,
  };
  return { pack, model };
}

function encodeZoneFspn(z: ZoneFields): Uint8Array {
  const payloads = z.tiles.map(encodeFieldsTile);
  const w = new ByteWriter(16 * payloads.length + payloads.reduce((a, p) => a + p.length, 0));
  let off = 16 * payloads.length;
  payloads.forEach((p, t) => {
    w.u32(z.tiles[t].n).u64(off).u32(p.length);
    off += p.length;
  });
  for (const p of payloads) w.bytes(p);
  return w.finish();
}

function concat(parts: Uint8Array[]): [Uint8Array, number[]] {
  const offs: number[] = [];
  const w = new ByteWriter(parts.reduce((a, p) => a + p.length, 16));
  for (const p of parts) {
    offs.push(w.length);
    w.bytes(p);
  }
  return [w.finish(), offs];
}

/**
 * Encodes a sidecar model into the canonical BNVF v2 layout (deterministic). `fspnZones`, when
 * given, are the zones' FSPN blocks already encoded (the baker keeps tiles encoded); otherwise
 * they are encoded from `m.zones[i].tiles`.
 */
export function encodeSidecar(m: SidecarModel, fspnZones?: readonly Uint8Array[]): Uint8Array {
  if (m.fcon.length !== FCON_SIZE) {
    throw new NavscopeError(
      "bad_value",
      `FCON is ${m.fcon.length} bytes`,
      { section: "FCON" },
      `${FCON_SIZE}`,
    );
  }
  const extra = (m.flags & BNVF_FLAG_SCC_EXTRA) !== 0;
  const fspnParts = fspnZones ? [...fspnZones] : m.zones.map(encodeZoneFspn);
  const fsccParts = m.zones.map((z) => encodeComponentGraphs(z.graphs, extra));
  const fwalParts = m.zones.map((z) => encodeWallTable(z.walls));
  const [fspn, fspnOff] = concat(fspnParts);
  const [fscc, fsccOff] = concat(fsccParts);
  const [fwal, fwalOff] = concat(fwalParts);
  const fzon = new ByteWriter(64);
  fzon.u32(m.zones.length);
  const enc = new TextEncoder();
  m.zones.forEach((z, i) => {
    const fault = nameFault(z.name);
    if (fault) {
      throw new NavscopeError(
        "bad_value",
        `zone ${i} name "${escapeControls(z.name)}" is not a zone name: ${fault}`,
        { section: "FZON", zone: escapeControls(z.name) },
        PLAUSIBLE_NAME,
      );
    }
    const name = enc.encode(z.name);
    fzon.u32(name.length).bytes(name).align(4);
    fzon.u32(z.regions).u32(z.tiles.length);
    fzon.u64(fspnOff[i]).u64(fspnParts[i].length);
    fzon.u64(fsccOff[i]).u64(fsccParts[i].length);
    fzon.u64(fwalOff[i]).u64(fwalParts[i].length);
  });
  const sections: SidecarRawSection[] = [
    { tag: "FCON", flags: 0, bytes: m.fcon },
    { tag: "FZON", flags: 0, bytes: fzon.finish() },
    { tag: "FSPN", flags: 0, bytes: fspn },
    { tag: "FSCC", flags: 0, bytes: fscc },
    { tag: "FWAL", flags: 0, bytes: fwal },
  ];
  if (m.links) sections.push({ tag: "FLNK", flags: 0, bytes: encodeLinkTable(m.links) });
  if (m.opens) sections.push({ tag: "FOPN", flags: 0, bytes: encodeOpenTable(m.opens) });
  for (const s of sections) s.flags = m.sectionFlags?.[s.tag] ?? 0;
  for (const u of m.unknown ?? []) sections.push(u);
  const w = new ByteWriter(
    BNVF_HEADER_SIZE + sections.reduce((a, s) => a + s.bytes.length + 32, 0),
  );
  w.tag(BNVF_MAGIC).u16(BNVF_VERSION).u16(m.flags).u64big(m.buildHash).u64big(m.fileFnv);
  w.u32(m.rules).u32(sections.length).u64(BNVF_HEADER_SIZE).u64big(m.reserved ?? 0n);
  const dirAt = w.length;
  w.zeros(sections.length * BNVF_DIR_ENTRY_SIZE);
  sections.forEach((s, i) => {
    w.align(SECTION_ALIGN);
    const off = w.length;
    w.bytes(s.bytes);
    const e = dirAt + i * BNVF_DIR_ENTRY_SIZE;
    for (let k = 0; k < 4; k++) w.view()[e + k] = s.tag.charCodeAt(k);
    w.patchU32(e + 4, s.flags).patchU64(e + 8, off).patchU64(e + 16, s.bytes.length);
  });
  return w.finish();
}

/** Facts of a sidecar for `inspect`. */
export interface SidecarSummary {
  /** File label. */
  file: string;
  /** Decompressed size. */
  size: number;
  /** Format version. */
  version: number;
  /** Header flags. */
  flags: number;
  /** Rules version. */
  rules: number;
  /** build_hash, 16 hex digits. */
  buildHash: string;
  /** Main-pack FNV, 16 hex digits. */
  fileFnv: string;
  /** Sections with sizes. */
  sections: { tag: string; offset: number; size: number }[];
  /** Per zone: regions, tiles, records, block sizes, FSCC regions and FWAL walls. */
  zones: {
    name: string;
    regions: number;
    tiles: number;
    records: number;
    fspnBytes: number;
    fsccBytes: number;
    fwalBytes: number;
    graphRegions: number | null;
    walls: number | null;
  }[];
  /** FLNK record count, or null when absent. */
  links: number | null;
  /** FOPN record count, or null when absent. */
  opens: number | null;
  /** Pairing facts: whether steps 2 and 6 were checked against a main pack (and passed). */
  pairing: { checked: boolean; buildHashMatches: boolean | null; fileFnvMatches: boolean | null };
}

function leadingVarint(bytes: Uint8Array, off: number, len: number): number | null {
  try {
    return new ByteReader(bytes.subarray(off, off + len)).varint();
  } catch {
    return null;
  }
}

/**
 * Summarises an opened sidecar (cheap: reads only the leading count of FSCC/FWAL blocks). With
 * `expect`, the pairing facts compare the header with those main-pack facts without throwing.
 */
export function summarizeSidecar(
  pack: SidecarPack,
  expect?: Pick<SidecarExpectations, "buildHash" | "fileFnv">,
): SidecarSummary {
  const h = pack.header;
  const cmp = (a: bigint, b: bigint | undefined) =>
    b === undefined ? (pack.paired ? true : null) : a === BigInt.asUintN(64, b);
  return {
    file: pack.file,
    size: pack.bytes.length,
    version: h.version,
    flags: h.flags,
    rules: h.rules,
    buildHash: hex(h.buildHash),
    fileFnv: hex(h.fileFnv),
    sections: pack.sections.map((s) => ({ tag: s.tag, offset: s.offset, size: s.length })),
    zones: pack.zones.map((z) => ({
      name: z.name,
      regions: z.regions,
      tiles: z.tiles,
      records: zoneRecords(z),
      fspnBytes: z.fspnLength,
      fsccBytes: z.fsccLength,
      fwalBytes: z.fwalLength,
      graphRegions: leadingVarint(pack.bytes, z.fsccOffset, z.fsccLength),
      walls: leadingVarint(pack.bytes, z.fwalOffset, z.fwalLength),
    })),
    links: pack.links ? pack.links.count : null,
    opens: pack.opens ? pack.opens.count : null,
    pairing: {
      checked: pack.paired || expect !== undefined,
      buildHashMatches: cmp(h.buildHash, expect?.buildHash),
      fileFnvMatches: cmp(h.fileFnv, expect?.fileFnv),
    },
  };
}

/** Human-readable lines of a {@link SidecarSummary}. */
export function formatSidecarSummary(s: SidecarSummary): string[] {
  const out = [
    `${s.file}: BNVF v${s.version}, ${s.size} bytes, flags 0x${
      s.flags.toString(16)
    }, rules ${s.rules}`,
    `  pairs with build_hash ${s.buildHash}, main-pack FNV ${s.fileFnv} (${
      s.pairing.checked ? "checked against the main pack" : "not checked: no main pack given"
    })`,
    `  sections: ${s.sections.map((x) => `${x.tag} ${x.size} B @${x.offset}`).join(", ")}`,
  ];
  for (const z of s.zones) {
    out.push(
      `  zone ${z.name}: ${z.regions} regions, ${z.tiles} tiles, ${z.records} records; FSPN ${z.fspnBytes} B, FSCC ${z.fsccBytes} B (${
        z.graphRegions ?? "?"
      } graphs), FWAL ${z.fwalBytes} B (${z.walls ?? "?"} walls)`,
    );
  }
  out.push(`  FLNK: ${s.links ?? "absent"}, FOPN: ${s.opens ?? "absent"}`);
  return out;
}

/** Where-facts helper for callers that add the file name to sidecar errors. */
export function sidecarLocation(pack: SidecarPack, more: ErrorLocation = {}): ErrorLocation {
  return { file: pack.file, ...more };
}
