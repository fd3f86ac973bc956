/**
 * `navscope nightly`: right after `--update-baseline` the gate passes; a baseline in which a
 * now-failing leg was ok makes it fail with exit 3 and names the leg. Every run records the
 * machine fingerprint; a baseline from another machine leaves timings ungated ("not comparable
 * across machines") but still gates outcomes.
 */
import { join } from "node:path";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/nightly.ts";
import {
  machineFingerprint,
  makeFingerprint,
  readMachineFile,
  writeMachineFile,
} from "../src/analyze/machine.ts";
import { assert, assertEquals } from "./assert.ts";

const EX = new URL("../examples/", import.meta.url).pathname;
const BAT = ["dungeon", "proto_level"].flatMap((d) => ["--battery", join(EX, d, "legs.json")]);

Deno.test("nightly: passes after --update-baseline; a new failure is a regression", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nightly_test_" });
  try {
    await gate(tmp);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

async function gate(tmp: string): Promise<void> {
  const bl = join(tmp, "baseline"), out = join(tmp, "out");
  const args = ["--baseline", bl, "--out", out, "--jobs", "2", ...BAT];
  const first = await captureOutput(() => run([...args, "--update-baseline"]));
  assertEquals(first.value, 0, first.out + first.err);
  for (const f of ["plans.log", "stats.json", "thresholds.json", "machine.json"]) {
    await Deno.stat(join(bl, f));
  }
  for (
    const f of ["plans.log", "stats.json", "diff.md", "diff.json", "replay/replay.json"]
  ) {
    await Deno.stat(join(out, f));
  }
  assert(!first.err.includes("report: skipped"), first.err);
  const here = machineFingerprint();
  assertEquals((await readMachineFile(join(out, "machine.json")))?.id, here.id);
  assertEquals(JSON.parse(await Deno.readTextFile(join(out, "stats.json"))).machine.id, here.id);
  const d1 = JSON.parse(await Deno.readTextFile(join(out, "diff.json")));
  assertEquals(d1.machines.timing_gated, true);
  // Replayed with the batteries on an unchanged planner: no leg is reported changed.
  const rep0 = JSON.parse(await Deno.readTextFile(join(out, "replay/replay.json")));
  const c = rep0.counts;
  assertEquals([c.fixed, c.failing_differently, c.newly_failing], [0, 0, 0]);
  assertEquals(rep0.not_identical, 0);
  assert(rep0.rows.every((r: { leg: string }) => r.leg !== ""), "rows carry their leg ids");
  // The report carries the gate's own verdict (the same diff result).
  const page = await Deno.readTextFile(join(out, "report.html"));
  const embedded = JSON.parse(
    page.match(/<script id="report-data" type="application\/json">(.*?)<\/script>/s)![1],
  );
  assertEquals(
    embedded.baseline,
    JSON.parse(await Deno.readTextFile(join(out, "diff.json"))),
  );
  const again = await captureOutput(() => run(args));
  assertEquals(again.value, 0, again.out);
  assert(again.out.startsWith("## navscope diff: PASS"), again.out);
  // The baseline said the dungeon off-mesh leg was ok: now it is a new failing leg.
  const p = join(bl, "plans.log");
  const text = await Deno.readTextFile(p);
  const edited = text.split("\n").map((l) =>
    l.includes("[zone=dungeon] [start=[0,0]]")
      ? l.replace("[ok=false]", "[ok=true]").replace(/\[code=[^\]]*\] \[error=[^\]]*\] /, "")
      : l
  ).join("\n");
  assert(edited !== text, "fixture: the dungeon snap_far line was not found");
  await Deno.writeTextFile(p, edited);
  // …and was timed on another machine: its timings are not compared, its outcomes are.
  await writeMachineFile(join(bl, "machine.json"), makeFingerprint({ ...here, cpu: "Elsewhere" }));
  const worse = await captureOutput(() => run(args));
  assertEquals(worse.value, 3, worse.out);
  assert(worse.out.includes("not comparable across machines"), worse.out);
  assert(worse.err.includes("deno task nightly --update-baseline"), worse.err);
  assert(!worse.out.includes("`timing."), worse.out); // no timing metric among the regressed
  assert(worse.out.includes("`failures.snap_far_from_mesh`"), worse.out);
  assert(worse.out.includes("dungeon\\|0.00,0.00\\|22.75,52.25\\|-"), worse.out);
  // The replay of the (edited) baseline shows the leg newly failing? No: replay takes failed
  // legs only, so the edited one is not among them.
  const rep = JSON.parse(await Deno.readTextFile(join(out, "replay/replay.json")));
  assertEquals(
    rep.rows.some((r: { zone: string; start: number[] }) =>
      r.zone === "dungeon" && r.start[0] === 0
    ),
    false,
  );
}
