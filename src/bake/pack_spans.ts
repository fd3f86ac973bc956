/**
 * PackSpans' ordering step (spec 预烘场 › span 合并): a two-level counting sort by cell index
 * (high 16 bits, then low 16 bits; both stable, so the result equals a stable sort by cell),
 * then an insertion sort by height inside each cell. Columns are moved one at a time.
 * @module
 */

import { SampleBuffer } from "./samples.ts";

/** Largest cell range sorted with one counting table (4 M cells: a 16 MB table at most). */
const SINGLE_LEVEL_CELLS = 1 << 22;

/**
 * Stable permutation ordering `cell` ascending. Level 1 buckets by `cell >>> 16` (a small
 * count table); level 2 sorts each bucket by `cell & 0xffff` with a fixed 65537-entry table
 * and a scratch array of the largest bucket's size.
 */
export function cellOrder(cell: Int32Array, n: number): Int32Array {
  let maxCell = 0;
  for (let i = 0; i < n; i++) if (cell[i] > maxCell) maxCell = cell[i];
  // Window-sized cell ranges (641² cells per tile window): one counting pass over a table of
  // every cell gives the same stable order as the two levels, in two passes instead of four.
  if (maxCell < SINGLE_LEVEL_CELLS) {
    const start = new Int32Array(maxCell + 2);
    for (let i = 0; i < n; i++) start[cell[i] + 1]++;
    for (let c = 0; c <= maxCell; c++) start[c + 1] += start[c];
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[start[cell[i]]++] = i;
    return order;
  }
  let maxHi = 0;
  for (let i = 0; i < n; i++) {
    const hi = cell[i] >>> 16;
    if (hi > maxHi) maxHi = hi;
  }
  const hiStart = new Int32Array(maxHi + 2);
  for (let i = 0; i < n; i++) hiStart[(cell[i] >>> 16) + 1]++;
  for (let b = 0; b <= maxHi; b++) hiStart[b + 1] += hiStart[b];
  const order = new Int32Array(n);
  const fill = hiStart.slice(0, maxHi + 1);
  for (let i = 0; i < n; i++) order[fill[cell[i] >>> 16]++] = i;
  let maxBucket = 0;
  for (let b = 0; b <= maxHi; b++) maxBucket = Math.max(maxBucket, hiStart[b + 1] - hiStart[b]);
  const lo = new Int32Array(65537);
  const tmp = new Int32Array(maxBucket);
  for (let b = 0; b <= maxHi; b++) {
    const s = hiStart[b], e = hiStart[b + 1];
    if (e - s < 2) continue;
    lo.fill(0);
    for (let k = s; k < e; k++) lo[(cell[order[k]] & 0xffff) + 1]++;
    for (let v = 0; v < 65536; v++) lo[v + 1] += lo[v];
    for (let k = s; k < e; k++) tmp[lo[cell[order[k]] & 0xffff]++] = order[k];
    order.set(tmp.subarray(0, e - s), s);
  }
  return order;
}

/**
 * Sorts samples by (cell, height), stably: {@link cellOrder}, then insertion sort by height
 * within each cell (equal heights keep their original order). Returns a new buffer; columns are
 * permuted one at a time so input and output never fully coexist beyond one column.
 */
export function sortSamples(buf: SampleBuffer): SampleBuffer {
  const n = buf.n;
  const order = cellOrder(buf.cell, n);
  const cell = new Int32Array(n);
  for (let k = 0; k < n; k++) cell[k] = buf.cell[order[k]];
  const h = new Float32Array(n);
  for (let k = 0; k < n; k++) h[k] = buf.h[order[k]];
  const ins = new Uint8Array(n);
  for (let k = 0; k < n; k++) ins[k] = buf.ins[order[k]];
  let s = 0;
  while (s < n) {
    let e = s + 1;
    while (e < n && cell[e] === cell[s]) e++;
    for (let i = s + 1; i < e; i++) { // insertion sort by height: stable
      const hv = h[i], iv = ins[i];
      let j = i - 1;
      while (j >= s && h[j] > hv) {
        h[j + 1] = h[j];
        ins[j + 1] = ins[j];
        j--;
      }
      h[j + 1] = hv;
      ins[j + 1] = iv;
    }
    s = e;
  }
  const out = new SampleBuffer(0);
  out.n = n;
  out.cell = cell;
  out.h = h;
  out.ins = ins;
  return out;
}
