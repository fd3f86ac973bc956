/**
 * The specification's worked examples for ledge drops, which no golden data covers (the reference
 * build has no drops beyond kClimb): RiseOk rule 2 (向下一步: the kSeamCells look-ahead and the
 * FallGate), the Lazy Theta* chord exclusion after a drop (formulas.md #111), the landing margin
 * R = 3·kFallRadius/|s_x| (落点留余量, formulas.md #134–#136) with the expansion limit navscope
 * uses (2R, formulas.md #135, see docs/profiles.md "Drops"), and the assembly rule that keeps a
 * drop's take-off and landing. The spec's own numbers are used where it gives them; the cases
 * already covered elsewhere (the bridge-deck seam, a lower layer 2.9 below, the window edge and
 * the one-way ledge in grid_rise_ok_test.ts; dropBlocked's figure in drop_blocked_test.ts) are
 * not repeated.
 */
import { assert, assertAlmostEquals, assertEquals } from "./assert.ts";
import { riseOk } from "../src/grid/rise_ok.ts";
import { kClimb, kCS, kSeamCells } from "../src/grid/constants.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";
import { SpanSearch } from "../src/plan/route/search/span_astar.ts";
import { Visibility } from "../src/plan/route/visibility/visibility.ts";
import type { WindowGrid } from "../src/plan/window/window_grid.ts";
import { dropMargin, kFallRadius, landingMargin } from "../src/plan/route/post/drop_margin.ts";
import { assemble } from "../src/plan/route/post/assemble.ts";
import type { Pt } from "../src/plan/types.ts";

/** RiseOk along +x from column x (height a) to x + 1 (height b) of a 1-row strip. */
function fwd(
  cols: number[][],
  x: number,
  a: number,
  b: number,
  gate: ((f: number, t: number, h0: number, h1: number) => boolean) | null = null,
) {
  return riseOk(spanGridFromColumns(cols.length, 1, cols), x, 0, a, 1, 0, b, gate);
}

/** A gate that records its calls and answers `blocked`. */
function recordingGate(blocked: boolean) {
  const calls: number[][] = [];
  const gate = (f: number, t: number, h0: number, h1: number) => {
    calls.push([f, t, h0, h1]);
    return blocked;
  };
  return { gate, calls };
}

// ---------------------------------------------------------------------------------------------
// RiseOk rule 2 (spec 向下一步; formulas.md #49 rules 1–2, #55–#57)

Deno.test("向下一步: −kClimb ≤ dh passes at rule 3 without the look-ahead or the FallGate", () => {
  // "−kClimb ≤ dh ≤ 0 的一步直接由第 3 步放行,不往前看" (formulas.md #55): a 3-m step down passes
  // although the departure layer (5) comes back at s = 2 and the gate would block.
  const { gate, calls } = recordingGate(true);
  assert(fwd([[5], [2], [5], [5]], 0, 5, 2, gate));
  assertEquals(calls, []);
  // 3.01 m: rule 2 looks ahead, finds the departure layer at s = 2 (a seam) and refuses before
  // the gate is asked.
  assert(!fwd([[5], [1.99], [5], [5]], 0, 5, 1.99, gate));
  assertEquals(calls, []);
  // Without a seam the gate decides (rule 2, then rule 3 on pass).
  const ledge = [[5], [1.99], [1.99], [1.99], [1.99], [1.99]];
  assert(!fwd(ledge, 0, 5, 1.99, gate));
  assertEquals(calls, [[0, 1, 5, 1.99]]);
  assert(fwd(ledge, 0, 5, 1.99, recordingGate(false).gate));
});

Deno.test("向下一步: kDrop = +∞, no drop is too deep (rule 1 never fires; formulas.md #57)", () => {
  // "游戏里角色没有摔落伤害,向下的落差不设实际上限".
  assert(fwd([[1000], [0], [0], [0], [0], [0]], 0, 1000, 0));
  // …and it stays one-way: the same step up fails (rule 7, dh > kBumpUp).
  assert(!riseOk(spanGridFromColumns(2, 1, [[1000], [0]]), 1, 0, 0, -1, 0, 1000));
});

