/**
 * A binary min-heap of (key, id) pairs in typed arrays (no per-node objects), ordered by key and
 * then by id — SpanAstar's (f, span index) order (spec 小窗结果的检查 condition 8).
 * @module
 */

/** Min-heap on (key, id). */
export class KeyIdHeap {
  /** Keys, heap-ordered in `[0, size)` (SpanSearch sifts in place in its loops). */
  keys: Float64Array;
  /** Ids, beside their keys. */
  ids: Int32Array;
  /** Number of entries. */
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  /** Removes every entry (keeps the buffers). */
  clear(): void {
    this.size = 0;
  }

  /** Doubles the capacity, keeping the entries. */
  grow(): void {
    const k = new Float64Array(this.keys.length * 2), d = new Int32Array(this.keys.length * 2);
    k.set(this.keys);
    d.set(this.ids);
    this.keys = k;
    this.ids = d;
  }

  /** Adds an entry. */
  push(key: number, id: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    const K = this.keys, I = this.ids;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (K[p] < key || (K[p] === key && I[p] < id)) break;
      K[i] = K[p];
      I[i] = I[p];
      i = p;
    }
    K[i] = key;
    I[i] = id;
  }

  /** Key of the smallest entry. */
  topKey(): number {
    return this.keys[0];
  }

  /** Id of the smallest entry. */
  topId(): number {
    return this.ids[0];
  }

  /** Removes the smallest entry. */
  pop(): void {
    const K = this.keys, I = this.ids;
    const n = --this.size;
    if (n === 0) return;
    const key = K[n], id = I[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (K[c + 1] < K[c] || (K[c + 1] === K[c] && I[c + 1] < I[c]))) c++;
      if (key < K[c] || (key === K[c] && id < I[c])) break;
      K[i] = K[c];
      I[i] = I[c];
      i = c;
    }
    K[i] = key;
    I[i] = id;
  }
}
