/**
 * Per-region strongly connected components (spec 垂直可达判据 › 分量, 可达域; 旁包 scc/FSCC).
 * The directed span graph has an edge u → v for spans of the same region in 8-neighbour cells
 * when RiseOk(u → v) holds (no FallGate: the component graph is baked offline without the
 * occluders, spec 台沿下落 table). Components come from an iterative Tarjan; the component DAG
 * is the set of distinct inter-component edges, sorted (src, dst) as FSCC stores them.
 * @module
 */

import { NavscopeError } from "../errors.ts";
import { riseOk } from "../grid/rise_ok.ts";
import { occIndex, type SpanGrid } from "../grid/span_grid.ts";

/** A directed graph in CSR form over nodes 0..n−1. */
export interface Csr {
  /** Node count. */
  n: number;
  /** Edge start per node; `start[n]` = edge count. */
  start: Int32Array;
  /** Edge targets. */
  adj: Int32Array;
}

/** Builds a CSR graph from parallel (src, dst) edge lists (edges keep their input order). */
export function csrFromEdges(n: number, src: ArrayLike<number>, dst: ArrayLike<number>): Csr {
  const start = new Int32Array(n + 1);
  for (let i = 0; i < src.length; i++) start[src[i] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  const adj = new Int32Array(src.length);
  for (let i = 0; i < src.length; i++) adj[fill[src[i]]++] = dst[i];
  return { n, start, adj };
}

/**
 * Iterative Tarjan SCC. Returns `comp[v]` numbered from 1 in order of each component's lowest
 * node index (deterministic, independent of traversal order) and the component count.
 */
export function tarjanScc(g: Csr): { comp: Int32Array; count: number } {
  const n = g.n;
  const index = new Int32Array(n).fill(-1), low = new Int32Array(n);
  const onStack = new Uint8Array(n), stack = new Int32Array(n);
  const callV = new Int32Array(n), callE = new Int32Array(n);
  const raw = new Int32Array(n).fill(-1);
  let next = 0, sp = 0, nraw = 0;
  for (let r = 0; r < n; r++) {
    if (index[r] >= 0) continue;
    let depth = 0;
    callV[0] = r;
    callE[0] = g.start[r];
    index[r] = low[r] = next++;
    stack[sp++] = r;
    onStack[r] = 1;
    while (depth >= 0) {
      const v = callV[depth];
      if (callE[depth] < g.start[v + 1]) {
        const w = g.adj[callE[depth]++];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          depth++;
          callV[depth] = w;
          callE[depth] = g.start[w];
        } else if (onStack[w] !== 0 && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          raw[w] = nraw;
        } while (w !== v);
        nraw++;
      }
      depth--;
      if (depth >= 0) {
        const u = callV[depth];
        if (low[v] < low[u]) low[u] = low[v];
      }
    }
  }
  // Renumber by lowest node index.
  const map = new Int32Array(nraw).fill(0);
  const comp = new Int32Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) {
    if (map[raw[v]] === 0) map[raw[v]] = ++count;
    comp[v] = map[raw[v]];
  }
  return { comp, count };
}

/** Component DAG edges (1-based ids), distinct, sorted by (src, dst), no self loops. */
export function componentDag(g: Csr, comp: Int32Array): { src: Int32Array; dst: Int32Array } {
  const keys: number[] = [];
  for (let v = 0; v < g.n; v++) {
    for (let e = g.start[v]; e < g.start[v + 1]; e++) {
      const a = comp[v], b = comp[g.adj[e]];
      if (a !== b) keys.push(a * 0x100000000 + b);
    }
  }
  keys.sort((p, q) => p - q);
  const src: number[] = [], dst: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i] === keys[i - 1]) continue;
    src.push(Math.floor(keys[i] / 0x100000000));
    dst.push(keys[i] % 0x100000000);
  }
  return { src: Int32Array.from(src), dst: Int32Array.from(dst) };
}

/** Per-region components of a span table: `scc[s]` (1-based within the region) and the DAGs. */
export interface RegionComponents {
  /** Component id of each span inside its region, from 1. */
  scc: Int32Array;
  /** Per region id (index rid − 1): component count. */
  count: Int32Array;
  /** Per region id (index rid − 1): DAG edges sorted by (src, dst). */
  dag: { src: Int32Array; dst: Int32Array }[];
}

