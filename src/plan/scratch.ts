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
 * Takes are a stack: a take is the next {@link ALIGN}-aligned piece of the arena's current
 * chunk, and a frame hands back everything taken in it by resetting the top. So the bytes one
 * frame used serve the next frame's takes whatever their sizes and types: the window build's
 * per-record and per-cell buffers become the route's per-cell and per-span ones, and the arena
 * holds the largest frame nesting a worker ran, not the union of every size it ever took (issue
 * 36, docs/memory.md: best fit by size kept both sets, 46 of 68 B per window cell). A take that
 * does not fit the current chunk's tail moves to the next free chunk that holds it, or to a new
 * one at least as large as all the others together (so a worker's chunks stay few). A
 * chunk is reserved, not touched: its pages become resident only where a take fills them, so
 * only the bytes below a chunk's high-water mark count ({@link ScratchArena.retainedBytes}).
 * Takes under {@link MIN_BYTES} are plain allocations (malloc serves those from its heap). Every
 * take is filled with its value (or the array it copies) before it is handed out, so no result
 * depends on what the bytes held before: routes are bit-identical with or without reuse
 * (tests/plan_scratch_test.ts poisons the free bytes to check it).
 *
 * The cost is memory: a worker keeps the bytes of the largest window it routed, on top of the
 * next window's own arrays.
 *
 * One arena per isolate (module state): each replay worker has its own, and adopts the chunk the
 * workers share while it holds the window gate ({@link ScratchArena.adopt}).
 * @module
 */

/** The typed arrays the arena hands out. */
type Typed = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** Their constructors: fresh, or a view over a buffer. */
interface TypedCtor<T extends Typed> {
  new (n: number): T;
  new (b: ArrayBufferLike, offset: number, n: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Takes below this size are fresh allocations. */
export const MIN_BYTES = 1 << 20;
/** Takes start on multiples of this many bytes (any element type; a cache line). */
export const ALIGN = 64;
/** The smallest chunk the arena reserves, bytes (virtual: only filled pages are resident). */
export const MIN_CHUNK = 256 << 20;

/** A stack of reusable bytes in a few large chunks; see the module note. */
export class ScratchArena {
  /** Reserved chunks; those after the top's are free. */
  #chunks: ArrayBufferLike[] = [];
  /** Per chunk, the end of the furthest take ever made in it (bytes filled at least once). */
  #high: number[] = [];
  /** The top of the stack: chunk index and byte offset of the next take. */
  #ci = 0;
  #off = 0;
  #depth = 0;
  /** This arena's own chunks while it takes from an adopted shared one ({@link adopt}). */
  #own: { chunks: ArrayBufferLike[]; high: number[] } | null = null;
  /** Takes below this many bytes are fresh allocations (tests set 0 to route every take here). */
  minBytes = MIN_BYTES;

  /** Runs `f` in a frame: bytes taken inside it are reused once it returns. */
  frame<T>(f: () => T): T {
    const ci = this.#ci, off = this.#off;
    this.#depth++;
    try {
      return f();
    } finally {
      this.#depth--;
      this.#ci = ci;
      this.#off = off;
    }
  }

  /** Whether a frame is open (takes are reused bytes). */
  get active(): boolean {
    return this.#depth > 0;
  }

  /**
   * Bytes the arena holds resident: every chunk's bytes below its high-water mark, free and
   * taken (for benchmarks and tests; the reserved rest of a chunk was never touched).
   */
  get retainedBytes(): number {
    let n = 0;
    for (const h of this.#high) n += h;
    return n;
  }

  /** Bytes the arena has reserved (virtual; {@link retainedBytes} of them are resident). */
  get reservedBytes(): number {
    let n = 0;
    for (const b of this.#chunks) n += b.byteLength;
    return n;
  }

  /**
   * Makes the first chunk hold at least `bytes` (outside a frame; inside one, or when the box
   * refuses the reservation, nothing changes). Why: a take that does not fit the top chunk's tail
   * moves to the next chunk, and the tail it skipped stays resident from the frames before it —
   * on the full-window `slope_65_up` the route's CostAstar state skipped 96 MB of the first
   * chunk that the window build had filled (docs/memory.md). One chunk as large as the window's
   * frames need has no tails to skip, so the arena holds the largest frame, not a frame plus
   * skipped tails. The chunks it replaces are free (no frame is open) and left to the garbage
   * collector. The bytes are reserved, not resident (see the module note).
   */
  reserve(bytes: number): void {
    if (this.#depth > 0 || (this.#chunks.length && this.#chunks[0].byteLength >= bytes)) return;
    let chunk: ArrayBuffer;
    try {
      chunk = new ArrayBuffer(Math.ceil(Math.max(bytes, MIN_CHUNK) / 4096) * 4096);
    } catch (e) {
      // The box will not reserve that much address space: keep the chunks there are.
      if (e instanceof RangeError) return;
      throw e;
    }
    this.#chunks = [chunk];
    this.#high = [0];
    this.#ci = this.#off = 0;
  }

  /**
   * Takes from `chunk` (one shared between the workers of a process) instead of this arena's own
   * chunks until {@link restore} (outside a frame only). Why: with two replay workers each arena
   * kept the largest window's frame resident after its leg, and two full windows of the scale-5
   * world held two such frames at once; windows under the process's window gate
   * (src/plan/window/window_gate.ts) run one at a time and take from the one shared chunk, so the
   * process keeps one large frame, not one per worker (issue 36, docs/memory.md). Chunks the
   * takes add on top of it are dropped at {@link restore}.
   */
  adopt(chunk: SharedArrayBuffer): void {
    if (this.#depth > 0) throw new Error("scratch arena: adopt inside a frame");
    if (this.#own) return;
    this.#own = { chunks: this.#chunks, high: this.#high };
    this.#chunks = [chunk];
    this.#high = [0];
    this.#ci = this.#off = 0;
  }

  /** Takes from this arena's own chunks again after {@link adopt} (outside a frame only). */
  restore(): void {
    if (this.#depth > 0) throw new Error("scratch arena: restore inside a frame");
    if (!this.#own) return;
    this.#chunks = this.#own.chunks;
    this.#high = this.#own.high;
    this.#own = null;
    this.#ci = this.#off = 0;
  }

  /** Whether takes go to an adopted shared chunk ({@link adopt}). */
  get adopted(): boolean {
    return this.#own !== null;
  }

  /** Drops every chunk (outside a frame only). */
  clear(): void {
    if (this.#depth > 0) throw new Error("scratch arena: clear inside a frame");
    this.#chunks = [];
    this.#high = [];
    this.#ci = this.#off = 0;
  }

  /** Sets every free byte that was filled before to `v` (tests: no result may depend on it). */
  poison(v: number): void {
    for (let i = this.#ci; i < this.#chunks.length; i++) {
      const from = i === this.#ci ? this.#off : 0;
      if (this.#high[i] > from) new Uint8Array(this.#chunks[i], from, this.#high[i] - from).fill(v);
    }
  }

  /** The buffer and byte offset of a take of `bytes` (null: a fresh array). */
  #take(bytes: number): [ArrayBufferLike, number] | null {
    if (this.#depth === 0 || bytes < this.minBytes) return null;
    const size = Math.ceil(bytes / ALIGN) * ALIGN;
    const chunks = this.#chunks;
    let ci = this.#ci, off = this.#off;
    if (ci >= chunks.length || off + size > chunks[ci].byteLength) {
      // The tail of the top's chunk is too short: the next free chunk that holds the take (the
      // chunks after the top's are free, takes being a stack), or a new one.
      if (off > 0) ci++;
      off = 0;
      while (ci < chunks.length && chunks[ci].byteLength < size) ci++;
      if (ci === chunks.length) {
        // At least as large as all the others: the chunks a worker needs stay few.
        let total = 0;
        for (const b of chunks) total += b.byteLength;
        chunks.push(new ArrayBuffer(Math.ceil(Math.max(size, total, MIN_CHUNK) / 4096) * 4096));
        this.#high.push(0);
      }
    }
    this.#ci = ci;
    this.#off = off + size;
    if (this.#off > this.#high[ci]) this.#high[ci] = this.#off;
    return [chunks[ci], off];
  }

  /** A typed array of `n` elements over taken bytes (fresh outside a frame), set to `v`. */
  #typed<T extends Typed>(C: TypedCtor<T>, n: number, v: number): T {
    const t = this.#take(C.BYTES_PER_ELEMENT * n);
    const a = t ? new C(t[0], t[1], n) : new C(n);
    // A fresh array is already zero.
    if (t || v !== 0) a.fill(v);
    return a;
  }

  /** An Int32Array holding a copy of `src` (written once: no fill before the copy). */
  i32Copy(src: Int32Array): Int32Array {
    const t = this.#take(4 * src.length);
    if (!t) return src.slice();
    const a = new Int32Array(t[0], t[1], src.length);
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
