/**
 * The geometry pass of routeWindow (spec 几何层): the corridor band around the topology cells and
 * its open area, the price mult over the corridor's box, and the solver running Lazy Theta* with
 * the open-area visibility on the topology pass's mask ∧ band; outside tentative windows the mask
 * without the band. Its SpanAstar work counts to the geometry counters (solver.ts `phase`).
 * @module
 */

import { and } from "../window/masks.ts";
import { corridor } from "./search/corridor.ts";
import { kMultHi, kMultLo, priceField } from "./search/price_field.ts";
import { Visibility } from "./visibility/visibility.ts";
import { kTrustMargin } from "../window/window_tiers.ts";
import { Escalate, Reason, type Solved } from "./route_types.ts";
import type { Solver } from "./solver.ts";

/**
 * Geometry pass (几何层): the corridor band from the topology cells, the open area, Lazy
 * Theta* on limw ∧ band with mult and vis; outside tentative windows limw without the band;
 * null → the topology path stands.
 */
export function geometryPass(sol: Solver, topo: Solved): Solved | null {
  const { w } = sol, ncell = w.nx * w.ny, nx = w.nx, ny = w.ny;
  const cor = corridor(w.dist, nx, ny, topo.cells), box = cor.box;
  sol.solidc = cor.solidc;
  if (box) sol.cnt["geometry.corridor_cells"] += (box.x1 - box.x0) * (box.y1 - box.y0);
  if (sol.tentative && box) {
    // Band cells lie in the corridor's box: only there can one sit in the trust margin.
    const m = kTrustMargin;
    for (let y = box.y0; y < box.y1; y++) {
      for (let x = box.x0, c = y * nx + box.x0; x < box.x1; x++, c++) {
        if (!cor.band[c]) continue;
        if (x < m || y < m || x >= nx - m || y >= ny - m) throw new Escalate(Reason.CorridorEdge);
      }
    }
  }
  // The mask the topology pass succeeded on (the channel, or the whole window after its retry):
  // the golden routes follow this, not the bare channel limw, on every comparable leg.
  const limw = topo.mask;
  const vis = new Visibility(w, null, cor.solidc);
  const theta = {
    vis,
    relaxClosed: sol.inp.relaxClosed === true,
    dropChord: sol.inp.chordDropExclusion === false,
    probe: sol.inp.probe ?? null,
  };
  // The band's search reads prices only on its mask, inside the corridor's box; the fallback
  // on limw prices the whole window.
  const bandPrice = priceField(w.dist, kMultLo, kMultHi, {
    nx,
    box: box ?? { x0: 0, y0: 0, x1: 0, y1: 0 },
  });
  if (box) sol.cnt["geometry.price_cells"] += (box.x1 - box.x0) * (box.y1 - box.y0);
  const p = sol.solve(and(limw, cor.band, ncell), bandPrice, theta, false, false);
  if (p) return p;
  if (sol.tentative) throw new Escalate(Reason.CorridorNone);
  sol.cnt["geometry.price_cells"] += ncell;
  return sol.solve(limw, priceField(w.dist, kMultLo, kMultHi), theta, false, false);
}
