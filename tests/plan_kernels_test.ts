/**
 * The planner's inner kernels against brute-force references written here (not the planner's
 * code): the layer oracle's scratch-buffer walk against the per-column list walk of formulas.md
 * #124–#126, the table form of the step-ban rule against the rule as the spec states it,
 * nearestCell's outward row scan against a row-major scan, and a reused SpanAstar (run stamps)
 * against fresh ones.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { kClimb, kCS, kSlope, kStepUp } from "../src/grid/constants.ts";
import { type SpanGrid, spanGridFromColumns, spanRange } from "../src/grid/span_grid.ts";
import { layerReaches, layerWalk } from "../src/plan/route/visibility/layer_oracle.ts";
import {
  DX,
  DY,
  SpanSearch,
  stepBanned,
  stepBannedK,
} from "../src/plan/route/search/span_astar.ts";
import type { WindowGrid } from "../src/plan/window/build_window.ts";
import { nearestCell } from "../src/plan/route/anchors.ts";

/** formulas.md #124–#126, written as plainly as possible: one list of heights per column. */
function refLayerWalk(
  g: SpanGrid,
  cells: number[],
  h: number[],
  drop: boolean,
): number[] | null {
  let cur = h.map((v) => Math.fround(v));
  let prev: [number, number] | null = null, last: [number, number] | null = null;
  for (let k = 0; k < cells.length; k += 2) {
    const x = cells[k], y = cells[k + 1];
    if (last && last[0] === x && last[1] === y) continue;
    last = [x, y];
    if (x < 0 || y < 0 || x >= g.nx || y >= g.ny) continue;
    if (!prev) {
      prev = [x, y];
      continue;
    }
    const [a, b] = spanRange(g, y * g.nx + x);
    if (a === b) continue;
    const w = Math.sqrt((x - prev[0]) ** 2 + (y - prev[1]) ** 2);
    const up = Math.max(kStepUp, kSlope * w * kCS) + 1; // + kQH
    const kept: number[] = [];
    for (let s = a; s < b; s++) {
      const t = g.h[s];
      if (cur.some((c) => Math.fround(t - c) <= up && (drop || Math.fround(t - c) >= -kClimb))) {
        kept.push(t);
      }
    }
    if (kept.length === 0) return null;
    cur = kept;
    prev = [x, y];
  }
  return cur;
}

Deno.test("layer oracle: the scratch-buffer walk equals the per-column list walk on random stacks", () => {
  const rnd = mulberry32(124);
  let kept = 0, cut = 0;
  for (let trial = 0; trial < 400; trial++) {
    const nx = 12, ny = 3;
    const cols: number[][] = [];
    for (let c = 0; c < nx * ny; c++) {
      const n = Math.floor(rnd() * 4); // 0..3 spans (empty columns included)
      const hs: number[] = [];
      let h = 8 + rnd() * 3;
      for (let i = 0; i < n; i++) hs.push(Math.fround(h)), (h += 0.3 + rnd() * 2.5);
      cols.push(hs);
    }
    const g = spanGridFromColumns(nx, ny, cols);
    const cells: number[] = [];
    let x = Math.floor(rnd() * 3) - 1, y = Math.floor(rnd() * ny);
    for (let k = 0; k < 10; k++) {
      cells.push(x, y);
      if (rnd() < 0.2) cells.push(x, y); // a repeated cell is skipped
      x += 1;
      y = Math.min(ny, Math.max(-1, y + Math.floor(rnd() * 3) - 1)); // may leave the window
    }
    const h = rnd() < 0.5 ? [8 + rnd() * 4] : [8 + rnd() * 2, 10 + rnd() * 3];
    const drop = rnd() < 0.3;
    const want = refLayerWalk(g, cells, h, drop);
    const got = layerWalk(g, cells, h.length === 1 ? h[0] : h, drop);
    assertEquals(got, want, `trial ${trial}`);
    // The prefix form reads only cells[0 .. len).
    const len = 2 * Math.floor(rnd() * (cells.length / 2));
    assertEquals(layerWalk(g, cells, h, drop, len), refLayerWalk(g, cells.slice(0, len), h, drop));
    if (want) kept++;
    else cut++;
    if (!drop && h.length === 1) {
      const hq = want && rnd() < 0.7 ? want[Math.floor(rnd() * want.length)] : 9 + rnd() * 4;
      const reach = want !== null && want.some((v) => Math.abs(Math.fround(v - hq)) <= 1e-3);
      assertEquals(layerReaches(g, cells, cells.length, h[0], hq), reach, `reaches ${trial}`);
    }
  }
  assert(kept > 50 && cut > 50, `both outcomes exercised (${kept} kept, ${cut} cut)`);
});

