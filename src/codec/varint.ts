/**
 * LEB128 varints and zigzag (spec 数据包 › 公共编码). Values are JavaScript numbers; a varint
 * whose shift would pass 63 bits is corruption, and so is one whose value needs more than 53
 * bits (no count, offset or delta in any pack comes near that).
 * @module
 */
import { NavscopeError } from "../errors.ts";

const TWO32 = 4294967296;

/** Maps a signed integer to unsigned: 0,-1,1,-2,… → 0,1,2,3,… (works up to ±2^52). */
export function zigzagEncode(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

/** Inverse of {@link zigzagEncode}. */
export function zigzagDecode(u: number): number {
  // u odd → negative. Arithmetic instead of bit ops so values past 2^31 stay exact.
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

/** Number of bytes the LEB128 encoding of a non-negative integer takes. */
export function varintSize(v: number): number {
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/**
 * Reads one unsigned LEB128 varint at `pos`. Returns the value and writes the next position into
 * `next[0]`. Throws `varint_overflow` past 63 bits of shift, `truncated` at the end of data.
 */
export function readVarint(buf: Uint8Array, pos: number, next: Int32Array | number[]): number {
  // Fast path: up to 4 bytes fit in 28 bits of int arithmetic.
  let b = buf[pos];
  if (b < 0x80 && pos < buf.length) {
    next[0] = pos + 1;
    return b;
  }
  let value = 0;
  let mul = 1;
  let shift = 0;
  const start = pos;
  for (;;) {
    if (pos >= buf.length) {
      throw new NavscopeError("truncated", "varint runs past the end of data", { offset: start });
    }
    b = buf[pos++];
    if (shift > 63 || (shift === 63 && (b & 0x7e) !== 0)) {
      throw new NavscopeError("varint_overflow", "varint shift passes 63 bits", { offset: start });
    }
    value += (b & 0x7f) * mul;
    if ((b & 0x80) === 0) break;
    mul *= 128;
    shift += 7;
  }
  if (value > Number.MAX_SAFE_INTEGER) {
    throw new NavscopeError(
      "varint_overflow",
      `varint value ${value} exceeds 2^53`,
      { offset: start },
      "a value below 2^53",
    );
  }
  next[0] = pos;
  return value;
}

/** Appends the LEB128 encoding of a non-negative integer (≤ 2^53) to `out` starting at `pos`. */
export function writeVarint(out: Uint8Array, pos: number, v: number): number {
  while (v >= 128) {
    out[pos++] = (v % 128) | 0x80;
    v = Math.floor(v / 128);
  }
  out[pos++] = v;
  return pos;
}

/** `2^32` as a constant for splitting u64 values. */
export const U32_RANGE = TWO32;
