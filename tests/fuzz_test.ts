/**
 * The fuzz engine (testing/fuzz/): its supervisor finds hangs, crashes and invalid
 * acceptances (made-up targets), and a short seeded run over every real format finds none.
 */
import { assert, assertEquals } from "./assert.ts";
import { QUICK } from "./tiers.ts";
import { type FuzzReport, runFuzz } from "../testing/fuzz/engine.ts";
import { FUZZ_TARGETS } from "../testing/fuzz/targets.ts";
import { FuzzRng, mutateJson } from "../testing/fuzz/mutate.ts";
import { mutationOf } from "../testing/fuzz/run_one.ts";
import { SELFTEST_TARGETS } from "./fuzz_selftest_targets.ts";
import { duplicateKeys, inexactIntegers, nonFinite } from "../testing/fuzz/invariants.ts";

Deno.test("fuzz supervisor: hangs are stopped and recorded, crashes and invalid acceptances found", async () => {
  const r = await runFuzz({
    seed: 1,
    budgetMs: 4000,
    // The hang target loops forever; every other input takes microseconds. A limit well above
    // any pause of a loaded CI box (GC, CPU starvation) keeps a slow input from counting as a
    // hang: this test checks the supervisor, not the box's speed.
    perInputMs: 3000,
    targets: ["hang", "crash", "invalid", "clean"],
    worker: new URL("./fuzz_selftest_worker.ts", import.meta.url),
  });
  const bad = (t: string, i: number) => mutationOf(SELFTEST_TARGETS[t], 1, i).m.bytes[0] === 0;
  for (const t of ["hang", "crash", "invalid"]) {
    const c = r.counts[t];
    assert(c.runs > 0, t);
    // Every input was classified, and exactly the misbehaving ones are findings.
    const found = r.findings.filter((f) => f.target === t).map((f) => f.index);
    const expected = Array.from({ length: c.runs }, (_, i) => i).filter((i) => bad(t, i));
    assertEquals(found, expected.slice(0, found.length), t);
    assert(found.length > 0 || expected.length === 0, t);
    assertEquals(c.refused + c.crash + c.invalid + c.hang, c.runs, t);
    assertEquals(c.crash + c.invalid + c.hang, expected.length, t);
  }
  assert(r.counts.hang.hang >= 1 && r.counts.crash.crash >= 1 && r.counts.invalid.invalid >= 1);
  assertEquals(r.counts.clean.refused, r.counts.clean.runs);
  assert(r.counts.clean.runs > 0);
});

Deno.test("fuzz invariants: duplicate keys, inexact integers, non-finite values", () => {
  assertEquals(duplicateKeys('{"a": {"b": 1, "b": 2}, "c": [{"a": 1}, {"a": 2}]}'), ["b"]);
  assert(inexactIntegers('{"n": 123456789012345678901}'));
  assert(!inexactIntegers('{"s": "123456789012345678901", "f": 1.2345678901234567e300}'));
  assertEquals(nonFinite({ a: [1, NaN], b: new Float32Array([Infinity]) }).length, 2);
  // Mutations are reproducible from the seed.
  const text = '{"format": "x", "zones": {"a": [1, 2]}}';
  const a = mutateJson(new FuzzRng(7), text), b = mutateJson(new FuzzRng(7), text);
  assertEquals(a, b);
});

Deno.test("fuzz: a short seeded run over every format finds no crash, hang or invalid acceptance", async () => {
  // Ten seconds of inputs, four in the quick tier (tests/tiers.ts): every target still runs.
  const r: FuzzReport = await runFuzz({ seed: 1, budgetMs: QUICK ? 2_000 : 10_000 });
  for (const t of FUZZ_TARGETS) assert(r.counts[t].runs > 0, `${t} ran no input`);
  const lines = r.findings.map((f) => `${f.outcome} ${f.target}:${f.index} ${f.op} ${f.detail}`);
  assertEquals(lines.slice(0, 10), [], `${r.findings.length} findings`);
});

Deno.test("deno task fuzz: usage errors, --repro re-runs one input", async () => {
  const { main } = await import("../testing/fuzz/main.ts");
  const { NavscopeError } = await import("../src/errors.ts");
  for (const bad of [["--bogus"], ["--targets", "nope"], ["--budget", "x"], ["--repro", "legs"]]) {
    const e = await main(bad).then(() => null, (x) => x);
    assert(e instanceof NavscopeError && e.code === "usage", `${bad.join(" ")}: ${e}`);
  }
  const out: string[] = [];
  const log = console.log;
  console.log = (s: string) => void out.push(s);
  try {
    assertEquals(await main(["--seed", "3", "--repro", "legs:5"]), 0);
  } finally {
    console.log = log;
  }
  const r = JSON.parse(out.join("\n"));
  assertEquals([r.target, r.index], ["legs", 5]);
  assert(["refused", "accepted"].includes(r.outcome), r.outcome);
  await Deno.remove(r.input);
});
