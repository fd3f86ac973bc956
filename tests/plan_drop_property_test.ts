/**
 * Property test of ledge drops under the `spec` profile (no oracle covers drops: the reference
 * build has none). Seeded random multi-level worlds — a ground floor with holes and 2-m blocks,
 * terraces 3.5–7 m high with stairs, rim notches, holes and blocks next to their rims, a deck on a
 * ramp over the ground — are baked in
 * memory; random legs from an upper surface down to the ground are planned, and every route
 * with a drop must pass an independent checker written here from the spec's rules (it reads the
 * baked records straight from the pack; no planner code):
 *
 * - every segment that is not a drop is drivable: sampled every 0.05 px it stays on Core records
 *   of the route's region, and the height set tracked cell by cell with the continuity bounds of
 *   高度连续检查 (formulas.md #124: `−kClimb ≤ t − c ≤ UpAllow + kQH = 1.5` between neighbouring
 *   cells) never empties and ends on the point's height;
 * - every drop is legal (向下一步, formulas.md #49 rule 2, #55–#57): it falls more than kClimb; the
 *   segment follows the upper surface (within kQH, 找台沿) up to one break, and from the break to
 *   the landing no cell holds the departure layer (a span within upper ± kClimb: the kSeamCells
 *   look-ahead, extended to the whole fall); the landing stands on a Core record of the lower
 *   height;
 * - the landing margin (落点留余量, formulas.md #134–#136): the landing is the raw landing (the same
 *   leg planned with `landingMargin` off, which must be the same route but for the landings)
 *   moved by at most the expansion limit 2R, R = 3·kFallRadius/|s_x|; it lies ≥ R from the upper
 *   surface, or else no lower cell within the limit that the search could reach is ≥ R away
 *   and drivable to the next point;
 * - no landing is placed where the next chord is not drivable (the segment after each landing is
 *   checked from the landing height as above).
 * - a drop onto the goal is not recorded (落点留余量: "首末两点不当落点"): such a last segment is
 *   checked as a legal fall.
 *
 * Deterministic (fixed seeds); about 5 s (two bakes of about 1 s, 60 legs and their replans).
 * `KEEP=1` keeps the baked worlds in /tmp for a failing leg to be replayed.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { MeshBuilder, ramp, Sheet } from "../src/world/gen_mesh.ts";
import { bakeToDirectory } from "../src/world/bake_world.ts";
import { ownedRecords } from "../testing/owned_records.ts";
import { openEngine } from "../src/plan/engine.ts";
import { customProfile, SPEC_PROFILE } from "../src/plan/profile.ts";
import type { PlanRequest, PlanResult, Pt } from "../src/plan/types.ts";

// The spec's constants, restated here so that the checker shares nothing with the planner.
/** kCS, px (约定). */
const CS = 0.25;
/** kClimb, m (约定). */
const CLIMB = 3;
/** kQH, m (高度连续检查; also 找台沿's follow tolerance). */
const QH = 1.0;
/** UpAllow between neighbouring cells, m: max(kStepUp, kSlope·w·kCS) = 0.5 for w ≤ 2. */
const UP = 0.5 + QH;
/** Core flag of a grid record (format-notes BGRD flags). */
const CORE = 0x04;
/** The zone's plane→world x scale (manifest affine), as in the generated worlds. */
const SX = 1.375;
/** R = 3·kFallRadius/|s_x|, px (formulas.md #134), kFallRadius = 0.41 m. */
const R = (3 * 0.41) / Math.abs(SX);
/** The expansion limit navscope uses (formulas.md #135 [?]; docs/profiles.md "Drops"): 2R. */
const LIMIT = 2 * R;

const WORLD_SEEDS = [11, 29];
const LEGS_PER_WORLD = 30;
const S = 32; // zone side, px

