/**
 * Union-find over triangle indices whose root is always the smallest index of its set
 * (spec 网格清洗 › 分量与孤岛: 根取组内最小下标). Linking the larger root under the smaller one
 * keeps that invariant without a final pass; path halving keeps `find` near constant.
 * @module
 */

/** Disjoint sets over 0..n-1, stored in one Int32Array of parents. */
export class UnionFind {
  /** parent[i]; a root is its own parent and is the smallest member of its set. */
  readonly parent: Int32Array;

  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  /** Root (smallest member) of the set holding i. */
  find(i: number): number {
    const p = this.parent;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  /** Merges the sets of a and b; the smaller root becomes the root of the union. */
  union(a: number, b: number): void {
    let ra = this.find(a), rb = this.find(b);
    if (ra === rb) return;
    if (rb < ra) {
      const t = ra;
      ra = rb;
      rb = t;
    }
    this.parent[rb] = ra;
  }

  /** Root of every element, flattened (the component label of each triangle). */
  roots(): Uint32Array {
    const n = this.parent.length;
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.find(i);
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
