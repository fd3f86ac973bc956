/**
 * Gap location (spec 诊断 › 断开处的定位, formulas.md #139): when the baseline finds no route in the
 * final tier, the nearest pair of cells between the spans the start reaches (ra, a forward flood)
 * and the spans that reach the goal (rb, a reverse flood judging each step v → u in its own
 * direction), both on the core mask with the search's expansion rules; a chamfer distance
 * transform (100 / 141; forward NW, N, NE, W; backward SE, S, SW, E) from rb's cells gives each
 * cell its nearest rb cell; the ra cell with the smallest distance (lowest index on ties) and its
 * source are the gap, their centre distance in px the gap distance (0 when the sides overlap).
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import { type FallGate, riseOk } from "../../grid/rise_ok.ts";
import { occIndex } from "../../grid/span_grid.ts";
import type { WindowGrid } from "../window/window_grid.ts";
import { DX, DY, stepBannedK } from "../route/search/span_astar.ts";
import { LinkIndex } from "../route/search/link_index.ts";
import type { Pt } from "../types.ts";
import { scratch } from "../scratch.ts";
import type { WorkCounters } from "../counters.ts";

/** A located gap. */
export interface Gap {
  /** Start-side cell centre, px. */
  start: Pt;
  /** Goal-side cell centre, px. */
  goal: Pt;
  /** Distance between the two centres, px. */
  distance: number;
}

/** The opposite neighbour of each DX/DY neighbour k. */
const OPPOSITE = [2, 3, 0, 1, 6, 7, 4, 5];

/**
 * Floods spans from `seeds` over `mask` with the search's expansion rules (step bans, RiseOk
 * with the FallGate, off-mesh links); `reverse` judges each step from the new span, so the result
 * is the spans that reach a seed. Returns one byte per span (scratch: call inside a frame).
 */
