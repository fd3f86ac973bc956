/**
 * BNAV main pack encoder and whole-pack decoder (spec 数据包 › 主包头与段目录, 几何段, 面属性与离网连接, 读取路径):
 * `encodeMainPack` writes v5 byte-exactly and deterministically; `decodeMainPack` loads a whole
 * pack of version 1–5 with a streaming `build_hash` check; `loadZone` (in bnav_zone.ts) decodes
 * only the chunks one zone needs.
 *
 * v5 file layout written here: 80-byte header, section directory (right after the header), then
 * the sections BGEO, BOML, BSRF, BGRD and any extra sections, each starting on an 8-byte
 * boundary (zero padding). The four void table offsets in the header are written as 0. Extra
 * sections are for tests that need a directory entry to damage (bake never writes one): the
 * decoder refuses any tag but the four known ones (spec: 已知四个段).
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { readMaybeGzip } from "../../codec/file.ts";
import { Fnv1a64 } from "../../codec/fnv.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkPackLayout, unknownSectionError } from "./layout.ts";
import {
  assembleBgeo,
  type BgeoLayout,
  checkFiniteVertices,
  chunkCount,
  chunkRange,
  type ChunkSizes,
  decodeLinkChunk,
  decodeTriangleChunk,
  decodeVertexChunk,
  DEFAULT_CHUNK_SIZE,
  encodeLinkChunk,
  encodeTriangleChunk,
  encodeVertexChunk,
  readBgeoLayout,
} from "./bgeo.ts";
import { checkGridZones } from "./grid_zones.ts";
import {
  buildHashV5,
  linkRecords,
  RecordScratch,
  requireLittleEndian,
  triangleRecords,
} from "./canonical.ts";
import {
  type MainPackHeader,
  readHeader,
  readSections,
  type SectionInfo,
  writeHeaderAndDirectory,
} from "./header.ts";
import { decodeFlatGeometry } from "./legacy.ts";
import {
  allocTriangles,
  BGEO_SINCE,
  BGRD_REQUIRED_SINCE,
  fillCentroids,
  HEADER_SIZE,
  KNOWN_SECTIONS,
  type LinkColumns,
  type MainPack,
  NO_TRIANGLE,
  SECTION_ENTRY_SIZE,
  type TriangleColumns,
  type ZoneRecord,
} from "./types.ts";
import { checkZoneRanges, decodeZoneRecords, encodeZoneTable } from "./zones.ts";
import {
  BOML_DIR_BITS_SINCE,
  checkLinkZoneBounds,
  decodeBoml,
  encodeBoml,
  readBomlHeader,
} from "./boml.ts";
import { decodeBsrf, encodeBsrf } from "./bsrf.ts";

/** Options for {@link encodeMainPack}. */
export interface EncodeOptions {
  /** Records per chunk (defaults: {@link DEFAULT_CHUNK_SIZE} for each table). */
  chunkSizes?: Partial<ChunkSizes>;
  /** Label for error messages. */
  file?: string;
}

/** Options for {@link decodeMainPack} and `loadZone`. */
export interface DecodeOptions {
  /** File path or label for error messages (default `<memory>`). */
  file?: string;
  /** Also compute the FNV-1a 64 of the whole (decompressed) file for sidecar pairing. */
  fileFnv?: boolean;
}

/** A decoded pack plus the facts about its bytes. */
export interface MainPackLoad {
  /** The pack. */
  pack: MainPack;
  /** The header as stored. */
  header: MainPackHeader;
  /** The section directory as stored (empty before v4). */
  sections: SectionInfo[];
  /** Where the BGRD section sits in the file, or null. */
  gridSection: { offset: number; size: number } | null;
  /** FNV-1a 64 of the whole (decompressed) file, when asked for: the BNVF sidecar's `fileFnv`. */
  fileFnv?: bigint;
  /**
   * Where the off-mesh links' end triangles stand: `"stored"` (BOML v2, or no BOML), or
   * `"v1-unresolved"` (BOML v1 stores none: they are {@link NO_TRIANGLE} until the mesh layer's
   * `resolveLinkEnds` snaps them as the baker does, which marks the load `"v1-snapped"`).
   */
  offMeshLinkEnds: OffMeshLinkEnds;
}

