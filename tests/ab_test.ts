/**
 * `nightly --ab REF` and its statistics. The statistics on constructed times (a real slowdown,
 * no change, one noisy round, sub-floor stages); end to end on five nav_test legs, three rounds:
 * REF = HEAD is not a regression, and a slowdown injected into the current version with the
 * planner's test hook (NAVSCOPE_TEST_SLOW_WINDOW_MS, src/plan/test_hooks.ts) is caught in the
 * window stage. An unknown REF is refused before any planning.
 */
import { join } from "node:path";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/nightly.ts";
import { main } from "../commands/main.ts";
import { abCompare } from "../src/analyze/ab.ts";
import { compareStage, crossedBootstrapCI, median } from "../src/analyze/ab_stats.ts";
import { mulberry32 } from "../src/rng.ts";
import { assert, assertEquals } from "./assert.ts";

const NAV = new URL("../examples/nav_test/", import.meta.url).pathname;
const LEGS = ["recast_pf_06", "recast_pf_09", "recast_pf_11", "recast_pf_15", "flat_walk_1"];

/** pairs[leg][round] = [ref, cur] with cur = ref · factor(leg, round) · (1 ± noise). */
function pairsOf(
  legs: number,
  rounds: number,
  factor: (leg: number, round: number) => number,
  noise = 0.05,
  seed = 7,
): Array<Array<[number, number]>> {
  const rnd = mulberry32(seed);
  return Array.from(
    { length: legs },
    (_, l) =>
      Array.from({ length: rounds }, (_, r): [number, number] => {
        const ref = 20 + 10 * l;
        return [
          ref * (1 + noise * (rnd() - 0.5)),
          ref * factor(l, r) * (1 + noise * (rnd() - 0.5)),
        ];
      }),
  );
}

Deno.test("ab stats: a 1.5× slowdown is slower, no change is same, 0.6× is faster", () => {
  const slow = compareStage("window", pairsOf(6, 4, () => 1.5));
  assertEquals(slow.verdict, "slower");
  assert(slow.ratio > 1.4 && slow.ratio < 1.6 && slow.ci[0] > 1.3, JSON.stringify(slow));
  const same = compareStage("window", pairsOf(6, 4, () => 1));
  assertEquals(same.verdict, "same");
  assert(same.ci[0] < 1 && same.ci[1] > 1, JSON.stringify(same));
  assertEquals(compareStage("window", pairsOf(6, 4, () => 0.6)).verdict, "faster");
  // Under the threshold: significant but small is not a regression.
  assertEquals(compareStage("window", pairsOf(6, 4, () => 1.05, 0.01)).verdict, "same");
  assertEquals(median([3, 1, 2, 10]), 2.5);
});

Deno.test("ab stats: noisy rounds slowing every leg are not significant", () => {
  // Round 2 of 5 ran while a neighbour hogged the CPU: every leg 3× slower in that round only.
  // Each leg's median over its rounds absorbs it.
  assertEquals(compareStage("total", pairsOf(6, 5, (_, r) => (r === 2 ? 3 : 1))).verdict, "same");
  // Two of three rounds hit: every leg's median ratio is ~3, so resampling legs alone would give
  // a narrow interval around 3 ("slower"). The rounds are resampled too: the clean round can
  // carry a resample, the interval reaches 1, and the verdict stays "same" — one sustained burst
  // is not evidence about the planner.
  const p = pairsOf(6, 3, (_, r) => (r === 0 ? 1 : 3));
  const ratios = p.map((leg) => leg.map(([a, b]) => b / a));
  assert(ratios.every((leg) => median(leg) > 2.5), JSON.stringify(ratios));
  const ci = crossedBootstrapCI(ratios, 3);
  assert(ci[0] < 1.1 && ci[1] > 2.5, JSON.stringify(ci));
  assertEquals(compareStage("total", p).verdict, "same");
  // Same inputs, same seed → the same interval.
  assertEquals(crossedBootstrapCI(ratios, 3), ci);
});

