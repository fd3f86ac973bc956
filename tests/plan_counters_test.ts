/**
 * Work counters (issue 26, docs/counters.md) and the "other" breakdown (issue 28) on the frozen
 * golden-route pack: counters are identical across runs and decode-worker counts; each counter
 * moves when its stage does more work (a longer or twistier leg, a larger window, more tiers, a
 * cell-level search, a gap flood); the sub-stages of "other" stay within it.
 */
import { assert, assertEquals } from "./assert.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { buildWindow } from "../src/plan/window/build_window.ts";
import { costAstar } from "../src/plan/route/search/cost_astar.ts";
import { locateGap } from "../src/plan/diagnostics/gap.ts";
import {
  COUNTER_NAMES,
  type CounterName,
  emptyCounters,
  otherAttributed,
  type WorkCounters,
} from "../src/plan/counters.ts";
import type { PlanRequest } from "../src/plan/types.ts";
import { parseLegs } from "../src/legs/format.ts";
import { emptyNoGoTable } from "../src/pack/nogo/table.ts";

const DIR = new URL("./fixtures/oracle/city_small/", import.meta.url).pathname;
const engine = await openEngine(DIR + "base.nav.gz");
const legs = parseLegs(await Deno.readTextFile(DIR + "legs.json"), "legs.json");
const leg = (id: string) => legs.find((l) => l.id === id)!;
const cache = new Map<string, WorkCounters>();

async function countersOf(id: string, req: PlanRequest = legRequest(leg(id))) {
  const hit = cache.get(id);
  if (hit) return hit;
  const r = await engine.plan(req);
  cache.set(id, r.debug.counters);
  return r.debug.counters;
}

/** Asserts that every counter in `names` is larger for `more` than for `less`. */
function assertMoves(names: CounterName[], less: WorkCounters, more: WorkCounters, why: string) {
  for (const n of names) {
    assert(more[n] > less[n], `${n}: ${less[n]} → ${more[n]} (${why})`);
    moved.add(n);
  }
}
/** The counters a test has seen move (the last test checks that every counter did). */
const moved = new Set<CounterName>();

Deno.test("counters: identical across runs and for 1 and 2 decode workers", async () => {
  const ids = ["kerb_up", "mesa_hop", "crack_050_cross"];
  const runs: WorkCounters[][] = [];
  for (const workers of [1, 2]) {
    const e = await openEngine(DIR + "base.nav.gz", { workers });
    for (let rep = 0; rep < 2; rep++) {
      runs.push(
        await Promise.all(
          ids.map(async (id) => (await e.plan(legRequest(leg(id)))).debug.counters),
        ),
      );
    }
    e.close();
  }
  for (const r of runs.slice(1)) assertEquals(r, runs[0]);
  // Not trivially equal: the plans did count.
  for (const c of runs[0]) {
    for (const n of ["tiles.decoded", "window.cells", "topology.pops"] as const) {
      assert(c[n] > 0, n);
    }
  }
});

Deno.test("counters: the search, pull and lift counters grow with a longer, twistier leg", async () => {
  // kerb_up: 5 px, a straight chord; crack_050_cross: 48 px around a crack field.
  const less = await countersOf("kerb_up");
  const more = await countersOf("crack_050_cross");
  assertMoves(
    [
      "topology.pops",
      "topology.expanded",
      "geometry.pops",
      "geometry.expanded",
      "geometry.sight_checks",
      "geometry.reparents",
      "geometry.corridor_cells",
      "geometry.price_cells",
      "pull.chords",
      "lift.corners",
      "lift.candidates",
    ],
    less,
    more,
    "longer leg",
  );
});

Deno.test("counters: tiers, window builds and searches grow with the plans a leg needs", async () => {
  // mesa_hop fails its first tier's final judgement and hops a ledge: two more plans.
  const less = await countersOf("plaza_cross");
  const more = await countersOf("mesa_hop");
  assertMoves(
    ["tiers.tried", "window.builds", "topology.searches", "geometry.searches"],
    less,
    more,
    "region hop",
  );
});

