/**
 * The world baker (issue "The baker"): world manifest → main pack (BGEO geometry with
 * components/islands from zone cleaning, BSRF surfaces, BOML off-mesh links, BGRD grid), fields
 * sidecar (FSPN/FSCC/FWAL/FLNK/FOPN, paired by build_hash and the FNV of the main pack's whole
 * decompressed bytes), occluder pack (OCLS) and author no-go table, plus a bake report.
 *
 * Layering note: this module reads the world manifest (src/world), one layer below bake; it is
 * the baker's entry point and nothing in src/world imports it.
 *
 * Output is byte-identical for any worker count: tiles are merged in tile order and every
 * numbering is fixed by the layout. Files are written to temporaries first and renamed only
 * when every output is ready, so an interrupted bake leaves no partial pack behind.
 * @module
 */

import { fnv1a64, fsErrorText, gzip, readVarint, writeFileAtomic } from "../codec/mod.ts";
import { NavscopeError } from "../errors.ts";
import {
  encodeMainPack,
  type MainPack,
  type OffMeshLink,
  ZONE_FLAG_TIER,
  type ZoneRecord,
} from "../pack/bnav/mod.ts";
import { readFront } from "../pack/bnav/codec.ts";
import { checkLinkBounds, checkLinkZoneBounds } from "../pack/bnav/boml.ts";
import { checkZoneValues } from "../pack/bnav/zones.ts";
import { type BgrdZoneInput, parseBgrd } from "../pack/bgrd/section.ts";
import { type EncodedGridZone, writeBgrdSection } from "../bake/assemble_bgrd.ts";
import { summarizeBgrd } from "../pack/bgrd/summary.ts";
import {
  buildOpenTable,
  FIELDS_RULES_VERSION,
  openSidecar,
  RUNTIME_FCON,
  type SidecarModel,
  type ZoneFields,
} from "../pack/bnvf/sidecar.ts";
import { encodeOccluderPack, type OccluderScene } from "../pack/ocls/pack.ts";
import { encodeNoGoTable, type NoGoPolygonSpec, noGoTableFromSpec } from "../pack/nogo/table.ts";
import { pairSidecars } from "../pack/set/pairing.ts";
import {
  buildTriangleBuckets,
  cleanZone,
  type LinkTable,
  mergeLinkTables,
  meshNeighbours,
  snapPoint,
  triangleRecords,
  zoneTopology,
} from "../zone_mesh/mod.ts";
import { loadManifest, type WorldManifest, type ZoneSpec } from "./manifest.ts";
import { loadZoneGeometry, loadZoneOccluders } from "./obj.ts";
import {
  bakeZone,
  serialRunner,
  type TileRunner,
  type ZoneBakeStats,
  type ZoneProgress,
} from "../bake/bake_zone.ts";
import {
  bomlRecord,
  landingOpens,
  landingSide,
  type LinkLanding,
  linkTable,
} from "../bake/assemble_links.ts";
import { occluderScene } from "../bake/assemble_occluders.ts";
import { encodeSidecarPacked } from "../bake/assemble_fields.ts";
import { BakeWorkerPool } from "../bake/worker_pool.ts";
import { nonManifoldEdges } from "../bake/mesh_checks.ts";
import { BakeContext } from "../bake/context.ts";

/** Options of {@link bakeWorld}. */
export interface BakeWorldOptions {
  /** Tile runner (default: in-process). */
  runner?: TileRunner;
  /** Base name of the outputs (default `base`). */
  base?: string;
  /** Reject zones with non-manifold edges (default true; the report counts them otherwise). */
  strictManifold?: boolean;
  /** Keep every tile's decoded columns in {@link BakeArtifacts.gridZones} (tests; memory). */
  keepGrid?: boolean;
  /** Called as tiles finish (for a progress bar). */
  onProgress?: (p: BakeProgress) => void;
  /** Stage timer (default: a fresh one); its times become {@link BakeReport.times}. */
  context?: BakeContext;
}

/** Progress of a world bake: which zone, and the zone's tile progress. */
export interface BakeProgress extends ZoneProgress {
  /** Zone name. */
  zone: string;
  /** 0-based index of the zone among the zones that have a grid (non-tier zones). */
  zoneIndex: number;
  /** Zones with a grid. */
  zones: number;
}