/** See {@link MainPackLoad.offMeshLinkEnds}. */
export type OffMeshLinkEnds = "stored" | "v1-unresolved" | "v1-snapped";

// ---------------------------------------------------------------------------------------------
// Encoding

/** Encodes a pack as a v5 main pack. Same pack, same options → byte-identical output. */
export function encodeMainPack(pack: MainPack, opts: EncodeOptions = {}): Uint8Array {
  requireLittleEndian();
  const where: ErrorLocation = { file: opts.file ?? "<memory>" };
  validatePack(pack, where);
  const sizes: ChunkSizes = {
    vertex: opts.chunkSizes?.vertex ?? DEFAULT_CHUNK_SIZE,
    triangle: opts.chunkSizes?.triangle ?? DEFAULT_CHUNK_SIZE,
    link: opts.chunkSizes?.link ?? DEFAULT_CHUNK_SIZE,
  };
  for (const [k, v] of Object.entries(sizes)) {
    if (!Number.isInteger(v) || v < 1 || v > 0xffffffff) {
      throw new NavscopeError("usage", `chunk size for ${k} is ${v}`, where, "an integer ≥ 1");
    }
  }
  const zoneTable = encodeZoneTable(pack.zones, { ...where, section: "zone table" });
  const bgeo = encodeBgeoSection(pack, sizes, zoneTable);
  const hash = buildHashV5(zoneTable, pack.vertices, pack.triangles, pack.links);

  const bodies: { tag: string; flags: number; bytes: Uint8Array }[] = [
    { tag: "BGEO", flags: 0, bytes: bgeo },
  ];
  if (pack.offMeshLinks) {
    bodies.push({ tag: "BOML", flags: 0, bytes: encodeBoml(pack.offMeshLinks, where) });
  }
  if (pack.surfaces) bodies.push({ tag: "BSRF", flags: 0, bytes: encodeBsrf(pack.surfaces) });
  if (pack.grid) bodies.push({ tag: "BGRD", flags: 0, bytes: pack.grid });
  for (const s of pack.extraSections) bodies.push(s);

  let off = HEADER_SIZE + SECTION_ENTRY_SIZE * bodies.length;
  const sections: SectionInfo[] = bodies.map((b) => {
    off += (8 - (off % 8)) % 8;
    const s = { tag: b.tag, flags: b.flags, offset: off, size: b.bytes.length };
    off += b.bytes.length;
    return s;
  });
  const w = new ByteWriter(off);
  writeHeaderAndDirectory(w, {
    flags: pack.flags,
    zones: pack.zones.length,
    vertices: pack.vertices.length / 3,
    triangles: pack.triangles.component.length,
    links: pack.links.source.length,
    buildHash: hash,
    sections,
  });
  bodies.forEach((b) => w.align(8).bytes(b.bytes));
  return w.finish();
}

function encodeBgeoSection(pack: MainPack, sizes: ChunkSizes, zoneTable: Uint8Array): Uint8Array {
  const counts = {
    vertex: pack.vertices.length / 3,
    triangle: pack.triangles.component.length,
    link: pack.links.source.length,
  };
  const chunks = {
    vertex: [] as Uint8Array[],
    triangle: [] as Uint8Array[],
    link: [] as Uint8Array[],
  };
  const aux: number[] = [];
  for (let k = 0; k < chunkCount(counts.vertex, sizes.vertex); k++) {
    const [s, e] = chunkRange(k, counts.vertex, sizes.vertex);
    chunks.vertex.push(encodeVertexChunk(pack.vertices, s, e));
  }
  for (let k = 0; k < chunkCount(counts.triangle, sizes.triangle); k++) {
    const [s, e] = chunkRange(k, counts.triangle, sizes.triangle);
    chunks.triangle.push(encodeTriangleChunk(pack.triangles, s, e));
  }
  for (let k = 0; k < chunkCount(counts.link, sizes.link); k++) {
    const [s, e] = chunkRange(k, counts.link, sizes.link);
    chunks.link.push(encodeLinkChunk(pack.links, s, e));
    aux.push(pack.links.source[s]);
  }
  return assembleBgeo(counts, sizes, zoneTable, chunks, aux);
}

