/**
 * Off-mesh links from the world manifest → BOML records (spec 面属性与离网连接) and the FLNK
 * landing cells of the sidecar (spec 旁包 › FLNK), plus the FOPN records of link landings that
 * only non-core records cover (spec 可打通死格表: 「以及离网连接的落点」).
 *
 * - A link end that does not snap to a walkable triangle (snapPoint, 8 then 16 px, deck key on
 *   the declared height) drops the whole link with a counted warning.
 * - Landing cell of an end (x, y, h): global cell (⌊x / kCS⌋, ⌊y / kCS⌋). Reason codes: 1 out of
 *   bounds (no tile owns the cell), 2 no surface (no record in the cell), 3 none within
 *   ±{@link LINK_LAND_BAND} m of h, 4 only non-core records in the band, 0 usable (the Core
 *   record with the smallest |Δh|; ties keep the first in record order).
 * - BOML points: start, end, then the two declared landing points (= the ends), each stored as
 *   (x px, y px, h m) [I: the spec names four points without their frame].
 * @module
 */

import { K_CS, SpanFlag } from "../pack/grid_types.ts";
import { NO_TRIANGLE, type OffMeshLink } from "../pack/bnav/types.ts";
import type { SidecarLinkTable } from "../pack/bnvf/types.ts";
import { f32Pair, TABLE_VERSION } from "../pack/bnvf/tables.ts";
import type { TileBake } from "./bake_tile.ts";
import type { ZoneRegions } from "./assemble_regions.ts";
import { ownerOf, type ZoneTiles } from "./tiles.ts";
import { BGRD_APRON_CELLS, BGRD_TILE_CELLS } from "../pack/bgrd/section.ts";

/** Height band around a declared landing height, m [I] (the deck band of snapping, formulas #64). */
export const LINK_LAND_BAND = 2;

/** One link of the manifest, already validated. */
export interface LinkInput {
  /** Start (x px, y px, h m). */
  a: readonly [number, number, number];
  /** End. */
  b: readonly [number, number, number];
  /** Radius, px. */
  radius: number;
  /** Cost factor. */
  cost: number;
  /** Two-way. */
  bidirectional: boolean;
}

/** One side of a FLNK record. */
export interface LinkSide {
  /** Global cell x. */
  gx: number;
  /** Global cell y. */
  gy: number;
  /** Landing height (the record's, or the declared one when unusable). */
  h: number;
  /** Declared height. */
  declH: number;
  /** Zone region id of the landing record (0 if none). */
  rid: number;
  /** Clearance of the landing record. */
  clr: number;
  /** Flags of the landing record. */
  flags: number;
  /** Reason code 0..4. */
  why: number;
}

/** A link matched to the grid (before packing into the FLNK table). */
export interface LinkLanding {
  /** Index of the link's BOML record in the pack. */
  bomlIndex: number;
  /** Zone number (BNAV zone id). */
  zone: number;
  /** The BOML record. */
  link: OffMeshLink;
  /** Sides a and b. */
  sides: [LinkSide, LinkSide];
}

/** Builds the BOML record of a link whose ends snapped to `triA`, `triB` (pack-global). */
export function bomlRecord(zone: number, l: LinkInput, triA: number, triB: number): OffMeshLink {
  const fr = Math.fround;
  const pts = [...l.a, ...l.b, ...l.a, ...l.b].map(fr);
  return {
    zone,
    kind: 0,
    isExt: 0,
    bidirectional: l.bidirectional ? 1 : 0,
    area: 0,
    linkType: 0,
    direction: l.bidirectional ? 0 : 1,
    radius: fr(l.radius),
    costModifier: fr(l.cost),
    points: pts,
    dirBits: l.bidirectional ? 3 : 1,
    startTriangle: triA < 0 ? NO_TRIANGLE : triA,
    endTriangle: triB < 0 ? NO_TRIANGLE : triB,
  };
}

