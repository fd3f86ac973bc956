/**
 * The two optional record tables of the sidecar (spec 旁包; format-notes FLNK / FOPN).
 *
 * Both start with a 16-byte header — u32 count, u16 version 1, u16 unused, u32 zone count,
 * u32 unused — then `zone count` 12-byte zone-index entries (u16 zone, u16 unused, u32 first,
 * u32 length), then the records: FLNK 80 bytes, FOPN 16 bytes. The zone index must cover the
 * records contiguously in ascending zone order; the section must end right after the records.
 *
 * f32 fields are kept as raw bits (with a Float32Array view on the same memory) so a NaN payload
 * survives a decode/encode round trip unchanged.
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/mod.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, COST_MODIFIER, HEIGHT, LINK_RADIUS, outside } from "../bounds.ts";
import type {
  SidecarLinkTable,
  SidecarOpenTable,
  SidecarTableHeader,
  SidecarZoneIndex,
} from "./types.ts";

/** FLNK record size. */
export const FLNK_RECORD_SIZE = 80;
/** FOPN record size. */
export const FOPN_RECORD_SIZE = 16;
/** Version of both tables. */
export const TABLE_VERSION = 1;
/** Largest FLNK reason code (0 usable … 4 only non-core in band). */
export const FLNK_MAX_WHY = 4;

interface Head extends SidecarTableHeader {
  count: number;
  index: SidecarZoneIndex;
}

function readHead(r: ByteReader, recSize: number, tag: string): Head {
  r.need(16, `${tag} header`);
  const count = r.u32();
  const version = r.u16();
  const unused6 = r.u16();
  const zc = r.u32();
  const unused12 = r.u32();
  if (version !== TABLE_VERSION) {
    throw r.error("bad_version", `${tag} version ${version}`, `version ${TABLE_VERSION}`, 4);
  }
  const want = 16 + 12 * zc + recSize * count;
  if (want !== r.bytes.length) {
    throw r.error(
      want > r.bytes.length ? "truncated" : "stream_length",
      `${tag} with ${zc} zones and ${count} records needs ${want} bytes but the section has ${r.bytes.length}`,
      `${want} bytes`,
      0,
    );
  }
  const index: SidecarZoneIndex = {
    zone: new Uint16Array(zc),
    pad: new Uint16Array(zc),
    first: new Uint32Array(zc),
    length: new Uint32Array(zc),
  };
  let next = 0;
  for (let z = 0; z < zc; z++) {
    const at = r.pos;
    index.zone[z] = r.u16();
    index.pad[z] = r.u16();
    index.first[z] = r.u32();
    index.length[z] = r.u32();
    if ((z > 0 && index.zone[z] <= index.zone[z - 1]) || index.first[z] !== next) {
      throw r.error(
        "bad_value",
        `zone index entry ${z} (zone ${index.zone[z]}, first ${index.first[z]}) is out of order`,
        `ascending zones covering the records contiguously from ${next}`,
        at,
      );
    }
    next += index.length[z];
  }
  if (next !== count) {
    throw r.error("count_mismatch", `zone index covers ${next} records`, `${count} records`, 16);
  }
  return { count, version, unused6, unused12, index };
}

function writeHead(w: ByteWriter, t: Head): void {
  const zc = t.index.zone.length;
  w.u32(t.count).u16(t.version).u16(t.unused6).u32(zc).u32(t.unused12);
  for (let z = 0; z < zc; z++) {
    w.u16(t.index.zone[z]).u16(t.index.pad[z]).u32(t.index.first[z]).u32(t.index.length[z]);
  }
}

/** A u32 column and a float32 view of the same bytes (FLNK/FOPN keep float bit patterns). */
export function f32Pair(n: number): [Uint32Array, Float32Array] {
  const bits = new Uint32Array(n);
  return [bits, new Float32Array(bits.buffer)];
}

