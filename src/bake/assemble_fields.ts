/**
 * FSPN tiles held encoded (spec 旁包 › FSPN): the baker encodes each tile's six columns as soon
 * as its window is assembled and keeps only the payload, so the columns of every tile are never
 * in memory together. The sidecar encoder takes `FieldsTile` objects; the array returned here
 * decodes a tile from its payload whenever an element is read (`encodeFieldsTile` is canonical
 * and `decodeFieldsTile` exact, so re-encoding gives back the same payload).
 * @module
 */

import { ByteWriter } from "../codec/mod.ts";
import {
  decodeFieldsTile,
  encodeFieldsTile,
  encodeSidecar,
  FCON_SIZE,
} from "../pack/bnvf/sidecar.ts";
import type { FieldsTile, SidecarModel } from "../pack/bnvf/types.ts";

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
  PACKED.set(out, packed);
  packed.forEach((p, i) => {
    Object.defineProperty(out, i, {
      enumerable: true,
      get: () => decodeFieldsTile(p.payload, p.n, { zone, tile: i }),
    });
  });
  return out;
}

/** The payloads behind each lazy tile array (see {@link encodeSidecarPacked}). */
const PACKED = new WeakMap<FieldsTile[], readonly PackedFieldsTile[]>();

/**
 * `encodeSidecar(m)` without decoding and re-encoding the FSPN tiles: zones whose tiles come
 * from {@link lazyFieldsTiles} contribute their stored payloads, which are exactly what
 * `encodeFieldsTile` gives for the decoded tile (the FSPN columns round-trip losslessly, and
 * the payload is that encoder's output for the same columns). Every other section and the
 * layout are written as `encodeSidecar` writes them (bnvf.ts: FZON entries, FSPN tile
 * directories, 8-byte section alignment, directory entries). Falls back to `encodeSidecar`
 * when a zone's tiles are plain arrays.
 */
export function encodeSidecarPacked(m: SidecarModel): Uint8Array {
  const packedZones = m.zones.map((z) => PACKED.get(z.tiles));
  if (packedZones.some((p) => p === undefined) || m.fcon.length !== FCON_SIZE) {
    return encodeSidecar(m);
  }
  return encodeSidecar(m, packedZones.map((p) => zoneFspn(p!)));
}

/** A zone's FSPN block from stored payloads: (n u32, offset u64, size u32) per tile, payloads. */
function zoneFspn(payloads: readonly PackedFieldsTile[]): Uint8Array {
  const w = new ByteWriter(
    16 * payloads.length + payloads.reduce((a, p) => a + p.payload.length, 0),
  );
  let off = 16 * payloads.length;
  for (const p of payloads) {
    w.u32(p.n).u64(off).u32(p.payload.length);
    off += p.payload.length;
  }
  for (const p of payloads) w.bytes(p.payload);
  return w.finish();
}
