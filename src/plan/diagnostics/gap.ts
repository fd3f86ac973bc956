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

import { kClimb, kCS } from "../../grid/constants.ts";
import { type FallGate, RISE_FLAT_MAX, RISE_NEVER_ABOVE, riseOk } from "../../grid/rise_ok.ts";
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
  const nsp = w.spans.h.length;
  const seen = scratch.u8(nsp);
  // Each span is pushed once: the stack never holds more than the span count.
  const stack = scratch.i32(Math.max(nsp, seeds.length));
  let top = 0;
  for (const s of seeds) {
    if (!seen[s]) (seen[s] = 1), (stack[top++] = s);
  }
  // Every span is pushed once and popped once: the pushes are the flood's steps.
  pops[0] += top + spread(w, mask, usable, seen, stack, top, reverse, gate);
  return seen;
}

/**
 * The forward flood from `start` over the core mask, given `reached`: the spans the baseline
 * search reached from `start` on the core cells holding a usable span (its last run; 基线,
 * 求解器 step 3). That search expands by the flood's rules but for one thing: a diagonal step
 * needs both corner cells in its mask, the flood's only in the core. So the flood is `reached`
 * closed over the diagonal steps past a core cell without a usable span: only the reached spans
 * beside such a cell are expanded again (a step of the search's own is never new), and whatever
 * they add is flooded as usual. Same spans as {@link flood} from `start`, far fewer steps
 * (issue 57: the flood was most of the gap location on full-window failing legs).
 */
export function floodFromReached(
  w: WindowGrid,
  usable: Uint8Array,
  reached: Uint8Array,
  start: number,
  gate: FallGate | null,
  pops: number[],
): Uint8Array {
  const sp = w.spans, nx = w.nx, ny = w.ny, nsp = sp.h.length, core = w.core;
  const seen = scratch.u8(nsp);
  seen.set(reached);
  seen[start] = 1;
  // Cells holding a usable span, one bit each (the search's mask is core ∧ this).
  const hasU = scratch.u32((nx * ny + 31) >>> 5);
  for (let s = 0; s < nsp; s++) {
    if (usable[s]) hasU[sp.cell[s] >>> 5] |= 1 << (sp.cell[s] & 31);
  }
  const bare = (c: number) => core[c] === 1 && ((hasU[c >>> 5] >>> (c & 31)) & 1) === 0;
  const stack = scratch.i32(nsp);
  let top = 0, count = 0;
  for (let s = 0; s < nsp; s++) {
    if (!seen[s]) continue;
    count++;
    const c = sp.cell[s], x = c % nx, y = (c / nx) | 0;
    if (
      (x > 0 && bare(c - 1)) || (x + 1 < nx && bare(c + 1)) ||
      (y > 0 && bare(c - nx)) || (y + 1 < ny && bare(c + nx))
    ) stack[top++] = s;
  }
  pops[0] += count + spread(w, core, usable, seen, stack, top, false, gate);
  return seen;
}

/**
 * Pops `stack[0 .. top)` and pushes every unseen span a popped one steps to (or, `reverse`,
 * steps from); returns the pushes.
 */