/** Per-zone report row. */
export interface ZoneReport {
  /** Zone name. */
  name: string;
  /** Zone id. */
  id: number;
  /** Tier zone (no geometry of its own). */
  tier: boolean;
  /** Triangles. */
  triangles: number;
  /** Walkable triangles. */
  walkable: number;
  /** Mesh components. */
  components: number;
  /** Island triangles. */
  islandTriangles: number;
  /** Off-mesh links kept / dropped. */
  links: { kept: number; dropped: number };
  /** Grid counts and stage times (null for tier zones). */
  grid: ZoneBakeStats | null;
  /** Warnings (dropped links, degenerate triangles dropped on import, unmatched edges). */
  warnings: string[];
  /** Per mesh file: triangles kept and OBJ statements ignored (vt, vn, s, mtllib, …). */
  meshes: { file: string; triangles: number; ignoredLines: number }[];
}

/** The bake report (stdout table and `--json`). */
export interface BakeReport {
  /** Manifest path. */
  manifest: string;
  /** World name. */
  world: string;
  /** Workers used. */
  workers: number;
  /** Zones. */
  zones: ZoneReport[];
  /** Output files: path and bytes (gzip sizes for .gz files). */
  files: { role: string; path: string; bytes: number }[];
  /** BGRD bytes per record per field (all zones, apron duplicates included). */
  gridBytesPerRecord: Record<string, number>;
  /** Sidecar section bytes per record (owned-or-apron records of BGRD). */
  fieldsBytesPerRecord: Record<string, number>;
  /** Total records written to BGRD. */
  records: number;
  /** Milliseconds per stage of the whole bake. */
  times: Record<string, number>;
  /** Total warnings. */
  warnings: number;
}

/** Everything a bake produces, in memory. */
export interface BakeArtifacts {
  /** The main pack model. */
  main: MainPack;
  /** Main pack bytes (decompressed). */
  mainBytes: Uint8Array;
  /** Sidecar model. */
  sidecar: SidecarModel;
  /** Sidecar bytes (decompressed). */
  sidecarBytes: Uint8Array;
  /** Occluder scenes. */
  occluders: OccluderScene[];
  /** Occluder pack bytes (decompressed). */
  occluderBytes: Uint8Array;
  /** No-go table text. */
  nogoText: string;
  /** BGRD zones as baked, with decoded columns (only with `keepGrid`; else empty). */
  gridZones: BgrdZoneInput[];
  /** Report (files empty until written). */
  report: BakeReport;
}

interface ZoneGeom {
  record: ZoneRecord;
  report: ZoneReport;
}

/** What the zone stages accumulate for the world-wide encode stages. */
interface WorldParts {
  verts: Float32Array[];
  tris: Uint32Array[];
  neigh: Int32Array[];
  comp: Uint32Array[];
  cent: Float32Array[];
  surf: Uint32Array[];
  linkTables: LinkTable[];
  boml: OffMeshLink[];
  landings: LinkLanding[];
  gridZones: BgrdZoneInput[];
  encodedZones: EncodedGridZone[];
  fieldZones: ZoneFields[];
  scenes: OccluderScene[];
  nogo: Map<string, NoGoPolygonSpec[]>;
  zones: ZoneGeom[];
  /** Global index of the next zone's first triangle. */
  firstTri: number;
  /** Global index of the next zone's first vertex. */
  vbase: number;
}

/** Bakes a manifest file in memory. */
export async function bakeManifestFile(
  path: string,
  opts: BakeWorldOptions = {},
): Promise<BakeArtifacts> {
  return bakeWorld(await loadManifest(path), opts);
}

/**
 * Bakes a parsed manifest in memory: per zone import → clean → grid → links → occluders (plus
 * its no-go polygons), then the world-wide encodeGrid → encodeMain → encodeFields → encodeOther,
 * each stage timed through one {@link BakeContext} (`opts.context`, or a fresh one) whose times
 * are the report's.
 */
