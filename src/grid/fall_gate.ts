/**
 * FallGate (spec 台沿下落): wraps the occluder pack's `dropBlocked` into the {@link FallGate}
 * callback RiseOk calls for drops deeper than kClimb. The occluder pack and the mesh projection
 * are injected, so this layer stays below mesh/world.
 * @module
 */

import { kCS } from "./constants.ts";
import type { FallGate } from "./rise_ok.ts";

/** Character parameters passed to dropBlocked (spec 台沿下落 step 5): metres. */
export const kDropClimb = 0.39;
/** Character height passed to dropBlocked, metres. */
export const kDropHeight = 2.1;

/**
 * The occluder query: is the L-shaped drop from take-off (ax, ay, az) to landing (bx, by, bz)
 * blocked? World coordinates; y is up (the article passes the span height as world y).
 */
export type DropBlocked = (
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  climb: number,
  height: number,
) => boolean;

/** Window placement and the two injected mappings a FallGate needs. */
export interface FallGateSetup {
  /** Window width in cells (cell index = y·nx + x). */
  nx: number;
  /** Window origin, px (spec 约定: cell centre = x0 + (x + 0.5)·kCS). */
  x0: number;
  /** Window origin, px. */
  y0: number;
  /** Window origin as global cell (cache keys are global, shared across tiers). */
  gx0: number;
  /** Window origin as global cell. */
  gy0: number;
  /** Plane px → world (x, z); null makes {@link makeFallGate} return null (spec step 1). */
  toWorld: ((px: number, py: number) => [number, number]) | null;
  /**
   * Optional projection of a cell centre onto the zone mesh (spec step 3): returns (px, py, h)
   * or null, in which case the cell centre and span height are used.
   */
  project?: (px: number, py: number, h: number) => [number, number, number] | null;
  /** Shared verdict cache (spec step 2: shared by the tiers of one plan). */
  cache?: Map<string, boolean>;
}

/**
 * Builds the FallGate for a window (spec 台沿下落 steps 1–5). Returns null when the zone has
 * no colliders (`dropBlocked` null) or no usable plane→world transform; RiseOk then skips it.
 */
export function makeFallGate(
  dropBlocked: DropBlocked | null,
  setup: FallGateSetup,
): FallGate | null {
  if (dropBlocked === null || setup.toWorld === null) return null;
  const toWorld = setup.toWorld;
  const cache = setup.cache ?? new Map<string, boolean>();
  const { nx, x0, y0, gx0, gy0 } = setup;
  const f32 = new Float32Array(2);
  const u32 = new Uint32Array(f32.buffer);
  const point = (cell: number, h: number): [number, number, number] => {
    const x = cell % nx, y = (cell - x) / nx;
    const px = x0 + (x + 0.5) * kCS, py = y0 + (y + 0.5) * kCS;
    const p = setup.project?.(px, py, h) ?? null;
    const [qx, qy, qh] = p ?? [px, py, h];
    const [wx, wz] = toWorld(qx, qy);
    return [wx, qh, wz];
  };
  return (fromCell, toCell, h0, h1) => {
    const fx = fromCell % nx, tx = toCell % nx;
    f32[0] = h0;
    f32[1] = h1;
    const key = `${gx0 + fx},${gy0 + (fromCell - fx) / nx},${gx0 + tx},${
      gy0 + (toCell - tx) / nx
    },${u32[0]},${u32[1]}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const a = point(fromCell, h0), b = point(toCell, h1);
    const blocked = dropBlocked(a[0], a[1], a[2], b[0], b[1], b[2], kDropClimb, kDropHeight);
    cache.set(key, blocked);
    return blocked;
  };
}
