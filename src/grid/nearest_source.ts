/**
 * NearestSource (spec 预烘场 › 中轴, formulas #44): each cell's nearest obstacle cell by two
 * 8SSEDT-style raster sweeps. One implementation for the bake's medial axis and the planner's
 * corridor (spec 两段搜索 › 走廊).
 * @module
 */

/**
 * NearestSource: `src[c]` = index of an (approximately) nearest obstacle cell, −1 if none.
 * Sweep 1 rows top (y = 0) to bottom: left→right taking N, NW, NE, W, then right→left taking E.
 * Sweep 2 rows bottom to top: right→left taking S, SW, SE, E, then left→right taking W.
 * A candidate replaces the current source only when strictly nearer (ties keep the old one).
 */
export function nearestSource(obstacle: Uint8Array, nx: number, ny: number): Int32Array {
  return sourceXY(obstacle, nx, ny).src;
}

/**
 * {@link nearestSource} plus each cell's source as (x, y) — the sweeps compare squared
 * distances as integers (exact, so the same strict-improvement ties as in double) and never
 * divide a cell index back into coordinates. `sx`/`sy` are meaningful where `src ≥ 0`.
 */
export function sourceXY(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
): { src: Int32Array; sx: Int32Array; sy: Int32Array } {
  const P = sourcePacked(obstacle, nx, ny), n = nx * ny;
  const src = new Int32Array(n).fill(-1);
  const sx = new Int32Array(n), sy = new Int32Array(n);
  for (let c = 0; c < n; c++) {
    const v = P[c];
    if (v < 0) continue;
    const x = v & 0xffff, y = v >> 16;
    (sx[c] = x), (sy[c] = y), (src[c] = y * nx + x);
  }
  return { src, sx, sy };
}

/**
 * The NearestSource sweeps on one packed column: `P[c]` = y·2¹⁶ + x of cell c's source, −1 when
 * it has none ({@link sourceXY} unpacks it; the corridor reads it directly). `out` (n cells, every
 * one −1) is written in place of a new column when given (the corridor's scratch).
 */
export function sourcePacked(
  obstacle: Uint8Array,
  nx: number,
  ny: number,
  out?: Int32Array,
): Int32Array {
  const n = nx * ny;
  // One packed column during the sweeps: a cell's source as y·2¹⁶ + x (−1: none yet). Windows
  // are far below 2¹⁶ cells a side (kMaxCells); one load per candidate instead of four, and the
  // current best distance is recomputed from the packed source instead of stored. A candidate
  // with the current source is skipped: at equal distance it could not win (strictly nearer).
  if (nx > 0xffff || ny > 0x7fff) throw new RangeError(`sourceXY: ${nx} × ${ny} is too large`);
  const P = out ?? new Int32Array(n).fill(-1);
  let firstRow = ny; // first row holding an obstacle
  for (let y = 0, c = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++, c++) {
      if (obstacle[c] !== 0) {
        P[c] = (y << 16) | x;
        if (firstRow === ny) firstRow = y;
      }
    }
  }
  // No obstacle: no source anywhere. Above the first obstacle row sweep 1 has nothing to
  // propagate (every cell it reads is still sourceless), so it starts there.
  if (firstRow === ny) return P;
  // take(c ← q), written out: adopt q's source when strictly nearer, in the order of the
  // module doc (each candidate compares against the current best, as sequential takes do).
  // Obstacle cells go through the same steps: their own source is at distance 0, which no
  // candidate beats strictly.
  for (let y = firstRow; y < ny; y++) {
    rowPass(P, nx, y, y - 1, 1); // sweep 1: left → right taking N, NW, NE, W
    passBack(P, nx, y, 1); // its second pass: right → left, taking E
  }
  for (let y = ny - 1; y >= 0; y--) {
    rowPass(P, nx, y, y + 1 < ny ? y + 1 : -1, -1); // sweep 2: right → left taking S, SW, SE, E
    passBack(P, nx, y, -1); // its second pass: left → right, taking W
  }
  return P;
}

/**
 * A sweep's main pass over row y in direction `step` (+1: left → right, −1: right → left), taking
 * in order the cell of row `ya` (the row before; −1: none) straight across, then its x − 1 and
 * x + 1 neighbours, then the cell just passed in this row — sweep 1's N, NW, NE, W and sweep 2's
 * S, SW, SE, E. Row ya's three cells ride along in registers (one load per cell).
 */
function rowPass(P: Int32Array, nx: number, y: number, ya: number, step: 1 | -1): void {
  const row = y * nx, adj = ya * nx, has = ya >= 0;
  const at = (x: number) => (has && x >= 0 && x < nx ? P[adj + x] : -1);
  let x = step > 0 ? 0 : nx - 1;
  let lo = at(x - 1), mid = at(x), hi = at(x + 1), prev = -1;
  let sc = 0, dc = 0, d = 0, p = 0;
  for (let k = 0; k < nx; k++, x += step) {
    const c = row + x;
    sc = P[c];
    dc = sc >= 0 ? dist2(sc, x, y) : FARD;
    p = mid;
    if (p >= 0 && p !== sc && (d = dist2(p, x, y)) < dc) (dc = d), (sc = p);
    p = lo;
    if (p >= 0 && p !== sc && (d = dist2(p, x, y)) < dc) (dc = d), (sc = p);
    p = hi;
    if (p >= 0 && p !== sc && (d = dist2(p, x, y)) < dc) (dc = d), (sc = p);
    p = prev;
    if (p >= 0 && p !== sc && (d = dist2(p, x, y)) < dc) (dc = d), (sc = p);
    P[c] = prev = sc;
    if (step > 0) (lo = mid), (mid = hi), (hi = has && x + 2 < nx ? P[adj + x + 2] : -1);
    else (hi = mid), (mid = lo), (lo = has && x >= 2 ? P[adj + x - 2] : -1);
  }
}

/** No source yet: farther than any in-window distance. */
const FARD = 0x7fffffff;

/** Squared cell distance from (x, y) to the packed source p (exact in int32 for windows). */
function dist2(p: number, x: number, y: number): number {
  const ex = (p & 0xffff) - x, ey = (p >> 16) - y;
  return ex * ex + ey * ey;
}

/**
 * The second pass of a sweep over row y: against the main pass's direction, each cell takes the
 * cell it came from (`from` = +1: x + 1, so right → left; −1: x − 1, so left → right), whose
 * final value rides along in a register.
 */
function passBack(P: Int32Array, nx: number, y: number, from: 1 | -1) {
  if (nx < 2) return;
  const row = y * nx;
  let x = from > 0 ? nx - 2 : 1;
  let prev = P[row + x + from];
  for (let k = 1; k < nx; x -= from, k++) {
    const c = row + x, sc = P[c];
    if (prev >= 0 && prev !== sc && (sc < 0 || dist2(prev, x, y) < dist2(sc, x, y))) P[c] = prev;
    else prev = sc;
  }
}