/**
 * Checks a pack is encodable as v5: consistent lengths, indices in range, links sorted, a grid
 * present (every v5 pack carries BGRD).
 */
export function validatePack(pack: MainPack, where: ErrorLocation = {}): void {
  const fail = (code: "bad_value" | "count_mismatch", section: string, what: string, exp: string) =>
    new NavscopeError(code, what, { ...where, section }, exp);
  if (!Number.isInteger(pack.flags) || pack.flags < 0 || pack.flags > 0xffff) {
    throw fail("bad_value", "BNAV header", `flags ${pack.flags}`, "a u16");
  }
  const V = pack.vertices.length / 3;
  const t = pack.triangles;
  const T = t.component.length;
  const L = pack.links.source.length;
  if (!Number.isInteger(V)) {
    throw fail("count_mismatch", "vertices", `${pack.vertices.length} floats`, "a multiple of 3");
  }
  if (t.vertices.length !== 3 * T || t.neighbours.length !== 3 * T || t.centroid.length !== 2 * T) {
    throw fail(
      "count_mismatch",
      "triangles",
      "triangle columns have different lengths",
      `${T} triangles`,
    );
  }
  if (pack.links.target.length !== L) {
    throw fail("count_mismatch", "links", "source and target columns differ in length", `${L}`);
  }
  if (L === 0) throw fail("bad_value", "links", "the pack has no links", "at least one link");
  for (let i = 0; i < 3 * T; i++) {
    if (t.vertices[i] >= V) {
      throw fail(
        "bad_value",
        "triangles",
        `triangle ${(i / 3) | 0} uses vertex ${t.vertices[i]}`,
        `< ${V}`,
      );
    }
    const nb = t.neighbours[i];
    if (nb < -1 || nb >= T) {
      throw fail(
        "bad_value",
        "triangles",
        `triangle ${(i / 3) | 0} has neighbour ${nb}`,
        `[-1, ${T})`,
      );
    }
  }
  let prev = 0;
  for (let i = 0; i < L; i++) {
    const s = pack.links.source[i];
    if (s < prev || s >= T || pack.links.target[i] >= T) {
      throw fail(
        "bad_value",
        "links",
        `link ${i} runs ${s} → ${pack.links.target[i]} after source ${prev}`,
        `sources non-decreasing, triangles < ${T}`,
      );
    }
    prev = s;
  }
  checkZoneRanges(pack.zones, T, { ...where, section: "zone table" });
  if (pack.surfaces) {
    const s = pack.surfaces;
    if (s.flags.length !== T || s.area.length !== T || s.polyType.length !== T) {
      throw fail(
        "count_mismatch",
        "BSRF",
        `${s.flags.length} surface records`,
        `${T} (one per triangle)`,
      );
    }
  }
  for (const [i, l] of (pack.offMeshLinks ?? []).entries()) {
    for (const x of [l.startTriangle, l.endTriangle]) {
      if (x !== NO_TRIANGLE && x >= T) {
        throw fail(
          "bad_value",
          "BOML",
          `off-mesh link ${i} ends on triangle ${x}`,
          `< ${T} or 0xFFFFFFFF`,
        );
      }
    }
  }
  checkFiniteVertices(pack.vertices, 0, V, 0, { ...where, section: "vertices" });
  // The encoder writes v5 only, and every v5 pack carries BGRD (see readFront): refuse what the
  // decoder would refuse rather than write it.
  if (!pack.grid) {
    throw fail(
      "bad_value",
      "BGRD",
      "the pack has no grid",
      `a BGRD section (required since v${BGRD_REQUIRED_SINCE}, the version written)`,
    );
  }
  checkPackRefs(pack, where);
  for (const s of pack.extraSections) {
    if (!/^[\x20-\x7e]{4}$/.test(s.tag) || (KNOWN_SECTIONS as readonly string[]).includes(s.tag)) {
      throw fail(
        "bad_value",
        "section directory",
        `extra section tag ${JSON.stringify(s.tag)}`,
        "4 ASCII characters, not a known tag",
      );
    }
  }
}

