/**
 * The connectivity pre-check of solve (spec 求解器 step 1, formulas.md #97): an 8-connected flood
 * of `core ∧ lim` from the start anchor, then the off-mesh links whose source was reached and
 * whose target is in the mask, repeated until nothing grows. Reaching the goal anchor is
 * necessary for any span path on that mask.
 * @module
 */

import type { WindowGrid } from "../build_window.ts";

/** Does the flood from cell `a` reach cell `b`? */
export function linked(w: WindowGrid, mask: Uint8Array, a: number, b: number): boolean {
  const nx = w.nx, ny = w.ny;
  if (!mask[a] || !mask[b]) return false;
  const seen = new Uint8Array(nx * ny);
  const stack: number[] = [a];
  seen[a] = 1;
  const flood = () => {
    while (stack.length > 0) {
      const c = stack.pop()!, x = c % nx, y = (c / nx) | 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const bx = x + dx, by = y + dy;
          if ((dx === 0 && dy === 0) || bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
          const k = by * nx + bx;
          if (mask[k] && !seen[k]) {
            seen[k] = 1;
            stack.push(k);
          }
        }
      }
    }
  };
  for (let grown = true; grown;) {
    flood();
    grown = false;
    for (let i = 0; i < w.links.n; i++) {
      const s = w.spans.cell[w.links.fromSpan[i]], t = w.spans.cell[w.links.toSpan[i]];
      if (seen[s] && !seen[t] && mask[t]) {
        seen[t] = 1;
        stack.push(t);
        grown = true;
      }
    }
  }
  return seen[b] === 1;
}