Deno.test("向下一步: the look-ahead tolerance is 3, inclusive, both ways (容差取 3; formulas.md #56)", () => {
  // "前方任何一张高度在 [h0 − 3, h0 + 3] 内的 span 都算出发层回来". Departure 5, ground 0; one
  // extra span at s = 4 (the last column looked at, kSeamCells = 4).
  assertEquals(kSeamCells, 4);
  const at4 = (h: number) => [[5], [0], [0], [0], [0, h], [0], [0]];
  assert(!fwd(at4(2), 0, 5, 0), "5 − 3 counts (|f32(2 ⊖ 5)| = 3 ≤ 3)");
  assert(fwd(at4(1.99), 0, 5, 0), "5 − 3.01 does not");
  assert(!fwd(at4(8), 0, 5, 0), "5 + 3 counts");
  assert(fwd(at4(8.01), 0, 5, 0), "5 + 3.01 does not");
  // The same span one column further (s = 5) is outside the look-ahead.
  assert(fwd([[5], [0], [0], [0], [0], [0, 5], [0]], 0, 5, 0));
});

Deno.test("向下一步: a gap in the upper layer blocks the drop when the deck returns within 4 cells", () => {
  // Deck 5 over ground 0 with a gap of g cells after column 2. Stepping from the deck's edge into
  // the gap is a 5-m drop; the deck reappears at s = g + 1, so the look-ahead s = 1..4 refuses
  // gaps of 1–3 cells (a seam: "脚下只是一道窄缝") and lets 4 and more pass (a ledge). Crossing
  // needs a step longer than the 8 neighbours, so a refused gap is closed both ways.
  // Note: the article's remark "上层 2 到 4 格宽的空档,两个方向都过不去" is one cell wider than its
  // own rule ("沿格步方向看第 1 到第 4 格"); navscope follows the rule (formulas.md #55).
  const withGap = (g: number) => {
    const cols: number[][] = [[0, 5], [0, 5], [0, 5]];
    for (let i = 0; i < g; i++) cols.push([0]);
    for (let i = 0; i < 6; i++) cols.push([0, 5]);
    return cols;
  };
  for (const g of [1, 2, 3]) assert(!fwd(withGap(g), 2, 5, 0), `gap ${g}: seam`);
  for (const g of [4, 5, 8]) assert(fwd(withGap(g), 2, 5, 0), `gap ${g}: ledge`);
});

Deno.test("向下一步: the look-ahead follows the step direction, diagonals included", () => {
  // A diagonal step (1, 1) from (0, 0) looks at (1, 1) … (4, 4); the departure layer at (3, 3)
  // makes a seam, at (3, 0) (off the diagonal) it does not.
  const grid = (extra: number) => {
    const cols: number[][] = [];
    for (let c = 0; c < 36; c++) cols.push(c === 0 ? [5] : c === extra ? [0, 5] : [0]);
    return spanGridFromColumns(6, 6, cols);
  };
  assert(!riseOk(grid(3 * 6 + 3), 0, 0, 5, 1, 1, 0));
  assert(riseOk(grid(0 * 6 + 3), 0, 0, 5, 1, 1, 0));
});

// ---------------------------------------------------------------------------------------------
// Lazy Theta*: no chord from a span reached by a drop (formulas.md #111; spec 向下一步, "落差边
// 不让 Theta* 把弦直接接到父节点的父节点。下落是单向边,这样接出来的弦会从台沿上方的空中穿过")

/** A window of columns (one height list per cell), no walls, bans or links. */
function window(nx: number, ny: number, cols: number[][]): WindowGrid {
  const spans = spanGridFromColumns(nx, ny, cols);
  const nsp = spans.h.length;
  return {
    nx,
    ny,
    x0: 0,
    y0: 0,
    spans,
    steps: new Uint8Array(nx * ny),
    links: {
      n: 0,
      fromSpan: new Int32Array(0),
      toSpan: new Int32Array(0),
      cost: new Float64Array(0),
    },
    vis3: new Uint8Array(nsp).fill(1),
    core: Uint8Array.from(cols, (c) => (c.length ? 1 : 0)),
  } as unknown as WindowGrid;
}

