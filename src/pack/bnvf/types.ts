/**
 * In-memory shapes of the BNVF v2 fields sidecar (spec 旁包; format-notes "BNVF fields sidecar").
 * Everything hot is columnar: one typed array per field, no per-record objects.
 * @module
 */

/** Magic of the sidecar header. */
export const BNVF_MAGIC = "BNVF";
/** The only sidecar format version this code reads and writes. */
export const BNVF_VERSION = 2;
/** Header size in bytes. */
export const BNVF_HEADER_SIZE = 48;
/** Directory entry size in bytes. */
export const BNVF_DIR_ENTRY_SIZE = 24;
/** Header flag bit 0: every FSCC region carries four extra varints. */
export const BNVF_FLAG_SCC_EXTRA = 0x1;
/** Sections every sidecar must have (旁包校验 step 4). */
export const BNVF_REQUIRED_SECTIONS = ["FCON", "FZON", "FSPN", "FSCC", "FWAL"] as const;
/** Optional sections. */
export const BNVF_OPTIONAL_SECTIONS = ["FLNK", "FOPN"] as const;

/**
 * Facts of the main pack that the sidecar must agree with (旁包校验 steps 2 and 6). Built by
 * whoever decodes BNAV/BGRD; this module does not import those decoders.
 */
export interface SidecarExpectations {
  /** BNAV header build_hash. */
  buildHash: bigint;
  /** FNV-1a 64 of the main pack's whole decompressed bytes. */
  fileFnv: bigint;
  /** BGRD zones, in any order. */
  zones: ReadonlyArray<{
    /** Zone name as in BGRD. */
    name: string;
    /** BGRD `global_regions` of the zone. */
    regions: number;
    /** Record count of each BGRD tile, in BGRD tile order. */
    tileRecords: ArrayLike<number>;
    /** The zone's id in the main pack's zone table (FLNK/FOPN name zones by id), if known. */
    id?: number;
    /** Bounding box of the tiles' owned cells, global, inclusive: [x0, y0, x1, y1], if known. */
    cells?: readonly [number, number, number, number];
  }>;
  /**
   * The main pack's BOML off-mesh links (null: no BOML section): FLNK must then have one record
   * per link with that link's fields. Undefined skips the FLNK-against-BOML checks.
   */
  offMeshLinks?: ReadonlyArray<SidecarBomlFacts> | null;
  /** The main pack's file, named in a pairing error (the file that changed is often that one). */
  mainFile?: string;
}

/** The fields of a BOML off-mesh link that its FLNK record repeats. */
export interface SidecarBomlFacts {
  /** Zone id. */
  zone: number;
  /** Kind. */
  kind: number;
  /** Extension flag. */
  isExt: number;
  /** Bidirectional flag. */
  bidirectional: number;
  /** Area. */
  area: number;
  /** Link type. */
  linkType: number;
  /** Direction. */
  direction: number;
  /** Radius (f32). */
  radius: number;
  /** Cost modifier (f32). */
  costModifier: number;
}

/** The 48-byte header. */
export interface SidecarHeader {
  /** Format version (2). */
  version: number;
  /** Header flags; bit 0 = {@link BNVF_FLAG_SCC_EXTRA}. */
  flags: number;
  /** build_hash of the paired main pack. */
  buildHash: bigint;
  /** FNV-1a 64 of the paired main pack's decompressed bytes. */
  fileFnv: bigint;
  /** Rules version (2). */
  rules: number;
  /** Section count. */
  sectionCount: number;
  /** Directory offset from the file start. */
  dirOffset: number;
  /** The 8 unused trailing bytes, kept so re-encoding is byte-exact. */
  reserved: bigint;
}

/** One directory entry. Offsets are absolute within the decompressed sidecar. */
export interface SidecarSection {
  /** Four-character tag. */
  tag: string;
  /** The 4 unused bytes after the tag (kept for byte-exact re-encoding). */
  flags: number;
  /** Offset from the file start. */
  offset: number;
  /** Length in bytes. */
  length: number;
}

