/**
 * Block type 2, "ledges": a 6-m terrace reached by stairs whose four rims are ledge drops —
 * plain (west, beside the stairs), guarded by a railing occluder (south, blocked), under an
 * overhang occluder (north, blocked) and behind a 0.25-m kerb occluder (east, not blocked) (spec
 * 台沿下落 › FallGate, dropBlocked figure). The kerb sits on the east rim because that is the rim
 * the topology pass's channel crosses (the terrace's and the east yard's medial axes meet there);
 * the overhang covers the landing cells' centres, which dropBlocked's landing column runs through;
 * an 8-m mesa that is a region of its own, joined to the yard only by a ledge drop; two
 * plateaus in water moats reachable only by off-mesh links (one one-way, one two-way); a 2-m
 * slab in the ground's own region that RiseOk cannot climb, reached by a one-way link (a ladder)
 * and left by a drop; and a thin walkable beam with no core cells near it. Block-local px.
 * @module
 */
import type { GenContext } from "./gen_context.ts";

/** Ledge terrace height, m. */
export const LEDGE_H = 6;
/** Mesa height, m. */
export const MESA_H = 8;
/** Link plateau height, m. */
export const PLATEAU_H = 5;
/**
 * Link-ledge slab height, m: ≤ kClimb (3 m), so the slab is in the ground's region, but above
 * kStepUp (0.5 m) and kBumpUp (1.25 m), so RiseOk cannot climb it.
 */
export const LINK_LEDGE_H = 2;

/** Builds a ledge block at the context's origin. */
export function buildLedges(c: GenContext): void {
  c.area({ layer: 0, x0: 6, y0: 30, x1: 120, y1: 100, h: 0, group: "yard" });
  terrace(c);
  mesa(c);
  plateaus(c);
  linkLedge(c);
  beam(c);
}

function terrace(c: GenContext): void {
  const [x0, y0, x1, y1] = [40, 50, 80, 80];
  c.area({ layer: 0, x0, y0, x1, y1, h: LEDGE_H, group: "terrace" });
  // 12 risers of 0.5 m along +x up to the west rim.
  for (let k = 0; k < 12; k++) {
    const tx = 34 + 0.5 * k;
    c.area({
      layer: 0,
      x0: tx,
      y0: 62,
      x1: tx + 0.5,
      y1: 66,
      h: 0.5 * (k + 1),
      group: "stairs",
      risers: "W",
    });
  }
  c.occluder(x0, y0, x1, y0 + 0.2, LEDGE_H, LEDGE_H + 1.1, "railing");
  c.occluder(x0 + 5, y1, x1 - 5, y1 + 6, 3.0, 3.4, "overhang");
  c.occluder(x1 - 0.2, y0, x1, y1, LEDGE_H, LEDGE_H + 0.25, "kerb");
  c.mark({
    name: "ledge_terrace",
    kind: "terrace",
    at: [60, 65, LEDGE_H],
    rect: [x0, y0, x1, y1],
    points: { stairs_bottom: [30, 64, 0], stairs_top: [42, 64, LEDGE_H] },
    note: "6-m terrace reached by 0.5-m stairs; each rim is a different ledge case",
  });
  const ledge = (name: string, note: string, top: [number, number], below: [number, number]) =>
    c.mark({
      name,
      kind: "ledge",
      at: [top[0], top[1], LEDGE_H],
      points: { top: [top[0], top[1], LEDGE_H], below: [below[0], below[1], 0] },
      note,
    });
  ledge("ledge_plain", "6 m one-way drop from the west rim (no occluder): allowed", [41.5, 55], [
    37,
    55,
  ]);
  ledge(
    "ledge_railing",
    "south rim guarded by a 1.1 m railing occluder: drop blocked",
    [60, 51.5],
    [
      60,
      47,
    ],
  );
  ledge("ledge_overhang", "north rim under an overhang occluder (underside 3 m): drop blocked", [
    60,
    78.5,
  ], [60, 83]);
  ledge("ledge_kerb", "east rim behind a 0.25 m kerb occluder (below climb): drop allowed", [
    78.5,
    65,
  ], [83, 65]);
}

