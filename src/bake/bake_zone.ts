/**
 * Bakes the grid and the sidecar fields of one zone (spec 预烘场, 格图段, 旁包): the tiles run
 * independently (in workers when a pool is given), then the zone assembly stitches them in
 * tile order — zone-wide region ids, components over the whole region, the FWAL keep table —
 * and lays out each BGRD tile window with its FSPN columns.
 * @module
 */

import type { BgrdTileInput, BgrdZoneInput } from "../pack/bgrd/section.ts";
import { type EncodedGridZone, type EncodedTile, encodeGridTile } from "./assemble_bgrd.ts";
import type { FieldsTile, ZoneFields } from "../pack/bnvf/types.ts";
import { lazyFieldsTiles, type PackedFieldsTile, packFieldsTile } from "./assemble_fields.ts";
import { buildComponentGraphs, buildWallTable } from "../pack/bnvf/sidecar.ts";
import {
  bakeTile,
  type SpanCache,
  spanCacheOf,
  TILE_STAGES,
  type TileBake,
  type TileRegions,
  tileRegions,
  type ZoneMesh,
} from "./bake_tile.ts";
import { labelRegionsOf, type ZoneRegions, zoneRegions, zoneWallRows } from "./assemble_regions.ts";

/** Stage names of pass 1's timings. */
const REGION_STAGES = ["select", "rasterize", "seamBridge", "buildSpans", "regions"] as const;
import { zoneComponents } from "./assemble_scc.ts";
import { assembleTile, TileScratch } from "./assemble_tiles.ts";
import { tilesTouchingWindow, type ZoneTiles, zoneTiles } from "./tiles.ts";

/**
 * Runs the two passes of the tile stage for lists of tiles (results in the order of `tiles`):
 * `regions` (pass 1), then `bake` with each tile's window-local → zone region map; `done` when
 * the zone's tile stage is over.
 */
export interface TileRunner {
  /** Pass 1 (results carry each window's span cache, see `spanCacheOf`). */
  regions(
    mesh: ZoneMesh,
    zt: ZoneTiles,
    tiles: number[],
    onTile?: TileDoneFn,
  ): Promise<TileRegions[]>;
  /**
   * Pass 2; `gid[t]` is tile t's region map, `caches[t]` its pass 1 spans (or null). The
   * runner may take over (transfer) and drop the caches.
   */
  bake(
    mesh: ZoneMesh,
    zt: ZoneTiles,
    tiles: number[],
    gid: Uint32Array[],
    caches: (SpanCache | null)[],
    onTile?: TileDoneFn,
  ): Promise<TileBake[]>;
  /** The zone's tile stage is over. */
  done(): void;
}

/** Called by a runner each time one tile of a pass is done (`records`: pass 2 only, else 0). */
export type TileDoneFn = (records: number) => void;

/** Progress of a zone bake: stage, tiles done of the stage, records baked so far. */
export interface ZoneProgress {
  /** `pass1` (spans, window regions), `pass2` (every field), `assemble` (encode tiles). */
  stage: "pass1" | "pass2" | "assemble";
  /** Tiles done in this stage. */
  done: number;
  /** Tiles of the zone. */
  total: number;
  /** Records baked so far (pass 2 onwards). */
  records: number;
}

/** The in-process runner (one thread). */
export const serialRunner: TileRunner = {
  regions: (mesh, zt, tiles, onTile) => {
    const out: TileRegions[] = [];
    for (const t of tiles) {
      out.push(tileRegions(mesh, zt.tiles[t], t, true));
      onTile?.(0);
    }
    return Promise.resolve(out);
  },
  bake: (mesh, zt, tiles, gid, caches, onTile) => {
    const out: TileBake[] = [];
    for (const t of tiles) {
      const cache = caches[t];
      caches[t] = null; // dropped once used: the live set shrinks as results grow
      const tb = bakeTile(mesh, zt.tiles[t], t, gid[t], cache);
      out.push(tb);
      onTile?.(tb.n);
    }
    return Promise.resolve(out);
  },
  done: () => {},
};

