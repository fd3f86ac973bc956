/**
 * Slots and adjacency (spec 网格清洗 › 槽位与邻接, formulas.md #20–#22). Slot `s = 3i + k` is
 * the directed edge `T[i][k] → T[i][(k+1)%3]`. Slots are bucketed by their start vertex with a
 * counting sort, filled in increasing slot order, so "the first hit in a bucket" is the lowest
 * slot number — the same answer as sorting every directed edge, whatever the thread count.
 * @module
 */

/** Slots bucketed by start vertex (CSR): bucket of vertex v is `slots[start[v-vmin] .. start[v-vmin+1])`. */
export interface SlotBuckets {
  /** Smallest vertex index used by the triangles. */
  vmin: number;
  /** Bucket offsets, length `vmax - vmin + 2`. */
  start: Uint32Array;
  /** Slot numbers, ascending inside each bucket. */
  slots: Uint32Array;
}

/** Builds the start-vertex slot buckets for `n = tris.length / 3` triangles. */
export function buildSlotBuckets(tris: Uint32Array): SlotBuckets {
  const ns = tris.length;
  let vmin = 0xffffffff, vmax = 0;
  for (let s = 0; s < ns; s++) {
    const v = tris[s];
    if (v < vmin) vmin = v;
    if (v > vmax) vmax = v;
  }
  if (ns === 0) vmin = vmax = 0;
  const start = new Uint32Array(vmax - vmin + 2);
  for (let s = 0; s < ns; s++) start[tris[s] - vmin + 1]++;
  for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
  const fill = start.slice(0, start.length - 1);
  const slots = new Uint32Array(ns);
  for (let s = 0; s < ns; s++) slots[fill[tris[s] - vmin]++] = s;
  return { vmin, start, slots };
}

/** End vertex of slot s, read from the triangle table (no separate end table is kept). */
export function slotEnd(tris: Uint32Array, s: number): number {
  const k = s % 3;
  return tris[s - k + (k === 2 ? 0 : k + 1)];
}

/** Result of the reverse-edge pass: one neighbour and one duplicate mark per slot. */
export interface SlotAdjacency {
  /** Zone-local neighbour triangle of each slot, -1 when the edge has no reverse. */
  neighbour: Int32Array;
  /** 1 when another slot runs along the same directed edge (a non-manifold seam). */
  duplicate: Uint8Array;
}

/**
 * For slot s = a→b: the neighbour is the triangle of the first slot in b's bucket that ends at a;
 * s is a duplicate when a's bucket holds another slot that also ends at b (formulas.md #21).
 */
export function findReverseEdges(tris: Uint32Array, buckets: SlotBuckets): SlotAdjacency {
  const ns = tris.length;
  const { vmin, start, slots } = buckets;
  const neighbour = new Int32Array(ns).fill(-1);
  const duplicate = new Uint8Array(ns);
  for (let s = 0; s < ns; s++) {
    const a = tris[s], b = slotEnd(tris, s);
    const bb = b - vmin;
    for (let q = start[bb], e = start[bb + 1]; q < e; q++) {
      const r = slots[q];
      if (slotEnd(tris, r) === a) {
        neighbour[s] = (r / 3) | 0;
        break;
      }
    }
    const ab = a - vmin;
    for (let q = start[ab], e = start[ab + 1]; q < e; q++) {
      const r = slots[q];
      if (r !== s && slotEnd(tris, r) === b) {
        duplicate[s] = 1;
        break;
      }
    }
  }
  return { neighbour, duplicate };
}

/**
 * Disconnect rule 1 (重边): every duplicate slot loses its neighbour, and the reverse side that
 * points at the duplicate's triangle is cut too, so both sides of the seam let go of each other.
 * Returns the number of slots cut.
 */
export function cutDuplicateEdges(tris: Uint32Array, adj: SlotAdjacency): number {
  const { neighbour, duplicate } = adj;
  // Decide on the reverse-edge result as found, so the outcome does not depend on slot order.
  const before = neighbour.slice();
  for (let s = 0; s < neighbour.length; s++) {
    if (!duplicate[s]) continue;
    const j = before[s];
    if (j < 0) continue;
    neighbour[s] = -1;
    // The reverse slot b→a of j, if it points back at this triangle, is the other side.
    const i = (s / 3) | 0;
    const a = tris[s], b = slotEnd(tris, s);
    for (let k = 0; k < 3; k++) {
      const r = 3 * j + k;
      if (tris[r] === b && slotEnd(tris, r) === a && before[r] === i) neighbour[r] = -1;
    }
  }
  let cut = 0;
  for (let s = 0; s < neighbour.length; s++) if (before[s] >= 0 && neighbour[s] < 0) cut++;
  return cut;
}

/**
 * Disconnect rule 2 (单向邻接, formulas.md #22): if i points to j but none of j's three slots
 * points back to i, clear i's side. Order-independent: a cut never changes another test.
 * Returns the number of slots cut.
 */
export function cutOneSidedEdges(neighbour: Int32Array): number {
  let cut = 0;
  for (let s = 0; s < neighbour.length; s++) {
    const j = neighbour[s];
    if (j < 0) continue;
    const i = (s / 3) | 0;
    if (neighbour[3 * j] !== i && neighbour[3 * j + 1] !== i && neighbour[3 * j + 2] !== i) {
      neighbour[s] = -1;
      cut++;
    }
  }
  return cut;
}

/**
 * Geometric neighbours of a triangle soup: reverse edges with rules 1 and 2 applied, as the
 * pack's own neighbour field (zone-local, -1 = none, entry k belongs to edge k). Used by the
 * baker to fill BNAV triangle records for meshes that come without neighbours.
 */
export function meshNeighbours(tris: Uint32Array): Int32Array {
  const adj = findReverseEdges(tris, buildSlotBuckets(tris));
  cutDuplicateEdges(tris, adj);
  cutOneSidedEdges(adj.neighbour);
  return adj.neighbour;
}
