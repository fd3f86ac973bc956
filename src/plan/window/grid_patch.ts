/**
 * A small piece of the zone's grid decoded around a point (spec 选类: "只解码两块小格图 … 旁包的
 * 六列不解码,可打通死格表照常读取"): the owned records of the tiles meeting a cell box, kept for
 * the cells inside the box, addressable by global cell, in decode order within each cell.
 * @module
 */

import { applyOpenCells } from "../../pack/bnvf/merge.ts";
import type { ZoneState } from "./zone_state.ts";
import { tilesMeeting } from "./grid_access.ts";
import { PlanTiles } from "./plan_tiles.ts";
import { allocSpanColumns } from "../../pack/grid_types.ts";
import type { CellRect } from "./window_tiers.ts";

/** Records of a cell box (CSR by box cell, row-major). */
export interface GridPatch {
  /** The box, global cells. */
  rect: CellRect;
  /** `start[k] .. start[k+1]` are the records of box cell k = (gy − y0)·nx + (gx − x0). */
  start: Int32Array;
  /** Region id per record. */
  rid: Uint32Array;
  /** Height per record (f32). */
  h: Float32Array;
  /** Flags per record (after FOPN). */
  flags: Uint8Array;
}

/** A box of half-side `r` cells around global cell (cx, cy). */
export function boxAround(cx: number, cy: number, r: number): CellRect {
  return { x0: cx - r, y0: cy - r, nx: 2 * r + 1, ny: 2 * r + 1 };
}

/** The smallest box holding every rect given. */
export function unionRect(rs: readonly CellRect[]): CellRect {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const r of rs) {
    x0 = Math.min(x0, r.x0);
    y0 = Math.min(y0, r.y0);
    x1 = Math.max(x1, r.x0 + r.nx - 1);
    y1 = Math.max(y1, r.y0 + r.ny - 1);
  }
  return { x0, y0, nx: x1 - x0 + 1, ny: y1 - y0 + 1 };
}

/** Decodes the patch of `rect` (FOPN applied to records without Core). */
export function decodePatch(
  zs: ZoneState,
  rect: CellRect,
  tiles: PlanTiles = new PlanTiles(zs),
): GridPatch {
  const z = zs.section.zones[zs.gridZone];
  const n = rect.nx * rect.ny;
  const count = new Int32Array(n + 1);
  type Part = { cell: Int32Array; rid: Uint32Array; h: Float32Array; flags: Uint8Array };
  const parts: Part[] = [];
  for (const t of tilesMeeting(zs.section, zs.gridZone, rect)) {
    const te = z.tiles[t];
    if (te.records === 0) continue;
    const raw = tiles.records(t);
    // Owned cells inside the box, as a tile-local box (inclusive).
    const lx0 = Math.max(te.px0, rect.x0 - te.gx0),
      lx1 = Math.min(te.px1, rect.x0 + rect.nx - 1 - te.gx0);
    const ly0 = Math.max(te.py0, rect.y0 - te.gy0),
      ly1 = Math.min(te.py1, rect.y0 + rect.ny - 1 - te.gy0);
    const keep: number[] = [];
    for (let i = 0; i < raw.n; i++) {
      const c = raw.cell[i], ly = (c / te.nx) | 0, lx = c - ly * te.nx;
      if (lx >= lx0 && lx <= lx1 && ly >= ly0 && ly <= ly1) keep.push(i);
    }
    // FOPN on copies of the kept records only: the plan's raw tile is read again by the window
    // (plan_tiles.ts), and the rule looks at each record alone.
    const sub = allocSpanColumns(keep.length);
    keep.forEach((i, k) => {
      sub.cell[k] = raw.cell[i];
      sub.rid[k] = raw.rid[i];
      sub.h[k] = raw.h[i];
      sub.clr[k] = raw.clr[i];
      sub.flags[k] = raw.flags[i];
      sub.steps[k] = raw.steps[i];
    });
    applyOpenCells(sub, te, zs.sidecar.opens, zs.zoneId);
    const p: Part = { cell: new Int32Array(sub.n), rid: sub.rid, h: sub.h, flags: sub.flags };
    for (let k = 0; k < sub.n; k++) {
      const c = sub.cell[k], ly = (c / te.nx) | 0, lx = c - ly * te.nx;
      p.cell[k] = (te.gy0 + ly - rect.y0) * rect.nx + (te.gx0 + lx - rect.x0);
      count[p.cell[k] + 1]++;
    }
    parts.push(p);
  }
  for (let k = 0; k < n; k++) count[k + 1] += count[k];
  const total = count[n];
  const fill = count.slice(0, n);
  const rid = new Uint32Array(total), h = new Float32Array(total), flags = new Uint8Array(total);
  // A cell belongs to one tile, so its records keep their decode order.
  for (const p of parts) {
    for (let k = 0; k < p.cell.length; k++) {
      const o = fill[p.cell[k]]++;
      rid[o] = p.rid[k];
      h[o] = p.h[k];
      flags[o] = p.flags[k];
    }
  }
  return { rect, start: count, rid, h, flags };
}
