/**
 * The bake operators chained over one window, in the spec's order (预烘场): Rasterize →
 * AppendSeamBridge → BuildSpans/PackSpans → StampWalls → LabelRegions → flags → Clearance →
 * medial axis → step bans → facade segments → components. Pack writing comes later; this
 * returns flat columns plus a timing per stage (Recast-style context timers).
 * @module
 */

import { SpanFlag } from "../pack/grid_types.ts";
import type { SpanGrid } from "../grid/span_grid.ts";
import { buildSpans } from "./build_spans.ts";
import { clearanceSq } from "./clearance.ts";
import { type RegionComponents, regionComponents } from "./components.ts";
import { facadeSegments } from "./facade.ts";
import { regionFlags } from "./flags.ts";
import { medialAxis } from "./medial.ts";
import { rasterize, type RasterMesh } from "./rasterize.ts";
import { labelRegions } from "./regions.ts";
import type { BakeWindow } from "./samples.ts";
import { appendSeamBridge } from "./seam_bridge.ts";
import { stepBans } from "./step_bans.ts";
import { collectWallEdges, stampWalls, type WallEdges } from "./walls.ts";

/** Everything the window bake produces (spans are the BuildSpans table; Ghost/Fill separate). */
export interface WindowBake {
  /** Span table. */
  grid: SpanGrid;
  /** Region id per span (1-based) and the region count. */
  rid: Uint32Array;
  /** Number of regions. */
  regionCount: number;
  /** Flags per span. */
  flags: Uint8Array;
  /** Step-ban byte per span. */
  steps: Uint8Array;
  /** Facade segment byte per span. */
  seg: Uint8Array;
  /** Per-cell clearance (squared cells) over the obstacle mask = cells not Walk in any region. */
  clr: Uint16Array;
  /** Per-cell medial bit. */
  medial: Uint8Array;
  /** Components and DAGs. */
  components: RegionComponents;
  /** Wall edges used for stamping. */
  walls: WallEdges;
  /** Ghost/Fill records per region: [cell, h, flags, rid] columns. */
  extra: { cell: Int32Array; h: Float32Array; flags: Uint8Array; rid: Uint32Array };
  /** Milliseconds per stage. */
  timings: Record<string, number>;
}

/** Runs the operators over one window. `boundary` holds the per-triangle boundary bits. */
export function bakeWindow(mesh: RasterMesh, boundary: Uint8Array, win: BakeWindow): WindowBake {
  const timings: Record<string, number> = {};
  const time = <T>(name: string, f: () => T): T => {
    const t0 = performance.now();
    const r = f();
    timings[name] = performance.now() - t0;
    return r;
  };
  const samples = time("rasterize", () => rasterize(mesh, win));
  const bridged = time("seamBridge", () => appendSeamBridge(samples, win.nx, win.ny));
  const built = time("buildSpans", () => buildSpans(bridged, win.nx, win.ny));
  const grid = built.grid;
  const walls = time("collectWalls", () => collectWallEdges(mesh, boundary, win));
  const dead = time("stampWalls", () => stampWalls(grid, walls, win));
  const { rid, count } = time("labelRegions", () => labelRegions(grid));
  const flags = new Uint8Array(grid.h.length);
  const ex = {
    cell: [] as number[],
    h: [] as number[],
    flags: [] as number[],
    rid: [] as number[],
  };
  time("flags", () => {
    for (let r = 1; r <= count; r++) {
      const f = regionFlags(grid, rid, r, built.ins, dead, flags);
      for (let i = 0; i < f.addCell.length; i++) {
        ex.cell.push(f.addCell[i]), ex.h.push(f.addH[i]), ex.flags.push(f.addFlags[i]);
        ex.rid.push(r);
      }
    }
  });
  const obstacle = new Uint8Array(win.nx * win.ny).fill(1);
  for (let s = 0; s < grid.h.length; s++) {
    if ((flags[s] & SpanFlag.Walk) !== 0) obstacle[grid.cell[s]] = 0;
  }
  for (let i = 0; i < ex.cell.length; i++) {
    if ((ex.flags[i] & SpanFlag.Walk) !== 0) obstacle[ex.cell[i]] = 0;
  }
  const clr = time("clearance", () => clearanceSq(obstacle, win.nx, win.ny));
  const medial = time("medial", () => medialAxis(obstacle, win.nx, win.ny));
  const steps = time("stepBans", () => stepBans(grid, rid));
  const seg = time("facade", () => facadeSegments(grid, steps));
  const components = time("components", () => regionComponents(grid, rid, count));
  return {
    grid,
    rid,
    regionCount: count,
    flags,
    steps,
    seg,
    clr,
    medial,
    components,
    walls,
    extra: {
      cell: Int32Array.from(ex.cell),
      h: Float32Array.from(ex.h),
      flags: Uint8Array.from(ex.flags),
      rid: Uint32Array.from(ex.rid),
    },
    timings,
  };
}
