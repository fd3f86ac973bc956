/**
 * A growable list over one typed array (doubling on overflow): the baker's record and ring
 * lists, the statistics' sample columns and any other hot-path list that must hold numbers
 * without an object or a boxed value per element (ARCHITECTURE: flat data on hot paths). The
 * fields are public so a hot loop can read `a[0..n)` directly.
 * @module
 */

/** The typed arrays a {@link TypedList} may hold. */
export type NumberArray = Int32Array | Uint32Array | Float64Array;

/** A growable list of numbers stored in a typed array `A`. */
export class TypedList<A extends NumberArray> {
  /** Storage; elements `[0, n)` are the list. */
  a: A;
  /** Number of elements. */
  n = 0;

  /** An empty list; `make(k)` allocates storage for k elements. */
  constructor(private readonly make: (k: number) => A, capacity = 64) {
    this.a = make(Math.max(1, capacity));
  }

  /** Appends one value, doubling the storage when it is full. */
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }

  /** The elements as a view of the storage (valid until the next push; copy before keeping). */
  view(): A {
    return this.a.subarray(0, this.n) as A;
  }

  /** The elements as a copy of their own. */
  done(): A {
    return this.a.slice(0, this.n) as A;
  }

  /** Empties the list, keeping its storage. */
  reset(): this {
    this.n = 0;
    return this;
  }
}

/** A growable Int32 list. */
export function int32List(capacity = 64): TypedList<Int32Array> {
  return new TypedList((k) => new Int32Array(k), capacity);
}
