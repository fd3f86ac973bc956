/**
 * PullWaypoints anchored at the line heights (spec 后处理 › 路点 step 2: "起点高度取沿线推算的高度里
 * 当前路点那一个"), in both profiles: the cause of nav_test random2 rnd_070 (issue 39), where the
 * reference build keeps a waypoint that an unanchored walk drops.
 *
 * Property, on random two-deck meshes (a floor at 0 m and a deck 6 m above it, both with random
 * holes, so an unanchored walk takes the floor and an anchored one the deck): `pullWaypoints`
 * with line heights equals a brute-force greedy written from the spec text alone — every
 * triangle tested per sample (no buckets), the nearest height to the previous sample, steps ≤
 * kClimb, side lines at the smallest skipped clearance trimmed by min(w, L/2) — whether the
 * `anchored` switch is on (spec) or off (reference). The cases are checked to include ones where
 * the unanchored walk gives other waypoints, so the test covers the class beyond the one leg.
 *
 * Second property (dungeon random2 rnd_074, issue 39, both profiles): a sample stands on any
 * triangle of the zone mesh, walkable or not (路点 step 2 "区网格的三角形", formulas.md #138). On
 * random two-deck meshes whose deck squares are partly flagged unwalkable, `pullWaypoints` over
 * buckets of every triangle equals the brute force over every triangle, and the cases include
 * ones where a walk over the walkable triangles only would give other waypoints.
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { pullWaypoints, routeSegmentDrivable } from "../src/plan/route/post/waypoints.ts";
import { buildDriveBuckets } from "../src/zone_mesh/snap.ts";
import type { ZoneClean } from "../src/zone_mesh/zone_clean.ts";
import type { Visibility } from "../src/plan/route/visibility/visibility.ts";

type P = [number, number];
const CLIMB = 3; // spec 约定 kClimb (m)
const NX = 24, NY = 10, DECK = 6;

/** A mesh of unit squares (two triangles each) on two decks; `keep(deck, x, y)` picks squares. */
function twoDecks(keep: (d: number, x: number, y: number) => boolean) {
  const v: number[] = [], t: number[] = [];
  for (let d = 0; d < 2; d++) {
    for (let y = 0; y < NY; y++) {
      for (let x = 0; x < NX; x++) {
        if (!keep(d, x, y)) continue;
        const b = v.length / 3, z = d * DECK;
        v.push(x, y, z, x + 1, y, z, x + 1, y + 1, z, x, y + 1, z);
        t.push(b, b + 1, b + 2, b, b + 2, b + 3);
      }
    }
  }
  return { v, t };
}

/** Heights of every triangle containing (x, y): brute force over all triangles (or `only`). */
function heightsAt(
  v: number[],
  t: number[],
  x: number,
  y: number,
  only?: (tri: number) => boolean,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.length; i += 3) {
    if (only && !only(i / 3)) continue;
    const [a, b, c] = [3 * t[i], 3 * t[i + 1], 3 * t[i + 2]];
    const xs = [v[a], v[b], v[c]], ys = [v[a + 1], v[b + 1], v[c + 1]];
    // Axis-aligned right triangles: containment by the bounding box and the diagonal's side.
    const area = (px: number, py: number, j: number, k: number) =>
      (xs[k] - xs[j]) * (py - ys[j]) - (ys[k] - ys[j]) * (px - xs[j]);
    const s = [area(x, y, 0, 1), area(x, y, 1, 2), area(x, y, 2, 0)];
    if (s.every((q) => q >= -1e-9) || s.every((q) => q <= 1e-9)) out.push(v[a + 2]);
  }
  return out;
}

/** One sampled line from the spec text (≈ 0.5 px samples, on triangles, steps ≤ kClimb). */
function line(
  v: number[],
  t: number[],
  a: P,
  b: P,
  h0: number | null,
  only?: (tri: number) => boolean,
): boolean {
  const L = Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
  const n = Math.max(1, Math.trunc(L / 0.5));
  let prev = h0;
  for (let i = 0; i <= n; i++) {
    const hs = heightsAt(v, t, a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n, only);
    if (!hs.length) return false;
    const h = prev === null
      ? Math.min(...hs)
      : hs.reduce((m, q) => Math.abs(q - prev!) < Math.abs(m - prev!) ? q : m);
    if (prev !== null && Math.abs(h - prev) > CLIMB) return false;
    prev = h;
  }
  return true;
}

