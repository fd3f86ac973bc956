/**
 * The three packs and the no-go table as one set (spec 数据包 intro and 引擎装载): the main
 * pack and its grid section are required; the fields sidecar is paired by name and must match
 * the main pack (build_hash, FNV of the whole decompressed main pack, rules, FCON, zone/tile
 * counts); the occluder pack may be missing (ledge drops are then allowed); the author no-go
 * table may be missing (no zones) but a present, unreadable table makes the engine unusable.
 *
 * `inspectPackSet` reports every part's status without stopping at the first failure, which is
 * what a planner engineer wants from `inspect`; `usable` says whether the engine would load.
 * @module
 */
import { fnv1a64, readMaybeGzip } from "../../codec/mod.ts";
import { NavscopeError } from "../../errors.ts";
import { type BgrdSection, parseBgrd } from "../bgrd/section.ts";
import { type BgrdSummary, summarizeBgrd } from "../bgrd/summary.ts";
import { describeMainPack, type MainPackSummary } from "../bnav/describe.ts";
import { decodeMainPack } from "../bnav/codec.ts";
import { checkParsedGridZones } from "../bnav/grid_zones.ts";
import type { OffMeshLink } from "../bnav/types.ts";
import {
  loadSidecarFile,
  readComponentGraphs,
  readFieldsTile,
  type SidecarPack,
  type SidecarSummary,
  summarizeSidecar,
} from "../bnvf/sidecar.ts";
import { checkGridIds, componentCounts, type SidecarIdSource } from "../bgrd/guard.ts";
import type { SidecarExpectations } from "../bnvf/types.ts";
import { loadNoGoTable, type NoGoTable } from "../nogo/table.ts";
import { fitNoGoToPack, type NoGoOutside, type PackZoneBounds } from "./binding.ts";
import type { OclsRecordSummary } from "../ocls/pack.ts";
import {
  checkOccluderPack,
  type MisplacedScene,
  type OccluderPackFacts,
} from "./occluder_binding.ts";
import { pairSidecars, sidecarStatus } from "./pairing.ts";

/**
 * Status of one optional or paired part. `mismatched` (occluder pack, no-go table): readable,
 * but it names zones the main pack does not have (pack_binding.ts).
 */
export type PartStatus = "ok" | "missing" | "invalid" | "mismatched";

/** What `inspectPackSet` found. */
export interface PackSetReport {
  /** Main pack summary (header, sections, zones, chunks). */
  main: MainPackSummary;
  /** FNV-1a 64 of the main pack's whole decompressed bytes, 16 hex digits. */
  mainFileFnv: string;
  /** Grid section summary, or null with `gridError`. */
  grid: BgrdSummary | null;
  /** Per-zone tile directory of the grid section (only for the zones asked for). */
  tiles: {
    zone: string;
    tiles: {
      index: number;
      gx0: number;
      gy0: number;
      nx: number;
      ny: number;
      owned: [number, number, number, number];
      offset: number;
      bytes: number;
      records: number;
    }[];
  }[];
  /** Why the grid section is unusable, or null. */
  gridError: string | null;
  /** Fields sidecar status. */
  sidecar: {
    path: string;
    status: PartStatus;
    error: string | null;
    summary: SidecarSummary | null;
  };
  /** Occluder pack status (missing is allowed). */
  occluder: {
    path: string;
    status: PartStatus;
    error: string | null;
    zones: OclsRecordSummary[] | null;
    /** Record zones the main pack does not have (status `mismatched`). */
    unknownZones: string[];
    /** Scenes lying wholly outside their zone (status `mismatched`). */
    misplaced: MisplacedScene[];
    /** The problem in words, or null (a warning when `invalid`, the unusable reason when `mismatched`). */
    warning: string | null;
  };
  /** Author no-go table status (missing is allowed). */
  nogo: {
    path: string;
    status: PartStatus;
    error: string | null;
    zones: { zone: string; polygons: number }[] | null;
    /** Table zones the main pack does not have (status `mismatched`). */
    unknownZones: string[];
    /** Polygons wholly outside their zone's px rectangle (status `mismatched`). */
    outside: NoGoOutside[];
    /** The mismatch in words, or null (also in `warnings`, or the unusable reason). */
    warning: string | null;
  };
  /**
   * Things that do not stop the engine but a planner engineer should see (a main pack not named
   * `.nav`, an occluder pack that does not decode, …); `inspect` prints each on stderr.
   */
  warnings: string[];
  /** Whether an engine built on this set would load (spec 引擎装载). */
  usable: boolean;
  /** The first reason the engine would be unusable, or null. */
  unusableReason: string | null;
}

