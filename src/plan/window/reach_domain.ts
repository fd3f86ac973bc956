/**
 * The reach domain (spec 可达域; 建窗 step 12): the components reachable from the seed span's
 * component in the region's component DAG (FSCC), then closed over the window's off-mesh links
 * (a link whose source is in the domain and whose target is not adds the target's component and
 * everything it reaches), until nothing grows. Each span of the region looks its component up.
 * @module
 */

import type { SpanGrid } from "../../grid/span_grid.ts";
import type { ComponentGraphs } from "../../pack/bnvf/types.ts";
import type { WindowLinks } from "./window_grid.ts";
import { PlanFailure } from "../types.ts";

/** Index of region `rid` in the graphs, or −1 (rids ascend). */
export function graphIndex(g: ComponentGraphs, rid: number): number {
  let lo = 0, hi = g.count - 1;
  while (lo <= hi) {
    const m = (lo + hi) >>> 1;
    if (g.rid[m] === rid) return m;
    if (g.rid[m] < rid) lo = m + 1;
    else hi = m - 1;
  }
  return -1;
}

/** Marks in `set` (1-based components) everything reachable from component `from`. */
function dfs(g: ComponentGraphs, k: number, from: number, set: Uint8Array): void {
  const stack = [from];
  set[from] = 1;
  const base = g.rowBase[k];
  while (stack.length > 0) {
    const s = stack.pop()!;
    for (let e = g.rowPtr[base + s - 1]; e < g.rowPtr[base + s]; e++) {
      const t = g.dst[e];
      if (!set[t]) {
        set[t] = 1;
        stack.push(t);
      }
    }
  }
}

/** The reach domain per span (1 = reachable). Throws PlanFailure for sidecar inconsistencies. */
export function reachDomain(
  g: ComponentGraphs,
  region: number,
  spans: SpanGrid,
  vis3: Uint8Array,
  scc: Int32Array,
  seedSpan: number,
  links: WindowLinks,
): Uint8Array {
  const k = graphIndex(g, region);
  const n = k < 0 ? 0 : g.nScc[k];
  const seedComp = scc[seedSpan];
  if (k < 0 || seedComp < 1 || seedComp > n) {
    throw new PlanFailure("sidecar_unreadable", "旁包分量图里没有起点面所在的分量");
  }
  const set = new Uint8Array(n + 1);
  dfs(g, k, seedComp, set);
  const nsp = spans.h.length;
  const reach = new Uint8Array(nsp);
  for (let s = 0; s < nsp; s++) {
    if (!vis3[s]) continue;
    const c = scc[s];
    if (c < 1 || c > n) throw new PlanFailure("sidecar_unreadable", "旁包分量号越界");
    reach[s] = set[c];
  }
  // Off-mesh closure, in link-table order, updated in place (可达域 step 3).
  for (let grown = true; grown;) {
    grown = false;
    for (let i = 0; i < links.n; i++) {
      const a = links.fromSpan[i], b = links.toSpan[i];
      if (reach[a] && !reach[b]) {
        dfs(g, k, scc[b], set);
        for (let s = 0; s < nsp; s++) if (vis3[s] && !reach[s] && set[scc[s]]) reach[s] = 1;
        grown = true;
      }
    }
  }
  return reach;
}
