/**
 * The rule constants the fields sidecar was baked with (spec 旁包校验, FCON table; format-notes
 * "BNVF fields sidecar" › FCON). The FCON section is a 144-byte snapshot of them — 15 f64 then
 * 6 i32 — and is compared byte for byte with {@link RUNTIME_FCON}: any difference makes the whole
 * sidecar unusable, there is no degraded path ("判据不一致的场比没有场更糟").
 * @module
 */
import { K_CS } from "../grid_types.ts";

/** Length of the FCON section in bytes: 15 f64 + 6 i32. */
export const FCON_SIZE = 144;

/** Rules version written in the BNVF header and in FCON (kFieldsRulesVersion). */
export const FIELDS_RULES_VERSION = 2;

/**
 * The runtime rule constants, in FCON order, with the glossary names.
 *
 * Values: format-notes FCON list, except `kStepTax`: the article sets it to 0 (formulas.md
 * entry 14, "Ref differs: the reference writes 6"); the article is newer and wins.
 */
export const RUNTIME_CONSTANTS = Object.freeze({
  /** Cell side, px. */
  kCS: 0.25,
  /** Height step allowed between neighbouring spans of one region, m. */
  kClimb: 3.0,
  /** Slope factor (kMergeH = kSlope·kCS). */
  kSlope: 1.0,
  /** Step height walkable without a ramp, m. */
  kStepUp: 0.5,
  /** Upward height allowed across a narrow bump or dip, m. */
  kBumpUp: 1.25,
  /** Wall height threshold, m. */
  kWallH: 1.25,
  /** Height band for marking walls Dead, m. */
  kMcHBand: 8.0,
  /** Span merge height, m. */
  kMergeH: 0.25,
  /** Clearance cap, px. */
  kEdtCap: 12.0,
  /** Wall sampling step (fraction of kCS). */
  kWallSampleStep: 0.4,
  /** Hit sampling step. */
  kHitSampleStep: 0.2,
  /** Wall bounding-box margin, px. */
  kWallBoxMargin: 4.0,
  /** Step tax (0: no step-tax penalty, spec 展开成栅格图层). */
  kStepTax: 0.0,
  /** λ of the λ-medial axis, px. */
  kClrLambda: 0.5,
  /** Reserved f64 slot, 0. */
  kReservedF64: 0.0,
  /** Bump width, cells. */
  kBumpCells: 3,
  /** Dip width, cells. */
  kDipCells: 2,
  /** Halo around a region's bounding box for the full-region rectangle, cells. */
  kFieldHalo: 32,
  /** Walkable surface-flag whitelist (BSRF). */
  kWalkableMask: 0x00020cdd,
  /** Rules version. */
  kFieldsRulesVersion: FIELDS_RULES_VERSION,
  /** Reserved i32 slot, 0. */
  kReservedI32: 0,
});

/** The shape of {@link RUNTIME_CONSTANTS}. */
export type RuleConstants = { readonly [K in keyof typeof RUNTIME_CONSTANTS]: number };

/** FCON's f64 slots, in order. */
export const FCON_F64_NAMES = [
  "kCS",
  "kClimb",
  "kSlope",
  "kStepUp",
  "kBumpUp",
  "kWallH",
  "kMcHBand",
  "kMergeH",
  "kEdtCap",
  "kWallSampleStep",
  "kHitSampleStep",
  "kWallBoxMargin",
  "kStepTax",
  "kClrLambda",
  "kReservedF64",
] as const;

/** FCON's i32 slots, in order. */
export const FCON_I32_NAMES = [
  "kBumpCells",
  "kDipCells",
  "kFieldHalo",
  "kWalkableMask",
  "kFieldsRulesVersion",
  "kReservedI32",
] as const;

if (RUNTIME_CONSTANTS.kCS !== K_CS) throw new Error("kCS disagrees with grid_types K_CS");

/** Serialises a set of rule constants into the 144 FCON bytes. */
export function encodeFcon(c: RuleConstants = RUNTIME_CONSTANTS): Uint8Array {
  const out = new Uint8Array(FCON_SIZE);
  const v = new DataView(out.buffer);
  FCON_F64_NAMES.forEach((k, i) => v.setFloat64(i * 8, c[k], true));
  FCON_I32_NAMES.forEach((k, i) => v.setInt32(120 + i * 4, c[k], true));
  return out;
}

/** Reads 144 FCON bytes back into named constants (for `inspect` and error messages). */
export function decodeFcon(bytes: Uint8Array): Record<string, number> {
  const v = new DataView(bytes.buffer, bytes.byteOffset, FCON_SIZE);
  const out: Record<string, number> = {};
  FCON_F64_NAMES.forEach((k, i) => (out[k] = v.getFloat64(i * 8, true)));
  FCON_I32_NAMES.forEach((k, i) => (out[k] = v.getInt32(120 + i * 4, true)));
  return out;
}

/** The FCON bytes of the runtime constants: what every loaded sidecar must carry. */
export const RUNTIME_FCON: Uint8Array = encodeFcon();

/**
 * Compares FCON bytes with the runtime snapshot. Returns -1 when equal, else the first
 * differing byte offset (a length mismatch reports the shorter length).
 */
export function fconFirstDifference(bytes: Uint8Array, runtime = RUNTIME_FCON): number {
  const n = Math.min(bytes.length, runtime.length);
  for (let i = 0; i < n; i++) if (bytes[i] !== runtime[i]) return i;
  return bytes.length === runtime.length ? -1 : n;
}

/** Name of the FCON slot that holds byte `offset` (for error messages). */
export function fconSlotName(offset: number): string {
  if (offset < 120) return FCON_F64_NAMES[Math.floor(offset / 8)] ?? "?";
  return FCON_I32_NAMES[Math.floor((offset - 120) / 4)] ?? "?";
}