/**
 * The facts the sidecar is checked against, taken from a main pack and its grid section; with
 * `main` (the zone table and BOML links) FLNK is checked against BOML too (issue 27).
 */
export function sidecarExpectations(
  buildHash: bigint,
  mainBytes: Uint8Array,
  grid: BgrdSection,
  main?: {
    zones: readonly { name: string; id: number }[];
    offMeshLinks: SidecarExpectations["offMeshLinks"];
  },
  mainFile?: string,
): SidecarExpectations {
  const ids = new Map(main?.zones.map((z) => [z.name, z.id]) ?? []);
  return {
    buildHash,
    fileFnv: fnv1a64(mainBytes),
    zones: grid.zones.map((z) => ({
      name: z.name,
      regions: z.globalRegions,
      tileRecords: z.tiles.map((t) => t.records),
      id: ids.get(z.name),
      cells: ownedBox(z.tiles),
    })),
    offMeshLinks: main ? main.offMeshLinks : undefined,
    ...(mainFile === undefined ? {} : { mainFile }),
  };
}

/** Bounding box of the tiles' owned cells (global, inclusive), or undefined without tiles. */
function ownedBox(
  tiles: readonly BgrdSection["zones"][number]["tiles"][number][],
): [number, number, number, number] | undefined {
  if (tiles.length === 0) return undefined;
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const t of tiles) {
    b[0] = Math.min(b[0], t.gx0 + t.px0);
    b[1] = Math.min(b[1], t.gy0 + t.py0);
    b[2] = Math.max(b[2], t.gx0 + t.px1);
    b[3] = Math.max(b[3], t.gy0 + t.py1);
  }
  return b;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Inspects a main pack and its paired files. A broken main pack throws its NavscopeError (there
 * is nothing else to show); every other part's failure is reported in the result.
 */
