/**
 * The built window's data (spec 建窗): raster layers, span table, reach domain, links and
 * blockers. Its own module so the stages that read a window (reach domain, searches, sight
 * checks, the picture) need not import buildWindow itself.
 * @module
 */
import type { SpanGrid } from "../../grid/span_grid.ts";

/** Directed off-mesh links of a window (span level; cell level via the spans' cells). */
export interface WindowLinks {
  /** Number of directed links. */
  n: number;
  /** Source span. */
  fromSpan: Int32Array;
  /** Target span. */
  toSpan: Int32Array;
  /** Cost `f32(max(c,1)) ⊗ f32(hypot(Δx, Δy))`, cells. */
  cost: Float64Array;
}

/** A built window: raster layers, span table, reach domain, links and blockers. */
export interface WindowGrid {
  /** Window origin, global cells. */
  x0: number;
  /** Window origin y, global cells. */
  y0: number;
  /** Columns. */
  nx: number;
  /** Rows. */
  ny: number;
  /** Region searched. */
  region: number;
  /** lay: a record of the region with Walk or without Core. */
  lay: Uint8Array;
  /** core: a record of the region with Core. */
  core: Uint8Array;
  /** Clearance per cell (px, f32), 0 inside no-go. */
  dist: Float32Array;
  /** Medial-axis mark per cell. */
  medial: Uint8Array;
  /** Final step-ban bits per cell (2 per STEP_DIRS direction). */
  steps: Uint8Array;
  /** The span table (every kept span of every region; face bits marked). */
  spans: SpanGrid;
  /** 1 = the span belongs to the region (vis3). */
  vis3: Uint8Array;
  /** Component id per span (own-region spans; 0 for others). */
  scc: Int32Array;
  /** Flags per span. */
  sflags: Uint8Array;
  /** 1 = the span is in the reach domain. */
  reach: Uint8Array;
  /** Seed span index. */
  seedSpan: number;
  /** Off-mesh links with both ends landed in the window. */
  links: WindowLinks;
  /** Links of the region (both FLNK ends in it) that found no landing span. */
  unlandableLinks: number;
  /** Blocker segments, px: `ax, ay, bx, by` per segment (kept walls, then facades). */
  blockers: Float64Array;
  /** Kept wall segments among the blockers (the first `keptWalls`). */
  keptWalls: number;
  /** Records decoded (owned, inside the window). */
  records: number;
  /** Tiles decoded. */
  tiles: number;
}
