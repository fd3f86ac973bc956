/**
 * `navscope stats LOGS… --by-tier`: tier and timing statistics of successful plans (the spec's
 * 分档实测 / 搜索实测 tables) from navscope plan lines.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import {
  fileProblems,
  parseTimeArg,
  requireSomeInput,
  statsLogs,
} from "../src/analyze/log_pipeline.ts";
import type { StatsFilter } from "../src/analyze/stats.ts";
import { statsTables } from "../src/analyze/tables.ts";
import { type ReplayedStats, statsJson, statsWithReplay } from "../src/analyze/replay_stats.ts";
import { profileFromFlags } from "../src/plan/profile.ts";
import { jobsFlag } from "./support/flags.ts";
import { requirePacksReadable } from "./support/preflight.ts";
import {
  formatFromFlags,
  io,
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
                [--pack PACK …] [--jobs N] [--profile NAME | --profile-file FILE]
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
Every table names its source: "from the log" or "replayed on PACK (build hash, profile,
navscope version)". A share over zero plans is "n/a". MaaEnd's navigator lines carry no tier,
window, reason or stage time: without --pack those tables say "not in these logs — add --pack
PACK to replay them"; with --pack every distinct leg with coordinates is re-planned once (as
replay --all does) and every log leg is counted with its replay (docs/classify_and_stats.md).

  --by-tier        the per-tier tables (the default and only mode; accepted for clarity)
  --by zone        repeat every table per zone
  --since T        keep plans logged at or after T   (YYYY-MM-DD[ HH:MM[:SS[.mmm]]])
  --until T        keep plans logged before T; a date alone includes that whole day
  --zone Z         keep only zone Z (repeatable, or comma-separated)
  --pack PACK      replay the logs' legs on PACK (repeatable; a leg goes to the first pack
                   with its zone) and add the replayed tables, the cache hit rate and the legs
                   whose logged outcome the replay contradicts
  --jobs N         replay workers (default: 1)
  --profile NAME   planner profile of the re-plans (spec, reference); --profile-file F custom
  --json           {plans, failed_excluded, failures, tier0_share, tier0_small_share, tiers: [{tier,
                   count, total_ms: {p50, p90, max}, other_ms_p50}], reason_names, reasons,
                   window_buckets, stages, counter_plans, counters: [{counter, sum,
                   p50, p90, max}], counters_by_tier: [{tier, plans, counters}],
                   other_plans, other_stages: [{stage, sum_ms, p50_ms, p90_ms, max_ms}],
                   other_unattributed_share, unparsed_lines, zones?, source: {kind, label},
                   not_in_logs?: {reason, fields} (those fields null), replayed?: {source:
                   {kind, label, packs, profile, planner}, …the same body…, legs: {log_legs,
                   served, distinct, cache_hits, cache_hit_rate, not_replayed},
                   contradictions: [{key, zone, start, goal, where, what, logged_ok,
                   logged_failed, logged_class, replay_class, replay_tier, contradicted}]}}
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
    pack: { type: "string", multiple: true },
    jobs: { type: "string" },
    profile: { type: "string" },
    "profile-file": { type: "string" },
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
  const packs = (await requirePacksReadable(values.pack ?? [])).map((path) => ({ path }));
  if (
    packs.length === 0 &&
    (values.jobs !== undefined || values.profile !== undefined ||
      values["profile-file"] !== undefined)
  ) {
    throw new NavscopeError(
      "usage",
      "stats: --jobs and --profile go with --pack",
      {},
      "--pack PACK",
    );
  }
  const progress = new Progress();
  const common = {
    filter,
    byZone: values.by === "zone",
    strict: values.strict,
    onProgress: (f: number, label: string) => progress.update(f, label),
  };
  let replayed: ReplayedStats | undefined;
  let res;
  if (packs.length) {
    const jobs = jobsFlag(values.jobs, "stats");
    const profile = await profileFromFlags(values.profile, values["profile-file"]);
    let announced = false;
    const r = await statsWithReplay(positionals, {
      ...common,
      packs,
      jobs,
      ...(profile ? { profile } : {}),
      onReplayProgress: (done, total) => {
        if (!announced) {
          announced = true;
          io.err.write(`navscope stats: ${total} distinct legs to replay, ${jobs} jobs\n`);
        }
        progress.update(total ? done / total : 1, `${done}/${total} legs replayed`);
      },
    });
    replayed = r.replayed;
    res = r;
  } else res = await statsLogs(positionals, common);
  progress.done();
  const { report, parse } = res;
  warnBundles("stats", parse);
  warnFileProblems("stats", fileProblems(parse));
  requireSomeInput(parse, positionals);
  printTables(format, statsTables(report, replayed), statsJson(report, replayed));
  return 0;
}
