/**
 * Bounding-volume tree over axis-aligned boxes (spec 数据包 › OccluderPack: "解完建两级包围盒树
 * … 叶子最多 4 项。节点盒向外取整到 float"). Used twice: the instance tree over all instances in
 * world space, and one template tree per template with more than 8 triangles in template-local
 * units. The tree only prunes work; it must never lose a candidate, so every stored box is rounded
 * *outward* to float32 and queries test boxes inclusively.
 *
 * Build: top-down, split at the median of the box centres along the longest axis of the centre
 * bounds; ties in the sort key break by item index, so the tree is deterministic.
 * @module
 */

/** Maximum items per leaf (spec: 叶子最多 4 项). */
export const BVH_LEAF_SIZE = 4;

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

/** Largest float32 ≤ x (−∞ for NaN, so a broken box can never hide a candidate). */
export function f32Down(x: number): number {
  if (Number.isNaN(x)) return -Infinity;
  const f = Math.fround(x);
  if (f <= x) return f;
  return nextF32(f, -1);
}

/** Smallest float32 ≥ x (+∞ for NaN). */
export function f32Up(x: number): number {
  if (Number.isNaN(x)) return Infinity;
  const f = Math.fround(x);
  if (f >= x) return f;
  return nextF32(f, 1);
}

function nextF32(f: number, dir: 1 | -1): number {
  if (f === 0) return dir > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45;
  f32buf[0] = f;
  // Moving away from zero increments the magnitude bits; toward zero decrements them.
  if ((f > 0) === (dir > 0)) u32buf[0] += 1;
  else u32buf[0] -= 1;
  return f32buf[0];
}

/** A built tree. Node n: box `box[6n..6n+5]` = (minx, miny, minz, maxx, maxy, maxz). */
export interface Bvh {
  /** Node boxes, float32, rounded outward. */
  box: Float32Array;
  /** Internal node: index of the left child (right = left + 1 is NOT assumed; see `right`). Leaf: first slot in `items`. */
  first: Int32Array;
  /** Internal node: index of the right child. Leaf: −1. */
  right: Int32Array;
  /** Leaf: number of items; internal: 0. */
  count: Uint8Array;
  /** Item ids in leaf order. */
  items: Uint32Array;
  /** Per item id: its own box, float32, rounded outward (leaf items are filtered by it). */
  itemBox: Float32Array;
  /** Number of nodes. */
  nodeCount: number;
}

/**
 * Builds a tree over `n` boxes given as float64 `boxes[6i..6i+5]` (min xyz, max xyz). Boxes are
 * rounded outward to float32 here.
 */
export function buildBvh(boxes: Float64Array, n: number): Bvh {
  const cap = Math.max(1, 2 * n - 1);
  const bvh: Bvh = {
    box: new Float32Array(6 * cap),
    first: new Int32Array(cap),
    right: new Int32Array(cap),
    count: new Uint8Array(cap),
    items: new Uint32Array(n),
    itemBox: new Float32Array(6 * n),
    nodeCount: 0,
  };
  for (let k = 0; k < 6 * n; k++) {
    const v = boxes[k];
    bvh.itemBox[k] = k % 6 < 3
      ? f32Down(Number.isNaN(v) ? -Infinity : v)
      : f32Up(Number.isNaN(v) ? Infinity : v);
  }
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const centre = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) centre[3 * i + a] = mid(boxes[6 * i + a], boxes[6 * i + 3 + a]);
  }
  buildNode(bvh, boxes, centre, ids, 0, n);
  bvh.items.set(ids);
  return bvh;
}

function mid(lo: number, hi: number): number {
  const m = 0.5 * lo + 0.5 * hi;
  return Number.isFinite(m) ? m : (Number.isFinite(lo) ? lo : Number.isFinite(hi) ? hi : 0);
}