/** A random multi-level world as a sheet; returns the OBJ text. */
function randomWorld(seed: number): string {
  const rnd = mulberry32(seed);
  const u = (a: number, b: number) => a + (b - a) * rnd();
  const r4 = (v: number) => Math.round(v * 4) / 4; // areas on cell lines
  const sheet = new Sheet();
  sheet.add({ layer: 0, x0: 0, y0: 0, x1: S, y1: S, h: 0, group: "ground" });
  for (let k = 0; k < 3; k++) {
    const w = r4(u(5, 10)), d = r4(u(5, 10));
    const x0 = r4(u(4, S - 2 - w)), y0 = r4(u(6, S - 2 - d)); // the deck keeps y < 5
    const h = 3.5 + 0.5 * Math.floor(rnd() * 8);
    sheet.add({ layer: 0, x0, y0, x1: x0 + w, y1: y0 + d, h, group: "terrace" });
    // Stairs of 0.5 m risers up to the west rim (so the terrace is in the ground's region).
    const sy = r4(y0 + u(0, d - 2.5)), n = Math.round(h / 0.5);
    for (let i = 0; i < n; i++) {
      const tx = x0 - 0.25 * (n - i);
      if (tx < 0) break;
      sheet.add({
        layer: 0,
        x0: tx,
        y0: sy,
        x1: tx + 0.25,
        y1: sy + 2.5,
        h: 0.5 * (i + 1),
        group: "stairs",
        risers: "W",
      });
    }
    // Next to the east or north rim, 0.25–1.5 px out: a hole (a lower surface narrower than R,
    // where the landing search falls back to the farthest cell) or a 2-m block (landing cells
    // from which the next point cannot be walked to straight).
    const gap = r4(u(0.25, 1.5)), hole = rnd() < 0.5, east = rnd() < 0.5;
    const len = r4(u(2, 5)), off = r4(u(0, (east ? d : w) - 2));
    sheet.add({
      layer: 0,
      x0: east ? x0 + w + gap : x0 + off,
      y0: east ? y0 + off : y0 + d + gap,
      x1: east ? x0 + w + gap + 1 : x0 + off + len,
      y1: east ? y0 + off + len : y0 + d + gap + 1,
      h: hole ? 0 : 2,
      group: hole ? "rim_hole" : "rim_block",
      hole,
    });
    // A notch in the rim: a gap of 0.5–2 px in the upper layer (seam look-ahead cases).
    if (rnd() < 0.7) {
      const nw = r4(u(0.5, 2)), ny0 = r4(y0 + u(1, d - 3));
      sheet.add({
        layer: 0,
        x0: x0 + w - nw,
        y0: ny0,
        x1: x0 + w,
        y1: ny0 + 2,
        h: 0,
        group: "notch",
      });
    }
  }
  // Holes in the ground and 2-m blocks (≤ kClimb: same region; > kBumpUp: not climbable): they
  // narrow the lower surface next to ledges and block straight walks from landings.
  for (let k = 0; k < 4; k++) {
    const x0 = r4(u(1, S - 4)), y0 = r4(u(1, S - 4));
    const hole = k % 2 === 0;
    sheet.add({
      layer: 0,
      x0,
      y0,
      x1: x0 + r4(u(0.75, 3)),
      y1: y0 + r4(u(0.75, 3)),
      h: hole ? 0 : 2,
      group: hole ? "hole" : "block",
      hole,
    });
  }
  // A deck over the ground (a second layer: drops off its sides meet the seam rule), reached by a
  // ramp on the ground layer (a ramp in the deck's layer would share its foot edge with the
  // ground's two quads: a non-manifold edge).
  const dh = 4 + 0.5 * Math.floor(rnd() * 4);
  const dy0 = r4(u(1, 1.75)), dx0 = r4(u(1, S - 17));
  sheet.add({
    layer: 0,
    x0: dx0,
    y0: dy0,
    x1: dx0 + 8,
    y1: dy0 + 3,
    h: ramp("x", dx0, dx0 + 8, 0, dh),
    group: "ramp",
  });
  sheet.add({ layer: 1, x0: dx0 + 8, y0: dy0, x1: dx0 + 16, y1: dy0 + 3, h: dh, group: "deck" });
  const mesh = new MeshBuilder();
  sheet.emit(mesh);
  return mesh.toObj([`drop property world, seed ${seed}`]);
}

/** Bakes the world of `seed` into a temporary directory; returns the main pack path. */
async function bake(seed: number, dir: string): Promise<string> {
  await Deno.writeTextFile(`${dir}/m.obj`, randomWorld(seed));
  await Deno.writeTextFile(
    `${dir}/world.json`,
    JSON.stringify({
      format: "navscope-world",
      version: 1,
      name: `drops-${seed}`,
      zones: [{
        name: "z",
        size_px: [S, S],
        origin_px: [0, 0],
        floor_y: 0,
        affine: { sx: SX, tx: 0, sy: SX, ty: 0 },
        meshes: [{ file: "m.obj", px_per_m: 1, up: "y", max_slope_deg: null }],
      }],
    }),
  );
  await bakeToDirectory(`${dir}/world.json`, `${dir}/out`, { workers: 1 });
  return `${dir}/out/base.nav.gz`;
}

