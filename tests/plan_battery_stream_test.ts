/**
 * Huge batteries (issue 27 item 17): legs.json streamed leg by leg (src/legs/stream.ts)
 * and validated whole before planning; `plan --legs` prints rows as legs finish in the text,
 * `--json` (same document as a buffered run) and `--jsonl` modes, and logs every plan.
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { encodeLegs, type Leg, parseLegs } from "../src/legs/format.ts";
import { countLegs, streamLegs } from "../src/legs/stream.ts";
import { run } from "../commands/plan.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { BUFFERED_TABLE_LEGS } from "../commands/support/battery_stream.ts";

const EX = fileURLToPath(new URL("../examples/", import.meta.url));

/** Legs that end at once: a zone the pack does not have. */
function quickLegs(n: number): Leg[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    zone: "no_such_zone",
    start: [1, 1],
    goal: [2, 2],
    expected: "zone_not_found",
    landmarks: [],
    note: "",
  }));
}

Deno.test("streamLegs: same legs as parseLegs, any key order; errors located in the file", async () => {
  for (const w of ["nav_test", "city_small"]) {
    const p = `${EX}${w}/legs.json`;
    const got: Leg[] = [];
    for await (const l of streamLegs(p)) got.push(l);
    assertEquals(got, parseLegs(await Deno.readTextFile(p), p));
  }
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/b.json`;
    const legs = quickLegs(3);
    await Deno.writeTextFile(p, JSON.stringify({ legs, version: 1, format: "navscope-legs" }));
    assertEquals(await countLegs(p), 3);
    const bad = async (text: string, ...parts: string[]) => {
      await Deno.writeTextFile(p, text);
      const e = (await assertRejects(countLegs(p))) as NavscopeError;
      assert(e instanceof NavscopeError && e.message.startsWith(p), e.message);
      for (const x of parts) assert(e.message.includes(x), `${x} in ${e.message}`);
    };
    const text = encodeLegs(legs);
    await bad(
      text.replace(
        '"q1","zone":"no_such_zone","start":[1,1],"goal":[2,2]',
        '"q1","zone":"no_such_zone","start":[1,1],"goal":[2,1e400]',
      ),
      "line 3,",
      "$.legs[1].goal[1]",
    );
    await bad(text.replace('"version": 1', '"version": 2'), "$.version");
    await bad(text.replace('"legs": [', '"extra": 1, "legs": ['), "$.extra");
    await bad(text.replace('"id":"q2"', '"id":"q0"'), "$.legs[2].id", "repeats");
    await bad(
      text.replace('"zone":"no_such_zone","start"', '"zone":"a","zone":"b","start"'),
      "duplicate key",
    );
    await bad(text + "x", "after the document");
    await bad(text.slice(0, -3), "end of the text");
    await bad(text.slice(0, -10), "unterminated string");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan --legs: a bad leg anywhere is refused before any leg is planned", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/legs.json`;
    const legs = quickLegs(50);
    (legs[49] as unknown as Record<string, unknown>).checks = { typo_px: 3 };
    await Deno.writeTextFile(p, encodeLegs(legs));
    const r = await captureOutput(() =>
      run([`${EX}nav_test/base.nav.gz`, "--legs", p, "--jsonl"]).catch((e) => e)
    );
    assert(r.value instanceof NavscopeError, String(r.value));
    assert(r.value.message.includes("$.legs[49].checks.typo_px"), r.value.message);
    assertEquals(r.out, "", "no row printed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan --legs: a large battery streams rows (text, --json, --jsonl) and logs every plan", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const n = BUFFERED_TABLE_LEGS + 5;
    const p = `${dir}/legs.json`, log = `${dir}/plans.log`;
    await Deno.writeTextFile(p, encodeLegs(quickLegs(n)));
    const pack = `${EX}nav_test/base.nav.gz`;
    const jl = await captureOutput(() => run([pack, "--legs", p, "--jsonl", "--log", log]));
    assertEquals(jl.value, 0);
    const lines = jl.out.trimEnd().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.length, n + 1);
    assertEquals(lines.slice(0, n).map((r) => r.id), quickLegs(n).map((l) => l.id));
    assertEquals(lines[n].summary.legs, n);
    assertEquals(lines[n].summary.matched, n);
    assertEquals((await Deno.readTextFile(log)).trimEnd().split("\n").length, n);
    const js = await captureOutput(() => run([pack, "--legs", p, "--json"]));
    const doc = JSON.parse(js.out);
    assertEquals(js.out, JSON.stringify(doc, null, 2) + "\n", "the buffered document's bytes");
    assertEquals(doc.legs.length, n);
    assertEquals(doc.summary.mismatched, 0);
    const tx = await captureOutput(() => run([pack, "--legs", p, "--check"]));
    assertEquals(tx.value, 0);
    const t = tx.out.split("\n");
    assert(t[0].includes(`(${n} legs; rows as legs finish)`), t[0]);
    assert(t[1].startsWith("leg") && t[2].startsWith("q0 "), t.slice(0, 3).join("\n"));
    assert(t.some((l) => l.startsWith(`q${n - 1} `)));
    assert(tx.out.includes("summary"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan --legs --json: an empty battery is refused (bad input, nothing printed); the streamed document is the buffered one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/legs.json`, encodeLegs([]));
    // bad_value: the dispatcher turns it into exit 1 (docs/exit_codes.md).
    const empty = await captureOutput(() =>
      assertRejects(run([`${EX}nav_test/base.nav.gz`, "--legs", `${dir}/legs.json`, "--json"]))
    );
    assert(empty.value instanceof NavscopeError && empty.value.code === "bad_value", empty.err);
    assert(empty.value.message.includes("no legs"), empty.value.message);
    assertEquals(empty.out, "");
    // The rows are written as legs finish; the whole is still exactly JSON.stringify(…, 2).
    const path = `${EX}nav_test/legs.json`;
    const legs = parseLegs(await Deno.readTextFile(path), path).slice(0, 2);
    await Deno.writeTextFile(`${dir}/two.json`, encodeLegs(legs));
    const r = await captureOutput(() =>
      run([`${EX}nav_test/base.nav.gz`, "--legs", `${dir}/two.json`, "--json"])
    );
    assertEquals(r.value, 0, r.err);
    const doc = JSON.parse(r.out);
    assertEquals(doc.legs.length, 2);
    assertEquals(r.out, JSON.stringify(doc, null, 2) + "\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan --legs: a leg naming a zone the pack lacks is refused unless it expects zone_not_found", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/legs.json`;
    const legs = quickLegs(3);
    legs[2] = { ...legs[2], zone: "nav_tes", expected: "ok" };
    await Deno.writeTextFile(p, encodeLegs(legs));
    const r = await captureOutput(() =>
      run([`${EX}nav_test/base.nav.gz`, "--legs", p]).catch((e) => e)
    );
    assert(r.value instanceof NavscopeError && r.value.code === "bad_value", String(r.value));
    assert(r.value.message.includes('$.legs[2].zone: "nav_tes" is not a zone of'), r.value.message);
    assertEquals(r.out, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