/** A zone's FZON entry plus its FSPN tile table. Offsets are absolute in the file. */
export interface SidecarZone {
  /** Zone name. */
  name: string;
  /** Region count (must equal BGRD `global_regions`). */
  regions: number;
  /** Tile count (must equal BGRD's). */
  tiles: number;
  /** Absolute offset and length of the zone's FSPN block. */
  fspnOffset: number;
  /** Length of the zone's FSPN block. */
  fspnLength: number;
  /** Absolute offset of the zone's FSCC block. */
  fsccOffset: number;
  /** Length of the zone's FSCC block. */
  fsccLength: number;
  /** Absolute offset of the zone's FWAL block. */
  fwalOffset: number;
  /** Length of the zone's FWAL block. */
  fwalLength: number;
  /** Per tile: record count (= BGRD tile records). */
  tileRecords: Uint32Array;
  /** Per tile: absolute payload offset in the file. */
  tileOffset: Float64Array;
  /** Per tile: payload length. */
  tileLength: Uint32Array;
}

/**
 * The six columns of one FSPN tile, aligned record for record with the BGRD tile's decode order
 * (spec 旁包, FSPN table).
 */
export interface FieldsTile {
  /** Record count. */
  n: number;
  /** Component id inside the region, from 1; 0 for Fill records. */
  scc: Int32Array;
  /** XOR mask applied to the main pack's step bits. */
  steps2x: Uint8Array;
  /** Facade segment bits (orthogonal directions). */
  seg: Uint8Array;
  /** Step-tax edge bits: direction i forward bit 2i, reverse bit 2i+1. */
  tax: Uint8Array;
  /** Main clearance minus sealed clearance (squared cells). */
  clr2d: Uint16Array;
  /** Bit 0 = medial axis. */
  medial: Uint8Array;
}

/**
 * Component DAGs of one zone in CSR form (spec 旁包 › FSCC). Component ids are 1-based (the FSPN
 * `scc` column numbers components from 1; 0 is a Fill record). For region `r`, component
 * `s ∈ [1, nScc[r]]` has out-edges `dst[rowPtr[rowBase[r] + s - 1] .. rowPtr[rowBase[r] + s])`.
 */
export interface ComponentGraphs {
  /** Number of regions stored. */
  count: number;
  /** Region ids, strictly ascending. */
  rid: Uint32Array;
  /** Components per region. */
  nScc: Uint32Array;
  /** Edges per region. */
  nEdges: Uint32Array;
  /** Four extra varints per region (header flag bit 0), or null. */
  extra: Float64Array | null;
  /** Start of each region's `nScc + 1` row pointers in {@link rowPtr}. */
  rowBase: Uint32Array;
  /** Row pointers into {@link dst}. */
  rowPtr: Uint32Array;
  /** Edge destinations (1-based component ids), sorted within each row. */
  dst: Uint32Array;
}

/**
 * The boundary-edge keep table of one zone (spec 旁包 › FWAL): for each boundary edge key
 * `3·triangle + k` (ascending) the ascending list of region ids that keep the edge.
 */
export interface WallTable {
  /** Number of boundary edges. */
  count: number;
  /** Keys, strictly ascending. */
  keys: Uint32Array;
  /** `rids[ridStart[i] .. ridStart[i+1])` are the regions keeping edge i. */
  ridStart: Uint32Array;
  /** Region ids, strictly ascending per edge. */
  rids: Uint32Array;
}

/** The zone index shared by FLNK and FOPN: one contiguous record range per zone. */
export interface SidecarZoneIndex {
  /** Zone numbers, strictly ascending. */
  zone: Uint16Array;
  /** The 2 unused bytes after each zone number. */
  pad: Uint16Array;
  /** First record of the zone. */
  first: Uint32Array;
  /** Record count of the zone. */
  length: Uint32Array;
}

/** Header fields common to FLNK and FOPN. */
export interface SidecarTableHeader {
  /** Version (1). */
  version: number;
  /** u16 at +6 (unused). */
  unused6: number;
  /** u32 at +12 (unused). */
  unused12: number;
}

/**
 * FLNK: off-mesh links matched to landing cells, 80-byte records. Side columns hold two entries
 * per record: side `s` of record `i` is index `2i + s`.
 */
