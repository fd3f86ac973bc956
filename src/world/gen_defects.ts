/**
 * Block type 3, "defects and decks": cracks of 0.5 / 0.75 / 1.0 px and seams between mesh
 * pieces (CloseCracks cases), single-cell holes, a hole field and larger holes (FillHoles
 * cases), tiny mesh islands (≤ 512 triangles) beside the lot, a road bridge whose deck and the
 * street below share columns, and a 16-m deck on pillars reached by a long 0.5-m staircase
 * carrying a floor-limited author no-go polygon and the tier zone. Block-local px.
 * @module
 */
import { ramp } from "./gen_mesh.ts";
import type { GenContext } from "./gen_context.ts";

/** Road bridge deck height, m. */
export const BRIDGE_H = 6;
/** High deck height, m. */
export const DECK_H = 16;

/** Builds a defects block at the context's origin. */
export function buildDefects(c: GenContext): void {
  c.area({ layer: 0, x0: 150, y0: 6, x1: 156, y1: 240, h: 0, group: "street" });
  c.mark({
    name: "street_inner",
    kind: "street",
    at: [153, 100, 0],
    rect: [150, 6, 156, 240],
    note: "north–south street inside the block, passing under the road bridge",
  });
  cracks(c);
  holes(c);
  islands(c);
  bridge(c);
  highDeck(c);
}

function cracks(c: GenContext): void {
  c.area({ layer: 0, x0: 6, y0: 6, x1: 120, y1: 40, h: 0, group: "lot" });
  const cases: [string, number, number, string][] = [
    ["crack_050", 30, 0.5, "0.5 px (2-cell) crack between mesh pieces"],
    ["crack_075", 50, 0.75, "0.75 px (3-cell) crack between mesh pieces"],
    ["crack_100", 70, 1.0, "1.0 px (4-cell) crack between mesh pieces"],
    ["seam_gap", 90, 0.05, "0.05 px seam between mesh pieces (within one cell)"],
  ];
  for (const [name, x, w, note] of cases) {
    c.area({ layer: 0, x0: x, y0: 10, x1: x + w, y1: 40, h: 0, group: "crack", hole: true });
    c.mark({
      name,
      kind: "crack",
      at: [x + w / 2, 30, 0],
      rect: [x, 10, x + w, 40],
      points: { west: [x - 3, 30, 0], east: [x + w + 3, 30, 0] },
      note: `${note}; the pieces also meet along y < 10`,
    });
  }
  // A piece 0.1 m higher, not sharing vertices with its neighbour: a height seam.
  c.area({ layer: 0, x0: 100, y0: 10, x1: 120, y1: 40, h: 0.1, group: "lot_raised" });
  c.mark({
    name: "seam_step",
    kind: "seam",
    at: [100, 30, 0.1],
    points: { west: [97, 30, 0], east: [103, 30, 0.1] },
    note: "two mesh pieces meeting with a 0.1 m height mismatch (boundary edges both sides)",
  });
}

/** Square hole of side s centred on (x, y). */
function hole(c: GenContext, x: number, y: number, s: number): void {
  c.area({
    layer: 0,
    x0: x - s / 2,
    y0: y - s / 2,
    x1: x + s / 2,
    y1: y + s / 2,
    h: 0,
    group: "hole",
    hole: true,
  });
}

function holes(c: GenContext): void {
  c.area({ layer: 0, x0: 6, y0: 50, x1: 80, y1: 100, h: 0, group: "lot" });
  // Holes of 0.6 px centred on a cell centre: only that cell sees no triangle.
  for (const x of [20.125, 24.125, 28.125]) hole(c, x, 60.125, 0.6);
  c.mark({
    name: "hole_single",
    kind: "hole",
    at: [24.125, 60.125, 0],
    rect: [19.825, 59.825, 28.425, 60.425],
    points: { west: [16, 60, 0], east: [32, 60, 0] },
    note: "three single-cell holes (0.6 px, centred on cell centres; seam bridging may close them)",
  });
  const jitter = Math.floor(c.rng() * 4) * 0.25;
  for (let j = 0; j < 6; j++) {
    for (let i = 0; i < 6; i++) hole(c, 40.125 + i + jitter, 60.125 + j, 0.6);
  }
  c.mark({
    name: "hole_field",
    kind: "hole_field",
    at: [42.625 + jitter, 62.625, 0],
    rect: [39.8 + jitter, 59.8, 45.5 + jitter, 65.5],
    points: { west: [36, 62.5, 0], east: [50, 62.5, 0] },
    note: "6×6 field of single-cell holes 1 px apart (FillHoles)",
  });
  hole(c, 60, 62, 1.25);
  c.mark({
    name: "hole_mid",
    kind: "hole",
    at: [60, 62, 0],
    note: "1.25 px hole (≤ 32 empty cells): a FillHoles candidate; the wall ring its boundary " +
      "edges stamp may make the non-lay component larger than 32 cells",
  });
  hole(c, 60, 80, 3);
  c.mark({
    name: "hole_large",
    kind: "hole",
    at: [60, 80, 0],
    points: { west: [55, 80, 0], east: [65, 80, 0] },
    note: "3 px hole: more than 32 empty cells, stays a hole",
  });
}

