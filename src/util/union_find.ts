/**
 * Union-find (disjoint sets) over 0..n-1 in one Int32Array of parents, shared by the baker
 * (regions, tile assembly, record classes), the zone cleaning (components, links) and the mesh
 * planner (polygon merging). The root of a set is always its smallest member (spec 网格清洗 ›
 * 分量与孤岛: 根取组内最小下标; the baker's labels likewise must not depend on union order):
 * linking the larger root under the smaller keeps that invariant without a final pass, and path
 * halving keeps `find` near constant. Free functions over the array (no objects on hot paths);
 * {@link UnionFind} wraps them for callers that want a class.
 * @module
 */

/** A parent array of `n` singletons (`parent[i] = i`). */
export function ufInit(n: number): Int32Array {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  return parent;
}

/** Root (smallest member) of the set holding `a`, halving the path on the way. */
export function ufFind(parent: Int32Array, a: number): number {
  while (parent[a] !== a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

/** Merges the sets of `a` and `b`; the smaller root becomes the root of the union. */
export function ufUnion(parent: Int32Array, a: number, b: number): void {
  const ra = ufFind(parent, a), rb = ufFind(parent, b);
  if (ra < rb) parent[rb] = ra;
  else if (rb < ra) parent[ra] = rb;
}

/** Disjoint sets over 0..n-1, stored in one Int32Array of parents. */
export class UnionFind {
  /** parent[i]; a root is its own parent and is the smallest member of its set. */
  readonly parent: Int32Array;

  constructor(n: number) {
    this.parent = ufInit(n);
  }

  /** Root (smallest member) of the set holding i. */
  find(i: number): number {
    return ufFind(this.parent, i);
  }

  /** Merges the sets of a and b; the smaller root becomes the root of the union. */
  union(a: number, b: number): void {
    ufUnion(this.parent, a, b);
  }

  /** Root of every element, flattened (the component label of each element). */
  roots(): Uint32Array {
    const n = this.parent.length;
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = ufFind(this.parent, i);
    return out;
  }
}

/** Number of distinct labels in a root array (elements with `roots[i] === i`). */
export function countRoots(roots: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < roots.length; i++) if (roots[i] === i) n++;
  return n;
}

/** Size of each element's set: `size[i]` = members sharing `roots[i]`. */
export function setSizes(roots: Uint32Array): Uint32Array {
  const count = new Uint32Array(roots.length);
  for (let i = 0; i < roots.length; i++) count[roots[i]]++;
  const out = new Uint32Array(roots.length);
  for (let i = 0; i < roots.length; i++) out[i] = count[roots[i]];
  return out;
}
