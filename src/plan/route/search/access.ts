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
  | { kind: "path"; cells: Int32Array; cost: number }; // cells: anchor … last cell before the target

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
   */
  run(
    mask: Uint8Array,
    dist: Float32Array,
    target: Uint8Array,
    start: number,
    maxCost = Infinity,
  ): AccessResult {
    if (target[start]) return { kind: "inside" };
    const { cost, bott, pred, heap, nx, ny } = this;
    for (const c of this.touched) (cost[c] = 0x7fffffff), (pred[c] = -1);
    this.touched.length = 0;
    heap.clear();
    cost[start] = 0;
    bott[start] = dist[start];
    this.touched.push(start);
    heap.push(0, dist[start], start);
    let pops = 0;
    while (heap.size > 0) {
      const kc = heap.topCost(), kb = heap.topB(), c = heap.topCell();
      heap.pop();
      pops++;
      if (kc !== cost[c] || kb !== bott[c]) continue; // stale
      if (target[c]) {
        if (this.counters) this.counters["topology.access_pops"] += pops;
        return { kind: "path", cells: this.trace(c), cost: cost[c] };
      }
      if (cost[c] >= maxCost) break;
      const x = c % nx, y = (c / nx) | 0;
      for (let d = 0; d < 8; d++) {
        const bx = x + DX[d], by = y + DY[d];
        if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
        const b = by * nx + bx;
        if (!mask[b]) continue;
        const nc = cost[c] + (d < 4 ? 100 : 141);
        const nb = Math.min(bott[c], dist[b]);
        const better = nc < cost[b] ||
          (nc === cost[b] && (nb > bott[b] || (nb === bott[b] && c < pred[b])));
        if (!better) continue;
        if (cost[b] === 0x7fffffff) this.touched.push(b);
        cost[b] = nc;
        bott[b] = nb;
        pred[b] = c;
        heap.push(nc, nb, b);
      }
    }
    if (this.counters) this.counters["topology.access_pops"] += pops;
    return { kind: "none" };
  }

  /**
   * The path from the anchor up to, not including, the reached target cell `c` (端点接入: an
   * anchor already in chan0 has an empty path, so the path is the cells joined to the channel;
   * the target is in it already). The route mask tm takes these cells (拉直的输入 step 2); the
   * reference build's tm lacks the target cell (v2 proto_level random rnd_117).
   */
  private trace(c: number): Int32Array {
    const out: number[] = [];
    for (let k = this.pred[c]; k >= 0; k = this.pred[k]) out.push(k);
    return Int32Array.from(out.reverse());
  }
}

/** Min-heap on (cost ascending, bottleneck descending, cell ascending), typed arrays. */
class AccessHeap {
  private c = new Int32Array(1024);
  private b = new Float32Array(1024);
  private id = new Int32Array(1024);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  private less(i: number, c: number, b: number, id: number): boolean {
    const C = this.c[i];
    return C < c || (C === c && (this.b[i] > b || (this.b[i] === b && this.id[i] < id)));
  }

  push(c: number, b: number, id: number): void {
    if (this.size === this.c.length) {
      const n = this.size * 2;
      const C = new Int32Array(n), B = new Float32Array(n), I = new Int32Array(n);
      C.set(this.c), B.set(this.b), I.set(this.id);
      this.c = C, this.b = B, this.id = I;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(p, c, b, id)) break;
      this.c[i] = this.c[p], this.b[i] = this.b[p], this.id[i] = this.id[p];
      i = p;
    }
    this.c[i] = c, this.b[i] = b, this.id[i] = id;
  }

  topCost(): number {
    return this.c[0];
  }

  topB(): number {
    return this.b[0];
  }

  topCell(): number {
    return this.id[0];
  }

  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const c = this.c[n], b = this.b[n], id = this.id[n];
    let i = 0;
    for (;;) {
      let k = 2 * i + 1;
      if (k >= n) break;
      if (k + 1 < n && this.less(k + 1, this.c[k], this.b[k], this.id[k])) k++;
      if (!this.less(k, c, b, id)) break;
      this.c[i] = this.c[k], this.b[i] = this.b[k], this.id[i] = this.id[k];
      i = k;
    }
    this.c[i] = c, this.b[i] = b, this.id[i] = id;
  }
}
