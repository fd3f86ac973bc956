/**
 * The planner engine end to end on the frozen golden-route packs (tests/fixtures/oracle): each
 * pre-check and window failure reachable from the battery gives its own code and the spec's
 * message; cancellation; repeated plans are identical; a window's per-cell fields equal a larger
 * window's cropped to it; bad requests are refused; plan lines round-trip into `classify`.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { QUICK } from "./tiers.ts";
import { kHopWarning, openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { buildWindow } from "../src/plan/window/build_window.ts";
import type { PlanRequest, PlanResult } from "../src/plan/types.ts";
import { parseLegs } from "../src/legs/format.ts";
import { planRecordFromResult } from "../src/logs/from_plan.ts";
import { formatPlanLine, parsePlanLine } from "../src/logs/plan_line.ts";
import { factsFromPlan } from "../src/analyze/log_collectors.ts";
import { classifyFailure } from "../src/analyze/rules.ts";
import { emptyNoGoTable } from "../src/pack/nogo/table.ts";

const DIR = new URL("./fixtures/oracle/city_small/", import.meta.url).pathname;
const engine = await openEngine(DIR + "base.nav.gz");
const legs = parseLegs(await Deno.readTextFile(DIR + "legs.json"), "legs.json");
const leg = (id: string) => legs.find((l) => l.id === id)!;

/** A result without its timings (they differ run to run). */
function stable(r: PlanResult): unknown {
  const d = structuredClone(r.debug) as unknown as Record<string, unknown>;
  d.timing = null;
  // Sub-stage times are clock readings; the work counters stay: they must be identical.
  d.otherTiming = null;
  d.tiers = r.debug.tiers.map((t) => ({ ...t, windowMs: 0, searchMs: 0 }));
  return { ...r, debug: d };
}

const CASES: Array<[string, string, RegExp, Partial<PlanRequest>?]> = [
  ["snap_far", "snap_far_from_mesh", /^起点不在网格附近$/],
  [
    "beam_far_from_core",
    "endpoint_far_from_core",
    /^端点接不上可走层 \(起 34\.2px \/ 终 0\.0px\)$/,
  ],
  ["nogo_base_goal", "no_go", /禁区内/],
  ["nogo_floor_deck", "no_go", /禁区内/],
  ["cancelled", "cancelled", /^规划已取消$/],
  ["seed_outside_window", "seed_outside_window", /^起点种子格落在窗外$/],
  [
    "mesa_up",
    "goal_outside_reach",
    /^从起点走不到终点 \(端点在可走面上, 可达区距 起 0\.0px \/ 终 20\.2px\)$/,
  ],
  ["tier_deck", "zone_not_found", /^区没有预烘格图 \(map01lv001\)$/],
  // The plateau's region is small: its first window is the full-region window (129 × 129
  // cells), larger than this plan's kMaxCells.
  ["link_oneway_back", "region_too_large", /^类过大 \(129×129 格\)$/, {
    overrides: { maxCells: 10_000 },
  }],
];

for (const [id, code, message, extra] of CASES) {
  Deno.test(`engine: ${id} → ${code}`, async () => {
    const r = await engine.plan({ ...legRequest(leg(id)), ...extra });
    assertEquals(r.ok, false);
    assertEquals(r.error, code);
    assert(message.test(r.message), `message ${JSON.stringify(r.message)}`);
    assertEquals(r.noGo, code === "no_go");
    // The code is the class classify gives the logged plan line (no declared deck here).
    const rec = planRecordFromResult(legRequest(leg(id)), r, { packHash: engine.info.buildHash });
    const back = parsePlanLine(formatPlanLine(rec));
    assert(typeof back !== "string" && back !== null);
    if (!("record" in back)) throw new Error("no record");
    const facts = factsFromPlan(back.record);
    if (leg(id).goal_deck_y === undefined) assertEquals(classifyFailure(facts).class, code);
  });
}

Deno.test("engine: the floor band keeps a ground goal under a floor-limited no-go polygon", async () => {
  const r = await engine.plan(legRequest(leg("nogo_floor_ground")));
  assertEquals([r.ok, r.noGo], [true, false]);
  assertEquals(r.debug.tier, 0);
});

Deno.test("engine: an endpoint in a runtime disc plans normally (端点在虚拟禁区内)", async () => {
  const r = await engine.plan(legRequest(leg("nogo_disc_start")));
  assertEquals(r.ok, true);
  // The disc clears the cells around the start: its anchor moved out of the 2-px disc.
  assert(r.debug.snapStart! > 1.5 && r.debug.snapStart! <= 2.25, `${r.debug.snapStart}`);
});

