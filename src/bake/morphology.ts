/**
 * FillHoles and CloseCracks (spec 预烘场 › 填洞与合缝): the two morphological steps that turn
 * the core samples into the Core mask. Masks are `Uint8Array` over `nx × ny` cells (1 = set).
 * @module
 */

import { kCrackReach, kCrackRounds, kHoleMaxCells } from "../grid/constants.ts";

/**
 * FillHoles (formulas #39): every 4-connected component of cells outside `mask` that has at
 * most `maxCells` cells, does not touch the window border and contains no `prot` cell is set in
 * the returned copy of `mask`.
 */
export function fillHoles(
  mask: Uint8Array,
  prot: Uint8Array | null,
  nx: number,
  ny: number,
  maxCells = kHoleMaxCells,
): Uint8Array {
  const out = mask.slice();
  const seen = new Uint8Array(nx * ny);
  const stack = new Int32Array(nx * ny);
  const comp = new Int32Array(nx * ny);
  for (let c0 = 0; c0 < nx * ny; c0++) {
    if (mask[c0] !== 0 || seen[c0] !== 0) continue;
    let sp = 0, nc = 0, border = false, bad = false;
    stack[sp++] = c0;
    seen[c0] = 1;
    while (sp > 0) {
      const c = stack[--sp];
      comp[nc++] = c;
      if (prot !== null && prot[c] !== 0) bad = true;
      const x = c % nx, y = (c - x) / nx;
      if (x === 0 || y === 0 || x === nx - 1 || y === ny - 1) border = true;
      if (x > 0) sp = visit(c - 1, mask, seen, stack, sp);
      if (x < nx - 1) sp = visit(c + 1, mask, seen, stack, sp);
      if (y > 0) sp = visit(c - nx, mask, seen, stack, sp);
      if (y < ny - 1) sp = visit(c + nx, mask, seen, stack, sp);
    }
    if (!border && !bad && nc <= maxCells) {
      for (let k = 0; k < nc; k++) out[comp[k]] = 1;
    }
  }
  return out;
}

/** Sides of a mask for {@link edgeHole}: x = 0, x = nx − 1, y = 0, y = ny − 1. */
export const SIDE_LEFT = 1, SIDE_RIGHT = 2, SIDE_TOP = 4, SIDE_BOTTOM = 8;

/**
 * Whether FillHoles leaves some component alone only because it touches the window edge: a
 * 4-connected component of cells outside `mask` with a cell on one of `sides` (SIDE_* bits),
 * at most `maxCells` cells and no `prot` cell. A window that cuts such a component cannot tell
 * whether the whole zone fills it (spec 填洞与合缝). Floods from the cells of those sides only
 * and stops a flood past `maxCells` cells or at a protected cell. With `depth`, the mask is a
 * crop at (`depth.x0`, `depth.y0`) of a `depth.nx × depth.ny` window and only components with
 * a cell at least `depth.min` cells from every window edge count.
 */
export function edgeHole(
  mask: Uint8Array,
  prot: Uint8Array | null,
  nx: number,
  ny: number,
  sides: number,
  depth?: { x0: number; y0: number; nx: number; ny: number; min: number },
  maxCells = kHoleMaxCells,
): boolean {
  if (sides === 0) return false;
  const seen = new Uint8Array(nx * ny);
  // A flood pops at most maxCells + 1 cells and each pop pushes at most 4.
  const stack = new Int32Array(4 * maxCells + 8);
  const flood = (c0: number): boolean => {
    if (mask[c0] !== 0 || seen[c0] !== 0) return false;
    let sp = 0, nc = 0, deep = depth === undefined;
    stack[sp++] = c0;
    seen[c0] = 1;
    while (sp > 0) {
      const c = stack[--sp];
      if (++nc > maxCells || (prot !== null && prot[c] !== 0)) return false;
      const x = c % nx, y = (c - x) / nx;
      if (!deep) {
        const wx = x + depth!.x0, wy = y + depth!.y0;
        deep = Math.min(wx, wy, depth!.nx - 1 - wx, depth!.ny - 1 - wy) >= depth!.min;
      }
      if (x > 0) sp = visit(c - 1, mask, seen, stack, sp);
      if (x < nx - 1) sp = visit(c + 1, mask, seen, stack, sp);
      if (y > 0) sp = visit(c - nx, mask, seen, stack, sp);
      if (y < ny - 1) sp = visit(c + nx, mask, seen, stack, sp);
    }
    return deep;
  };
  for (let y = 0; y < ny; y++) {
    if ((sides & SIDE_LEFT) !== 0 && flood(y * nx)) return true;
    if ((sides & SIDE_RIGHT) !== 0 && flood(y * nx + nx - 1)) return true;
  }
  for (let x = 0; x < nx; x++) {
    if ((sides & SIDE_TOP) !== 0 && flood(x)) return true;
    if ((sides & SIDE_BOTTOM) !== 0 && flood((ny - 1) * nx + x)) return true;
  }
  return false;
}

function visit(c: number, mask: Uint8Array, seen: Uint8Array, stack: Int32Array, sp: number) {
  if (mask[c] === 0 && seen[c] === 0) {
    seen[c] = 1;
    stack[sp++] = c;
  }
  return sp;
}

/**
 * CloseCracks (formulas #40): up to 4 rounds; in each round a cell in `lay`, not in the core and
 * not protected joins the core when along x, or along y, a core cell lies within 1..k cells on
 * BOTH sides (k = 2), reading the core as it was at the start of the round. Stops early when a
 * round adds nothing. Returns the new core (the input is not modified).
 */
export function closeCracks(
  lay: Uint8Array,
  core: Uint8Array,
  prot: Uint8Array | null,
  nx: number,
  ny: number,
  k = kCrackReach,
  rounds = kCrackRounds,
): Uint8Array {
  let cur = core.slice();
  for (let r = 0; r < rounds; r++) {
    const next = cur.slice();
    let added = 0;
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const c = y * nx + x;
        if (lay[c] === 0 || cur[c] !== 0 || (prot !== null && prot[c] !== 0)) continue;
        const horiz = near(cur, c, x, -1, k, 0) && near(cur, c, x, 1, k, nx - 1);
        const vert = horiz ? true : near(cur, c, y, -nx, k, 0) &&
          near(cur, c, y, nx, k, ny - 1);
        if (horiz || vert) {
          next[c] = 1;
          added++;
        }
      }
    }
    cur = next;
    if (added === 0) break;
  }
  return cur;
}

/** Is there a core cell 1..k steps of `step` from c, staying inside [0, lim] on that axis? */
function near(
  core: Uint8Array,
  c: number,
  coord: number,
  step: number,
  k: number,
  lim: number,
): boolean {
  const dir = step > 0 ? 1 : -1;
  for (let s = 1; s <= k; s++) {
    const q = coord + dir * s;
    if (dir < 0 ? q < lim : q > lim) return false;
    if (core[c + step * s] !== 0) return true;
  }
  return false;
}