export interface SidecarLinkTable extends SidecarTableHeader {
  /** Record count. */
  count: number;
  /** Zone index. */
  index: SidecarZoneIndex;
  /** BOML record index. */
  bomlIndex: Uint32Array;
  /** Zone number. */
  zone: Uint16Array;
  /** Link kind. */
  kind: Uint8Array;
  /** Usable ends (3 = both). */
  valid: Uint8Array;
  /** Extension flag. */
  isExt: Int32Array;
  /** Bidirectional flag. */
  bidirectional: Int32Array;
  /** Area code. */
  area: Int32Array;
  /** Link type. */
  linkType: Uint16Array;
  /** Direction. */
  direction: Uint8Array;
  /** Byte at +23 (unused). */
  pad: Uint8Array;
  /** Radius (f32 bits in {@link radiusBits}). */
  radius: Float32Array;
  /** Raw bits of radius. */
  radiusBits: Uint32Array;
  /** Cost modifier (f32). */
  costModifier: Float32Array;
  /** Raw bits of costModifier. */
  costModifierBits: Uint32Array;
  /** Side cell x (global). */
  gx: Int32Array;
  /** Side cell y (global). */
  gy: Int32Array;
  /** Landing height (f32). */
  h: Float32Array;
  /** Raw bits of h. */
  hBits: Uint32Array;
  /** Declared landing height from the data (f32). */
  declH: Float32Array;
  /** Raw bits of declH. */
  declHBits: Uint32Array;
  /** Region id of the landing span. */
  rid: Uint32Array;
  /** Clearance of the landing span. */
  clr: Uint16Array;
  /** Flags of the landing span. */
  flags: Uint8Array;
  /** Reason code 0..4: usable, out of bounds, no surface, none in band, only non-core in band. */
  why: Uint8Array;
}

/** FOPN: openable dead cells, 16-byte records sorted per zone by (gy, gx, bits of h). */
export interface SidecarOpenTable extends SidecarTableHeader {
  /** Record count. */
  count: number;
  /** Zone index. */
  index: SidecarZoneIndex;
  /** Global cell x. */
  gx: Int32Array;
  /** Global cell y. */
  gy: Int32Array;
  /** Height (f32). */
  h: Float32Array;
  /** Raw bits of h (the sort and match key). */
  hBits: Uint32Array;
  /** Clearance to apply (max). */
  clr: Uint16Array;
  /** Flags to OR in. */
  flags: Uint8Array;
  /** Source code. */
  src: Uint8Array;
}

/** A whole zone's decoded sidecar data. */
export interface ZoneFields {
  /** Zone name. */
  name: string;
  /** Region count. */
  regions: number;
  /** FSPN tiles, in BGRD tile order. */
  tiles: FieldsTile[];
  /** FSCC component DAGs. */
  graphs: ComponentGraphs;
  /** FWAL keep table. */
  walls: WallTable;
}

/** A section the decoder does not know, kept verbatim. */
export interface SidecarRawSection {
  /** Tag. */
  tag: string;
  /** Directory flags. */
  flags: number;
  /** Section bytes. */
  bytes: Uint8Array;
}

/** A fully decoded sidecar: what {@link encodeSidecar} takes and `decodeSidecar` returns. */
export interface SidecarModel {
  /** Header flags. */
  flags: number;
  /** build_hash of the main pack. */
  buildHash: bigint;
  /** FNV of the main pack's decompressed bytes. */
  fileFnv: bigint;
  /** Rules version. */
  rules: number;
  /** Header reserved bytes (0 for new files). */
  reserved?: bigint;
  /** The 144 FCON bytes. */
  fcon: Uint8Array;
  /** Zones, in FZON order. */
  zones: ZoneFields[];
  /** FLNK, if present. */
  links: SidecarLinkTable | null;
  /** FOPN, if present. */
  opens: SidecarOpenTable | null;
  /** Unknown sections, kept verbatim. */
  unknown?: SidecarRawSection[];
  /** Directory flags of known sections (absent = 0), kept for byte-exact re-encoding. */
  sectionFlags?: Record<string, number>;
}
