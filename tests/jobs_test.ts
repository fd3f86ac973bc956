/**
 * The workflows (src/jobs/) as a library user sees them: progress and warnings arrive as events,
 * nothing is printed, and the commands print those events as they always printed them
 * (commands/support/terminal.ts jobPrinter). Quick: the example baseline log, no planning.
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";
import { fileProblemWarnings, type JobEvent } from "../src/jobs/progress.ts";
import { runReport } from "../src/jobs/report.ts";
import { diffPaths } from "../src/jobs/diff.ts";
import { captureOutput, jobPrinter } from "../commands/support/terminal.ts";

const PLANS = fileURLToPath(new URL("../examples/baseline/plans.log", import.meta.url));

Deno.test("jobs: a skipped and a partly read file are worded as the commands always did", () => {
  assertEquals(
    fileProblemWarnings([
      { file: "a.log", error: "No such file" },
      { file: "b.log.gz", error: "corrupt gzip; read up to line 12" },
    ]),
    ["skipped a.log: No such file", "partly read b.log.gz: corrupt gzip; read up to line 12"],
  );
});

Deno.test("jobs: runReport hands its warnings and progress over as events and prints nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const events: JobEvent[] = [];
    const missing = `${dir}/missing.log`;
    const { value, out, err } = await captureOutput(() =>
      runReport({
        logs: [PLANS, missing],
        out: `${dir}/report.html`,
        onProgress: (e) => events.push(e),
      })
    );
    assertEquals([out, err], ["", ""]);
    assertEquals(value.data.overview.plans, 108);
    const warnings = events.filter((e) => e.kind === "warning");
    assertEquals(warnings.length, 1);
    assert(warnings[0].kind === "warning" && warnings[0].text.startsWith(`skipped ${missing}: `));
    assert((await Deno.stat(`${dir}/report.html`)).size > 100_000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jobs: jobPrinter prints steps and warnings as `navscope CMD: …`, a step's warning under its name", async () => {
  const { err } = await captureOutput(() => {
    const p = jobPrinter("nightly");
    p({ kind: "step", text: "1/4 planned" });
    p({ kind: "warning", text: "skipped x.log: gone", from: "diff" });
    p({ kind: "warning", text: "bundle part02 missing" });
    p({ kind: "fraction", fraction: 0.5, label: "half" }); // no TTY: no bar
    return Promise.resolve();
  });
  assertEquals(
    err,
    "navscope nightly: 1/4 planned\nnavscope diff: warning: skipped x.log: gone\n" +
      "navscope nightly: warning: bundle part02 missing\n",
  );
});

Deno.test("jobs: diffPaths of a run with itself passes, its summary rendered", async () => {
  const { report, markdown } = await diffPaths(PLANS, PLANS);
  assertEquals(report.verdict, "pass");
  assert(markdown.startsWith("## navscope diff: PASS\n"), markdown.slice(0, 80));
});