/**
 * Cross-references no checksum covers on their own (issue 27): every BOML link names a zone of
 * the zone table, and the BGRD grid's zones are the zone table's (src/pack/bnav/grid_zones.ts).
 * Run by the encoder ({@link validatePack}) and after a whole decode.
 */
export function checkPackRefs(pack: MainPack, where: ErrorLocation): void {
  const ids = new Set(pack.zones.map((z) => z.id));
  const byId = new Map(pack.zones.map((z) => [z.id, z]));
  (pack.offMeshLinks ?? []).forEach((l, i) => {
    const z = byId.get(l.zone);
    if (z) checkLinkZoneBounds(l, i, z, { ...where, section: "BOML", zone: z.name });
    if (!ids.has(l.zone)) {
      throw new NavscopeError(
        "bad_value",
        `off-mesh link ${i} is in zone ${l.zone}, which the zone table does not have`,
        { ...where, section: "BOML" },
        `one of the zone ids ${[...ids].join(", ")}`,
      );
    }
  });
  if (pack.grid) checkGridZones(pack.grid, pack.zones, where, true);
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** The parsed front matter shared by whole and per-zone loads. */
export interface PackFront {
  /** Header. */
  header: MainPackHeader;
  /** Directory. */
  sections: SectionInfo[];
  /** Sections by tag (only the four known ones: any other tag is refused). */
  known: Map<string, SectionInfo>;
  /** BGEO layout (v5), else null. */
  bgeo: BgeoLayout | null;
  /** Zones. */
  zones: ZoneRecord[];
  /** Zone table bytes (hash input). */
  zoneTable: Uint8Array;
}

/** Reads header, directory, BGEO layout and the v5 zone table. */
export function readFront(bytes: Uint8Array, where: ErrorLocation): PackFront {
  const header = readHeader(bytes, where);
  const sections = readSections(bytes, header, where);
  // An unknown tag is damage (spec 主包头与段目录: 已知四个段), refused before anything reads
  // the directory further: a renamed BGEO then says so instead of "no BGEO section".
  const unknown = unknownSectionError(header, sections, where);
  if (unknown) throw unknown;
  const known = new Map<string, SectionInfo>();
  for (const s of sections) {
    if (known.has(s.tag)) {
      throw new NavscopeError("bad_value", `section ${s.tag} appears twice in the directory`, {
        ...where,
        section: s.tag,
        offset: s.offset,
      }, "each known section at most once");
    }
    known.set(s.tag, s);
  }
  const g = known.get("BGEO");
  if (header.version >= BGEO_SINCE && !g) {
    throw new NavscopeError(
      "bad_value",
      `v${header.version} pack has no BGEO section`,
      { ...where, section: "section directory", offset: header.sectionDirOffset },
      `a BGEO section (present since v${BGEO_SINCE})`,
    );
  }
  if (header.version < BGEO_SINCE && g) {
    throw new NavscopeError(
      "bad_value",
      `v${header.version} pack has a BGEO section`,
      { ...where, section: "BGEO", offset: g.offset },
      `no BGEO before v${BGEO_SINCE} (geometry sits in flat tables)`,
    );
  }
  // Every byte belongs to the header, the directory, a table or a section (bnav_layout.ts).
  checkPackLayout(bytes, header, sections, where);
  // Every v5 pack carries the baked grid (spec 体积、内存与速度, data placement table: 「体素格图
  // 第 4 代起离线烘进主包 … 主包多出 BGRD 段;同一次改动重新编码了几何与格图」): the change that
  // baked BGRD in is the one that re-encoded the geometry into BGEO, so a BGEO pack without BGRD
  // is damage (a dropped directory entry), not an older generation. v1–4 packs may lack it.
  // Checked right after the layout, not before it with the BGEO check above: the encoder writes
  // BGRD last, so a section count cut short loses it first, and the layout error naming the lost
  // entries says more than "no BGRD"; a directory re-laid out without BGRD is caught here.
  if (header.version >= BGRD_REQUIRED_SINCE && !known.has("BGRD")) {
    throw new NavscopeError(
      "bad_value",
      `v${header.version} pack has no BGRD section`,
      { ...where, section: "section directory", offset: header.sectionDirOffset },
      `a BGRD section (required since v${BGRD_REQUIRED_SINCE}; spec 体积、内存与速度: ` +
        "「主包多出 BGRD 段;同一次改动重新编码了几何与格图」)",
    );
  }
  if (!g) {
    return { header, sections, known, bgeo: null, zones: [], zoneTable: new Uint8Array(0) };
  }
  const bgeo = readBgeoLayout(bytes, g.offset, g.size, {
    vertex: header.vertexCount,
    triangle: header.triangleCount,
    link: header.linkCount,
  }, where);
  const zt = bgeo.zoneTable;
  const zoneTable = bytes.subarray(g.offset + zt.offset, g.offset + zt.offset + zt.size);
  const r = new ByteReader(
    zoneTable,
    { ...where, section: "BGEO zone table" },
    g.offset + zt.offset,
  );
  const zones = decodeZoneRecords(r, header.zoneCount, header.version);
  r.expectEnd(`${header.zoneCount} zone records`);
  checkZoneRanges(zones, header.triangleCount, { ...where, section: "BGEO zone table" });
  return { header, sections, known, bgeo, zones, zoneTable };
}

/**
 * Decodes a whole main pack (v1–5). For v5 the chunks are decoded in the spec's order — zone
 * table, vertices, triangles (centroids filled), links — and each chunk's canonical records are
 * fed to the FNV as soon as they are decoded; the result must equal the header's `build_hash`.
 */
export function decodeMainPack(bytes: Uint8Array, opts: DecodeOptions = {}): MainPackLoad {
  requireLittleEndian();
  const where: ErrorLocation = { file: opts.file ?? "<memory>" };
  const front = readFront(bytes, where);
  const h = front.header;
  let geo: Pick<MainPack, "zones" | "vertices" | "triangles" | "links">;
  let hash: bigint;
  if (front.bgeo) {
    ({ geo, hash } = decodeBgeoWhole(bytes, front, where));
  } else {
    const flat = decodeFlatGeometry(bytes, h, where);
    geo = flat;
    hash = flat.hash;
  }
  if (hash !== h.buildHash) {
    throw new NavscopeError(
      "hash_mismatch",
      `build_hash of the decoded tables is ${hex64(hash)} but the header says ${
        hex64(h.buildHash)
      }`,
      { ...where, section: "BNAV header", offset: 56 },
      hex64(h.buildHash),
    );
  }
  const pack: MainPack = {
    flags: h.flags,
    zones: geo.zones,
    vertices: geo.vertices,
    triangles: geo.triangles,
    links: geo.links,
    ...decodeSideSections(bytes, front, where),
  };
  checkPackRefs(pack, where);
  return finishLoad(bytes, pack, front, opts);
}

/**
 * A BOML v1 section stores no end triangles: the decoder leaves them at {@link NO_TRIANGLE} and
 * says so (`"v1-unresolved"`); the mesh layer's `resolveLinkEnds` snaps them.
 */
function linkEndsOf(bytes: Uint8Array, front: PackFront, where: ErrorLocation): OffMeshLinkEnds {
  const s = front.known.get("BOML");
  if (!s) return "stored";
  const h = readBomlHeader(bytes.subarray(s.offset, s.offset + s.size), s.offset, where);
  return h.version >= BOML_DIR_BITS_SINCE ? "stored" : "v1-unresolved";
}

/**
 * Reads a main pack file (`base.nav` or gzip `base.nav.gz`, un-gzipped whole first: section
 * offsets point into the decompressed bytes, spec 公共编码) and decodes it whole.
 */
export async function readMainPackFile(
  path: string,
  opts: Omit<DecodeOptions, "file"> = {},
): Promise<MainPackLoad> {
  return decodeMainPack(await readMaybeGzip(path, { magic: ["BNAV"] }), { ...opts, file: path });
}

/** Assembles a load result (grid location, optional file FNV). */
export function finishLoad(
  bytes: Uint8Array,
  pack: MainPack,
  front: PackFront,
  opts: DecodeOptions,
): MainPackLoad {
  const g = front.known.get("BGRD");
  const out: MainPackLoad = {
    pack,
    header: front.header,
    sections: front.sections,
    gridSection: g ? { offset: g.offset, size: g.size } : null,
    offMeshLinkEnds: linkEndsOf(bytes, front, { file: opts.file ?? "<memory>" }),
  };
  if (opts.fileFnv) out.fileFnv = new Fnv1a64().update(bytes).digest();
  return out;
}

/** BOML, BSRF and BGRD of a whole load. */
function decodeSideSections(
  bytes: Uint8Array,
  front: PackFront,
  where: ErrorLocation,
): Pick<MainPack, "surfaces" | "offMeshLinks" | "grid" | "extraSections"> {
  const T = front.header.triangleCount;
  const sec = (tag: string) => {
    const s = front.known.get(tag);
    return s ? { s, b: bytes.subarray(s.offset, s.offset + s.size) } : null;
  };
  const bsrf = sec("BSRF");
  const boml = sec("BOML");
  const bgrd = sec("BGRD");
  return {
    surfaces: bsrf ? decodeBsrf(bsrf.b, bsrf.s.offset, T, where) : null,
    offMeshLinks: boml ? decodeBoml(boml.b, boml.s.offset, T, where) : null,
    grid: bgrd ? bgrd.b.slice() : null,
    extraSections: [], // a decoded pack has none: readFront refuses unknown tags
  };
}

function decodeBgeoWhole(
  bytes: Uint8Array,
  front: PackFront,
  where: ErrorLocation,
): { geo: Pick<MainPack, "zones" | "vertices" | "triangles" | "links">; hash: bigint } {
  const L = front.bgeo!;
  const { vertex: V, triangle: T, link: N } = L.counts;
  const hash = new Fnv1a64().update(front.zoneTable);
  const { vertices, triangles, links } = allocGeometry(V, T, N, where);
  for (let k = 0; k < L.dirs.vertex.length; k++) {
    const s = k * L.chunkSizes.vertex;
    hash.update(decodeVertexChunk(bytes, L, k, vertices, s, where));
  }
  const scratch = new RecordScratch();
  for (let k = 0; k < L.dirs.triangle.length; k++) {
    const [s, e] = chunkRange(k, T, L.chunkSizes.triangle);
    decodeTriangleChunk(bytes, L, k, triangles, s, where);
    fillCentroids(vertices, triangles, s, e);
    hash.update(triangleRecords(triangles, s, e, scratch));
  }
  let last = 0;
  for (let k = 0; k < L.dirs.link.length; k++) {
    const [s, e] = chunkRange(k, N, L.chunkSizes.link);
    decodeLinkChunk(bytes, L, k, links, s, where);
    if (links.source[s] < last) {
      throw new NavscopeError(
        "bad_value",
        `link chunk ${k} starts at source ${links.source[s]} after source ${last}`,
        { ...where, section: `BGEO link chunk ${k}`, offset: L.base + L.dirs.link[k].offset },
        "link sources non-decreasing across chunks",
      );
    }
    last = links.source[e - 1];
    hash.update(linkRecords(links, s, e, scratch));
  }
  return { geo: { zones: front.zones, vertices, triangles, links }, hash: hash.digest() };
}

/**
 * Allocates the whole-pack columns. Counts already passed the plausibility checks against the
 * chunk sizes, but a huge (corrupt) count could still exceed what the engine can allocate; that
 * is reported as one NavscopeError rather than a RangeError.
 */
function allocGeometry(
  V: number,
  T: number,
  N: number,
  where: ErrorLocation,
): { vertices: Float32Array; triangles: TriangleColumns; links: LinkColumns } {
  try {
    return {
      vertices: new Float32Array(3 * V),
      triangles: allocTriangles(T),
      links: { source: new Uint32Array(N), target: new Uint32Array(N) },
    };
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new NavscopeError(
      "count_mismatch",
      `cannot allocate ${V} vertices, ${T} triangles and ${N} links (${e.message})`,
      { ...where, section: "BNAV header", offset: 12 },
      "counts that fit in memory",
    );
  }
}

/** 16 lowercase hex digits of a u64. */
export function hex64(v: bigint): string {
  return v.toString(16).padStart(16, "0");
}
