/**
 * Occluder meshes of the manifest → one OCLS scene per zone (spec 数据包 › OccluderPack). Each
 * imported occluder mesh becomes one template placed once at the origin with the identity
 * rotation; its vertices are in world metres, y up: `x = sx·u + tx`, `y = h`, `z = sy·v + ty`
 * with the zone's pixel → world affine (the frame `dropBlocked` is queried in).
 * @module
 */

import { OccluderSceneBuilder } from "../pack/ocls/build.ts";
import type { OccluderScene } from "../pack/ocls/types.ts";

/** Template quantisation exponent: coordinates are integers · 2^−10 m (≈ 1 mm) [I]. */
export const OCCLUDER_EXPONENT = -10;

/** An occluder mesh in zone pixels (u, v px; h m) with its triangles. */
export interface OccluderMeshInput {
  /** u, v, h per vertex. */
  vertices: Float32Array;
  /** Triangles, 3 vertex ids each. */
  triangles: Uint32Array;
}

/** Pixel → world affine of a zone. */
export interface WorldAffine {
  /** x scale. */
  sx: number;
  /** x offset. */
  tx: number;
  /** y (→ world z) scale. */
  sy: number;
  /** y (→ world z) offset. */
  ty: number;
}

/** The zone's scene, or null when it has no occluder triangles. */
export function occluderScene(
  zone: string,
  meshes: readonly OccluderMeshInput[],
  affine: WorldAffine,
): OccluderScene | null {
  const b = new OccluderSceneBuilder(zone);
  let any = false;
  for (const m of meshes) {
    if (m.triangles.length === 0) continue;
    const nv = m.vertices.length / 3;
    const w = new Float64Array(3 * nv);
    for (let i = 0; i < nv; i++) {
      w[3 * i] = affine.sx * m.vertices[3 * i] + affine.tx;
      w[3 * i + 1] = m.vertices[3 * i + 2];
      w[3 * i + 2] = affine.sy * m.vertices[3 * i + 1] + affine.ty;
    }
    const t = b.addTemplate(w, m.triangles, OCCLUDER_EXPONENT);
    b.addInstance(t, [0, 0, 0]);
    any = true;
  }
  return any ? b.build() : null;
}
