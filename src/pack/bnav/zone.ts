/**
 * Per-zone loading of the main pack (spec 读取路径, the 按区 path): header, directory and zone
 * table (with the zone's tier children), then only the triangle chunks covering the zone's
 * triangle range, then only the vertex chunks covering the vertex range those triangles use,
 * then the link chunks whose sources can fall in the zone (skipped by the directory `aux`, then
 * a binary search inside the chunk). As the spec says, the build hash is not checked here
 * (「按区加载跳过这一步,完整性交给 gzip 自带的 CRC」); indices and stream lengths still are.
 *
 * The result is renumbered to the zone: triangle `i` is pack triangle `triangleBase + i`, vertex
 * `j` is pack vertex `vertexBase + j`. Neighbours outside the zone become −1; links are kept when
 * both ends are in the zone; BOML records are kept when their zone is loaded, and their end
 * triangles are translated the same way, an end outside the zone falling back to the sentinel
 * 0xFFFFFFFF (spec 面属性与离网连接). `sliceZone` cuts the same thing out of a whole pack.
 * @module
 */
import { readMaybeGzip } from "../../codec/file.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { chunkRange, decodeLinkChunk, decodeTriangleChunk, decodeVertexChunk } from "./bgeo.ts";
import {
  type DecodeOptions,
  finishLoad,
  type MainPackLoad,
  type PackFront,
  readFront,
} from "./codec.ts";
import { requireLittleEndian } from "./canonical.ts";
import {
  flatLinkSource,
  flatRange,
  readFlatLinks,
  readFlatTriangles,
  readFlatZones,
} from "./legacy.ts";
import {
  allocTriangles,
  fillCentroids,
  type LinkColumns,
  type MainPack,
  NO_TRIANGLE,
  type OffMeshLink,
  tierChildren,
  type TriangleColumns,
  VERTEX_RECORD,
  type ZoneRecord,
} from "./types.ts";
import { findZone } from "./zones.ts";
import { checkLinkZoneBounds, decodeBoml } from "./boml.ts";
import { decodeBsrf, sliceSurfaces } from "./bsrf.ts";

/** A pack restricted to one zone (and its tier children). */
export interface ZoneSlice {
  /** The zone's pack: zones = [zone, ...tier children], geometry renumbered to the zone. */
  pack: MainPack;
  /** The requested zone record. */
  zone: ZoneRecord;
  /** Pack index of local triangle 0. */
  triangleBase: number;
  /** Pack index of local vertex 0. */
  vertexBase: number;
}

/** A per-zone load: the slice plus the facts about the file. */
export type ZoneLoad = ZoneSlice & Omit<MainPackLoad, "pack">;

/** Loads one zone (by name or id) from main-pack bytes, decoding only the chunks it needs. */
export function loadZone(
  bytes: Uint8Array,
  zoneKey: string | number,
  opts: DecodeOptions = {},
): ZoneLoad {
  requireLittleEndian();
  const where0: ErrorLocation = { file: opts.file ?? "<memory>" };
  const front = readFront(bytes, where0);
  if (!front.bgeo) front.zones = readFlatZones(bytes, front.header, where0).zones;
  const zone = findZone(front.zones, zoneKey, where0);
  const where = { ...where0, zone: zone.name };
  const lo = zone.firstTriangle;
  const hi = lo + zone.triangleCount;
  const geo = front.bgeo
    ? loadBgeoZone(bytes, front, lo, hi, where)
    : loadFlatZone(bytes, front, lo, hi, where);
  const zones = [zone, ...tierChildren(front.zones, zone.id)];
  const T = front.header.triangleCount;
  const sec = (tag: string) => {
    const s = front.known.get(tag);
    return s ? { s, b: bytes.subarray(s.offset, s.offset + s.size) } : null;
  };
  const bsrf = sec("BSRF");
  const boml = sec("BOML");
  const bgrd = sec("BGRD");
  const pack: MainPack = {
    flags: front.header.flags,
    zones,
    vertices: geo.vertices,
    triangles: geo.triangles,
    links: geo.links,
    surfaces: bsrf ? decodeBsrf(bsrf.b, bsrf.s.offset, T, where, lo, hi) : null,
    offMeshLinks: boml
      ? zoneOffMeshLinks(decodeBoml(boml.b, boml.s.offset, T, where), zones, lo, hi, where)
      : null,
    grid: bgrd ? bgrd.b.slice() : null,
    extraSections: [], // a decoded pack has none: readFront refuses unknown tags
  };
  const { pack: _p, ...facts } = finishLoad(bytes, pack, front, opts);
  return { ...facts, pack, zone, triangleBase: lo, vertexBase: geo.vertexBase };
}

/** Reads a main pack file (gzip or not) and loads one zone from it. */
export async function loadZoneFile(
  path: string,
  zoneKey: string | number,
  opts: Omit<DecodeOptions, "file"> = {},
): Promise<ZoneLoad> {
  return loadZone(await readMaybeGzip(path, { magic: ["BNAV"] }), zoneKey, { ...opts, file: path });
}

