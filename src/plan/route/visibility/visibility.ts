/**
 * Visibility::ok(p, q, hp, hq) (spec 视线): blocker segments, then the on mask (dense samples),
 * then the facade step bans along the digital line (crossesStep), then the layer oracle. One
 * class, three views: vis (no blockers, on = solidc), vis_geo (blockers, on = route mask) and
 * vis_hard (blockers, no on mask).
 * @module
 */

import { kCS } from "../../../grid/constants.ts";
import { digitalLineInto } from "../../../grid/digital_line.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import type { CellBox } from "../../../grid/cell_box.ts";
import { DX, DY, stepBannedK } from "../../../grid/step_bans.ts";
import type { BlockerSegments } from "./blockers.ts";
import { layerReaches, layerWalk } from "./layer_oracle.ts";

/**
 * 1/kCS: kCS = 0.25 is a power of two, so `v * INV_CS` is `v / kCS` exactly (a scaling by 4,
 * no rounding) without the division per on-mask sample.
 */
const INV_CS = 1 / kCS;

/** A line-of-sight view over one window. */
export class Visibility {
  private readonly ox: number;
  private readonly oy: number;
  /** The on mask's rectangle of window cells: origin and size (the whole window by default). */
  private readonly onX0: number;
  private readonly onY0: number;
  private readonly onW: number;
  private readonly onH: number;
  private cells: Int32Array = new Int32Array(256);

  constructor(
    readonly win: WindowGrid,
    readonly blockers: BlockerSegments | null,
    readonly on: Uint8Array | null,
    /** Which of the facade-step and layer checks run (拉直的输入: some inputs skip them). */
    readonly checks: { steps: boolean; layer: boolean } = { steps: true, layer: true },
    /**
     * The window cells `on` covers, row-major over the box (null: the whole window). Cells
     * outside it are off, as they are in a window-sized mask that is 0 outside the box.
     */
    onBox: CellBox | null = null,
  ) {
    this.ox = win.x0 * kCS;
    this.oy = win.y0 * kCS;
    this.onX0 = onBox ? onBox.x0 : 0;
    this.onY0 = onBox ? onBox.y0 : 0;
    this.onW = onBox ? onBox.x1 - onBox.x0 : win.nx;
    this.onH = onBox ? onBox.y1 - onBox.y0 : win.ny;
  }

  /** Can one walk straight from p (height hp) to q (height hq)? Points in px. */
  ok(px: number, py: number, qx: number, qy: number, hp: number, hq: number): boolean {
    if (this.blockers && this.blockers.hits(px, py, qx, qy)) return false;
    if (this.on && !this.onMask(px, py, qx, qy)) return false;
    if (!this.checks.steps && !this.checks.layer) return true;
    const n = this.line(px, py, qx, qy);
    if (this.checks.steps && this.crossesStep(n)) return false;
    if (!this.checks.layer) return true;
    return layerReaches(this.win.spans, this.cells, 2 * n, hp, hq);
  }

  /** Does the chord cross a banned facade step (crossesStep) ? */
  crossesFacade(px: number, py: number, qx: number, qy: number): boolean {
    return this.crossesStep(this.line(px, py, qx, qy));
  }

  /** The heights a chord from p at height h may end on (null: it changes layer). */
  heightsAlong(
    px: number,
    py: number,
    qx: number,
    qy: number,
    h: number | readonly number[],
    drop = false,
  ): number[] | null {
    const n = this.line(px, py, qx, qy);
    return layerWalk(this.win.spans, this.cells, h, drop, 2 * n);
  }

  /**
   * On-mask samples (formulas.md #122): n = ⌊L/(kCS·0.5)⌋ + 2 points, the last exactly q. The
   * verdict is "every sample on"; they are visited from q back to p because a failing chord
   * usually leaves the mask near q (Lazy Theta*'s popped span, p its parent further back): most
   * sight checks fail here (proto_level: 91 %), now after a few samples.
   */
  private onMask(px: number, py: number, qx: number, qy: number): boolean {
    const on = this.on!, ox = this.ox, oy = this.oy;
    const bx0 = this.onX0, by0 = this.onY0, bw = this.onW, bh = this.onH;
    const dx = qx - px, dy = qy - py;
    const L = Math.sqrt(dx * dx + dy * dy);
    const n = Math.floor(L / (kCS * 0.5)) + 2;
    for (let i = n - 1; i >= 0; i--) {
      const t = i / (n - 1);
      const x = Math.trunc((px + dx * t - ox) * INV_CS) - bx0;
      const y = Math.trunc((py + dy * t - oy) * INV_CS) - by0;
      if (x < 0 || y < 0 || x >= bw || y >= bh || !on[y * bw + x]) return false;
    }
    return true;
  }

  /** The digital line between the end cells (trunc), into `cells`; returns its length. */
  private line(px: number, py: number, qx: number, qy: number): number {
    const ax = Math.trunc((px - this.ox) / kCS), ay = Math.trunc((py - this.oy) / kCS);
    const bx = Math.trunc((qx - this.ox) / kCS), by = Math.trunc((qy - this.oy) / kCS);
    const len = Math.max(Math.abs(bx - ax), Math.abs(by - ay), 1) + 1;
    if (this.cells.length < 2 * len) this.cells = new Int32Array(4 * len);
    const cells = this.cells;
    // walkDigitalLine (formulas #116) written out: no visitor closure on the per-pop sight check.
    digitalLineInto(cells, ax, ay, bx, by);
    return len;
  }

  /** crossesStep: a banned directed step between consecutive in-window cells of the line. */
  private crossesStep(n: number): boolean {
    const c = this.cells, nx = this.win.nx, ny = this.win.ny, steps = this.win.steps;
    for (let k = 1; k < n; k++) {
      const ax = c[2 * k - 2], ay = c[2 * k - 1], bx = c[2 * k], by = c[2 * k + 1];
      if (ax === bx && ay === by) continue;
      if (ax < 0 || ay < 0 || ax >= nx || ay >= ny || bx < 0 || by < 0 || bx >= nx || by >= ny) {
        continue;
      }
      // Consecutive cells are 8-neighbours: the step's neighbour index k of DX/DY by table.
      const d = STEP_K[(by - ay + 1) * 3 + (bx - ax + 1)];
      if (stepBannedK(steps, ay * nx + ax, by * nx + bx, d)) return true;
    }
    return false;
  }
}

/** Neighbour index k of DX/DY for the step (dx, dy), at `(dy + 1)·3 + (dx + 1)`. */
const STEP_K = new Int8Array(9).fill(-1);
for (let k = 0; k < 8; k++) STEP_K[(DY[k] + 1) * 3 + (DX[k] + 1)] = k;