Deno.test("engine: cancellation before a tier returns cancelled; the engine stays usable", async () => {
  const ac = new AbortController();
  ac.abort();
  const req = legRequest(leg("plaza_cross"));
  const c = await engine.plan(req, { signal: ac.signal });
  assertEquals([c.ok, c.error, c.debug.tiers.length], [false, "cancelled", 0]);
  const k = await engine.plan({ ...req, overrides: { cancelBeforeTier: 1 } });
  assertEquals(k.ok, true, "tier 0 succeeds before the cancel point");
  const r = await engine.plan(req);
  assertEquals(r.ok, true);
});

Deno.test("engine: repeated plans on one engine and a fresh engine are identical", async () => {
  const ids = ["plaza_cross", "mesa_up", "snap_far", "kerb_up"];
  const a = [], b = [];
  for (const id of ids) a.push(stable(await engine.plan(legRequest(leg(id)))));
  for (const id of ids) a.push(stable(await engine.plan(legRequest(leg(id)))));
  const fresh = await openEngine(DIR + "base.nav.gz");
  for (const id of ids) b.push(stable(await fresh.plan(legRequest(leg(id)))));
  assertEquals(a.slice(0, 4), a.slice(4));
  assertEquals(a.slice(0, 4), b);
});

Deno.test("engine: bad requests are refused, not planned", async () => {
  let threw = false;
  try {
    await engine.plan({ zone: "map01base", start: [NaN, 3], goal: [3, 4] });
  } catch (e) {
    threw = /start is NaN,3/.test((e as Error).message);
  }
  assert(threw);
  const r = await engine.plan({ zone: "nosuch", start: [3, 3], goal: [4, 4] });
  assertEquals([r.ok, r.error], [false, "zone_not_found"]);
});

