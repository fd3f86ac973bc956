/**
 * Seeded random main packs for property tests, fuzzing and benchmarks. Same seed and options →
 * the same pack. Geometry is plausible in shape (contiguous per-zone triangle and vertex ranges,
 * neighbours mostly inside the zone, component runs, source-sorted links), not a real mesh.
 * @module
 */
import { mulberry32 } from "../src/rng.ts";
import {
  allocTriangles,
  fillCentroids,
  type MainPack,
  NO_TRIANGLE,
  type OffMeshLink,
  ZONE_FLAG_TIER,
  type ZoneRecord,
} from "../src/pack/bnav/types.ts";

/** Options for {@link randomMainPack}. */
export interface RandomPackOptions {
  /** Ordinary zones (default 3, at least 1: a valid pack needs a link, so a triangle). */
  zones?: number;
  /** Tier zones, each under a random ordinary zone (default 1). */
  tierZones?: number;
  /** Maximum triangles per zone (default 200); each zone gets 0…max. */
  maxTrianglesPerZone?: number;
  /** Exactly this many triangles per zone instead of a random count. */
  trianglesPerZone?: number;
  /**
   * Include BSRF and BOML (default true). The BGRD grid (random bytes) is always there: every v5
   * pack carries one (spec 体积、内存与速度; the encoder refuses a pack without).
   */
  sections?: boolean;
  /**
   * Also an unknown `XTRA` section (default false): a pack a decoder must refuse (spec: 已知四个段),
   * for tests that need one.
   */
  extraSection?: boolean;
}

const NAMES = ["map01base", "map02base", "四号谷地", "tier_a", "dungeon-7", "x"];

/** Builds a random, valid, encodable main pack (not decodable with `extraSection`). */
export function randomMainPack(seed: number, opts: RandomPackOptions = {}): MainPack {
  const rnd = mulberry32(seed);
  const ri = (n: number) => Math.floor(rnd() * n);
  const f = Math.fround;
  const nz = Math.max(1, opts.zones ?? 3);
  const maxT = opts.maxTrianglesPerZone ?? 200;
  const zoneTris: number[] = [];
  const zoneVerts: number[] = [];
  for (let z = 0; z < nz; z++) {
    const t = opts.trianglesPerZone ?? ri(maxT + 1);
    zoneTris.push(t);
    zoneVerts.push(t === 0 ? ri(2) : Math.max(3, Math.ceil(t * (0.5 + rnd() * 0.3))));
  }
  // A valid pack needs at least one link, and a link needs a triangle.
  if (nz > 0 && !zoneTris.some((t) => t > 0)) {
    zoneTris[0] = 1;
    zoneVerts[0] = 3;
  }
  const T = zoneTris.reduce((a, b) => a + b, 0);
  const V = zoneVerts.reduce((a, b) => a + b, 0);
  const vertices = new Float32Array(3 * V);
  for (let i = 0; i < 3 * V; i++) vertices[i] = f((rnd() - 0.2) * 2048);
  const tris = allocTriangles(T);
  const zones: ZoneRecord[] = [];
  let t0 = 0;
  let v0 = 0;
  const src: number[] = [];
  const tgt: number[] = [];
  for (let z = 0; z < nz; z++) {
    const nt = zoneTris[z];
    const nv = zoneVerts[z];
    zones.push(zoneRecord(z, `${NAMES[z % NAMES.length]}${z}`, 0, t0, nt, rnd));
    let comp = ri(5);
    for (let i = 0; i < nt; i++) {
      const t = t0 + i;
      for (let c = 0; c < 3; c++) {
        tris.vertices[3 * t + c] = v0 + (ri(8) === 0 ? ri(nv) : Math.min(nv - 1, (i >> 1) + c));
        const r = rnd();
        tris.neighbours[3 * t + c] = r < 0.3 ? -1 : r < 0.97 ? t0 + ri(nt) : ri(T);
      }
      if (rnd() < 0.02) comp += ri(40) - 10;
      tris.component[t] = Math.max(0, comp);
      const nl = rnd() < 0.6 ? 1 + ri(3) : 0;
      const ts: number[] = [];
      for (let j = 0; j < nl; j++) ts.push(rnd() < 0.95 ? t0 + ri(nt) : ri(T));
      for (const x of ts) {
        src.push(t);
        tgt.push(x);
      }
    }
    t0 += nt;
    v0 += nv;
  }
  if (src.length === 0) {
    src.push(0);
    tgt.push(0);
  }
  for (let k = 0; k < (opts.tierZones ?? 1) && nz > 0; k++) {
    const parent = ri(nz);
    zones.push(zoneRecord(nz + k, `tier${k}`, ZONE_FLAG_TIER, 0, 0, rnd, parent));
  }
  fillCentroids(vertices, tris);
  const withSections = opts.sections ?? true;
  return {
    flags: ri(4),
    zones,
    vertices,
    triangles: tris,
    links: { source: Uint32Array.from(src), target: Uint32Array.from(tgt) },
    surfaces: withSections ? randomSurfaces(T, rnd) : null,
    offMeshLinks: withSections ? randomOffMesh(zones, T, rnd) : null,
    grid: randomBytes(64 + ri(200), rnd, "BGRD"),
    extraSections: opts.extraSection
      ? [{ tag: "XTRA", flags: 7, bytes: randomBytes(ri(50), rnd) }]
      : [],
  };
}