Deno.test("Lazy Theta*: a span reached by a drop takes no chord; without the rule one crosses the air", () => {
  // Terrace 5 m for x ≤ 4, ground 0 beyond, 16 × 7 cells. Start on the terrace at (0, 0), goal
  // on the ground at (15, 6). A view without the layer check stands for a line-of-sight test
  // that cannot see the ledge, so only the chord rule itself can keep the drop a single step.
  const nx = 16, ny = 7;
  const cols: number[][] = [];
  for (let c = 0; c < nx * ny; c++) cols.push([(c % nx) <= 4 ? 5 : 0]);
  const win = window(nx, ny, cols);
  const nsp = win.spans.h.length;
  const goal = new Uint8Array(nsp);
  goal[nsp - 1] = 1;
  const opts = (dropChord: boolean, layer: boolean) => ({
    mask: new Uint8Array(nx * ny).fill(1),
    usable: new Uint8Array(nsp).fill(1),
    price: null,
    start: 0,
    goal,
    goalCell: nx * ny - 1,
    theta: {
      vis: new Visibility(win, null, null, { steps: false, layer }),
      dropChord,
    },
  });
  /** The chain's links that fall more than kClimb, as [from cell, to cell, Chebyshev length]. */
  const falls = (dropChord: boolean, layer: boolean) => {
    const p = new SpanSearch(win).run(opts(dropChord, layer))!;
    const out: number[][] = [];
    const ch = p.chain!, sp = win.spans;
    for (let k = 1; k < ch.length; k++) {
      const a = sp.cell[ch[k - 1]], b = sp.cell[ch[k]];
      if (sp.h[ch[k - 1]] - sp.h[ch[k]] <= kClimb) continue;
      const len = Math.max(
        Math.abs((a % nx) - (b % nx)),
        Math.abs(((a / nx) | 0) - ((b / nx) | 0)),
      );
      out.push([a, b, len]);
    }
    return out;
  };
  // spec (chordDropExclusion on): one drop, one cell step from x = 4 to x = 5, whatever the view.
  for (const layer of [true, false]) {
    const f = falls(false, layer);
    assertEquals(f.length, 1);
    assertEquals([f[0][0] % nx, f[0][1] % nx, f[0][2]], [4, 5, 1]);
  }
  // reference behaviour (switch off) with the blind view: the drop arrival chains to its
  // grandparent, a chord from the terrace across the ledge through the air.
  const blind = falls(true, false);
  assertEquals(blind.length, 1);
  assert(blind[0][2] > 1, `a chord over the ledge: ${JSON.stringify(blind)}`);
});

// ---------------------------------------------------------------------------------------------
// 落点留余量 (formulas.md #134–#136)

Deno.test("落点留余量: R = 3·kFallRadius/|s_x|; Wuling (s_x ≈ 1.33) gives ≈ 0.92 px ≈ 3.7 cells", () => {
  // formulas.md #134, Check: "on Wuling (s_x ≈ 1.33), R ≈ 0.92 px ≈ 3.7 cells".
  assertEquals(kFallRadius, 0.41);
  const R = landingMargin(1.33);
  assertAlmostEquals(R, 0.92, 0.005);
  assertAlmostEquals(R / kCS, 3.7, 0.01);
  // |s_x|: a mirrored zone moves landings as far.
  assertEquals(landingMargin(-1.33), R);
  // Derivation: erosion ≈ kFallRadius, stepping off another kFallRadius, the rest margin.
  assertAlmostEquals(R * 1.33, 3 * 0.41, 1e-12);
});

/**
 * A ledge world for the landing search: terrace 5 m for x ≤ 9 (every row), the lower surface
 * (0 m, or `lower(x, y)` when given: a height or null for no span) beyond, 30 × 16 cells.
 */
function ledgeWindow(lower: (x: number, y: number) => number | null = () => 0): WindowGrid {
  const nx = 30, ny = 16, cols: number[][] = [];
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const h = x <= 9 ? 5 : lower(x, y);
      cols.push(h === null ? [] : [h]);
    }
  }
  return window(nx, ny, cols);
}

