/**
 * Off-mesh links by one end, for the span searches and floods.
 *
 * Why not a per-span CSR: a window has tens of millions of spans and a handful of link ends, and
 * a CSR start per span was 4 B per span of the route's scratch frame (≈ 1.8 B per window cell on
 * the generated large world) for rows that are nearly all empty (issue 36, docs/memory.md). Here
 * a span costs one bit: the bit says whether it is the end of any link, and only then is its row
 * looked up (binary search over the ends that have links). The links of a row keep table order,
 * as the CSR's did, so the searches relax them in the same order (routes bit-identical).
 * @module
 */

import { scratch } from "../../scratch.ts";

/** The links whose `end` is a span, grouped by that span; see the module note. */
export class LinkIndex {
  /** One bit per span: set when the span is the end of at least one link. */
  readonly bits: Uint32Array;
  /** The spans that are the end of a link, ascending. */
  readonly ends: Int32Array;
  /** Row j's links are `order[start[j] .. start[j + 1])`. */
  readonly start: Int32Array;
  /** Link indices by (end, table index). */
  readonly order: Int32Array;

  /**
   * @param end the chosen end span of each link (`fromSpan` or `toSpan`)
   * @param n the link count
   * @param spans the window's span count
   */
  constructor(end: Int32Array, n: number, spans: number) {
    this.bits = scratch.u32((spans + 31) >>> 5);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // Table order within an end: the sort is by (end, index).
    order.sort((a, b) => end[a] - end[b] || a - b);
    let rows = 0;
    for (let q = 0; q < n; q++) if (q === 0 || end[order[q]] !== end[order[q - 1]]) rows++;
    const ends = new Int32Array(rows), start = new Int32Array(rows + 1);
    let j = -1;
    for (let q = 0; q < n; q++) {
      const s = end[order[q]];
      if (j < 0 || ends[j] !== s) {
        ends[++j] = s;
        start[j] = q;
        this.bits[s >>> 5] |= 1 << (s & 31);
      }
    }
    start[rows] = n;
    this.ends = ends;
    this.start = start;
    this.order = order;
  }

  /** The row of span s, or −1 when no link ends at s. */
  row(s: number): number {
    if (!(this.bits[s >>> 5] & (1 << (s & 31)))) return -1;
    const e = this.ends;
    let lo = 0, hi = e.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (e[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
