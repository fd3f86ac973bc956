/**
 * Byte-mask arithmetic shared by the search and the post-processing: the solver ANDs whole
 * windows of 0/1 cells several times per plan, the pull its route mask over a box.
 * @module
 */

import { scratch } from "../scratch.ts";

/**
 * `dst[c] = a[c] & b[c]` for c in [from, to): four cells per 32-bit word where the three arrays
 * are word-aligned (a byte-wise AND either way, so any byte values are fine).
 */
export function andInto(
  dst: Uint8Array,
  a: Uint8Array,
  b: Uint8Array,
  from: number,
  to: number,
): void {
  let c = from;
  const aligned = (dst.byteOffset | a.byteOffset | b.byteOffset) % 4 === 0;
  if (aligned && to - from >= 16) {
    for (; c & 3; c++) dst[c] = a[c] & b[c];
    const w0 = c >> 2, w1 = to >> 2;
    const D = new Uint32Array(dst.buffer, dst.byteOffset, w1);
    const A = new Uint32Array(a.buffer, a.byteOffset, w1);
    const B = new Uint32Array(b.buffer, b.byteOffset, w1);
    for (let k = w0; k < w1; k++) D[k] = A[k] & B[k];
    c = w1 << 2;
  }
  for (; c < to; c++) dst[c] = a[c] & b[c];
}

/** a ∧ b over the first n cells, as a new mask (scratch inside a frame: scratch.ts). */
export function and(a: Uint8Array, b: Uint8Array, n: number): Uint8Array {
  const out = scratch.u8(n);
  andInto(out, a, b, 0, n);
  return out;
}