function mesa(c: GenContext): void {
  c.area({ layer: 0, x0: 120, y0: 40, x1: 160, y1: 90, h: MESA_H, group: "mesa" });
  c.mark({
    name: "mesa",
    kind: "mesa",
    at: [140, 65, MESA_H],
    rect: [120, 40, 160, 90],
    points: { edge: [121.5, 65, MESA_H], below: [110, 65, 0] },
    note: "8-m mesa: its own region, joined to the yard only by a ledge drop (region hop)",
  });
}

function plateaus(c: GenContext): void {
  c.area({ layer: 0, x0: 6, y0: 120, x1: 120, y1: 160, h: 0, group: "yard" });
  const one = (name: string, x: number, bidirectional: boolean, awayX: number) => {
    c.area({ layer: 0, x0: x, y0: 128, x1: x + 24, y1: 152, h: -0.5, group: "water" });
    c.area({ layer: 0, x0: x + 4, y0: 132, x1: x + 20, y1: 148, h: PLATEAU_H, group: "plateau" });
    c.link([x - 2, 140, 0], [x + 6, 140, PLATEAU_H], bidirectional);
    c.mark({
      name,
      kind: "plateau",
      at: [x + 12, 140, PLATEAU_H],
      rect: [x + 4, 132, x + 20, 148],
      points: { link_foot: [x - 2, 140, 0], away: [awayX, 140, 0] },
      note: `${PLATEAU_H}-m plateau in a water moat, reachable only by a ${
        bidirectional ? "two-way" : "one-way"
      } off-mesh link`,
    });
  };
  one("plateau_oneway", 40, false, 20);
  one("plateau_twoway", 80, true, 112);
}

function linkLedge(c: GenContext): void {
  // Ground east of the plateau yard (shares its edge at x = 120, so it is the same region).
  c.area({ layer: 0, x0: 120, y0: 120, x1: 230, y1: 160, h: 0, group: "yard" });
  const [x0, y0, x1, y1] = [160, 128, 184, 152];
  // No risers: every rim is a 2-m height step between 4-connected spans (same region, since
  // 2 m ≤ kClimb), too high for RiseOk (> kBumpUp, and the slab is far wider than a bump).
  c.area({ layer: 0, x0, y0, x1, y1, h: LINK_LEDGE_H, group: "link_ledge" });
  // One-way ladder from the ground 4 px west of the rim to 4 px inside the slab.
  c.link([x0 - 4, 140, 0], [x0 + 4, 140, LINK_LEDGE_H], false);
  c.mark({
    name: "ledge_link",
    kind: "link_ledge",
    at: [172, 140, LINK_LEDGE_H],
    rect: [x0, y0, x1, y1],
    points: {
      link_foot: [x0 - 4, 140, 0],
      link_top: [x0 + 4, 140, LINK_LEDGE_H],
      away: [136, 140, 0],
      below: [200, 140, 0],
    },
    note:
      `${LINK_LEDGE_H}-m slab in the ground's region (step ≤ kClimb) that RiseOk cannot climb ` +
      "(> kStepUp, > kBumpUp): reachable only by a one-way off-mesh link (a ladder), left by a drop",
  });
}

function beam(c: GenContext): void {
  // 0.1 px wide: no cell centre lies inside it, so it has no core cells (spec 端点到核心可走区).
  c.area({ layer: 0, x0: 20, y0: 200, x1: 60, y1: 200.1, h: 0, group: "beam" });
  c.mark({
    name: "thin_beam",
    kind: "beam",
    at: [40, 200.05, 0],
    rect: [20, 200, 60, 200.1],
    note: "walkable 0.1-px beam > 8 px from any core cell",
  });
}
