/**
 * Merging the sidecar's six columns into decoded grid records (spec 建窗 › 解码瓦片 steps 4–6,
 * 旁包 FSPN table; formulas.md entry 90).
 *
 * | column  | merge |
 * |---------|-------|
 * | scc     | kept as is |
 * | steps2x | XOR with the main pack's step bits → re-judged step bits |
 * | seg     | kept; the medial bit goes into bit 7 ("中轴位并进 bit7") |
 * | tax     | kept as is |
 * | clr2d   | main clearance minus it, written back into the record; shrink only |
 *
 * Clearance may only shrink: boundary edges only bring obstacles closer, so clr2d larger than
 * the main clearance means the sidecar does not match the main pack — the whole merge fails
 * before any record is touched (no partial result). FOPN runs afterwards on records without
 * Core: a record matching (gx, gy, bits of h) ORs in the table's flags and takes the larger
 * clearance; the order matters, or the sealed clearance would press an opened cell back to 0.
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { openIndexOf, zoneRange } from "./tables.ts";
import type { FieldsTile, SidecarOpenTable } from "./types.ts";
import { type SpanColumns, SpanFlag } from "../grid_types.ts";

/** Bit of the merged `seg` byte that carries the medial-axis mark. */
export const SEG_MEDIAL_BIT = 0x80;

/** The merged per-record fields of one tile (columnar). */
export interface MergedFields {
  /** Record count. */
  n: number;
  /** Component id inside the region (1-based; 0 for Fill). */
  scc: Int32Array;
  /** Re-judged step bits (main steps XOR steps2x). */
  steps2: Uint8Array;
  /** Facade segment bits, medial mark in bit 7. */
  seg: Uint8Array;
  /** Step-tax edge bits. */
  tax: Uint8Array;
  /** Clearance including kept boundary edges (squared cells); the records' `clr` when written back. */
  clr: Uint16Array;
}

/**
 * Merges a fields tile into a tile's records. With `writeBack` (the default, as the spec does to
 * save memory) the sealed clearance is written into `cols.clr` and `clr` is that same array;
 * otherwise `cols` is left untouched and `clr` is a new array.
 */
export function mergeFields(
  cols: SpanColumns,
  f: FieldsTile,
  where: ErrorLocation = {},
  writeBack = true,
): MergedFields {
  const n = cols.n;
  const loc = { ...where, section: "FSPN" };
  if (f.n !== n) {
    throw new NavscopeError(
      "count_mismatch",
      `fields tile has ${f.n} records`,
      loc,
      `${n} records as in BGRD`,
    );
  }
  // Validate everything first so a failure leaves the records untouched.
  for (let i = 0; i < n; i++) {
    if (f.clr2d[i] > cols.clr[i]) {
      throw new NavscopeError(
        "bad_value",
        `record ${i}: clr2d ${f.clr2d[i]} exceeds the main clearance ${
          cols.clr[i]
        } (sealed clearance would be negative)`,
        loc,
        "clr2d ≤ main clearance: the clearance may only shrink",
      );
    }
    if (f.seg[i] & SEG_MEDIAL_BIT) {
      throw new NavscopeError(
        "bad_value",
        `record ${i}: seg byte 0x${f.seg[i].toString(16)} uses bit 7, reserved for the medial mark`,
        loc,
        "seg bits 0..6 only",
      );
    }
  }
  const clr = writeBack ? cols.clr : new Uint16Array(n);
  const steps2 = new Uint8Array(n);
  const seg = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    clr[i] = cols.clr[i] - f.clr2d[i];
    steps2[i] = cols.steps[i] ^ f.steps2x[i];
    seg[i] = f.seg[i] | ((f.medial[i] & 1) << 7);
  }
  return { n, scc: f.scc.slice(0, n), steps2, seg, tax: f.tax.slice(0, n), clr };
}

/**
 * The final step-ban bits of one record (spec 禁步与立面段): per direction, if the main pack's two
 * bits are both 0 the direction is skipped (0); otherwise the re-judged two bits are the result.
 */
export function finalStepBits(mainSteps: number, steps2: number): number {
  let out = 0;
  for (let d = 0; d < 4; d++) {
    const m = 3 << (2 * d);
    if (mainSteps & m) out |= steps2 & m;
  }
  return out;
}

/** Where a tile sits on the global grid: window origin and width in cells. */
export interface TileOrigin {
  /** Global cell x of the tile window's origin. */
  gx0: number;
  /** Global cell y of the tile window's origin. */
  gy0: number;
  /** Window width in cells (cell index = ly·nx + lx). */
  nx: number;
}

/**
 * Applies FOPN to a tile's records (after {@link mergeFields}): every record without Core whose
 * global (gx, gy, bits of h) is in the table for `zone` gets `flags |= open.flags` and
 * `clr = max(clr, open.clr)`. Returns the number of records changed. `zone` is the zone number
 * the table's zone index uses.
 */
export function applyOpenCells(
  cols: SpanColumns,
  origin: TileOrigin,
  opens: SidecarOpenTable | null,
  zone: number,
): number {
  if (!opens) return 0;
  const [first, end] = zoneRange(opens.index, zone);
  if (first === end) return 0;
  const hBits = new Uint32Array(cols.h.buffer, cols.h.byteOffset, cols.n);
  let hits = 0;
  for (let i = 0; i < cols.n; i++) {
    if (cols.flags[i] & SpanFlag.Core) continue;
    const c = cols.cell[i];
    const ly = Math.floor(c / origin.nx);
    const gx = origin.gx0 + (c - ly * origin.nx);
    const gy = origin.gy0 + ly;
    const k = openIndexOf(opens, first, end, gx, gy, hBits[i]);
    if (k < 0) continue;
    cols.flags[i] |= opens.flags[k];
    if (opens.clr[k] > cols.clr[i]) cols.clr[i] = opens.clr[k];
    hits++;
  }
  return hits;
}
