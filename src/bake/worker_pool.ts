/**
 * A pool of bake workers (Deno Web Workers running `worker.ts`) used as a {@link TileRunner}:
 * tiles are handed out dynamically to whichever worker is free, and results are stored by tile
 * index, so the merged output does not depend on the number of workers or on timing.
 * @module
 */

import { type ErrorCode, NavscopeError } from "../errors.ts";
import type { TileBake, TileRegions, ZoneMesh } from "./bake_tile.ts";
import type { TileRunner } from "./bake_zone.ts";
import type { ZoneTiles } from "./tiles.ts";

/**
 * `n` workers per zone: they are started for a zone's first pass, replaced by fresh ones for the
 * second in large zones, and terminated when the zone's tile stage ends (`done`), so their heaps
 * (the zone mesh copy, the last window's scratch) are gone before the zone assembly and the pack
 * encoders need the memory. Call {@link BakeWorkerPool.close} when done (it also stops the
 * workers of a failed stage).
 */
export class BakeWorkerPool {
  readonly #workers: Worker[] = [];
  readonly #n: number;

  /** A pool of `n` workers (n ≥ 1). */
  constructor(n: number) {
    this.#n = Math.max(1, n);
  }

  /** Number of workers per zone. */
  get size(): number {
    return this.#n;
  }

  /** The pool as a tile runner. */
  readonly runner: TileRunner = {
    regions: (mesh, zt, tiles, onTile) =>
      this.#stage(
        mesh,
        zt,
        tiles,
        (tile) => ({ msg: { type: "regions", tile }, transfer: [] }),
        onTile && (() => onTile(0)),
      ).then((r) => {
        // Fresh workers for pass 2 of a large zone: V8 and the allocator keep what pass 1's
        // windows used, and pass 2 peaks with every tile result held here (−80 MB on the
        // synthetic 49-tile world). Small zones skip it (a restart costs ≈ 0.3 s of module start
        // and cold code). A worker's results never depend on which worker ran a tile.
        if (tiles.length >= RESTART_MIN_TILES) this.close();
        return r;
      }) as Promise<
        TileRegions[]
      >,
    bake: (mesh, zt, tiles, gid, caches, onTile) =>
      this.#stage(mesh, zt, tiles, (tile) => {
        // The window's pass 1 spans move to the worker (transferred, not copied).
        const cache = caches[tile];
        caches[tile] = null;
        const transfer = cache
          ? [
            ...new Set(
              [cache.count, cache.h, cache.ins, cache.face, cache.rid].map((a) => a.buffer),
            ),
          ]
          : [];
        return { msg: { type: "tile", tile, gid: gid[tile], cache }, transfer };
      }, onTile && ((r) => onTile((r as TileBake).n))) as Promise<TileBake[]>,
    done: () => this.close(),
  };

  #start(mesh: ZoneMesh, zt: ZoneTiles, jobs: number): void {
    if (this.#workers.length > 0) return;
    const n = Math.min(this.#n, Math.max(1, jobs));
    for (let i = 0; i < n; i++) {
      const w = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
      w.postMessage({ type: "zone", mesh, tiles: zt.tiles });
      this.#workers.push(w);
    }
  }

  #stage(
    mesh: ZoneMesh,
    zt: ZoneTiles,
    tiles: number[],
    message: (tile: number) => { msg: Record<string, unknown>; transfer: ArrayBufferLike[] },
    onResult?: (result: unknown) => void,
  ): Promise<unknown[]> {
    this.#start(mesh, zt, tiles.length);
    const out: unknown[] = new Array(tiles.length);
    let next = 0, done = 0, failed = false;
    return new Promise((resolve, reject) => {
      if (tiles.length === 0) return resolve(out);
      const fail = (e: NavscopeError) => {
        failed = true;
        this.close();
        reject(e);
      };
      const feed = (w: Worker) => {
        if (failed || next >= tiles.length) return;
        const job = next++;
        const { msg, transfer } = message(tiles[job]);
        w.postMessage({ ...msg, job }, transfer as ArrayBuffer[]);
      };
      for (const w of this.#workers) {
        w.onmessage = (e: MessageEvent) => {
          const m = e.data;
          if (failed) return;
          if (m.type === "error") {
            const er = m.error;
            return fail(new NavscopeError(er.code as ErrorCode, er.what, er.where, er.expected));
          }
          out[m.job] = m.result;
          onResult?.(m.result);
          if (++done === tiles.length) resolve(out);
          else feed(w);
        };
        w.onerror = (e: ErrorEvent) => {
          e.preventDefault();
          if (!failed) {
            fail(new NavscopeError("bad_value", `bake worker crashed: ${e.message}`, {}));
          }
        };
        feed(w);
      }
    });
  }

  /** Terminates every worker. */
  close(): void {
    for (const w of this.#workers) w.terminate();
    this.#workers.length = 0;
  }
}

/** Zones with at least this many tiles get fresh workers for pass 2 (see `runner.regions`). */
const RESTART_MIN_TILES = 16;