export async function bakeWorld(
  world: WorldManifest,
  opts: BakeWorldOptions = {},
): Promise<BakeArtifacts> {
  const ctx = opts.context ?? new BakeContext();
  checkZoneRecordBounds(world);
  const parts = emptyParts();
  const gridZoneCount = world.zones.filter((z) => z.parent === undefined).length;
  let gridZoneIndex = 0;
  for (const z of world.zones) {
    if (z.parent !== undefined) {
      parts.zones.push(tierZone(world, z, parts.firstTri));
      continue;
    }
    const g = await ctx.timeAsync("import", () => loadZoneGeometry(z));
    const zm = ctx.time("clean", () => cleanStage(z, g, parts, opts));
    const warnings = importWarnings(z, g, zm);
    const zb = await ctx.timeAsync(
      "grid",
      () => gridStage(z, g, zm.zc, opts, { zoneIndex: gridZoneIndex++, zones: gridZoneCount }),
    );
    checkGridRecords(world, z, g, zm.zc, zb);
    ctx.addAll("grid.", zb.stats.times);
    collectGrid(zb, parts, warnings);
    const links = ctx.time("links", () => linksStage(z, zm.zc, zb, parts, warnings));
    await ctx.timeAsync("occluders", () => occludersStage(z, parts));
    collectNoGo(z, parts);
    parts.zones.push(zoneEntry(z, g, zm.zc, zb, links, warnings, parts.firstTri));
    parts.firstTri += g.triangles.length / 3;
    parts.vbase += g.vertices.length / 3;
  }
  checkTriangleLinks(world, parts);
  const gridBytes = ctx.time("encodeGrid", () => writeBgrdSection(parts.encodedZones));
  const mainOut = ctx.time("encodeMain", () => encodeMainStage(world, parts, gridBytes));
  const fields = ctx.time("encodeFields", () => encodeFieldsStage(parts, mainOut));
  const other = ctx.time("encodeOther", () => ({
    occluderBytes: encodeOccluderPack(parts.scenes),
    nogoText: encodeNoGoTable(noGoTableFromSpec(parts.nogo)),
  }));
  return {
    main: mainOut.main,
    mainBytes: mainOut.bytes,
    sidecar: fields.sidecar,
    sidecarBytes: fields.bytes,
    occluders: parts.scenes,
    occluderBytes: other.occluderBytes,
    nogoText: other.nogoText,
    gridZones: parts.gridZones,
    report: bakeReport(world, parts, gridBytes, fields.bytes, ctx),
  };
}

function emptyParts(): WorldParts {
  return {
    verts: [],
    tris: [],
    neigh: [],
    comp: [],
    cent: [],
    surf: [],
    linkTables: [],
    boml: [],
    landings: [],
    gridZones: [],
    encodedZones: [],
    fieldZones: [],
    scenes: [],
    nogo: new Map(),
    zones: [],
    firstTri: 0,
    vbase: 0,
  };
}

type ZoneGeometry = Awaited<ReturnType<typeof loadZoneGeometry>>;
type ZoneCleaned = ReturnType<typeof cleanZone>;
type ZoneGrid = Awaited<ReturnType<typeof bakeZone>>;

/** Stage "clean": topology, zone cleaning, the manifold check, the zone's triangle records. */
function cleanStage(
  z: ZoneSpec,
  g: ZoneGeometry,
  parts: WorldParts,
  opts: BakeWorldOptions,
): { zc: ZoneCleaned; nonManifold: number } {
  const firstTri = parts.firstTri;
  const topo = zoneTopology(g.triangles, firstTri);
  const zc = cleanZone({
    name: z.name,
    zoneId: z.id,
    firstTri,
    vertices: g.vertices,
    triangles: g.triangles,
    surfaceFlags: g.surfaceFlags,
    neighbours: topo.neighbours,
    links: topo.links,
    file: z.meshes[0]?.file,
  });
  const nm = nonManifoldEdges(g.triangles, g.vertices.length / 3);
  if (opts.strictManifold !== false && nm.count > 0) {
    const [va, vb] = nm.first!;
    const at = (v: number) =>
      `(${g.vertices[3 * v]}, ${g.vertices[3 * v + 1]}, ${g.vertices[3 * v + 2]})`;
    throw new NavscopeError(
      "bad_value",
      `non-manifold mesh: ${nm.count} edges are shared by more than two triangles, e.g. ${at(va)}–${
        at(vb)
      } (u px, v px, h m)`,
      { zone: z.name, file: z.meshes.map((m) => m.file).join(", ") },
      "each edge shared by at most two triangles (pass --lenient to cut such edges and bake anyway)",
    );
  }
  const rec = triangleRecords(
    g.vertices,
    g.triangles,
    meshNeighbours(g.triangles),
    zc.component,
    firstTri,
  );
  for (let k = 0; k < rec.vertex.length; k++) rec.vertex[k] += parts.vbase;
  parts.verts.push(g.vertices);
  parts.tris.push(rec.vertex), parts.neigh.push(rec.neighbour), parts.comp.push(rec.component);
  parts.cent.push(rec.centroid), parts.surf.push(g.surfaceFlags);
  parts.linkTables.push(topo.links);
  return { zc, nonManifold: nm.count };
}