/** Decodes the FLNK section bytes; `base` is the section's absolute offset. */
export function decodeLinkTable(
  bytes: Uint8Array,
  where: ErrorLocation = {},
  base = 0,
): SidecarLinkTable {
  const r = new ByteReader(bytes, { ...where, section: "FLNK" }, base);
  const h = readHead(r, FLNK_RECORD_SIZE, "FLNK");
  const n = h.count;
  const [radiusBits, radius] = f32Pair(n);
  const [costModifierBits, costModifier] = f32Pair(n);
  const [hBits, hh] = f32Pair(2 * n);
  const [declHBits, declH] = f32Pair(2 * n);
  const t: SidecarLinkTable = {
    ...h,
    bomlIndex: new Uint32Array(n),
    zone: new Uint16Array(n),
    kind: new Uint8Array(n),
    valid: new Uint8Array(n),
    isExt: new Int32Array(n),
    bidirectional: new Int32Array(n),
    area: new Int32Array(n),
    linkType: new Uint16Array(n),
    direction: new Uint8Array(n),
    pad: new Uint8Array(n),
    radius,
    radiusBits,
    costModifier,
    costModifierBits,
    gx: new Int32Array(2 * n),
    gy: new Int32Array(2 * n),
    h: hh,
    hBits,
    declH,
    declHBits,
    rid: new Uint32Array(2 * n),
    clr: new Uint16Array(2 * n),
    flags: new Uint8Array(2 * n),
    why: new Uint8Array(2 * n),
  };
  for (let z = 0, i = 0; z < h.index.zone.length; z++) {
    for (const end = h.index.first[z] + h.index.length[z]; i < end; i++) {
      const at = r.pos;
      t.bomlIndex[i] = r.u32();
      t.zone[i] = r.u16();
      t.kind[i] = r.u8();
      t.valid[i] = r.u8();
      t.isExt[i] = r.i32();
      t.bidirectional[i] = r.i32();
      t.area[i] = r.i32();
      t.linkType[i] = r.u16();
      t.direction[i] = r.u8();
      t.pad[i] = r.u8();
      radiusBits[i] = r.u32();
      costModifierBits[i] = r.u32();
      for (let s = 2 * i; s < 2 * i + 2; s++) {
        t.gx[s] = r.i32();
        t.gy[s] = r.i32();
        hBits[s] = r.u32();
        declHBits[s] = r.u32();
        t.rid[s] = r.u32();
        t.clr[s] = r.u16();
        t.flags[s] = r.u8();
        t.why[s] = r.u8();
      }
      if (t.zone[i] !== h.index.zone[z]) {
        throw r.error(
          "bad_value",
          `record ${i} is in zone ${t.zone[i]} but indexed under zone ${h.index.zone[z]}`,
          `zone ${h.index.zone[z]}`,
          at,
        );
      }
      if (t.why[2 * i] > FLNK_MAX_WHY || t.why[2 * i + 1] > FLNK_MAX_WHY) {
        throw r.error(
          "bad_value",
          `record ${i} has reason code ${Math.max(t.why[2 * i], t.why[2 * i + 1])}`,
          `0..${FLNK_MAX_WHY}`,
          at,
        );
      }
      checkLinkRecord(r, t, i, at);
    }
  }
  r.expectEnd("FLNK records");
  return t;
}

/**
 * The values of FLNK record `i` that no correct writer produces (issue 27): FLNK is "由 BOML 换算"
 * — one record per BOML link, in BOML order, so `boml_index` is the record's own index; radius,
 * cost modifier and both sides' landing heights are finite (a NaN cost makes every jump across
 * the link free or impossible); `valid` says which sides are usable (bit k set ⇔ side k has
 * reason code 0, spec 旁包 "3 = both ends usable"); a side without a landing (reason 1–3)
 * carries no region id.
 */
function checkLinkRecord(r: ByteReader, t: SidecarLinkTable, i: number, at: number): void {
  const bad = (what: string, expected: string, off: number) =>
    r.error("bad_value", `record ${i}: ${what}`, expected, at + off);
  if (t.bomlIndex[i] !== i) {
    throw bad(`boml_index ${t.bomlIndex[i]}`, `${i} (one record per BOML link, in order)`, 0);
  }
  // Finite here; the range is the bound's (checkLinkRecordBounds), as for BOML.
  if (!Number.isFinite(t.radius[i])) throw bad(`radius ${t.radius[i]}`, "a finite radius", 24);
  if (!Number.isFinite(t.costModifier[i])) {
    throw bad(`cost_modifier ${t.costModifier[i]}`, "a finite cost modifier", 28);
  }
  checkLinkRecordBounds(t, i, (off) => ({ ...r.where, offset: r.base + at + off }));
  let valid = 0;
  for (let k = 0; k < 2; k++) {
    const s = 2 * i + k, off = 32 + 24 * k;
    if (!Number.isFinite(t.h[s])) throw bad(`side ${k} h ${t.h[s]}`, "a finite height", off + 8);
    if (!Number.isFinite(t.declH[s])) {
      throw bad(`side ${k} decl_h ${t.declH[s]}`, "a finite height", off + 12);
    }
    const why = t.why[s];
    if (why === 0) valid |= 1 << k;
    checkLinkSideBounds(t, i, k, (o) => ({ ...r.where, offset: r.base + at + off + o }));
    if (why >= 1 && why <= 3 && (t.rid[s] !== 0 || t.clr[s] !== 0 || t.flags[s] !== 0)) {
      throw bad(
        `side ${k} has no landing (reason ${why}) but region ${t.rid[s]}, clearance ${
          t.clr[s]
        }, flags ${t.flags[s]}`,
        "0, 0, 0 for a side without a landing",
        off + 16,
      );
    }
  }
  if (t.valid[i] !== valid) {
    throw bad(`valid ${t.valid[i]}`, `${valid} (from the sides' reason codes)`, 7);
  }
}