export function flood(
  w: WindowGrid,
  mask: Uint8Array,
  usable: Uint8Array,
  seeds: readonly number[],
  reverse: boolean,
  gate: FallGate | null,
  pops: number[],
): Uint8Array {
  const sp = w.spans, nx = w.nx, ny = w.ny, nsp = sp.h.length;
  const seen = scratch.u8(nsp);
  // Each span is pushed once: the stack never holds more than the span count.
  const stack = scratch.i32(Math.max(nsp, seeds.length));
  let top = 0;
  for (const s of seeds) {
    if (!seen[s]) (seen[s] = 1), (stack[top++] = s);
  }
  // Links by the end the flood leaves from: forward source → target, reverse target → source.
  const L = w.links;
  const links = new LinkIndex(reverse ? L.toSpan : L.fromSpan, L.n, nsp);
  const other = reverse ? L.fromSpan : L.toSpan;
  // Every span is pushed once and popped once: the pushes are the flood's steps.
  let flooded = top;
  while (top > 0) {
    const u = stack[--top];
    const cu = sp.cell[u], x = cu % nx, y = (cu / nx) | 0;
    for (let k = 0; k < 8; k++) {
      const dx = DX[k], dy = DY[k], bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const cb = by * nx + bx;
      if (!mask[cb]) continue;
      if (k >= 4 && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      const j = occIndex(sp, cb);
      if (j < 0) continue;
      for (let v = sp.cs[j]; v < sp.cs[j + 1]; v++) {
        if (seen[v] || !usable[v]) continue;
        const ok = reverse
          ? !stepBannedK(w.steps, cb, cu, OPPOSITE[k]) &&
            riseOk(sp, bx, by, sp.h[v], -dx, -dy, sp.h[u], gate)
          : !stepBannedK(w.steps, cu, cb, k) &&
            riseOk(sp, x, y, sp.h[u], dx, dy, sp.h[v], gate);
        if (!ok) continue;
        seen[v] = 1;
        stack[top++] = v;
        flooded++;
      }
    }
    // Links out of u: most spans have none, and one bit says so (link_index.ts).
    const row = links.row(u);
    if (row < 0) continue;
    for (let q = links.start[row], qe = links.start[row + 1]; q < qe; q++) {
      const v = other[links.order[q]];
      if (!seen[v] && usable[v] && mask[sp.cell[v]]) (seen[v] = 1), (stack[top++] = v), flooded++;
    }
  }
  pops[0] += flooded;
  return seen;
}

/** Locates the gap between `start` and the spans of `goals`; null when an end is empty. */
export function locateGap(
  w: WindowGrid,
  usable: Uint8Array,
  start: number,
  goals: readonly number[],
  gate: FallGate | null,
  counters: WorkCounters | null = null,
): Gap | null {
  if (start < 0 || goals.length === 0) return null;
  const pops = [0];
  try {
    return gapIn(w, usable, start, goals, gate, pops);
  } finally {
    if (counters) counters["gap.pops"] += pops[0];
  }
}

function gapIn(
  w: WindowGrid,
  usable: Uint8Array,
  start: number,
  goals: readonly number[],
  gate: FallGate | null,
  pops: number[],
): Gap | null {
  // The floods and the distance transform are window-sized scratch (scratch.ts).
  return scratch.frame(() => {
    const sp = w.spans, nx = w.nx, ny = w.ny, n = nx * ny;
    const mask = w.core;
    const ra = flood(w, mask, usable, [start], false, gate, pops);
    const rb = flood(w, mask, usable, goals, true, gate, pops);
    const D = scratch.i32(n, 0x7fffffff), src = scratch.i32(n, -1);
    const inRa = scratch.u8(n);
    for (let s = 0; s < sp.h.length; s++) {
      if (rb[s]) (D[sp.cell[s]] = 0), (src[sp.cell[s]] = sp.cell[s]);
      if (ra[s]) inRa[sp.cell[s]] = 1;
    }
    // The two chamfer passes, each cell's candidates in the order of the module doc; the current
    // best is kept in locals (a candidate from an unreached cell, 0x7fffffff + w, never wins).
    let t = 0;
    for (let y = 0; y < ny; y++) {
      for (let x = 0, c = y * nx; x < nx; x++, c++) {
        let dc = D[c], sc = src[c];
        if (y > 0) {
          const q = c - nx;
          if (x > 0 && (t = D[q - 1] + 141) < dc) (dc = t), (sc = src[q - 1]);
          if ((t = D[q] + 100) < dc) (dc = t), (sc = src[q]);
          if (x + 1 < nx && (t = D[q + 1] + 141) < dc) (dc = t), (sc = src[q + 1]);
        }
        if (x > 0 && (t = D[c - 1] + 100) < dc) (dc = t), (sc = src[c - 1]);
        (D[c] = dc), (src[c] = sc);
      }
    }
    for (let y = ny - 1; y >= 0; y--) {
      for (let x = nx - 1, c = y * nx + nx - 1; x >= 0; x--, c--) {
        let dc = D[c], sc = src[c];
        if (y + 1 < ny) {
          const q = c + nx;
          if (x + 1 < nx && (t = D[q + 1] + 141) < dc) (dc = t), (sc = src[q + 1]);
          if ((t = D[q] + 100) < dc) (dc = t), (sc = src[q]);
          if (x > 0 && (t = D[q - 1] + 141) < dc) (dc = t), (sc = src[q - 1]);
        }
        if (x + 1 < nx && (t = D[c + 1] + 100) < dc) (dc = t), (sc = src[c + 1]);
        (D[c] = dc), (src[c] = sc);
      }
    }
    let best = -1;
    for (let c = 0; c < n; c++) {
      if (inRa[c] && src[c] >= 0 && (best < 0 || D[c] < D[best])) best = c;
    }
    if (best < 0) return null;
    const centre = (c: number): Pt => [
      (w.x0 + (c % nx) + 0.5) * kCS,
      (w.y0 + ((c / nx) | 0) + 0.5) * kCS,
    ];
    const a = centre(best), b = centre(src[best]);
    return { start: a, goal: b, distance: Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) };
  });
}
