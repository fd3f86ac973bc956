/**
 * Seeded property test of the whole planner (Planner III): per example world, random legs between
 * the centres of random Core records of the base zone — half inside one region, half between any
 * two — each must end as a clean `ok` that passes an independent route checker, or as a failure
 * whose plan line the default rules classify (never an exception, never `unclassified`).
 *
 * The checker does not use the planner's code: it decodes the zone's grid records straight from
 * the pack into a per-cell table and checks, for every segment of the final route sampled every
 * 0.05 px, that the sample stands on a Core record of the route's region (a recorded drop or an
 * off-mesh link is a single segment and is not sampled; the pieces from the snap anchors to the
 * raw endpoints are attached as given); that every point's height is the height of a record in
 * its cell (within 1 m); that waypoints increase, include every drop landing and the last point
 * (none at all on a cell-level route, which has no heights); that drops fall more than kClimb;
 * and that every chord of the geometry pass's taut chain stays on the region's core and joins
 * two cells of clearance ≥ 1.75 px.
 *
 * Legs per world: `NAVSCOPE_PROPERTY_LEGS` (default 200 on the four real-mesh worlds, 40 on
 * city_small, whose random legs cross a 500-px town and take about a second each; 80 were run
 * while writing it; the quick tier, tests/tiers.ts: 40 and 8).
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { QUICK } from "./tiers.ts";
import { openEngine } from "../src/plan/engine.ts";
import { readMaybeGzip } from "../src/codec/file.ts";
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { ownedRecords } from "../testing/owned_records.ts";
import { planRecordFromResult } from "../src/logs/from_plan.ts";
import { factsFromPlan } from "../src/analyze/log_collectors.ts";
import { classifyFailure } from "../src/analyze/rules.ts";
import type { PlanRequest } from "../src/plan/types.ts";

const WORLDS = ["nav_test", "dungeon", "proto_level", "tower_big", "city_small"];
const env = Number(Deno.env.get("NAVSCOPE_PROPERTY_LEGS") ?? "");
const legsFor = (w: string) => env > 0 ? env : w === "city_small" ? 40 : QUICK ? 40 : 200;

/** The zone's records by global cell: CSR over cells of the zone's bounding grid. */
interface CellTable {
  gx0: number;
  gy0: number;
  nx: number;
  ny: number;
  start: Int32Array;
  rid: Uint32Array;
  flags: Uint8Array;
  h: Float32Array;
  /** Main-pack clearance, px (≥ the sealed clearance the search prices with). */
  clr: Float32Array;
  /** Record indices (into rid/flags/h) of Core records, for sampling legs. */
  core: Int32Array;
}

async function cellTable(pack: string): Promise<{ zone: string; t: CellTable }> {
  const { name, records: own } = await ownedRecords(pack);
  let gx0 = Infinity, gy0 = Infinity, gx1 = -Infinity, gy1 = -Infinity;
  for (const r of own) {
    gx0 = Math.min(gx0, r.gx), gy0 = Math.min(gy0, r.gy);
    gx1 = Math.max(gx1, r.gx), gy1 = Math.max(gy1, r.gy);
  }
  const nx = gx1 - gx0 + 1, ny = gy1 - gy0 + 1;
  const start = new Int32Array(nx * ny + 1);
  for (const r of own) start[(r.gy - gy0) * nx + (r.gx - gx0) + 1]++;
  for (let c = 0; c < nx * ny; c++) start[c + 1] += start[c];
  const fill = start.slice(0, nx * ny);
  const rid = new Uint32Array(own.length), flags = new Uint8Array(own.length);
  const h = new Float32Array(own.length), clr = new Float32Array(own.length), core: number[] = [];
  for (const r of own) {
    const k = fill[(r.gy - gy0) * nx + (r.gx - gx0)]++;
    (rid[k] = r.rid), (flags[k] = r.flags), (h[k] = r.h), (clr[k] = r.clr);
  }
  for (let k = 0; k < own.length; k++) if (flags[k] & 4) core.push(k);
  return {
    zone: name,
    t: { gx0, gy0, nx, ny, start, rid, flags, h, clr, core: Int32Array.from(core) },
  };
}

