/**
 * Step bans on the window grid (spec 台阶禁行; 两段搜索 › 邻接): the per-cell bits that forbid a
 * step between two 8-neighbours, read by both searches and the sight check. The neighbour order
 * DX/DY is the spec's expansion order (orthogonal steps first, then the diagonals), which decides
 * ties.
 * @module
 */

/** Neighbour order: the four orthogonal steps, then the diagonals. */
export const DX = [1, 0, -1, 0, 1, -1, -1, 1];
/** Neighbour order, y. */
export const DY = [0, 1, 0, -1, 1, 1, -1, -1];

/**
 * Is the step from window cell a to its 8-neighbour b banned? Direction d of STEP_DIRS
 * ((1,0), (0,1), (1,1), (1,−1)) is stored on the cell it starts from: bit 2d forbids c → c+dir,
 * bit 2d+1 forbids c+dir → c.
 */
export function stepBanned(
  steps: Uint8Array,
  a: number,
  b: number,
  dx: number,
  dy: number,
): boolean {
  const d = dirIndex(dx, dy);
  if (d >= 0) return ((steps[a] >> (2 * d)) & 1) !== 0;
  const r = dirIndex(-dx, -dy);
  return ((steps[b] >> (2 * r + 1)) & 1) !== 0;
}

function dirIndex(dx: number, dy: number): number {
  if (dx === 1 && dy === 0) return 0;
  if (dx === 0 && dy === 1) return 1;
  if (dx === 1 && dy === 1) return 2;
  if (dx === 1 && dy === -1) return 3;
  return -1;
}

/** Per neighbour k of DX/DY: 1 when {@link stepBanned} reads the bit on a (else on b). */
const BAN_ON_A = new Uint8Array(8);
/** Per neighbour k: the bit {@link stepBanned} reads. */
const BAN_SHIFT = new Uint8Array(8);
for (let k = 0; k < 8; k++) {
  const d = dirIndex(DX[k], DY[k]);
  BAN_ON_A[k] = d >= 0 ? 1 : 0;
  BAN_SHIFT[k] = d >= 0 ? 2 * d : 2 * dirIndex(-DX[k], -DY[k]) + 1;
}

/**
 * {@link stepBanned} for the step a → b along neighbour k of DX/DY (b = a + (DX[k], DY[k])),
 * from tables built by the same direction rule: the searches' inner loops call it eight times
 * per expanded span.
 */
export function stepBannedK(steps: Uint8Array, a: number, b: number, k: number): boolean {
  return ((steps[BAN_ON_A[k] ? a : b] >> BAN_SHIFT[k]) & 1) !== 0;
}
