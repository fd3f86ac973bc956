/**
 * Builds an {@link OccluderScene} from float geometry, quantising as the OCLZ format stores it
 * (spec 数据包 › OccluderPack): template vertices to integers · 2^e in first-reference order,
 * positions to integers · q, quaternions to smallest-three / D, scales to a palette of fixed-point
 * triples, terrain heights to integers (k = round((h − b)/a)). Used by the baker and the tests.
 * @module
 */
import { NavscopeError } from "../../errors.ts";
import {
  emptyOccluderScene,
  holeBytes,
  type OccluderScene,
  type OclzHeader,
  ROT_CODE_MATRIX,
} from "./types.ts";

interface PendingInstance {
  template: number;
  pos: [number, number, number];
  code: number;
  quat: [number, number, number];
  scaleIndex: number;
  matrix: number[] | null;
}

/** Incremental scene builder; `build()` groups instances by template (stable). */
export class OccluderSceneBuilder {
  /** Header scalars used for quantisation. */
  readonly header: OclzHeader;
  readonly #zone: string;
  readonly #tplExp: number[] = [];
  readonly #tplVerts: number[][] = [];
  readonly #tplIdx: number[][] = [];
  readonly #inst: PendingInstance[] = [];
  readonly #palette: number[] = [];
  readonly #paletteKey = new Map<string, number>();
  readonly #blocks: { x: number; z: number; h: number[]; holes: Uint8Array | null }[] = [];

  constructor(zone: string, header: Partial<OclzHeader> = {}) {
    this.#zone = zone;
    this.header = emptyOccluderScene(zone, header).header;
  }

  /**
   * Adds a template from local float vertices (3 per vertex) and triangle indices; coordinates
   * are rounded to integers · 2^exponent. Unreferenced vertices are dropped and the rest
   * renumbered in first-reference order (the order the format requires). Returns its index.
   */
  addTemplate(vertices: ArrayLike<number>, indices: ArrayLike<number>, exponent: number): number {
    const f = 2 ** -exponent;
    const remap = new Map<number, number>();
    const verts: number[] = [];
    const idx: number[] = [];
    for (let c = 0; c < indices.length; c++) {
      const v = indices[c];
      let k = remap.get(v);
      if (k === undefined) {
        k = remap.size;
        remap.set(v, k);
        for (let a = 0; a < 3; a++) {
          verts.push(checkI32(Math.round(vertices[3 * v + a] * f), "vertex"));
        }
      }
      idx.push(k);
    }
    this.#tplExp.push(exponent);
    this.#tplVerts.push(verts);
    this.#tplIdx.push(idx);
    return this.#tplExp.length - 1;
  }

