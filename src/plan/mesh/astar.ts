/**
 * A* over the triangle graph (spec 演进, generation 1): from the start's snapped triangle to the
 * goal's, edge costs from {@link MeshGraph} (centroid → shared-edge midpoint → centroid; links
 * with their cost modifier), heuristic the straight distance between centroids. Every edge
 * costs at least the straight distance between its two centroids, so the heuristic is
 * consistent and the first time the goal is popped its cost is optimal.
 *
 * Ties: the open list pops the lowest f, then the lowest triangle index; a triangle's cost and
 * parent change only on a strict improvement, so among equal-cost corridors the one found
 * first (through the lower-indexed triangles) is kept. Same input, same corridor.
 * @module
 */
import type { MeshGraph } from "./graph.ts";
import { KeyIdHeap } from "../route/search/heap.ts";

/** One step of a corridor: how the route leaves `corridor[i]` for `corridor[i+1]`. */
export interface CorridorStep {
  /** Edge slot `3t + k` of the triangle left (≥ 0), or −1 for a link. */
  slot: number;
  /** Index into `graph.links` when the step is an off-mesh link, else −1. */
  link: number;
}

/** A corridor: triangles from start to goal and the steps between them. */
export interface Corridor {
  /** Zone-local triangles, start first. */
  tris: number[];
  /** `steps[i]` joins `tris[i]` and `tris[i+1]`. */
  steps: CorridorStep[];
  /** Graph cost of the corridor, px (generation-1 centroid polyline). */
  cost: number;
  /** Triangles expanded (popped). */
  expanded: number;
}

/** Reusable scratch for repeated searches on one graph (stamped, no clearing per query). */
export class MeshSearch {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly via: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private cur = 0;
  /** Open list on (f, node id): the lower id wins a tie. */
  private readonly heap = new KeyIdHeap();

  constructor(readonly graph: MeshGraph) {
    const n = graph.triCount;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.via = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
  }

  /** The optimal corridor from `start` to `goal` (zone-local triangles), or null when none. */
  find(start: number, goal: number): Corridor | null {
    const G = this.graph, { cx, cy, nb, edgeCost, linkStart, linkOut, links } = G;
    if (++this.cur === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.cur = 1;
    }
    const cur = this.cur, g = this.g, parent = this.parent, via = this.via;
    const gx = cx[goal], gy = cy[goal];
    // sqrt of the sum of squares, not Math.hypot (several times slower in V8).
    const h = (t: number) => {
      const dx = cx[t] - gx, dy = cy[t] - gy;
      return Math.sqrt(dx * dx + dy * dy);
    };
    this.heap.clear();
    g[start] = 0;
    parent[start] = -1;
    via[start] = 0;
    this.stamp[start] = cur;
    this.heap.push(h(start), start);
    let expanded = 0;
    const relax = (t: number, j: number, c: number, v: number) => {
      if (this.closed[j] === cur) return;
      const ng = g[t] + c;
      if (this.stamp[j] === cur && !(ng < g[j])) return;
      this.stamp[j] = cur;
      g[j] = ng;
      parent[j] = t;
      via[j] = v;
      this.heap.push(ng + h(j), j);
    };
    while (this.heap.size > 0) {
      const t = this.heap.topId();
      this.heap.pop();
      if (this.closed[t] === cur) continue;
      this.closed[t] = cur;
      expanded++;
      if (t === goal) break;
      for (let k = 0; k < 3; k++) {
        const s = 3 * t + k, j = nb[s];
        if (j >= 0) relax(t, j, edgeCost[s], s);
      }
      for (let q = linkStart[t], e = linkStart[t + 1]; q < e; q++) {
        const li = linkOut[q];
        relax(t, links[li].to, links[li].cost, -1 - li);
      }
    }
    if (this.closed[goal] !== cur) return null;
    const tris: number[] = [], steps: CorridorStep[] = [];
    for (let t = goal; t !== start; t = parent[t]) {
      tris.push(t);
      const v = via[t];
      steps.push(v >= 0 ? { slot: v, link: -1 } : { slot: -1, link: -1 - v });
    }
    tris.push(start);
    tris.reverse();
    steps.reverse();
    return { tris, steps, cost: g[goal], expanded };
  }
}

/** One-shot {@link MeshSearch.find}. */
export function findCorridor(graph: MeshGraph, start: number, goal: number): Corridor | null {
  return new MeshSearch(graph).find(start, goal);
}
