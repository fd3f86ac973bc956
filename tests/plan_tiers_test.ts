/**
 * Window tiers against the spec's own numbers (窗口分档 › 椭圆档位 / 三种窗口, formulas.md #71–#82)
 * and hand-computed tier sequences.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  allowedCost,
  chooseWindow,
  ellipseRect,
  kLocalMaxCells,
  legCells,
  type LegGeometry,
  rectArea,
  trustLimit,
  trustLimit2,
} from "../src/plan/window/window_tiers.ts";

const HUGE = { x0: -1e6, y0: -1e6, nx: 2e6, ny: 2e6 };
const horizontal = (dCells: number): LegGeometry => ({
  sx: 100,
  sy: 100,
  gx: 100 + dCells * 0.25,
  gy: 100,
  snapX: 100,
  snapY: 100,
});

Deno.test("tiers: a 172-px leg: level-0 cost 1576 cells = 394 px, window ≈ 2.7 M cells", () => {
  const leg = horizontal(688);
  assertEquals(legCells(leg), 688);
  assertEquals(allowedCost(688, 0), 1576);
  assertEquals(allowedCost(688, 0) * 0.25, 394);
  const w = chooseWindow(leg, 0, HUGE);
  assertEquals(w.kind, "tentative");
  // formulas.md #75: a horizontal leg's window is ≈ (2D + 345) × (sqrt(3D² + 800D + 40000) + 145)
  // cells = 1721 × 1562.9 for D = 688 (endpoints on cell lines here).
  assertEquals([w.rect.nx, w.rect.ny], [1721, 1563]);
  assert(Math.abs(rectArea(w.rect) - 2.7e6) < 0.02e6, `${rectArea(w.rect)} ≈ 270 万格`);
});

Deno.test("tiers: level 1 of the 172-px leg is capped; the bisection stops at ≈ 415 px", () => {
  const w = chooseWindow(horizontal(688), 1, HUGE);
  assertEquals(w.kind, "capped");
  assert(rectArea(w.rect) <= kLocalMaxCells);
  assert(Math.abs(w.cost * 0.25 - 415.6) < 0.5, `allowed cost ${w.cost * 0.25} px ≈ 415`);
  // The bisection's result is the largest allowed cost under the cap: a little more is over.
  assert(rectArea(ellipseRect(horizontal(688), w.cost + 1)) > kLocalMaxCells);
});

Deno.test("tiers: a horizontal leg's level-0 window reaches 3 M cells near D = 740 cells", () => {
  assertEquals(chooseWindow(horizontal(736), 0, HUGE).kind, "tentative");
  const e = ellipseRect(horizontal(740), allowedCost(740, 0));
  assert(Math.abs(rectArea(e) - 3.02e6) < 0.02e6, `${rectArea(e)}`);
  // Just over the cap: level 0 is already the capped tier, bisected back under 3 M.
  const w = chooseWindow(horizontal(740), 0, HUGE);
  assertEquals(w.kind, "capped");
  assert(rectArea(w.rect) <= kLocalMaxCells && rectArea(w.rect) > 2.99e6);
});

Deno.test("tiers: the level-0 ellipse is nearly round: b/a = 0.917 at D = 400 cells", () => {
  const c = allowedCost(400, 0);
  const a = c / 2, b = Math.sqrt(c * c - 400 * 400) / 2;
  assertEquals(Number((b / a).toFixed(3)), 0.917);
});

Deno.test("tiers: a zero-length leg costs kCostSlack at every level, so its window never grows", () => {
  const leg: LegGeometry = { sx: 24, sy: 40, gx: 24, gy: 40, snapX: 24, snapY: 40 };
  const w0 = chooseWindow(leg, 0, HUGE), w9 = chooseWindow(leg, 9, HUGE);
  assertEquals(w0.cost, 200);
  assertEquals(w9.rect, w0.rect);
  // a = b = 100 cells about cell 96/160, grown by 72: 345 × 345.
  assertEquals(w0.rect, { x0: 96 - 100 - 72, y0: 160 - 100 - 72, nx: 345, ny: 345 });
});

Deno.test("tiers: kinds — full when the region is small and covered, segment-capped when even D is over", () => {
  const leg = horizontal(688);
  const region = { x0: 300, y0: 300, nx: 800, ny: 600 };
  assertEquals(chooseWindow(leg, 0, region).kind, "full");
  assertEquals(chooseWindow(leg, 0, region).rect, region);
  // 80 % rule in integers: 5·A_ell ≥ 4·A_region.
  const small = horizontal(400);
  const ell = rectArea(chooseWindow(small, 0, HUGE).rect);
  const at80 = { x0: -5000, y0: -5000, nx: 1, ny: Math.floor((5 * ell) / 4) };
  assertEquals(chooseWindow(small, 0, at80).kind, "full");
  const above80 = { ...at80, ny: at80.ny + 1 };
  assertEquals(chooseWindow(small, 0, above80).kind, "tentative");
  const long = horizontal(40000);
  const seg = chooseWindow(long, 0, HUGE);
  assertEquals([seg.kind, seg.segmentCapped, seg.cost], ["capped", true, 40000]);
});

Deno.test("tiers: limit and limit2 of a tentative window", () => {
  const leg = horizontal(688);
  const r = chooseWindow(leg, 0, HUGE).rect;
  const s: [number, number] = [400 - r.x0, 400 - r.y0];
  const t: [number, number] = [400 + 688 - r.x0, 400 - r.y0];
  // limit: the endpoints' nearest window edge minus 64 (x: 400 − (400 − 72 − 1576/2 … ) etc.).
  const limit = trustLimit(r.nx, r.ny, s, t);
  assertEquals(limit, Math.min(s[0], s[1], r.nx - 1 - t[0], r.ny - 1 - s[1]) - 64);
  const l2 = trustLimit2(r.nx, r.ny, s, t);
  // The trust boundary's closest point is just outside the level's ellipse (cost 1576).
  assert(l2 > 1576 && l2 < 1576 + 20, `limit2 ${l2}`);
});