interface ZoneGeometry {
  vertices: Float32Array;
  triangles: TriangleColumns;
  links: LinkColumns;
  vertexBase: number;
}

function loadBgeoZone(
  bytes: Uint8Array,
  front: PackFront,
  lo: number,
  hi: number,
  where: ErrorLocation,
): ZoneGeometry {
  const L = front.bgeo!;
  const n = hi - lo;
  const tris = allocTriangles(n);
  if (n > 0) {
    const B = L.chunkSizes.triangle;
    const tmp = allocTriangles(Math.min(B, L.counts.triangle));
    for (let k = Math.floor(lo / B); k <= Math.floor((hi - 1) / B); k++) {
      const [s, e] = chunkRange(k, L.counts.triangle, B);
      decodeTriangleChunk(bytes, L, k, tmp, 0, where);
      const a = Math.max(s, lo);
      const b = Math.min(e, hi);
      tris.vertices.set(tmp.vertices.subarray(3 * (a - s), 3 * (b - s)), 3 * (a - lo));
      tris.neighbours.set(tmp.neighbours.subarray(3 * (a - s), 3 * (b - s)), 3 * (a - lo));
      tris.component.set(tmp.component.subarray(a - s, b - s), a - lo);
    }
  }
  const [vmin, vmax] = vertexSpan(tris.vertices);
  const vertices = new Float32Array(3 * (vmax - vmin));
  if (vmax > vmin) {
    const B = L.chunkSizes.vertex;
    const tmp = new Float32Array(3 * Math.min(B, L.counts.vertex));
    for (let k = Math.floor(vmin / B); k <= Math.floor((vmax - 1) / B); k++) {
      const [s, e] = chunkRange(k, L.counts.vertex, B);
      decodeVertexChunk(bytes, L, k, tmp, 0, where);
      const a = Math.max(s, vmin);
      const b = Math.min(e, vmax);
      vertices.set(tmp.subarray(3 * (a - s), 3 * (b - s)), 3 * (a - vmin));
    }
  }
  localizeTriangles(tris, lo, hi, vmin);
  fillCentroids(vertices, tris);
  return {
    vertices,
    triangles: tris,
    links: bgeoZoneLinks(bytes, front, lo, hi, where),
    vertexBase: vmin,
  };
}

/** Links with both ends in `[lo, hi)`, from the link chunks whose sources can reach the zone. */
function bgeoZoneLinks(
  bytes: Uint8Array,
  front: PackFront,
  lo: number,
  hi: number,
  where: ErrorLocation,
): LinkColumns {
  const src: number[] = [];
  const tgt: number[] = [];
  const L = front.bgeo!;
  const dir = L.dirs.link;
  if (hi > lo && dir.length) {
    // First chunk whose successor starts at or after lo: every earlier chunk ends before lo.
    let a = 0;
    let b = dir.length - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      if (dir[m + 1].aux >= lo) b = m;
      else a = m + 1;
    }
    const B = L.chunkSizes.link;
    const m = Math.min(B, L.counts.link);
    const tmp: LinkColumns = { source: new Uint32Array(m), target: new Uint32Array(m) };
    for (let k = a; k < dir.length && dir[k].aux < hi; k++) {
      const [s, e] = chunkRange(k, L.counts.link, B);
      decodeLinkChunk(bytes, L, k, tmp, 0, where);
      collectLinks(tmp, lowerBound(tmp.source, 0, e - s, lo), e - s, lo, hi, src, tgt);
    }
  }
  return { source: Uint32Array.from(src), target: Uint32Array.from(tgt) };
}

function lowerBound(a: Uint32Array, from: number, to: number, x: number): number {
  while (from < to) {
    const m = (from + to) >>> 1;
    if (a[m] < x) from = m + 1;
    else to = m;
  }
  return from;
}

function collectLinks(
  l: LinkColumns,
  from: number,
  to: number,
  lo: number,
  hi: number,
  src: number[],
  tgt: number[],
): void {
  for (let i = from; i < to && l.source[i] < hi; i++) {
    const t = l.target[i];
    if (t >= lo && t < hi) {
      src.push(l.source[i] - lo);
      tgt.push(t - lo);
    }
  }
}

