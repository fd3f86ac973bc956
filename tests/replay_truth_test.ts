/**
 * Replay never reports a change that did not happen: battery legs that share every input but
 * their test overrides stay apart (keyed by the `[leg=…]` id), replayed with the battery they
 * are identical and unchanged, and a row replayed identical can never be judged a change (the
 * invariant in src/analyze/replay.ts). The demo replays with its batteries.
 */
import { join } from "node:path";
import { formatPlanLine } from "../src/logs/plan_line.ts";
import { openEngine } from "../src/plan/engine.ts";
import { planLeg } from "../src/analyze/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import { checkReplayInvariant } from "../src/analyze/replay.ts";
import { replayLogs, summarize } from "../src/analyze/replay_run.ts";
import { DEMO_WORLDS, demoReplayInputs } from "../commands/demo.ts";
import { assert, assertEquals } from "./assert.ts";

const EX = new URL("../examples/", import.meta.url).pathname;
const NAV = join(EX, "nav_test/base.nav.gz");

/** Two legs on the same endpoints: one plain (ok), one cancelled by its test override. */
function battery(): string {
  const first = JSON.parse(Deno.readTextFileSync(join(EX, "nav_test/legs.json"))).legs[0];
  assertEquals(first.expected, "ok", "precondition: the first nav_test leg plans ok");
  const base = { ...first, landmarks: [], note: "" };
  return JSON.stringify({
    format: "navscope-legs",
    version: 1,
    legs: [
      { ...base, id: "plain" },
      { ...base, id: "stopped", overrides: { cancel_before_tier: 0 }, expected: "cancelled" },
    ],
  });
}

async function fixture(): Promise<{ dir: string; log: string; battery: string }> {
  const dir = await Deno.makeTempDir({ prefix: "replay_truth_" });
  const bat = join(dir, "legs.json");
  await Deno.writeTextFile(bat, battery());
  const legs = parseLegs(await Deno.readTextFile(bat), bat);
  const e = await openEngine(NAV);
  let text = "";
  try {
    for (const [i, leg] of legs.entries()) {
      const { record } = await planLeg(e, leg);
      assertEquals(record.leg, leg.id);
      text += formatPlanLine(record, { time: Date.UTC(2026, 9, 1, 8, 0, i) }) + "\n";
    }
  } finally {
    e.close();
  }
  const log = join(dir, "plans.log");
  await Deno.writeTextFile(log, text);
  return { dir, log, battery: bat };
}

Deno.test("replay: legs named by [leg=…] are keyed apart; with their battery nothing changes", async () => {
  const fx = await fixture();
  try {
    const batteryLegs = parseLegs(await Deno.readTextFile(fx.battery), fx.battery);
    const res = await replayLogs([fx.log], {
      packs: [{ path: NAV }],
      all: true,
      batteries: batteryLegs,
    });
    const rows = res.report.rows;
    assertEquals(rows.map((r) => r.leg).sort(), ["plain", "stopped"]);
    for (const r of rows) assert(r.key.includes(`|leg=${r.leg}`), r.key);
    const by = Object.fromEntries(rows.map((r) => [r.leg, r]));
    assertEquals([by.plain.outcome, by.plain.identical], ["still_ok", true]);
    assertEquals([by.stopped.outcome, by.stopped.identical], ["still_failing", true]);
    assertEquals(by.stopped.battery, "stopped");
    const c = res.report.counts;
    assertEquals([c.fixed, c.failing_differently, c.newly_failing], [0, 0, 0]);
    assertEquals(res.lines.filter((l) => l.includes("[leg=stopped]")).length, 1);
  } finally {
    await Deno.remove(fx.dir, { recursive: true });
  }
});

Deno.test("replay: without the battery the override leg changes, and is never called identical", async () => {
  const fx = await fixture();
  try {
    const res = await replayLogs([fx.log], { packs: [{ path: NAV }], all: true });
    const by = Object.fromEntries(res.report.rows.map((r) => [r.leg, r]));
    // Planned without its cancel override, the logged-cancelled leg plans ok: a real change of
    // the request (reported), never "identical".
    assertEquals(by.stopped.outcome, "fixed");
    assertEquals(by.stopped.identical, false);
    assertEquals([by.plain.outcome, by.plain.identical], ["still_ok", true]);
    for (const r of res.report.rows) checkReplayInvariant(r);
  } finally {
    await Deno.remove(fx.dir, { recursive: true });
  }
});

Deno.test("replay invariant: identical rows judged a change are refused", () => {
  for (const outcome of ["fixed", "failing_differently", "newly_failing"] as const) {
    let threw = false;
    try {
      checkReplayInvariant({ key: "z|1,1|2,2|-", identical: true, outcome });
    } catch (e) {
      threw = String(e).includes("invariant");
    }
    assert(threw, `identical + ${outcome} must throw`);
  }
  for (const outcome of ["still_ok", "still_failing"] as const) {
    checkReplayInvariant({ key: "k", identical: true, outcome });
  }
  checkReplayInvariant({ key: "k", identical: false, outcome: "fixed" });
  // summarize (used by merge on replay.json files read back) checks every row too.
  let threw = false;
  try {
    // deno-lint-ignore no-explicit-any
    summarize([{ key: "k", identical: true, outcome: "fixed" } as any], {} as any);
  } catch {
    threw = true;
  }
  assert(threw, "summarize must refuse an identical row judged fixed");
});

Deno.test("demo: the replay step gets every world's pack and battery", () => {
  const args = demoReplayInputs();
  const flag = (f: string) => args.filter((_, i) => args[i - 1] === f);
  const packs = flag("--pack"), bats = flag("--battery");
  assertEquals(packs.length, DEMO_WORLDS.length);
  assertEquals(bats.length, DEMO_WORLDS.length);
  for (let i = 0; i < DEMO_WORLDS.length; i++) {
    assertEquals(bats[i].replace(/legs\.json$/, ""), packs[i].replace(/base\.nav\.gz$/, ""));
  }
});
