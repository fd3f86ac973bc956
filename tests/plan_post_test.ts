/**
 * Post-processing invariants (Planner III, spec 后处理): the StringPull walk-through of the spec's
 * figure; StringPull is idempotent for any line-of-sight relation; assemble removes exactly the
 * spec's kinds of points (near the raw endpoints, duplicates, collinear — the last only on a
 * parent-chain input); LiftCorners moves no point by more than kLiftMax = 0.5 px, keeps the point
 * count and the ends, and never lowers the minimum clearance of a lifted corner's two chords.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { stringPull } from "../src/plan/route/post/string_pull.ts";
import { assemble } from "../src/plan/route/post/assemble.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import type { Pt } from "../src/plan/types.ts";

Deno.test("StringPull: the spec's walk-through keeps 0 → 4 → 5 → 9 of 10 points", () => {
  // ① from 0, 9…5 are blocked and 4 is visible; ② from 4, 9…6 are blocked, so 5 is taken
  // without a check; ③ from 5, 9 is visible.
  const seen: string[] = [];
  const visible = (i: number, j: number) => {
    seen.push(`${i}-${j}`);
    return (i === 0 && j === 4) || (i === 5 && j === 9);
  };
  assertEquals(stringPull(10, visible), [0, 4, 5, 9]);
  assert(!seen.includes("4-5"), "the step to i + 1 is taken without a check");
  assertEquals(seen.filter((s) => s.startsWith("0-")), ["0-9", "0-8", "0-7", "0-6", "0-5", "0-4"]);
});

Deno.test("StringPull: a second pass over the output changes nothing, for any visibility", () => {
  const rnd = mulberry32(2024);
  for (let t = 0; t < 500; t++) {
    const n = 2 + Math.floor(rnd() * 40), p = rnd();
    const vis = Array.from({ length: n }, () => Array.from({ length: n }, () => rnd() < p));
    const once = stringPull(n, (i, j) => vis[i][j]);
    assertEquals([once[0], once.at(-1)], [0, n - 1]);
    const twice = stringPull(once.length, (a, b) => vis[once[a]][once[b]]);
    assertEquals(twice, once.map((_, k) => k), `relation ${t}`);
  }
});

Deno.test("assemble: raw ends, then points within 0.4 px of them, duplicates and (chain only) collinear points go", () => {
  const start: Pt = [0, 0], goal: Pt = [10, 0];
  const pulled: Pt[] = [
    [0.3, 0], // within 0.4 px of the start: dropped
    [2, 2],
    [2, 2], // duplicate: dropped
    [4, 3], // collinear with (2, 2) and (6, 4): dropped on a chain input
    [6, 4],
    [8, 1],
    [9.7, 0.1], // within 0.4 px of the goal: dropped
  ];
  const chain = assemble(start, goal, pulled, true);
  assertEquals(chain.points, [[0, 0], [2, 2], [6, 4], [8, 1], [10, 0]]);
  assertEquals(chain.from, [-1, 1, 4, 5, -1]);
  // A per-cell input keeps collinear points (they are cell centres of a path, not chords).
  const cells = assemble(start, goal, pulled, false);
  assertEquals(cells.points, [[0, 0], [2, 2], [4, 3], [6, 4], [8, 1], [10, 0]]);
  // Nothing else is removed: a point 0.41 px from the start stays.
  assertEquals(assemble(start, goal, [[0.41, 0], [5, 5]], true).points.length, 4);
});

Deno.test("LiftCorners: ≤ 0.5 px per point, same count and ends, chord clearance never lowered", async () => {
  let lifted = 0, legs = 0;
  for (const w of ["nav_test", "tower_big", "proto_level", "dungeon"]) {
    const dir = new URL(`../examples/${w}/`, import.meta.url).pathname;
    const engine = await openEngine(dir + "base.nav.gz");
    for (const leg of parseLegs(await Deno.readTextFile(dir + "legs.json"), "legs.json")) {
      const r = await engine.plan(legRequest(leg), { picture: true });
      if (!r.ok || r.drops.length > 0) continue; // a drop landing moves by the margin, not the lift
      legs++;
      const a = r.debug.assembledPoints, f = r.points;
      assertEquals(f.length, a.length, `${leg.id}: LiftCorners adds or removes nothing`);
      assertEquals([f[0], f.at(-1)], [a[0], a.at(-1)], `${leg.id}: the ends stay`);
      const pic = r.picture!;
      // Clearance from the picture (px × 16 per crop cell): the smallest along a chord, sampled.
      const clr = (p: Pt) => {
        const x = Math.floor(p[0] / 0.25) - pic.x0, y = Math.floor(p[1] / 0.25) - pic.y0;
        if (x < 0 || y < 0 || x >= pic.nx || y >= pic.ny) return Infinity;
        return pic.clearance[y * pic.nx + x] / 16;
      };
      const chordMin = (p: Pt, q: Pt) => {
        let m = Infinity;
        const n = Math.max(
          1,
          Math.ceil(Math.max(Math.abs(q[0] - p[0]), Math.abs(q[1] - p[1])) / 0.25),
        );
        for (let i = 0; i <= n; i++) {
          m = Math.min(m, clr([p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n]));
        }
        return m;
      };
      for (let k = 1; k < f.length - 1; k++) {
        const d = Math.sqrt((f[k][0] - a[k][0]) ** 2 + (f[k][1] - a[k][1]) ** 2);
        assert(d <= 0.5 + 1e-9, `${leg.id}: point ${k} moved ${d} px`);
        if (d === 0) continue;
        lifted++;
        // Against the corner's chords as LiftCorners saw them (the previous point already moved).
        const keep = Math.min(chordMin(f[k - 1], a[k]), chordMin(a[k], a[k + 1]));
        const now = Math.min(chordMin(f[k - 1], f[k]), chordMin(f[k], a[k + 1]));
        assert(
          now >= keep - 1 / 16 - 1e-9,
          `${leg.id}: corner ${k} lowers clearance ${keep} → ${now}`,
        );
      }
    }
    engine.close();
  }
  console.log(`${legs} routes, ${lifted} lifted corners`);
  assert(lifted > 0, "some corners are lifted");
});

Deno.test("drop margin: the ring scan of the upper surface equals a scan of the whole box", async () => {
  const { upperDistance, UpperHeights } = await import("../src/plan/route/post/drop_margin.ts");
  const { spanGridFromColumns } = await import("../src/grid/span_grid.ts");
  const { kClimb, kCS } = await import("../src/grid/constants.ts");
  const kFollow = 1.0;
  const rnd = mulberry32(21);
  let found = 0, none = 0;
  for (let round = 0; round < 60; round++) {
    const nx = 20 + Math.floor(rnd() * 30), ny = 20 + Math.floor(rnd() * 30);
    const cols: number[][] = [];
    for (let c = 0; c < nx * ny; c++) {
      const col: number[] = [];
      if (round % 3 === 2) {
        // Stacked spans near the ledge height, where which span passes which test matters.
        for (let k = 0; k < 4; k++) if (rnd() < 0.4) col.push(Math.fround(2 * k + 2 * rnd()));
      } else {
        if (rnd() < 0.7) col.push(Math.fround(rnd()));
        if (rnd() < 0.08 * (1 + (round % 4))) col.push(Math.fround(5 + rnd() * 2));
      }
      cols.push(col);
    }
    const spans = spanGridFromColumns(nx, ny, cols);
    const w = { nx, ny, spans } as unknown as Parameters<typeof upperDistance>[0];
    // Odd rounds share one edge height and its cached upper heights (over a box that leaves
    // some cells outside) across the round's queries, as one landing search does.
    const near = round % 3 === 2, roundH = near ? kClimb + 0.5 + rnd() : 5 + rnd() * 2;
    const shared = round % 2
      ? new UpperHeights(w, roundH, { x0: 3, y0: 2, x1: nx - 4, y1: ny - 1 })
      : undefined;
    for (let k = 0; k < 40; k++) {
      const c = Math.floor(rnd() * nx * ny), h = near ? rnd() * 2 : rnd();
      const edgeH = shared ? roundH : near ? kClimb + 0.5 + rnd() : 5 + rnd() * 2;
      const r = 1 + Math.floor(rnd() * 12);
      // Reference: every cell of the (2r + 1)² box (the spec's wording, formulas.md #135).
      const cx = c % nx, cy = Math.floor(c / nx);
      let best = Infinity;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          const x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
          const up = cols[y * nx + x].some((v) => v - h > kClimb && Math.abs(v - edgeH) <= kFollow);
          if (!up) continue;
          const ex = Math.max(0, Math.abs(dx * kCS) - kCS / 2);
          const ey = Math.max(0, Math.abs(dy * kCS) - kCS / 2);
          best = Math.min(best, Math.sqrt(ex * ex + ey * ey));
        }
      }
      assertEquals(
        upperDistance(w, c, h, edgeH, r, shared),
        best,
        `round ${round} cell ${c} r ${r}`,
      );
      best === Infinity ? none++ : found++;
    }
  }
  assert(found > 300 && none > 50, `${found} found, ${none} none`);
});
