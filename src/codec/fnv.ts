/**
 * FNV-1a 64 (spec 数据包 › 公共编码, [8]). Streaming and exact: the 64-bit state is kept as
 * 16-bit limbs so the inner loop never touches BigInt. prime = 2^40 + 0x1b3, so
 * h·prime = h·0x1b3 + (h << 40) mod 2^64.
 * @module
 */

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;

/** Incremental FNV-1a 64 hasher. */
export class Fnv1a64 {
  #hi = OFFSET_HI;
  #lo = OFFSET_LO;

  /** Feeds bytes into the hash. Returns `this` for chaining. */
  update(bytes: Uint8Array): this {
    // Four 16-bit limbs keep every intermediate a small integer (no float division, no BigInt):
    // h·0x1b3 limb by limb, plus h << 40 = limbs 0 and 1 shifted by 8 into limbs 2 and 3.
    let h0 = this.#lo & 0xffff;
    let h1 = this.#lo >>> 16;
    let h2 = this.#hi & 0xffff;
    let h3 = this.#hi >>> 16;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      h0 ^= bytes[i];
      const t0 = h0 * 0x1b3;
      let t1 = h1 * 0x1b3;
      let t2 = h2 * 0x1b3 + (h0 << 8);
      const t3 = h3 * 0x1b3 + (h1 << 8);
      t1 += t0 >>> 16;
      h0 = t0 & 0xffff;
      t2 += t1 >>> 16;
      h1 = t1 & 0xffff;
      h3 = (t3 + (t2 >>> 16)) & 0xffff;
      h2 = t2 & 0xffff;
    }
    this.#lo = ((h1 << 16) | h0) >>> 0;
    this.#hi = ((h3 << 16) | h2) >>> 0;
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