const centre = (x: number, y: number): Pt => [(x + 0.5) * kCS, (y + 0.5) * kCS];

/** Runs the drop margin on the route start (2, 4) → take-off (9, 4) → raw landing (10, 4) → next. */
function land(w: WindowGrid, next: Pt, scaleX = 1.33, margin = true) {
  const pts: Pt[] = [centre(2, 4), centre(9, 4), centre(10, 4), next];
  const hs = [5, 5, 0, 0];
  const line = new Visibility(w, null, null, { steps: false, layer: true });
  const drops = dropMargin(w, pts, hs, scaleX, line, margin);
  return { drops, landing: pts[2], h: hs[2], pts };
}

Deno.test("落点留余量: the landing moves to the nearest cell at ≥ R from the upper surface", () => {
  // R = 0.9248 px (s_x = 1.33). A cell x cells beyond the ledge (x = 9 is the last upper column)
  // is (x − 9)·kCS − kCS/2 from the upper cells' squares: x = 13 → 0.875 < R, x = 14 → 1.125 ≥ R.
  // Nearest to the raw landing (10, 4) among those: (14, 4), 1.0 px away, within 2R = 1.85 px.
  const r = land(ledgeWindow(), centre(25, 4));
  assertEquals(r.drops, [{ index: 2, fromH: 5, toH: 0 }]);
  assertEquals(r.landing, centre(14, 4));
  assertEquals(r.h, 0);
  // Zone scale 0: the step is skipped (spec: "缩放为 0 时整步跳过"), no drop is recorded.
  assertEquals(land(ledgeWindow(), centre(25, 4), 0).drops, []);
  // Profile switch landingMargin off (#6147 absent): the raw landing stays, the drop is recorded.
  const raw = land(ledgeWindow(), centre(25, 4), 1.33, false);
  assertEquals([raw.drops, raw.landing], [[{ index: 2, fromH: 5, toH: 0 }], centre(10, 4)]);
});

Deno.test("落点留余量: a cell from which the next point cannot be walked to is passed over", () => {
  // Spec 挪落点 step 2: "取出的格要能从格心直走到下一点…不通的格仍然继续向外扩展". 2-m blocks
  // (not lower: 5 − 2 is not more than kClimb; a 2-m rise fails the height walk) at (16, 4),
  // (17, 4) and (15..17, 5). Next point (22, 4). (14, 4) walks along row 4 into the block;
  // (14, 5) crosses row 5; (14, 3), 1.03 px from the raw landing, reaches (22, 4) by row 3.
  const block = (x: number, y: number) =>
    (y === 4 && (x === 16 || x === 17)) || (y === 5 && x >= 15 && x <= 17) ? 2 : 0;
  const r = land(ledgeWindow(block), centre(22, 4));
  assertEquals(r.landing, centre(14, 3));
  // Without the blocks the straight cell wins, as above.
  assertEquals(land(ledgeWindow(), centre(22, 4)).landing, centre(14, 4));
});

Deno.test("落点留余量: on a lower surface narrower than R the farthest checked cell is taken", () => {
  // Spec 挪落点 step 3: "一直达不到,就取检查通过的格里离上层面最远的一格". A 3-cell strip
  // (x = 10..12) below the ledge: its far column is 3·kCS − kCS/2 = 0.625 px < R away; the first
  // such cell the search takes (nearest the raw landing) is (12, 4).
  const strip = (x: number) => (x <= 12 ? 0 : null);
  assertEquals(land(ledgeWindow(strip), centre(11, 12)).landing, centre(12, 4));
});

