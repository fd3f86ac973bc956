/**
 * BuildSpans (spec 预烘场 › span 合并): groups each cell's samples, sorted by height, into spans.
 * A new span starts when a sample is more than kMergeH = kSlope·kCS above the group's FIRST
 * sample, so a span never spans more than 0.25 m; the span height is the group mean.
 * Also marks the face bit per column ({@link markFaces}) and packs the columnar table.
 * @module
 */

import { kMergeH } from "../grid/constants.ts";
import { markFaces, type SpanGrid, spanGridFromSorted } from "../grid/span_grid.ts";
import { sortSamples } from "./pack_spans.ts";
import type { SampleBuffer } from "./samples.ts";

/** Result of BuildSpans: the packed table plus per-span sample facts. */
export interface BuiltSpans {
  /** The packed span table (sp_cell, sp_h, occupancy, face). */
  grid: SpanGrid;
  /** 1 when at least one sample of the span had its cell centre inside its triangle. */
  ins: Uint8Array;
  /** Samples merged into each span. */
  count: Int32Array;
}

/**
 * Merges samples into spans (formulas #32): new span when
 * `double(h) − double(h_first) > kMergeH`; span height `f32(Σ double(h_i)/n)`.
 * face (formulas #34): `(n ≠ 2) ∧ (h_max − h_min > kClimb)` per column.
 */
export function buildSpans(samples: SampleBuffer, nx: number, ny: number): BuiltSpans {
  return buildSortedSpans(sortSamples(samples), nx, ny);
}

/**
 * {@link buildSpans} of samples already sorted by (cell, height) as `sortSamples` orders them
 * (e.g. from `seamBridgeSorted`): the same spans without sorting again.
 */
export function buildSortedSpans(s: SampleBuffer, nx: number, ny: number): BuiltSpans {
  const n = s.n;
  // Spans counted first (same grouping rule), so every column is allocated at its size.
  let m = 0;
  for (let i = 0; i < n;) {
    const c = s.cell[i], first = s.h[i];
    while (i < n && s.cell[i] === c && s.h[i] - first <= kMergeH) i++;
    m++;
  }
  const cell = new Int32Array(m), h = new Float32Array(m), ins = new Uint8Array(m);
  const count = new Int32Array(m);
  m = 0;
  let i = 0;
  while (i < n) {
    const c = s.cell[i], first = s.h[i];
    let sum = 0, k = 0, anyIns = 0;
    while (i < n && s.cell[i] === c && s.h[i] - first <= kMergeH) {
      sum += s.h[i];
      anyIns |= s.ins[i];
      k++;
      i++;
    }
    cell[m] = c;
    h[m] = sum / k;
    ins[m] = anyIns;
    count[m] = k;
    m++;
  }
  const grid = spanGridFromSorted(nx, ny, cell, h);
  markFaces(grid);
  return { grid, ins, count };
}