/** Import and cleaning warnings: degenerate triangles, cut edges, triangles outside the zone. */
function importWarnings(
  z: ZoneSpec,
  g: ZoneGeometry,
  zm: { zc: ZoneCleaned; nonManifold: number },
): string[] {
  const warnings: string[] = [];
  g.meshStats.forEach((s, i) => {
    const d = s.degenerateIndex + s.degenerateArea;
    if (d > 0) warnings.push(`${z.meshes[i].file}: ${d} degenerate triangles dropped`);
  });
  if (zm.nonManifold > 0) {
    warnings.push(`${zm.nonManifold} non-manifold edges cut by zone cleaning`);
  }
  const outside = trianglesOutside(g.vertices, zm.zc.tris, zm.zc.walkable, z.originPx, z.sizePx);
  if (outside > 0) {
    warnings.push(
      `${outside} walkable triangles reach outside the zone rectangle (origin_px ${
        JSON.stringify(z.originPx)
      }, size_px ${JSON.stringify(z.sizePx)}); the grid is baked inside it only`,
    );
  }
  return warnings;
}

/** Stage "grid": the zone's tiles (src/bake/bake_zone.ts; tile stage times in `stats.times`). */
function gridStage(
  z: ZoneSpec,
  g: ZoneGeometry,
  zc: ZoneCleaned,
  opts: BakeWorldOptions,
  at: { zoneIndex: number; zones: number },
): Promise<ZoneGrid> {
  return bakeZone(
    z.name,
    {
      verts: g.vertices,
      tris: zc.tris,
      walkable: zc.walkable,
      boundary: zc.boundary,
    },
    [z.originPx[0], z.originPx[1], z.sizePx[0], z.sizePx[1]],
    opts.runner ?? serialRunner,
    opts.keepGrid,
    opts.onProgress &&
      ((p) => opts.onProgress!({ ...p, zone: z.name, zoneIndex: at.zoneIndex, zones: at.zones })),
  );
}

/**
 * Refuses, before any zone is baked, a zone whose record would be outside the pack bounds
 * (issue 55, src/pack/bounds.ts: size, affine, floor_y), at its manifest entry: the same rule
 * `encodeMainPack` and the decoders apply (`checkZoneValues`), located in the source.
 */
function checkZoneRecordBounds(world: WorldManifest): void {
  world.zones.forEach((z, i) => {
    const record: ZoneRecord = {
      id: z.id,
      flags: 0,
      name: z.name,
      firstTriangle: 0,
      triangleCount: 0,
      componentCount: 0,
      width: Math.fround(z.sizePx[0]),
      height: Math.fround(z.sizePx[1]),
      affine: f32Affine(z.affine),
      floorY: Math.fround(z.floorY),
    };
    checkZoneValues([record], { file: z.manifest ?? world.file, section: `$.zones[${i}]` });
  });
}

/** A zone whose grid has no record is an error (its rectangle misses the walkable mesh). */
function checkGridRecords(
  world: WorldManifest,
  z: ZoneSpec,
  g: ZoneGeometry,
  zc: ZoneCleaned,
  zb: ZoneGrid,
): void {
  if (zb.stats.records === 0) {
    throw new NavscopeError(
      "bad_value",
      `the zone bakes to no grid records: no walkable surface lies inside its rectangle ` +
        `(origin_px ${JSON.stringify(z.originPx)}, size_px ${JSON.stringify(z.sizePx)}; ` +
        `the walkable mesh spans ${walkableBox(g.vertices, zc.tris, zc.walkable)})`,
      { file: z.manifest ?? world.file, section: `$.zones[${z.id - 1}]`, zone: z.name },
      "origin_px/size_px covering the mesh (px after px_per_m, m_per_unit and offset_px)",
    );
  }
}