export async function inspectPackSet(
  mainPath: string,
  opts: { zone?: string; nogoPath?: string; bytes?: Uint8Array } = {},
): Promise<PackSetReport> {
  // With `bytes` the caller has read the file and knows it is a main pack by its content: it
  // pairs by name whatever the suffix.
  const paths = pairSidecars(mainPath, { anyName: opts.bytes !== undefined });
  const bytes = opts.bytes ?? await readMaybeGzip(mainPath, { magic: ["BNAV"] });
  // Decoded whole once (the build_hash check of describeMainPack's verify, and the zones,
  // vertices and BOML links the sidecar and occluder checks need).
  const main = describeMainPack(bytes, { file: mainPath });
  const load = decodeMainPack(bytes, { file: mainPath });
  main.verified = true;
  if (opts.zone !== undefined && !main.zones.some((z) => z.name === opts.zone)) {
    throw new NavscopeError(
      "usage",
      `zone ${JSON.stringify(opts.zone)} is not in the pack`,
      { file: mainPath, section: "zone table" },
      `one of ${main.zones.map((z) => z.name).join(", ")}`,
    );
  }
  const mainFnv = fnv1a64(bytes);
  let section: BgrdSection | null = null;
  let grid: BgrdSummary | null = null;
  let gridError: string | null = null;
  if (!main.grid) gridError = "the main pack has no BGRD grid section";
  else {
    try {
      const g = main.grid;
      section = parseBgrd(bytes.subarray(g.offset, g.offset + g.size), {
        file: mainPath,
      });
      checkParsedGridZones(section, main.zones, { file: mainPath });
      grid = summarizeBgrd(section);
    } catch (e) {
      gridError = message(e);
    }
  }
  const tiles = section ? tileTables(section, opts.zone) : [];
  const status = await sidecarStatus(paths);
  const { report: sidecar, pack: sidecarPack } = await inspectSidecar(
    status.fields ?? paths.fields[0],
    status.fields,
    section,
    {
      file: mainPath,
      buildHash: BigInt(`0x${main.header.buildHash}`),
      bytes,
      zones: main.zones,
      offMeshLinks: load.pack.offMeshLinks,
    },
  );
  if (section && !gridError) {
    // Decode every tile and check its ids (bgrd_guard.ts): region ids against global_regions,
    // and with a usable sidecar, component ids against FSCC.
    try {
      checkGridIds(section, {
        file: mainPath,
        sidecar: sidecarPack ? sidecarIdSource(sidecarPack) : undefined,
      });
    } catch (e) {
      // Tile-decode and region-id errors carry section BGRD and are the grid's; the rest
      // (FSPN columns, component ids) come from the sidecar.
      const onSidecar = sidecarPack !== null && e instanceof NavscopeError &&
        e.where.section !== "BGRD";
      if (onSidecar) {
        sidecar.status = "invalid";
        sidecar.error = message(e);
        sidecar.summary = null;
      } else gridError = message(e);
    }
  }
  if (gridError && sidecar.status === "invalid" && sidecar.error?.includes("main-pack FNV")) {
    // The FNV covers the grid bytes too: a damaged grid fails the pairing as a consequence.
    sidecar.error += "; the grid section is damaged too (see the grid's error), which alone " +
      "changes the FNV";
  }
  const packZones = main.zones.map((z) => ({ name: z.name, width: z.width, height: z.height }));
  const occluder = await inspectOccluder(
    status.occluder ?? paths.occluder[0],
    status.occluder,
    load.pack,
  );
  const nogoPath = opts.nogoPath ?? paths.nogo;
  if (opts.nogoPath !== undefined) await requireFile(opts.nogoPath, "no-go table (--nogo)");
  const { report: nogo, usable: nogoUsable } = await inspectNoGo(nogoPath, packZones);
  // A zone without a single grid record cannot be planned in (bake refuses to write one; an
  // older pack may still have it).
  const emptyZones = section ? section.zones.filter((z) => z.records === 0).map((z) => z.name) : [];
  const reasons = [
    gridError && `grid section: ${gridError}`,
    sidecar.status !== "ok" && `fields sidecar ${sidecar.status}: ${sidecar.error ?? sidecar.path}`,
    nogo.status === "invalid" && `no-go table unreadable: ${nogo.error}`,
    !nogoUsable && `no-go table ${nogo.path} is not this pack's: ${nogo.warning}`,
    occluder.status === "mismatched" &&
    `occluder pack ${occluder.path} is not this pack's: ${occluder.warning}`,
    emptyZones.length > 0 &&
    `grid section: zone ${emptyZones.join(", ")} has no grid records (区没有预烘格图)`,
  ].filter((x): x is string => typeof x === "string");
  const warnings: string[] = [];
  if (!/\.nav(\.gz)?$/.test(mainPath)) {
    warnings.push(
      `${mainPath} is a main pack by its content but not named BASE.nav[.gz]; its paired files ` +
        `were looked for as ${paths.fields[0]}, ${paths.occluder[0]}, ${paths.nogo} (the engine ` +
        "pairs by file name)",
    );
  }
  if (occluder.warning) warnings.push(`${occluder.path}: ${occluder.warning}`);
  if (nogo.warning) warnings.push(`${nogo.path}: ${nogo.warning}`);
  return {
    main,
    mainFileFnv: mainFnv.toString(16).padStart(16, "0"),
    grid,
    tiles,
    gridError,
    sidecar,
    occluder,
    nogo,
    warnings,
    usable: reasons.length === 0,
    unusableReason: reasons[0] ?? null,
  };
}

function tileTables(section: BgrdSection, zone?: string): PackSetReport["tiles"] {
  return section.zones.filter((z) => zone === undefined || z.name === zone).map((z) => ({
    zone: z.name,
    tiles: z.tiles.map((t, index) => ({
      index,
      gx0: t.gx0,
      gy0: t.gy0,
      nx: t.nx,
      ny: t.ny,
      owned: [t.px0, t.px1, t.py0, t.py1] as [number, number, number, number],
      offset: t.offset,
      bytes: t.len,
      records: t.records,
    })),
  }));
}

