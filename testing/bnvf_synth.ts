/**
 * Synthetic fields sidecars for tests and benchmarks: a seeded generator of valid
 * {@link SidecarModel}s together with the main-pack facts they pair with. Deterministic for a
 * given random source.
 * @module
 */
import { RUNTIME_FCON } from "../src/pack/bnvf/constants.ts";
import { buildComponentGraphs } from "../src/pack/bnvf/fscc.ts";
import { allocFieldsTile } from "../src/pack/bnvf/fspn.ts";
import { buildWallTable } from "../src/pack/bnvf/fwal.ts";
import { buildOpenTable, f32Pair, TABLE_VERSION } from "../src/pack/bnvf/tables.ts";
import {
  BNVF_FLAG_SCC_EXTRA,
  type FieldsTile,
  type SidecarExpectations,
  type SidecarLinkTable,
  type SidecarModel,
  type ZoneFields,
} from "../src/pack/bnvf/types.ts";

/** Size knobs for {@link synthSidecar}. */
export interface SynthOptions {
  /** Zones (default 1..3). */
  zones?: number;
  /** Tiles per zone (default 0..4). */
  tiles?: number;
  /** Max records per tile (default 300). */
  maxRecords?: number;
  /** Header flag bit 0 (default random). */
  sccExtra?: boolean;
  /** Include FLNK / FOPN (default random). */
  links?: boolean;
  /** Include FOPN (default random). */
  opens?: boolean;
}

/** A random integer in [0, n). */
function ri(rnd: () => number, n: number): number {
  return Math.floor(rnd() * n);
}

/** A random fields tile of `n` records. */
export function synthFieldsTile(rnd: () => number, n: number): FieldsTile {
  const t = allocFieldsTile(n);
  let s = 1 + ri(rnd, 5);
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.2) s = ri(rnd, 40);
    t.scc[i] = rnd() < 0.05 ? 0 : s;
    t.steps2x[i] = rnd() < 0.9 ? 0 : ri(rnd, 256);
    t.seg[i] = rnd() < 0.9 ? 0 : ri(rnd, 4);
    t.tax[i] = rnd() < 0.95 ? 0 : ri(rnd, 256);
    t.clr2d[i] = rnd() < 0.7 ? 0 : ri(rnd, 40);
    t.medial[i] = rnd() < 0.8 ? 0 : 1;
  }
  return t;
}

function synthZone(rnd: () => number, i: number, o: SynthOptions, extra: boolean): ZoneFields {
  const nt = o.tiles ?? ri(rnd, 5);
  const maxR = o.maxRecords ?? 300;
  const tiles: FieldsTile[] = [];
  for (let t = 0; t < nt; t++) {
    tiles.push(synthFieldsTile(rnd, rnd() < 0.15 ? 0 : ri(rnd, maxR + 1)));
  }
  const regions = 1 + ri(rnd, 40);
  const graphRegions = [];
  let budget = tiles.reduce((a, t) => a + t.n, 0);
  for (let rid = 0; rid < regions; rid++) {
    if (rnd() < 0.3) continue;
    // A component holds at least one span: never more components than the zone has records.
    const nScc = Math.min(ri(rnd, 8), budget);
    budget -= nScc;
    const edges: [number, number][] = [];
    for (let e = 0; e < nScc * 2; e++) {
      const a = 1 + ri(rnd, nScc), b = 1 + ri(rnd, nScc);
      if (a < b) edges.push([a, b]);
    }
    graphRegions.push({
      rid,
      nScc,
      edges,
      extra: [ri(rnd, 9), ri(rnd, 300), ri(rnd, 2), ri(rnd, 1e6)],
    });
  }
  const walls = [];
  let key = ri(rnd, 10);
  for (let w = ri(rnd, 60); w > 0; w--) {
    const rids = [];
    for (let k = ri(rnd, 4); k > 0; k--) rids.push(ri(rnd, regions));
    walls.push({ key, rids });
    key += 1 + ri(rnd, rnd() < 0.1 ? 100000 : 5);
  }
  return {
    name: i === 1 ? "四号谷地" : `map0${i}base`,
    regions,
    tiles,
    graphs: buildComponentGraphs(graphRegions, extra),
    walls: buildWallTable(walls),
  };
}

