/**
 * Walk / Ghost / Fill / Dead / Core flags of one region (spec 预烘场, the 第 3 代 table, and
 * 建窗 › 展开成栅格图层). The article gives the pipeline but not every detail; the choices below
 * are ours, deterministic, and each is marked "choice":
 *
 * - Dead: the span was stamped by StampWalls (`dead[s]`). Dead cells are the protected cells of
 *   FillHoles and CloseCracks: a hole containing one is not filled, and crack closing never
 *   adds one to the core.
 * - lay (layer occupancy): cells holding any span of the region — Dead ones included — then
 *   FillHoles with the Dead cells protected (spec: "泛洪求层,填小洞"; offline the flood is the
 *   whole region). Dead does not take a cell out of the layer: Walk depends on layer and core
 *   only, and the spec's measurements (实测 › 直接收下的邻步与 Dead 格) describe one-cell Dead
 *   bands across roads whose cells "同时带 Walk 和 Core" (issue 8).
 * - core: cells whose region span has a sample with its cell centre inside a triangle (`ins`),
 *   then FillHoles, then CloseCracks over lay (spec: "取格心在三角内…的样本格,再填洞、合缝").
 * - Walk = lay ∧ core (spec: "Walk 位表示这一格既在层里又在核心里").
 * - Ghost: a lay cell without a region span, height propagated from its 4-neighbours in
 *   synchronous rounds (choice: the f32 mean of the known neighbour heights, accepted only when
 *   they agree within kClimb). Fill: a lay cell that never gets a height; stored height 0.
 *
 * Record encoding follows the runtime decode (spec 展开成栅格图层: lay = Walk ∨ ¬Core):
 * lay ∧ core → Walk|Core; ¬lay ∧ core → Core; lay ∧ ¬core → no bit; plus Dead / Ghost / Fill.
 * @module
 */

import { SpanFlag } from "../pack/grid_types.ts";
import { kClimb } from "../grid/constants.ts";
import type { SpanGrid } from "../grid/span_grid.ts";
import {
  closeCracks,
  edgeHole,
  fillHoles,
  SIDE_BOTTOM,
  SIDE_LEFT,
  SIDE_RIGHT,
  SIDE_TOP,
} from "./morphology.ts";

/** Flags of one region: per-span flags plus the Ghost/Fill records to add. */
export interface RegionFlags {
  /** Flags per span of the table (only this region's spans are written; others stay 0). */
  flags: Uint8Array;
  /** Added records: cell index per record (ascending). */
  addCell: Int32Array;
  /** Added records: height (f32; 0 for Fill). */
  addH: Float32Array;
  /** Added records: flags (Ghost or Fill, plus Walk/Core per the masks). */
  addFlags: Uint8Array;
  /** Layer mask (after FillHoles). */
  lay: Uint8Array;
  /** Core mask (after FillHoles and CloseCracks). */
  core: Uint8Array;
}

/** Computes the flags of region `r` (see the module doc for the rules). */
export function regionFlags(
  grid: SpanGrid,
  rid: Uint32Array,
  r: number,
  ins: Uint8Array,
  dead: Uint8Array,
  flags?: Uint8Array,
): RegionFlags {
  const { nx, ny } = grid;
  const n = nx * ny;
  const lay0 = new Uint8Array(n), core0 = new Uint8Array(n), prot = new Uint8Array(n);
  const hasSpan = new Uint8Array(n);
  const known = new Float32Array(n);
  for (let s = 0; s < grid.h.length; s++) {
    if (rid[s] !== r) continue;
    const c = grid.cell[s];
    hasSpan[c] = 1;
    // Spans ascend by height inside a cell, so the last one of r is its top span (topSpan).
    known[c] = grid.h[s];
    lay0[c] = 1;
    if (dead[s] !== 0) prot[c] = 1;
    if (ins[s] !== 0) core0[c] = 1;
  }
  const lay = fillHoles(lay0, prot, nx, ny);
  const core = closeCracks(lay, fillHoles(core0, prot, nx, ny), prot, nx, ny);
  const out = flags ?? new Uint8Array(grid.h.length);
  for (let s = 0; s < grid.h.length; s++) {
    if (rid[s] !== r) continue;
    const c = grid.cell[s];
    out[s] = encode(lay[c], core[c]) | (dead[s] !== 0 ? SpanFlag.Dead : 0);
  }
  // Ghost height propagation, synchronous rounds over the 4-neighbours.
  const hknown = hasSpan; // known heights so far: the cells with a span (top span's height)
  const pending: number[] = [];
  for (let c = 0; c < n; c++) if (lay[c] !== 0 && hasSpan[c] === 0) pending.push(c);
  propagate(pending, hknown, known, nx, ny);
  const addCell: number[] = [], addH: number[] = [], addFlags: number[] = [];
  for (const c of pending) {
    addCell.push(c);
    const base = encode(lay[c], core[c]);
    if (hknown[c] !== 0) {
      addH.push(known[c]);
      addFlags.push(base | SpanFlag.Ghost);
    } else {
      addH.push(0);
      addFlags.push(base | SpanFlag.Fill);
    }
  }
  return {
    flags: out,
    addCell: Int32Array.from(addCell),
    addH: Float32Array.from(addH),
    addFlags: Uint8Array.from(addFlags),
    lay,
    core,
  };
}

/** Margin (cells) of {@link regionFlagsBoxed}'s crop around a region's spans. */
export const FLAGS_CROP_MARGIN = 2;

