/**
 * The failing-leg picture (src/plan/diagnostics/picture.ts drawn by reports/leg_svg.ts, the
 * `plan --svg` output): a disconnected leg shows both reach floods and the gap pair; a too-steep
 * ramp shows its refused steps as a fence across the ramp; every drawn layer has a legend entry;
 * a window over the pixel budget is drawn as a focus crop around the gap with an overview; a leg
 * that built no window still gets a picture. The legs run in forced small windows
 * (overrides.window) so the tests stay fast; the pictures are stored as golden SVG files.
 */
import { assert, assertEquals } from "./assert.ts";
import { openEngine } from "../src/plan/engine.ts";
import {
  cropAround,
  cropBounds,
  Flood,
  PictureCell,
  StepBlock,
} from "../src/plan/diagnostics/picture.ts";
import type { LegPicture, PlanRequest } from "../src/plan/types.ts";
import { kCellUnits, legSvg } from "../reports/leg_svg.ts";
import { assertGolden } from "./fixtures/analyze/golden.ts";

const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;

/** Footbridge closed by a runtime disc (legs.json footbridge_disc_closed), in a small window. */
const DISCONNECTED: PlanRequest = {
  zone: "map01base",
  start: [364.75, 85],
  goal: [364.75, 150],
  noGoDiscs: [{ x: 364.75, y: 115, r: 3 }],
  overrides: { window: [1400, 320, 120, 300] },
};

/** The 65° ramp up to the terrace (legs.json slope_65_up), in a small window. */
const RAMP: PlanRequest = {
  zone: "map01base",
  start: [20, 185],
  goal: [42.39892578125, 189],
  overrides: { window: [40, 690, 160, 120] },
};

function layersOf(svg: string): string[] {
  return [...svg.matchAll(/<g data-layer="([^"]+)"/g)].map((m) => m[1]);
}

function legendOf(svg: string): string[] {
  const legend = svg.slice(svg.indexOf('<g class="legend">'));
  return [...legend.matchAll(/data-legend-for="([^"]+)"/g)].map((m) => m[1]);
}

/** The flood bits of the crop cell holding point p (px). */
function floodAt(p: LegPicture, q: [number, number]): number {
  const x = Math.floor(q[0] / 0.25) - p.x0, y = Math.floor(q[1] / 0.25) - p.y0;
  return p.flood[y * p.nx + x];
}

Deno.test("picture of a disconnected leg: both floods, the gap pair, a legend entry per layer", async () => {
  const engine = await openEngine(PACK);
  try {
    const r = await engine.plan(DISCONNECTED, { picture: true });
    assertEquals(r.error, "route_disconnected");
    const p = r.picture!, g = r.debug.gap!;
    assert(g !== null, "a gap is located");
    assertEquals(p.crop.kind, "full");
    // The floods: the gap's start side is reached from the start, its goal side reaches the goal,
    // and no cell is in both (else the leg would not be disconnected).
    assertEquals(floodAt(p, g.start) & Flood.Forward, Flood.Forward);
    assertEquals(floodAt(p, g.goal) & Flood.Reverse, Flood.Reverse);
    assertEquals(floodAt(p, p.start), Flood.Forward);
    assertEquals(floodAt(p, p.goal), Flood.Reverse);
    assert(!p.flood.some((b) => b === (Flood.Forward | Flood.Reverse)), "floods do not meet");
    // The floods do not change the plan: the same leg without a picture gives the same result.
    const plain = await engine.plan(DISCONNECTED);
    assertEquals(plain.debug.gap, r.debug.gap);
    assertEquals(plain.error, r.error);
    // Per-cell spans: one list per crop cell, heights and floods of the gap cells.
    const cs = p.cellSpans;
    assertEquals(cs.start.length, p.nx * p.ny + 1);
    assertEquals(cs.start[p.nx * p.ny], cs.h.length);
    const svg = legSvg(p, "footbridge_disc_closed");
    const layers = layersOf(svg);
    for (const id of ["flood-fwd", "flood-rev", "gap", "discs", "endpoints", "cells-walk"]) {
      assert(layers.includes(id), `layer ${id}`);
    }
    assertEquals(legendOf(svg).sort(), [...new Set(layers)].sort(), "legend = drawn layers");
    assert(svg.includes(`gap ${g.distance.toFixed(2)} px`), "gap label");
    assert(svg.includes(`data-x0="${p.x0}" data-y0="${p.y0}" data-cell="${kCellUnits}"`));
    await assertGolden("plan_svg_disconnected.svg.golden", svg);
  } finally {
    engine.close();
  }
});

