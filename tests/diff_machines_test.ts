/**
 * `navscope diff` and machine fingerprints: timing metrics are judged only when both runs were
 * timed on the same machine (machine.json beside the logs, `machine` in a stats file); across
 * machines they are "not comparable", never fail, and the summary names both machines and says
 * how to re-baseline. `--timing-gate` / the thresholds' `timing_gate` override it.
 */
import { join } from "node:path";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/diff.ts";
import { run as planRun } from "../commands/plan.ts";
import { diffRuns, parseThresholds, readRun } from "../src/analyze/diff.ts";
import {
  machineFingerprint,
  makeFingerprint,
  parseFingerprint,
  readMachineFile,
  sameMachine,
  writeMachineFile,
} from "../src/analyze/machine.ts";
import { assert, assertEquals } from "./assert.ts";

const FIX = new URL("./fixtures/diff/", import.meta.url).pathname;

const A = makeFingerprint({
  cpu: "Fixture CPU 3000",
  cores: 4,
  os: "linux",
  arch: "x86_64",
  deno: "2.9.6",
  v8: "15.0.245.2-rusty",
});
const B = makeFingerprint({ ...A, cpu: "Other CPU 9", cores: 16 });

/** base.log in one folder and `current` in another, each with its machine.json (or none). */
async function twoRuns(
  current: string,
  base: typeof A | null,
  cur: typeof A | null,
): Promise<{ tmp: string; b: string; c: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "diff_machines_" });
  const b = join(tmp, "base"), c = join(tmp, "cur");
  await Deno.mkdir(b);
  await Deno.mkdir(c);
  await Deno.copyFile(join(FIX, "base.log"), join(b, "plans.log"));
  await Deno.copyFile(join(FIX, current), join(c, "plans.log"));
  if (base) await writeMachineFile(join(b, "machine.json"), base);
  if (cur) await writeMachineFile(join(c, "machine.json"), cur);
  return { tmp, b: join(b, "plans.log"), c: join(c, "plans.log") };
}

Deno.test("machine: this machine's fingerprint is complete and stable", () => {
  const f = machineFingerprint();
  assert(f.cpu.length > 0 && f.cores > 0, JSON.stringify(f));
  assertEquals(f.os, Deno.build.os);
  assertEquals(f.deno, Deno.version.deno);
  assertEquals(f.v8, Deno.version.v8);
  assertEquals(f.id.length, 16);
  assert(sameMachine(f, machineFingerprint()));
  assert(!sameMachine(A, B));
  assert(!sameMachine(A, null) && !sameMachine(null, null));
  // Two fingerprints without a CPU model are not evidence of one machine.
  const blind = makeFingerprint({ ...A, cpu: "unknown" });
  assert(!sameMachine(blind, blind));
  // A hand-edited id does not make machines equal: the id is recomputed from the fields.
  assertEquals(parseFingerprint({ ...B, id: A.id }, "x").id, B.id);
});

