/**
 * The reference build's waypoint sampling rule (formulas.md #138 "Ref differs"; profile switch
 * `waypointSampleGeometry` off, src/zone_mesh/drive_index.ts), against a brute force written from the
 * text of #138 alone:
 *
 * - each triangle registered in every 4-px bin its planar bounding box touches
 *   (`floor(min/4) … floor(max/4)` in x and y);
 * - a sample's candidates: the triangles of every bin touched by `[x−1, x+1] × [y−1, y+1]`,
 *   concatenated bin by bin (bin x outer, bin y inner, each bin ascending), with repeats;
 * - containment: `d_k = (p−b)×(a−b)` over the edges (0,1), (1,2), (2,0); inside unless some
 *   `d_k < −1e-5` and some `d_k > 1e-5`; no box test;
 * - the height is the triangle's mean vertex height; with a previous height the nearest, else the
 *   lowest; the first candidate wins every tie (strict `<`);
 * - a sample inside the triangle the previous sample chose keeps the previous height;
 * - samples `n = max(1, trunc(L/0.5))` intervals at `t = i/n`, fail when none contains a sample
 *   or `|h − h_prev| > 3`; side lines at `±w·(−u_y, u_x)` trimmed by `min(w, L/2)`, checked when
 *   `w > 0` and L is not ≈ 0, started from the same seed as the centre line.
 *
 * Random meshes: stacked decks (two at the same height, so equal means tie), vertical wall faces
 * (degenerate in plan) and near-degenerate slivers, seeds midway between two decks (distance
 * ties), samples on lattice points (shared vertices and edges) and on bin boundaries. Checked
 * sample by sample (the chosen triangle), then line by line (`routeSegmentDrivable`) and route by
 * route (`pullWaypoints`); the cases are asserted to include walls picked outside their box, ties
 * decided by bin order against triangle order, and lines where the spec's geometric rule answers
 * differently.
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { QUICK } from "./tiers.ts";
import { buildRefDriveIndex, refSampleTriangle } from "../src/zone_mesh/drive_index.ts";
import { buildDriveBuckets } from "../src/zone_mesh/snap.ts";
import { pullWaypoints, routeSegmentDrivable } from "../src/plan/route/post/waypoints.ts";
import type { ZoneClean } from "../src/zone_mesh/zone_clean.ts";
import type { Visibility } from "../src/plan/route/visibility/visibility.ts";

type P = [number, number];
const BIN = 4; // kIndexBinSize
const R = 1; // kSegmentWalkSnapRadius
const EPS = 1e-5;
const CLIMB = 3; // kClimb, m
const EDGES = [[0, 1], [1, 2], [2, 0]];

/** A brute-force mesh: f32 vertices as the pack stores them, triangles, and the 4-px bins. */
class Brute {
  readonly v: Float32Array;
  readonly bins = new Map<string, number[]>();
  readonly tri: number[][][];
  constructor(v: number[], readonly t: number[]) {
    this.v = new Float32Array(v);
    this.tri = Array.from(
      { length: t.length / 3 },
      (_, i) =>
        [0, 1, 2].map((k) => Array.from(this.v.subarray(3 * t[3 * i + k], 3 * t[3 * i + k] + 3))),
    );
    for (let i = 0; i < t.length / 3; i++) {
      const xs = this.corners(i).map((c) => c[0]), ys = this.corners(i).map((c) => c[1]);
      for (
        let bx = Math.floor(Math.min(...xs) / BIN);
        bx <= Math.floor(Math.max(...xs) / BIN);
        bx++
      ) {
        for (
          let by = Math.floor(Math.min(...ys) / BIN);
          by <= Math.floor(Math.max(...ys) / BIN);
          by++
        ) {
          const k = `${bx},${by}`;
          if (!this.bins.has(k)) this.bins.set(k, []);
          this.bins.get(k)!.push(i);
        }
      }
    }
  }
  corners(i: number): number[][] {
    return [0, 1, 2].map((k) =>
      Array.from(this.v.subarray(3 * this.t[3 * i + k], 3 * this.t[3 * i + k] + 3))
    );
  }
  mean(i: number): number {
    const c = this.corners(i);
    return (c[0][2] + c[1][2] + c[2][2]) / 3;
  }
  contains(i: number, x: number, y: number): boolean {
    const c = this.corners(i);
    let neg = false, pos = false;
    for (const [j, k] of EDGES) {
      const a = c[j], b = c[k];
      const d = (x - b[0]) * (a[1] - b[1]) - (y - b[1]) * (a[0] - b[0]);
      neg ||= d < -EPS;
      pos ||= d > EPS;
    }
    return !(neg && pos);
  }
  /** The candidate list of #138, repeats included, before the containment filter. */
  candidates(x: number, y: number): number[] {
    const out: number[] = [];
    for (let bx = Math.floor((x - R) / BIN); bx <= Math.floor((x + R) / BIN); bx++) {
      for (let by = Math.floor((y - R) / BIN); by <= Math.floor((y + R) / BIN); by++) {
        out.push(...(this.bins.get(`${bx},${by}`) ?? []));
      }
    }
    return out;
  }
  /** The triangle a sample takes (−1: none contains it). */
  pick(x: number, y: number, prev: number | null): number {
    let best = -1, bd = Infinity;
    for (const i of this.candidates(x, y)) {
      if (!this.contains(i, x, y)) continue;
      const d = prev === null ? this.mean(i) : Math.abs(this.mean(i) - prev);
      if (d < bd) (best = i), (bd = d);
    }
    return best;
  }
  /** One sampled line; `seen` gets every searched sample with its prev and pick. */
  line(a: P, b: P, seed: number | null, seen: [number, number, number | null, number][]): boolean {
    const L = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const n = Math.max(1, Math.trunc(L / 0.5));
    let prev = seed, tri = -1;
    for (let i = 0; i <= n; i++) {
      const x = a[0] + (b[0] - a[0]) * (i / n), y = a[1] + (b[1] - a[1]) * (i / n);
      if (tri >= 0 && this.contains(tri, x, y)) continue;
      tri = this.pick(x, y, prev);
      seen.push([x, y, prev, tri]);
      if (tri < 0) return false;
      const h = this.mean(tri);
      if (prev !== null && Math.abs(h - prev) > CLIMB) return false;
      prev = h;
    }
    return true;
  }
  /** isRouteSegmentDrivable: centre line, then the two side lines from the same seed. */
  segment(
    a: P,
    b: P,
    w: number,
    seed: number | null,
    seen: [number, number, number | null, number][],
  ) {
    if (!this.line(a, b, seed, seen)) return false;
    const L = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (!(w > 0) || L < 1e-9) return true;
    const ux = (b[0] - a[0]) / L, uy = (b[1] - a[1]) / L, r = Math.min(w, L / 2);
    for (const s of [1, -1]) {
      const ox = -uy * w * s, oy = ux * w * s;
      const p: P = [a[0] + ux * r + ox, a[1] + uy * r + oy];
      const q: P = [b[0] - ux * r + ox, b[1] - uy * r + oy];
      if (!this.line(p, q, seed, seen)) return false;
    }
    return true;
  }
}