/** Records of global cell (gx, gy) as index range, empty outside the table. */
function recs(t: CellTable, gx: number, gy: number): [number, number] {
  const x = gx - t.gx0, y = gy - t.gy0;
  if (x < 0 || y < 0 || x >= t.nx || y >= t.ny) return [0, 0];
  const c = y * t.nx + x;
  return [t.start[c], t.start[c + 1]];
}

/** The global cell and the centre (px) of record k. */
function recordCentre(t: CellTable, k: number): [number, number] {
  // Binary search of the cell holding record k.
  let lo = 0, hi = t.nx * t.ny - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.start[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  const gx = t.gx0 + (lo % t.nx), gy = t.gy0 + Math.floor(lo / t.nx);
  return [(gx + 0.5) * 0.25, (gy + 0.5) * 0.25];
}

for (const w of WORLDS) {
  Deno.test({
    name: `property: ${legsFor(w)} random legs on ${w} end ok and checked, or classified`,
    // The quick tier leaves city_small (a second or more per leg) to the full suite.
    ignore: QUICK && w === "city_small",
    fn: async () => {
      const pack = new URL(`../examples/${w}/base.nav.gz`, import.meta.url).pathname;
      const { zone, t } = await cellTable(pack);
      const links = (decodeMainPack(await readMaybeGzip(pack)).pack.offMeshLinks ?? []).map((l) =>
        l.points
      );
      const engine = await openEngine(pack);
      const rnd = mulberry32(0x5eed + w.length);
      const pick = () => t.core[Math.floor(rnd() * t.core.length)];
      // Core records by region, for same-region pairs.
      const byRegion = new Map<number, number[]>();
      for (const k of t.core) {
        const list = byRegion.get(t.rid[k]) ?? [];
        list.push(k);
        byRegion.set(t.rid[k], list);
      }
      const count: Record<string, number> = {};
      let samples = 0;
      for (let i = 0; i < legsFor(w); i++) {
        const a = pick();
        const same = byRegion.get(t.rid[a])!;
        const b = i % 2 === 0 ? same[Math.floor(rnd() * same.length)] : pick();
        const req: PlanRequest = { zone, start: recordCentre(t, a), goal: recordCentre(t, b) };
        const id = `${w} leg ${i} ${JSON.stringify(req.start)} → ${JSON.stringify(req.goal)}`;
        const r = await engine.plan(req); // an exception fails the test here
        if (!r.ok) {
          const rec = planRecordFromResult(req, r, { packHash: engine.info.buildHash });
          const v = classifyFailure(factsFromPlan(rec));
          assert(v.class !== "unclassified" && v.class !== "", `${id}: unclassified ${r.message}`);
          assertEquals(v.class, r.error, `${id}: the message classifies as its code`);
          assert(r.message !== "", `${id}: a failure carries its message`);
          count[r.error] = (count[r.error] ?? 0) + 1;
          continue;
        }
        count.ok = (count.ok ?? 0) + 1;
        samples += checkRoute(t, links, r, id);
      }
      console.log(`${w}: ${JSON.stringify(count)}, ${samples} route samples checked`);
      assert((count.ok ?? 0) > 0, "some random legs succeed");
      await engine.close();
    },
  });
}

/** The independent route checker; returns the number of samples checked. */
function checkRoute(
  t: CellTable,
  links: number[][],
  r: Awaited<ReturnType<Awaited<ReturnType<typeof openEngine>>["plan"]>>,
  id: string,
): number {
  const P = r.points, rid = r.debug.region, hop = r.warnings.some((x) => x.includes("换类"));
  assert(P.length >= 2 && P.every((p) => isFinite(p[0]) && isFinite(p[1])), `${id}: points`);
  const dropAt = new Set(r.drops.map((d) => d.index));
  for (const d of r.drops) assert(d.fromH - d.toH > 3, `${id}: a drop falls > kClimb`);
  const isLink = (p: number[], q: number[]) =>
    links.some((l) =>
      (near(p, l[0], l[1]) && near(q, l[3], l[4])) || (near(p, l[3], l[4]) && near(q, l[0], l[1]))
    );
  const snapS = (r.debug.snapStart ?? 0) + 0.5, snapG = (r.debug.snapGoal ?? 0) + 0.5;
  let samples = 0;
  for (let k = 1; k < P.length; k++) {
    if (dropAt.has(k) || isLink(P[k - 1], P[k])) continue;
    const L = Math.sqrt((P[k][0] - P[k - 1][0]) ** 2 + (P[k][1] - P[k - 1][1]) ** 2);
    const n = Math.max(1, Math.ceil(L / 0.05));
    for (let i = 0; i <= n; i++) {
      const x = P[k - 1][0] + (P[k][0] - P[k - 1][0]) * (i / n);
      const y = P[k - 1][1] + (P[k][1] - P[k - 1][1]) * (i / n);
      // The raw endpoints are attached as given: the piece from a snap anchor to its raw
      // endpoint may cross anything (spec 收尾检查: "这一段等于穿墙").
      if (
        near([x, y], P[0][0], P[0][1], snapS) || near([x, y], P.at(-1)![0], P.at(-1)![1], snapG)
      ) {
        continue;
      }
      const [s, e] = recs(t, Math.floor(x / 0.25), Math.floor(y / 0.25));
      let ok = false;
      for (let j = s; j < e && !ok; j++) ok = (t.flags[j] & 4) !== 0 && (hop || t.rid[j] === rid);
      assert(ok, `${id}: segment ${k} leaves the region's core at (${x}, ${y})`);
      samples++;
    }
  }
  // The geometry pass's taut chain: every chord stays on the region's core, and a chord (two
  // points more than one cell step apart, not a link) starts and ends where the price is 1,
  // i.e. clearance ≥ kClrPref = 1.75 px (Lazy Theta*'s chord condition, formulas.md #111).
  const T = r.debug.tautPoints;
  for (let k = 1; k < T.length && !hop; k++) {
    const a = T[k - 1], b = T[k];
    const far = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1])) > 0.25 + 1e-9;
    if (!far || isLink(a, b)) continue;
    for (const p of [a, b]) {
      const [s, e] = recs(t, Math.floor(p[0] / 0.25), Math.floor(p[1] / 0.25));
      let c = 0;
      for (let j = s; j < e; j++) if (t.rid[j] === rid && t.flags[j] & 4) c = Math.max(c, t.clr[j]);
      assert(c >= 1.75, `${id}: chord ${k} ends at (${p}) with clearance ${c} < 1.75`);
    }
    const n = Math.max(1, Math.ceil(Math.sqrt((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) / 0.05));
    for (let i = 0; i <= n; i++) {
      const x = a[0] + (b[0] - a[0]) * (i / n), y = a[1] + (b[1] - a[1]) * (i / n);
      const [s, e] = recs(t, Math.floor(x / 0.25), Math.floor(y / 0.25));
      let ok = false;
      for (let j = s; j < e && !ok; j++) ok = (t.flags[j] & 4) !== 0 && t.rid[j] === rid;
      assert(ok, `${id}: taut chord ${k} leaves the region's core at (${x}, ${y})`);
      samples++;
    }
  }
  // Heights: every point stands on a record of its cell.
  for (let k = 0; k < P.length && r.heights.length === P.length; k++) {
    // A raw endpoint snapped from elsewhere (another region, a gap) carries its anchor's height.
    if ((k === 0 && snapS > 0.5) || (k === P.length - 1 && snapG > 0.5)) continue;
    const [s, e] = recs(t, Math.floor(P[k][0] / 0.25), Math.floor(P[k][1] / 0.25));
    if (s === e) continue; // a raw endpoint off the grid
    let best = Infinity;
    for (let j = s; j < e; j++) best = Math.min(best, Math.abs(t.h[j] - r.heights[k]));
    assert(best <= 1, `${id}: point ${k} height ${r.heights[k]} is ${best} m off its cell`);
  }
  const W = r.waypoints;
  // Without heights (a cell-level baseline: 拉直的输入, third kind) there are no waypoints (路点
  // step 1); otherwise the last point always is one.
  if (r.heights.length === 0) assertEquals(W, [], `${id}: no waypoints without heights`);
  else assert(W.at(-1) === P.length - 1, `${id}: the last point is a waypoint`);
  for (let k = 1; k < W.length; k++) assert(W[k] > W[k - 1], `${id}: waypoints increase`);
  for (const d of r.drops) assert(W.includes(d.index), `${id}: landing ${d.index} is a waypoint`);
  return samples;
}

function near(p: readonly number[], x: number, y: number, tol = 1): boolean {
  return (p[0] - x) ** 2 + (p[1] - y) ** 2 <= tol * tol;
}