/** The zone's records per global cell (from the pack's grid, not through the planner). */
interface Cells {
  at(gx: number, gy: number): { rid: number; flags: number; h: number }[];
  upper: { gx: number; gy: number; h: number }[];
  lower: { gx: number; gy: number; h: number }[];
}

async function cells(pack: string): Promise<Cells> {
  const { records } = await ownedRecords(pack);
  const map = new Map<number, { rid: number; flags: number; h: number }[]>();
  const key = (gx: number, gy: number) => gy * 65536 + gx;
  const upper: Cells["upper"] = [], lower: Cells["lower"] = [];
  for (const r of records) {
    const l = map.get(key(r.gx, r.gy)) ?? [];
    l.push({ rid: r.rid, flags: r.flags, h: r.h });
    map.set(key(r.gx, r.gy), l);
    if (r.flags & CORE) (r.h > 3.25 ? upper : r.h < 0.25 ? lower : []).push(r);
  }
  return { at: (gx, gy) => map.get(key(gx, gy)) ?? [], upper, lower };
}

const cellOf = (p: readonly number[]) => [Math.floor(p[0] / CS), Math.floor(p[1] / CS)];

/** Samples of segment a → b every 0.05 px, as the cells they fall in (consecutive repeats cut). */
function sampleCells(a: readonly number[], b: readonly number[]): [number, number][] {
  const L = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const n = Math.max(1, Math.ceil(L / 0.05));
  const out: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const x = a[0] + (b[0] - a[0]) * (i / n), y = a[1] + (b[1] - a[1]) * (i / n);
    // A sample exactly on a cell corner (a diagonal step through it) touches none of the two
    // side cells: the step rules (no corner cut) decide those, not the layer walk.
    if (x % CS === 0 && y % CS === 0 && i > 0 && i < n) continue;
    const c = cellOf([x, y]);
    const last = out.at(-1);
    if (!last || last[0] !== c[0] || last[1] !== c[1]) out.push([c[0], c[1]]);
  }
  return out;
}

/**
 * 高度连续检查 written from the spec: the heights reachable from height h at a walking a → b on
 * Core records of region `rid` (−1: any). Null when the set empties (not drivable).
 */
function walkHeights(
  C: Cells,
  a: readonly number[],
  b: readonly number[],
  h: number,
  rid: number,
): number[] | null {
  let cur = [h];
  for (const [gx, gy] of sampleCells(a, b).slice(1)) {
    const next = C.at(gx, gy)
      .filter((r) => (r.flags & CORE) && (rid < 0 || r.rid === rid))
      .map((r) => r.h)
      .filter((t) => cur.some((c) => t - c >= -CLIMB && t - c <= UP));
    if (next.length === 0) return null;
    cur = next;
  }
  return cur;
}

/** Is segment a → b drivable from height ha, ending on height hb? */
function drivable(C: Cells, a: number[], b: number[], ha: number, hb: number, rid: number) {
  const hs = walkHeights(C, a, b, ha, rid);
  return hs !== null && hs.some((t) => Math.abs(t - hb) <= 1e-3);
}

/** Distance from (gx, gy)'s centre to the nearest upper-surface cell square (formulas.md #136). */
function upperDistance(C: Cells, gx: number, gy: number, h: number, edgeH: number): number {
  const r = Math.ceil(LIMIT / CS) + 2;
  let best = Infinity;
  for (let y = gy - r; y <= gy + r; y++) {
    for (let x = gx - r; x <= gx + r; x++) {
      if (!C.at(x, y).some((s) => s.h - h > CLIMB && Math.abs(s.h - edgeH) <= QH)) continue;
      const ex = Math.max(0, Math.abs(x - gx) * CS - CS / 2);
      const ey = Math.max(0, Math.abs(y - gy) * CS - CS / 2);
      best = Math.min(best, Math.hypot(ex, ey));
    }
  }
  return best;
}

/**
 * A legal fall from a (height ha) to b (height hb): the segment follows the upper surface (within
 * kQH, 找台沿) up to one break, more than kClimb above hb (向下一步 rule 2), and from the break to
 * b no cell holds the departure layer (a span within upper ± kClimb: the kSeamCells look-ahead
 * of formulas.md #55–#56, extended to the whole fall).
 */
