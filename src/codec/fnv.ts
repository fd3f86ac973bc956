/**
 * FNV-1a 64 (spec 数据包 › 公共编码, [8]). Streaming and exact: the 64-bit state is kept as two
 * 32-bit halves so the inner loop never touches BigInt.
 *
 * prime = 2^40 + 0x1b3, so h·prime = h·0x1b3 + (h << 40): the low half contributes `lo·0x1b3`
 * (exact in a double, < 2^41) and `lo << 8` to the high half.
 * @module
 */

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
const TWO32 = 4294967296;

/** Incremental FNV-1a 64 hasher. */
export class Fnv1a64 {
  #hi = OFFSET_HI;
  #lo = OFFSET_LO;

  /** Feeds bytes into the hash. Returns `this` for chaining. */
  update(bytes: Uint8Array): this {
    let hi = this.#hi;
    let lo = this.#lo;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      const x = (lo ^ bytes[i]) >>> 0;
      const t = x * 0x1b3;
      const nlo = t >>> 0;
      const carry = (t - nlo) / TWO32;
      hi = (Math.imul(hi, 0x1b3) + (x << 8) + carry) >>> 0;
      lo = nlo;
    }
    this.#hi = hi;
    this.#lo = lo;
    return this;
  }

  /** High 32 bits of the current state. */
  get hi(): number {
    return this.#hi;
  }

  /** Low 32 bits of the current state. */
  get lo(): number {
    return this.#lo;
  }

  /** The current hash as an unsigned 64-bit bigint. */
  digest(): bigint {
    return (BigInt(this.#hi) << 32n) | BigInt(this.#lo);
  }

  /** The current hash as 16 lowercase hex digits. */
  hex(): string {
    return this.#hi.toString(16).padStart(8, "0") + this.#lo.toString(16).padStart(8, "0");
  }
}

/** One-shot FNV-1a 64 of a byte array, as a bigint. */
export function fnv1a64(bytes: Uint8Array): bigint {
  return new Fnv1a64().update(bytes).digest();
}

/** One-shot FNV-1a 64 of a byte array, as 16 hex digits. */
export function fnv1a64Hex(bytes: Uint8Array): string {
  return new Fnv1a64().update(bytes).hex();
}