function spread(
  w: WindowGrid,
  mask: Uint8Array,
  usable: Uint8Array,
  seen: Uint8Array,
  stack: Int32Array,
  top: number,
  reverse: boolean,
  gate: FallGate | null,
): number {
  const sp = w.spans, nx = w.nx, ny = w.ny, nsp = sp.h.length, H = sp.h, CS = sp.cs;
  // Links by the end the flood leaves from: forward source → target, reverse target → source.
  const L = w.links;
  const links = new LinkIndex(reverse ? L.toSpan : L.fromSpan, L.n, nsp);
  const other = reverse ? L.fromSpan : L.toSpan;
  let pushed = 0;
  while (top > 0) {
    const u = stack[--top];
    const cu = sp.cell[u], x = cu % nx, y = (cu / nx) | 0, hu = H[u];
    for (let k = 0; k < 8; k++) {
      const dx = DX[k], dy = DY[k], bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const cb = by * nx + bx;
      if (!mask[cb]) continue;
      if (k >= 4 && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      const j = occIndex(sp, cb);
      if (j < 0) continue;
      const banned = reverse
        ? stepBannedK(w.steps, cb, cu, OPPOSITE[k])
        : stepBannedK(w.steps, cu, cb, k);
      if (banned) continue;
      for (let v = CS[j]; v < CS[j + 1]; v++) {
        if (seen[v] || !usable[v]) continue;
        // RiseOk of the step, in its own direction: yes in the flat band and no above
        // RISE_NEVER_ABOVE whatever the grid (rise_ok.ts; same verdicts, no call).
        const dh = reverse ? hu - H[v] : H[v] - hu;
        if (dh > RISE_NEVER_ABOVE) continue;
        if (dh < -kClimb || dh > RISE_FLAT_MAX) {
          const ok = reverse
            ? riseOk(sp, bx, by, H[v], -dx, -dy, hu, gate)
            : riseOk(sp, x, y, hu, dx, dy, H[v], gate);
          if (!ok) continue;
        }
        seen[v] = 1;
        stack[top++] = v;
        pushed++;
      }
    }
    // Links out of u: most spans have none, and one bit says so (link_index.ts).
    const row = links.row(u);
    if (row < 0) continue;
    for (let q = links.start[row], qe = links.start[row + 1]; q < qe; q++) {
      const v = other[links.order[q]];
      if (!seen[v] && usable[v] && mask[sp.cell[v]]) (seen[v] = 1), (stack[top++] = v), pushed++;
    }
  }
  return pushed;
}
/**
 * Locates the gap between `start` and the spans of `goals`; null when an end is empty.
 * `reached`, when given, is the baseline search's reach (see {@link floodFromReached}).
 */
export function locateGap(
  w: WindowGrid,
  usable: Uint8Array,
  start: number,
  goals: readonly number[],
  gate: FallGate | null,
  counters: WorkCounters | null = null,
  reached: Uint8Array | null = null,
): Gap | null {
  if (start < 0 || goals.length === 0) return null;
  const pops = [0];
  try {
    return gapIn(w, usable, start, goals, gate, pops, reached);
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
  reached: Uint8Array | null,
): Gap | null {
  // The floods and the distance transform are window-sized scratch (scratch.ts).
  return scratch.frame(() => {
    const sp = w.spans, nx = w.nx;
    const ra = reached
      ? floodFromReached(w, usable, reached, start, gate, pops)
      : flood(w, w.core, usable, [start], false, gate, pops);
    const rb = flood(w, w.core, usable, goals, true, gate, pops);
    const box = transformBox(w, rb, sp.cell[start], sp.cell[goals[0]]);
    const best = nearestPair(w, ra, rb, box);
    if (best === null) return null;
    const centre = (c: number): Pt => [
      (w.x0 + (c % nx) + 0.5) * kCS,
      (w.y0 + ((c / nx) | 0) + 0.5) * kCS,
    ];
    const a = centre(best[0]), b = centre(best[1]);
    return { start: a, goal: b, distance: Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) };
  });
}

/** A cell rectangle of the window: columns x0..x1, rows y0..y1 (inclusive). */
export interface CellBox {
  /** First column. */
  x0: number;
  /** First row. */
  y0: number;
  /** Last column. */
  x1: number;
  /** Last row. */
  y1: number;
}

/**
 * Where the distance transform needs to run (issue 57): rb's bounding box grown by m cells,
 * m = ⌊chamfer(start cell, a goal cell) / 100⌋, clipped to the window. Exact, because the two
 * passes give every cell its chamfer distance to the nearest rb cell (a 3×3 chamfer on a
 * rectangle: one forward and one backward pass suffice), and
 * - inside a rectangle holding every rb cell, no candidate from a neighbour outside ever wins
 *   (strict `<`): a cell one step further out from all rb cells is ≥ 41 further from each, so
 *   that candidate exceeds the one from the neighbour's projection back into the rectangle (or
 *   the cell's own value) — D and src there are those of the whole-window passes;
 * - an ra cell outside it lies more than m cells from every rb cell, D > 100·m ≥ the start
 *   cell's D (the start is in ra, its chamfer distance to the goal cell bounds its D), so it is
 *   never the nearest (not even on a tie).
 */
export function transformBox(
  w: WindowGrid,
  rb: Uint8Array,
  startCell: number,
  goalCell: number,
): CellBox {
  const sp = w.spans, nx = w.nx, ny = w.ny;
  let x0 = nx, y0 = ny, x1 = -1, y1 = -1;
  for (let s = 0; s < rb.length; s++) {
    if (!rb[s]) continue;
    const c = sp.cell[s], x = c % nx, y = (c / nx) | 0;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const ax = Math.abs(startCell % nx - goalCell % nx);
  const ay = Math.abs(((startCell / nx) | 0) - ((goalCell / nx) | 0));
  const m = Math.floor(
    (141 * Math.min(ax, ay) + 100 * (Math.max(ax, ay) - Math.min(ax, ay))) / 100,
  );
  return {
    x0: Math.max(0, x0 - m),
    y0: Math.max(0, y0 - m),
    x1: Math.min(nx - 1, x1 + m),
    y1: Math.min(ny - 1, y1 + m),
  };
}

/**
 * The two chamfer passes over `box` from rb's cells, then the ra cell of the box with the
 * smallest distance (lowest cell index on ties) and its source: [ra cell, rb cell] (window cell
 * indices), or null.
 */
export function nearestPair(
  w: WindowGrid,
  ra: Uint8Array,
  rb: Uint8Array,
  box: CellBox,
): [number, number] | null {
  const sp = w.spans, nx = w.nx;
  const bw = box.x1 - box.x0 + 1, bh = box.y1 - box.y0 + 1;
  if (bw <= 0 || bh <= 0) return null;
  const n = bw * bh;
  const D = scratch.i32(n, 0x7fffffff), src = scratch.i32(n, -1);
  const inRa = scratch.u8(n);
  for (let s = 0; s < sp.h.length; s++) {
    if (!rb[s] && !ra[s]) continue;
    const c = sp.cell[s], x = c % nx - box.x0, y = ((c / nx) | 0) - box.y0;
    if (x < 0 || y < 0 || x >= bw || y >= bh) continue;
    const k = y * bw + x;
    if (rb[s]) (D[k] = 0), (src[k] = c);
    if (ra[s]) inRa[k] = 1;
  }
  // The two chamfer passes, each cell's candidates in the order of the module doc; the current
  // best is kept in locals (a candidate from an unreached cell, 0x7fffffff + w, never wins).
  let t = 0;
  for (let y = 0; y < bh; y++) {
    for (let x = 0, c = y * bw; x < bw; x++, c++) {
      let dc = D[c], sc = src[c];
      if (y > 0) {
        const q = c - bw;
        if (x > 0 && (t = D[q - 1] + 141) < dc) (dc = t), (sc = src[q - 1]);
        if ((t = D[q] + 100) < dc) (dc = t), (sc = src[q]);
        if (x + 1 < bw && (t = D[q + 1] + 141) < dc) (dc = t), (sc = src[q + 1]);
      }
      if (x > 0 && (t = D[c - 1] + 100) < dc) (dc = t), (sc = src[c - 1]);
      (D[c] = dc), (src[c] = sc);
    }
  }
  for (let y = bh - 1; y >= 0; y--) {
    for (let x = bw - 1, c = y * bw + bw - 1; x >= 0; x--, c--) {
      let dc = D[c], sc = src[c];
      if (y + 1 < bh) {
        const q = c + bw;
        if (x + 1 < bw && (t = D[q + 1] + 141) < dc) (dc = t), (sc = src[q + 1]);
        if ((t = D[q] + 100) < dc) (dc = t), (sc = src[q]);
        if (x > 0 && (t = D[q - 1] + 141) < dc) (dc = t), (sc = src[q - 1]);
      }
      if (x + 1 < bw && (t = D[c + 1] + 100) < dc) (dc = t), (sc = src[c + 1]);
      (D[c] = dc), (src[c] = sc);
    }
  }
  let best = -1;
  for (let c = 0; c < n; c++) {
    if (inRa[c] && src[c] >= 0 && (best < 0 || D[c] < D[best])) best = c;
  }
  if (best < 0) return null;
  return [(box.y0 + ((best / bw) | 0)) * nx + box.x0 + (best % bw), src[best]];
}
