/**
 * Block type 0, "town": a plaza, a kerb and an arcade along the street, bumps and a dip on the
 * west street, five ramps from 30° to 75° up to terraces, and a three-floor building with a
 * 0.5-m-riser staircase (walkable up), a 1.0-m-riser staircase (not walkable up), a balcony,
 * facades and a flat roof. Block-local px; see gen_context.ts for the frame.
 *
 * Slope angles are in the planner's frame (spec 向上一步, formulas #53: kSlope = tan θ compares
 * metres of rise with px of run), so θ = 45° is 1 m per px = 0.25 m per cell, the kSlope limit.
 * @module
 */
import { ramp, tent } from "./gen_mesh.ts";
import type { GenContext } from "./gen_context.ts";

/** Ramp angles of the slope yard, degrees (planner frame: tan θ = m per px). */
export const SLOPE_ANGLES = [30, 44, 55, 65, 75] as const;
/** Terrace height above the yard, m. */
export const TERRACE_H = 3;

/** Builds a town block at the context's origin. */
export function buildTown(c: GenContext): void {
  const j = Math.floor(c.rng() * 4); // seed-dependent shift of the building lot, px
  plazaAndArcade(c);
  bumps(c);
  slopes(c);
  building(c, 120 + j, 40);
}

function plazaAndArcade(c: GenContext): void {
  c.area({ layer: 0, x0: 20, y0: 6, x1: 70, y1: 50, h: 0, group: "plaza" });
  c.mark({
    name: "plaza",
    kind: "plaza",
    at: [45, 28, 0],
    rect: [20, 6, 70, 50],
    points: { west: [24, 40, 0], east: [66, 12, 0] },
    note: "open plaza joined to the south street",
  });
  // Sidewalk 0.2 m above the street: a kerb step with a riser face along y = 6.
  c.area({ layer: 0, x0: 80, y0: 6, x1: 140, y1: 16, h: 0.2, group: "sidewalk", risers: "S" });
  c.mark({
    name: "kerb",
    kind: "kerb",
    at: [110, 6, 0.2],
    points: { street: [110, 3, 0], walk: [110, 8, 0.2] },
    note: "0.2 m kerb between street and sidewalk (a step ≤ kStepUp)",
  });
  // Arcade: the sidewalk under a cover slab at 3.7 m, pillars every 10 px.
  c.area({ layer: 1, x0: 80, y0: 9, x1: 140, y1: 16, h: 3.7, group: "arcade_roof" });
  for (let x = 85; x < 140; x += 10) {
    c.wall("pillar", x, 15.5, x + 0.5, 15.5, 0.2, 3.7);
    c.wall("pillar", x + 0.5, 15.5, x + 0.5, 16, 0.2, 3.7);
    c.wall("pillar", x + 0.5, 16, x, 16, 0.2, 3.7);
    c.wall("pillar", x, 16, x, 15.5, 0.2, 3.7);
  }
  c.mark({
    name: "arcade",
    kind: "arcade",
    at: [110, 12, 0.2],
    rect: [80, 9, 140, 16],
    points: {
      under: [110, 12, 0.2],
      roof: [110, 12, 3.7],
      west: [82, 12, 0.2],
      east: [138, 12, 0.2],
    },
    note: "covered sidewalk: ground + cover, two spans per column; pillars are facades",
  });
}

function bumps(c: GenContext): void {
  const cases = [
    { name: "bump_100", y0: 60, w: 0.5, peak: 1.0, note: "1.0 m bump over 2 cells" },
    { name: "bump_125", y0: 70, w: 0.75, peak: 1.25, note: "1.25 m bump over 3 cells" },
    { name: "dip_075", y0: 80, w: 0.5, peak: -0.75, note: "0.75 m dip over 2 cells" },
  ];
  for (const k of cases) {
    const y1 = k.y0 + k.w;
    c.area({
      layer: 0,
      x0: 0,
      y0: k.y0,
      x1: 6,
      y1,
      h: tent("y", k.y0, y1, k.peak),
      group: "street",
      yBreaks: [(k.y0 + y1) / 2],
    });
    c.mark({
      name: k.name,
      kind: k.peak > 0 ? "bump" : "dip",
      at: [3, (k.y0 + y1) / 2, k.peak],
      rect: [0, k.y0, 6, y1],
      points: { before: [3, k.y0 - 4, 0], after: [3, y1 + 4, 0] },
      note: `${k.note} across the west street (RiseOk rules 8/9)`,
    });
  }
}

function slopes(c: GenContext): void {
  c.area({ layer: 0, x0: 6, y0: 100, x1: 30, y1: 235, h: 0, group: "yard" });
  SLOPE_ANGLES.forEach((deg, i) => {
    const run = TERRACE_H / Math.tan((deg * Math.PI) / 180);
    const y0 = 104 + 26 * i, xr = 30 + run;
    c.area({
      layer: 0,
      x0: 30,
      y0,
      x1: xr,
      y1: y0 + 6,
      h: ramp("x", 30, xr, 0, TERRACE_H),
      group: "slope",
    });
    c.area({
      layer: 0,
      x0: xr,
      y0: y0 - 4,
      x1: xr + 22,
      y1: y0 + 18,
      h: TERRACE_H,
      group: "terrace",
    });
    const mPerCell = (TERRACE_H / run) * 0.25;
    c.mark({
      name: `slope_${deg}`,
      kind: "slope",
      at: [30 + run / 2, y0 + 3, TERRACE_H / 2],
      rect: [30, y0, xr, y0 + 6],
      points: { bottom: [20, y0 + 3, 0], top: [xr + 11, y0 + 7, TERRACE_H] },
      note:
        `${deg}° ramp (${
          mPerCell.toFixed(3)
        } m per cell) up to a 22×22 px terrace ${TERRACE_H} m high` +
        (mPerCell <= 0.25
          ? ": within kSlope"
          : mPerCell <= 0.5
          ? ": steeper than kSlope, climbable only as ≤ 0.5 m steps"
          : ": too steep, not walkable up"),
    });
  });
}

