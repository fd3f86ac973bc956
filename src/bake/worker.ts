/**
 * Worker entry of the parallel bake: holds one zone mesh and runs either pass of the tile stage
 * for the tiles it is sent (spec 预烘场: tiles are independent). Messages:
 * - `{ type: "zone", mesh, tiles }` — the zone mesh and tile geometries (copied once per zone);
 * - `{ type: "regions", job, tile }` → pass 1 (`tileRegions`);
 * - `{ type: "tile", job, tile, gid, cache }` → pass 2 (`bakeTile` with the zone region map
 *   and pass 1's spans of the window, transferred);
 * answered by `{ type: "done", job, result }` (buffers transferred) or `{ type: "error", job,
 * error }` with a NavscopeError's code, what, where and expected.
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />

import { NavscopeError } from "../errors.ts";
import type { BgrdTileGeometry } from "../pack/bgrd/section.ts";
import { bakeTile, tileBuffers, tileRegions, type ZoneMesh } from "./bake_tile.ts";

let mesh: ZoneMesh | null = null;
let geometry: BgrdTileGeometry[] = [];

self.onmessage = (e: MessageEvent) => {
  const m = e.data;
  if (m.type === "zone") {
    mesh = m.mesh;
    geometry = m.tiles;
    return;
  }
  try {
    if (mesh === null) throw new Error("tile job before zone");
    const r = m.type === "regions"
      ? tileRegions(mesh, geometry[m.tile], m.tile, true)
      : bakeTile(mesh, geometry[m.tile], m.tile, m.gid, m.cache ?? null);
    self.postMessage({ type: "done", job: m.job, result: r }, tileBuffers(r));
  } catch (err) {
    const error = err instanceof NavscopeError
      ? { code: err.code, what: err.what, where: err.where, expected: err.expected }
      : {
        code: "bad_value",
        what: `worker failed: ${String((err as Error)?.stack ?? err)}`,
        where: {},
      };
    self.postMessage({ type: "error", job: m.job, error });
  }
};