/** What a zone bake produces. */
export interface ZoneBake {
  /** Tile layout. */
  layout: ZoneTiles;
  /**
   * The tile stage results (kept for FLNK landings and tests). Unless `keepGrid`, only `n`,
   * `ownStart`, `rid`, `h`, `clr` and `flags` survive the window assembly.
   */
  tiles: TileBake[];
  /** Zone region numbering. */
  regions: ZoneRegions;
  /** BGRD zone, tiles already encoded. */
  encoded: EncodedGridZone;
  /** BGRD zone with decoded columns (only with `keepGrid`, for tests and tools). */
  grid: BgrdZoneInput | null;
  /** Sidecar zone. */
  fields: ZoneFields;
  /** Counts for the report. */
  stats: ZoneBakeStats;
}

/** Counts and times of a zone bake. */
export interface ZoneBakeStats {
  /** Tiles. */
  tiles: number;
  /** Owned records (each cell's records counted once). */
  records: number;
  /** Records written to BGRD (apron duplicates included). */
  tileRecords: number;
  /** Spans (records minus Ghost/Fill). */
  spans: number;
  /** Zone regions. */
  regions: number;
  /** Components over all regions. */
  components: number;
  /** Boundary edges in FWAL. */
  walls: number;
  /** Graph edges whose far end matched no span. */
  unmatchedEdges: number;
  /** Milliseconds per stage: the tile stages summed over tiles (CPU), then the assembly
   * (`assembleTiles` includes encoding each BGRD tile). */
  times: Record<string, number>;
}

