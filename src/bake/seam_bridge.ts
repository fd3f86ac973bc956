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