Deno.test("picture of a too-steep ramp: refused steps fence the ramp", async () => {
  const engine = await openEngine(PACK);
  try {
    const r = await engine.plan(RAMP, { picture: true });
    assertEquals(r.error, "route_disconnected");
    const p = r.picture!;
    const at = (q: [number, number]) =>
      p.heights[(Math.floor(q[1] / 0.25) - p.y0) * p.nx + Math.floor(q[0] / 0.25) - p.x0];
    const low = at(p.start), high = at(p.goal);
    assert(high - low > 2, `terrace above the yard (${low} → ${high} m)`);
    // The ramp: walkable cells between the yard's and the terrace's heights.
    const ramp = new Set<number>(), rows = new Set<number>();
    let rx0 = Infinity, rx1 = -Infinity;
    for (let k = 0; k < p.nx * p.ny; k++) {
      const h = p.heights[k];
      if (p.cells[k] === 2 && h > low + 0.2 && h < high - 0.2) {
        ramp.add(k), rows.add((k / p.nx) | 0);
        rx0 = Math.min(rx0, k % p.nx), rx1 = Math.max(rx1, k % p.nx);
      }
    }
    assert(ramp.size >= 40, `ramp cells ${ramp.size}`);
    // Every ramp row has an edge where RiseOk refuses the step up (the fence), on a ramp cell.
    const b = p.blockedSteps, fenced = new Set<number>();
    let onRamp = 0, rise = 0;
    for (let i = 0; i < b.cell.length; i++) {
      if (!(b.kind[i] & (StepBlock.RiseFwd | StepBlock.RiseRev))) continue;
      rise++;
      const k = b.cell[i], n = k + (b.dir[i] === 0 ? 1 : p.nx);
      if (ramp.has(k) || ramp.has(n)) onRamp++, fenced.add((k / p.nx) | 0);
    }
    assert(onRamp >= rows.size, `refused steps on the ramp ${onRamp} for ${rows.size} rows`);
    assert(fenced.size >= rows.size - 1, `fenced rows ${fenced.size} of ${rows.size}`);
    assert(onRamp / rise > 0.9, `refusals along the ramp ${onRamp} of ${rise}`);
    // The SVG's fence: the steps-rise layer's marks lie in the ramp's columns (± 1 cell).
    const svg = legSvg(p, "slope_65_up");
    const layer = svg.match(/<g data-layer="steps-rise"[^>]*>(.*?)<\/g>/)![1];
    const xs = [...layer.matchAll(/M([\d.]+) /g)].map((m) => +m[1] / kCellUnits);
    assert(xs.length > 0, "fence marks drawn");
    for (const x of xs) assert(x >= rx0 - 1 && x <= rx1 + 2, `mark at cell ${x} (${rx0}..${rx1})`);
    assertEquals(legendOf(svg).sort(), [...new Set(layersOf(svg))].sort());
    await assertGolden("plan_svg_ramp.svg.golden", svg);
  } finally {
    engine.close();
  }
});