/** A random mesh: decks of squares (random diagonals, holes), wall faces, slivers. */
function randomMesh(rnd: () => number) {
  const v: number[] = [], t: number[] = [];
  const W = 20, H = 14;
  const q = (x: number) => Math.round(x * 4) / 4; // the 0.25 lattice of the real data
  const decks: number[] = [];
  const nd = 2 + Math.floor(rnd() * 2);
  for (let d = 0; d < nd; d++) {
    // Deck 1 shares deck 0's height half the time: equal means, ties on every seed.
    const z = d === 1 && rnd() < 0.5 ? decks[0] : q(rnd() * 10 - 2);
    decks.push(z);
    const s = rnd() < 0.5 ? 1 : 2, ox = q(rnd() * 3), oy = q(rnd() * 3);
    const tilt = rnd() < 0.3 ? (rnd() - 0.5) * 0.5 : 0;
    for (let y = oy; y + s <= H; y += s) {
      for (let x = ox; x + s <= W; x += s) {
        if (rnd() < 0.2) continue;
        const b = v.length / 3, zz = (px: number) => z + tilt * px;
        v.push(x, y, zz(x), x + s, y, zz(x + s), x + s, y + s, zz(x + s), x, y + s, zz(x));
        if (rnd() < 0.5) t.push(b, b + 1, b + 2, b, b + 2, b + 3);
        else t.push(b, b + 1, b + 3, b + 1, b + 2, b + 3);
      }
    }
  }
  // Wall faces: vertical quads along lattice lines, degenerate in plan; some have a deck's mean.
  for (let k = 0; k < 10; k++) {
    const x0 = q(rnd() * W), y0 = q(rnd() * H), len = 1 + Math.floor(rnd() * 6);
    const dir = Math.floor(rnd() * 3);
    const x1 = dir === 1 ? x0 : x0 + len, y1 = dir === 0 ? y0 : y0 + (dir === 2 ? len : len);
    const lo = decks[Math.floor(rnd() * nd)], hi = lo + 1 + Math.floor(rnd() * 6);
    const b = v.length / 3;
    v.push(x0, y0, lo, x1, y1, lo, x1, y1, hi, x0, y0, hi);
    t.push(b, b + 1, b + 2, b, b + 2, b + 3);
  }
  // Slivers: nearly degenerate in plan (the apex 1e-6 px off the base line).
  for (let k = 0; k < 4; k++) {
    const x0 = q(rnd() * W), y0 = q(rnd() * H), len = 1 + Math.floor(rnd() * 4);
    const b = v.length / 3, z = decks[Math.floor(rnd() * nd)] + q(rnd() * 2);
    v.push(x0, y0, z, x0 + len, y0, z, x0 + len / 2, y0 + 1e-6, z + 1);
    t.push(b, b + 1, b + 2);
  }
  return { v, t, decks, W, H };
}

