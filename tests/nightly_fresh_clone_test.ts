/**
 * `deno task nightly` on a fresh clone exits 0 on any machine (issue 26 "Done when"): the test
 * clones its own checkout's committed HEAD (in CI a clean clone of main) into a temp folder,
 * installs, runs the task end to end there and asserts exit 0 and the verdict text. This proves
 * the committed baseline (examples/baseline/) matches the committed planner: outcomes and work
 * counters are equal, and timings are judged only when the baseline's machine.json names this
 * machine (loose thresholds), never against another machine's timings.
 *
 * Slow (the five example batteries, about a minute alone): it is the CI's proof, run once.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "./assert.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function sh(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    stdin: "null",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
}

Deno.test("nightly: `deno task nightly` exits 0 in a fresh clone", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "nightly_clone_" });
  try {
    const clone = join(tmp, "navscope");
    // --no-local: a real clone (objects copied, no hard links), as a new user's checkout.
    const c = await sh("git", ["clone", "--no-local", "--quiet", ROOT, clone], tmp);
    assertEquals(c.code, 0, c.err);
    const inst = await sh(Deno.execPath(), ["install"], clone);
    assertEquals(inst.code, 0, inst.err);
    const t0 = performance.now();
    const n = await sh(Deno.execPath(), ["task", "nightly"], clone);
    const secs = (performance.now() - t0) / 1000;
    assertEquals(n.code, 0, `exit ${n.code}\n${n.out}\n${n.err}`);
    assert(n.out.startsWith("## navscope diff: PASS"), n.out);
    assert(/\d\/\d diff: pass/.test(n.err), n.err); // step numbering may grow (a report step)
    assert(!n.err.includes("report: skipped"), n.err);
    // The run recorded where it ran.
    const m = JSON.parse(await Deno.readTextFile(join(clone, "nightly-out", "machine.json")));
    assertEquals(m.format, "navscope-machine");
    // The task's permissions let it read the CPU model (--allow-sys=cpus).
    assert(m.cpu !== "unknown", JSON.stringify(m));
    console.log(`deno task nightly in a fresh clone: ${secs.toFixed(1)} s`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
