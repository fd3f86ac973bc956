/**
 * `navscope stats LOGS… --by-tier`: tier and timing statistics of successful plans (the spec's
 * 分档实测 / 搜索实测 tables) from navscope plan lines.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { fileProblems, parseTimeArg, requireSomeInput, statsLogs } from "../src/analyze/run.ts";
import type { StatsFilter } from "../src/analyze/stats.ts";
import { statsTables } from "../src/analyze/tables.ts";
import {
  formatFromFlags,
  parseFlags,
  printTables,
  Progress,
  warnBundles,
  warnFileProblems,
} from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Tier / timing statistics from run logs (stats --by-tier)";

/** Usage text. */
export const help = `navscope stats LOGS… [--by-tier] [--by zone] [--since T] [--until T] [--zone Z]
                [--json|--csv|--md] [--strict]

Tier and timing statistics of the successful plans in navscope plan lines (failures are
counted and excluded, as in the spec's 分档实测; counted as classify counts them: failed legs,
navigator lines included, and pack-load failures):
  escalation-reason combinations per plan; per final tier: plans, total p50/p90/max and
  "other" p50 (total − window − topology − geometry); window area buckets (≤ 2.9 M,
  2.9–3 M, > 3 M cells) by tier; share finished at tier 0; per-stage sum/p50/max;
  for plans whose lines carry them (docs/counters.md): "other" broken down into its
  sub-stages plus the unattributed remainder (sum/p50/p90/max, remainder's share of the
  total), and the work counters (sum/p50/p90/max, overall and per final tier).
Percentiles are nearest rank: the value at rank ⌈p/100·n⌉ of the sorted samples.

  --by-tier        the per-tier tables (the default and only mode; accepted for clarity)
  --by zone        repeat every table per zone
  --since T        keep plans logged at or after T   (YYYY-MM-DD[ HH:MM[:SS[.mmm]]])
  --until T        keep plans logged before T; a date alone includes that whole day
  --zone Z         keep only zone Z (repeatable, or comma-separated)
  --json           {plans, failed_excluded, failures, tier0_share, tier0_small_share, tiers: [{tier,
                   count, total_ms: {p50, p90, max}, other_ms_p50}], reason_names, reasons,
                   window_buckets, stages, counter_plans, counters: [{counter, sum,
                   p50, p90, max}], counters_by_tier: [{tier, plans, counters}],
                   other_plans, other_stages: [{stage, sum_ms, p50_ms, p90_ms, max_ms}],
                   other_unattributed_share, unparsed_lines, zones?}
  --csv | --md     the tables as CSV or Markdown
  --strict         stop with exit 1 at the first unreadable file or corrupt .gz
                   (default: skip it with a warning; a corrupt .gz counts what decoded
                   before the damage, "read up to line N")

Exit status: 0 done (some inputs may have been skipped with a warning); 1 no input could be
read at all (missing files, a glob matching nothing, only unreadable/binary files), or an
unreadable file with --strict; 2 usage error.`;

/** Runs stats; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("stats", args, {
    "by-tier": { type: "boolean" },
    by: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    zone: { type: "string", multiple: true },
    json: { type: "boolean" },
    csv: { type: "boolean" },
    md: { type: "boolean" },
    strict: { type: "boolean" },
  });
  const format = formatFromFlags(values);
  if (values.by !== undefined && values.by !== "zone" && values.by !== "tier") {
    throw new NavscopeError(
      "usage",
      `stats: unknown --by value "${values.by}"`,
      {},
      "zone (tiers are always shown)",
    );
  }
  if (positionals.length === 0) {
    throw new NavscopeError("usage", "stats: no log files given", {}, "LOGS… (files, dirs, globs)");
  }
  const filter: StatsFilter = {};
  if (values.since !== undefined) filter.since = parseTimeArg("--since", values.since);
  if (values.until !== undefined) filter.until = parseTimeArg("--until", values.until, true);
  if (filter.since !== undefined && filter.until !== undefined && filter.until <= filter.since) {
    throw new NavscopeError("usage", "stats: --until is not after --since", {}, "since < until");
  }
  if (values.zone) {
    filter.zones = values.zone.flatMap((z) => z.split(",")).map((z) => z.trim()).filter((z) => z);
  }
  const progress = new Progress();
  const { report, parse } = await statsLogs(positionals, {
    filter,
    byZone: values.by === "zone",
    strict: values.strict,
    onProgress: (f, label) => progress.update(f, label),
  });
  progress.done();
  warnBundles("stats", parse);
  warnFileProblems("stats", fileProblems(parse));
  requireSomeInput(parse, positionals);
  printTables(format, statsTables(report), report);
  return 0;
}
