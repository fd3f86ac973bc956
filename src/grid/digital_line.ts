/**
 * The digital line (spec 视线 › 取格): the cells a chord from cell a to cell b walks through,
 * one per step along the major axis, each the cell nearest the line; consecutive cells are
 * 8-neighbours, so a chord splits into cell steps exactly as the topology pass walks them.
 * @module
 */

import { kCS, rint } from "./constants.ts";

/**
 * End cell of a point on one axis (formulas #116): `trunc((p − o)/kCS)`.
 */
export function lineEndCell(p: number, o: number): number {
  return Math.trunc((p - o) / kCS);
}

/** Number of cells of the digital line from a to b: `max(|Δx|, |Δy|, 1) + 1`. */
export function digitalLineLength(ax: number, ay: number, bx: number, by: number): number {
  return Math.max(Math.abs(bx - ax), Math.abs(by - ay), 1) + 1;
}

/**
 * Visits the digital line (formulas #116): `n = max(|bx−ax|, |by−ay|, 1)`,
 * `c_k = (ax + rint((bx−ax)·k/n), ay + rint((by−ay)·k/n))`, k = 0..n, rint = half to even.
 * Half-way ties therefore depend on direction (forward (0,0)→(2,1) takes (1,0), the reverse
 * takes (1,1)). The visitor returns `false` to stop early; the function returns false then.
 */
export function walkDigitalLine(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  visit: (x: number, y: number, k: number) => boolean | void,
): boolean {
  const ddx = bx - ax, ddy = by - ay;
  const n = Math.max(Math.abs(ddx), Math.abs(ddy), 1);
  for (let k = 0; k <= n; k++) {
    const x = ax + rint(ddx * k / n) + 0; // "+ 0" folds −0 into 0
    const y = ay + rint(ddy * k / n) + 0;
    if (visit(x, y, k) === false) return false;
  }
  return true;
}

/**
 * The digital line of {@link walkDigitalLine} into `out` as (x, y) pairs, `out[0 .. 2n + 2)`,
 * by integers (no division or rint per cell: the sight checks' hot path). Returns the number
 * of cells n + 1. `out` must hold 2·{@link digitalLineLength} entries.
 */
export function digitalLineInto(
  out: Int32Array,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const n = Math.max(Math.abs(bx - ax), Math.abs(by - ay), 1);
  digitalAxis(out, 0, ax, bx - ax, n);
  digitalAxis(out, 1, ay, by - ay, n);
  return n + 1;
}

/**
 * One axis of the digital line (formulas #116): `out[2k + off] = a + rint(d·k/n)`, k = 0..n,
 * with |d| ≤ n, by integers: q = |d|·k = fl·n + rem kept incrementally, rounded half to even
 * by comparing 2·rem with n, and the sign put back (half-to-even rounding is odd-symmetric).
 * Equal to the double formula: d·k is exact, an exact half is representable, and any other
 * quotient lies ≥ 1/(2n) from a half, far beyond the division's rounding error.
 */
function digitalAxis(out: Int32Array, off: number, a: number, d: number, n: number): void {
  const m = d < 0 ? -d : d, sg = d < 0 ? -1 : 1;
  let fl = 0, rem = 0;
  out[off] = a;
  for (let k = 1; k <= n; k++) {
    rem += m;
    if (rem >= n) (rem -= n), fl++;
    const r2 = 2 * rem;
    const v = r2 < n ? fl : r2 > n ? fl + 1 : fl + (fl & 1);
    out[2 * k + off] = a + sg * v;
  }
}

/**
 * The smallest `field[y·nx + x]` over the cells of the digital line a → b that lie in the
 * `nx × ny` grid (Infinity when none does): {@link digitalLineInto}'s cells, both axes stepped
 * together while walking, with no buffer in between (SegMinClr, spec 拐点抬升).
 */
export function digitalLineMin(
  field: ArrayLike<number>,
  nx: number,
  ny: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax, dy = by - ay;
  const n = Math.max(Math.abs(dx), Math.abs(dy), 1);
  const mx = dx < 0 ? -dx : dx, sx = dx < 0 ? -1 : 1;
  const my = dy < 0 ? -dy : dy, sy = dy < 0 ? -1 : 1;
  let m = Infinity;
  if (ax >= 0 && ay >= 0 && ax < nx && ay < ny) m = Math.min(m, field[ay * nx + ax]);
  let flx = 0, remx = 0, fly = 0, remy = 0;
  for (let k = 1; k <= n; k++) {
    remx += mx;
    if (remx >= n) (remx -= n), flx++;
    remy += my;
    if (remy >= n) (remy -= n), fly++;
    const rx = 2 * remx, ry = 2 * remy;
    const vx = rx < n ? flx : rx > n ? flx + 1 : flx + (flx & 1);
    const vy = ry < n ? fly : ry > n ? fly + 1 : fly + (fly & 1);
    const x = ax + sx * vx, y = ay + sy * vy;
    if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
    m = Math.min(m, field[y * nx + x]);
  }
  return m;
}

/** The digital line as a flat `Int32Array` of (x, y) pairs. */
export function digitalLineCells(ax: number, ay: number, bx: number, by: number): Int32Array {
  const out = new Int32Array(2 * digitalLineLength(ax, ay, bx, by));
  walkDigitalLine(ax, ay, bx, by, (x, y, k) => {
    out[2 * k] = x;
    out[2 * k + 1] = y;
  });
  return out;
}
