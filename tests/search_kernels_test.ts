/**
 * The search speed-ups against the plain formulas they replace (docs/search_speed.md): the
 * integer digital line against walkDigitalLine's rint formula, the row-wise column ranks against
 * occIndex, and the access search's bucket queue against a plain (cost, bottleneck, cell)
 * Dijkstra with the same relaxation rule — same path, same cost, same pop count (also where
 * equal-key relaxations, counted as copies on the queued entry, are the rule).
 */
import { assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { digitalLineInto, digitalLineMin, walkDigitalLine } from "../src/grid/digital_line.ts";
import { occIndex, occRankOf, occupiedBit, spanGridFromSorted } from "../src/grid/span_grid.ts";
import { AccessSearch } from "../src/plan/route/search/access.ts";
import { emptyCounters } from "../src/plan/counters.ts";

Deno.test("digitalLineInto: the cells of walkDigitalLine's rint formula, ties and signs included", () => {
  const out = new Int32Array(2 * 64);
  let lines = 0;
  for (let ax = -2; ax <= 2; ax++) {
    for (let ay = -2; ay <= 2; ay++) {
      for (let bx = -30; bx <= 30; bx++) {
        for (let by = -30; by <= 30; by++) {
          const len = digitalLineInto(out, ax, ay, bx, by);
          const want: number[] = [];
          walkDigitalLine(ax, ay, bx, by, (x, y) => void want.push(x, y));
          assertEquals(len, want.length / 2);
          for (let i = 0; i < want.length; i++) {
            if (out[i] !== want[i]) {
              throw new Error(`(${ax},${ay})→(${bx},${by}) entry ${i}: ${out[i]} ≠ ${want[i]}`);
            }
          }
          lines++;
        }
      }
    }
  }
  assertEquals(lines, 25 * 61 * 61);
});

Deno.test("digitalLineMin: the smallest field value over walkDigitalLine's cells inside the grid", () => {
  const rnd = mulberry32(31);
  const nx = 23, ny = 17;
  const field = Float32Array.from({ length: nx * ny }, () => Math.floor(rnd() * 1000) / 8);
  let lines = 0, outside = 0;
  for (let t = 0; t < 20000; t++) {
    const p = () => Math.floor(rnd() * 40) - 8;
    const ax = p(), ay = p(), bx = p(), by = p();
    let want = Infinity;
    walkDigitalLine(ax, ay, bx, by, (x, y) => {
      if (x >= 0 && y >= 0 && x < nx && y < ny) want = Math.min(want, field[y * nx + x]);
    });
    const got = digitalLineMin(field, nx, ny, ax, ay, bx, by);
    if (got !== want) throw new Error(`(${ax},${ay})→(${bx},${by}): ${got} ≠ ${want}`);
    lines++;
    if (want === Infinity) outside++;
  }
  assertEquals(lines, 20000);
  assertEquals(outside > 0 && outside < 20000, true);
});

Deno.test("occRankOf / occupiedBit: rank(c + 1) = rank(c) + occupied(c), and rank = occIndex where occupied", () => {
  const rnd = mulberry32(30);
  for (let t = 0; t < 60; t++) {
    const nx = 1 + Math.floor(rnd() * 140), ny = 1 + Math.floor(rnd() * 20), p = rnd();
    const cells: number[] = [];
    for (let c = 0; c < nx * ny; c++) {
      if (rnd() < p) cells.push(c);
    }
    const g = spanGridFromSorted(nx, ny, Int32Array.from(cells), new Float32Array(cells.length));
    for (let c = 0; c < nx * ny; c++) {
      const j = occIndex(g, c);
      assertEquals(occupiedBit(g, c), j >= 0 ? 1 : 0);
      if (j >= 0) assertEquals(occRankOf(g, c), j);
      if (c + 1 < nx * ny) assertEquals(occRankOf(g, c + 1), occRankOf(g, c) + occupiedBit(g, c));
    }
  }
});

const DX = [1, 0, -1, 0, 1, -1, -1, 1];
const DY = [0, 1, 0, -1, 1, 1, -1, -1];

/** The access search's rule with a linear-scan queue: pop the least (cost, −bottleneck, cell). */
function plainAccess(
  nx: number,
  ny: number,
  mask: Uint8Array,
  dist: Float32Array,
  target: Uint8Array,
  start: number,
  maxCost: number,
): { kind: string; cells?: number[]; cost?: number; pops: number; copies: number } {
  if (target[start]) return { kind: "inside", pops: 0, copies: 0 };
  const n = nx * ny, cost = new Int32Array(n).fill(0x7fffffff);
  const bott = new Float32Array(n), pred = new Int32Array(n).fill(-1);
  cost[start] = 0;
  bott[start] = dist[start];
  const q: [number, number, number][] = [[0, bott[start], start]];
  // Pushes that only lower the predecessor: the same key as the cell's queued entry.
  let pops = 0, copies = 0;
  while (q.length > 0) {
    let m = 0;
    for (let i = 1; i < q.length; i++) {
      const [c, b, id] = q[i], [C, B, I] = q[m];
      if (c < C || (c === C && (b > B || (b === B && id < I)))) m = i;
    }
    const [kc, kb, c] = q.splice(m, 1)[0];
    pops++;
    if (kc !== cost[c] || kb !== bott[c]) continue;
    if (target[c]) {
      // The path ends before the reached channel cell (端点接入: an anchor already in the
      // channel has an empty path; the channel cell is in the route mask already).
      const cells: number[] = [];
      for (let k = pred[c]; k >= 0; k = pred[k]) cells.unshift(k);
      return { kind: "path", cells, cost: cost[c], pops, copies };
    }
    if (cost[c] >= maxCost) break;
    const x = c % nx, y = (c / nx) | 0;
    for (let d = 0; d < 8; d++) {
      const bx = x + DX[d], by = y + DY[d];
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const b = by * nx + bx;
      if (!mask[b]) continue;
      const nc = cost[c] + (d < 4 ? 100 : 141), nb = Math.min(bott[c], dist[b]);
      if (
        nc < cost[b] || (nc === cost[b] && (nb > bott[b] || (nb === bott[b] && c < pred[b])))
      ) {
        if (nc === cost[b] && nb === bott[b]) copies++;
        cost[b] = nc;
        bott[b] = nb;
        pred[b] = c;
        q.push([nc, bott[b], b]);
      }
    }
  }
  return { kind: "none", pops, copies };
}

/**
 * Three AccessSearch runs on one grid (random starts, a cost limit in 3 of 10) against
 * {@link plainAccess}: the same outcome, path, cost and pop count. Returns the outcomes and the
 * plain search's equal-key copies.
 */
function runsAgainstPlain(
  rnd: () => number,
  grid: { nx: number; ny: number; mask: Uint8Array; dist: Float32Array; target: Uint8Array },
  maxSteps: number,
): { kinds: string[]; copies: number } {
  const { nx, ny, mask, dist, target } = grid, n = nx * ny;
  const counters = emptyCounters();
  const s = new AccessSearch(nx, ny, counters);
  const kinds: string[] = [];
  let copies = 0;
  for (let r = 0; r < 3; r++) {
    const start = Math.floor(rnd() * n);
    const maxCost = rnd() < 0.3 ? 100 * Math.floor(rnd() * maxSteps) : Infinity;
    const before = counters["topology.access_pops"];
    const got = s.run(mask, dist, target, start, maxCost);
    const want = plainAccess(nx, ny, mask, dist, target, start, maxCost);
    assertEquals(got.kind, want.kind);
    if (got.kind === "path") {
      assertEquals([...got.cells], want.cells);
      assertEquals(got.cost, want.cost);
    }
    assertEquals(counters["topology.access_pops"] - before, want.pops);
    kinds.push(got.kind);
    copies += want.copies;
  }
  return { kinds, copies };
}

Deno.test("AccessSearch (bucket queue): the plain Dijkstra's path, cost and pop count", () => {
  const rnd = mulberry32(6);
  let paths = 0, nones = 0;
  for (let t = 0; t < 150; t++) {
    const nx = 3 + Math.floor(rnd() * 22), ny = 3 + Math.floor(rnd() * 22), n = nx * ny;
    const mask = new Uint8Array(n), dist = new Float32Array(n), target = new Uint8Array(n);
    // Coarse clearances make equal bottlenecks (the cell tie-break) common.
    const pm = 0.55 + rnd() * 0.45, pt = rnd() < 0.3 ? 0 : rnd() * 0.03, coarse = rnd() < 0.5;
    for (let c = 0; c < n; c++) {
      mask[c] = rnd() < pm ? 1 : 0;
      dist[c] = coarse ? Math.floor(rnd() * 4) * 0.25 : rnd() * 3;
      target[c] = rnd() < pt ? 1 : 0;
    }
    for (const k of runsAgainstPlain(rnd, { nx, ny, mask, dist, target }, 12).kinds) {
      if (k === "path") paths++;
      else if (k === "none") nones++;
    }
  }
  // Both outcomes were exercised.
  if (paths < 50 || nones < 50) throw new Error(`paths ${paths}, nones ${nones}`);
});

Deno.test("AccessSearch: equal-key relaxations (a smaller predecessor only) keep the plain pops and paths", () => {
  // Flat clearances on open grids: most cells are reached twice at the same (cost, bottleneck),
  // and the search counts those copies on the queued entry instead of queuing them.
  const rnd = mulberry32(11);
  let copies = 0, runs = 0;
  for (let t = 0; t < 40; t++) {
    const nx = 8 + Math.floor(rnd() * 30), ny = 8 + Math.floor(rnd() * 30), n = nx * ny;
    const mask = new Uint8Array(n), dist = new Float32Array(n), target = new Uint8Array(n);
    const levels = 1 + Math.floor(rnd() * 2);
    for (let c = 0; c < n; c++) {
      mask[c] = rnd() < 0.9 ? 1 : 0;
      dist[c] = 0.5 + Math.floor(rnd() * levels) * 0.25;
      target[c] = rnd() < 0.004 ? 1 : 0;
    }
    copies += runsAgainstPlain(rnd, { nx, ny, mask, dist, target }, 20).copies;
    runs += 3;
  }
  // The copies were exercised, many per run.
  if (copies < 20 * runs) throw new Error(`${copies} copies over ${runs} runs`);
});