Deno.test("a picture never changes the route; hover spans agree with the cell layers", async () => {
  const engine = await openEngine(PACK);
  try {
    const req: PlanRequest = {
      zone: "map01base",
      start: [24, 40],
      goal: [66, 12],
      overrides: { window: [40, 0, 260, 220] },
    };
    const a = await engine.plan(req, { picture: true });
    const b = await engine.plan(req);
    assert(a.ok, a.message);
    assertEquals(a.points, b.points);
    assertEquals(a.debug.tautPoints, b.debug.tautPoints);
    assertEquals(a.waypoints, b.waypoints);
    const p = a.picture!, cs = p.cellSpans;
    const svg = legSvg(p, "plaza");
    for (const id of ["final", "waypoints", "flood-fwd", "flood-rev"]) {
      assert(layersOf(svg).includes(id), id);
    }
    for (let k = 0; k < p.nx * p.ny; k++) {
      let f = 0;
      for (let i = cs.start[k]; i < cs.start[k + 1]; i++) {
        f |= cs.flood[i];
        assert(cs.region[i] === -1 || cs.region[i] === a.debug.region, "region of a span");
        assert(cs.region[i] === -1 ? cs.clearance[i] === -1 : cs.clearance[i] >= 0);
      }
      assertEquals(f, p.flood[k], `cell ${k}: flood bits = OR of its spans'`);
      if (Number.isFinite(p.heights[k])) {
        let found = false;
        for (let i = cs.start[k]; i < cs.start[k + 1]; i++) found ||= cs.h[i] === p.heights[k];
        assert(found, "the shown height is one of the cell's spans");
      }
    }
  } finally {
    engine.close();
  }
});

Deno.test("picture of a goal outside the reach: the goal's distance to its anchor is labelled", async () => {
  const engine = await openEngine(PACK);
  try {
    // legs.json mesa_up: the mesa top is another region, more than 8 px from the yard's reach.
    const r = await engine.plan({ zone: "map01base", start: [110, 305], goal: [140, 305] }, {
      picture: true,
    });
    assertEquals(r.error, "goal_outside_reach");
    const p = r.picture!;
    assert(p.snap[1]! > 8, `goal snap ${p.snap[1]}`);
    const svg = legSvg(p, "mesa_up");
    const layers = layersOf(svg);
    for (const id of ["reach-distance", "cells-other", "flood-fwd", "topology"]) {
      assert(layers.includes(id), id);
    }
    assert(svg.includes(`goal ${p.snap[1]!.toFixed(1)} px from the reach (&gt; 8 px gate)`));
    assertEquals(legendOf(svg).sort(), [...new Set(layers)].sort());
  } finally {
    engine.close();
  }
});

Deno.test("picture of a raw endpoint outside the window: the crop reaches it, outside cells empty", async () => {
  const engine = await openEngine(PACK);
  try {
    // legs.json mesa_up_deck: the start snaps onto the mesa, whose window leaves the raw start out.
    const req: PlanRequest = {
      zone: "map01base",
      start: [110, 305],
      goal: [140, 305],
      goalDeckY: 8,
    };
    const r = await engine.plan(req, { picture: true });
    assertEquals(r.error, "goal_outside_reach");
    const p = r.picture!, [wx, wy, wnx, wny] = p.crop.window!;
    const cellAt = (q: [number, number]) => [Math.floor(q[0] / 0.25), Math.floor(q[1] / 0.25)];
    const inCrop = ([x, y]: number[]) =>
      x >= p.x0 && x < p.x0 + p.nx && y >= p.y0 && y < p.y0 + p.ny;
    const inWin = ([x, y]: number[]) => x >= wx && x < wx + wnx && y >= wy && y < wy + wny;
    assert(!inWin(cellAt(p.start)), "the raw start lies outside the window (the case at hand)");
    for (const q of [p.start, p.goal]) assert(inCrop(cellAt(q)), `endpoint ${q} inside the crop`);
    // Out-of-window cells: their own class, no spans, no height, no flood, no clearance, no
    // refused step; in-window cells never take that class.
    let outside = 0;
    const cs = p.cellSpans;
    for (let k = 0; k < p.nx * p.ny; k++) {
      const g = [p.x0 + (k % p.nx), p.y0 + ((k / p.nx) | 0)];
      assertEquals(p.cells[k] === PictureCell.Outside, !inWin(g), `class of cell ${g}`);
      if (inWin(g)) continue;
      outside++;
      assertEquals(cs.start[k + 1] - cs.start[k], 0, `spans of outside cell ${g}`);
      assert(Number.isNaN(p.heights[k]) && p.flood[k] === 0 && p.clearance[k] === 0, `${g}`);
    }
    assert(outside > 0, "some cells lie outside the window");
    for (const k of p.blockedSteps.cell) {
      assert(p.cells[k] !== PictureCell.Outside, "no refused step on an outside cell");
    }
    const svg = legSvg(p, "mesa_up_deck");
    const layers = layersOf(svg);
    assert(layers.includes("outside-window"), "outside-window layer");
    assert(svg.includes('class="window-border"'), "the window's border is drawn");
    assert(svg.includes(`data-window="${p.crop.window!.join(",")}"`), "root data-window");
    assertEquals(legendOf(svg).sort(), [...new Set(layers)].sort());
    // The picture changes nothing of the plan.
    const plain = await engine.plan(req);
    assertEquals(plain.error, r.error);
    assertEquals(plain.debug.topologyPoints, r.debug.topologyPoints);
  } finally {
    engine.close();
  }
});