function islands(c: GenContext): void {
  c.area({ layer: 0, x0: 82, y0: 60, x1: 83, y1: 61, h: 0, group: "island" });
  const br: number[] = [];
  for (let k = 1; k < 10; k++) br.push(82 + 0.3 * k);
  const yb = br.map((b) => b - 82 + 70);
  c.area({
    layer: 0,
    x0: 82,
    y0: 70,
    x1: 85,
    y1: 73,
    h: 0,
    group: "island",
    xBreaks: br,
    yBreaks: yb,
  });
  c.area({ layer: 0, x0: 85, y0: 90, x1: 86, y1: 91, h: 0.2, group: "island" });
  c.mark({
    name: "islands",
    kind: "island",
    at: [83.5, 71.5, 0],
    rect: [82, 60, 86, 91],
    points: { on_island: [84.9, 72.9, 0], lot: [40, 90, 0] },
    note: "tiny mesh islands (2, 200 and 2 triangles) 2–5 px from the lot",
  });
}

function bridge(c: GenContext): void {
  c.area({ layer: 0, x0: 110, y0: 130, x1: 150, y1: 175, h: 0, group: "lot" });
  c.area({ layer: 0, x0: 156, y0: 130, x1: 200, y1: 175, h: 0, group: "lot" });
  c.area({
    layer: 0,
    x0: 128,
    y0: 150,
    x1: 146,
    y1: 156,
    h: ramp("x", 128, 146, 0, BRIDGE_H),
    group: "ramp",
  });
  c.area({ layer: 0, x0: 146, y0: 150, x1: 150, y1: 156, h: BRIDGE_H, group: "bridge" });
  c.area({ layer: 1, x0: 150, y0: 150, x1: 156, y1: 156, h: BRIDGE_H, group: "bridge" });
  c.area({ layer: 0, x0: 156, y0: 150, x1: 160, y1: 156, h: BRIDGE_H, group: "bridge" });
  c.area({
    layer: 0,
    x0: 160,
    y0: 150,
    x1: 178,
    y1: 156,
    h: ramp("x", 160, 178, BRIDGE_H, 0),
    group: "ramp",
  });
  c.mark({
    name: "bridge",
    kind: "bridge",
    at: [153, 153, BRIDGE_H],
    rect: [128, 150, 178, 156],
    points: {
      deck: [153, 153, BRIDGE_H],
      under: [153, 153, 0],
      west: [115, 165, 0],
      east: [195, 165, 0],
      street: [153, 120, 0],
      beside: [153, 160, 0],
    },
    note: "road bridge: a 6-m deck over the inner street (same columns hold both), ramps both ends",
  });
}

function highDeck(c: GenContext): void {
  c.area({ layer: 0, x0: 156, y0: 200, x1: 160, y1: 206, h: 0, group: "lane" });
  c.area({ layer: 0, x0: 160, y0: 185, x1: 235, y1: 235, h: 0, group: "lot" });
  for (let k = 0; k < 32; k++) {
    const tx = 184 + 0.5 * k;
    c.area({
      layer: 0,
      x0: tx,
      y0: 208,
      x1: tx + 0.5,
      y1: 212,
      h: 0.5 * (k + 1),
      group: "stairs",
      risers: "W",
    });
  }
  c.area({ layer: 1, x0: 200, y0: 195, x1: 230, y1: 225, h: DECK_H, group: "deck" });
  for (const [px, py] of [[201, 196], [228.5, 196], [201, 223.5], [228.5, 223.5]]) {
    c.wall("pillar", px, py, px + 0.5, py, 0, DECK_H);
    c.wall("pillar", px + 0.5, py, px + 0.5, py + 0.5, 0, DECK_H);
    c.wall("pillar", px + 0.5, py + 0.5, px, py + 0.5, 0, DECK_H);
    c.wall("pillar", px, py + 0.5, px, py, 0, DECK_H);
  }
  c.noGoRect("deck_nogo", 210, 205, 220, 215, DECK_H);
  c.mark({
    name: "high_deck",
    kind: "deck",
    at: [225, 220, DECK_H],
    rect: [200, 195, 230, 225],
    points: { stairs_bottom: [180, 210, 0], free: [225, 220, DECK_H], under: [215, 210, 0] },
    note: "16-m deck on pillars over the lot, reached by 32 risers of 0.5 m",
  });
  c.mark({
    name: "nogo_floor",
    kind: "author_no_go",
    at: [215, 210, DECK_H],
    rect: [210, 205, 220, 215],
    points: { deck: [215, 210, DECK_H], ground: [215, 210, 0] },
    note: "author no-go limited to the deck's ±12 m band: the ground below (16 m lower) is free",
  });
  if (c.record) {
    c.tiers.push({
      name: `${c.zone.replace(/base$/, "")}lv001`,
      size_px: [30, 30],
      floor_y: DECK_H,
      affine: { sx: 1, tx: c.ox + 200, sy: 1, ty: c.oy + 195 },
    });
  }
}
