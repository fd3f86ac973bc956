/**
 * Block type 1, "river": a south lot joined to the street, a river (water surface, not
 * walkable) with sloping banks, a narrow footbridge that is the only way to the north lot (the
 * place where runtime no-go discs can close the only passage), and an author no-go rectangle
 * on the base map. Block-local px.
 * @module
 */
import { ramp } from "./gen_mesh.ts";
import type { GenContext } from "./gen_context.ts";

/** Water level, m. */
export const WATER_H = -1;

/** Builds a river block at the context's origin. */
export function buildRiver(c: GenContext): void {
  const bx = 124 + Math.floor(c.rng() * 3); // footbridge x, seed-dependent
  c.area({ layer: 0, x0: 120, y0: 6, x1: 126, y1: 60, h: 0, group: "lane" });
  c.area({ layer: 0, x0: 100, y0: 60, x1: 150, y1: 96, h: 0, group: "lot" });
  c.area({
    layer: 0,
    x0: 60,
    y0: 96,
    x1: 200,
    y1: 100,
    h: ramp("y", 96, 100, 0, WATER_H),
    group: "bank",
  });
  c.area({ layer: 0, x0: 60, y0: 100, x1: 200, y1: 130, h: WATER_H, group: "water" });
  c.area({
    layer: 0,
    x0: 60,
    y0: 130,
    x1: 200,
    y1: 134,
    h: ramp("y", 130, 134, WATER_H, 0),
    group: "bank",
  });
  c.area({ layer: 0, x0: 100, y0: 134, x1: 150, y1: 170, h: 0, group: "lot" });
  // Footbridge 1.5 px wide: short ramps on the bank tops (layer 0), deck at 0.3 m (layer 1).
  const w = 1.5, hd = 0.3;
  c.area({
    layer: 0,
    x0: bx,
    y0: 96,
    x1: bx + w,
    y1: 97,
    h: ramp("y", 96, 97, 0, hd),
    group: "footbridge",
  });
  c.area({ layer: 1, x0: bx, y0: 97, x1: bx + w, y1: 133, h: hd, group: "footbridge" });
  c.area({
    layer: 0,
    x0: bx,
    y0: 133,
    x1: bx + w,
    y1: 134,
    h: ramp("y", 133, 134, hd, 0),
    group: "footbridge",
  });
  const cx = bx + w / 2;
  c.mark({
    name: "footbridge",
    kind: "footbridge",
    at: [cx, 115, hd],
    rect: [bx, 96, bx + w, 134],
    points: { south: [cx, 85, 0], north: [cx, 150, 0], disc: [cx, 115, hd] },
    note: "1.5 px footbridge over water: the only way between the south and north lots",
  });
  c.mark({
    name: "river",
    kind: "water",
    at: [90, 115, WATER_H],
    rect: [60, 100, 200, 130],
    note: "water surface (surface flag 0x2, outside the walkable whitelist)",
  });
  c.mark({
    name: "river_bank",
    kind: "bank",
    at: [110, 98, WATER_H / 2],
    rect: [60, 96, 200, 100],
    points: { top: [110, 90, 0], edge: [110, 99.5, WATER_H * 0.875] },
    note: "walkable bank sloping from the lot down to the water edge",
  });
  c.mark({
    name: "north_lot",
    kind: "lot",
    at: [125, 160, 0],
    rect: [100, 134, 150, 170],
    note: "reachable only over the footbridge",
  });
  c.noGoRect("base_nogo", 135, 65, 145, 75);
  c.mark({
    name: "nogo_base",
    kind: "author_no_go",
    at: [140, 70, 0],
    rect: [135, 65, 145, 75],
    note: "author no-go rectangle on the base map (every layer)",
  });
}