/** A random FLNK table over the given zone numbers. */
export function synthLinkTable(rnd: () => number, zones: number[], n: number): SidecarLinkTable {
  const zs = [...zones].sort((a, b) => a - b);
  const zoneOf = Array.from({ length: n }, () => zs[ri(rnd, zs.length)]).sort((a, b) => a - b);
  const [radiusBits, radius] = f32Pair(n);
  const [costModifierBits, costModifier] = f32Pair(n);
  const [hBits, h] = f32Pair(2 * n);
  const [declHBits, declH] = f32Pair(2 * n);
  const used = zs.filter((z) => zoneOf.includes(z));
  const t: SidecarLinkTable = {
    count: n,
    version: TABLE_VERSION,
    unused6: 0,
    unused12: 0,
    index: {
      zone: Uint16Array.from(used),
      pad: new Uint16Array(used.length),
      first: Uint32Array.from(used.map((z) => zoneOf.indexOf(z))),
      length: Uint32Array.from(used.map((z) => zoneOf.filter((x) => x === z).length)),
    },
    bomlIndex: Uint32Array.from({ length: n }, (_, i) => i),
    zone: Uint16Array.from(zoneOf),
    kind: Uint8Array.from({ length: n }, () => ri(rnd, 6)),
    valid: Uint8Array.from({ length: n }, () => ri(rnd, 4)),
    isExt: Int32Array.from({ length: n }, () => ri(rnd, 2)),
    bidirectional: Int32Array.from({ length: n }, () => ri(rnd, 2)),
    area: Int32Array.from({ length: n }, () => ri(rnd, 64) - 5),
    linkType: Uint16Array.from({ length: n }, () => ri(rnd, 9)),
    direction: Uint8Array.from({ length: n }, () => ri(rnd, 3)),
    pad: new Uint8Array(n),
    radius,
    radiusBits,
    costModifier,
    costModifierBits,
    gx: Int32Array.from({ length: 2 * n }, () => ri(rnd, 40000) - 100),
    gy: Int32Array.from({ length: 2 * n }, () => ri(rnd, 40000) - 100),
    h,
    hBits,
    declH,
    declHBits,
    rid: Uint32Array.from({ length: 2 * n }, () => ri(rnd, 500)),
    clr: Uint16Array.from({ length: 2 * n }, () => ri(rnd, 3000)),
    flags: Uint8Array.from({ length: 2 * n }, () => ri(rnd, 32)),
    why: Uint8Array.from({ length: 2 * n }, () => ri(rnd, 5)),
  };
  for (let i = 0; i < n; i++) {
    radius[i] = ri(rnd, 100) / 8;
    costModifier[i] = 1 + ri(rnd, 30) / 4;
  }
  for (let s = 0; s < 2 * n; s++) {
    h[s] = (ri(rnd, 200000) - 1000) / 64;
    declH[s] = rnd() < 0.1 ? h[s] + 0.5 : h[s];
    // A side without a landing (reason 1–3) carries no region, clearance or flags, and `valid`
    // says which sides have reason 0 (what the baker writes; the decoder checks both).
    if (t.why[s] >= 1 && t.why[s] <= 3) t.rid[s] = t.clr[s] = t.flags[s] = 0;
  }
  for (let i = 0; i < n; i++) {
    t.valid[i] = (t.why[2 * i] === 0 ? 1 : 0) | (t.why[2 * i + 1] === 0 ? 2 : 0);
  }
  return t;
}

/** A link table over `zones` whose landing region ids are in 1..their zone's region count. */
function synthLinks(rnd: () => number, zones: readonly ZoneFields[]): SidecarLinkTable {
  const t = synthLinkTable(rnd, zones.map((_, i) => i), ri(rnd, 20));
  for (let s = 0; s < 2 * t.count; s++) {
    if (t.why[s] === 0 || t.why[s] === 4) {
      t.rid[s] = 1 + (t.rid[s] % Math.max(1, zones[t.zone[s >> 1]].regions));
    }
  }
  return t;
}

/** A random valid sidecar model and the main-pack facts it pairs with. */
export function synthSidecar(
  rnd: () => number,
  o: SynthOptions = {},
): { model: SidecarModel; expect: SidecarExpectations } {
  const extra = o.sccExtra ?? rnd() < 0.5;
  const nz = o.zones ?? 1 + ri(rnd, 3);
  const zones = Array.from({ length: nz }, (_, i) => synthZone(rnd, i, o, extra));
  const hash = () => (BigInt(ri(rnd, 2 ** 32)) << 32n) | BigInt(ri(rnd, 2 ** 32));
  const withLinks = o.links ?? rnd() < 0.6;
  const withOpens = o.opens ?? rnd() < 0.6;
  const opens = [];
  if (withOpens) {
    for (let k = ri(rnd, 80); k > 0; k--) {
      opens.push({
        zone: ri(rnd, nz),
        gx: ri(rnd, 3000) - 20,
        gy: ri(rnd, 3000) - 20,
        h: (ri(rnd, 2000) - 100) / 64,
        clr: ri(rnd, 400),
        flags: ri(rnd, 32),
        src: ri(rnd, 3),
      });
    }
  }
  const seen = new Set<string>();
  const uniq = opens.filter((x) => {
    const k = `${x.zone},${x.gx},${x.gy},${x.h}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const model: SidecarModel = {
    flags: extra ? BNVF_FLAG_SCC_EXTRA : 0,
    buildHash: hash(),
    fileFnv: hash(),
    rules: 2,
    fcon: RUNTIME_FCON.slice(),
    zones,
    links: withLinks ? synthLinks(rnd, zones) : null,
    opens: withOpens ? buildOpenTable(uniq) : null,
  };
  const expect: SidecarExpectations = {
    buildHash: model.buildHash,
    fileFnv: model.fileFnv,
    zones: zones.map((z) => ({
      name: z.name,
      regions: z.regions,
      tileRecords: z.tiles.map((t) => t.n),
    })),
  };
  return { model, expect };
}
