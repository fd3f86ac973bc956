/**
 * `navscope merge DIR…`: join the outputs of `replay --shard i/n` into one replay log and
 * summary, refusing overlapping or missing shards.
 * @module
 */
import { mergeReplayDirs, writeReplayDir } from "../src/analyze/replay_run.ts";
import { NavscopeError } from "../src/errors.ts";
import { formatFromFlags, parseFlags } from "./support/terminal.ts";
import { printReplay } from "./support/replay_text.ts";

/** One line for the command list. */
export const summary = "Join replay shard outputs into one replay log and summary";

/** Usage text. */
export const help = `navscope merge DIR… [--out DIR] [--json|--md|--csv]

Joins the output directories of navscope replay --shard 1/n … n/n (each with replay.json and
replay.log) into one: rows and lines in leg-key order, counts recomputed, the same bytes as an
unsharded replay but for timings and the run section. Refused (exit 1) when a directory is not
a shard, shards have different counts, inputs, packs or planner, a shard is given twice or a
leg is in two shards (overlap), or a shard is missing.

  --out DIR        output directory (default: replay-merged)
  --json           print the merged replay.json; --md / --csv the tables

Exit status: 0 merged (130 when a shard was interrupted); 1 refused or unreadable; 2 usage.`;

/** Runs merge. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("merge", args, {
    out: { type: "string" },
    json: { type: "boolean" },
    csv: { type: "boolean" },
    md: { type: "boolean" },
  });
  const format = formatFromFlags(values);
  if (positionals.length === 0) {
    throw new NavscopeError(
      "usage",
      "merge: no shard directories given (see navscope merge --help)",
    );
  }
  const out = values.out ?? "replay-merged";
  const res = await mergeReplayDirs(positionals);
  await writeReplayDir(out, res);
  printReplay(format, res.report, out);
  return res.report.interrupted ? 130 : 0;
}