function zoneOf(v: number[], t: number[]): ZoneClean {
  return {
    vertices: new Float32Array(v),
    tris: new Uint32Array(t),
    walkable: new Uint8Array(t.length / 3).fill(1),
    triCount: t.length / 3,
  } as unknown as ZoneClean;
}

Deno.test("waypoints, reference sampling (formulas.md #138): sample by sample, line by line and route by route as the brute force from its text", () => {
  const rnd = mulberry32(138);
  const view = { ok: () => true } as unknown as Visibility;
  let samples = 0, wallOutside = 0, binOrderTies = 0, lines = 0, specDiffers = 0, routes = 0;
  // Random meshes: 20, or 10 in the quick tier (tests/tiers.ts), enough for the counts below.
  for (let trial = 0; trial < (QUICK ? 10 : 20); trial++) {
    const { v, t, decks, W, H } = randomMesh(rnd);
    const brute = new Brute(v, t);
    const zc = zoneOf(v, t);
    const idx = buildRefDriveIndex(zc);
    const mRef = { mesh: zc, buckets: buildDriveBuckets(zc), ref: idx };
    const mSpec = { mesh: zc, buckets: mRef.buckets };
    const q = (x: number) => Math.round(x * 4) / 4;
    const seeds = () => {
      const a = decks[Math.floor(rnd() * decks.length)],
        b = decks[Math.floor(rnd() * decks.length)];
      const r = rnd();
      return r < 0.2 ? null : r < 0.5 ? (a + b) / 2 : r < 0.8 ? a : a + (rnd() - 0.5) * 4;
    };
    // Single samples: lattice points (vertices, edges), bin boundaries ±1, random points.
    for (let k = 0; k < 150; k++) {
      const r = rnd();
      const x = r < 0.3
        ? BIN * Math.floor(rnd() * 6) + (rnd() < 0.5 ? 1 : -1)
        : r < 0.7
        ? q(rnd() * W)
        : rnd() * W;
      const y = rnd() < 0.6 ? q(rnd() * H) : rnd() * H;
      const prev = seeds();
      const want = brute.pick(x, y, prev);
      assertEquals(
        refSampleTriangle(zc, idx, x, y, prev),
        want,
        `trial ${trial} (${x}, ${y}) ${prev}`,
      );
      samples++;
      if (want >= 0) {
        const xs = brute.corners(want).map((c) => c[0]), ys = brute.corners(want).map((c) => c[1]);
        const out = x < Math.min(...xs) - 1e-3 || x > Math.max(...xs) + 1e-3 ||
          y < Math.min(...ys) - 1e-3 || y > Math.max(...ys) + 1e-3;
        if (out) wallOutside++;
        // A tie the bin order decides against the triangle order.
        let lowest = -1, bd = Infinity;
        for (const i of [...new Set(brute.candidates(x, y))].sort((a, b) => a - b)) {
          if (!brute.contains(i, x, y)) continue;
          const d = prev === null ? brute.mean(i) : Math.abs(brute.mean(i) - prev);
          if (d < bd) (lowest = i), (bd = d);
        }
        if (lowest !== want) binOrderTies++;
      }
    }
    // Lines and routes: lattice endpoints, often along a wall's or a deck edge's line.
    for (let k = 0; k < 15; k++) {
      const pts: P[] = [];
      let x = q(rnd() * 4), y = q(rnd() * H);
      while (x < W - 1 && pts.length < 8) {
        pts.push([x, y]);
        x = q(x + 0.5 + rnd() * 4);
        if (rnd() < 0.5) y = q(Math.min(H, Math.max(0, y + (rnd() - 0.5) * 4)));
      }
      if (pts.length < 2) continue;
      const clr = pts.map(() => (rnd() < 0.3 ? 0 : q(rnd() * 2)));
      const seed = seeds();
      for (let j = 1; j < pts.length; j++) {
        const w = j > 1 ? Math.min(...clr.slice(1, j)) : 0;
        const seen: [number, number, number | null, number][] = [];
        const want = brute.segment(pts[0], pts[j], w, seed, seen);
        for (const [sx, sy, sp, st] of seen) {
          assertEquals(refSampleTriangle(zc, idx, sx, sy, sp), st, `trial ${trial} line sample`);
          samples++;
        }
        assertEquals(routeSegmentDrivable(mRef, pts[0], pts[j], w, seed), want, `trial ${trial}`);
        if (routeSegmentDrivable(mSpec, pts[0], pts[j], w, seed) !== want) specDiffers++;
        lines++;
      }
      // Route by route: the greedy of 路点 step 2 over the brute force's chord test.
      const hs = seed === null ? null : pts.map(() => seed);
      const wantWp: number[] = [];
      for (let c = 0; c < pts.length - 1;) {
        let j = c;
        for (let e = c + 1; e < pts.length; e++) {
          const w = e - 1 > c ? Math.min(...clr.slice(c + 1, e)) : 0;
          if (!brute.segment(pts[c], pts[e], w, hs ? hs[c] : null, [])) break;
          j = e;
        }
        if (j === c) j = c + 1;
        wantWp.push(j);
        c = j;
      }
      assertEquals(pullWaypoints(mRef, pts, clr, hs, view, [], false), wantWp, `trial ${trial}`);
      routes++;
    }
  }
  console.log(
    `  ${samples} samples, ${lines} lines, ${routes} routes; picked outside their box (walls, ` +
      `slivers) ${wallOutside}, ties decided by bin order ${binOrderTies}, lines where the ` +
      `geometric rule differs ${specDiffers}`,
  );
  assert(wallOutside >= 10, `walls picked outside their box: ${wallOutside}`);
  assert(binOrderTies >= 10, `ties decided by bin order: ${binOrderTies}`);
  assert(specDiffers >= 3, `lines where the geometric rule differs: ${specDiffers}`);
});
