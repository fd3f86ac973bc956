/**
 * The connectivity pre-check of solve (spec 求解器 step 1, formulas.md #97): an 8-connected flood
 * of `core ∧ lim` from the start anchor, then the off-mesh links whose source was reached and
 * whose target is in the mask, repeated until nothing grows. Reaching the goal anchor is
 * necessary for any span path on that mask.
 * @module
 */

import type { WindowGrid } from "../../window/window_grid.ts";
import { scratch } from "../../scratch.ts";

/** Does the flood from cell `a` reach cell `b`? (It stops as soon as `b` is reached.) */
export function linked(w: WindowGrid, mask: Uint8Array, a: number, b: number): boolean {
  if (!mask[a] || !mask[b]) return false;
  if (a === b) return true;
  // The seen mask is window-sized scratch (scratch.ts).
  return scratch.frame(() => reaches(w, mask, a, b));
}

function reaches(w: WindowGrid, mask: Uint8Array, a: number, b: number): boolean {
  const nx = w.nx, ny = w.ny;
  const seen = scratch.u8(nx * ny);
  // Each cell is pushed at most once, but the stack rarely holds more than a flood front: it
  // starts small and doubles (a window-sized stack was 4 bytes a cell to clear per solve).
  let stack = new Int32Array(Math.min(nx * ny, 4096)), sp = 0;
  const push = (k: number) => {
    if (sp === stack.length) {
      const bigger = new Int32Array(Math.min(nx * ny, 2 * stack.length));
      bigger.set(stack);
      stack = bigger;
    }
    stack[sp++] = k;
  };
  push(a);
  seen[a] = 1;
  // Pushes k if it is an unseen mask cell; true when k is the goal.
  const flood = (): boolean => {
    while (sp > 0) {
      const c = stack[--sp], y = (c / nx) | 0, x = c - y * nx;
      const y0 = y > 0 ? -1 : 0, y1 = y + 1 < ny ? 1 : 0;
      const x0 = x > 0 ? -1 : 0, x1 = x + 1 < nx ? 1 : 0;
      for (let dy = y0; dy <= y1; dy++) {
        for (let dx = x0; dx <= x1; dx++) {
          const k = c + dy * nx + dx;
          if (mask[k] && !seen[k]) {
            if (k === b) return true;
            seen[k] = 1;
            push(k);
          }
        }
      }
    }
    return false;
  };
  for (let grown = true; grown;) {
    if (flood()) return true;
    grown = false;
    for (let i = 0; i < w.links.n; i++) {
      const s = w.spans.cell[w.links.fromSpan[i]], t = w.spans.cell[w.links.toSpan[i]];
      if (seen[s] && !seen[t] && mask[t]) {
        if (t === b) return true;
        seen[t] = 1;
        push(t);
        grown = true;
      }
    }
  }
  return false;
}
