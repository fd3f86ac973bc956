/**
 * World-space geometry of an occluder scene (spec 数据包 › OccluderPack): template vertices,
 * instance placements and terrain triangles, all derived from the quantised model in float64 with
 * a fixed operation order (the reference builds OccluderPack.cpp without FMA contraction; plain
 * JavaScript arithmetic never contracts, so the order below is the whole determinism story).
 *
 * Reconstructions (formulas.md 15–19):
 * - template vertex = integer · 2^e, exact (spec: "这个乘法没有舍入");
 * - placement `p_world = R·(S ⊙ p_local) + T` = M·p + T with M = R·diag(S) [formulas 18, ?];
 * - quaternion: the three stored components are k/D, the dropped (largest) one is
 *   `sqrt(max(0, 1 − a² − b² − c²))` ≥ 0 (q and −q are the same rotation) [I];
 * - scale = integer / 2^F [formulas 16]; T = ((x0 + ix)·q, iy·q, (z0 + iz)·q) [I];
 * - terrain sample (i, j) of block (bx, bz): (x0·q + (bx + i)·w, a·k + b, z0·q + (bz + j)·w);
 *   each non-hole cell gives two upward-wound triangles split along (1,0)–(0,1) [I].
 * @module
 */
import { type OccluderScene, ROT_CODE_MATRIX } from "./types.ts";

/** Template vertices in local units as float64, 3 per vertex (exact: int · 2^e). */
export function templateLocalVertices(scene: OccluderScene): Float64Array {
  const out = new Float64Array(scene.tplVertices.length);
  for (let t = 0; t < scene.templateCount; t++) {
    const f = 2 ** scene.tplExponent[t];
    for (let k = 3 * scene.tplVertexStart[t]; k < 3 * scene.tplVertexStart[t + 1]; k++) {
      out[k] = scene.tplVertices[k] * f;
    }
  }
  return out;
}

/**
 * Writes instance i's placement into `m` (9, row-major) and `t` (3) at offsets 9i / 3i.
 * Code 0–3: smallest-three quaternion × scale palette; code 4: the raw f32 matrix widened.
 */
export function instanceTransform(
  scene: OccluderScene,
  i: number,
  m: Float64Array,
  t: Float64Array,
): void {
  const h = scene.header;
  const o = 9 * i;
  if (scene.instRotCode[i] === ROT_CODE_MATRIX) {
    for (let k = 0; k < 9; k++) m[o + k] = scene.instMatrix[o + k];
  } else {
    quatScaleMatrix(scene, i, m, o);
  }
  t[3 * i] = (h.originX + scene.instPos[3 * i]) * h.posStep;
  t[3 * i + 1] = scene.instPos[3 * i + 1] * h.posStep;
  t[3 * i + 2] = (h.originZ + scene.instPos[3 * i + 2]) * h.posStep;
}

const quat = new Float64Array(4);

function quatScaleMatrix(scene: OccluderScene, i: number, m: Float64Array, o: number): void {
  const D = scene.header.quatDenominator;
  const code = scene.instRotCode[i];
  let k = 0, ss = 0;
  for (let c = 0; c < 4; c++) {
    if (c === code) continue;
    const v = scene.instQuat[3 * i + k++] / D;
    quat[c] = v;
    ss += v * v;
  }
  quat[code] = Math.sqrt(Math.max(0, 1 - ss));
  const x = quat[0], y = quat[1], z = quat[2], w = quat[3];
  const p = 3 * scene.instScaleIndex[i];
  const f = 2 ** -scene.header.scaleBits;
  const sx = scene.scalePalette[p] * f, sy = scene.scalePalette[p + 1] * f;
  const sz = scene.scalePalette[p + 2] * f;
  m[o] = (1 - 2 * (y * y + z * z)) * sx;
  m[o + 1] = 2 * (x * y - w * z) * sy;
  m[o + 2] = 2 * (x * z + w * y) * sz;
  m[o + 3] = 2 * (x * y + w * z) * sx;
  m[o + 4] = (1 - 2 * (x * x + z * z)) * sy;
  m[o + 5] = 2 * (y * z - w * x) * sz;
  m[o + 6] = 2 * (x * z - w * y) * sx;
  m[o + 7] = 2 * (y * z + w * x) * sy;
  m[o + 8] = (1 - 2 * (x * x + y * y)) * sz;
}

/**
 * Inverts the 3×3 matrix at `m[o..o+8]` into `inv[o..o+8]`. Returns the determinant, or 0 when the
 * matrix is singular or not finite (spec: 行列式恰为 0 或非有限 → intersect in world space).
 */
export function invert3(m: Float64Array, o: number, inv: Float64Array): number {
  const a = m[o], b = m[o + 1], c = m[o + 2];
  const d = m[o + 3], e = m[o + 4], f = m[o + 5];
  const g = m[o + 6], h = m[o + 7], k = m[o + 8];
  const c0 = e * k - f * h, c1 = f * g - d * k, c2 = d * h - e * g;
  const det = a * c0 + b * c1 + c * c2;
  if (det === 0 || !Number.isFinite(det)) return 0;
  const r = 1 / det;
  const vals = [
    c0 * r,
    (c * h - b * k) * r,
    (b * f - c * e) * r,
    c1 * r,
    (a * k - c * g) * r,
    (c * d - a * f) * r,
    c2 * r,
    (b * g - a * h) * r,
    (a * e - b * d) * r,
  ];
  for (let j = 0; j < 9; j++) {
    if (!Number.isFinite(vals[j])) return 0;
    inv[o + j] = vals[j];
  }
  return det;
}