Deno.test("落点留余量: the expansion stops at 2R from the raw landing (formulas.md #135, [?])", () => {
  // The strip of the previous case, with a wide lower yard from row `y0` on. Its nearest cell at
  // ≥ R from the ledge is (14, y0). From row 9 it is 1.60 px from the raw landing (10, 4), inside
  // 2R = 1.85 px: taken. From row 12 it is 2.24 px away, beyond 2R: not expanded, and the landing
  // stays in the strip (a limit of 3R = 2.77 px would have taken it).
  const yard = (y0: number) => (x: number, y: number) => (x <= 12 || y >= y0 ? 0 : null);
  const R = landingMargin(1.33);
  const d = (y0: number) => Math.hypot(4 * kCS, (y0 - 4) * kCS);
  assert(d(9) <= 2 * R && d(12) > 2 * R && d(12) <= 3 * R);
  assertEquals(land(ledgeWindow(yard(9)), centre(20, 13)).landing, centre(14, 9));
  assertEquals(land(ledgeWindow(yard(12)), centre(20, 13)).landing, centre(12, 4));
});

Deno.test("落点留余量: round an inside corner the landing moves 1.41 px: within 2R, beyond R + kCS", () => {
  // Upper surface on x ≤ 9 or y ≤ 9 (an L around the lower quadrant); the route drops
  // diagonally from (9, 9) to (10, 10). The nearest cell ≥ R from both rims is (14, 14),
  // 4√2 cells = 1.414 px = 1.53 R away: 2R reaches it, a limit of R + kCS (the straight case's
  // need, 1.17 px) would not (docs/profiles.md "Drops").
  const nx = 30, ny = 16, cols: number[][] = [];
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) cols.push([x <= 9 || y <= 9 ? 5 : 0]);
  const w = window(nx, ny, cols);
  const pts: Pt[] = [centre(2, 2), centre(9, 9), centre(10, 10), centre(25, 14)];
  const hs = [5, 5, 0, 0];
  const line = new Visibility(w, null, null, { steps: false, layer: true });
  assertEquals(dropMargin(w, pts, hs, 1.33, line), [{ index: 2, fromH: 5, toH: 0 }]);
  assertEquals(pts[2], centre(14, 14));
  const R = landingMargin(1.33), moved = Math.hypot(4 * kCS, 4 * kCS);
  assert(moved > R + kCS && moved <= 2 * R, `${moved} in (R + kCS, 2R]`);
});

// ---------------------------------------------------------------------------------------------
// 端点拼接 keeps a drop's two ends (src/plan/route/post/assemble.ts; found by the property test)

Deno.test("端点拼接: collinear removal keeps a drop's take-off and landing", () => {
  // A 1.5-m step down (walkable: ≥ −kClimb) at y = 14.125 and a 5-m drop at y = 16.375 → 16.625,
  // all on x = 14.875 (the case tests/plan_drop_property_test.ts found). Merged, the fall would
  // start at 6.5: 找台沿 breaks at the 1.5-m step (beyond its 1.0 m follow) and the landing
  // margin measures from the 6.5-m surface, not from the 5-m ledge.
  const x = 14.875;
  const pulled: Pt[] = [[x, 13.375], [x, 14.125], [x, 16.375], [x, 16.625], [x, 19.375]];
  const hs = [6.5, 5, 5, 0, 0];
  const start: Pt = [x, 13.375], goal: Pt = [x, 19.375];
  const kept = assemble(start, goal, pulled, true, hs).points;
  assertEquals(kept, [[x, 13.375], [x, 16.375], [x, 16.625], [x, 19.375]]);
  // Without heights (a cell-level input, or the reference's call) the collinear points all go.
  assertEquals(assemble(start, goal, pulled, true).points, [[x, 13.375], [x, 19.375]]);
  // A long step (an off-mesh link, not a drop) is no reason to keep a point.
  const link: Pt[] = [[x, 13.375], [x, 14.125], [x, 18.125], [x, 19.375]];
  assertEquals(assemble(start, goal, link, true, [5, 5, 0, 0]).points, [[x, 13.375], [x, 19.375]]);
  // Nor is a vertical link (both ends in one cell; nav_test's rnd_082 under the reference).
  const lift: Pt[] = [[x, 13.375], [x, 15.375], [x, 15.375], [x, 12.375]];
  const g2: Pt = [x, 11.375];
  assertEquals(assemble(start, g2, lift, true, [5, 5, 0, 0]).points, [[x, 13.375], g2]);
});
