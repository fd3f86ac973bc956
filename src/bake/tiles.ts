/**
 * Tile layout of a zone for the baker (spec 数据包 › 格图段): tiles own 512 × 512 cells of the
 * global cell grid and carry a 64-cell apron, so the bake window of a tile is 641 × 641 cells
 * with its origin on a global cell line. The owned rectangles tile the zone's cell box without
 * overlap; `ownerOf` finds the tile that owns a global cell.
 * @module
 */

import { kCS } from "../grid/constants.ts";
import {
  BGRD_APRON_CELLS,
  BGRD_TILE_CELLS,
  type BgrdTileGeometry,
  standardTileLayout,
} from "../pack/bgrd/section.ts";

/** A zone's tiles on the global cell grid. */
export interface ZoneTiles {
  /** First owned global cell (x) of tile column 0. */
  gxMin: number;
  /** First owned global cell (y) of tile row 0. */
  gyMin: number;
  /** Zone width in cells. */
  w: number;
  /** Zone height in cells. */
  h: number;
  /** Tile columns. */
  cols: number;
  /** Tile rows. */
  rows: number;
  /** Tiles in BGRD directory order (row by row). */
  tiles: BgrdTileGeometry[];
}

/**
 * The tiles of a zone whose pixel rectangle is `[x0, x0 + w) × [y0, y0 + h)`: the cell box is
 * `⌊x0 / kCS⌋ .. ⌈(x0 + w) / kCS⌉` (so the origin sits on a global cell line, spec: 窗口原点
 * 对齐全局格线), at least one cell each way.
 */
export function zoneTiles(x0: number, y0: number, wPx: number, hPx: number): ZoneTiles {
  const gxMin = Math.floor(x0 / kCS), gyMin = Math.floor(y0 / kCS);
  const w = Math.max(1, Math.ceil((x0 + wPx) / kCS) - gxMin);
  const h = Math.max(1, Math.ceil((y0 + hPx) / kCS) - gyMin);
  const tiles = standardTileLayout(gxMin, gyMin, w, h);
  return {
    gxMin,
    gyMin,
    w,
    h,
    cols: Math.ceil(w / BGRD_TILE_CELLS),
    rows: Math.ceil(h / BGRD_TILE_CELLS),
    tiles,
  };
}

/** Index of the tile owning global cell (gx, gy), or −1 outside the zone's tiles. */
export function ownerOf(z: ZoneTiles, gx: number, gy: number): number {
  const tx = Math.floor((gx - z.gxMin) / BGRD_TILE_CELLS);
  const ty = Math.floor((gy - z.gyMin) / BGRD_TILE_CELLS);
  if (tx < 0 || ty < 0 || tx >= z.cols || ty >= z.rows) return -1;
  return ty * z.cols + tx;
}

/** Global cell of the first owned cell of tile `t` (window origin + apron). */
export function ownedOrigin(z: ZoneTiles, t: number): [number, number] {
  const g = z.tiles[t];
  return [g.gx0 + BGRD_APRON_CELLS, g.gy0 + BGRD_APRON_CELLS];
}

/**
 * Indices of the tiles whose owned square can intersect tile `t`'s window, ascending: the 3 × 3
 * block around it (the 64-cell apron never reaches past the neighbouring tiles).
 */
export function tilesTouchingWindow(z: ZoneTiles, t: number): number[] {
  const out: number[] = [];
  const tx = t % z.cols, ty = Math.floor(t / z.cols);
  for (let y = ty - 1; y <= ty + 1; y++) {
    for (let x = tx - 1; x <= tx + 1; x++) {
      if (x >= 0 && y >= 0 && x < z.cols && y < z.rows) out.push(y * z.cols + x);
    }
  }
  return out;
}