function loadFlatZone(
  bytes: Uint8Array,
  front: PackFront,
  lo: number,
  hi: number,
  where: ErrorLocation,
): ZoneGeometry {
  const h = front.header;
  const tris = allocTriangles(hi - lo);
  readFlatTriangles(bytes, h, lo, hi, tris, 0, where);
  const [vmin, vmax] = vertexSpan(tris.vertices);
  const voff = h.tableOffsets.vertices;
  flatRange(bytes, voff, VERTEX_RECORD * h.vertexCount, "vertex table", where);
  const vb = bytes.slice(voff + VERTEX_RECORD * vmin, voff + VERTEX_RECORD * vmax);
  const vertices = new Float32Array(vb.buffer, 0, 3 * (vmax - vmin));
  localizeTriangles(tris, lo, hi, vmin);
  const src: number[] = [];
  const tgt: number[] = [];
  if (hi > lo) {
    flatRange(bytes, h.tableOffsets.links, 8 * h.linkCount, "link table", where);
    let a = 0;
    let b = h.linkCount;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (flatLinkSource(bytes, h, m) < lo) a = m + 1;
      else b = m;
    }
    let e = a;
    while (e < h.linkCount && flatLinkSource(bytes, h, e) < hi) e++;
    collectLinks(readFlatLinks(bytes, h, a, e, where), 0, e - a, lo, hi, src, tgt);
  }
  return {
    vertices,
    triangles: tris,
    links: { source: Uint32Array.from(src), target: Uint32Array.from(tgt) },
    vertexBase: vmin,
  };
}

/** `[min, max + 1)` of the vertex indices used, or `[0, 0)` when there are none. */
function vertexSpan(v: Uint32Array): [number, number] {
  if (v.length === 0) return [0, 0];
  let mn = v[0];
  let mx = v[0];
  for (let i = 1; i < v.length; i++) {
    const x = v[i];
    if (x < mn) mn = x;
    else if (x > mx) mx = x;
  }
  return [mn, mx + 1];
}

/** Renumbers zone triangles (holding pack indices) to zone-local vertex and triangle indices. */
function localizeTriangles(t: TriangleColumns, lo: number, hi: number, vmin: number): void {
  for (let i = 0; i < t.vertices.length; i++) {
    t.vertices[i] -= vmin;
    const nb = t.neighbours[i];
    t.neighbours[i] = nb >= lo && nb < hi ? nb - lo : -1;
  }
}

/** BOML records of the loaded zones, ends translated to the zone (outside → sentinel). */
function zoneOffMeshLinks(
  all: OffMeshLink[],
  zones: ZoneRecord[],
  lo: number,
  hi: number,
  where?: ErrorLocation,
): OffMeshLink[] {
  const ids = new Set(zones.map((z) => z.id));
  if (where) {
    // The whole decode checks these in checkPackRefs; a zone load checks its own zones' links.
    const byId = new Map(zones.map((z) => [z.id, z]));
    all.forEach((l, i) => {
      const z = byId.get(l.zone);
      if (z) checkLinkZoneBounds(l, i, z, { ...where, section: "BOML", zone: z.name });
    });
  }
  const tr = (t: number) => (t !== NO_TRIANGLE && t >= lo && t < hi ? t - lo : NO_TRIANGLE);
  return all.filter((l) => ids.has(l.zone)).map((l) => ({
    ...l,
    startTriangle: tr(l.startTriangle),
    endTriangle: tr(l.endTriangle),
  }));
}

/**
 * Cuts one zone (and its tier children) out of a whole pack, with the same renumbering as
 * {@link loadZone}. Tools that already hold the whole pack use this instead of re-reading bytes.
 */
export function sliceZone(pack: MainPack, zoneKey: string | number, file = "<memory>"): ZoneSlice {
  const zone = findZone(pack.zones, zoneKey, { file });
  const lo = zone.firstTriangle;
  const hi = lo + zone.triangleCount;
  if (hi > pack.triangles.component.length) {
    throw new NavscopeError("count_mismatch", "zone runs past the pack's triangles", {
      file,
      zone: zone.name,
    });
  }
  const src = pack.triangles;
  const tris: TriangleColumns = {
    vertices: src.vertices.slice(3 * lo, 3 * hi),
    neighbours: src.neighbours.slice(3 * lo, 3 * hi),
    component: src.component.slice(lo, hi),
    centroid: src.centroid.slice(2 * lo, 2 * hi),
  };
  const [vmin, vmax] = vertexSpan(tris.vertices);
  localizeTriangles(tris, lo, hi, vmin);
  const ls: number[] = [];
  const lt: number[] = [];
  collectLinks(
    pack.links,
    lowerBound(pack.links.source, 0, pack.links.source.length, lo),
    pack.links.source.length,
    lo,
    hi,
    ls,
    lt,
  );
  const zones = [zone, ...tierChildren(pack.zones, zone.id)];
  return {
    pack: {
      flags: pack.flags,
      zones,
      vertices: pack.vertices.slice(3 * vmin, 3 * vmax),
      triangles: tris,
      links: { source: Uint32Array.from(ls), target: Uint32Array.from(lt) },
      surfaces: pack.surfaces ? sliceSurfaces(pack.surfaces, lo, hi) : null,
      offMeshLinks: pack.offMeshLinks ? zoneOffMeshLinks(pack.offMeshLinks, zones, lo, hi) : null,
      grid: pack.grid,
      extraSections: pack.extraSections,
    },
    zone,
    triangleBase: lo,
    vertexBase: vmin,
  };
}