/** Matches one link end to the zone's records (see the module doc for the reason codes). */
export function landingSide(
  zt: ZoneTiles,
  tiles: readonly TileBake[],
  regions: ZoneRegions,
  p: readonly [number, number, number],
): LinkSide {
  const gx = Math.floor(p[0] / K_CS), gy = Math.floor(p[1] / K_CS);
  const side: LinkSide = { gx, gy, h: p[2], declH: p[2], rid: 0, clr: 0, flags: 0, why: 1 };
  const o = ownerOf(zt, gx, gy);
  if (o < 0) return side;
  const tb = tiles[o], g = zt.tiles[o];
  const ox = gx - g.gx0 - BGRD_APRON_CELLS, oy = gy - g.gy0 - BGRD_APRON_CELLS;
  const c = oy * BGRD_TILE_CELLS + ox;
  const k0 = tb.ownStart[c], k1 = tb.ownStart[c + 1];
  if (k0 === k1) return { ...side, why: 2 };
  let core = -1, coreD = Infinity, other = -1, otherD = Infinity;
  for (let k = k0; k < k1; k++) {
    if ((tb.flags[k] & SpanFlag.Fill) !== 0) continue;
    const d = Math.abs(tb.h[k] - p[2]);
    if (d > LINK_LAND_BAND) continue;
    if ((tb.flags[k] & SpanFlag.Core) !== 0) {
      if (d < coreD) (core = k), (coreD = d);
    } else if (d < otherD) (other = k), (otherD = d);
  }
  const k = core >= 0 ? core : other;
  if (k < 0) return { ...side, why: 3 };
  return {
    gx,
    gy,
    h: tb.h[k],
    declH: p[2],
    rid: regions.gid[o][tb.rid[k]],
    clr: tb.clr[k],
    flags: tb.flags[k],
    why: core >= 0 ? 0 : 4,
  };
}

/** Packs matched links (already in ascending zone order) into an FLNK table. */
export function linkTable(ls: readonly LinkLanding[]): SidecarLinkTable {
  const n = ls.length;
  const [radiusBits, radius] = f32Pair(n);
  const [costModifierBits, costModifier] = f32Pair(n);
  const [hBits, h] = f32Pair(2 * n);
  const [declHBits, declH] = f32Pair(2 * n);
  const zones = [...new Set(ls.map((l) => l.zone))];
  const t: SidecarLinkTable = {
    count: n,
    version: TABLE_VERSION,
    unused6: 0,
    unused12: 0,
    index: {
      zone: Uint16Array.from(zones),
      pad: new Uint16Array(zones.length),
      first: Uint32Array.from(zones.map((z) => ls.findIndex((l) => l.zone === z))),
      length: Uint32Array.from(zones.map((z) => ls.filter((l) => l.zone === z).length)),
    },
    bomlIndex: Uint32Array.from(ls.map((l) => l.bomlIndex)),
    zone: Uint16Array.from(ls.map((l) => l.zone)),
    kind: Uint8Array.from(ls.map((l) => l.link.kind)),
    valid: Uint8Array.from(
      ls.map((l) => (l.sides[0].why === 0 ? 1 : 0) | (l.sides[1].why === 0 ? 2 : 0)),
    ),
    isExt: Int32Array.from(ls.map((l) => l.link.isExt)),
    bidirectional: Int32Array.from(ls.map((l) => l.link.bidirectional)),
    area: Int32Array.from(ls.map((l) => l.link.area)),
    linkType: Uint16Array.from(ls.map((l) => l.link.linkType)),
    direction: Uint8Array.from(ls.map((l) => l.link.direction)),
    pad: new Uint8Array(n),
    radius,
    radiusBits,
    costModifier,
    costModifierBits,
    gx: new Int32Array(2 * n),
    gy: new Int32Array(2 * n),
    h,
    hBits,
    declH,
    declHBits,
    rid: new Uint32Array(2 * n),
    clr: new Uint16Array(2 * n),
    flags: new Uint8Array(2 * n),
    why: new Uint8Array(2 * n),
  };
  ls.forEach((l, i) => {
    radius[i] = l.link.radius;
    costModifier[i] = l.link.costModifier;
    l.sides.forEach((s, j) => {
      const q = 2 * i + j;
      t.gx[q] = s.gx;
      t.gy[q] = s.gy;
      h[q] = s.h;
      declH[q] = s.declH;
      t.rid[q] = s.rid;
      t.clr[q] = s.clr;
      t.flags[q] = s.flags;
      t.why[q] = s.why;
    });
  });
  return t;
}

/** FOPN records for landings covered only by non-core records (src 1 = link landing [I]). */
export function landingOpens(
  ls: readonly LinkLanding[],
): { zone: number; gx: number; gy: number; h: number; clr: number; flags: number; src: number }[] {
  const out = new Map<string, {
    zone: number;
    gx: number;
    gy: number;
    h: number;
    clr: number;
    flags: number;
    src: number;
  }>();
  for (const l of ls) {
    for (const s of l.sides) {
      if (s.why !== 4) continue;
      const key = `${l.zone},${s.gx},${s.gy},${Math.fround(s.h)}`;
      if (out.has(key)) continue;
      out.set(key, {
        zone: l.zone,
        gx: s.gx,
        gy: s.gy,
        h: s.h,
        clr: s.clr,
        flags: SpanFlag.Walk | SpanFlag.Core,
        src: 1,
      });
    }
  }
  return [...out.values()];
}