/** The greedy of 路点 step 2 with the chord test of the spec text. */
function bruteWaypoints(
  v: number[],
  t: number[],
  pts: P[],
  clr: number[],
  hs: number[] | null,
  only?: (tri: number) => boolean,
): number[] {
  const out: number[] = [];
  let c = 0;
  while (c < pts.length - 1) {
    let j = c;
    for (let k = c + 1; k < pts.length; k++) {
      const w = k - 1 > c ? Math.min(...clr.slice(c + 1, k)) : 0;
      const h0 = hs ? hs[c] : null;
      const [a, b] = [pts[c], pts[k]];
      let ok = line(v, t, a, b, h0, only);
      const L = Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2);
      if (ok && w > 0 && L >= 1e-9) {
        const ux = (b[0] - a[0]) / L, uy = (b[1] - a[1]) / L, r = Math.min(w, L / 2);
        for (const s of [1, -1]) {
          const ox = -uy * w * s, oy = ux * w * s;
          ok &&= line(
            v,
            t,
            [a[0] + ux * r + ox, a[1] + uy * r + oy],
            [
              b[0] - ux * r + ox,
              b[1] - uy * r + oy,
            ],
            h0,
            only,
          );
        }
      }
      if (!ok) break;
      j = k;
    }
    if (j === c) j = c + 1;
    out.push(j);
    c = j;
  }
  return out;
}

Deno.test("waypoints: anchored at the line heights in both profiles, as a brute force from the spec", () => {
  const rnd = mulberry32(39);
  const view = { ok: () => true } as unknown as Visibility;
  let cases = 0, anchorMatters = 0;
  for (let trial = 0; trial < 150; trial++) {
    const holes = new Set<string>();
    for (let i = 0; i < 30; i++) {
      holes.add(`${rnd() < 0.6 ? 0 : 1},${Math.floor(rnd() * NX)},${Math.floor(rnd() * NY)}`);
    }
    // The deck covers rows 2..7; the route walks its middle rows, which stay whole.
    const { v, t } = twoDecks((d, x, y) =>
      (d === 0 || (y >= 2 && y < 8)) && (d === 0 ? !holes.has(`0,${x},${y}`) : (
        y === 4 || y === 5 || !holes.has(`1,${x},${y}`)
      ))
    );
    const zc = {
      vertices: new Float32Array(v),
      tris: new Uint32Array(t),
      walkable: new Uint8Array(t.length / 3).fill(1),
      triCount: t.length / 3,
    } as unknown as ZoneClean;
    const m = { mesh: zc, buckets: buildDriveBuckets(zc) };
    const pts: P[] = [];
    let x = 0.5 + rnd() * 2;
    while (x < NX - 0.5) {
      pts.push([x, 4.2 + rnd() * 1.6]);
      x += 0.7 + rnd() * 2.5;
    }
    if (pts.length < 3) continue;
    const clr = pts.map(() => rnd() < 0.3 ? 0 : rnd() * 1.8);
    const hs = pts.map(() => DECK);
    for (const anchored of [true, false]) {
      const got = pullWaypoints(m, pts, clr, hs, view, [], anchored);
      assertEquals(got, bruteWaypoints(v, t, pts, clr, hs), `trial ${trial} anchored ${anchored}`);
    }
    // Without line heights: none under spec (step 1), the unanchored walk under reference.
    assertEquals(pullWaypoints(m, pts, clr, null, view, [], true), []);
    const free = pullWaypoints(m, pts, clr, null, view, [], false);
    assertEquals(free, bruteWaypoints(v, t, pts, clr, null), `trial ${trial} unanchored`);
    cases++;
    if (free.join() !== bruteWaypoints(v, t, pts, clr, hs).join()) anchorMatters++;
  }
  assert(cases >= 100, `${cases} cases`);
  assert(anchorMatters >= 10, `anchoring changed only ${anchorMatters} of ${cases} cases`);
});

