/**
 * `navscope report LOGS… --out report.html [--baseline BASE] [--pack PACK] [--trace out.json]`:
 * the self-contained HTML report (reports/), optionally a Chrome trace of the stage timings.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { loadThresholds } from "../src/analyze/diff.ts";
import { readBatteries } from "../src/legs/read.ts";
import { batteriesBesidePacks, runReport } from "../src/jobs/report.ts";
import { requireUsablePack, requireWritable } from "./support/preflight.ts";
import { jobsFlag } from "./support/flags.ts";
import { io, jobPrinter, parseFlags, Progress } from "./support/terminal.ts";

/** One line for the command list. */
export const summary = "Self-contained HTML report of run logs (charts, failures, drill-downs)";

/** Usage text. */
export const help = `navscope report LOGS… --out report.html [--baseline BASE [--thresholds FILE]
                 [--across-profiles]]
                 [--pack PACK …] [--battery LEGS.json …] [--drill N] [--trace out.json]
                 [--title T] [--max-points N] [--max-legs N] [--json FILE] [--strict]

One HTML file (chart.js inlined, every figure embedded as JSON, no network request of any kind;
light and dark mode; printable) with: overview (with --baseline, the verdict first: better or
worse, new and fixed failing legs, the metrics over threshold; then plans, success rate,
failures by class, distinct failing legs, time range, planner version, pack build hash,
zones); tier distribution (plans by final tier stacked by escalation reasons, the window-area
scatter with the 3 M-cell line, per-tier total-time percentiles); one tier × stage timing
table; a sortable, filterable table of distinct failing legs (with their battery leg ids) whose
rows open a drill-down; with --baseline the diff's metric table. Chinese planner messages keep
their wording and carry an English gloss.

  --out FILE         the HTML file to write (required; missing parent folders are created)
  --pack PACK        replay failing legs on PACK and draw their pictures in the drill-downs
                     (the plan --svg picture: layers toggle, wheel zooms, drag pans, hovering a
                     cell shows its spans); repeatable: a leg goes to the pack that has its
                     zone, the one with the logged build hash first. On logs without plan
                     lines (the product's navigator logs carry no tier, window or stage time),
                     every distinct leg is also replayed once and the tier, stage and counter
                     sections come from the replayed plans, labelled "replayed on PACK (build
                     hash, profile, navscope version)", with a section of the legs whose logged
                     outcome the replay contradicts (docs/report.md)
  --jobs N           replay workers for those statistics (default 1)
  --battery FILE     a legs.json whose legs' test overrides apply to the plan lines that name
                     them ([leg=…]), as in navscope replay (repeatable); default: the
                     legs.json beside each --pack, when there is one
  --drill N          legs replayed for drill-downs at most (default 25; one of every failure
                     class first, then by failures)
  --baseline BASE    compare with BASE (logs, a replay dir or a stats --json file) exactly as
                     navscope diff (and nightly) does; needs exactly one LOGS path
  --thresholds FILE  the thresholds file of navscope diff (default: diff's defaults)
  --history FILE     a history store (navscope history): a trend chart per series with a change
                     point (or per --history-metric M, repeatable: e.g. counter:topology.pops,
                     outcome, time:total, or "battery/leg metric"), change points marked, and
                     "failing since run N (commit C)" for legs failing in their last run
  --across-profiles  with --baseline: compare runs planned under different planner profiles
                     (refused otherwise, as by navscope diff); the page then names both
                     profiles and lists the legs whose outcome the profiles' switches change
  --trace FILE       also write the per-plan stage timings as Chrome Trace Event JSON (one
                     track per worker, one slice per stage) for Perfetto / chrome://tracing
  --title T          page title (default "navscope report")
  --max-points N     scatter points embedded at most (default 2000; a sample beyond)
  --max-legs N       failing legs listed at most (default 2000, most failures first)
  --json FILE        also write the aggregated report data as JSON
  --strict           stop at the first unreadable file or corrupt .gz

Every output (--out, --json, --trace) is checked writable before the logs are read, and
they are written together (temp files, then renamed) or not at all.

Exit status: 0 written; 1 no input could be read, bad PACK/BASE/thresholds/battery or an
output that cannot be written; 2 usage error.`;

