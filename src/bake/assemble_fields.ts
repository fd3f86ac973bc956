/**
 * FSPN tiles held encoded (spec 旁包 › FSPN): the baker encodes each tile's six columns as soon
 * as its window is assembled and keeps only the payload, so the columns of every tile are never
 * in memory together. The sidecar encoder takes `FieldsTile` objects; the array returned here
 * decodes a tile from its payload whenever an element is read (`encodeFieldsTile` is canonical
 * and `decodeFieldsTile` exact, so re-encoding gives back the same payload).
 * @module
 */

import { decodeFieldsTile, encodeFieldsTile } from "../pack/bnvf.ts";
import type { FieldsTile } from "../pack/bnvf_types.ts";

/** An encoded FSPN tile. */
export interface PackedFieldsTile {
  /** Record count. */
  n: number;
  /** The FSPN tile payload. */
  payload: Uint8Array;
}

/** Encodes one tile's columns. */
export function packFieldsTile(t: FieldsTile): PackedFieldsTile {
  return { n: t.n, payload: encodeFieldsTile(t) };
}

/** An array of tiles that decodes element `i` from `packed[i]` on every read. */
export function lazyFieldsTiles(packed: readonly PackedFieldsTile[], zone: string): FieldsTile[] {
  const out: FieldsTile[] = new Array(packed.length);
  packed.forEach((p, i) => {
    Object.defineProperty(out, i, {
      enumerable: true,
      get: () => decodeFieldsTile(p.payload, p.n, { zone, tile: i }),
    });
  });
  return out;
}
