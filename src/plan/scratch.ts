/**
 * Scratch arena: window-sized work buffers, kept after a window and reused by the next.
 *
 * Why: a whole-map window of the generated large world has 94 M cells and 45 M spans, and one
 * leg in it allocated about 7 GB of fresh typed arrays (the record table, masks, search state,
 * gap floods). Every fresh page costs a page fault and the kernel's zeroing: 2.7 M faults and 20 s
 * of a 104-s leg as system time (`footbridge_disc_closed`, `perf record -e page-faults`). Replay
 * workers are threads of one process, so with two of them the faults also wait on each other:
 * over the large world's 72 legs system time went from 48 s with one worker to 115 s with two.
 * Filling a buffer that is already mapped is about four times cheaper than a fresh page here.
 * With the arena the two-worker replay of that world has 5.7 M faults instead of 15.4 M and
 * takes 307 s instead of 389 s (BENCHMARKS.md, "Replay throughput › Seventh session").
 *
 * Frames: {@link ScratchArena.frame} runs a synchronous function; every buffer taken inside it
 * is valid until that function returns, and is handed out again afterwards. Nothing taken in a
 * frame may escape it (results are copied out). Outside any frame a take is an ordinary fresh
 * array, so code that takes from the arena works unchanged where nobody opened a frame.
 *
 * A take gets the smallest free buffer that is large enough and at most {@link FIT_SLACK} times
 * too large (best fit), so a small window's masks do not pin a whole-map window's buffers. When
 * none fits, a new one is made and the largest free buffer that is too small is dropped. Takes
 * under {@link MIN_BYTES} are plain allocations (malloc serves those from its heap). Every take is
 * filled with its value (or the array it copies) before it is handed out, so no result depends on
 * what a buffer held before: routes are bit-identical with or without reuse (tests/plan_scratch_test.ts poisons the
 * free buffers to check it).
 *
 * The cost is memory: a worker keeps the buffers of the largest window it routed (5.4 GiB after a
 * 94-M-cell window), on top of the next window's own arrays.
 *
 * One arena per isolate (module state): each replay worker has its own.
 * @module
 */

/** The typed arrays the arena hands out. */
type Typed = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** Their constructors: fresh, or a view over a buffer. */
interface TypedCtor<T extends Typed> {
  new (n: number): T;
  new (b: ArrayBuffer, offset: number, n: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Takes below this size are fresh allocations. */
export const MIN_BYTES = 1 << 20;
/** A free buffer serves a take at most this many times its size. */
export const FIT_SLACK = 4;

/** A pool of reusable ArrayBuffers; see the module note. */
export class ScratchArena {
  /** Free buffers, by ascending size. */
  #free: ArrayBuffer[] = [];
  /** Buffers taken in the open frames, in take order. */
  #used: ArrayBuffer[] = [];
  #depth = 0;
  /** Takes below this many bytes are fresh allocations (tests set 0 to route every take here). */
  minBytes = MIN_BYTES;

  /** Runs `f` in a frame: buffers taken inside it are reused once it returns. */
  frame<T>(f: () => T): T {
    const mark = this.#used.length;
    this.#depth++;
    try {
      return f();
    } finally {
      this.#depth--;
      while (this.#used.length > mark) this.#insertFree(this.#used.pop()!);
    }
  }

  /** Whether a frame is open (takes are reused buffers). */
  get active(): boolean {
    return this.#depth > 0;
  }

  /** Bytes the arena holds, free and taken (for benchmarks and tests). */
  get retainedBytes(): number {
    let n = 0;
    for (const b of this.#free) n += b.byteLength;
    for (const b of this.#used) n += b.byteLength;
    return n;
  }

  /** Drops every free buffer (outside a frame only). */
  clear(): void {
    if (this.#depth > 0) throw new Error("scratch arena: clear inside a frame");
    this.#free = [];
  }

  /** Sets every byte of the free buffers to `v` (tests: no result may depend on old contents). */
  poison(v: number): void {
    for (const b of this.#free) new Uint8Array(b).fill(v);
  }

  #insertFree(b: ArrayBuffer): void {
    const i = this.#firstFit(b.byteLength);
    this.#free.splice(i, 0, b);
  }

  /** Index of the first free buffer of at least `bytes` (free.length when none). */
  #firstFit(bytes: number): number {
    let lo = 0, hi = this.#free.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#free[mid].byteLength < bytes) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #take(bytes: number): ArrayBuffer | null {
    if (this.#depth === 0 || bytes < this.minBytes) return null;
    // Sizes are rounded up to 8 bytes: any element type's view starts at offset 0.
    const size = Math.ceil(bytes / 8) * 8;
    const i = this.#firstFit(size);
    let b: ArrayBuffer;
    if (i < this.#free.length && this.#free[i].byteLength <= FIT_SLACK * size) {
      b = this.#free.splice(i, 1)[0];
    } else {
      // The largest free buffer that is too small gives way to the new one.
      if (i > 0) this.#free.splice(i - 1, 1);
      b = new ArrayBuffer(size);
    }
    this.#used.push(b);
    return b;
  }

  /** A typed array of `n` elements over a taken buffer (fresh outside a frame), set to `v`. */
  #typed<T extends Typed>(C: TypedCtor<T>, n: number, v: number): T {
    const b = this.#take(C.BYTES_PER_ELEMENT * n);
    const a = b ? new C(b, 0, n) : new C(n);
    // A fresh array is already zero.
    if (b || v !== 0) a.fill(v);
    return a;
  }

  /** An Int32Array holding a copy of `src` (written once: no fill before the copy). */
  i32Copy(src: Int32Array): Int32Array {
    const b = this.#take(4 * src.length);
    if (!b) return src.slice();
    const a = new Int32Array(b, 0, src.length);
    a.set(src);
    return a;
  }

  /** A Uint8Array of `n` elements, every one set to `v`. */
  u8(n: number, v = 0): Uint8Array {
    return this.#typed(Uint8Array, n, v);
  }

  /** An Int32Array of `n` elements, every one set to `v`. */
  i32(n: number, v = 0): Int32Array {
    return this.#typed(Int32Array, n, v);
  }

  /** A Uint32Array of `n` elements, every one set to `v`. */
  u32(n: number, v = 0): Uint32Array {
    return this.#typed(Uint32Array, n, v);
  }

  /** A Uint16Array of `n` elements, every one set to `v`. */
  u16(n: number, v = 0): Uint16Array {
    return this.#typed(Uint16Array, n, v);
  }

  /** A Float32Array of `n` elements, every one set to `v`. */
  f32(n: number, v = 0): Float32Array {
    return this.#typed(Float32Array, n, v);
  }

  /** A Float64Array of `n` elements, every one set to `v`. */
  f64(n: number, v = 0): Float64Array {
    return this.#typed(Float64Array, n, v);
  }
}

/** This isolate's arena: routeWindow and buildWindow open frames on it. */
export const scratch = new ScratchArena();
