/**
 * A cheap, JSON-friendly summary of a main pack for `navscope inspect`: header fields, the
 * section directory, the BGEO chunk directories (per-chunk record ranges and byte sizes), the
 * zones with their triangle counts and tier parents, and the side sections. Reading it inflates
 * nothing; with `verify` it also runs a full decode (build_hash check).
 * @module
 */
import { type ChunkEntry, chunkRange } from "./bgeo.ts";
import { decodeMainPack, hex64, readFront } from "./codec.ts";
import { readFlatZones } from "./legacy.ts";
import { BSRF_WALKABLE_MASK, ZONE_FLAG_TIER, type ZoneAffine } from "./types.ts";
import { readBomlHeader } from "./boml.ts";
import { decodeBsrf } from "./bsrf.ts";

/** One chunk of a BGEO table. */
export interface ChunkSummary {
  /** Chunk index. */
  index: number;
  /** First record. */
  first: number;
  /** Record count. */
  records: number;
  /** Absolute file offset. */
  offset: number;
  /** Compressed size, bytes. */
  size: number;
  /** Directory aux (link chunks: first source). */
  aux: number;
}

/** One zone in the summary. */
export interface ZoneSummary {
  /** Id. */
  id: number;
  /** Name. */
  name: string;
  /** Flags. */
  flags: number;
  /** Tier zone? */
  tier: boolean;
  /** Parent zone id for a tier zone, else null. */
  parent: number | null;
  /** Component count (null for tier zones, where the field holds the parent). */
  componentCount: number | null;
  /** First triangle. */
  firstTriangle: number;
  /** Triangle count. */
  triangleCount: number;
  /** Width, px. */
  width: number;
  /** Height, px. */
  height: number;
  /** Tier affine. */
  affine: ZoneAffine;
  /** Floor height. */
  floorY: number;
  /** Ids of tier zones whose parent is this zone. */
  tierChildren: number[];
}

/** The summary. */
export interface MainPackSummary {
  /** File label. */
  file: string;
  /** File size, bytes. */
  size: number;
  /** Header fields. */
  header: {
    magic: "BNAV";
    version: number;
    headerSize: number;
    flags: number;
    zones: number;
    vertices: number;
    triangles: number;
    links: number;
    tableOffsets: { zones: number; vertices: number; triangles: number; links: number };
    buildHash: string;
    sectionDirOffset: number;
    sectionCount: number;
  };
  /** Section directory. */
  sections: { tag: string; flags: number; offset: number; size: number }[];
  /** Geometry layout: the BGEO section (v5) or flat tables (v1–4). */
  geometry:
    | {
      kind: "BGEO";
      version: number;
      zoneTable: { offset: number; size: number };
      chunkSizes: { vertex: number; triangle: number; link: number };
      /** Absolute offsets of the three chunk directories. */
      directories: { vertex: number; triangle: number; link: number };
      chunks: { vertex: ChunkSummary[]; triangle: ChunkSummary[]; link: ChunkSummary[] };
    }
    | {
      kind: "flat";
      tableOffsets: { zones: number; vertices: number; triangles: number; links: number };
    };
  /** Zones. */
  zones: ZoneSummary[];
  /** BOML header, or null. */
  offMeshLinks: { version: number; recordSize: number; count: number } | null;
  /** BSRF record count and non-walkable triangles under the default whitelist, or null. */
  surfaces: { count: number; unwalkable: number } | null;
  /** BGRD location, or null. */
  grid: { offset: number; size: number } | null;
  /** True when `verify` was asked and the full decode (with build_hash) passed. */
  verified: boolean;
}

/** Summarises main-pack bytes. Throws the decoders' NavscopeError on malformed input. */
export function describeMainPack(
  bytes: Uint8Array,
  opts: { file?: string; verify?: boolean } = {},
): MainPackSummary {
  const file = opts.file ?? "<memory>";
  const where = { file };
  const front = readFront(bytes, where);
  const h = front.header;
  const zones = front.bgeo ? front.zones : readFlatZones(bytes, h, where).zones;
  const L = front.bgeo;
  const chunks = (t: "vertex" | "triangle" | "link", n: number): ChunkSummary[] =>
    L!.dirs[t].map((e: ChunkEntry, k) => {
      const [s, end] = chunkRange(k, n, L!.chunkSizes[t]);
      return {
        index: k,
        first: s,
        records: end - s,
        offset: L!.base + e.offset,
        size: e.size,
        aux: e.aux,
      };
    });
  const sec = (tag: string) => front.known.get(tag);
  const boml = sec("BOML");
  const bsrf = sec("BSRF");
  const grid = sec("BGRD");
  let surfaces: MainPackSummary["surfaces"] = null;
  if (bsrf) {
    const s = decodeBsrf(
      bytes.subarray(bsrf.offset, bsrf.offset + bsrf.size),
      bsrf.offset,
      h.triangleCount,
      where,
    );
    let bad = 0;
    for (let i = 0; i < s.flags.length; i++) if ((s.flags[i] & BSRF_WALKABLE_MASK) === 0) bad++;
    surfaces = { count: s.flags.length, unwalkable: bad };
  }
  if (opts.verify) decodeMainPack(bytes, { file });
  return {
    file,
    size: bytes.length,
    header: {
      magic: "BNAV",
      version: h.version,
      headerSize: h.headerSize,
      flags: h.flags,
      zones: h.zoneCount,
      vertices: h.vertexCount,
      triangles: h.triangleCount,
      links: h.linkCount,
      tableOffsets: h.tableOffsets,
      buildHash: hex64(h.buildHash),
      sectionDirOffset: h.sectionDirOffset,
      sectionCount: h.sectionCount,
    },
    sections: front.sections.map((s) => ({ ...s })),
    geometry: L
      ? {
        kind: "BGEO",
        version: L.version,
        zoneTable: { offset: L.base + L.zoneTable.offset, size: L.zoneTable.size },
        chunkSizes: L.chunkSizes,
        directories: {
          vertex: L.base + L.dirOffsets.vertex,
          triangle: L.base + L.dirOffsets.triangle,
          link: L.base + L.dirOffsets.link,
        },
        chunks: {
          vertex: chunks("vertex", L.counts.vertex),
          triangle: chunks("triangle", L.counts.triangle),
          link: chunks("link", L.counts.link),
        },
      }
      : { kind: "flat", tableOffsets: h.tableOffsets },
    zones: zones.map((z) => {
      const tier = (z.flags & ZONE_FLAG_TIER) !== 0;
      return {
        id: z.id,
        name: z.name,
        flags: z.flags,
        tier,
        parent: tier ? z.componentCount : null,
        componentCount: tier ? null : z.componentCount,
        firstTriangle: z.firstTriangle,
        triangleCount: z.triangleCount,
        width: z.width,
        height: z.height,
        affine: z.affine,
        floorY: z.floorY,
        tierChildren: zones.filter((c) => (c.flags & ZONE_FLAG_TIER) && c.componentCount === z.id)
          .map((c) => c.id),
      };
    }),
    offMeshLinks: boml
      ? readBomlHeader(bytes.subarray(boml.offset, boml.offset + boml.size), boml.offset, where)
      : null,
    surfaces,
    grid: grid ? { offset: grid.offset, size: grid.size } : null,
    verified: !!opts.verify,
  };
}