function zoneRecord(
  id: number,
  name: string,
  flags: number,
  first: number,
  count: number,
  rnd: () => number,
  parent?: number,
): ZoneRecord {
  const f = Math.fround;
  return {
    id,
    flags,
    name,
    firstTriangle: first,
    triangleCount: count,
    componentCount: parent ?? Math.floor(rnd() * 50),
    // Inside the plausibility bounds (src/pack/bounds.ts): a side of at least one cell, |sx|,
    // |sy| ≥ 1e-3.
    width: f(1 + rnd() * 4095),
    height: f(1 + rnd() * 4095),
    affine: {
      sx: f(0.01 + rnd() * 2),
      tx: f(rnd() * 100),
      sy: f(0.01 + rnd() * 2),
      ty: f(rnd() * 100),
    },
    floorY: f(rnd() * 50 - 10),
  };
}

function randomSurfaces(T: number, rnd: () => number): MainPack["surfaces"] {
  const s = { area: new Uint8Array(T), polyType: new Uint8Array(T), flags: new Uint32Array(T) };
  for (let i = 0; i < T; i++) {
    s.area[i] = Math.floor(rnd() * 64);
    s.polyType[i] = Math.floor(rnd() * 4);
    s.flags[i] = rnd() < 0.9 ? 0x1 : (rnd() * 0x100000000) >>> 0;
  }
  return s;
}

function randomOffMesh(zones: ZoneRecord[], T: number, rnd: () => number): OffMeshLink[] {
  const f = Math.fround;
  const out: OffMeshLink[] = [];
  const n = Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) {
    const z = zones[Math.floor(rnd() * zones.length)];
    const end = () =>
      z.triangleCount && rnd() < 0.8
        ? z.firstTriangle + Math.floor(rnd() * z.triangleCount)
        : T && rnd() < 0.5
        ? Math.floor(rnd() * T)
        : NO_TRIANGLE;
    out.push({
      zone: z.id,
      kind: Math.floor(rnd() * 4),
      isExt: Math.floor(rnd() * 2),
      bidirectional: Math.floor(rnd() * 2),
      area: Math.floor(rnd() * 10) - 2,
      linkType: Math.floor(rnd() * 3),
      direction: Math.floor(rnd() * 4),
      radius: f(rnd() * Math.min(3, Math.max(z.width, z.height))),
      costModifier: f(1 + rnd()),
      // x, y inside the zone's px rectangle, h in metres (the zone-box bound of src/pack/bounds.ts).
      points: Array.from(
        { length: 12 },
        (_, j) => f(rnd() * (j % 3 === 0 ? z.width : j % 3 === 1 ? z.height : 50)),
      ),
      dirBits: 1 + Math.floor(rnd() * 3),
      startTriangle: end(),
      endTriangle: end(),
    });
  }
  return out;
}

function randomBytes(n: number, rnd: () => number, tag?: string): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rnd() * 256);
  if (tag) { for (let i = 0; i < 4 && i < n; i++) b[i] = tag.charCodeAt(i); }
  return b;
}
