/**
 * End triangles of BOML v1 links (issue 8). v1 records (MaaEnd builds before #5844) carry no
 * end triangles, and the pack decoder leaves them at {@link NO_TRIANGLE} (its load says
 * `offMeshLinkEnds: "v1-unresolved"`). {@link resolveLinkEnds} fills them in the way the baker
 * chooses them for v2 records: each end point (x px, y px, h m) is snapped to its zone's cleaned
 * mesh with {@link snapPoint} (8 then 16 px, deck key on the point's height), and an end that
 * does not snap keeps {@link NO_TRIANGLE}. The zone mesh is cleaned once per zone, only for v1
 * packs.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { buildTriangleBuckets, snapPoint, type TriangleBuckets } from "./snap.ts";
import { cleanZone, type ZoneClean } from "./zone_clean.ts";
import type { OffMeshLinkEnds } from "../pack/bnav/codec.ts";
import {
  type MainPack,
  NO_TRIANGLE,
  type OffMeshLink,
  ZONE_FLAG_TIER,
  type ZoneRecord,
} from "../pack/bnav/types.ts";

/** The parts of a (whole or sliced) main pack that snapping reads. */
export interface LinkEndMesh {
  /** Zone records; `firstTriangle` is pack-global. */
  zones: readonly ZoneRecord[];
  /** Vertices (u, v, h). */
  vertices: Float32Array;
  /** Triangle vertex indices, 3 per triangle of this (whole or sliced) pack. */
  triangles: { vertices: Uint32Array };
  /** BSRF surface flags per triangle of this pack, or null (all walkable). */
  surfaces: { flags: Uint32Array } | null;
}

/**
 * Fills the end triangles of a whole-pack or zone load whose BOML section is v1
 * (`offMeshLinkEnds === "v1-unresolved"`), in place, and marks the load `"v1-snapped"`. A load
 * whose ends are stored (v2, or no BOML) or already snapped is left alone. `triangleBase` is
 * taken from a zone load (0 for a whole pack).
 */
export function resolveLinkEnds(
  load: { pack: MainPack; offMeshLinkEnds: OffMeshLinkEnds; triangleBase?: number },
  file?: string,
): void {
  if (load.offMeshLinkEnds !== "v1-unresolved") return;
  if (load.pack.offMeshLinks) {
    snapV1LinkEnds(load.pack.offMeshLinks, load.pack, load.triangleBase ?? 0, file);
  }
  load.offMeshLinkEnds = "v1-snapped";
}

/**
 * Fills `startTriangle` / `endTriangle` of v1 links in place by snapping their end points.
 * `triangleBase` is the global index of the mesh's triangle 0 (0 for a whole pack, the zone's
 * first triangle for a zone slice); results are indices into the mesh's triangles, as the
 * loader stores v2 ends. Links of unknown zones keep the sentinel.
 */
export function snapV1LinkEnds(
  links: OffMeshLink[],
  mesh: LinkEndMesh,
  triangleBase = 0,
  file?: string,
): void {
  const byId = new Map<number, ZoneRecord>();
  for (const z of mesh.zones) if (!byId.has(z.id)) byId.set(z.id, z);
  const cache = new Map<number, { zc: ZoneClean; b: TriangleBuckets; lo: number } | null>();
  const prep = (id: number) => {
    if (cache.has(id)) return cache.get(id)!;
    let z = byId.get(id);
    // A tier zone has no triangles of its own: its links snap on the parent's mesh.
    if (z && (z.flags & ZONE_FLAG_TIER) !== 0) z = byId.get(z.componentCount);
    let out: { zc: ZoneClean; b: TriangleBuckets; lo: number } | null = null;
    const lo = z ? z.firstTriangle - triangleBase : -1;
    const n = z ? z.triangleCount : 0;
    if (z && n > 0 && lo >= 0 && 3 * (lo + n) <= mesh.triangles.vertices.length) {
      try {
        const zc = cleanZone({
          name: z.name,
          zoneId: z.id,
          firstTri: z.firstTriangle,
          vertices: mesh.vertices,
          triangles: mesh.triangles.vertices.subarray(3 * lo, 3 * (lo + n)),
          surfaceFlags: mesh.surfaces?.flags.subarray(lo, lo + n),
          file,
        });
        out = { zc, b: buildTriangleBuckets(zc), lo };
      } catch (e) {
        // A zone the cleaner rejects (e.g. nothing walkable) has nothing to snap to.
        if (!(e instanceof NavscopeError)) throw e;
      }
    }
    cache.set(id, out);
    return out;
  };
  for (const l of links) {
    const m = prep(l.zone);
    if (!m) continue;
    const p = l.points;
    const a = snapPoint(m.zc, m.b, p[0], p[1], { deckY: p[2] });
    const b = snapPoint(m.zc, m.b, p[3], p[4], { deckY: p[5] });
    l.startTriangle = a ? m.lo + a.tri : NO_TRIANGLE;
    l.endTriangle = b ? m.lo + b.tri : NO_TRIANGLE;
  }
}
