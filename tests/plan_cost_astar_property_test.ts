/**
 * CostAstar (spec 两段搜索 › 格级回退) against a brute-force Dijkstra written here from the spec
 * text: 8 neighbours, straight steps 1 and diagonals √2 (float32, as the planner's constant), no
 * corner cutting (both orthogonal cells in the mask), links that need only their target cell in
 * the mask. On random masks with random links (no cheaper than their length): found exactly when a path exists, the returned
 * cost is the optimum, and the returned cell path is a chain of legal moves from start to goal
 * whose costs add up to it — the path is rebuilt from the one-byte parent codes (issue 36), so a
 * wrong direction or a lost link parent breaks the chain.
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { costAstar } from "../src/plan/route/search/cost_astar.ts";
import type { WindowGrid } from "../src/plan/window/window_grid.ts";

const DIAG = Math.fround(Math.fround(Math.SQRT2 * 0.5) * Math.fround(2));

/** The legal moves out of cell c with their costs. */
function moves(
  mask: Uint8Array,
  nx: number,
  ny: number,
  links: Array<[number, number, number]>,
  c: number,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const x = c % nx, y = Math.floor(c / nx);
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      const bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny || !mask[by * nx + bx]) continue;
      if (dx && dy && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      out.push([by * nx + bx, dx && dy ? DIAG : 1]);
    }
  }
  for (const [a, b, cost] of links) if (a === c && mask[b]) out.push([b, cost]);
  return out;
}

/** Shortest cost from s to every cell (O(n²) Dijkstra, no heap). */
function dijkstra(
  mask: Uint8Array,
  nx: number,
  ny: number,
  links: Array<[number, number, number]>,
  s: number,
): Float64Array {
  const n = nx * ny, d = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  d[s] = 0;
  for (;;) {
    let c = -1;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] < Infinity && (c < 0 || d[i] < d[c])) c = i;
    if (c < 0) return d;
    done[c] = 1;
    for (const [b, w] of moves(mask, nx, ny, links, c)) d[b] = Math.min(d[b], d[c] + w);
  }
}

Deno.test("CostAstar: optimal cost and a legal path rebuilt from its parent codes, against Dijkstra", () => {
  const rnd = mulberry32(36);
  let found = 0, viaLinks = 0;
  for (let trial = 0; trial < 300; trial++) {
    const nx = 6 + Math.floor(rnd() * 14), ny = 6 + Math.floor(rnd() * 14), n = nx * ny;
    const mask = new Uint8Array(n).map(() => (rnd() < 0.68 ? 1 : 0));
    const open = [...mask.keys()].filter((c) => mask[c]);
    if (open.length < 2) continue;
    const pick = () => open[Math.floor(rnd() * open.length)];
    const links: Array<[number, number, number]> = [];
    // Link costs at least the straight distance: the Euclidean heuristic stays consistent, so A*
    // with a closed set is exact and Dijkstra is the reference (a link cheaper than its length
    // can make A* settle a cell early, in the C++ build as here).
    for (let i = Math.floor(rnd() * 4); i > 0; i--) {
      const a = pick(), b = pick();
      const d = Math.sqrt((a % nx - b % nx) ** 2 + (Math.floor(a / nx) - Math.floor(b / nx)) ** 2);
      links.push([a, b, d + rnd() * 3]);
    }
    const start = pick(), goal = pick();
    // A stand-in window: one span per cell (span = cell), no step bans.
    const w = {
      nx,
      ny,
      steps: new Uint8Array(n),
      spans: { cell: Int32Array.from({ length: n }, (_, i) => i) },
      links: {
        n: links.length,
        fromSpan: Int32Array.from(links.map((l) => l[0])),
        toSpan: Int32Array.from(links.map((l) => l[1])),
        cost: Float64Array.from(links.map((l) => l[2])),
      },
    } as unknown as WindowGrid;
    const best = dijkstra(mask, nx, ny, links, start)[goal];
    const got = costAstar(w, mask, start, goal);
    assertEquals(got !== null, best < Infinity, `trial ${trial}: found`);
    if (!got) continue;
    found++;
    assert(Math.abs(got.cost - best) < 1e-9, `trial ${trial}: cost ${got.cost} vs ${best}`);
    const cells = [...got.cells];
    assertEquals([cells[0], cells[cells.length - 1]], [start, goal], `trial ${trial}: ends`);
    let sum = 0, linkUsed = false;
    for (let k = 1; k < cells.length; k++) {
      const m = moves(mask, nx, ny, links, cells[k - 1]).filter(([b]) => b === cells[k]);
      assert(m.length > 0, `trial ${trial}: step ${k} ${cells[k - 1]} → ${cells[k]} is no move`);
      // The cheapest move between the two cells (a link may join 8-neighbours too).
      const step = Math.min(...m.map(([, c]) => c));
      sum += step;
      if (links.some(([a, b, c]) => a === cells[k - 1] && b === cells[k] && c === step)) {
        linkUsed = true;
      }
    }
    assert(Math.abs(sum - got.cost) < 1e-9, `trial ${trial}: path sums to ${sum}, not ${got.cost}`);
    if (linkUsed) viaLinks++;
  }
  assert(found >= 150, `${found} found`);
  assert(viaLinks >= 10, `only ${viaLinks} paths use a link`);
});