/** Applies placement i (m at 9i, t at 3i) to local point (x, y, z), writing into `out[oo..]`. */
export function placePoint(
  m: Float64Array,
  t: Float64Array,
  i: number,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  oo: number,
): void {
  const o = 9 * i;
  out[oo] = m[o] * x + m[o + 1] * y + m[o + 2] * z + t[3 * i];
  out[oo + 1] = m[o + 3] * x + m[o + 4] * y + m[o + 5] * z + t[3 * i + 1];
  out[oo + 2] = m[o + 6] * x + m[o + 7] * y + m[o + 8] * z + t[3 * i + 2];
}

/** World x (or z) of terrain sample column `cell` from origin `originQ` (units of q). */
export function terrainCoord(scene: OccluderScene, originQ: number, cell: number): number {
  return originQ * scene.header.posStep + cell * scene.header.cellWidth;
}

/** World height of terrain sample `k` (index into blockHeights). */
export function terrainHeight(scene: OccluderScene, k: number): number {
  return scene.header.heightScale * scene.blockHeights[k] + scene.header.heightOffset;
}

/** True if cell (cx, cz) of block b is a hole. */
export function isHole(scene: OccluderScene, b: number, cx: number, cz: number): boolean {
  if (!scene.blockHoleFlag[b]) return false;
  const n = scene.header.blockSamples;
  const bit = cz * (n - 1) + cx;
  const hb = Math.ceil((n - 1) * (n - 1) / 8);
  return ((scene.blockHoles[b * hb + (bit >> 3)] >> (bit & 7)) & 1) === 1;
}

/**
 * Writes the two triangles of terrain cell (cx, cz) of block b into `out` (18 numbers, two
 * triangles of 3 xyz corners). Returns false (and writes nothing) for a hole.
 */
export function terrainCellTriangles(
  scene: OccluderScene,
  b: number,
  cx: number,
  cz: number,
  out: Float64Array,
): boolean {
  if (isHole(scene, b, cx, cz)) return false;
  const n = scene.header.blockSamples;
  const bx = scene.blockOrigin[2 * b], bz = scene.blockOrigin[2 * b + 1];
  const x0 = terrainCoord(scene, scene.header.originX, bx + cx);
  const x1 = terrainCoord(scene, scene.header.originX, bx + cx + 1);
  const z0 = terrainCoord(scene, scene.header.originZ, bz + cz);
  const z1 = terrainCoord(scene, scene.header.originZ, bz + cz + 1);
  const k00 = b * n * n + cz * n + cx;
  const h00 = terrainHeight(scene, k00), h10 = terrainHeight(scene, k00 + 1);
  const h01 = terrainHeight(scene, k00 + n), h11 = terrainHeight(scene, k00 + n + 1);
  // (0,0) (0,1) (1,0) and (1,0) (0,1) (1,1): both wound so (v1−v0)×(v2−v0) points up.
  put3(out, 0, x0, h00, z0);
  put3(out, 3, x0, h01, z1);
  put3(out, 6, x1, h10, z0);
  put3(out, 9, x1, h10, z0);
  put3(out, 12, x0, h01, z1);
  put3(out, 15, x1, h11, z1);
  return true;
}

function put3(out: Float64Array, o: number, x: number, y: number, z: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/**
 * Every world-space triangle of the scene: instances in order (each template triangle in order),
 * then terrain blocks in order (cells z-major, two triangles each, holes skipped). 9 numbers per
 * triangle; vertex order gives the facing (up when (v1−v0)×(v2−v0) has y > 0), mirrored
 * placements included.
 */
export function occluderWorldTriangles(scene: OccluderScene): Float64Array {
  const out: number[] = [];
  forEachOccluderTriangle(scene, (tri) => {
    for (let k = 0; k < 9; k++) out.push(tri[k]);
  });
  return Float64Array.from(out);
}

/** Calls `fn` with each world triangle (a reused 9-number buffer) in {@link occluderWorldTriangles} order. */
export function forEachOccluderTriangle(
  scene: OccluderScene,
  fn: (tri: Float64Array) => void,
): void {
  const local = templateLocalVertices(scene);
  const m = new Float64Array(9 * scene.instanceCount);
  const t = new Float64Array(3 * scene.instanceCount);
  const tri = new Float64Array(9);
  const inv = new Float64Array(9 * scene.instanceCount);
  for (let i = 0; i < scene.instanceCount; i++) {
    instanceTransform(scene, i, m, t);
    // Mirrored placements (det < 0) emit corners 0, 2, 1 so the winding keeps outward faces
    // outward (facing = normal matrix M^−T applied to the template normal) [I].
    const flip = invert3(m, 9 * i, inv) < 0;
    const tp = scene.instTemplate[i];
    const vb = scene.tplVertexStart[tp];
    for (let c = 3 * scene.tplTriStart[tp]; c < 3 * scene.tplTriStart[tp + 1]; c += 3) {
      for (let k = 0; k < 3; k++) {
        const v = 3 * (vb + scene.tplIndices[c + k]);
        const slot = flip && k > 0 ? 3 - k : k;
        placePoint(m, t, i, local[v], local[v + 1], local[v + 2], tri, 3 * slot);
      }
      fn(tri);
    }
  }
  const n = scene.header.blockSamples;
  const two = new Float64Array(18);
  for (let b = 0; b < scene.blockCount; b++) {
    for (let cz = 0; cz < n - 1; cz++) {
      for (let cx = 0; cx < n - 1; cx++) {
        if (!terrainCellTriangles(scene, b, cx, cz, two)) continue;
        tri.set(two.subarray(0, 9));
        fn(tri);
        tri.set(two.subarray(9, 18));
        fn(tri);
      }
    }
  }
}
