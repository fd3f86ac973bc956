/**
 * Criterion constants shared by the bake and the runtime (spec 约定 table and 旁包 › FCON).
 * The FCON values themselves have one source, `RUNTIME_CONSTANTS` in the pack layer (the sidecar
 * compares them byte for byte); this module re-exports them under the glossary names and adds
 * the derived bake constants.
 * @module
 */

import { RUNTIME_CONSTANTS as C } from "../pack/bnvf/constants.ts";

/** Cell side, px (spec 约定: kCS). */
export const kCS = C.kCS;
/** Region link / drop threshold, metres, symmetric (spec 约定: kClimb). */
export const kClimb = C.kClimb;
/** Max climbable slope tan θ (spec 向上一步: kSlope = 1). */
export const kSlope = C.kSlope;
/** Step height a character can step onto directly, metres (spec 约定: kStepUp). */
export const kStepUp = C.kStepUp;
/** Rise allowed over a narrow bump / out of a shallow dip, metres (spec 约定: kBumpUp). */
export const kBumpUp = C.kBumpUp;
/** FCON's kWallH (6th f64); kept for the constants block (format-notes FCON). */
export const kWallH = C.kWallH;
/** Height band around a wall edge inside which spans turn Dead, metres (spec 标墙). */
export const kMcHBand = C.kMcHBand;
/** Span merge tolerance against the group's first sample: kSlope·kCS (spec span 合并). */
export const kMergeH = C.kMergeH;
/** Clearance cap, px (spec 约定: kEdtCap). */
export const kEdtCap = C.kEdtCap;
/** Wall sampling step factor: samples every 0.4·kCS = 0.1 px (formulas #36). */
export const kWallSampleStep = C.kWallSampleStep;
/** Hit sampling step (FCON 11th f64). */
export const kHitSampleStep = C.kHitSampleStep;
/** Wall edge collection margin around the window, px (spec 标墙: 外扩 4 像素). */
export const kWallBoxPad = C.kWallBoxMargin;
/** Step tax; the article sets it to 0 (formulas #14: the reference's 6 is superseded). */
export const kStepTax = C.kStepTax;
/** λ of the λ-medial axis, px = 2 cells (spec 中轴: kClrLambda). */
export const kClrLambda = C.kClrLambda;
/** Cells ahead checked for a bump, s = 2..kBumpCells (spec 向上一步 rule 8). */
export const kBumpCells = C.kBumpCells;
/** Cells behind checked for a dip, s = 1..kDipCells (spec 向上一步 rule 9). */
export const kDipCells = C.kDipCells;
/** Cells ahead checked before a drop, s = 1..kSeamCells (spec 向下一步). */
export const kSeamCells = 4;
/** Halo around a region box for full windows and sidecar fields, cells (spec 净空). */
export const kFieldHalo = C.kFieldHalo;
/** Walkable surface-flag whitelist (spec 面属性). */
export const kWalkableMask = C.kWalkableMask;
/** Criterion version stored in the sidecar (spec 旁包校验 #3). */
export const kRulesVersion = C.kFieldsRulesVersion;
/** Drop limit: +∞, characters take no fall damage (formulas #57). */
export const kDrop = Infinity;
/** Largest hole FillHoles fills, cells (spec 填洞与合缝: 32 cells = 2 px²). */
export const kHoleMaxCells = 32;
/** CloseCracks reach k = max(1, rint(0.5/kCS)) = 2 cells (formulas #40). */
export const kCrackReach = 2;
/** CloseCracks round limit (spec 填洞与合缝). */
export const kCrackRounds = 4;
/** Row-pass half window of the clearance EDT: ⌈kEdtCap/kCS⌉ + 1 = 49 cells (formulas #42). */
export const kEdtWin: number = Math.ceil(kEdtCap / kCS) + 1;
/** Column distance cap of the EDT: 4·49 = 196 cells (formulas #42). */
export const kEdtColCap = 4 * kEdtWin;
/** Medial threshold: ⌈(λ/kCS)²⌉ = 4 squared cells (formulas #44). */
export const kMedialSq: number = Math.ceil((kClrLambda / kCS) * (kClrLambda / kCS));

/** Round half to even, like C `nearbyint` in the default mode (formulas notation: rint). */
export function rint(x: number): number {
  const r = Math.round(x);
  // Math.round rounds .5 up; pull exact ties back to the even neighbour.
  if (r - x === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}
