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
  /** The queue entry holding each cell's current label (valid while the cell is queued). */
  private readonly entry: Int32Array;
  /** The cells given a cost by the last run (each once), `nTouched` of them. */
  private readonly touched: Int32Array;
  private nTouched = 0;
  /** Index offsets of the 8 neighbours (DX, DY). */
  private readonly off = new Int32Array(8);
  private readonly queue: AccessQueue;

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
    this.entry = scratch.i32(n);
    this.queue = sharedQueue();
    this.touched = scratch.i32(n);
    for (let d = 0; d < 8; d++) this.off[d] = DY[d] * nx + DX[d];
  }

  /**
   * From `start` over `mask` to the first popped cell of `target`. `maxCost` stops the expansion
   * once a popped cost reaches it (the hit test comes first).
   *
   * The queue is a bucket queue, one bucket per cost value (Dial): a push from a popped cost C
   * lands at C + 100 or C + 141, so the live costs span at most 142 values (buckets by cost mod
   * 142), and a bucket is complete before its cost is popped. Each bucket is a list kept sorted
   * by (bottleneck ↓, cell ↑) on insertion; the pops come in exactly the heap's (cost,
   * bottleneck, cell) order, so the pops, pushes and paths are the same. An anchor whose
   * component holds no target floods the whole component (proto_level: ~46 k pops per such
   * run), and there a binary heap was most of the topology stage.
   *
   * A relaxation that only lowers the predecessor (equal cost and bottleneck) would queue a copy
   * of the cell's entry: the same key, so popped right beside it, not stale, and expanded again
   * without a push (the cell's neighbours already hold its offer or better). Such copies are a
   * count on the entry (`mult`) instead: one pop each, one expansion. A third of the pops in
   * proto_level's floods were such copies.
   */
  run(
    mask: Uint8Array,
    dist: Float32Array,
    target: Uint8Array,
    start: number,
    maxCost = Infinity,
  ): AccessResult {
    if (target[start]) return { kind: "inside" };
    const { cost, bott, pred, entry, nx, ny, off } = this;
    const touched = this.touched;
    for (let i = 0; i < this.nTouched; i++) {
      const c = touched[i];
      cost[c] = 0x7fffffff;
      pred[c] = -1;
    }
    cost[start] = 0;
    bott[start] = dist[start];
    touched[0] = start;
    let nTouched = 1;
    const q = this.queue, head = q.head;
    head.fill(-1);
    let NEXT = q.next, EB = q.b, EI = q.id, EM = q.mult;
    NEXT[0] = -1, EB[0] = bott[start], EI[0] = start, EM[0] = 1;
    head[0] = 0;
    // Entries used in the pool, entries queued, the current cost and its bucket.
    let used = 1, size = 1, cur = 0, bk = 0;
    let pops = 0;
    let found = -1;
    while (size > 0) {
      while (head[bk] < 0) {
        cur++;
        bk = bk === BUCKETS - 1 ? 0 : bk + 1;
      }
      const e = head[bk];
      head[bk] = NEXT[e];
      size--;
      const kb = EB[e], c = EI[e], m = EM[e];
      const cc = cost[c], bc = bott[c];
      if (cur !== cc || kb !== bc) { // stale, and so are its copies
        pops += m;
        continue;
      }
      pops++;
      if (target[c]) {
        found = c;
        break;
      }
      if (cc >= maxCost) break;
      pops += m - 1; // the copies: not stale, no hit, no push
      const y = (c / nx) | 0, x = c - y * nx;
      // Away from the border all 8 neighbours exist: their indices by offset, no bounds tests.
      const inner = x > 0 && y > 0 && x < nx - 1 && y < ny - 1;
      for (let d = 0; d < 8; d++) {
        let b: number;
        if (inner) b = c + off[d];
        else {
          const bx = x + DX[d], by = y + DY[d];
          if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
          b = by * nx + bx;
        }
        if (!mask[b]) continue;
        const step = d < 4 ? 100 : 141;
        const nc = cc + step;
        const db = dist[b];
        const nb = bc < db ? bc : db; // Math.min of two non-NaN floats
        const ob = cost[b];
        if (nc > ob) continue;
        if (nc === ob) {
          const ub = bott[b];
          if (nb < ub) continue;
          if (nb === ub) {
            // Same key, smaller predecessor: a copy of b's queued entry (see above).
            if (c < pred[b]) (pred[b] = c), EM[entry[b]]++;
            continue;
          }
        }
        if (ob === 0x7fffffff) touched[nTouched++] = b;
        cost[b] = nc;
        bott[b] = nb;
        pred[b] = c;
        // Into bucket nc mod 142, after the entries with a higher bottleneck, or an equal one
        // and a smaller cell (the stored float32 bottleneck, as the pop compares it).
        if (used === NEXT.length) {
          q.grow();
          NEXT = q.next, EB = q.b, EI = q.id, EM = q.mult;
        }
        const fb = bott[b], slot = used++;
        EB[slot] = fb, EI[slot] = b, EM[slot] = 1;
        entry[b] = slot;
        let nbk = bk + step;
        if (nbk >= BUCKETS) nbk -= BUCKETS;
        let prev = -1, at = head[nbk];
        while (at >= 0 && (EB[at] > fb || (EB[at] === fb && EI[at] < b))) {
          prev = at;
          at = NEXT[at];
        }
        NEXT[slot] = at;
        if (prev < 0) head[nbk] = slot;
        else NEXT[prev] = slot;
        size++;
      }
    }
    this.nTouched = nTouched;
    if (this.counters) this.counters["topology.access_pops"] += pops;
    if (found >= 0) return { kind: "path", cells: this.trace(found), cost: cost[found] };
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

/** Buckets of the access queue: the step costs are 100 and 141, so 142 live cost values. */
const BUCKETS = 142;

/**
 * The access search's bucket queue: list heads per bucket and a pool of entries (next, key
 * bottleneck, cell, number of identical queued copies).
 */
class AccessQueue {
  head = new Int32Array(BUCKETS);
  next = new Int32Array(1024);
  b = new Float32Array(1024);
  id = new Int32Array(1024);
  mult = new Int32Array(1024);

  /** Doubles the entry pool, keeping the entries. */
  grow(): void {
    const n = this.next.length * 2;
    const N = new Int32Array(n), B = new Float32Array(n), I = new Int32Array(n);
    const M = new Int32Array(n);
    N.set(this.next), B.set(this.b), I.set(this.id), M.set(this.mult);
    this.next = N, this.b = B, this.id = I, this.mult = M;
  }
}

/** Entries a shared queue keeps between topology passes (16 bytes each: 32 MiB). */
const KEEP_ENTRIES = 1 << 21;
let shared: AccessQueue | null = null;

/**
 * The isolate's access queue, reused by every AccessSearch (a run is synchronous and starts
 * from empty buckets): a fresh queue per topology pass grew its pool from 1024 entries by
 * doubling on every leg (proto_level: 6 % of the access search's time in `grow`). A pool grown
 * past {@link KEEP_ENTRIES} by a huge window is dropped at the next pass, not kept.
 */
function sharedQueue(): AccessQueue {
  if (shared === null || shared.next.length > KEEP_ENTRIES) shared = new AccessQueue();
  return shared;
}
