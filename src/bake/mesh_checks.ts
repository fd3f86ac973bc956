/**
 * Input checks of the world bake that zone cleaning does not turn into errors: non-manifold
 * edges (an undirected edge used by more than two triangles — a fin or a T-junction welded
 * shut). Zone cleaning would cut such edges (rule 1) and bake on; the baker refuses them unless
 * told to be lenient, so a broken export is not silently baked.
 * @module
 */

/** Non-manifold edges of a triangle list: count and the first one (lowest key) as vertex ids. */
export function nonManifoldEdges(
  tris: Uint32Array,
  vertexCount: number,
): { count: number; first: [number, number] | null } {
  const nt = Math.floor(tris.length / 3);
  const keys = new Float64Array(3 * nt);
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const a = tris[3 * t + k], b = tris[3 * t + ((k + 1) % 3)];
      keys[3 * t + k] = Math.min(a, b) * vertexCount + Math.max(a, b);
    }
  }
  keys.sort();
  let count = 0, first: [number, number] | null = null;
  for (let i = 0; i < keys.length;) {
    let j = i + 1;
    while (j < keys.length && keys[j] === keys[i]) j++;
    if (j - i > 2) {
      if (first === null) {
        const lo = Math.floor(keys[i] / vertexCount);
        first = [lo, keys[i] - lo * vertexCount];
      }
      count++;
    }
    i = j;
  }
  return { count, first };
}
