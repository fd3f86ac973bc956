/**
 * Assembles the records of one BGRD tile window (spec 格图段) and its FSPN columns (spec 旁包)
 * from the owned records of the tiles whose squares meet the window. Every record of a cell is
 * the owner's, so apron records repeat the neighbours' exactly. Order: by window cell, then by
 * (zone region id, height) inside a cell (spec 展开: 「记录表里的实际次序是(类号,高)」); the
 * FSPN columns follow the same order record for record.
 * @module
 */

import { allocSpanColumns, type SpanColumns } from "../pack/grid_types.ts";
import type { FieldsTile } from "../pack/bnvf/types.ts";
import { BGRD_APRON_CELLS, BGRD_TILE_CELLS } from "../pack/bgrd/section.ts";
import type { TileBake } from "./bake_tile.ts";
import type { ZoneRegions } from "./assemble_regions.ts";
import { tilesTouchingWindow, type ZoneTiles } from "./tiles.ts";

const T = BGRD_TILE_CELLS;
const A = BGRD_APRON_CELLS;

/** One source square's part of a window: its tile and the window rectangle it covers. */
interface Part {
  o: number;
  dx: number;
  dy: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * The records and sidecar columns of tile `t`'s window. Window rows are walked top to bottom
 * and, inside a row, the owned squares crossing it left to right, so records come out in
 * window-cell order directly; only cells holding several records need sorting by (rid, h).
 */
export function assembleTile(
  zt: ZoneTiles,
  tiles: readonly TileBake[],
  regions: ZoneRegions,
  scc: readonly Int32Array[],
  t: number,
  scratch?: TileScratch,
): { spans: SpanColumns; fields: FieldsTile } {
  const g = zt.tiles[t];
  const parts: Part[] = [];
  let n = 0;
  for (const o of tilesTouchingWindow(zt, t)) {
    // Owned square of o in t's window coordinates (window = owned + dx/dy offset).
    const go = zt.tiles[o], tb = tiles[o];
    const dx = go.gx0 + A - g.gx0, dy = go.gy0 + A - g.gy0;
    const p = {
      o,
      dx,
      dy,
      x0: Math.max(0, -dx),
      x1: Math.min(T, g.nx - dx),
      y0: Math.max(0, -dy),
      y1: Math.min(T, g.ny - dy),
    };
    if (p.x0 >= p.x1 || p.y0 >= p.y1) continue;
    parts.push(p);
    for (let oy = p.y0; oy < p.y1; oy++) {
      n += tb.ownStart[oy * T + p.x1] - tb.ownStart[oy * T + p.x0];
    }
  }
  parts.sort((a, b) => a.dy - b.dy || a.dx - b.dx);
  const { spans, fields } = scratch ? scratch.take(n) : allocColumns(n);
  let j = 0;
  for (let wy = 0; wy < g.ny; wy++) {
    for (const p of parts) {
      const oy = wy - p.dy;
      if (oy < p.y0 || oy >= p.y1) continue;
      const tb = tiles[p.o], gid = regions.gid[p.o], sc = scc[p.o], st = tb.ownStart;
      // The records of a row segment of owned cells are contiguous in the tile (cell order):
      // the plain columns are block-copied, then cell and region are written per record and
      // cells with several records sorted by (rid, h) — the same values at the same places as
      // a record-by-record copy.
      const r0 = st[oy * T + p.x0], r1 = st[oy * T + p.x1], jr = j;
      if (r0 === r1) continue;
      spans.h.set(tb.h.subarray(r0, r1), jr);
      spans.clr.set(tb.clr.subarray(r0, r1), jr);
      spans.flags.set(tb.flags.subarray(r0, r1), jr);
      spans.steps.set(tb.steps.subarray(r0, r1), jr);
      fields.scc.set(sc.subarray(r0, r1), jr);
      fields.seg.set(tb.seg.subarray(r0, r1), jr);
      fields.clr2d.set(tb.clr2d.subarray(r0, r1), jr);
      fields.medial.set(tb.medial.subarray(r0, r1), jr);
      for (let ox = p.x0; ox < p.x1; ox++) {
        const c = oy * T + ox, k0 = st[c], k1 = st[c + 1];
        if (k0 === k1) continue;
        const w = wy * g.nx + ox + p.dx, j0 = j;
        for (let k = k0; k < k1; k++, j++) {
          spans.cell[j] = w;
          spans.rid[j] = gid[tb.rid[k]];
        }
        if (j - j0 > 1) sortCell(spans, fields, j0, j);
      }
    }
  }
  return { spans, fields };
}

function allocColumns(n: number): { spans: SpanColumns; fields: FieldsTile } {
  return {
    spans: allocSpanColumns(n),
    fields: {
      n,
      scc: new Int32Array(n),
      steps2x: new Uint8Array(n),
      seg: new Uint8Array(n),
      tax: new Uint8Array(n),
      clr2d: new Uint16Array(n),
      medial: new Uint8Array(n),
    },
  };
}

/**
 * Reusable columns for {@link assembleTile} when each window is encoded right away: one
 * allocation at the largest window instead of a fresh set of columns per tile (less garbage
 * for the collector, a lower RSS peak). The columns are longer than `n`; the encoders read
 * only the first `n` entries.
 */
export class TileScratch {
  #cap = 0;
  #cols = allocColumns(0);

  /** Columns with room for `n` records; `steps2x` and `tax` are zero. */
  take(n: number): { spans: SpanColumns; fields: FieldsTile } {
    if (n > this.#cap) {
      this.#cap = Math.max(n, Math.ceil(this.#cap * 1.25));
      this.#cols = allocColumns(this.#cap);
    }
    this.#cols.spans.n = n;
    this.#cols.fields.n = n;
    return this.#cols;
  }
}

/** Insertion sort of records [a, b) of one cell by (rid, h), moving every column. */
function sortCell(s: SpanColumns, f: FieldsTile, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    let q = i;
    while (
      q > a && (s.rid[q - 1] > s.rid[q] || (s.rid[q - 1] === s.rid[q] && s.h[q - 1] > s.h[q]))
    ) {
      swap(s.rid, q), swap(s.h, q), swap(s.clr, q), swap(s.flags, q), swap(s.steps, q);
      swap(f.scc, q), swap(f.seg, q), swap(f.clr2d, q), swap(f.medial, q);
      q--;
    }
  }
}

function swap(a: { [i: number]: number }, q: number): void {
  const v = a[q];
  a[q] = a[q - 1];
  a[q - 1] = v;
}