async function inspectSidecar(
  path: string,
  existing: string | null,
  section: BgrdSection | null,
  main: {
    file: string;
    buildHash: bigint;
    bytes: Uint8Array;
    zones: readonly { name: string; id: number }[];
    offMeshLinks: OffMeshLink[] | null;
  },
): Promise<{ report: PackSetReport["sidecar"]; pack: SidecarPack | null }> {
  if (existing === null) {
    return {
      report: { path, status: "missing", error: "no paired fields sidecar", summary: null },
      pack: null,
    };
  }
  if (section === null) {
    return {
      report: { path, status: "invalid", error: "cannot check: no grid section", summary: null },
      pack: null,
    };
  }
  try {
    const expect = sidecarExpectations(main.buildHash, main.bytes, section, main, main.file);
    const pack = await loadSidecarFile(existing, expect);
    return {
      report: { path, status: "ok", error: null, summary: summarizeSidecar(pack, expect) },
      pack,
    };
  } catch (e) {
    return { report: { path, status: "invalid", error: message(e), summary: null }, pack: null };
  }
}

/** The FSPN / FSCC view of an opened sidecar that {@link checkGridIds} reads. */
export function sidecarIdSource(pack: SidecarPack): SidecarIdSource {
  return {
    file: pack.file,
    hasZone: (zone) => pack.zoneByName.has(zone),
    components: (zone) => componentCounts(readComponentGraphs(pack, zone)),
    fields: (zone, tile) => readFieldsTile(pack, zone, tile),
  };
}

async function inspectOccluder(
  path: string,
  existing: string | null,
  pack: OccluderPackFacts,
): Promise<PackSetReport["occluder"]> {
  const none = { unknownZones: [], misplaced: [], warning: null };
  if (existing === null) return { path, status: "missing", error: null, zones: null, ...none };
  let bytes: Uint8Array;
  try {
    bytes = await readMaybeGzip(existing, { magic: ["OCLS"] });
  } catch (e) {
    const error = message(e);
    return {
      path: existing,
      status: "invalid",
      error,
      zones: null,
      ...none,
      warning: `the occluder pack cannot be read (${error}); plans run without occluders ` +
        "(ledge drops allowed everywhere)",
    };
  }
  // Every record decoded and checked against the main pack, as the engine does at load.
  const c = checkOccluderPack(bytes, existing, pack);
  return {
    path: existing,
    status: c.status,
    error: c.error,
    zones: c.zones,
    unknownZones: c.unknownZones,
    misplaced: c.misplaced,
    warning: c.message,
  };
}

/** A file the user named explicitly must exist: an `io` error naming it otherwise. */
async function requireFile(path: string, what: string): Promise<void> {
  try {
    const st = await Deno.stat(path);
    if (!st.isFile) throw new Error("not a file");
  } catch (e) {
    throw new NavscopeError("io", `${what} ${JSON.stringify(path)} cannot be read: ${message(e)}`, {
      file: path,
    });
  }
}

async function inspectNoGo(
  path: string,
  packZones: PackZoneBounds[],
): Promise<{ report: PackSetReport["nogo"]; usable: boolean }> {
  const none = { zones: null, unknownZones: [], outside: [], warning: null };
  try {
    await Deno.stat(path);
  } catch {
    return { report: { path, status: "missing", error: null, ...none }, usable: true };
  }
  let table: NoGoTable;
  try {
    table = await loadNoGoTable(path);
  } catch (e) {
    return { report: { path, status: "invalid", error: message(e), ...none }, usable: false };
  }
  const zones = [...table.zones.entries()].map(([zone, z]) => ({ zone, polygons: z.polyCount }));
  const c = fitNoGoToPack(table, packZones);
  return {
    report: {
      path,
      status: c.status,
      error: null,
      zones,
      unknownZones: c.unknownZones,
      outside: c.outside,
      warning: c.message,
    },
    usable: c.usable,
  };
}