Deno.test("ab stats: legs under the floor are left out; too few legs give no verdict", () => {
  const tiny = pairsOf(6, 3, () => 3).map((leg) =>
    leg.map(([a, b]): [number, number] => [a / 1000, b / 1000])
  );
  const r = compareStage("assemble", tiny, { floorMs: 1 });
  assertEquals(r.legs, 0);
  assertEquals(r.verdict, "too few legs");
  assertEquals(compareStage("lift", pairsOf(2, 3, () => 3)).verdict, "too few legs");
});

/** A battery of a few nav_test legs beside links to the nav_test pack and its sidecars. */
async function smallBattery(): Promise<{ tmp: string; battery: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "ab_test_" });
  const dir = join(tmp, "nav_test");
  await Deno.mkdir(dir);
  for (const f of ["base.nav.gz", "base.fields.nav.gz", "base.occluder.gz", "base.nogo.json"]) {
    await Deno.copyFile(join(NAV, f), join(dir, f));
  }
  const doc = JSON.parse(await Deno.readTextFile(join(NAV, "legs.json")));
  doc.legs = doc.legs.filter((l: { id: string }) => LEGS.includes(l.id));
  assertEquals(doc.legs.length, LEGS.length);
  const battery = join(dir, "legs.json");
  await Deno.writeTextFile(battery, JSON.stringify(doc));
  return { tmp, battery };
}

Deno.test("nightly --ab HEAD: the same planner is not a regression", async () => {
  const { tmp, battery } = await smallBattery();
  const out = join(tmp, "out");
  const c = await captureOutput(() =>
    run(["--ab", "HEAD", "--rounds", "3", "--battery", battery, "--out", out])
  );
  assertEquals(c.value, 0, c.out + c.err);
  assert(c.out.startsWith("## navscope nightly --ab: PASS"), c.out);
  assert(/\| total +\| +5 \|/.test(c.out), c.out);
  const j = JSON.parse(await Deno.readTextFile(join(out, "ab.json")));
  assertEquals(j.format, "navscope-ab");
  assertEquals(j.rounds, 3);
  assertEquals(j.legs, 5);
  assertEquals(j.outcome_differences, []);
  assertEquals(
    j.stages.map((s: { stage: string }) => s.stage).join(","),
    "window,topology,geometry,pull,assemble,lift,other,total",
  );
  assertEquals(j.machine.cores, navigator.hardwareConcurrency);
  // The temporary worktree is gone.
  const wt = new TextDecoder().decode(
    (await new Deno.Command("git", { args: ["worktree", "list"], cwd: NAV }).output()).stdout,
  );
  assert(!wt.includes("navscope_ab_"), wt);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("ab: a slowdown injected into the current version is caught", async () => {
  const { tmp, battery } = await smallBattery();
  // Test hook (src/plan/test_hooks.ts): every window build of the CURRENT side busy-waits
  // 500 ms, several times a nav_test window build on a loaded machine.
  const r = await abCompare({
    ref: "HEAD",
    batteries: [battery],
    rounds: 3,
    env: { current: { NAVSCOPE_TEST_SLOW_WINDOW_MS: "500" } },
  });
  assertEquals(r.verdict, "regression", JSON.stringify(r.stages));
  assert(r.regressions.includes("window"), r.regressions.join());
  const w = r.stages.find((s) => s.stage === "window")!;
  assert(w.ratio > 1.5 && w.ci[0] > 1, JSON.stringify(w));
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("nightly --ab: an unknown REF is bad input (exit 1) before any planning", async () => {
  let msg = "";
  try {
    await run(["--ab", "no-such-ref-0123", "--battery", join(NAV, "legs.json")]);
  } catch (e) {
    msg = (e as Error).message;
  }
  assert(msg.includes('unknown git ref "no-such-ref-0123"'), msg);
  const quiet = console.error;
  console.error = () => {};
  try {
    const bad = await main([
      "nightly",
      "--ab",
      "no-such-ref-0123",
      "--battery",
      join(NAV, "legs.json"),
    ]);
    assertEquals(bad, 1);
    assertEquals(await main(["nightly", "--rounds", "3"]), 2);
  } finally {
    console.error = quiet;
  }
});