Deno.test("waypoints: samples stand on every zone triangle, walkable or not (rnd_074), as a brute force", () => {
  const rnd = mulberry32(74);
  const view = { ok: () => true } as unknown as Visibility;
  let cases = 0, flagMatters = 0;
  for (let trial = 0; trial < 150; trial++) {
    const holes = new Set<string>();
    for (let i = 0; i < 30; i++) holes.add(`${Math.floor(rnd() * NX)},${Math.floor(rnd() * NY)}`);
    // The floor has holes; the deck (rows 2..7, middle rows whole) lies above it.
    const { v, t } = twoDecks((d, x, y) => d === 0 ? !holes.has(`${x},${y}`) : y >= 2 && y < 8);
    const nt = t.length / 3;
    // Flag random squares of either deck unwalkable (both triangles of a square together).
    const walkable = new Uint8Array(nt).fill(1);
    for (let q = 0; q < nt; q += 2) if (rnd() < 0.25) walkable[q] = walkable[q + 1] = 0;
    const zc = {
      vertices: new Float32Array(v),
      tris: new Uint32Array(t),
      walkable,
      triCount: nt,
    } as unknown as ZoneClean;
    const m = { mesh: zc, buckets: buildDriveBuckets(zc) };
    const pts: P[] = [];
    let x = 0.5 + rnd() * 2;
    while (x < NX - 0.5) {
      pts.push([x, 4.2 + rnd() * 1.6]);
      x += 0.7 + rnd() * 2.5;
    }
    if (pts.length < 3) continue;
    const clr = pts.map(() => rnd() < 0.3 ? 0 : rnd() * 1.8);
    for (const hs of [pts.map(() => DECK), pts.map(() => 0)]) {
      const want = bruteWaypoints(v, t, pts, clr, hs);
      assertEquals(pullWaypoints(m, pts, clr, hs, view, [], true), want, `trial ${trial}`);
      if (want.join() !== bruteWaypoints(v, t, pts, clr, hs, (q) => walkable[q] === 1).join()) {
        flagMatters++;
      }
    }
    cases++;
  }
  assert(cases >= 100, `${cases} cases`);
  assert(flagMatters >= 10, `the walkable flag changed only ${flagMatters} of ${2 * cases} walks`);
});

Deno.test("waypoints: a vertical triangle stands only under its own segment, not under its whole line", () => {
  // A floor square at z = 5 over [0, 40]², two triangles; a vertical triangle (a segment in plan,
  // (6, 5) → (8, 5)) at z = −30 whose line y = 5 crosses the floor. A walk starting at (5, 5)
  // with no height takes the lowest triangle under its first sample: the floor, since the wall
  // is 1 px away. Taking the wall (the point test alone, within its 1e-5 tolerance) would make
  // the next sample a 35-m step, and the answer would depend on whether wall and sample shared
  // a bucket (formulas.md #138: "on a zone triangle").
  const v = [0, 0, 5, 40, 0, 5, 40, 40, 5, 0, 40, 5, 6, 5, -30, 8, 5, -30, 7, 5, -30];
  const t = [0, 1, 2, 0, 2, 3, 4, 5, 6];
  const zc = {
    vertices: new Float32Array(v),
    tris: new Uint32Array(t),
    walkable: new Uint8Array([1, 1, 0]),
    triCount: 3,
  } as unknown as ZoneClean;
  const m = { mesh: zc, buckets: buildDriveBuckets(zc) };
  assert(routeSegmentDrivable(m, [5, 5], [9, 7], 0, null), "the floor carries the walk");
  // On the wall's own segment the wall is a candidate: its height is the lowest there.
  assert(!routeSegmentDrivable(m, [7, 5], [11, 7], 0, null), "the wall's own segment");
});
