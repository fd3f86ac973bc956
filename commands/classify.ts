/**
 * `navscope classify LOGS…`: sort the failures in run logs into classes (see
 * src/analyze/rules.ts for the rules and their order).
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import type { ClassifyBy } from "../src/analyze/classify_report.ts";
import { loadRulesFile } from "../src/analyze/rules.ts";
import { classifyLogs, fileProblems, requireSomeInput } from "../src/analyze/log_pipeline.ts";
import { classifyTables } from "../src/analyze/tables.ts";
import {
  formatFromFlags,
  parseFlags,
  printTables,
  Progress,
  warnBundles,
  warnFileProblems,
} from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Sort failures in run logs into classes";

/** Usage text. */
export const help =
  `navscope classify LOGS… [--by class|zone|day] [--json|--csv|--md] [--rules FILE] [--strict]

Classifies every failed plan in the run logs (files, directories, globs; .gz is fine):
counts per class, distinct legs per class (zone + start + goal + deck), first/last seen and
example locations (file:line). With navigation runs in the logs, also every failed run by its
cause (planner:<class>, zipline:aim_failed, offroute:wedge_timeout, locator:worldmap_gave_up…,
docs/run_causes.md) and the log lines it could not place, by message kind.

  --by class|zone|day  also break the counts down by zone or by day (default: class only)
  --json               stable JSON: {total, unparsed_lines, classes: [{class, count, legs,
                       first_seen, last_seen, examples: [{file, line, text}]}], by, groups?,
                       runs?, run_causes?: [{cause, runs, chains, examples}],
                       unknown_kinds?: [{kind, lines}]}
  --csv | --md         the tables as CSV or Markdown
  --rules FILE         JSON rules file that extends or overrides the default rules
                       (its run_causes: rules for the causes of failed runs)
  --strict             stop with exit 1 at the first unreadable file or corrupt .gz
                       (default: skip it with a warning on stderr; what a corrupt .gz
                       decoded before the damage is counted, "read up to line N")

Exit status: 0 done (some inputs may have been skipped with a warning); 1 no input could be
read at all (missing files, a glob matching nothing, only unreadable/binary files), or an
unreadable file with --strict; 2 usage error.`;

/** Runs classify; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("classify", args, {
    by: { type: "string" },
    json: { type: "boolean" },
    csv: { type: "boolean" },
    md: { type: "boolean" },
    rules: { type: "string" },
    strict: { type: "boolean" },
  });
  const format = formatFromFlags(values);
  const by = (values.by ?? "class") as ClassifyBy;
  if (!["class", "zone", "day"].includes(by)) {
    throw new NavscopeError(
      "usage",
      `classify: unknown --by value "${values.by}"`,
      {},
      "class, zone or day",
    );
  }
  if (positionals.length === 0) {
    throw new NavscopeError(
      "usage",
      "classify: no log files given",
      {},
      "LOGS… (files, dirs, globs)",
    );
  }
  const rules = values.rules !== undefined ? await loadRulesFile(values.rules) : undefined;
  const progress = new Progress();
  const { report, parse } = await classifyLogs(positionals, {
    rules,
    by,
    strict: values.strict,
    onProgress: (f, label) => progress.update(f, label),
  });
  progress.done();
  warnBundles("classify", parse);
  warnFileProblems("classify", fileProblems(parse));
  requireSomeInput(parse, positionals);
  printTables(format, classifyTables(report), report);
  return 0;
}