/**
 * The plausibility bounds of an FLNK record (issue 55, src/pack/bounds.ts): the radius and cost
 * modifier under the BOML rule (they must equal the BOML link's anyway). `at(off)` locates a
 * field at record offset `off`. Decoder and encoder.
 */
function checkLinkRecordBounds(
  t: SidecarLinkTable,
  i: number,
  at: (off: number) => ErrorLocation,
): void {
  checkBound(t.radius[i], LINK_RADIUS, at(24), `record ${i}`, "radius");
  checkBound(t.costModifier[i], COST_MODIFIER, at(28), `record ${i}`, "cost_modifier");
}

/**
 * Side `k` of FLNK record `i`: `h` and `decl_h` within ±1e5 m (issue 55). `at(off)` locates a
 * field at offset `off` of the side.
 */
function checkLinkSideBounds(
  t: SidecarLinkTable,
  i: number,
  k: number,
  at: (off: number) => ErrorLocation,
): void {
  const s = 2 * i + k;
  checkBound(t.h[s], HEIGHT, at(8), `record ${i}`, `side ${k} h`);
  checkBound(t.declH[s], HEIGHT, at(12), `record ${i}`, `side ${k} decl_h`);
}

/** Encodes an FLNK section; refuses values outside the bounds (as the decoder would). */
export function encodeLinkTable(t: SidecarLinkTable): Uint8Array {
  const w = new ByteWriter(16 + 12 * t.index.zone.length + FLNK_RECORD_SIZE * t.count);
  writeHead(w, t);
  const where: ErrorLocation = { section: "FLNK" };
  for (let i = 0; i < t.count; i++) {
    checkLinkRecordBounds(t, i, () => where);
    checkLinkSideBounds(t, i, 0, () => where);
    checkLinkSideBounds(t, i, 1, () => where);
    w.u32(t.bomlIndex[i]).u16(t.zone[i]).u8(t.kind[i]).u8(t.valid[i]);
    w.i32(t.isExt[i]).i32(t.bidirectional[i]).i32(t.area[i]);
    w.u16(t.linkType[i]).u8(t.direction[i]).u8(t.pad[i]);
    w.u32(t.radiusBits[i]).u32(t.costModifierBits[i]);
    for (let s = 2 * i; s < 2 * i + 2; s++) {
      w.i32(t.gx[s]).i32(t.gy[s]).u32(t.hBits[s]).u32(t.declHBits[s]).u32(t.rid[s]);
      w.u16(t.clr[s]).u8(t.flags[s]).u8(t.why[s]);
    }
  }
  return w.finish();
}

/**
 * Jump cost of FLNK record `i` in cells: `f32(max(c, 1)) ⊗ f32(hypot(Δx, Δy))` over the two
 * sides' global cells (formulas.md entry 91; format-notes "max(cost_modifier, 1) × cell
 * distance").
 */
export function linkJumpCost(t: SidecarLinkTable, i: number): number {
  const dx = t.gx[2 * i + 1] - t.gx[2 * i];
  const dy = t.gy[2 * i + 1] - t.gy[2 * i];
  return Math.fround(Math.fround(Math.max(t.costModifier[i], 1)) * Math.fround(Math.hypot(dx, dy)));
}

/** Sort key comparison of FOPN records: (gy, gx, bits of h), gx/gy signed, bits unsigned. */
function openCmp(
  gyA: number,
  gxA: number,
  hA: number,
  gyB: number,
  gxB: number,
  hB: number,
): number {
  return gyA - gyB || gxA - gxB || hA - hB;
}

