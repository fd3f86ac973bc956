/**
 * A* over the convex-polygon graph (issue 30; poly_graph.ts): the triangle mode's search
 * (astar.ts) on polygons — edge costs centre → portal midpoint → centre, links with their cost
 * modifier, heuristic the straight distance between centres (consistent: every edge costs at
 * least the straight distance between its two centres). Ties as in the triangle mode: lowest f,
 * then lowest polygon index; a node changes only on a strict improvement.
 *
 * A corridor step's `slot` is the polygon edge index into `polyVerts` (CSR), −1 for a link.
 * @module
 */
import type { Corridor, CorridorStep } from "./astar.ts";
import type { PolyGraph } from "./poly_graph.ts";
import { KeyIdHeap } from "../route/search/heap.ts";

/** Reusable scratch for repeated searches on one polygon graph (stamped, no clearing per query). */
export class PolySearch {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly via: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly px: Float64Array;
  private readonly py: Float64Array;
  private cur = 0;
  /** Open list on (f, node id): the lower id wins a tie. */
  private readonly heap = new KeyIdHeap();

  constructor(readonly graph: PolyGraph) {
    const n = graph.polyCount;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.via = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.px = new Float64Array(n);
    this.py = new Float64Array(n);
  }

  /**
   * The portal-midpoint search (the polygon mode's default): a polygon's position is the
   * midpoint of the portal it was entered by (the start point for the start polygon, a link's
   * landing after a link); a step costs the straight distance from that position to the next
   * portal's midpoint (a link: to its take-off point, plus `max(c, 1)·|span|`), and entering the
   * goal polygon adds the distance on to the goal point. Why not the centre model of
   * {@link PolySearch.find}: a merged polygon can be long, and centre → midpoint → centre then
   * misprices crossing it (nav_test's battery came out 7 % longer than the triangle mode's).
   * Heuristic: straight distance to the goal point. A polygon is closed when first popped, so,
   * as in Detour, the corridor is near-optimal, not proven optimal; ties as in `find`.
   */
  findFrom(start: number, goal: number, sx: number, sy: number, gx: number, gy: number):
    | Corridor
    | null {
    const G = this.graph,
      { polyStart, polyNb, midX, midY, linkStart, linkOut, links, linkSpan } = G;
    if (++this.cur === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.cur = 1;
    }
    const cur = this.cur, g = this.g, parent = this.parent, via = this.via;
    const stamp = this.stamp, closed = this.closed, px = this.px, py = this.py;
    this.heap.clear();
    g[start] = 0;
    parent[start] = -1;
    via[start] = 0;
    stamp[start] = cur;
    px[start] = sx;
    py[start] = sy;
    if (start === goal) {
      const dx = gx - sx, dy = gy - sy, c = Math.sqrt(dx * dx + dy * dy);
      return { tris: [start], steps: [], cost: c, expanded: 1 };
    }
    this.heap.push(0, start);
    let expanded = 0;
    const step = (t: number, j: number, c: number, v: number, x: number, y: number) => {
      if (closed[j] === cur) return;
      let ng = g[t] + c, h: number;
      if (j === goal) {
        const dx = gx - x, dy = gy - y;
        ng += Math.sqrt(dx * dx + dy * dy);
        h = 0;
      } else {
        const dx = gx - x, dy = gy - y;
        h = Math.sqrt(dx * dx + dy * dy);
      }
      if (stamp[j] === cur && !(ng < g[j])) return;
      stamp[j] = cur;
      g[j] = ng;
      parent[j] = t;
      via[j] = v;
      px[j] = x;
      py[j] = y;
      this.heap.push(ng + h, j);
    };
    while (this.heap.size > 0) {
      const t = this.heap.topId();
      this.heap.pop();
      if (closed[t] === cur) continue;
      closed[t] = cur;
      expanded++;
      if (t === goal) break;
      const x0 = px[t], y0 = py[t];
      for (let i = polyStart[t], e = polyStart[t + 1]; i < e; i++) {
        const j = polyNb[i];
        if (j < 0 || closed[j] === cur) continue;
        const mx = midX[i], my = midY[i], dx = mx - x0, dy = my - y0;
        step(t, j, Math.sqrt(dx * dx + dy * dy), i, mx, my);
      }
      for (let q = linkStart[t], qe = linkStart[t + 1]; q < qe; q++) {
        const li = linkOut[q], L = links[li];
        const dx = L.a[0] - x0, dy = L.a[1] - y0;
        step(t, L.to, Math.sqrt(dx * dx + dy * dy) + linkSpan[li], -1 - li, L.b[0], L.b[1]);
      }
    }
    if (closed[goal] !== cur) return null;
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

  /**
   * The centre-model corridor (the triangle mode's costs on polygons: centre → portal midpoint →
   * centre), optimal for those costs, from polygon `start` to `goal`; null when none.
   */
  find(start: number, goal: number): Corridor | null {
    const G = this.graph, { cx, cy, polyStart, polyNb, edgeCost, linkStart, linkOut, links } = G;
    if (++this.cur === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.cur = 1;
    }
    const cur = this.cur, g = this.g, parent = this.parent, via = this.via;
    const stamp = this.stamp, closed = this.closed;
    const gx = cx[goal], gy = cy[goal];
    this.heap.clear();
    g[start] = 0;
    parent[start] = -1;
    via[start] = 0;
    stamp[start] = cur;
    {
      const dx = cx[start] - gx, dy = cy[start] - gy;
      this.heap.push(Math.sqrt(dx * dx + dy * dy), start);
    }
    let expanded = 0;
    while (this.heap.size > 0) {
      const t = this.heap.topId();
      this.heap.pop();
      if (closed[t] === cur) continue;
      closed[t] = cur;
      expanded++;
      if (t === goal) break;
      const gt = g[t];
      for (let i = polyStart[t], e = polyStart[t + 1]; i <= e; i++) {
        let j: number, c: number, v: number;
        if (i < e) {
          j = polyNb[i];
          if (j < 0) continue;
          c = edgeCost[i];
          v = i;
        } else {
          // Links out of t (after the portals, as the triangle mode orders them).
          for (let q = linkStart[t], qe = linkStart[t + 1]; q < qe; q++) {
            const li = linkOut[q], L = links[li];
            this.relax(t, L.to, gt + L.cost, -1 - li, gx, gy, cur);
          }
          break;
        }
        if (closed[j] === cur) continue;
        this.relax(t, j, gt + c, v, gx, gy, cur);
      }
    }
    if (closed[goal] !== cur) return null;
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

  private relax(
    t: number,
    j: number,
    ng: number,
    v: number,
    gx: number,
    gy: number,
    cur: number,
  ): void {
    if (this.closed[j] === cur) return;
    if (this.stamp[j] === cur && !(ng < this.g[j])) return;
    this.stamp[j] = cur;
    this.g[j] = ng;
    this.parent[j] = t;
    this.via[j] = v;
    const dx = this.graph.cx[j] - gx, dy = this.graph.cy[j] - gy;
    this.heap.push(ng + Math.sqrt(dx * dx + dy * dy), j);
  }
}
