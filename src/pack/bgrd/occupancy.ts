/**
 * Cell → first-record lookup for decoded grid records (spec 包的内存 「格图列索引」): one
 * occupancy bit per cell plus a 4-byte prefix count per 64 cells — 12 bytes per 64 cells instead
 * of a 256-byte direct table of 4-byte starts — at the price of one popcount per lookup.
 *
 * The prefix count counts occupied cells, so rank(cell) is the cell's ordinal k among the
 * occupied cells; `start[k]` (one i32 per occupied cell, proportional to the data rather than
 * the window area, which the spec's 12 B / 64 cells does not include) turns it into the first
 * record. Records of a cell are `start[k] .. start[k+1]−1`.
 * @module
 */
import type { SpanColumns } from "../grid_types.ts";

/** Population count of a 32-bit word. */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Occupancy bitmap with a per-64-cell rank over a window of `cells` cells. */
export class OccupancyIndex {
  /** Cells in the window. */
  readonly cells: number;
  /** Occupancy bits, two 32-bit words per 64 cells (bit `c & 31` of word `c >>> 5`). */
  readonly bits: Uint32Array;
  /** Occupied cells before each 64-cell block. */
  readonly rank: Uint32Array;
  /** First record of each occupied cell, plus the record count at the end (length ncell + 1). */
  readonly start: Int32Array;

  private constructor(cells: number, bits: Uint32Array, rank: Uint32Array, start: Int32Array) {
    this.cells = cells;
    this.bits = bits;
    this.rank = rank;
    this.start = start;
  }

  /**
   * Builds the index from records sorted by cell (as a decoded tile is), in one pass. `cells`
   * is the window size `nx·ny`; every record's cell must be below it.
   */
  static fromSpans(spans: SpanColumns, cells: number): OccupancyIndex {
    const blocks = Math.ceil(cells / 64);
    const bits = new Uint32Array(blocks * 2);
    const rank = new Uint32Array(blocks);
    const n = spans.n;
    const cell = spans.cell;
    let ncell = 0;
    for (let i = 0; i < n; i++) if (i === 0 || cell[i] !== cell[i - 1]) ncell++;
    const start = new Int32Array(ncell + 1);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const c = cell[i];
      if (i > 0 && c === cell[i - 1]) continue;
      bits[c >>> 5] |= 1 << (c & 31);
      start[k++] = i;
    }
    start[ncell] = n;
    let acc = 0;
    for (let b = 0; b < blocks; b++) {
      rank[b] = acc;
      acc += popcount32(bits[2 * b]) + popcount32(bits[2 * b + 1]);
    }
    return new OccupancyIndex(cells, bits, rank, start);
  }

  /** Number of occupied cells. */
  get occupiedCells(): number {
    return this.start.length - 1;
  }

  /** True if the cell has at least one record. */
  has(c: number): boolean {
    return c >= 0 && c < this.cells && (this.bits[c >>> 5] & (1 << (c & 31))) !== 0;
  }

  /** Occupied cells with an index below `c` (the cell's ordinal when it is occupied). */
  rankOf(c: number): number {
    const b = c >>> 6;
    let r = this.rank[b];
    const w = c >>> 5;
    const bit = c & 31;
    if (w & 1) r += popcount32(this.bits[w - 1]);
    if (bit) r += popcount32(this.bits[w] & ((1 << bit) - 1));
    return r;
  }

  /** Index of the cell's first record, or −1 when the cell is empty. */
  firstRecord(c: number): number {
    if (!this.has(c)) return -1;
    return this.start[this.rankOf(c)];
  }

  /** Number of records (layers) in the cell; 0 when empty. */
  layerCount(c: number): number {
    if (!this.has(c)) return 0;
    const k = this.rankOf(c);
    return this.start[k + 1] - this.start[k];
  }

  /** Bytes held by the bitmap and rank table (12 per 64 cells), not counting `start`. */
  get indexBytes(): number {
    return this.bits.byteLength + this.rank.byteLength;
  }
}
