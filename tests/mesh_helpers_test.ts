/**
 * Small mesh builders and brute-force references shared by the mesh tests (plus a self-test,
 * so the file fits the tests/mesh_*_test.ts pattern).
 * @module
 */

/** A flat triangle soup. */
export interface Soup {
  /** u, v, h per vertex. */
  vertices: Float32Array;
  /** 3 vertex indices per triangle. */
  triangles: Uint32Array;
}

/** A grid of nx × ny unit quads (side `s` px) at height h, two CCW triangles per quad. */
export function gridSoup(nx: number, ny: number, s = 1, h = 0, ox = 0, oy = 0): Soup {
  const v: number[] = [], t: number[] = [];
  for (let y = 0; y <= ny; y++) for (let x = 0; x <= nx; x++) v.push(ox + x * s, oy + y * s, h);
  const id = (x: number, y: number) => y * (nx + 1) + x;
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      t.push(id(x, y), id(x + 1, y), id(x + 1, y + 1));
      t.push(id(x, y), id(x + 1, y + 1), id(x, y + 1));
    }
  }
  return { vertices: new Float32Array(v), triangles: new Uint32Array(t) };
}

/** Concatenates soups (vertex indices shifted). */
export function joinSoups(...soups: Soup[]): Soup {
  const v: number[] = [], t: number[] = [];
  for (const s of soups) {
    const base = v.length / 3;
    v.push(...s.vertices);
    for (const i of s.triangles) t.push(i + base);
  }
  return { vertices: new Float32Array(v), triangles: new Uint32Array(t) };
}

/**
 * Brute-force zone cleaning without walkable/link rules other than the ones given: O(slots²)
 * reverse edges and duplicates, rules 1–3, BFS components labelled by their smallest member.
 */
export function bruteClean(
  tris: Uint32Array,
  walkable: Uint8Array,
  linked: (i: number, j: number) => boolean,
): { nb: Int32Array; comp: Uint32Array } {
  const ns = tris.length;
  const end = (s: number) => tris[3 * Math.floor(s / 3) + (s % 3 + 1) % 3];
  const nb = new Int32Array(ns).fill(-1);
  const dup = new Uint8Array(ns);
  for (let s = 0; s < ns; s++) {
    for (let r = 0; r < ns; r++) {
      if (tris[r] === end(s) && end(r) === tris[s]) {
        nb[s] = Math.floor(r / 3);
        break;
      }
    }
    for (let r = 0; r < ns; r++) {
      if (r !== s && tris[r] === tris[s] && end(r) === end(s)) dup[s] = 1;
    }
  }
  // Rule 1: duplicate slots and the reverse slots that point at them.
  const before = nb.slice();
  for (let s = 0; s < ns; s++) {
    if (!dup[s] || before[s] < 0) continue;
    const i = Math.floor(s / 3), j = before[s];
    nb[s] = -1;
    for (let k = 0; k < 3; k++) {
      const r = 3 * j + k;
      if (tris[r] === end(s) && end(r) === tris[s] && before[r] === i) nb[r] = -1;
    }
  }
  // Rule 2 on a snapshot.
  const mid = nb.slice();
  for (let s = 0; s < ns; s++) {
    const j = mid[s];
    if (j < 0) continue;
    const i = Math.floor(s / 3);
    if (mid[3 * j] !== i && mid[3 * j + 1] !== i && mid[3 * j + 2] !== i) nb[s] = -1;
  }
  // Rule 3.
  for (let s = 0; s < ns; s++) {
    const j = nb[s];
    if (j < 0) continue;
    const i = Math.floor(s / 3);
    if (!walkable[i] || !walkable[j] || !linked(Math.min(i, j), Math.max(i, j))) nb[s] = -1;
  }
  const n = ns / 3;
  const comp = new Uint32Array(n).fill(0xffffffff);
  for (let t = 0; t < n; t++) {
    if (comp[t] !== 0xffffffff) continue;
    const stack = [t];
    comp[t] = t;
    while (stack.length) {
      const u = stack.pop()!;
      for (let k = 0; k < 3; k++) {
        const w = nb[3 * u + k];
        if (w >= 0 && comp[w] === 0xffffffff) {
          comp[w] = t;
          stack.push(w);
        }
      }
      // Adjacency is symmetric after rule 2, but walk incoming edges too to be safe.
      for (let s = 0; s < ns; s++) {
        if (nb[s] === u) {
          const w = Math.floor(s / 3);
          if (comp[w] === 0xffffffff) {
            comp[w] = t;
            stack.push(w);
          }
        }
      }
    }
  }
  return { nb, comp };
}

Deno.test("mesh helpers: grid soup and join shapes", () => {
  const g = gridSoup(3, 2);
  if (g.vertices.length !== 3 * 12 || g.triangles.length !== 3 * 12) throw new Error("grid shape");
  const j = joinSoups(g, g);
  if (j.triangles[j.triangles.length - 1] !== g.triangles[g.triangles.length - 1] + 12) {
    throw new Error("join shifts indices");
  }
});
