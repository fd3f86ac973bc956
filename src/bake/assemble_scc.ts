/**
 * Zone-wide strongly connected components per region (spec 垂直可达判据 › 分量; 旁包 scc column
 * and FSCC). Each tile has already condensed its own RiseOk graph (owned spans, owned → owned
 * edges) into tile components and a tile DAG. Contracting a strongly connected set keeps the
 * SCC structure of a graph, so the zone graph is the condensed one: nodes = tile components
 * (tile order, then component order), edges = the tile DAG edges plus the edges that leave a
 * tile's owned square, resolved to the owner's tile component. Tarjan on this small graph gives
 * the zone components; they are renumbered from 1 inside each zone region in order of their
 * lowest condensed node — fixed by the tile layout, so independent of the worker count.
 * @module
 */

import { csrFromEdges, tarjanScc } from "./components.ts";
import type { TileBake } from "./bake_tile.ts";
import { resolveRef, type ZoneRegions } from "./assemble_regions.ts";
import type { ZoneTiles } from "./tiles.ts";
import { SpanFlag } from "../pack/grid_types.ts";
import { NavscopeError } from "../errors.ts";

/** Components of one zone. */
export interface ZoneComponents {
  /** Per tile: component id (from 1) per owned record; 0 for Fill records only. */
  scc: Int32Array[];
  /** Per zone region (index rid − 1): component count. */
  nScc: Uint32Array;
  /** Per zone region (index rid − 1): DAG edges (src, dst), 1-based component ids. */
  dag: [number, number][][];
  /** Graph edges whose far end could not be matched to a span (counted for the report). */
  unmatched: number;
}

/**
 * Stitches the tile graphs and computes components and DAGs for every zone region. Each
 * tile's `comp` column is overwritten with the zone component ids (and returned as `scc`).
 */
export function zoneComponents(
  zt: ZoneTiles,
  tiles: readonly TileBake[],
  regions: ZoneRegions,
): ZoneComponents {
  const base = new Int32Array(tiles.length + 1);
  tiles.forEach((t, i) => (base[i + 1] = base[i] + t.compCount));
  const n = base[tiles.length];
  // Zone region of each condensed node (−1: a node of Ghost/Fill records only).
  const nodeRegion = new Int32Array(n).fill(-1);
  tiles.forEach((tb, t) => {
    for (let k = 0; k < tb.n; k++) {
      if (tb.extra[k] === 0) nodeRegion[base[t] + tb.comp[k] - 1] = regions.gid[t][tb.rid[k]];
    }
  });
  let m = 0;
  for (const tb of tiles) m += tb.dagSrc.length + tb.xSrc.length;
  const src = new Int32Array(m), dst = new Int32Array(m);
  let e = 0, unmatched = 0;
  tiles.forEach((tb, t) => {
    for (let i = 0; i < tb.dagSrc.length; i++) {
      src[e] = base[t] + tb.dagSrc[i] - 1;
      dst[e++] = base[t] + tb.dagDst[i] - 1;
    }
    for (let i = 0; i < tb.xSrc.length; i++) {
      const a = base[t] + tb.xSrc[i] - 1;
      const d = resolveRef(zt, tiles, t, tb.xDst[i]);
      const b = d === null ? -1 : base[d[0]] + tiles[d[0]].comp[d[1]] - 1;
      if (b < 0 || nodeRegion[b] !== nodeRegion[a]) {
        unmatched++;
        continue;
      }
      src[e] = a;
      dst[e++] = b;
    }
  });
  const g = csrFromEdges(n, src.subarray(0, e), dst.subarray(0, e));
  const { comp, count } = tarjanScc(g);
  // Renumber inside each zone region in condensed-node order.
  const local = new Int32Array(count + 1);
  const regionOf = new Int32Array(count + 1);
  const nScc = new Uint32Array(regions.count);
  for (let v = 0; v < n; v++) {
    const c = comp[v], r = nodeRegion[v];
    if (r < 1 || local[c] !== 0) continue;
    local[c] = ++nScc[r - 1];
    regionOf[c] = r;
  }
  // The tile component column becomes the zone component column, in place (4 B per record
  // less at the peak); every condensed-node lookup above is done by now.
  const scc = tiles.map((tb, t) => {
    const out = tb.comp;
    for (let k = 0; k < tb.n; k++) {
      out[k] = tb.extra[k] === 0 ? local[comp[base[t] + out[k] - 1]] : 0;
    }
    return out;
  });
  // Ghost records take their proxy span's component (bake_tile.ts ghostProxy). The runtime
  // keeps a region's Ghost spans in its span table and rejects scc 0 (spec 可达域 step 2), and
  // every Ghost cell reaches a span of its region through Ghost cells: a Ghost record left
  // without a component is a bake bug, not a pack to write.
  tiles.forEach((tb, t) => {
    for (let i = 0; i < tb.proxySrc.length; i++) {
      const k = tb.proxySrc[i];
      if ((tb.flags[k] & SpanFlag.Ghost) === 0) continue;
      const d = resolveRef(zt, tiles, t, tb.proxyDst[i]);
      if (d !== null) scc[t][k] = scc[d[0]][d[1]];
    }
    for (let k = 0; k < tb.n; k++) {
      if ((tb.flags[k] & SpanFlag.Ghost) !== 0 && scc[t][k] < 1) {
        throw new NavscopeError("bad_value", `Ghost record ${k} has no component`, { tile: t });
      }
    }
  });
  const keys: number[][] = Array.from({ length: regions.count }, () => []);
  for (let v = 0; v < n; v++) {
    const a = comp[v];
    for (let q = g.start[v]; q < g.start[v + 1]; q++) {
      const b = comp[g.adj[q]];
      if (a !== b && regionOf[a] === regionOf[b] && regionOf[a] > 0) {
        keys[regionOf[a] - 1].push(local[a] * 0x100000000 + local[b]);
      }
    }
  }
  const dag = keys.map((ks) => {
    ks.sort((p, q) => p - q);
    const out: [number, number][] = [];
    for (let i = 0; i < ks.length; i++) {
      if (i > 0 && ks[i] === ks[i - 1]) continue;
      out.push([Math.floor(ks[i] / 0x100000000), ks[i] % 0x100000000]);
    }
    return out;
  });
  return { scc, nScc, dag, unmatched };
}