  /** Places template `t` at world position `pos` (metres) with unit quaternion (x, y, z, w) and scale. */
  addInstance(
    t: number,
    pos: readonly [number, number, number],
    quat: readonly [number, number, number, number] = [0, 0, 0, 1],
    scale: readonly [number, number, number] = [1, 1, 1],
  ): void {
    const { code, small } = smallestThree(quat, this.header.quatDenominator);
    const sf = 2 ** this.header.scaleBits;
    const triple = scale.map((s) => checkI32(Math.round(s * sf), "scale"));
    const key = triple.join(",");
    let si = this.#paletteKey.get(key);
    if (si === undefined) {
      si = this.#paletteKey.size;
      this.#paletteKey.set(key, si);
      this.#palette.push(...triple);
    }
    this.#inst.push({
      template: t,
      pos: this.#quantPos(pos),
      code,
      quat: small,
      scaleIndex: si,
      matrix: null,
    });
  }

  /** Places template `t` with a raw row-major 3×3 matrix (rotation code 4). */
  addInstanceMatrix(
    t: number,
    pos: readonly [number, number, number],
    matrix: ArrayLike<number>,
  ): void {
    this.#inst.push({
      template: t,
      pos: this.#quantPos(pos),
      code: ROT_CODE_MATRIX,
      quat: [0, 0, 0],
      scaleIndex: 0,
      matrix: Array.from(matrix).slice(0, 9),
    });
  }

  #quantPos(p: readonly [number, number, number]): [number, number, number] {
    const q = this.header.posStep;
    return [
      checkI32(Math.round(p[0] / q) - this.header.originX, "position"),
      checkI32(Math.round(p[1] / q), "position"),
      checkI32(Math.round(p[2] / q) - this.header.originZ, "position"),
    ];
  }

  /**
   * Adds a terrain block at (x, z) terrain cells from the origin with n × n heights in metres
   * (z-major) and optional hole flags per cell ((n−1)², z-major).
   */
  addBlock(
    x: number,
    z: number,
    heights: ArrayLike<number>,
    holes?: ArrayLike<number | boolean>,
  ): void {
    const n = this.header.blockSamples;
    if (heights.length !== n * n) {
      throw new NavscopeError("usage", `block needs ${n * n} heights, got ${heights.length}`);
    }
    const { heightScale: a, heightOffset: b } = this.header;
    const h = Array.from(heights, (v) => checkI32(Math.round((v - b) / a), "height"));
    let bits: Uint8Array | null = null;
    if (holes && Array.from(holes).some(Boolean)) {
      bits = new Uint8Array(holeBytes(n));
      for (let k = 0; k < (n - 1) * (n - 1); k++) if (holes[k]) bits[k >> 3] |= 1 << (k & 7);
    }
    this.#blocks.push({ x, z, h, holes: bits });
  }

  /** The scene (instances grouped by template, stable). */
  build(): OccluderScene {
    const s = emptyOccluderScene(this.#zone, this.header);
    const T = this.#tplExp.length;
    s.templateCount = T;
    s.tplExponent = Int8Array.from(this.#tplExp);
    s.tplVertexStart = prefix(this.#tplVerts.map((v) => v.length / 3));
    s.tplTriStart = prefix(this.#tplIdx.map((v) => v.length / 3));
    s.tplVertices = Int32Array.from(this.#tplVerts.flat());
    s.tplIndices = Uint32Array.from(this.#tplIdx.flat());
    this.#fillInstances(s);
    this.#fillBlocks(s);
    return s;
  }

  #fillInstances(s: OccluderScene): void {
    const order = this.#inst.map((_, i) => i).sort((a, b) =>
      this.#inst[a].template - this.#inst[b].template || a - b
    );
    const N = order.length;
    s.instanceCount = N;
    s.instTemplate = new Uint32Array(N);
    s.instPos = new Int32Array(3 * N);
    s.instRotCode = new Uint8Array(N);
    s.instQuat = new Int32Array(3 * N);
    s.instScaleIndex = new Uint32Array(N);
    s.instMatrix = new Float32Array(9 * N);
    s.scalePalette = Int32Array.from(this.#palette);
    order.forEach((src, i) => {
      const p = this.#inst[src];
      s.instTemplate[i] = p.template;
      s.instPos.set(p.pos, 3 * i);
      s.instRotCode[i] = p.code;
      s.instQuat.set(p.quat, 3 * i);
      s.instScaleIndex[i] = p.scaleIndex;
      if (p.matrix) s.instMatrix.set(p.matrix, 9 * i);
    });
  }

  #fillBlocks(s: OccluderScene): void {
    const B = this.#blocks.length, n = this.header.blockSamples, hb = holeBytes(n);
    s.blockCount = B;
    s.blockOrigin = new Int32Array(2 * B);
    s.blockHoleFlag = new Uint8Array(B);
    s.blockHeights = new Int32Array(B * n * n);
    s.blockHoles = new Uint8Array(B * hb);
    this.#blocks.forEach((blk, b) => {
      s.blockOrigin[2 * b] = blk.x;
      s.blockOrigin[2 * b + 1] = blk.z;
      s.blockHeights.set(blk.h, b * n * n);
      if (blk.holes) {
        s.blockHoleFlag[b] = 1;
        s.blockHoles.set(blk.holes, b * hb);
      }
    });
  }
}

function prefix(counts: number[]): Uint32Array {
  const out = new Uint32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) out[i + 1] = out[i] + counts[i];
  return out;
}

function checkI32(v: number, what: string): number {
  if (!(v >= -2147483648 && v <= 2147483647)) {
    throw new NavscopeError("bad_value", `${what} ${v} does not fit an i32 after quantisation`);
  }
  return v;
}

/**
 * Smallest-three encoding [formulas 18]: normalise, drop the component with the largest
 * magnitude (first on ties), flip the sign so the dropped one is ≥ 0, quantise the rest to k/D.
 */
export function smallestThree(
  q: readonly [number, number, number, number],
  D: number,
): { code: number; small: [number, number, number] } {
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  let code = 0;
  for (let c = 1; c < 4; c++) if (Math.abs(q[c]) > Math.abs(q[code])) code = c;
  const sign = q[code] < 0 ? -1 : 1;
  const small: number[] = [];
  for (let c = 0; c < 4; c++) if (c !== code) small.push(Math.round((sign * q[c] / len) * D) + 0); // + 0: no −0
  return { code, small: small as [number, number, number] };
}
