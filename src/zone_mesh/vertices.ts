/**
 * Per-triangle preparation of zone cleaning (spec 网格清洗 › 可走标记与顶点): walkable marks from
 * surface flags, the old-pack vertex weld, and CCW orientation. Triangles never move: the
 * planner indexes the zone mesh by `global triangle − lo`, so unwalkable triangles stay in place
 * and are only marked.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { K_WELD_DH_M, K_WELD_GRID_PX, WALKABLE_MASK } from "./constants.ts";
import { cross2 } from "./geom.ts";

/**
 * Walkable marks: 1 where `flags & mask` is non-zero (BSRF). Without surface flags every triangle
 * is walkable ("包里没有 BSRF 时全部可走").
 */
export function walkableMarks(
  triCount: number,
  surfaceFlags?: Uint32Array,
  mask = WALKABLE_MASK,
): Uint8Array {
  const out = new Uint8Array(triCount);
  if (!surfaceFlags) return out.fill(1);
  for (let t = 0; t < triCount; t++) out[t] = (surfaceFlags[t] & mask) !== 0 ? 1 : 0;
  return out;
}

/**
 * Makes every triangle counter-clockwise in place: vertices 1 and 2 are swapped when
 * `(B−A)×(C−A) < 0` (formulas.md #24). Flat-in-plan triangles (cross = 0) are left alone.
 * Returns the number of triangles flipped.
 */
export function orientCcw(vertices: Float32Array, tris: Uint32Array): number {
  let flipped = 0;
  for (let t = 0; t < tris.length; t += 3) {
    const a = 3 * tris[t], b = 3 * tris[t + 1], c = 3 * tris[t + 2];
    const cr = cross2(
      vertices[a],
      vertices[a + 1],
      vertices[b],
      vertices[b + 1],
      vertices[c],
      vertices[c + 1],
    );
    if (cr < 0) {
      const tmp = tris[t + 1];
      tris[t + 1] = tris[t + 2];
      tris[t + 2] = tmp;
      flipped++;
    }
  }
  return flipped;
}

/**
 * Checks that every vertex index is in range and every vertex a triangle uses is finite, and
 * that no triangle repeats a vertex. Errors name the zone, the zone-local triangle and the
 * vertex; `what` tells a welded degenerate apart from one that came with the input.
 */
export function validateZoneGeometry(
  vertices: Float32Array,
  tris: Uint32Array,
  zone: string | number,
  file?: string,
): void {
  const nv = Math.floor(vertices.length / 3);
  for (let t = 0; t < tris.length / 3; t++) {
    const a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
    for (let k = 0; k < 3; k++) {
      const v = tris[3 * t + k];
      if (v >= nv) {
        throw new NavscopeError(
          "offset_out_of_range",
          `triangle ${t} uses vertex ${v}, but there are only ${nv} vertices`,
          { zone, file, section: "zone mesh" },
          `vertex index < ${nv}`,
        );
      }
      const x = vertices[3 * v], y = vertices[3 * v + 1], h = vertices[3 * v + 2];
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(h)) {
        throw new NavscopeError(
          "bad_value",
          `triangle ${t} uses vertex ${v} = (${x}, ${y}, ${h}), which is not finite`,
          { zone, file, section: "zone mesh" },
          "finite coordinates",
        );
      }
    }
    if (a === b || b === c || a === c) {
      throw new NavscopeError(
        "bad_value",
        `triangle ${t} is degenerate: vertices (${a}, ${b}, ${c}) repeat an index`,
        { zone, file, section: "zone mesh" },
        "three distinct vertices",
      );
    }
  }
}

/**
 * Old-pack weld: coordinates rounded to 0.05 px; vertices on the same rounded (x, y) are sorted
 * by height and chained — a vertex within 3 m of the previous one joins the current
 * representative (heights 0, 2.5, 5 all join 0). Rewrites `tris` in place to the representative
 * (the lowest vertex of its chain, ties by index) and returns the number of indices changed.
 * A triangle that becomes degenerate is a zone error ("焊出退化三角时整区报错").
 */
export function weldOldPack(
  vertices: Float32Array,
  tris: Uint32Array,
  zone: string | number,
): number {
  const sortedIdx = tris.slice().sort();
  let nu = 0;
  for (let i = 0; i < sortedIdx.length; i++) {
    if (i === 0 || sortedIdx[i] !== sortedIdx[i - 1]) sortedIdx[nu++] = sortedIdx[i];
  }
  const used = sortedIdx.subarray(0, nu);
  // Rounded to the 0.05 px grid with Math.round; the reference's tie rule for exact
  // half-steps is not recorded [I] (a float32 coordinate is almost never one).
  const rx = new Float64Array(nu), ry = new Float64Array(nu), hh = new Float64Array(nu);
  for (let i = 0; i < nu; i++) {
    const v = used[i];
    rx[i] = Math.round(vertices[3 * v] / K_WELD_GRID_PX);
    ry[i] = Math.round(vertices[3 * v + 1] / K_WELD_GRID_PX);
    hh[i] = vertices[3 * v + 2];
  }
  const order = new Uint32Array(nu);
  for (let i = 0; i < nu; i++) order[i] = i;
  order.sort((a, b) => rx[a] - rx[b] || ry[a] - ry[b] || hh[a] - hh[b] || used[a] - used[b]);
  // rep[v - vmin] = representative vertex of v (chains: compare with the previous vertex).
  const vmin = nu > 0 ? used[0] : 0;
  const rep = new Uint32Array(nu > 0 ? used[nu - 1] - vmin + 1 : 0);
  for (let k = 0; k < nu; k++) {
    const i = order[k], p = k > 0 ? order[k - 1] : -1;
    const same = p >= 0 && rx[p] === rx[i] && ry[p] === ry[i] && hh[i] - hh[p] <= K_WELD_DH_M;
    rep[used[i] - vmin] = same ? rep[used[p] - vmin] : used[i];
  }
  let changed = 0;
  for (let s = 0; s < tris.length; s++) {
    const r = rep[tris[s] - vmin];
    if (r !== tris[s]) {
      tris[s] = r;
      changed++;
    }
  }
  for (let t = 0; t < tris.length / 3; t++) {
    const a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
    if (a === b || b === c || a === c) {
      throw new NavscopeError(
        "bad_value",
        `welding made triangle ${t} degenerate (vertices ${a}, ${b}, ${c})`,
        { zone, section: "zone mesh weld" },
        "no triangle collapses when vertices within 0.05 px and 3 m are welded",
      );
    }
  }
  return changed;
}
