/**
 * A cell box of a window: the rectangle both the bake operators and the planner's passes limit
 * themselves to.
 * @module
 */

/** A cell box `[x0, x1) × [y0, y1)` of a window. */
export interface CellBox {
  /** First column. */
  x0: number;
  /** First row. */
  y0: number;
  /** Column after the last. */
  x1: number;
  /** Row after the last. */
  y1: number;
}