Deno.test("machine: a malformed machine.json is an error naming the file", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "diff_machines_" });
  const p = join(tmp, "machine.json");
  await Deno.writeTextFile(p, JSON.stringify({ cpu: "x", cores: "two" }));
  let msg = "";
  try {
    await readMachineFile(p);
  } catch (e) {
    msg = (e as Error).message;
  }
  assert(msg.includes(p) && msg.includes(".os must be a string"), msg);
  assertEquals(await readMachineFile(join(tmp, "none.json")), null);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: a slowdown measured on another machine is not comparable (exit 0)", async () => {
  const { tmp, b, c } = await twoRuns("slow.log", A, B);
  const r = await captureOutput(() => run([b, c]));
  assertEquals(r.value, 0, r.out);
  assert(r.out.startsWith("## navscope diff: PASS"), r.out);
  assert(r.out.includes("not comparable across machines"), r.out);
  assert(r.out.includes("Fixture CPU 3000 ×4") && r.out.includes("Other CPU 9 ×16"), r.out);
  assert(r.out.includes("cpu: Fixture CPU 3000 → Other CPU 9; cores: 4 → 16"), r.out);
  assert(r.out.includes("deno task nightly --update-baseline"), r.out);
  assert(/\| timing\.total\.p50 +\| +10 \| +40 \| +\+30 \|.*not comparable/.test(r.out), r.out);
  // The same pair on the same machine is the regression of tests/diff_test.ts.
  await writeMachineFile(join(tmp, "cur", "machine.json"), A);
  const same = await captureOutput(() => run([b, c]));
  assertEquals(same.value, 3, same.out);
  assert(same.out.includes("- timings: gated (same machine)"), same.out);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: outcome regressions still fail across machines", async () => {
  const { tmp, b, c } = await twoRuns("newclass.log", A, B);
  const r = await captureOutput(() => run([b, c]));
  assertEquals(r.value, 3, r.out);
  assert(r.out.includes("`failures.route_disconnected`"), r.out);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: no fingerprint on a side → timings not comparable, says which", async () => {
  const { tmp, b, c } = await twoRuns("slow.log", A, null);
  const r = await captureOutput(() => run([b, c, "--json", join(tmp, "d.json")]));
  assertEquals(r.value, 0, r.out);
  assert(r.out.includes("(current run has no machine.json)"), r.out);
  const j = JSON.parse(await Deno.readTextFile(join(tmp, "d.json")));
  assertEquals(j.machines.timing_gated, false);
  assertEquals(j.machines.base.cpu, "Fixture CPU 3000");
  assertEquals(j.machines.current, null);
  assertEquals(
    j.metrics.find((m: { metric: string }) => m.metric === "timing.total.p50").verdict,
    "not comparable",
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: --timing-gate always / thresholds timing_gate force the timing gate", async () => {
  const { tmp, b, c } = await twoRuns("slow.log", A, B);
  const forced = await captureOutput(() => run([b, c, "--timing-gate", "always"]));
  assertEquals(forced.value, 3, forced.out);
  assert(forced.out.includes("`timing.total.p50`"), forced.out);
  const th = join(tmp, "t.json");
  await Deno.writeTextFile(
    th,
    JSON.stringify({
      format: "navscope-thresholds",
      version: 1,
      timing_gate: "always",
      metrics: {},
    }),
  );
  const viaFile = await captureOutput(() => run([b, c, "--thresholds", th]));
  assertEquals(viaFile.value, 3, viaFile.out);
  // never: even the same machine's slowdown is only reported.
  await writeMachineFile(join(tmp, "cur", "machine.json"), A);
  const never = await captureOutput(() => run([b, c, "--timing-gate", "never"]));
  assertEquals(never.value, 0, never.out);
  const bad = await captureOutput(() => run([b, c, "--timing-gate", "sometimes"]));
  assert(bad.value !== 0 && bad.value !== 3, String(bad.value));
  assert(bad.err.includes("same_machine, always, never"), bad.err);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("diff: a stats file's machine field is its fingerprint; timing_gate is validated", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "diff_machines_" });
  const s = join(tmp, "stats.json");
  await Deno.writeTextFile(
    s,
    JSON.stringify({ plans: 1, failed_excluded: 0, tiers: [], stages: [], machine: B }),
  );
  const run1 = await readRun(s);
  assertEquals(run1.machine?.id, B.id);
  const base = await readRun(join(FIX, "base.log"));
  assertEquals(base.machine?.id, A.id); // tests/fixtures/diff/machine.json
  assertEquals(diffRuns(base, run1).machines.same, false);
  let msg = "";
  try {
    parseThresholds(
      JSON.stringify({ format: "navscope-thresholds", version: 1, timing_gate: "x", metrics: {} }),
      "t.json",
    );
  } catch (e) {
    msg = (e as Error).message;
  }
  assert(msg.includes("$.timing_gate"), msg);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("plan --legs --json records the machine its timings were measured on", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "diff_machines_" });
  const nav = new URL("../examples/nav_test/", import.meta.url).pathname;
  const doc = JSON.parse(await Deno.readTextFile(join(nav, "legs.json")));
  doc.legs = doc.legs.slice(0, 1);
  const legs = join(tmp, "legs.json");
  await Deno.writeTextFile(legs, JSON.stringify(doc));
  const c = await captureOutput(() =>
    planRun([join(nav, "base.nav.gz"), "--legs", legs, "--json"])
  );
  assertEquals(c.value, 0, c.err);
  const j = JSON.parse(c.out);
  assertEquals(j.machine.id, machineFingerprint().id);
  assertEquals(j.legs.length, 1);
  await Deno.remove(tmp, { recursive: true });
});