function int(flag: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    throw new NavscopeError("usage", `report: ${flag} needs a whole number ≥ 0, got "${v}"`);
  }
  return n;
}

/** Runs report; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("report", args, {
    out: { type: "string" },
    baseline: { type: "string" },
    history: { type: "string" },
    "history-metric": { type: "string", multiple: true },
    pack: { type: "string", multiple: true },
    battery: { type: "string", multiple: true },
    thresholds: { type: "string" },
    "across-profiles": { type: "boolean" },
    trace: { type: "string" },
    title: { type: "string" },
    "max-points": { type: "string" },
    "max-legs": { type: "string" },
    drill: { type: "string" },
    jobs: { type: "string" },
    json: { type: "string" },
    strict: { type: "boolean" },
  });
  if (positionals.length === 0) {
    throw new NavscopeError("usage", "report: no log files given (see navscope report --help)");
  }
  if (!values.out) {
    throw new NavscopeError("usage", "report: --out FILE is required (see navscope report --help)");
  }
  if (values.baseline !== undefined && positionals.length !== 1) {
    throw new NavscopeError(
      "usage",
      "report: --baseline compares one LOGS path (a file or a directory) (see navscope report --help)",
    );
  }
  // Before any work: every output can be written (parent folders created, as bake and replay
  // do) and the pack loads.
  await requireWritable([
    { path: values.out, what: "the report (--out)", createParents: true },
    { path: values.json, what: "the report data (--json)", createParents: true },
    { path: values.trace, what: "the trace (--trace)", createParents: true },
  ]);
  if (values["across-profiles"] && values.baseline === undefined) {
    throw new NavscopeError(
      "usage",
      "report: --across-profiles needs --baseline (see navscope report --help)",
    );
  }
  if (values.thresholds !== undefined && values.baseline === undefined) {
    throw new NavscopeError(
      "usage",
      "report: --thresholds needs --baseline (see navscope report --help)",
    );
  }
  // Wrong input is refused before the logs are read: thresholds, batteries, packs.
  if (values.thresholds !== undefined) {
    await loadThresholds(values.thresholds);
  }
  // Without --battery, a legs.json beside a --pack is the battery of its plan lines (the
  // examples' layout): their [leg=…] then replay with that leg's test overrides.
  const besides = !values.battery?.length;
  const batteryFiles = besides ? await batteriesBesidePacks(values.pack) : values.battery!;
  const batteries = await readBatteries(batteryFiles);
  for (const p of values.pack ?? []) await requireUsablePack(p);
  const maxPoints = int("--max-points", values["max-points"], 2000);
  const maxLegs = int("--max-legs", values["max-legs"], 2000);
  const drill = int("--drill", values.drill, 25);
  const t0 = performance.now();
  const progress = new Progress();
  const { data, html } = await runReport({
    logs: positionals,
    out: values.out,
    title: values.title,
    baseline: values.baseline,
    thresholds: values.thresholds,
    acrossProfiles: values["across-profiles"] === true,
    packs: values.pack ?? [],
    batteries,
    notes: batteryFiles.length && besides
      ? [`Battery overrides from the legs.json beside the packs: ${batteryFiles.join(", ")}.`]
      : [],
    drill,
    jobs: values.pack?.length ? jobsFlag(values.jobs, "report") : 1,
    history: values.history,
    historyMetrics: values["history-metric"],
    json: values.json,
    trace: values.trace,
    maxPoints,
    maxLegs,
    strict: values.strict,
    onProgress: jobPrinter("report", progress),
  });
  progress.done();
  const ms = performance.now() - t0;
  io.err.write(
    `report: ${values.out} (${
      (html.length / 1e6).toFixed(2)
    } MB, ${data.overview.plans} plans, ${data.failures.total_legs} failing legs, ${
      Object.values(data.drilldowns).filter((d) => d.svg).length
    } pictures) in ${(ms / 1000).toFixed(2)} s` +
      (values.trace ? `; trace ${values.trace}` : "") + "\n",
  );
  return 0;
}