function building(c: GenContext, x0: number, y0: number): void {
  const x1 = x0 + 40, y1 = y0 + 30;
  // Lot around the building, joined to the south street by a lane.
  c.area({ layer: 0, x0: x0 - 10, y0: y0 - 10, x1: x1 + 10, y1: y1 + 10, h: 0, group: "lot" });
  c.area({ layer: 0, x0: x1 - 7, y0: 6, x1: x1 - 1, y1: y0 - 10, h: 0, group: "lane" });
  // Staircase 0 → 4 m: 8 risers of 0.5 m, treads 0.5 px (2 cells), rising along +y.
  const sx = x0 + 2;
  for (let k = 0; k < 8; k++) {
    const ty = y0 + 4 + 0.5 * k;
    c.area({
      layer: 0,
      x0: sx,
      y0: ty,
      x1: sx + 4,
      y1: ty + 0.5,
      h: 0.5 * (k + 1),
      group: "stairs",
      risers: "S",
    });
  }
  // Floor 2 (4 m) with the stairwell hole; staircase 4 → 8 m: 4 risers of 1.0 m, treads 1 px.
  c.area({ layer: 1, x0, y0, x1, y1, h: 4, group: "floor" });
  c.area({ layer: 1, x0: sx, y0: y0 + 4, x1: sx + 4, y1: y0 + 8, h: 0, group: "hole", hole: true });
  const s2 = x1 - 10;
  for (let k = 0; k < 4; k++) {
    const ty = y0 + 4 + k;
    c.area({
      layer: 1,
      x0: s2,
      y0: ty,
      x1: s2 + 4,
      y1: ty + 1,
      h: 5 + k,
      group: "stairs",
      risers: "S",
    });
  }
  c.area({ layer: 1, x0: x1, y0: y0 + 10, x1: x1 + 4, y1: y0 + 20, h: 4, group: "balcony" });
  c.area({ layer: 2, x0, y0, x1, y1, h: 8, group: "floor" });
  c.area({ layer: 2, x0: s2, y0: y0 + 4, x1: s2 + 4, y1: y0 + 8, h: 0, group: "hole", hole: true });
  c.area({ layer: 3, x0, y0, x1, y1, h: 12, group: "roof" });
  // Facades: ground floor with a door on the south side, floor 2 with the balcony door.
  const door = [x0 + 15, x0 + 19], bal = [y0 + 12, y0 + 18];
  c.wall("facade", x0, y0, door[0], y0, 0, 4);
  c.wall("facade", door[1], y0, x1, y0, 0, 4);
  c.wall("facade", x0, y0, x1, y0, 4, 12);
  c.wall("facade", x1, y0, x1, y1, 0, 4);
  c.wall("facade", x1, y0, x1, bal[0], 4, 8);
  c.wall("facade", x1, bal[1], x1, y1, 4, 8);
  c.wall("facade", x1, y0, x1, y1, 8, 12);
  c.wall("facade", x1, y1, x0, y1, 0, 12);
  c.wall("facade", x0, y1, x0, y0, 0, 12);
  const mx = (x0 + x1) / 2;
  c.mark({
    name: "building_a",
    kind: "building",
    at: [mx, y0 + 20, 0],
    rect: [x0, y0, x1, y1],
    points: {
      outside: [door[0] + 2, y0 - 5, 0],
      inside: [mx, y0 + 20, 0],
      door: [door[0] + 2, y0, 0],
    },
    note: "three floors (0, 4, 8 m) and a flat roof at 12 m inside 12-m facades",
  });
  c.mark({
    name: "stairs_05",
    kind: "stairs",
    at: [sx + 2, y0 + 6, 2],
    rect: [sx, y0 + 4, sx + 4, y0 + 8],
    points: { bottom: [sx + 2, y0 + 2, 0], top: [sx + 2, y0 + 10, 4], floor2: [mx, y0 + 25, 4] },
    note: "8 risers of 0.5 m (≤ kStepUp): walkable up",
  });
  c.mark({
    name: "stairs_10",
    kind: "stairs",
    at: [s2 + 2, y0 + 6, 6],
    rect: [s2, y0 + 4, s2 + 4, y0 + 8],
    points: { bottom: [s2 + 2, y0 + 2, 4], top: [s2 + 2, y0 + 10, 8], floor3: [mx, y0 + 25, 8] },
    note: "4 risers of 1.0 m (> kStepUp, no bump evidence): not walkable up, walkable down",
  });
  c.mark({
    name: "balcony",
    kind: "balcony",
    at: [x1 + 2, y0 + 15, 4],
    rect: [x1, y0 + 10, x1 + 4, y0 + 20],
    points: { below: [x1 + 7, y0 + 15, 0] },
    note: "balcony at 4 m outside the floor-2 door; its rim is a 4 m ledge onto the lot",
  });
  c.mark({
    name: "roof_a",
    kind: "roof",
    at: [mx, y0 + 15, 12],
    rect: [x0, y0, x1, y1],
    points: { below: [x0 - 5, y0 + 15, 0] },
    note: "flat roof at 12 m, reachable only by falling off it",
  });
  c.mark({
    name: "facade_a",
    kind: "facade",
    at: [x0, y0 + 15, 6],
    rect: [x0, y0, x0, y1],
    points: { south: [x0 - 3, y0 + 2, 0], north: [x0 - 3, y1 - 2, 0] },
    note: "12-m wall: a stack of ≥ 3 spans per column (face bit)",
  });
}
