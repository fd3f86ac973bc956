/**
 * Height samples produced by rasterisation and seam bridging (spec 预烘场 › 栅格化, 补缝):
 * a growable columnar buffer (cell, h, ins), no per-sample objects.
 * @module
 */

/** A bake window: `nx × ny` cells with origin (x0, y0) in px (spec 约定). */
export interface BakeWindow {
  /** Origin x, px. */
  x0: number;
  /** Origin y, px. */
  y0: number;
  /** Width, cells. */
  nx: number;
  /** Height, cells. */
  ny: number;
}

/** Growable columnar sample buffer: sample `i` is (cell[i], h[i], ins[i]). */
export class SampleBuffer {
  /** Number of samples. */
  n = 0;
  /** Window cell index `y·nx + x`. */
  cell: Int32Array;
  /** Height, metres (f32). */
  h: Float32Array;
  /** 1 when the cell centre lies inside the triangle (spec 栅格化: ins). */
  ins: Uint8Array;

  /** Creates an empty buffer with room for `capacity` samples. */
  constructor(capacity = 1024) {
    const c = Math.max(16, capacity);
    this.cell = new Int32Array(c);
    this.h = new Float32Array(c);
    this.ins = new Uint8Array(c);
  }

  /** Appends one sample (the height is rounded to f32). */
  push(cell: number, h: number, ins: number): void {
    if (this.n === this.cell.length) this.grow();
    const i = this.n++;
    this.cell[i] = cell;
    this.h[i] = h;
    this.ins[i] = ins;
  }

  /** Appends every sample of `other`. */
  append(other: SampleBuffer): void {
    for (let i = 0; i < other.n; i++) this.push(other.cell[i], other.h[i], other.ins[i]);
  }

  private grow(): void {
    const c = this.cell.length * 2;
    const cell = new Int32Array(c), h = new Float32Array(c), ins = new Uint8Array(c);
    cell.set(this.cell);
    h.set(this.h);
    ins.set(this.ins);
    this.cell = cell;
    this.h = h;
    this.ins = ins;
  }
}