function legalFall(C: Cells, a: Pt, b: Pt, ha: number, hb: number, what: string): void {
  const cellsOf = sampleCells(a, b);
  let upper = ha, broke = -1;
  for (let i = 1; i < cellsOf.length && broke < 0; i++) {
    const hs = C.at(...cellsOf[i]).map((s) => s.h).filter((v) => Math.abs(v - upper) <= QH);
    if (hs.length === 0) broke = i;
    else upper = hs.reduce((x, y) => (Math.abs(y - upper) < Math.abs(x - upper) ? y : x));
  }
  assert(broke > 0, `${what} never leaves the upper surface`);
  assert(upper - hb > CLIMB, `${what} leaves at ${upper}, not more than kClimb above ${hb}`);
  for (let i = broke; i < cellsOf.length; i++) {
    assert(
      !C.at(...cellsOf[i]).some((s) => Math.abs(s.h - upper) <= CLIMB),
      `${what} meets its departure layer again at cell ${cellsOf[i]} (a seam, not a ledge)`,
    );
  }
}

/** Counters over a world's routes. */
interface Tally {
  legs: number;
  ok: number;
  dropRoutes: number;
  drops: number;
  moved: number;
  farFromLedge: number;
  fallback: number;
  segments: number;
  finalDrops: number;
  /** Largest landing move, px, and moves beyond R + kCS (sideways or round a corner). */
  maxMoved: number;
  beyondStraight: number;
}

/**
 * The independent checker of one route with drops; `raw` is the same leg with the landing margin
 * off.
 */
function checkDropRoute(C: Cells, r: PlanResult, raw: PlanResult, id: string, t: Tally): void {
  const P = r.points, H = r.heights, rid = r.debug.region;
  assertEquals(H.length, P.length, `${id}: heights per point`);
  const dropAt = new Map(r.drops.map((d) => [d.index, d]));
  // The margin only moves landings: the raw route is the same route but for them.
  assertEquals(raw.points.length, P.length, `${id}: the raw route has as many points`);
  assertEquals(raw.drops.map((d) => d.index), r.drops.map((d) => d.index), `${id}: drops`);
  for (let k = 0; k < P.length; k++) {
    if (dropAt.has(k)) continue;
    assertEquals(raw.points[k], P[k], `${id}: point ${k} moved without a drop`);
  }
  for (let k = 1; k < P.length; k++) {
    const d = dropAt.get(k);
    if (!d) {
      // 落点留余量 › 找台沿: "首末两点不当落点" — a drop onto the goal is not recorded (端点拼接 may
      // merge the search's landing into the last segment: its points are collinear).
      if (k === P.length - 1 && H[k - 1] - H[k] > CLIMB) {
        for (const Q of [P, raw.points]) {
          legalFall(C, Q[k - 1], Q[k], H[k - 1], H[k], `${id}: final`);
        }
        t.finalDrops++;
        continue;
      }
      // Not a drop: drivable from the previous point's height to this one's.
      const afterLanding = dropAt.has(k - 1);
      assert(
        drivable(C, P[k - 1], P[k], H[k - 1], H[k], rid),
        `${id}: segment ${k} ${JSON.stringify([P[k - 1], P[k]])} (${H[k - 1]} → ${H[k]}) is not ` +
          (afterLanding ? "drivable: a landing placed where the next chord is not" : "drivable"),
      );
      t.segments++;
      continue;
    }
    t.drops++;
    // 向下一步 rule 2: deeper than kClimb (kDrop = +∞: no lower bound).
    assert(d.fromH - d.toH > CLIMB, `${id}: drop ${k} falls ${d.fromH - d.toH} ≤ kClimb`);
    assertEquals(H[k], d.toH, `${id}: the landing carries the lower height`);
    assert(k < P.length - 1, `${id}: the last point is never a landing`);
    // The landing stands on a Core record of the lower height.
    const [lx, ly] = cellOf(P[k]);
    assert(
      C.at(lx, ly).some((s) => (s.flags & CORE) && Math.abs(s.h - d.toH) <= 1e-3),
      `${id}: landing ${k} at ${P[k]} does not stand on the lower surface ${d.toH}`,
    );
    legalFall(C, P[k - 1], P[k], H[k - 1], d.toH, `${id}: route drop ${k}`);
    legalFall(C, raw.points[k - 1], raw.points[k], H[k - 1], d.toH, `${id}: raw route drop ${k}`);
    // 落点留余量: within the expansion limit of the raw landing, and ≥ R from the upper surface
    // unless no cell the expansion could reach is.
    const moved = Math.hypot(P[k][0] - raw.points[k][0], P[k][1] - raw.points[k][1]);
    assert(moved <= LIMIT + 1e-9, `${id}: landing ${k} moved ${moved} px > 2R = ${LIMIT}`);
    if (moved > 0) t.moved++;
    t.maxMoved = Math.max(t.maxMoved, moved);
    if (moved > R + CS) t.beyondStraight++;
    const dist = upperDistance(C, lx, ly, d.toH, d.fromH);
    if (dist >= R) {
      t.farFromLedge++;
      continue;
    }
    t.fallback++;
    const better = reachableLandings(C, raw.points[k], d, rid).find((c) =>
      upperDistance(C, c[0], c[1], c[2], d.fromH) >= R &&
      drivable(C, [(c[0] + 0.5) * CS, (c[1] + 0.5) * CS], P[k + 1], c[2], H[k + 1], rid)
    );
    assert(
      better === undefined,
      `${id}: landing ${k} is ${dist} px < R from the ledge, but cell ${better} is not`,
    );
  }
}

