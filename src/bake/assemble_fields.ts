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
  BNVF_DIR_ENTRY_SIZE,
  BNVF_FLAG_SCC_EXTRA,
  BNVF_HEADER_SIZE,
  BNVF_MAGIC,
  BNVF_VERSION,
  decodeFieldsTile,
  encodeComponentGraphs,
  encodeFieldsTile,
  encodeLinkTable,
  encodeOpenTable,
  encodeSidecar,
  encodeWallTable,
  FCON_SIZE,
} from "../pack/bnvf.ts";
import type { FieldsTile, SidecarModel, SidecarRawSection } from "../pack/bnvf_types.ts";

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
  const extra = (m.flags & BNVF_FLAG_SCC_EXTRA) !== 0;
  const fspnParts = packedZones.map((p) => zoneFspn(p!));
  const fsccParts = m.zones.map((z) => encodeComponentGraphs(z.graphs, extra));
  const fwalParts = m.zones.map((z) => encodeWallTable(z.walls));
  const [fspn, fspnOff] = concat(fspnParts);
  const [fscc, fsccOff] = concat(fsccParts);
  const [fwal, fwalOff] = concat(fwalParts);
  const fzon = new ByteWriter(64);
  fzon.u32(m.zones.length);
  const enc = new TextEncoder();
  m.zones.forEach((z, i) => {
    const name = enc.encode(z.name);
    fzon.u32(name.length).bytes(name).align(4);
    fzon.u32(z.regions).u32(z.tiles.length);
    fzon.u64(fspnOff[i]).u64(fspnParts[i].length);
    fzon.u64(fsccOff[i]).u64(fsccParts[i].length);
    fzon.u64(fwalOff[i]).u64(fwalParts[i].length);
  });
  const sections: SidecarRawSection[] = [
    { tag: "FCON", flags: 0, bytes: m.fcon },
    { tag: "FZON", flags: 0, bytes: fzon.finish() },
    { tag: "FSPN", flags: 0, bytes: fspn },
    { tag: "FSCC", flags: 0, bytes: fscc },
    { tag: "FWAL", flags: 0, bytes: fwal },
  ];
  if (m.links) sections.push({ tag: "FLNK", flags: 0, bytes: encodeLinkTable(m.links) });
  if (m.opens) sections.push({ tag: "FOPN", flags: 0, bytes: encodeOpenTable(m.opens) });
  for (const s of sections) s.flags = m.sectionFlags?.[s.tag] ?? 0;
  for (const u of m.unknown ?? []) sections.push(u);
  const w = new ByteWriter(
    BNVF_HEADER_SIZE + sections.reduce((a, s) => a + s.bytes.length + 32, 0),
  );
  w.tag(BNVF_MAGIC).u16(BNVF_VERSION).u16(m.flags).u64big(m.buildHash).u64big(m.fileFnv);
  w.u32(m.rules).u32(sections.length).u64(BNVF_HEADER_SIZE).u64big(m.reserved ?? 0n);
  const dirAt = w.length;
  w.zeros(sections.length * BNVF_DIR_ENTRY_SIZE);
  sections.forEach((s, i) => {
    w.align(SECTION_ALIGN);
    const off = w.length;
    w.bytes(s.bytes);
    const e = dirAt + i * BNVF_DIR_ENTRY_SIZE;
    for (let k = 0; k < 4; k++) w.view()[e + k] = s.tag.charCodeAt(k);
    w.patchU32(e + 4, s.flags).patchU64(e + 8, off).patchU64(e + 16, s.bytes.length);
  });
  return w.finish();
}

/** Section alignment of BNVF (bnvf.ts). */
const SECTION_ALIGN = 8;

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

function concat(parts: Uint8Array[]): [Uint8Array, number[]] {
  const offs: number[] = [];
  const w = new ByteWriter(parts.reduce((a, p) => a + p.length, 16));
  for (const p of parts) {
    offs.push(w.length);
    w.bytes(p);
  }
  return [w.finish(), offs];
}