Deno.test("counters: access pops grow when an endpoint needs an access path", async () => {
  const less = await countersOf("bump_100_cross");
  const more = await countersOf("kerb_up");
  assertEquals(less["topology.access_pops"], 0);
  assertMoves(["topology.access_pops"], less, more, "access path");
});

Deno.test("counters: the window and tile counters grow with a larger window (same leg)", async () => {
  const req = legRequest(leg("kerb_up"));
  const base = await engine.plan(req);
  const d = base.debug, g = 641; // one tile more on every side
  const x0 = Math.round(d.x0 / 0.25) - g, y0 = Math.round(d.y0 / 0.25) - g;
  const big = await engine.plan({
    ...req,
    overrides: { window: [x0, y0, d.nx + 2 * g, d.ny + 2 * g] },
  });
  assertMoves(
    [
      "tiles.decoded",
      "tiles.records",
      "window.cells",
      "window.records",
      "window.spans",
      "topology.price_cells",
    ],
    d.counters,
    big.debug.counters,
    "larger window",
  );
});

Deno.test("counters: cell-level search and gap flood count their pops", async () => {
  const eng = await openEngine(DIR + "base.nav.gz");
  await eng.warm("map01base");
  const { zoneFixture } = await import("./zone_fixture.ts");
  const zs = (await zoneFixture(DIR, "map01base")).make();
  const seed = { gx: 96, gy: 160, h: 0 };
  const inp = { region: 1, seed, noGo: emptyNoGoTable(), discs: [] };
  const small = buildWindow(zs, { ...inp, rect: { x0: 40, y0: 100, nx: 300, ny: 250 } });
  const big = buildWindow(zs, { ...inp, rect: { x0: -100, y0: -50, nx: 800, ny: 700 } });
  // CostAstar: to its own cell one pop; to the farthest core cell many.
  const w = small, s = w.spans.cell[w.seedSpan];
  let far = s, fd = -1;
  for (let c = 0; c < w.nx * w.ny; c++) {
    const dx = (c % w.nx) - (s % w.nx), dy = ((c / w.nx) | 0) - ((s / w.nx) | 0);
    if (w.core[c] && dx * dx + dy * dy > fd) (fd = dx * dx + dy * dy), (far = c);
  }
  const near = emptyCounters(), long = emptyCounters();
  costAstar(w, w.core, s, s, near);
  costAstar(w, w.core, s, far, long);
  assertEquals(near["topology.cell_pops"], 1);
  assertMoves(["topology.cell_pops"], near, long, "farther goal");
  // Gap location: both floods over a larger window reach more spans.
  const flood = (win: typeof small) => {
    const usable = new Uint8Array(win.spans.h.length);
    for (let i = 0; i < usable.length; i++) usable[i] = win.vis3[i] & win.reach[i];
    const c = emptyCounters();
    locateGap(win, usable, win.seedSpan, [win.seedSpan], null, c);
    return c;
  };
  const a = flood(small), b = flood(big);
  assert(a["gap.pops"] > 0);
  assertMoves(["gap.pops"], a, b, "larger window");
  eng.close();
});

Deno.test("counters and other: every counter is a non-negative integer; the sub-stages stay in other", async () => {
  for (const id of ["plaza_cross", "mesa_hop", "snap_far", "kerb_up"]) {
    const r = await engine.plan(legRequest(leg(id)));
    for (const n of COUNTER_NAMES) {
      const v = r.debug.counters[n];
      assert(Number.isInteger(v) && v >= 0, `${id} ${n} = ${v}`);
    }
    const t = r.debug.timing;
    const other = t.total - t.window - t.topology - t.geometry - t.pull - t.assemble - t.lift;
    const sub = otherAttributed(r.debug.otherTiming);
    for (const [k, v] of Object.entries(r.debug.otherTiming)) assert(v >= 0, `${id} ${k} = ${v}`);
    // A small slack for clock granularity: the sub-stages are exclusive parts of other.
    assert(sub <= other + 1e-6 * t.total + 0.01, `${id}: Σ sub-stages ${sub} > other ${other}`);
  }
});

Deno.test("counters: every counter has a test above that makes it move", () => {
  assertEquals(COUNTER_NAMES.filter((n) => !moved.has(n)), []);
});