/** Decodes the FOPN section bytes; checks the per-zone order ("加载时校验顺序"). */
export function decodeOpenTable(
  bytes: Uint8Array,
  where: ErrorLocation = {},
  base = 0,
): SidecarOpenTable {
  const r = new ByteReader(bytes, { ...where, section: "FOPN" }, base);
  const h = readHead(r, FOPN_RECORD_SIZE, "FOPN");
  const n = h.count;
  const [hBits, hh] = f32Pair(n);
  const t: SidecarOpenTable = {
    ...h,
    gx: new Int32Array(n),
    gy: new Int32Array(n),
    h: hh,
    hBits,
    clr: new Uint16Array(n),
    flags: new Uint8Array(n),
    src: new Uint8Array(n),
  };
  for (let z = 0, i = 0; z < h.index.zone.length; z++) {
    const first = h.index.first[z];
    for (const end = first + h.index.length[z]; i < end; i++) {
      const at = r.pos;
      t.gx[i] = r.i32();
      t.gy[i] = r.i32();
      hBits[i] = r.u32();
      t.clr[i] = r.u16();
      t.flags[i] = r.u8();
      t.src[i] = r.u8();
      if (!Number.isFinite(hh[i])) {
        throw r.error("bad_value", `open record ${i} height ${hh[i]}`, "a finite height", at + 8);
      }
      if (outside(hh[i], HEIGHT)) {
        checkBound(hh[i], HEIGHT, { ...r.where, offset: r.base + at + 8 }, `open record ${i}`, "h");
      }
      if (
        i > first &&
        openCmp(t.gy[i], t.gx[i], hBits[i], t.gy[i - 1], t.gx[i - 1], hBits[i - 1]) <= 0
      ) {
        throw r.error(
          "bad_value",
          `open record ${i} (gx ${t.gx[i]}, gy ${t.gy[i]}) is not after record ${i - 1} in zone ${
            h.index.zone[z]
          }`,
          "records strictly ascending by (gy, gx, bits of h)",
          at,
        );
      }
    }
  }
  r.expectEnd("FOPN records");
  return t;
}

/** Encodes an FOPN section. */
export function encodeOpenTable(t: SidecarOpenTable): Uint8Array {
  const w = new ByteWriter(16 + 12 * t.index.zone.length + FOPN_RECORD_SIZE * t.count);
  writeHead(w, t);
  const hh = new Float32Array(t.hBits.buffer, t.hBits.byteOffset, t.count);
  for (let i = 0; i < t.count; i++) {
    checkBound(hh[i], HEIGHT, { section: "FOPN" }, `open record ${i}`, "h");
    w.i32(t.gx[i]).i32(t.gy[i]).u32(t.hBits[i]).u16(t.clr[i]).u8(t.flags[i]).u8(t.src[i]);
  }
  return w.finish();
}

/** `[first, end)` record range of `zone` in a table's zone index, or `[0, 0)` if absent. */
export function zoneRange(index: SidecarZoneIndex, zone: number): [number, number] {
  let lo = 0, hi = index.zone.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = index.zone[mid];
    if (v === zone) return [index.first[mid], index.first[mid] + index.length[mid]];
    if (v < zone) lo = mid + 1;
    else hi = mid - 1;
  }
  return [0, 0];
}

/** Index of the FOPN record (gx, gy, bits of h) within `[first, end)`, or -1 (binary search). */
export function openIndexOf(
  t: SidecarOpenTable,
  first: number,
  end: number,
  gx: number,
  gy: number,
  hBits: number,
): number {
  let lo = first, hi = end - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = openCmp(t.gy[mid], t.gx[mid], t.hBits[mid], gy, gx, hBits);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Builds an FOPN table from plain records (sorts each zone's records; used by the baker and
 * tests). Throws `bad_value` on a duplicate key.
 */
export function buildOpenTable(
  records: ReadonlyArray<
    { zone: number; gx: number; gy: number; h: number; clr: number; flags: number; src: number }
  >,
): SidecarOpenTable {
  const hb = new Uint32Array(1);
  const hf = new Float32Array(hb.buffer);
  const rs = records.map((x) => {
    hf[0] = x.h;
    return { ...x, bits: hb[0] };
  }).sort((a, b) => a.zone - b.zone || openCmp(a.gy, a.gx, a.bits, b.gy, b.gx, b.bits));
  const zones = [...new Set(rs.map((x) => x.zone))];
  const n = rs.length;
  const [hBits, h] = f32Pair(n);
  const t: SidecarOpenTable = {
    count: n,
    version: TABLE_VERSION,
    unused6: 0,
    unused12: 0,
    index: {
      zone: Uint16Array.from(zones),
      pad: new Uint16Array(zones.length),
      first: new Uint32Array(zones.length),
      length: new Uint32Array(zones.length),
    },
    gx: new Int32Array(n),
    gy: new Int32Array(n),
    h,
    hBits,
    clr: new Uint16Array(n),
    flags: new Uint8Array(n),
    src: new Uint8Array(n),
  };
  rs.forEach((x, i) => {
    const z = zones.indexOf(x.zone);
    if (t.index.length[z] === 0) t.index.first[z] = i;
    t.index.length[z]++;
    if (
      i > 0 && rs[i - 1].zone === x.zone &&
      openCmp(x.gy, x.gx, x.bits, rs[i - 1].gy, rs[i - 1].gx, rs[i - 1].bits) === 0
    ) {
      throw new NavscopeError("bad_value", `duplicate open record (${x.gx}, ${x.gy})`, {
        section: "FOPN",
      });
    }
    t.gx[i] = x.gx;
    t.gy[i] = x.gy;
    hBits[i] = x.bits;
    t.clr[i] = x.clr;
    t.flags[i] = x.flags;
    t.src[i] = x.src;
  });
  return t;
}