/**
 * The RiseOk span graph of one region: nodes are the region's spans in ascending span index,
 * `nodes[k]` is the span of node k; edges u → v over the 8 neighbour columns, in (u, direction,
 * v) order.
 */
export function regionSpanGraph(
  grid: SpanGrid,
  rid: Uint32Array,
  region: number,
): { graph: Csr; nodes: Int32Array } {
  const nodes: number[] = [];
  for (let s = 0; s < rid.length; s++) if (rid[s] === region) nodes.push(s);
  const local = new Int32Array(rid.length);
  const ns = Int32Array.from(nodes);
  return { graph: spanGraph(grid, rid, ns, local), nodes: ns };
}

/**
 * `local` is scratch of length span count: it maps a span to its node number in `nodes`.
 * Edges are appended node by node, so the CSR is filled directly (no edge-list pass).
 */
function spanGraph(grid: SpanGrid, rid: Uint32Array, nodes: Int32Array, local: Int32Array): Csr {
  for (let k = 0; k < nodes.length; k++) local[nodes[k]] = k;
  const start = new Int32Array(nodes.length + 1);
  let adj = new Int32Array(Math.max(16, nodes.length * 8));
  let m = 0;
  const { nx, ny, h } = grid;
  for (let k = 0; k < nodes.length; k++) {
    start[k] = m;
    const s = nodes[k], c = grid.cell[s], x = c % nx, y = (c - x) / nx, r = rid[s], hs = h[s];
    for (let dy = -1; dy <= 1; dy++) {
      const qy = y + dy;
      if (qy < 0 || qy >= ny) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const qx = x + dx;
        if ((dx === 0 && dy === 0) || qx < 0 || qx >= nx) continue;
        const j = occIndex(grid, qy * nx + qx);
        if (j < 0) continue;
        for (let t = grid.cs[j], e = grid.cs[j + 1]; t < e; t++) {
          if (rid[t] !== r || !riseOk(grid, x, y, hs, dx, dy, h[t])) continue;
          if (m === adj.length) {
            const bigger = new Int32Array(adj.length * 2);
            bigger.set(adj);
            adj = bigger;
          }
          adj[m++] = local[t];
        }
      }
    }
  }
  start[nodes.length] = m;
  return { n: nodes.length, start, adj: adj.slice(0, m) };
}

/** Components and DAGs of every region (`regionCount` = max rid; rids are 1-based). */
export function regionComponents(
  grid: SpanGrid,
  rid: Uint32Array,
  regionCount: number,
): RegionComponents {
  // Spans grouped by region (counting sort by rid; ascending span index inside a region).
  const rstart = new Int32Array(regionCount + 1);
  for (let s = 0; s < rid.length; s++) {
    if (!(rid[s] >= 1 && rid[s] <= regionCount)) {
      throw new NavscopeError(
        "bad_value",
        `span ${s} has region id ${rid[s]}`,
        { section: "bake components" },
        `a region id in 1..${regionCount}`,
      );
    }
    rstart[rid[s]]++;
  }
  for (let r = 0; r < regionCount; r++) rstart[r + 1] += rstart[r];
  const byRegion = new Int32Array(rid.length);
  const fill = rstart.slice(0, regionCount);
  for (let s = 0; s < rid.length; s++) byRegion[fill[rid[s] - 1]++] = s;
  const scc = new Int32Array(rid.length);
  const count = new Int32Array(regionCount);
  const dag: { src: Int32Array; dst: Int32Array }[] = [];
  const local = new Int32Array(rid.length);
  for (let r = 0; r < regionCount; r++) {
    const nodes = byRegion.subarray(rstart[r], rstart[r + 1]);
    const g = spanGraph(grid, rid, nodes, local);
    const { comp, count: nc } = tarjanScc(g);
    for (let k = 0; k < nodes.length; k++) scc[nodes[k]] = comp[k];
    count[r] = nc;
    dag.push(componentDag(g, comp));
  }
  return { scc, count, dag };
}