/** Keeps the zone's grid, encoded BGRD zone and fields. */
function collectGrid(zb: ZoneGrid, parts: WorldParts, warnings: string[]): void {
  if (zb.stats.unmatchedEdges > 0) {
    warnings.push(
      `${zb.stats.unmatchedEdges} component-graph edges matched no span across tiles`,
    );
  }
  if (zb.grid) parts.gridZones.push(zb.grid);
  parts.encodedZones.push(zb.encoded);
  parts.fieldZones.push(zb.fields);
}

/** Stage "links": off-mesh links snapped to the mesh (BOML records) and their grid landings. */
function linksStage(
  z: ZoneSpec,
  zc: ZoneCleaned,
  zb: ZoneGrid,
  parts: WorldParts,
  warnings: string[],
): { kept: number; dropped: number } {
  const buckets = buildTriangleBuckets(zc);
  let kept = 0, dropped = 0;
  z.offMeshLinks.forEach((l, i) => {
    const ha = snapPoint(zc, buckets, l.a[0], l.a[1], { deckY: l.a[2] });
    const hb = snapPoint(zc, buckets, l.b[0], l.b[1], { deckY: l.b[2] });
    if (ha === null || hb === null) {
      dropped++;
      const end = ha === null ? `a ${JSON.stringify(l.a)}` : `b ${JSON.stringify(l.b)}`;
      warnings.push(
        `off-mesh link ${i}: end ${end} is off the mesh (no walkable triangle within 16 px); dropped`,
      );
      return;
    }
    kept++;
    const link = bomlRecord(z.id, l, parts.firstTri + ha.tri, parts.firstTri + hb.tri);
    // The BOML bounds (issue 55), located at the manifest entry the record comes from.
    const where = {
      file: z.manifest ?? "manifest",
      section: `$.zones[${z.id - 1}].off_mesh_links[${i}]`,
      zone: z.name,
    };
    checkLinkBounds(link, parts.boml.length, () => where);
    checkLinkZoneBounds(
      link,
      parts.boml.length,
      { width: z.sizePx[0], height: z.sizePx[1] },
      where,
    );
    parts.landings.push({
      bomlIndex: parts.boml.length,
      zone: z.id,
      link,
      sides: [
        landingSide(zb.layout, zb.tiles, zb.regions, l.a),
        landingSide(zb.layout, zb.tiles, zb.regions, l.b),
      ],
    });
    parts.boml.push(link);
  });
  return { kept, dropped };
}

/** Stage "occluders": the zone's occluder meshes as an OCLS scene. */
async function occludersStage(z: ZoneSpec, parts: WorldParts): Promise<void> {
  const occ = await loadZoneOccluders(z);
  const scene = occluderScene(z.name, occ, z.affine);
  if (scene) parts.scenes.push(scene);
}

/** The zone's author no-go polygons. */
function collectNoGo(z: ZoneSpec, parts: WorldParts): void {
  if (z.noGo.length > 0) {
    parts.nogo.set(
      z.name,
      z.noGo.map((p) => ({
        name: p.name,
        rings: p.rings,
        ...(p.floorY === undefined ? {} : { floor: p.floorY }),
      })),
    );
  }
}

/** The zone's main-pack record and report row. */
function zoneEntry(
  z: ZoneSpec,
  g: ZoneGeometry,
  zc: ZoneCleaned,
  zb: ZoneGrid,
  links: { kept: number; dropped: number },
  warnings: string[],
  firstTri: number,
): ZoneGeom {
  const nt = g.triangles.length / 3;
  const nComp = new Set(zc.component).size;
  return {
    record: {
      id: z.id,
      flags: 0,
      name: z.name,
      firstTriangle: firstTri,
      triangleCount: nt,
      componentCount: nComp,
      width: Math.fround(z.sizePx[0]),
      height: Math.fround(z.sizePx[1]),
      affine: f32Affine(z.affine),
      floorY: Math.fround(z.floorY),
    },
    report: {
      name: z.name,
      id: z.id,
      tier: false,
      triangles: nt,
      walkable: zc.stats.walkable,
      components: nComp,
      islandTriangles: zc.stats.islandTriangles,
      links,
      grid: zb.stats,
      warnings,
      meshes: g.meshStats.map((st, i) => ({
        file: z.meshes[i].file,
        triangles: st.triangles,
        ignoredLines: st.ignoredLines,
      })),
    },
  };
}

