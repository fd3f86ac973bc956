/**
 * `navscope triage BUNDLE… [--pack PACK …] [--out DIR]`: a bug report's log bundle in one
 * command — triage.md (a GitHub issue comment), report.html and one PNG per distinct failing
 * leg (src/jobs/triage.ts; docs/triage.md).
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { runTriage } from "../src/jobs/triage.ts";
import { requireUsablePack } from "./support/preflight.ts";
import { jobsFlag } from "./support/flags.ts";
import { io, jobPrinter, parseFlags } from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Triage a bug report's log bundle: triage.md comment, report, pictures";

/** Usage text. */
export const help =
  `navscope triage BUNDLE… [--pack PACK …] [--jobs N] [--out DIR] [--max-legs N] [--strict]

Reads a MaaEnd bug report's logs — the GUI's -partNN.zip volumes, the older single zip, a
hand-made zip of debug/, an extracted folder or loose logs — groups them into navigation runs
and writes, in DIR (default triage/):

  triage.md     a GitHub issue comment (≤ 65 536 characters): the verdict first (N planner
                failures in M runs, by class; Chinese and English), the bundle (version, stamp,
                volumes found and missing, navigator files), then per distinct failing leg the
                run, zone, start → goal, declared deck, the planner's message with its English
                gloss, the class, the distance to the mesh, zipline state and, with --pack, the
                replay verdict ("reproduces (same class)", "does not reproduce: ok on this
                pack", "zone not in this pack")
  report.html   the navscope report of the same logs (with --pack: drill-downs whose pictures
                carry the log's planned path and observed track as layers)
  leg-NN.png    one picture per distinct failing leg
  run-NN.png    one picture per failed run (planned path, track, zipline hops, end), and
  run-NN.svg    the same drawing as SVG

and prints the Markdown.

  --pack PACK    replay the failing legs on PACK (repeatable; a leg goes to the pack with its zone);
                 on logs without plan lines, every distinct leg is also replayed once for the
                 tier and stage statistics (labelled "replayed on PACK …") and the legs whose
                 logged outcome the replay contradicts are listed (docs/triage.md)
  --jobs N       replay workers for those statistics (default 1)
  --out DIR      output folder (default triage)
  --max-legs N   legs replayed at most (default 50)
  --strict       exit 1 on a missing volume or an unreadable volume or file

Exit status: 0 done; 1 bad input (no readable log, a pack that cannot be read, --strict
problems); 2 usage error.`;

/** Runs triage; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("triage", args, {
    pack: { type: "string", multiple: true },
    jobs: { type: "string" },
    out: { type: "string" },
    "max-legs": { type: "string" },
    strict: { type: "boolean" },
  });
  if (positionals.length === 0) {
    throw new NavscopeError(
      "usage",
      "triage: no bundle given",
      {},
      "BUNDLE… (zips, folders, logs)",
    );
  }
  let maxLegs = 50;
  if (values["max-legs"] !== undefined) {
    maxLegs = Number(values["max-legs"]);
    if (!Number.isInteger(maxLegs) || maxLegs < 0) {
      throw new NavscopeError("usage", `triage: --max-legs ${values["max-legs"]} is not a count`);
    }
  }
  const packs = values.pack ?? [];
  // Refuse an unusable pack before the long read (DEVELOPERS: errors before long work).
  for (const p of packs) await requireUsablePack(p);
  const out = (values.out ?? "triage").replace(/\/$/, "");
  const jobs = jobsFlag(values.jobs, "triage");
  const res = await runTriage({
    inputs: positionals,
    out,
    packs,
    strict: values.strict,
    maxLegs,
    jobs,
    onProgress: jobPrinter("triage"),
  });
  io.out.write(res.markdown);
  return 0;
}