Deno.test("step bans: the per-neighbour table reads the same bit as the direction rule", () => {
  // The rule (spec 立面禁步): direction d of (1,0), (0,1), (1,1), (1,−1) lives on the cell the
  // step starts from, bit 2d forward, bit 2d+1 for the reverse step into that cell.
  const dirs = [[1, 0], [0, 1], [1, 1], [1, -1]];
  for (let bits = 0; bits < 256; bits++) {
    for (let k = 0; k < 8; k++) {
      const steps = new Uint8Array(2);
      for (const on of [0, 1]) {
        steps[on] = bits;
        steps[1 - on] = 0;
        const f = dirs.findIndex(([x, y]) => x === DX[k] && y === DY[k]);
        const r = dirs.findIndex(([x, y]) => x === -DX[k] && y === -DY[k]);
        const want = f >= 0 ? on === 0 && ((bits >> (2 * f)) & 1) === 1 : on === 1 &&
          ((bits >> (2 * r + 1)) & 1) === 1;
        assertEquals(stepBannedK(steps, 0, 1, k), want, `bits ${bits} k ${k} on ${on}`);
        assertEquals(stepBanned(steps, 0, 1, DX[k], DY[k]), want);
      }
    }
  }
});

Deno.test("nearestCell: the outward row scan picks what a full row-major scan picks", () => {
  const rnd = mulberry32(531);
  for (let trial = 0; trial < 500; trial++) {
    const nx = 1 + Math.floor(rnd() * 20), ny = 1 + Math.floor(rnd() * 20);
    const density = [0, 0.002, 0.05, 0.5][trial % 4];
    const mask = new Uint8Array(nx * ny).map(() => (rnd() < density ? 1 : 0));
    // Integer points (the anchors are cells), sometimes outside the window.
    const p: [number, number] = [
      Math.floor(rnd() * (nx + 8)) - 4,
      Math.floor(rnd() * (ny + 8)) - 4,
    ];
    let best = -1, bd = Infinity;
    for (let c = 0; c < nx * ny; c++) {
      if (!mask[c]) continue;
      const d = (c % nx - p[0]) ** 2 + (Math.floor(c / nx) - p[1]) ** 2;
      if (d < bd) (bd = d), (best = c);
    }
    const got = nearestCell(mask, nx, ny, p);
    assertEquals(got?.cell ?? -1, best, `trial ${trial}: ${nx}×${ny} p ${p}`);
    if (got) assertEquals(got.dist, Math.sqrt(bd) * kCS);
  }
});

Deno.test("SpanAstar: one search object reused for 400 runs (its epoch wraps) answers as fresh ones", () => {
  // A synthetic window: random walls, a little terrain (some steps too steep), a few links.
  const rnd = mulberry32(6214);
  const nx = 24, ny = 18, n = nx * ny;
  const cols: number[][] = [];
  for (let c = 0; c < n; c++) cols.push(rnd() < 0.2 ? [] : [Math.fround(rnd() * 0.6)]);
  const spans = spanGridFromColumns(nx, ny, cols);
  const nsp = spans.h.length;
  const from = [3, 40, 77].map((s) => s % nsp), to = [nsp - 5, 9, 120].map((s) => s % nsp);
  const win = {
    nx,
    ny,
    x0: 0,
    y0: 0,
    spans,
    steps: new Uint8Array(n).map(() => (rnd() < 0.05 ? 1 << Math.floor(rnd() * 8) : 0)),
    links: {
      n: from.length,
      fromSpan: Int32Array.from(from),
      toSpan: Int32Array.from(to),
      cost: Float64Array.from(from.map(() => 3 + rnd() * 4)),
    },
  } as unknown as WindowGrid;
  // A wall down the middle with one door, closed on every third run (links still cross it).
  const open = new Uint8Array(n).fill(1), shut = new Uint8Array(n).fill(1);
  for (let y = 0; y < ny; y++) (open[y * nx + 12] = y === 9 ? 1 : 0), (shut[y * nx + 12] = 0);
  const usable = new Uint8Array(nsp).fill(1);
  const price = Float32Array.from({ length: n }, () => Math.fround(1 + rnd()));
  const reused = new SpanSearch(win);
  let found = 0;
  for (let run = 0; run < 400; run++) {
    const start = Math.floor(rnd() * nsp), goalSpan = Math.floor(rnd() * nsp);
    const goal = new Uint8Array(nsp);
    goal[goalSpan] = 1;
    const o = {
      mask: run % 3 ? open : shut,
      usable,
      price: run % 2 ? price : null,
      start,
      goal,
      goalCell: spans.cell[goalSpan],
    };
    const a = reused.run(o), b = new SpanSearch(win).run(o);
    assertEquals(a, b, `run ${run}`);
    // The router's form: only the goal's range of spans, from goalFirst (same search).
    const c = reused.run({ ...o, goal: Uint8Array.of(0, 1), goalFirst: goalSpan - 1 });
    assertEquals(c, a, `run ${run}, goal from goalFirst`);
    if (a) found++;
  }
  assert(found > 100 && found < 400, `some runs reach the goal and some do not (${found})`);
});