/** A world without a single shared edge would give a pack without triangle links. */
function checkTriangleLinks(world: WorldManifest, parts: WorldParts): void {
  if (parts.linkTables.every((l) => l.source.length === 0)) {
    throw new NavscopeError(
      "bad_value",
      "no two triangles of the world share an edge, so the pack would have no triangle links",
      { file: world.file },
      "meshes whose triangles share edges (welded vertices)",
    );
  }
}

/** Stage "encodeMain": the main pack model and bytes, and the hashes the sidecar pairs with. */
function encodeMainStage(
  world: WorldManifest,
  parts: WorldParts,
  gridBytes: Uint8Array,
): { main: MainPack; bytes: Uint8Array; buildHash: bigint; fileFnv: bigint } {
  const main: MainPack = {
    flags: 0,
    zones: parts.zones.map((z) => z.record),
    vertices: concatF32(parts.verts),
    triangles: {
      vertices: concatU32(parts.tris),
      neighbours: concatI32(parts.neigh),
      component: concatU32(parts.comp),
      centroid: concatF32(parts.cent),
    },
    links: mergeLinkTables(parts.linkTables),
    surfaces: (() => {
      const flags = concatU32(parts.surf);
      return { area: new Uint8Array(flags.length), polyType: new Uint8Array(flags.length), flags };
    })(),
    offMeshLinks: parts.boml,
    grid: gridBytes,
    extraSections: [],
  };
  const bytes = encodeMainPack(main, { file: `${world.name}.nav` });
  const buildHash = readFront(bytes, {}).header.buildHash;
  return { main, bytes, buildHash, fileFnv: fnv1a64(bytes) };
}

/** Stage "encodeFields": the fields sidecar, paired with the main pack. */
function encodeFieldsStage(
  parts: WorldParts,
  main: { buildHash: bigint; fileFnv: bigint },
): { sidecar: SidecarModel; bytes: Uint8Array } {
  const opens = landingOpens(parts.landings);
  const sidecar: SidecarModel = {
    flags: 0,
    buildHash: main.buildHash,
    fileFnv: main.fileFnv,
    rules: FIELDS_RULES_VERSION,
    fcon: RUNTIME_FCON,
    zones: parts.fieldZones,
    links: parts.landings.length > 0 ? linkTable(parts.landings) : null,
    opens: opens.length > 0 ? buildOpenTable(opens) : null,
  };
  return { sidecar, bytes: encodeSidecarPacked(sidecar) };
}

/** The bake report: zones, bytes per record of BGRD and the sidecar, the context's times. */
function bakeReport(
  world: WorldManifest,
  parts: WorldParts,
  gridBytes: Uint8Array,
  sidecarBytes: Uint8Array,
  ctx: BakeContext,
): BakeReport {
  const gsum = summarizeBgrd(parseBgrd(gridBytes));
  const records = gsum.total.records;
  const gridBytesPerRecord: Record<string, number> = { ...gsum.total.bytesPerRecord };
  const fieldsBytesPerRecord: Record<string, number> = {};
  const per = (b: number) => (records > 0 ? b / records : 0);
  const fspn = fspnStreamBytes(sidecarBytes);
  FSPN_FIELDS.forEach((f, i) => (fieldsBytesPerRecord[f] = per(fspn[i])));
  const sc = openSidecar(sidecarBytes, null);
  for (const sec of sc.sections) fieldsBytesPerRecord[sec.tag] = per(sec.length);
  fieldsBytesPerRecord.total = per(sidecarBytes.length);
  let warnings = 0;
  for (const z of parts.zones) warnings += z.report.warnings.length;
  return {
    manifest: world.file,
    world: world.name,
    workers: 1,
    zones: parts.zones.map((z) => z.report),
    files: [],
    gridBytesPerRecord,
    fieldsBytesPerRecord,
    records,
    times: ctx.times,
    warnings,
  };
}

