/**
 * `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE]`: the nightly regression gate.
 * Prints a Markdown summary (for a CI comment); exit 0 pass, 1 input error, 2 usage, 3
 * regression.
 * @module
 */
import { TIMING_GATES, type TimingGate } from "../src/analyze/diff.ts";
import { diffPaths } from "../src/jobs/diff.ts";
import { NavscopeError } from "../src/errors.ts";
import { writeFileAtomic } from "../src/codec/file.ts";
import { requireWritable } from "./support/preflight.ts";
import { io, jobPrinter, parseFlags } from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Compare two runs (logs, replay dir, stats --json): the nightly gate";

/** Usage text. */
export const help = `navscope diff BASE CURRENT [--thresholds FILE] [--json FILE]
                    [--timing-gate same_machine|always|never] [--across-profiles]

Compares two runs, each given as run logs (file, directory or glob), a replay output directory
(replay.json + replay.log) or a stats --json file: plans and success rate, failures per class,
distinct failing legs added and removed, tier distribution, per-stage timing p50/p90/max of the
successful plans. Prints a Markdown summary (verdict, metric table base → current with Δ, the
new failing legs) for a CI comment.

  --across-profiles   compare runs planned under different planner profiles (refused
                      otherwise) and list the legs whose outcome, tier, points or length
                      changed (docs/profiles.md)
  --thresholds FILE   navscope-thresholds JSON (see README "navscope diff"); merged over the
                      defaults: outcomes strict, timings +25/50/100 % over a 2/5/20 ms noise
                      floor for p50/p90/max. A threshold naming an unknown metric is an error.
  --json FILE         also write the comparison as JSON to FILE
  --timing-gate G     when timing.* metrics are judged (overrides the thresholds file's
                      "timing_gate"): same_machine (default: only when both runs carry the
                      same machine fingerprint, machine.json beside the logs or "machine" in a
                      stats file; otherwise they are shown as "not comparable across
                      machines" and never fail), always, never. See docs/gate.md.

Exit status: 0 pass; 1 input error (unreadable run, bad thresholds file); 2 usage;
3 regression (a metric over its threshold).`;

/** Runs diff; exit 0 pass, 1 input error, 2 usage, 3 regression. */
export async function run(args: string[]): Promise<number> {
  try {
    return await runDiff(args);
  } catch (e) {
    if (e instanceof NavscopeError) {
      // The exit-code rule of every command (docs/exit_codes.md): 2 usage, 1 bad input.
      io.err.write(`navscope diff: error: ${e.message.replace(/^diff: /, "")}\n`);
      return e.code === "usage" ? 2 : 1;
    }
    throw e;
  }
}

async function runDiff(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("diff", args, {
    thresholds: { type: "string" },
    json: { type: "string" },
    "timing-gate": { type: "string" },
    "across-profiles": { type: "boolean" },
  });
  if (positionals.length !== 2) {
    throw new NavscopeError(
      "usage",
      `diff needs BASE and CURRENT, got ${positionals.length} argument${
        positionals.length === 1 ? "" : "s"
      } (see navscope diff --help)`,
    );
  }
  await requireWritable([{ path: values.json, what: "the comparison (--json)" }]);
  const gate = values["timing-gate"];
  if (gate !== undefined && !TIMING_GATES.includes(gate as TimingGate)) {
    throw new NavscopeError(
      "usage",
      `unknown --timing-gate "${gate}"`,
      {},
      TIMING_GATES.join(", "),
    );
  }
  const { report, markdown } = await diffPaths(
    positionals[0],
    positionals[1],
    values.thresholds,
    gate as TimingGate | undefined,
    { acrossProfiles: values["across-profiles"] === true, onProgress: jobPrinter("diff") },
  );
  if (values.json) await writeFileAtomic(values.json, JSON.stringify(report, null, 2) + "\n");
  io.out.write(markdown);
  return report.verdict === "pass" ? 0 : 3;
}