/**
 * {@link regionFlags} of one region r computed inside `box` only — the cell box of r's spans
 * grown by {@link FLAGS_CROP_MARGIN} cells and clamped to the window — with `spans` the span
 * indices of r in ascending order (they name the region). Same flags and added records as the whole-window version:
 * outside r's span box every mask is empty, and (1) a non-lay component reaching outside the
 * box touches the window border in the window (walk straight out from the box) and the crop
 * border in the crop (walk across the margin), so FillHoles leaves it in both; components
 * inside the box are the same; (2) CloseCracks changes lay cells only (inside the box) and
 * reads ≤ kCrackReach = 2 cells from them, inside the margin, where the core is empty in both;
 * (3) Ghost propagation reads 4-neighbours of box cells. A clamped side is the window's own
 * border in both. Costs the box instead of the window per region.
 *
 * `edgeHole` in the result: some FillHoles component (of lay or of the core samples) touches
 * the window edge — a side where the box is clamped — with at most kHoleMaxCells cells and no
 * protected cell, and reaches `holeDepth` cells from every window edge, so a wider window
 * might fill it ({@link edgeHole}).
 */
export function regionFlagsBoxed(
  grid: SpanGrid,
  ins: Uint8Array,
  dead: Uint8Array,
  flags: Uint8Array,
  spans: Int32Array,
  box: { x0: number; y0: number; x1: number; y1: number },
  holeDepth = 0,
): { addCell: Int32Array; addH: Float32Array; addFlags: Uint8Array; edgeHole: boolean } {
  const nx = grid.nx, w = box.x1 - box.x0, hgt = box.y1 - box.y0, n = w * hgt;
  const lay0 = new Uint8Array(n), core0 = new Uint8Array(n), prot = new Uint8Array(n);
  const hknown = new Uint8Array(n), known = new Float32Array(n);
  const local = new Int32Array(spans.length);
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i], c = grid.cell[s], x = c % nx, y = (c - x) / nx;
    const lc = local[i] = (y - box.y0) * w + (x - box.x0);
    hknown[lc] = 1;
    known[lc] = grid.h[s]; // spans ascend inside a cell: the last one is the top span
    lay0[lc] = 1;
    if (dead[s] !== 0) prot[lc] = 1;
    if (ins[s] !== 0) core0[lc] = 1;
  }
  const lay = fillHoles(lay0, prot, w, hgt);
  const core = closeCracks(lay, fillHoles(core0, prot, w, hgt), prot, w, hgt);
  const sides = (box.x0 === 0 ? SIDE_LEFT : 0) | (box.x1 === nx ? SIDE_RIGHT : 0) |
    (box.y0 === 0 ? SIDE_TOP : 0) | (box.y1 === grid.ny ? SIDE_BOTTOM : 0);
  const at = { x0: box.x0, y0: box.y0, nx, ny: grid.ny, min: holeDepth };
  const cut = edgeHole(lay0, prot, w, hgt, sides, at) || edgeHole(core0, prot, w, hgt, sides, at);
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i], lc = local[i];
    flags[s] = encode(lay[lc], core[lc]) | (dead[s] !== 0 ? SpanFlag.Dead : 0);
  }
  const pending: number[] = [];
  for (let c = 0; c < n; c++) if (lay[c] !== 0 && hknown[c] === 0) pending.push(c);
  propagate(pending, hknown, known, w, hgt);
  const m = pending.length;
  const addCell = new Int32Array(m), addH = new Float32Array(m), addFlags = new Uint8Array(m);
  for (let i = 0; i < m; i++) {
    const c = pending[i], lx = c % w, ly = (c - lx) / w;
    addCell[i] = (box.y0 + ly) * nx + box.x0 + lx;
    const base = encode(lay[c], core[c]);
    if (hknown[c] !== 0) (addH[i] = known[c]), (addFlags[i] = base | SpanFlag.Ghost);
    else (addH[i] = 0), (addFlags[i] = base | SpanFlag.Fill);
  }
  return { addCell, addH, addFlags, edgeHole: cut };
}

function encode(lay: number, core: number): number {
  if (lay !== 0 && core !== 0) return SpanFlag.Walk | SpanFlag.Core;
  return core !== 0 ? SpanFlag.Core : 0;
}

function propagate(
  pending: number[],
  hknown: Uint8Array,
  known: Float32Array,
  nx: number,
  ny: number,
): void {
  let todo = pending.slice();
  while (todo.length > 0) {
    const got: number[] = [], hs: number[] = [], rest: number[] = [];
    for (const c of todo) {
      const x = c % nx, y = (c - x) / nx;
      let sum = 0, k = 0, lo = Infinity, hi = -Infinity;
      const nb = [x > 0 ? c - 1 : -1, x < nx - 1 ? c + 1 : -1, y > 0 ? c - nx : -1];
      nb.push(y < ny - 1 ? c + nx : -1);
      for (const q of nb) {
        if (q < 0 || hknown[q] === 0) continue;
        sum += known[q];
        k++;
        lo = Math.min(lo, known[q]);
        hi = Math.max(hi, known[q]);
      }
      if (k > 0 && hi - lo <= kClimb) {
        got.push(c);
        hs.push(sum / k);
      } else rest.push(c);
    }
    if (got.length === 0) break;
    for (let i = 0; i < got.length; i++) {
      hknown[got[i]] = 1;
      known[got[i]] = hs[i];
    }
    todo = rest;
  }
}