/** "x0..x1 × y0..y1 px" of the walkable triangles (or "nothing" when none is walkable). */
function walkableBox(v: Float32Array, tris: Uint32Array, walkable: Uint8Array): string {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let t = 0; t < walkable.length; t++) {
    if (walkable[t] === 0) continue;
    for (let k = 0; k < 3; k++) {
      const q = 3 * tris[3 * t + k];
      x0 = Math.min(x0, v[q]), x1 = Math.max(x1, v[q]);
      y0 = Math.min(y0, v[q + 1]), y1 = Math.max(y1, v[q + 1]);
    }
  }
  if (x0 > x1) return "nothing";
  const f = (a: number) => String(Math.round(a * 100) / 100);
  return `${f(x0)}..${f(x1)} × ${f(y0)}..${f(y1)} px`;
}

/** Walkable triangles with a vertex outside the zone's pixel rectangle (beyond 1 px). */
function trianglesOutside(
  v: Float32Array,
  tris: Uint32Array,
  walkable: Uint8Array,
  origin: readonly [number, number],
  size: readonly [number, number],
): number {
  const x0 = origin[0] - 1, y0 = origin[1] - 1;
  const x1 = origin[0] + size[0] + 1, y1 = origin[1] + size[1] + 1;
  let n = 0;
  for (let t = 0; t < walkable.length; t++) {
    if (walkable[t] === 0) continue;
    for (let k = 0; k < 3; k++) {
      const q = 3 * tris[3 * t + k];
      if (v[q] < x0 || v[q] > x1 || v[q + 1] < y0 || v[q + 1] > y1) {
        n++;
        break;
      }
    }
  }
  return n;
}

/** The six FSPN streams in payload order (spec 旁包 › FSPN). */
export const FSPN_FIELDS = ["scc", "steps2x", "seg", "tax", "clr2d", "medial"] as const;

/** Bytes of each FSPN stream unit (length varint included) summed over every tile. */
export function fspnStreamBytes(sidecarBytes: Uint8Array): number[] {
  const sc = openSidecar(sidecarBytes, null);
  const out = [0, 0, 0, 0, 0, 0];
  const next = new Int32Array(1);
  for (const z of sc.zones) {
    for (let t = 0; t < z.tiles; t++) {
      let pos = z.tileOffset[t];
      const n = readVarint(sidecarBytes, pos, next);
      pos = next[0];
      if (n === 0) continue;
      for (let k = 0; k < 6; k++) {
        const len = readVarint(sidecarBytes, pos, next);
        out[k] += next[0] - pos + len;
        pos = next[0] + len;
      }
    }
  }
  return out;
}

function tierZone(world: WorldManifest, z: ZoneSpec, firstTri: number): ZoneGeom {
  const parent = world.zones.find((p) => p.name === z.parent);
  return {
    record: {
      id: z.id,
      flags: ZONE_FLAG_TIER,
      name: z.name,
      firstTriangle: firstTri,
      triangleCount: 0,
      componentCount: parent?.id ?? 0,
      width: Math.fround(z.sizePx[0]),
      height: Math.fround(z.sizePx[1]),
      affine: f32Affine(z.affine),
      floorY: Math.fround(z.floorY),
    },
    report: {
      name: z.name,
      id: z.id,
      tier: true,
      triangles: 0,
      walkable: 0,
      components: 0,
      islandTriangles: 0,
      links: { kept: 0, dropped: 0 },
      grid: null,
      warnings: [],
      meshes: [],
    },
  };
}

function f32Affine(a: { sx: number; tx: number; sy: number; ty: number }) {
  const fr = Math.fround;
  return { sx: fr(a.sx), tx: fr(a.tx), sy: fr(a.sy), ty: fr(a.ty) };
}

function concatF32(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}
function concatU32(parts: Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}
function concatI32(parts: Int32Array[]): Int32Array {
  const out = new Int32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}