function buildNode(
  bvh: Bvh,
  boxes: Float64Array,
  centre: Float64Array,
  ids: Uint32Array,
  lo: number,
  hi: number,
): number {
  const node = bvh.nodeCount++;
  setNodeBox(bvh, node, boxes, ids, lo, hi);
  if (hi - lo <= BVH_LEAF_SIZE) {
    bvh.first[node] = lo;
    bvh.right[node] = -1;
    bvh.count[node] = hi - lo;
    return node;
  }
  const axis = longestCentreAxis(centre, ids, lo, hi);
  const part = Array.from(ids.subarray(lo, hi));
  part.sort((a, b) => centre[3 * a + axis] - centre[3 * b + axis] || a - b);
  ids.set(part, lo);
  const m = (lo + hi) >>> 1;
  const left = buildNode(bvh, boxes, centre, ids, lo, m);
  const right = buildNode(bvh, boxes, centre, ids, m, hi);
  bvh.first[node] = left;
  bvh.right[node] = right;
  bvh.count[node] = 0;
  return node;
}

function setNodeBox(
  bvh: Bvh,
  node: number,
  boxes: Float64Array,
  ids: Uint32Array,
  lo: number,
  hi: number,
): void {
  const b = bvh.box;
  for (let a = 0; a < 3; a++) {
    let mn = Infinity, mx = -Infinity;
    for (let k = lo; k < hi; k++) {
      const i = ids[k];
      const l = boxes[6 * i + a], h = boxes[6 * i + 3 + a];
      // A NaN bound means "unknown": widen to everything rather than lose the item.
      mn = Math.min(mn, Number.isNaN(l) ? -Infinity : l);
      mx = Math.max(mx, Number.isNaN(h) ? Infinity : h);
    }
    b[6 * node + a] = f32Down(mn);
    b[6 * node + 3 + a] = f32Up(mx);
  }
}

function longestCentreAxis(centre: Float64Array, ids: Uint32Array, lo: number, hi: number): number {
  let best = 0, bestExt = -1;
  for (let a = 0; a < 3; a++) {
    let mn = Infinity, mx = -Infinity;
    for (let k = lo; k < hi; k++) {
      const c = centre[3 * ids[k] + a];
      if (c < mn) mn = c;
      if (c > mx) mx = c;
    }
    if (mx - mn > bestExt) {
      bestExt = mx - mn;
      best = a;
    }
  }
  return best;
}

/**
 * Calls `visit(id)` for every item whose stored box overlaps the query box (inclusive), exactly
 * the set a linear scan over `itemBox` would give. Items
 * are visited in tree order; callers that need a set should not rely on the order. Returns early
 * when `visit` returns true (and then returns true).
 */
export function queryBvh(
  bvh: Bvh,
  q: ArrayLike<number>,
  visit: (id: number) => boolean | void,
): boolean {
  if (bvh.items.length === 0) return false;
  const stack: number[] = [0];
  const b = bvh.box;
  while (stack.length > 0) {
    const n = stack.pop()!;
    const o = 6 * n;
    if (
      b[o] > q[3] || b[o + 3] < q[0] || b[o + 1] > q[4] || b[o + 4] < q[1] ||
      b[o + 2] > q[5] || b[o + 5] < q[2]
    ) continue;
    const c = bvh.count[n];
    if (bvh.right[n] < 0) {
      const f = bvh.first[n];
      for (let k = f; k < f + c; k++) {
        const id = bvh.items[k];
        if (boxesOverlap(bvh.itemBox, 6 * id, q) && visit(id)) return true;
      }
    } else {
      stack.push(bvh.right[n], bvh.first[n]);
    }
  }
  return false;
}

/** Inclusive overlap of two boxes laid out as (min xyz, max xyz). */
export function boxesOverlap(a: ArrayLike<number>, ao: number, q: ArrayLike<number>): boolean {
  return !(a[ao] > q[3] || a[ao + 3] < q[0] || a[ao + 1] > q[4] || a[ao + 4] < q[1] ||
    a[ao + 2] > q[5] || a[ao + 5] < q[2]);
}
