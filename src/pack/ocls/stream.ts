/**
 * A strict reader for the twelve OCLZ streams (spec 数据包 › OccluderPack). On top of
 * {@link ByteReader} it rejects non-canonical (over-long) varints and integers outside the i32
 * range, so that every body the decoder accepts re-encodes to the very same bytes.
 * @module
 */
import { ByteReader } from "../../codec/bytes.ts";
import { varintSize } from "../../codec/varint.ts";
import type { ErrorLocation } from "../../errors.ts";

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;

/** Strict cursor over one OCLZ stream. */
export class OclzStreamReader extends ByteReader {
  constructor(bytes: Uint8Array, where: ErrorLocation, base: number) {
    super(bytes, where, base);
  }

  /** Unsigned varint in its shortest form (an over-long form would not round-trip). */
  uvar(what: string): number {
    const start = this.pos;
    const v = this.varint();
    if (this.pos - start !== varintSize(v)) {
      throw this.error("bad_value", `${what}: over-long varint encoding`, "shortest LEB128", start);
    }
    return v;
  }

  /** Unsigned varint bounded by `max` (inclusive). */
  uvarMax(what: string, max: number): number {
    const start = this.pos;
    const v = this.uvar(what);
    if (v > max) throw this.error("bad_value", `${what} ${v} is too large`, `≤ ${max}`, start);
    return v;
  }

  /** Zigzag varint in shortest form. */
  svar(what: string): number {
    const u = this.uvar(what);
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }

  /** Checks that `v` (read at `start`) fits an i32 and returns it. */
  i32Range(v: number, what: string, start: number): number {
    if (v < I32_MIN || v > I32_MAX) {
      throw this.error("bad_value", `${what} ${v} is outside the i32 range`, "an i32", start);
    }
    return v;
  }

  /** Adds a zigzag delta to `prev` and checks the result fits an i32. */
  delta32(prev: number, what: string): number {
    const start = this.pos;
    return this.i32Range(prev + this.svar(what), what, start);
  }
}
