/**
 * The in-memory shape of grid span records (spec 数据包 › 格图段), shared by the BGRD codec,
 * the BNVF sidecar merge, the baker and the planner. Records are columnar: one typed array per
 * field, record `i` of a tile is `cell[i], rid[i], h[i], clr[i], flags[i], steps[i]`.
 *
 * Order inside a tile: by cell index ascending, and within one cell by height ascending (layer L
 * of a cell is its L-th record).
 * @module
 */

/** Span flag bits (spec 格图段 / 预烘场). */
export const SpanFlag = {
  /** Dead: not walkable after hole filling / crack closing. */
  Dead: 0x01,
  /** Walk: walkable surface. */
  Walk: 0x02,
  /** Core: walkable after FillHoles and CloseCracks. */
  Core: 0x04,
  /** Ghost: outside the original mesh but kept for the search. */
  Ghost: 0x08,
  /** Fill: a record created by hole filling (its stored height is 0). */
  Fill: 0x10,
} as const;

/**
 * The four step-ban directions of the `steps` byte: direction d uses bit 2d (forbid c→b,
 * the step from this cell to the neighbour at offset DIRS[d]) and bit 2d+1 (forbid b→c).
 * The other four directions are the neighbours' reverse bits.
 */
export const STEP_DIRS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

/** Cell side in px (kCS); the BGRD header's cell size must equal it. */
export const K_CS = 0.25;

/** Columnar span records of one tile (or one window). */
export interface SpanColumns {
  /** Number of records. */
  n: number;
  /** Tile-local cell index `ly * nx + lx` (i32). */
  cell: Int32Array;
  /** Zone-wide region id (u32). */
  rid: Uint32Array;
  /** Height in metres (f32); 0 for Fill records. */
  h: Float32Array;
  /** Clearance stored as the squared cell distance (u16). */
  clr: Uint16Array;
  /** {@link SpanFlag} bits. */
  flags: Uint8Array;
  /** Step-ban bits, 2 per {@link STEP_DIRS} direction. */
  steps: Uint8Array;
}

/** Allocates empty columns for `n` records. */
export function allocSpanColumns(n: number): SpanColumns {
  return {
    n,
    cell: new Int32Array(n),
    rid: new Uint32Array(n),
    h: new Float32Array(n),
    clr: new Uint16Array(n),
    flags: new Uint8Array(n),
    steps: new Uint8Array(n),
  };
}