Deno.test("engine: a missing sidecar makes every plan return the same load error", async () => {
  const tmp = await Deno.makeTempDir();
  await Deno.copyFile(DIR + "base.nav.gz", `${tmp}/base.nav.gz`);
  const e = await openEngine(`${tmp}/base.nav.gz`);
  assert(e.info.error !== null);
  for (const id of ["plaza_cross", "snap_far"]) {
    const r = await e.plan(legRequest(leg(id)));
    assertEquals([r.ok, r.error], [false, "sidecar_unreadable"]);
    assert(r.message.startsWith("旁包读不到"), r.message);
  }
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("buildWindow: a window's per-cell fields equal a larger window's, cropped", async () => {
  const eng = await openEngine(DIR + "base.nav.gz");
  await eng.warm("map01base");
  const { zoneFixture } = await import("./zone_fixture.ts");
  const zs = (await zoneFixture(DIR, "map01base")).make();
  const seed = { gx: 96, gy: 160, h: 0 };
  const inp = { region: 1, seed, noGo: emptyNoGoTable(), discs: [] };
  const small = buildWindow(zs, { ...inp, rect: { x0: 40, y0: 100, nx: 300, ny: 250 } });
  const big = buildWindow(zs, { ...inp, rect: { x0: -100, y0: -50, nx: 800, ny: 700 } });
  let cells = 0;
  for (let y = 0; y < small.ny; y++) {
    for (let x = 0; x < small.nx; x++) {
      const a = y * small.nx + x, b = (y + 150) * big.nx + (x + 140);
      for (const k of ["lay", "core", "dist", "medial", "steps"] as const) {
        if (small[k][a] !== big[k][b]) throw new Error(`${k} differs at (${x}, ${y})`);
      }
      cells++;
    }
  }
  assertEquals(cells, 75000);
  assertThrows(() => buildWindow(zs, { ...inp, rect: { x0: 1000, y0: 1000, nx: 64, ny: 64 } }));
});

Deno.test("engine: a no-go table of another world makes the engine unusable", async () => {
  const tmp = await Deno.makeTempDir();
  for (const f of ["base.nav.gz", "base.fields.nav.gz"]) {
    await Deno.copyFile(DIR + f, `${tmp}/${f}`);
  }
  await Deno.writeTextFile(
    `${tmp}/base.nogo.json`,
    JSON.stringify({
      format: "navscope-nogo",
      version: 1,
      zones: { nav_test: [{ rings: [[[1, 1], [5, 1], [5, 5]]] }] },
    }),
  );
  const e = await openEngine(`${tmp}/base.nav.gz`);
  assert(e.info.error !== null && /禁区表/.test(e.info.error), String(e.info.error));
  const r = await e.plan(legRequest(leg("plaza_cross")));
  assertEquals([r.ok, r.error], [false, "pack_load_failed"]);
  await Deno.remove(tmp, { recursive: true });
});

// The quick tier skips it: plan_search_test's "1 vs 2 workers" checks the same on fewer legs.
Deno.test({
  name: "engine: 1, 2 and 4 decode workers give identical plans",
  ignore: QUICK,
}, async () => {
  const ids = ["plaza_cross", "street_long_capped", "mesa_up", "seed_outside_window"];
  const runs: unknown[][] = [];
  for (const workers of [1, 2, 4]) {
    const e = await openEngine(DIR + "base.nav.gz", { workers });
    const out = [];
    for (const id of ids) out.push(stable(await e.plan(legRequest(leg(id)))));
    e.close();
    runs.push(out);
  }
  assertEquals(runs[1], runs[0]);
  assertEquals(runs[2], runs[0]);
});

// The quick tier skips the two full-window gap legs (seconds each): tests/plan_gap_test.ts's
// flood and distance-transform checks stay in it; the full suite runs these verdicts end to end.
Deno.test({
  name: "gap: a disc closing the footbridge gives a disconnected leg with its gap across the disc",
  ignore: QUICK,
}, async () => {
  const r = await engine.plan(legRequest(leg("footbridge_disc_closed")));
  assertEquals([r.ok, r.error, r.message], [false, "route_disconnected", "不连通"]);
  const g = r.debug.gap!;
  assert(g !== null, "gap located");
  // The disc is centred at y = 115 with r = 3: one end below it, one above.
  assert(g.start[1] < 115 - 2.5 && g.goal[1] > 115 + 2.5, JSON.stringify(g));
  assert(Math.abs(g.distance - Math.hypot(g.goal[0] - g.start[0], g.goal[1] - g.start[1])) < 1e-12);
  assert(g.distance >= 5.5 && g.distance <= 6.5, `${g.distance}`);
  // The plan line carries the gap, and classify sees it.
  const rec = planRecordFromResult(legRequest(leg("footbridge_disc_closed")), r, { packHash: "" });
  assert(rec.gap !== null && rec.gap.distance === g.distance);
});

Deno.test("region hop: mesa → yard is planned as two legs joined by one ledge drop", async () => {
  const r = await engine.plan(legRequest(leg("mesa_hop")));
  assertEquals([r.ok, r.error], [true, ""]);
  assert(r.warnings.includes(kHopWarning), JSON.stringify(r.warnings));
  assertEquals(r.drops.length, 1);
  const d = r.drops[0];
  assert(d.fromH - d.toH > 3, "a drop deeper than kClimb");
  // The landing is the back leg's first point and a waypoint; the last point is one too.
  assert(r.waypoints.includes(d.index), JSON.stringify(r.waypoints));
  assertEquals(r.waypoints[r.waypoints.length - 1], r.points.length - 1);
  // A nested plan never hops again, and a goal deck turns the hop off: the same leg with a
  // declared goal deck on the mesa's own height fails as before.
  const noHop = await engine.plan({ ...legRequest(leg("mesa_hop")), goalDeckY: 8 });
  assert(!noHop.warnings.includes(kHopWarning));
});

Deno.test("drops: a ledge drop is recorded, its landing is a waypoint, and no pull span crosses it", async () => {
  const r = await engine.plan(legRequest(leg("ledge_plain_drop")));
  assertEquals(r.ok, true);
  assertEquals(r.drops.length, 1);
  const d = r.drops[0];
  assert(d.fromH - d.toH > 3, JSON.stringify(d));
  assert(d.index > 0 && d.index < r.points.length - 1);
  assert(r.waypoints.includes(d.index), `landing ${d.index} in ${r.waypoints}`);
  // Heights: the upper surface before the landing, the lower one from it on.
  assertEquals(r.heights[d.index], d.toH);
  assert(r.heights[d.index - 1] - r.heights[d.index] > 3);
});

Deno.test("region boxes: the ring-first scan over the tiles naming a region equals a scan of every owned record", async () => {
  const { decodeBgrdTile, bgrdTileRegions } = await import("../src/pack/bgrd/section.ts");
  const zs0 = await engine.zoneState(legs[0].zone);
  const z = zs0.section.zones[zs0.gridZone];
  assert(z.tiles.length >= 4, "a zone of several tiles");
  const brute = new Map<number, { x0: number; y0: number; x1: number; y1: number }>();
  z.tiles.forEach((t, i) => {
    const c = decodeBgrdTile(zs0.section, zs0.gridZone, i);
    // The dictionary read alone names exactly the region ids of the tile's records.
    const ids = [...new Set(c.rid.subarray(0, c.n))].sort((a, b) => a - b);
    assertEquals([...bgrdTileRegions(zs0.section, zs0.gridZone, i)!].sort((a, b) => a - b), ids);
    for (let k = 0; k < c.n; k++) {
      const lx = c.cell[k] % t.nx, ly = Math.floor(c.cell[k] / t.nx);
      if (lx < t.px0 || lx > t.px1 || ly < t.py0 || ly > t.py1) continue;
      const gx = t.gx0 + lx, gy = t.gy0 + ly, b = brute.get(c.rid[k]);
      if (!b) brute.set(c.rid[k], { x0: gx, y0: gy, x1: gx, y1: gy });
      else {
        b.x0 = Math.min(b.x0, gx), b.y0 = Math.min(b.y0, gy);
        b.x1 = Math.max(b.x1, gx), b.y1 = Math.max(b.y1, gy);
      }
    }
  });
  // A fresh engine per order: the boxes do not depend on which regions were asked first.
  const ids = Array.from({ length: z.globalRegions + 2 }, (_, i) => i);
  for (const order of [ids, [...ids].reverse()]) {
    const e = await openEngine(DIR + "base.nav.gz");
    const zs = await e.zoneState(legs[0].zone);
    for (const r of order) assertEquals(zs.regionBox(r), brute.get(r) ?? null, `region ${r}`);
    await e.close();
  }
});

Deno.test("check 8: the nearest-first core-anchor scan equals a scan of every tile in the box", async () => {
  const { coreAnchorPx, kCoreBoxCells, kCoreNone } = await import(
    "../src/plan/prechecks/core_anchor.ts"
  );
  const { decodeBgrdTile } = await import("../src/pack/bgrd/section.ts");
  const zs = await engine.zoneState(legs[0].zone);
  const z = zs.section.zones[zs.gridZone];
  const decoded = z.tiles.map((
    t,
    i,
  ) => (t.records ? decodeBgrdTile(zs.section, zs.gridZone, i) : null));
  const brute = (x: number, y: number) => {
    const cx = Math.floor(x / 0.25), cy = Math.floor(y / 0.25);
    let best = Infinity;
    z.tiles.forEach((t, i) => {
      const c = decoded[i];
      const ox0 = t.gx0 + t.px0, ox1 = t.gx0 + t.px1, oy0 = t.gy0 + t.py0, oy1 = t.gy0 + t.py1;
      const far = ox1 < cx - kCoreBoxCells || ox0 > cx + kCoreBoxCells ||
        oy1 < cy - kCoreBoxCells || oy0 > cy + kCoreBoxCells;
      if (!c || far) return;
      for (let k = 0; k < c.n; k++) {
        const lx = c.cell[k] % t.nx, ly = Math.floor(c.cell[k] / t.nx);
        if (!(c.flags[k] & 4) || lx < t.px0 || lx > t.px1 || ly < t.py0 || ly > t.py1) continue;
        best = Math.min(best, (t.gx0 + lx - cx) ** 2 + (t.gy0 + ly - cy) ** 2);
      }
    });
    return best === Infinity ? kCoreNone : Math.sqrt(best) * 0.25;
  };
  const rnd = mulberry32(99);
  for (let i = 0; i < 60; i++) {
    const a: [number, number] = [rnd() * 520 - 10, rnd() * 520 - 10];
    const b: [number, number] = [rnd() * 520 - 10, rnd() * 520 - 10];
    assertEquals(coreAnchorPx(zs, [a, b]), [brute(...a), brute(...b)], `${a} ${b}`);
  }
});

Deno.test({
  name: "gap: both bridge ramps closed, street → deck: the sides overlap in plan view, distance 0",
  ignore: QUICK,
}, async () => {
  const dir = new URL("../examples/city_small/", import.meta.url).pathname;
  const ex = await openEngine(dir + "base.nav.gz");
  const all = parseLegs(await Deno.readTextFile(dir + "legs.json"), "legs.json");
  const r = await ex.plan(legRequest(all.find((l) => l.id === "bridge_deck_ramps_closed")!));
  assertEquals([r.ok, r.error], [false, "target_deck_unreachable"]);
  const g = r.debug.gap!;
  assert(g !== null, "gap located");
  assertEquals(g.distance, 0);
  assertEquals(g.start, g.goal);
  ex.close();
});
