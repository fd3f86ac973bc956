/**
 * A fast varint cursor over one inflated stream of a BGEO chunk. Errors name the stream and the
 * position inside the inflated bytes, and carry the file offset of the chunk (inflated bytes have
 * no file offset of their own).
 * @module
 */
import { readVarint, zigzagDecode } from "../../codec/varint.ts";
import { type ErrorCode, type ErrorLocation, NavscopeError } from "../../errors.ts";

/** Sequential varint reader over an inflated stream that must be consumed exactly. */
export class VarintCursor {
  /** Inflated stream bytes. */
  readonly buf: Uint8Array;
  /** Read position inside `buf`. */
  pos = 0;
  /** Stream label for errors, e.g. `stream 4 (neighbour deltas)`. */
  readonly label: string;
  /** Location of the enclosing chunk. */
  readonly where: ErrorLocation;
  readonly #next = [0];

  constructor(buf: Uint8Array, label: string, where: ErrorLocation) {
    this.buf = buf;
    this.label = label;
    this.where = where;
  }

  /** Next unsigned varint. */
  next(): number {
    const buf = this.buf;
    const p = this.pos;
    // Fast paths up to 4 bytes (28 bits fit int arithmetic); longer or truncated → slow path.
    if (p + 3 < buf.length) {
      const b0 = buf[p];
      if (b0 < 0x80) {
        this.pos = p + 1;
        return b0;
      }
      const b1 = buf[p + 1];
      if (b1 < 0x80) {
        this.pos = p + 2;
        return (b0 & 0x7f) | (b1 << 7);
      }
      const b2 = buf[p + 2];
      if (b2 < 0x80) {
        this.pos = p + 3;
        return (b0 & 0x7f) | ((b1 & 0x7f) << 7) | (b2 << 14);
      }
      const b3 = buf[p + 3];
      if (b3 < 0x80) {
        this.pos = p + 4;
        return (b0 & 0x7f) | ((b1 & 0x7f) << 7) | ((b2 & 0x7f) << 14) | (b3 << 21);
      }
    }
    return this.#slow();
  }

  /** Next zigzag-signed varint. */
  nextSigned(): number {
    const u = this.next();
    return u <= 0x7fffffff ? (u >>> 1) ^ -(u & 1) : zigzagDecode(u);
  }

  #slow(): number {
    try {
      const v = readVarint(this.buf, this.pos, this.#next);
      this.pos = this.#next[0];
      return v;
    } catch (e) {
      if (e instanceof NavscopeError) {
        throw this.error(
          e.code === "truncated" ? "stream_length" : e.code,
          e.code === "truncated"
            ? `ends in the middle of a varint at byte ${this.pos} (missing bytes)`
            : `${e.what} at byte ${this.pos}`,
          e.expected ?? "a complete varint",
        );
      }
      throw e;
    }
  }

  /** Builds an error located at the chunk; the message starts with the stream label. */
  error(code: ErrorCode, what: string, expected?: string): NavscopeError {
    return new NavscopeError(code, `${this.label}: ${what}`, this.where, expected);
  }

  /** Throws `stream_length` unless every byte was consumed. */
  end(): void {
    if (this.pos !== this.buf.length) {
      throw this.error(
        "stream_length",
        `${this.buf.length - this.pos} bytes left over after decoding`,
        `exactly ${this.buf.length} bytes used`,
      );
    }
  }
}