/** Output file names in `dir` for base name `base` (names per src/pack/set/pairing.ts). */
export function bakeOutputPaths(
  dir: string,
  base = "base",
): { main: string; fields: string; occluder: string; nogo: string } {
  const main = `${dir.replace(/\/+$/, "")}/${base}.nav.gz`;
  const p = pairSidecars(main);
  return { main, fields: p.fields[0], occluder: p.occluder[0], nogo: p.nogo };
}

/**
 * Writes the outputs: each file goes to a temporary name first (atomically), and only when all
 * four are on disk are they renamed into place; on any failure the temporaries are removed.
 */
export async function writeBakeOutputs(
  a: BakeArtifacts,
  dir: string,
  base = "base",
): Promise<{ role: string; path: string; bytes: number }[]> {
  await Deno.mkdir(dir, { recursive: true }).catch((e) => {
    throw new NavscopeError("io", `cannot create output directory: ${fsErrorText(e)}`, {
      file: dir,
    });
  });
  const paths = bakeOutputPaths(dir, base);
  const outs: { role: string; path: string; data: Uint8Array }[] = [
    { role: "main", path: paths.main, data: gzip(a.mainBytes) },
    { role: "fields", path: paths.fields, data: gzip(a.sidecarBytes) },
    { role: "occluder", path: paths.occluder, data: gzip(a.occluderBytes) },
    { role: "nogo", path: paths.nogo, data: new TextEncoder().encode(a.nogoText) },
  ];
  const temps: string[] = [];
  try {
    for (const o of outs) {
      const slash = o.path.lastIndexOf("/");
      const tmp = `${o.path.slice(0, slash + 1)}.${o.path.slice(slash + 1)}.bake-${Deno.pid}`;
      temps.push(tmp);
      await writeFileAtomic(tmp, o.data);
    }
    // A target that cannot be replaced (a directory in the way) fails before any rename.
    for (const o of outs) {
      const st = await Deno.stat(o.path).catch(() => null);
      if (st !== null && !st.isFile) {
        throw new NavscopeError("io", "cannot replace: not a regular file", { file: o.path });
      }
    }
    // The main pack goes last: a crash between renames never leaves a new main pack beside
    // old sidecars (the old main pack's hash would then reject the new sidecar loudly).
    for (let i = outs.length - 1; i >= 0; i--) await Deno.rename(temps[i], outs[i].path);
  } catch (e) {
    for (const t of temps) await Deno.remove(t).catch(() => {});
    if (e instanceof NavscopeError) throw e;
    throw new NavscopeError("io", `cannot write outputs: ${fsErrorText(e)}`, { file: dir });
  }
  return outs.map((o) => ({ role: o.role, path: o.path, bytes: o.data.length }));
}

/** Options of {@link bakeToDirectory}. */
export interface BakeToDirectoryOptions {
  /** Worker count (1 = in-process); default `navigator.hardwareConcurrency`. */
  workers?: number;
  /** Base name of the outputs (default `base`). */
  base?: string;
  /** Reject non-manifold zones (default true). */
  strictManifold?: boolean;
  /** Keep decoded tile columns in the artifacts (tests). */
  keepGrid?: boolean;
  /** Called as tiles finish (for a progress bar). */
  onProgress?: (p: BakeProgress) => void;
}

/**
 * `navscope bake MANIFEST --out DIR`: bakes with a worker pool and writes the four outputs.
 * Returns the artifacts with the report's `files` and `workers` filled in.
 */
export async function bakeToDirectory(
  manifestPath: string,
  outDir: string,
  opts: BakeToDirectoryOptions = {},
): Promise<BakeArtifacts> {
  const world = await loadManifest(manifestPath);
  const n = Math.max(1, Math.floor(opts.workers ?? navigator.hardwareConcurrency ?? 1));
  const pool = n > 1 ? new BakeWorkerPool(n) : null;
  const ctx = new BakeContext();
  let a: BakeArtifacts;
  try {
    a = await bakeWorld(world, {
      runner: pool?.runner,
      base: opts.base,
      strictManifold: opts.strictManifold,
      keepGrid: opts.keepGrid,
      onProgress: opts.onProgress,
      context: ctx,
    });
  } finally {
    pool?.close();
  }
  a.report.files = await ctx.timeAsync("write", () => writeBakeOutputs(a, outDir, opts.base));
  a.report.workers = n;
  return a;
}
