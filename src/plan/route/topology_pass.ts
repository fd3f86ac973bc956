/**
 * The topology pass of routeWindow (spec 拓扑层): the channel limw (clearance ≥ kClrPref, the
 * medial cells, the endpoint access paths and the link chains of the links the baseline used,
 * 端点接入), the price multw, and the solver on limw; the whole window with a warning when the
 * channel fails. Its SpanAstar work counts to the topology counters (solver.ts `phase`).
 * @module
 */

import { and } from "../window/masks.ts";
import { AccessSearch, kLinkChainCost } from "./search/access.ts";
import { linked } from "./search/linked.ts";
import { kClrPref, kMultwHi, kMultwLo, priceField } from "./search/price_field.ts";
import { scratch } from "../scratch.ts";
import { Escalate, Reason, type Solved, Warning } from "./route_types.ts";
import type { Solver } from "./solver.ts";

/**
 * Topology pass (拓扑层): limw = clearance ≥ kClrPref ∪ medial ∪ access paths ∪ link chains of
 * the links the baseline used; multw; the whole window with a warning when the channel fails;
 * null → the baseline's path stands.
 */
export function topologyPass(sol: Solver, base: Solved): Solved | null {
  const { w } = sol, ncell = w.nx * w.ny, dist = w.dist;
  const limw = scratch.u8(ncell);
  for (let c = 0; c < ncell; c++) if (dist[c] >= kClrPref || w.medial[c]) limw[c] = 1;
  const chan0 = scratch.u8(ncell);
  for (let c = 0; c < ncell; c++) if (sol.cw3[c] && dist[c] >= kClrPref) chan0[c] = 1;
  const chains = (acc: AccessSearch, links: Iterable<number>) => {
    for (const i of links) {
      for (const s of [w.links.fromSpan[i], w.links.toSpan[i]]) {
        const r = acc.run(sol.cw3, dist, chan0, w.spans.cell[s], kLinkChainCost);
        if (r.kind === "path") { for (const c of r.cells) limw[c] = 1; }
      }
    }
  };
  // The access searches' state (20 B/cell) in a frame of its own: the price field and the
  // solves after it reuse those bytes. A run resets only the cells it touched, so a fresh
  // AccessSearch for the second chains below finds what this one would have.
  scratch.frame(() => {
    const acc = new AccessSearch(w.nx, w.ny, sol.cnt);
    const limwTarget = and(limw, sol.cw3, ncell);
    for (const a of [sol.sa, sol.ga]) {
      let r = acc.run(sol.cw3, dist, chan0, a.cell);
      let toChan0 = true;
      if (r.kind === "none") {
        if (sol.tentative) throw new Escalate(Reason.AccessNone);
        r = acc.run(sol.cw3, dist, limwTarget, a.cell);
        toChan0 = false;
      }
      if (r.kind === "path") {
        if (sol.tentative && r.cost / 100 >= sol.limit) throw new Escalate(Reason.AccessEdge);
        for (const c of r.cells) limw[c] = 1;
        // Spec 拉直的输入 › 路线掩膜 tm step 2 takes both ends' access paths; the reference build
        // (switch limwAccessInRouteMask off) only those that reached chan0 — proto_level
        // random2 rnd_001/050/106 pull one cell off only so.
        if (!toChan0 && r.cells.length > 0) sol.inp.probe?.probe.touch("limwAccessInRouteMask");
        if (toChan0 || sol.inp.limwAccessInRouteMask !== false) {
          for (const c of r.cells) sol.accessCells.push(c);
        }
      }
    }
    chains(acc, linksUsed(sol, base));
  });
  const multw = priceField(dist, kMultwLo, kMultwHi);
  sol.cnt["topology.price_cells"] += ncell;
  let p = sol.solve(limw, multw, undefined, false);
  if (!p && w.links.n > 0 && !linked(w, and(w.core, limw, ncell), sol.sa.cell, sol.ga.cell)) {
    const all = Array.from({ length: w.links.n }, (_, i) => i);
    scratch.frame(() => chains(new AccessSearch(w.nx, w.ny, sol.cnt), all));
    p = sol.solve(limw, multw, undefined, false);
  }
  if (p) return p;
  if (sol.tentative) throw new Escalate(Reason.ChannelNone);
  p = sol.solve(sol.all, multw, undefined, false);
  sol.warnings.add(Warning.ChannelRetry);
  return p;
}

/** Indices of the window links whose two spans follow each other on the baseline path. */
function linksUsed(sol: Solver, base: Solved): number[] {
  const out: number[] = [];
  const spans: Int32Array | null = base.spans;
  if (!spans) return out;
  const L = sol.w.links;
  for (let k = 1; k < spans.length; k++) {
    const a: number = spans[k - 1], b: number = spans[k];
    const X = sol.search.links, row = X.row(a);
    if (row < 0) continue;
    for (let q = X.start[row]; q < X.start[row + 1]; q++) {
      const i = X.order[q];
      if (L.toSpan[i] === b) {
        out.push(i);
        break;
      }
    }
  }
  return out;
}