/** Bakes one zone whose pixel rectangle is `rect` (x0, y0, w, h). */
export async function bakeZone(
  name: string,
  mesh: ZoneMesh,
  rect: readonly [number, number, number, number],
  runner: TileRunner = serialRunner,
  keepGrid = false,
  onProgress?: (p: ZoneProgress) => void,
): Promise<ZoneBake> {
  const layout = zoneTiles(rect[0], rect[1], rect[2], rect[3]);
  const total = layout.tiles.length;
  let done = 0, baked = 0;
  const step = (stage: ZoneProgress["stage"]) => (records: number) => {
    baked += records;
    onProgress?.({ stage, done: ++done, total, records: baked });
  };
  const times: Record<string, number> = {};
  const t0 = performance.now();
  const all = layout.tiles.map((_, i) => i);
  let tiles: TileBake[];
  let regions: ZoneRegions;
  try {
    // Pass 1: spans and window-local regions; the zone unites them across the seams.
    const pass1 = await runner.regions(mesh, layout, all, onProgress && step("pass1"));
    times.pass1Wall = performance.now() - t0;
    for (const s of REGION_STAGES) times[`pass1.${s}`] = 0;
    for (const tr of pass1) {
      REGION_STAGES.forEach((s, i) => (times[`pass1.${s}`] += tr.timings[i]));
    }
    const t1 = performance.now();
    const zr = zoneRegions(layout, pass1);
    times.zoneRegions = performance.now() - t1;
    const caches = pass1.map(spanCacheOf);
    pass1.length = 0; // release pass 1 (but the span caches) before pass 2 allocates
    // Pass 2: every field, with window regions merged as the zone has them.
    const t2 = performance.now();
    done = 0;
    tiles = await runner.bake(mesh, layout, all, zr.gid, caches, onProgress && step("pass2"));
    times.tileWall = performance.now() - t2;
    regions = labelRegionsOf(tiles, zr.count);
  } finally {
    runner.done();
  }
  for (const s of TILE_STAGES) times[s] = 0;
  for (const tb of tiles) TILE_STAGES.forEach((s, i) => (times[s] += tb.timings[i]));
  let t1 = performance.now();
  const comps = zoneComponents(layout, tiles, regions);
  times.zoneComponents = performance.now() - t1;
  t1 = performance.now();
  const wallRows = zoneWallRows(tiles, regions);
  times.zoneWalls = performance.now() - t1;
  t1 = performance.now();
  const gridTiles: BgrdTileInput[] = [];
  const encodedTiles: EncodedTile[] = [];
  const fieldTiles: FieldsTile[] = [];
  const packedFields: PackedFieldsTile[] = [];
  let records = 0, spans = 0, components = 0;
  for (const tb of tiles) {
    records += tb.n;
    for (let k = 0; k < tb.n; k++) spans += tb.extra[k] === 0 ? 1 : 0;
  }
  const scratch = keepGrid ? undefined : new TileScratch();
  // The last window reading each tile's owned square (its highest neighbour): after it, the
  // columns only the windows read are released, so the live set shrinks while the encoders
  // allocate (a lower RSS peak; FLNK landings later read ownStart, rid, h, clr and flags only).
  const lastReader = layout.tiles.map((_, o) => Math.max(...tilesTouchingWindow(layout, o)));
  let tileRecords = 0;
  for (let t = 0; t < layout.tiles.length; t++) {
    // Assemble and encode one window at a time: its columns are garbage right after.
    const { spans, fields } = assembleTile(layout, tiles, regions, comps.scc, t, scratch);
    encodedTiles.push(encodeGridTile(name, t, layout.tiles[t], spans));
    if (keepGrid) gridTiles.push({ ...layout.tiles[t], spans });
    if (keepGrid) fieldTiles.push(fields);
    else packedFields.push(packFieldsTile(fields));
    tileRecords += spans.n;
    onProgress?.({ stage: "assemble", done: t + 1, total, records: baked });
    await yieldToLoop();
    if (keepGrid) continue;
    for (const o of tilesTouchingWindow(layout, t)) {
      if (lastReader[o] === t) releaseAssembled(tiles[o], comps.scc, o);
    }
  }
  times.assembleTiles = performance.now() - t1;
  const graphs = buildComponentGraphs(
    Array.from({ length: regions.count }, (_, i) => {
      components += comps.nScc[i];
      return { rid: i + 1, nScc: comps.nScc[i], edges: comps.dag[i] };
    }),
  );
  return {
    layout,
    tiles,
    regions,
    encoded: {
      name,
      x0: rect[0],
      y0: rect[1],
      globalRegions: regions.count,
      tiles: encodedTiles,
    },
    grid: keepGrid
      ? { name, x0: rect[0], y0: rect[1], globalRegions: regions.count, tiles: gridTiles }
      : null,
    fields: {
      name,
      regions: regions.count,
      tiles: keepGrid ? fieldTiles : lazyFieldsTiles(packedFields, name),
      graphs,
      walls: buildWallTable(wallRows),
    },
    stats: {
      tiles: layout.tiles.length,
      records,
      tileRecords,
      spans,
      regions: regions.count,
      components,
      walls: wallRows.length,
      unmatchedEdges: comps.unmatched,
      times,
    },
  };
}

/**
 * Drops the columns of a tile result that only window assembly reads (steps, seg, medial,
 * clr2d, extra, components); `n`, `ownStart`, `rid`, `h`, `clr` and `flags` stay.
 */
function releaseAssembled(tb: TileBake, scc: Int32Array[], o: number): void {
  tb.steps =
    tb.seg =
    tb.medial =
    tb.extra =
      new Uint8Array(0);
  tb.clr2d = new Uint16Array(0);
  tb.comp = scc[o] = new Int32Array(0);
}

/**
 * One timer turn of the event loop (a few ms, the clamp of nested timers included). The BGRD
 * and FSPN encoders allocate and drop many typed arrays per window; V8 frees their memory on
 * background threads and in tasks of the embedder's loop, which a long synchronous loop starves,
 * so garbage piles up faster than it is returned. One turn per window (49 on the 10.9 M-record
 * synthetic world: ≈ 0.2 s) lowered the measured peak RSS of the assembly by ≈ 60–80 MB; a
 * zero-delay MessageChannel turn did not (the pause matters, not the task).
 */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
