/**
 * In-memory model of one zone of the occluder pack (spec 数据包 › OccluderPack: OCLS container,
 * OCLZ body). The model keeps the *quantised* integers exactly as stored, so that
 * `encodeOccluderZone(decodeOccluderZone(bytes))` reproduces the bytes; world-space geometry is
 * derived from it on demand (see `ocls_geometry.ts`).
 *
 * All arrays are flat and columnar: template t owns vertices
 * `tplVertexStart[t] .. tplVertexStart[t+1]` (3 ints each) and triangles
 * `tplTriStart[t] .. tplTriStart[t+1]` (3 template-local vertex indices each); instance i has
 * `instPos[3i..3i+2]`, `instQuat[3i..3i+2]`, `instMatrix[9i..9i+8]` and so on; terrain block b has
 * `blockHeights[b·n² .. (b+1)·n²)`.
 * @module
 */

/** OCLS container magic ("OCLS"). */
export const OCLS_MAGIC = "OCLS";
/** OCLZ zone body magic ("OCLZ"). */
export const OCLZ_MAGIC = "OCLZ";
/** The only container and body version (spec: 版本 1). */
export const OCLS_VERSION = 1;
/** OCLS container header size in bytes. */
export const OCLS_HEADER_BYTES = 12;
/** OCLZ body header size in bytes. */
export const OCLZ_HEADER_BYTES = 80;
/** Number of streams after the OCLZ header. */
export const OCLZ_STREAM_COUNT = 12;
/** Rotation code for "9 raw f32 matrix" placements (spec: 旋转码 4). */
export const ROT_CODE_MATRIX = 4;

/** Stream names in file order (spec OccluderPack stream table, one row = three or six streams). */
export const OCLZ_STREAM_NAMES = [
  "templates",
  "vertices",
  "indices",
  "instance-counts",
  "positions",
  "rotation-codes",
  "rotations",
  "scales",
  "matrices",
  "blocks",
  "heights",
  "holes",
] as const;

/** Scalar fields of the 80-byte OCLZ header (the three counts live in {@link OccluderScene}). */
export interface OclzHeader {
  /** Terrain samples per block edge n (a block has n × n samples, (n−1)² cells). */
  blockSamples: number;
  /** Position quantisation step q, metres (> 0). Instance positions are integers × q. */
  posStep: number;
  /** Terrain cell width w, metres (> 0). */
  cellWidth: number;
  /** Height scale a: integer terrain height k restores to `a·k + b` metres. */
  heightScale: number;
  /** Height offset b (see {@link heightScale}). */
  heightOffset: number;
  /** Quaternion component denominator D: a stored component k means k / D. */
  quatDenominator: number;
  /** Scale fixed-point bits F: a stored scale integer s means s / 2^F. */
  scaleBits: number;
  /** World origin x in units of q (i64 in the file, must be a safe integer here). */
  originX: number;
  /** World origin z in units of q. */
  originZ: number;
}

/** One decoded zone of an occluder pack. Quantised values as stored; see the module doc. */
export interface OccluderScene {
  /** Zone name (the OCLS record name). */
  zone: string;
  /** Header scalars. */
  header: OclzHeader;
  /** Number of mesh templates. */
  templateCount: number;
  /** Number of placed instances. */
  instanceCount: number;
  /** Number of terrain height blocks. */
  blockCount: number;
  /** Per template: quantisation exponent e (vertex coordinate = integer · 2^e, exact). */
  tplExponent: Int8Array;
  /** Template vertex ranges, length templateCount + 1. */
  tplVertexStart: Uint32Array;
  /** Template vertices as integers, 3 per vertex, in first-reference order. */
  tplVertices: Int32Array;
  /** Template triangle ranges, length templateCount + 1. */
  tplTriStart: Uint32Array;
  /** Template triangle corners, 3 per triangle, template-local vertex indices. */
  tplIndices: Uint32Array;
  /** Per instance: template index (instances are grouped by template, ascending). */
  instTemplate: Uint32Array;
  /** Per instance: position integers (x, y, z) in units of q, x/z relative to the origin. */
  instPos: Int32Array;
  /** Per instance: rotation code 0–3 (dropped largest quaternion component) or 4 (raw matrix). */
  instRotCode: Uint8Array;
  /** Per instance: the three small quaternion components as integers (0 for code 4). */
  instQuat: Int32Array;
  /** Per instance: scale palette index (0 for code 4). */
  instScaleIndex: Uint32Array;
  /** Scale palette: 3 fixed-point integers per entry. */
  scalePalette: Int32Array;
  /** Per instance: 9 raw f32 (row-major 3×3) for code 4, zeros otherwise. Bits kept exactly. */
  instMatrix: Float32Array;
  /** Per block: origin (x, z) in terrain cells from the world origin. */
  blockOrigin: Int32Array;
  /** Per block: 1 if the block carries a hole bitmap. */
  blockHoleFlag: Uint8Array;
  /** Per block: n × n integer heights, row-major (z outer, x inner). */
  blockHeights: Int32Array;
  /** Per block: ⌈(n−1)²/8⌉ bytes of hole bits (LSB first, bit = cz·(n−1)+cx); zeros if no flag. */
  blockHoles: Uint8Array;
}

/** Bytes of one block's hole bitmap: ⌈(n−1)²/8⌉ (formulas.md 19: (n−1)² bits). */
export function holeBytes(n: number): number {
  return n >= 2 ? Math.ceil((n - 1) * (n - 1) / 8) : 0;
}

/** An empty scene with a default header (used by the builder and tests). */
export function emptyOccluderScene(zone: string, header: Partial<OclzHeader> = {}): OccluderScene {
  return {
    zone,
    header: {
      blockSamples: 2,
      posStep: 1 / 1024,
      cellWidth: 1,
      heightScale: 1 / 256,
      heightOffset: 0,
      quatDenominator: 32767,
      scaleBits: 12,
      originX: 0,
      originZ: 0,
      ...header,
    },
    templateCount: 0,
    instanceCount: 0,
    blockCount: 0,
    tplExponent: new Int8Array(0),
    tplVertexStart: new Uint32Array(1),
    tplVertices: new Int32Array(0),
    tplTriStart: new Uint32Array(1),
    tplIndices: new Uint32Array(0),
    instTemplate: new Uint32Array(0),
    instPos: new Int32Array(0),
    instRotCode: new Uint8Array(0),
    instQuat: new Int32Array(0),
    instScaleIndex: new Uint32Array(0),
    scalePalette: new Int32Array(0),
    instMatrix: new Float32Array(0),
    blockOrigin: new Int32Array(0),
    blockHoleFlag: new Uint8Array(0),
    blockHeights: new Int32Array(0),
    blockHoles: new Uint8Array(0),
  };
}
