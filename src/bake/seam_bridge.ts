/**
 * AppendSeamBridge (spec 预烘场 › 补缝): closes one-cell seams left between two mesh pieces.
 * An empty cell whose left and right (or lower and upper) neighbours both held samples BEFORE
 * bridging gets one sample at the mean of the closest pair of heights across it, when that
 * pair differs by ≤ kClimb. The x pass runs before the y pass; bridged samples never count as
 * occupancy, so a cross-shaped seam's centre stays empty.
 * @module
 */

import { kClimb, kCS, rint } from "../grid/constants.ts";
import { sortSamples } from "./pack_spans.ts";
import { SampleBuffer } from "./samples.ts";

/** kb = rint(0.5/kCS) − 1 = 1: only single-cell seams qualify (formulas #31). */
export const kSeamBridgeCells = rint(0.5 / kCS) - 1;

/**
 * Returns `samples` with the bridge samples appended (ins = 0). The candidate heights of a
 * side cell are its samples in ascending height order (the columns are sorted first); the pair
 * minimising `|h_a ⊖ h_b|` (float32) wins, the first minimum on ties (left/lower side outer
 * loop). New height `(h_a ⊕ h_b) ⊗ 0.5` in float32 (formulas #31).
 */
export function appendSeamBridge(samples: SampleBuffer, nx: number, ny: number): SampleBuffer {
  const s = sortSamples(samples);
  const ncell = nx * ny;
  // Column starts per cell (dense CSR over the window) of the pre-bridge occupancy.
  const start = new Int32Array(ncell + 1);
  for (let i = 0; i < s.n; i++) start[s.cell[i] + 1]++;
  for (let c = 0; c < ncell; c++) start[c + 1] += start[c];
  const out = new SampleBuffer(s.n + 16);
  out.append(s);
  // gap sides dl = dr = 1 is the only case with kb = 1 (1 ≤ dl, dr ≤ kb, dl + dr ≤ kb + 1).
  for (let pass = 0; pass < 2; pass++) {
    const step = pass === 0 ? 1 : nx;
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const c = y * nx + x;
        if (start[c + 1] > start[c]) continue;
        if (pass === 0 ? (x < 1 || x >= nx - 1) : (y < 1 || y >= ny - 1)) continue;
        const a = c - step, b = c + step;
        if (start[a + 1] === start[a] || start[b + 1] === start[b]) continue;
        bridgeCell(s, start, a, b, c, out);
      }
    }
  }
  return out;
}

/**
 * `sortSamples(appendSeamBridge(samples, nx, ny))` without the second sort: the samples sorted
 * once, the bridge samples (each in a cell that was empty before bridging; x pass, then y pass,
 * each in ascending cell order) merged in by cell. A cell bridged by both passes holds the x
 * sample first unless it is strictly higher — what the stable sort by (cell, h) gives.
 */
export function seamBridgeSorted(samples: SampleBuffer, nx: number, ny: number): SampleBuffer {
  const s = sortSamples(samples);
  const ncell = nx * ny;
  const start = new Int32Array(ncell + 1);
  for (let i = 0; i < s.n; i++) start[s.cell[i] + 1]++;
  for (let c = 0; c < ncell; c++) start[c + 1] += start[c];
  // Bridge heights per pass, NaN = none (the bridged cells are empty, so a dense row of
  // candidates is not needed: collect (cell, h) lists per pass in ascending cell order).
  const bx = new SampleBuffer(64), by = new SampleBuffer(64);
  for (let pass = 0; pass < 2; pass++) {
    const step = pass === 0 ? 1 : nx, dst = pass === 0 ? bx : by;
    for (let y = 0; y < ny; y++) {
      if (pass === 1 && (y < 1 || y >= ny - 1)) continue;
      const row = y * nx;
      for (let x = pass === 0 ? 1 : 0; x < (pass === 0 ? nx - 1 : nx); x++) {
        const c = row + x;
        if (start[c + 1] > start[c]) continue;
        const a = c - step, b = c + step;
        if (start[a + 1] === start[a] || start[b + 1] === start[b]) continue;
        bridgeCell(s, start, a, b, c, dst);
      }
    }
  }
  if (bx.n === 0 && by.n === 0) return s;
  const n = s.n + bx.n + by.n;
  const out = new SampleBuffer(0);
  out.n = n;
  out.cell = new Int32Array(n);
  out.h = new Float32Array(n);
  out.ins = new Uint8Array(n);
  let i = 0, p = 0, q = 0, k = 0;
  const BIG = 0x7fffffff;
  while (k < n) {
    const ci = i < s.n ? s.cell[i] : BIG, cp = p < bx.n ? bx.cell[p] : BIG;
    const cq = q < by.n ? by.cell[q] : BIG;
    if (ci <= cp && ci <= cq) {
      // Runs of original samples up to the next bridged cell (disjoint cells).
      const lim = cp < cq ? cp : cq;
      while (i < s.n && s.cell[i] < lim) {
        out.cell[k] = s.cell[i], out.h[k] = s.h[i], out.ins[k++] = s.ins[i++];
      }
    } else if (cp < cq) {
      out.cell[k] = cp, out.h[k] = bx.h[p++], out.ins[k++] = 0;
    } else if (cq < cp) {
      out.cell[k] = cq, out.h[k] = by.h[q++], out.ins[k++] = 0;
    } else {
      const hx = bx.h[p++], hy = by.h[q++];
      out.cell[k] = cp, out.h[k] = hx > hy ? hy : hx, out.ins[k++] = 0;
      out.cell[k] = cp, out.h[k] = hx > hy ? hx : hy, out.ins[k++] = 0;
    }
  }
  return out;
}

function bridgeCell(
  s: SampleBuffer,
  start: Int32Array,
  a: number,
  b: number,
  c: number,
  out: SampleBuffer,
): void {
  let best = Infinity, ha = 0, hb = 0;
  for (let i = start[a]; i < start[a + 1]; i++) {
    for (let j = start[b]; j < start[b + 1]; j++) {
      const d = Math.abs(Math.fround(s.h[i] - s.h[j]));
      if (d < best) {
        best = d;
        ha = s.h[i];
        hb = s.h[j];
      }
    }
  }
  if (best <= kClimb) out.push(c, Math.fround(Math.fround(ha + hb) * 0.5), 0);
}