/**
 * The lower cells the landing search may reach from the raw landing (spec 挪落点 step 1): 4-neighbour
 * steps between Core records of the region within kQH of each other, more than kClimb below the
 * ledge, centres within the limit. Returns [gx, gy, h].
 */
function reachableLandings(
  C: Cells,
  land: readonly number[],
  d: { fromH: number; toH: number },
  rid: number,
): [number, number, number][] {
  const [x0, y0] = cellOf(land);
  const seen = new Map<string, number>([[`${x0},${y0}`, d.toH]]);
  const queue: [number, number, number][] = [[x0, y0, d.toH]];
  for (let i = 0; i < queue.length; i++) {
    const [x, y, h] = queue[i];
    for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      const bx = x + dx, by = y + dy;
      if (seen.has(`${bx},${by}`)) continue;
      if (Math.hypot((bx + 0.5) * CS - land[0], (by + 0.5) * CS - land[1]) > LIMIT) continue;
      const s = C.at(bx, by).filter((s) =>
        (s.flags & CORE) && s.rid === rid && Math.abs(s.h - h) <= QH && d.fromH - s.h > CLIMB
      );
      if (s.length === 0) continue;
      const hb = s.reduce((a, b) => (Math.abs(b.h - h) < Math.abs(a.h - h) ? b : a)).h;
      seen.set(`${bx},${by}`, hb);
      queue.push([bx, by, hb]);
    }
  }
  return queue;
}

for (const seed of WORLD_SEEDS) {
  Deno.test(`drop property: random legs down from upper surfaces of world ${seed}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "navscope-drops-" });
    try {
      const t0 = performance.now();
      const pack = await bake(seed, dir);
      const t1 = performance.now();
      const C = await cells(pack);
      assert(C.upper.length > 100 && C.lower.length > 100, "the world has two levels");
      const engine = await openEngine(pack);
      const rawProfile = customProfile(SPEC_PROFILE, { landingMargin: false });
      const rnd = mulberry32(seed * 7919);
      const t: Tally = {
        legs: 0,
        ok: 0,
        dropRoutes: 0,
        drops: 0,
        moved: 0,
        farFromLedge: 0,
        fallback: 0,
        segments: 0,
        finalDrops: 0,
        maxMoved: 0,
        beyondStraight: 0,
      };
      for (let i = 0; i < LEGS_PER_WORLD; i++) {
        const a = C.upper[Math.floor(rnd() * C.upper.length)];
        const b = C.lower[Math.floor(rnd() * C.lower.length)];
        const req: PlanRequest = {
          zone: "z",
          start: [(a.gx + 0.5) * CS, (a.gy + 0.5) * CS],
          goal: [(b.gx + 0.5) * CS, (b.gy + 0.5) * CS],
          startFloorY: a.h,
          goalFloorY: b.h,
        };
        const id = `world ${seed} leg ${i} ${JSON.stringify(req.start)} → ${
          JSON.stringify(req.goal)
        }`;
        t.legs++;
        const r = await engine.plan({ ...req, profile: SPEC_PROFILE });
        if (!r.ok) continue;
        t.ok++;
        if (r.drops.length === 0) continue;
        t.dropRoutes++;
        const raw = await engine.plan({ ...req, profile: rawProfile });
        assert(raw.ok, `${id}: the raw route exists`);
        checkDropRoute(C, r, raw, id, t);
      }
      console.log(
        `world ${seed}: ${JSON.stringify(t)}; bake ${Math.round(t1 - t0)} ms, legs ${
          Math.round(performance.now() - t1)
        } ms`,
      );
      assert(t.dropRoutes >= LEGS_PER_WORLD / 3, `many routes drop (${t.dropRoutes})`);
      assert(t.moved > 0, "some landings move");
      await engine.close();
    } finally {
      if (!Deno.env.get("KEEP")) await Deno.remove(dir, { recursive: true });
      else console.log(dir);
    }
  });
}