Deno.test("crop rule: the crop reaches a raw endpoint outside the window, never less than the window gives", () => {
  // Window cells 0..99 square; the start 10 cells west of it, the goal inside.
  const win = { x0: 0, y0: 0, x1: 99, y1: 99 };
  const start: [number, number] = [-2.375, 12.625], goal: [number, number] = [12.625, 12.625];
  const extra: [[number, number], string][] = [[start, "the start"], [goal, "the goal"]];
  const bounds = cropBounds(win, [start, goal]);
  assertEquals(bounds, { x0: -26, y0: 0, x1: 99, y1: 99 }, "16 cells around the start");
  assertEquals(cropBounds(win, [goal]), win, "nothing outside: the window");
  const crop = (budget: number) =>
    cropAround(win, [start, goal], [goal], "the goal", extra, budget, bounds);
  // Under a roomy budget the start is in the crop.
  const big = crop(20_000);
  assertEquals(big.kind, "full");
  assertEquals([big.crop.x0, big.crop.x1, big.crop.y0, big.crop.y1], [-26, 98, 2, 98]);
  // When only the window's part fits, the crop is that part, as without the bounds.
  const tight = crop(10_000);
  const old = cropAround(win, [start, goal], [goal], "the goal", extra, 10_000);
  assertEquals(tight.crop, old.crop);
  assertEquals(tight.kind, "full");
});

Deno.test("picture over the pixel budget: focus crop around the gap, overview with the crop", async () => {
  const engine = await openEngine(PACK);
  try {
    // A budget of 4 000 cells makes the 120 × 300 window's area of interest too big.
    const r = await engine.plan(DISCONNECTED, { picture: true, pictureBudget: 4000 });
    const p = r.picture!, g = r.debug.gap!;
    assertEquals(p.crop.kind, "focus");
    assert(p.nx * p.ny <= 4000, `crop ${p.nx} × ${p.ny}`);
    assert(p.crop.around.startsWith("the gap pair"), p.crop.around);
    for (const q of [g.start, g.goal]) {
      const x = Math.floor(q[0] / 0.25), y = Math.floor(q[1] / 0.25);
      assert(x >= p.x0 && x < p.x0 + p.nx && y >= p.y0 && y < p.y0 + p.ny, "gap inside the crop");
    }
    assert(p.overview !== null, "overview");
    const svg = legSvg(p, "budget");
    assert(layersOf(svg).includes("overview") && svg.includes('class="overview-crop"'));
    assert(svg.includes('data-crop="focus"') && svg.includes("Focus crop"));
  } finally {
    engine.close();
  }
});

Deno.test("picture without a window: a pre-check failure draws the records around the endpoint", async () => {
  const engine = await openEngine(PACK);
  try {
    // legs.json nogo_base_goal: the goal lies in an author no-go zone.
    const r = await engine.plan({ zone: "map01base", start: [364.75, 85], goal: [380, 70] }, {
      picture: true,
    });
    assertEquals(r.error, "no_go");
    const p = r.picture!;
    assertEquals(p.crop.window, null);
    assert(p.cells.some((c) => c === 2), "walkable cells drawn from the records");
    const svg = legSvg(p, "nogo_base_goal");
    assert(layersOf(svg).includes("nogo") && layersOf(svg).includes("endpoints"));
    assert(svg.includes("No window"), "the picture says why it has no window");
    const z = await engine.plan({ zone: "nowhere", start: [1, 1], goal: [2, 2] }, {
      picture: true,
    });
    assertEquals(z.error, "zone_not_found");
    assert(legSvg(z.picture!, "nowhere").includes("is not in the pack"));
  } finally {
    engine.close();
  }
});
