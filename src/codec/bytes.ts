/**
 * Bounds-checked little-endian readers and a growable writer (spec 数据包 › 公共编码: all byte
 * orders are little-endian). Every read past the end throws one `truncated` error naming the
 * section and absolute offset; nothing is ever read out of range silently.
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../errors.ts";
import { readVarint, writeVarint, zigzagDecode, zigzagEncode } from "./varint.ts";

const TWO32 = 4294967296;

/** Little-endian cursor over a byte array. */
export class ByteReader {
  /** The bytes being read. */
  readonly bytes: Uint8Array;
  /** Current position (relative to `bytes`). */
  pos: number;
  /** Location facts attached to every error; `offset` is added as `base + pos`. */
  readonly where: ErrorLocation;
  /** Absolute offset of `bytes[0]` in the enclosing file or section, for error messages. */
  readonly base: number;
  readonly #view: DataView;
  readonly #next = [0];

  constructor(bytes: Uint8Array, where: ErrorLocation = {}, base = 0, pos = 0) {
    this.bytes = bytes;
    this.pos = pos;
    this.where = where;
    this.base = base;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes left from the current position. */
  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** Builds an error at the current position (or at `pos`). */
  error(
    code: ConstructorParameters<typeof NavscopeError>[0],
    what: string,
    expected?: string,
    pos = this.pos,
  ): NavscopeError {
    return new NavscopeError(code, what, { ...this.where, offset: this.base + pos }, expected);
  }

  /** Throws `truncated` unless `n` more bytes are available. */
  need(n: number, what = "data"): void {
    if (n < 0 || this.pos + n > this.bytes.length) {
      throw this.error(
        "truncated",
        `${what} needs ${n} bytes but only ${this.remaining} remain`,
        `${n} bytes`,
      );
    }
  }

  /** Moves to an absolute position (relative to `bytes`), checked. */
  seek(pos: number, what = "offset"): void {
    if (pos < 0 || pos > this.bytes.length) {
      throw new NavscopeError(
        "offset_out_of_range",
        `${what} ${this.base + pos} is outside the data (size ${this.bytes.length})`,
        { ...this.where, offset: this.base + pos },
      );
    }
    this.pos = pos;
  }

  u8(): number {
    this.need(1, "u8");
    return this.bytes[this.pos++];
  }

  u16(): number {
    this.need(2, "u16");
    const v = this.#view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4, "u32");
    const v = this.#view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i32(): number {
    this.need(4, "i32");
    const v = this.#view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /** u64 as a number; throws `bad_value` if it exceeds 2^53 (used for offsets and sizes). */
  u64(): number {
    this.need(8, "u64");
    const lo = this.#view.getUint32(this.pos, true);
    const hi = this.#view.getUint32(this.pos + 4, true);
    if (hi >= 0x200000) {
      throw this.error(
        "bad_value",
        `u64 value 0x${hi.toString(16)}${lo.toString(16).padStart(8, "0")} exceeds 2^53`,
      );
    }
    this.pos += 8;
    return hi * TWO32 + lo;
  }

  /** u64 as a bigint (hashes). */
  u64big(): bigint {
    this.need(8, "u64");
    const v = this.#view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  f32(): number {
    this.need(4, "f32");
    const v = this.#view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8, "f64");
    const v = this.#view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** `n` raw bytes (a view, not a copy). */
  take(n: number, what = "bytes"): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** A 4-character ASCII tag. */
  tag(): string {
    const b = this.take(4, "tag");
    return String.fromCharCode(b[0], b[1], b[2], b[3]);
  }

  /** Unsigned LEB128 varint. */
  varint(): number {
    try {
      const v = readVarint(this.bytes, this.pos, this.#next);
      this.pos = this.#next[0];
      return v;
    } catch (e) {
      if (e instanceof NavscopeError) {
        throw new NavscopeError(e.code, e.what, {
          ...this.where,
          offset: this.base + (e.where.offset ?? this.pos),
        }, e.expected);
      }
      throw e;
    }
  }

  /** Zigzag-decoded signed varint. */
  svarint(): number {
    return zigzagDecode(this.varint());
  }

  /** Throws unless the reader consumed every byte. */
  expectEnd(what = "data"): void {
    if (this.pos !== this.bytes.length) {
      throw this.error(
        "stream_length",
        `${this.bytes.length - this.pos} bytes left over after ${what}`,
        "no leftover bytes",
      );
    }
  }
}

/** Growable little-endian byte writer. */
export class ByteWriter {
  #buf: Uint8Array;
  #view: DataView;
  /** Bytes written so far. */
  length = 0;

  constructor(capacity = 256) {
    this.#buf = new Uint8Array(Math.max(16, capacity));
    this.#view = new DataView(this.#buf.buffer);
  }

  #ensure(n: number): void {
    if (this.length + n <= this.#buf.length) return;
    let cap = this.#buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.#buf.subarray(0, this.length));
    this.#buf = nb;
    this.#view = new DataView(nb.buffer);
  }

  u8(v: number): this {
    this.#ensure(1);
    this.#buf[this.length++] = v;
    return this;
  }

  u16(v: number): this {
    this.#ensure(2);
    this.#view.setUint16(this.length, v, true);
    this.length += 2;
    return this;
  }

  u32(v: number): this {
    this.#ensure(4);
    this.#view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this;
  }

  i32(v: number): this {
    this.#ensure(4);
    this.#view.setInt32(this.length, v, true);
    this.length += 4;
    return this;
  }

  /** u64 from a non-negative number ≤ 2^53. */
  u64(v: number): this {
    this.#ensure(8);
    this.#view.setUint32(this.length, v % TWO32, true);
    this.#view.setUint32(this.length + 4, Math.floor(v / TWO32), true);
    this.length += 8;
    return this;
  }

  /** u64 from a bigint (hashes). */
  u64big(v: bigint): this {
    this.#ensure(8);
    this.#view.setBigUint64(this.length, BigInt.asUintN(64, v), true);
    this.length += 8;
    return this;
  }

  f32(v: number): this {
    this.#ensure(4);
    this.#view.setFloat32(this.length, v, true);
    this.length += 4;
    return this;
  }

  f64(v: number): this {
    this.#ensure(8);
    this.#view.setFloat64(this.length, v, true);
    this.length += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.#ensure(b.length);
    this.#buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  /** A 4-character ASCII tag. */
  tag(t: string): this {
    for (let i = 0; i < 4; i++) this.u8(t.charCodeAt(i));
    return this;
  }

  /** `n` zero bytes. */
  zeros(n: number): this {
    this.#ensure(n);
    this.#buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }

  /** Pads with zeros to a multiple of `align`. */
  align(align: number): this {
    const r = this.length % align;
    return r ? this.zeros(align - r) : this;
  }

  varint(v: number): this {
    this.#ensure(10);
    this.length = writeVarint(this.#buf, this.length, v);
    return this;
  }

  svarint(v: number): this {
    return this.varint(zigzagEncode(v));
  }

  /** Overwrites a u32 at an earlier position (for back-patched offsets). */
  patchU32(pos: number, v: number): this {
    this.#view.setUint32(pos, v >>> 0, true);
    return this;
  }

  /** Overwrites a u64 at an earlier position. */
  patchU64(pos: number, v: number): this {
    this.#view.setUint32(pos, v % TWO32, true);
    this.#view.setUint32(pos + 4, Math.floor(v / TWO32), true);
    return this;
  }

  /** Overwrites a bigint u64 at an earlier position. */
  patchU64big(pos: number, v: bigint): this {
    this.#view.setBigUint64(pos, BigInt.asUintN(64, v), true);
    return this;
  }

  /** The written bytes (a copy sized exactly). */
  finish(): Uint8Array {
    return this.#buf.slice(0, this.length);
  }

  /** A view of the written bytes without copying (invalidated by later writes). */
  view(): Uint8Array {
    return this.#buf.subarray(0, this.length);
  }
}
