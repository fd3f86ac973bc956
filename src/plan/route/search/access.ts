/**
 * Endpoint access paths and off-mesh link chains (spec 两段搜索 › 端点接入, formulas.md #99–#100):
 * an integer chamfer Dijkstra (orthogonal 100, diagonal 141) on the walkable cells from an
 * anchor to the nearest cell of a target set, ties broken by the higher bottleneck (the path's
 * smallest clearance, start included, float32) and then by cell index; relaxation prefers, at
 * equal (cost, bottleneck), the smaller predecessor. No step bans, RiseOk or corner rule: the
 * path only decides which cells join the channel.
 * @module
 */

import type { WorkCounters } from "../../counters.ts";
import { scratch } from "../../scratch.ts";

/** kLinkChainCells: a link chain stops at 64 cells (cost 6400). */
export const kLinkChainCost = 64 * 100;

const DX = [1, 0, -1, 0, 1, -1, -1, 1];
const DY = [0, 1, 0, -1, 1, 1, -1, -1];

/** The outcome of one access search. */
export type AccessResult =
  | { kind: "inside" }
  | { kind: "none" }
  | { kind: "path"; cells: Int32Array; cost: number };

/** Reusable work arrays; only the cells a search touched are reset (linkChains). */
export class AccessSearch {
  private readonly cost: Int32Array;
  private readonly bott: Float32Array;
  private readonly pred: Int32Array;
  private readonly touched: number[] = [];
  private readonly heap = new AccessHeap();

  /** @param counters where the heap pops are counted (`topology.access_pops`), if anywhere. */
  constructor(
    readonly nx: number,
    readonly ny: number,
    readonly counters: WorkCounters | null = null,
  ) {
    const n = nx * ny;
    // Window-sized: scratch inside routeWindow's frame (scratch.ts).
    this.cost = scratch.i32(n, 0x7fffffff);
    this.bott = scratch.f32(n);
    this.pred = scratch.i32(n, -1);
  }

  /**
   * From `start` over `mask` to the first popped cell of `target`. `maxCost` stops the expansion
   * once a popped cost reaches it (the hit test comes first).
   *
   * The heap is written out in the loop (locals, no method per comparison): an anchor whose
   * component has no target floods the whole component (proto_level: ~46 k pops per such run),
   * and there the heap was most of the topology stage.
   */
  run(
    mask: Uint8Array,
    dist: Float32Array,
    target: Uint8Array,
    start: number,
    maxCost = Infinity,
  ): AccessResult {
    if (target[start]) return { kind: "inside" };
    const { cost, bott, pred, nx, ny } = this;
    const touched = this.touched;
    for (let i = 0; i < touched.length; i++) {
      const c = touched[i];
      cost[c] = 0x7fffffff;
      pred[c] = -1;
    }
    touched.length = 0;
    cost[start] = 0;
    bott[start] = dist[start];
    touched.push(start);
    const heap = this.heap;
    let HC = heap.c, HB = heap.b, HI = heap.id;
    HC[0] = 0, HB[0] = bott[start], HI[0] = start;
    let size = 1, pops = 0;
    let found = -1;
    while (size > 0) {
      const kc = HC[0], kb = HB[0], c = HI[0];
      // Pop: sift the last entry down from the root; order (cost ↑, bottleneck ↓, cell ↑).
      const n = --size;
      if (n > 0) {
        const lc = HC[n], lb = HB[n], li = HI[n];
        let i = 0;
        for (;;) {
          let k = 2 * i + 1;
          if (k >= n) break;
          let C = HC[k], B = HB[k], I = HI[k];
          if (k + 1 < n) {
            const C2 = HC[k + 1], B2 = HB[k + 1], I2 = HI[k + 1];
            if (C2 < C || (C2 === C && (B2 > B || (B2 === B && I2 < I)))) {
              k++, C = C2, B = B2, I = I2;
            }
          }
          if (!(C < lc || (C === lc && (B > lb || (B === lb && I < li))))) break;
          HC[i] = C, HB[i] = B, HI[i] = I;
          i = k;
        }
        HC[i] = lc, HB[i] = lb, HI[i] = li;
      }
      pops++;
      const cc = cost[c], bc = bott[c];
      if (kc !== cc || kb !== bc) continue; // stale
      if (target[c]) {
        found = c;
        break;
      }
      if (cc >= maxCost) break;
      const y = (c / nx) | 0, x = c - y * nx;
      for (let d = 0; d < 8; d++) {
        const bx = x + DX[d], by = y + DY[d];
        if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
        const b = by * nx + bx;
        if (!mask[b]) continue;
        const nc = cc + (d < 4 ? 100 : 141);
        const db = dist[b];
        const nb = bc < db ? bc : db; // Math.min of two non-NaN floats
        const ob = cost[b];
        const better = nc < ob ||
          (nc === ob && (nb > bott[b] || (nb === bott[b] && c < pred[b])));
        if (!better) continue;
        if (ob === 0x7fffffff) touched.push(b);
        cost[b] = nc;
        bott[b] = nb;
        pred[b] = c;
        // Push: sift up.
        if (size === HC.length) {
          heap.grow();
          HC = heap.c, HB = heap.b, HI = heap.id;
        }
        const fb = bott[b]; // the stored (float32) bottleneck, as the pop compares it
        let i = size++;
        while (i > 0) {
          const p = (i - 1) >> 1;
          const C = HC[p];
          if (C < nc || (C === nc && (HB[p] > fb || (HB[p] === fb && HI[p] < b)))) break;
          HC[i] = C, HB[i] = HB[p], HI[i] = HI[p];
          i = p;
        }
        HC[i] = nc, HB[i] = fb, HI[i] = b;
      }
    }
    if (this.counters) this.counters["topology.access_pops"] += pops;
    if (found >= 0) return { kind: "path", cells: this.trace(found), cost: cost[found] };
    return { kind: "none" };
  }

  private trace(c: number): Int32Array {
    const out: number[] = [];
    for (let k = c; k >= 0; k = this.pred[k]) out.push(k);
    return Int32Array.from(out.reverse());
  }
}

/** The access search's heap arrays (the run loop pushes and pops in place). */
class AccessHeap {
  c = new Int32Array(1024);
  b = new Float32Array(1024);
  id = new Int32Array(1024);

  /** Doubles the capacity, keeping the entries. */
  grow(): void {
    const n = this.c.length * 2;
    const C = new Int32Array(n), B = new Float32Array(n), I = new Int32Array(n);
    C.set(this.c), B.set(this.b), I.set(this.id);
    this.c = C, this.b = B, this.id = I;
  }
}
