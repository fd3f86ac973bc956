/**
 * `navscope replay LOGS…`: re-plan the distinct failed legs of run logs (or every leg with
 * `--all`) on a pack, in parallel, and write `DIR/replay.log` + `DIR/replay.json`.
 * @module
 */
import { type PlanProfile, profileFromFlags } from "../src/plan/profile.ts";
import { fileURLToPath } from "node:url";
import { cwdRelative } from "./support/paths.ts";
import { NavscopeError } from "../src/errors.ts";
import { kGateCells } from "../src/plan/window/window_gate.ts";
import { readTextStrict } from "../src/codec/json_strict.ts";
import { fileProblems, requireSomeInput } from "../src/analyze/run.ts";
import { bundleTable } from "../src/analyze/tables.ts";
import { outcomeLabel, parseShard, REPLAY_OUTCOMES } from "../src/analyze/replay.ts";
import {
  replayLogs,
  type ReplayReport,
  type ReplayResult,
  writeReplayDir,
} from "../src/analyze/replay_run.ts";
import { type Leg as BatteryLeg, parseLegs } from "../src/legs/format.ts";
import { requireWritable } from "./support/preflight.ts";
import { join } from "node:path";
import { writeFilesAtomic } from "../src/codec/file.ts";
import {
  formatFromFlags,
  io,
  parseFlags,
  printTables,
  Progress,
  type TableModel,
  warnBundles,
  warnFileProblems,
} from "./support/terminal.ts";

/** The embedded example pack (replay's default PACK). */
export const DEFAULT_PACK = fileURLToPath(
  new URL("../examples/city_small/base.nav.gz", import.meta.url),
);

/** One line for the command list. */
export const summary = "Re-plan the failed legs of run logs on a pack (parallel, sharded)";

/** Usage text. */
export const help =
  `navscope replay LOGS… [--pack PACK …] [--all] [--jobs N] [--shard i/n] [--out DIR]
                [--window-gate C|off] [--battery LEGS.json …] [--json|--md|--csv] [--strict]
                [--profile NAME | --profile-file FILE] [--svg DIR [--svg-max N]]

Reads run logs (files, directories, globs, .gz, rotations), collects the distinct failed legs
(every leg with --all), re-plans each on PACK and writes DIR/replay.log (navscope plan lines,
in leg-key order, each stamped with the leg's first log time) and DIR/replay.json (summary).

Per leg: fixed | still failing (same class) | failing differently | newly failing (--all) |
still ok (--all) | not replayable (zone in none of the packs, endpoints unknown), with old and
new class, tier, kind, total ms and how often the leg failed in the logs. A navscope plan line
replays exactly (same pack and planner: "identical" when the new record equals the logged one
in every field but the timings); a MaaFramework navigator leg lacks floors, start deck and
discs: it is replayed with what is known and marked partial_request.

  --pack PACK      main pack (repeatable: a leg goes to the pack that has its zone, the one
                   with the logged build hash first); default examples/city_small/base.nav.gz
  --all            every distinct leg, not only the failed ones
  --jobs N         parallel workers, one engine each (default: cores); the output does not
                   depend on N (but for timing fields)
  --window-gate C  with --jobs > 1, windows of at least C cells run one at a time and share one
                   scratch arena (default 8388608, ≈ 300 MB each; "off": large windows overlap,
                   faster on a box with memory to spare, ≈ 37 B per cell per worker)
  --shard i/n      only the i-th of n slices of the distinct legs (by FNV-1a 64 of the leg
                   key); join shard outputs with navscope merge
  --out DIR        output directory (default: replay-out)
  --battery FILE   a legs.json whose legs' test overrides (window, max_cells,
                   cancel_before_tier) apply to the matching plan lines (repeatable)
  --json           print replay.json; --md / --csv the tables
  --strict         stop at the first unreadable log file
  --profile NAME   planner profile of the re-plans: spec (default) or reference; recorded in
                   every plan line and replay.json (docs/profiles.md). Replaying the same logs
                   under two profiles and diffing (--across-profiles) lists the legs that the
                   specification's changes fixed or broke
  --profile-file F a custom profile (JSON: base + switch overrides)
  --svg DIR        also draw each distinct failing leg (at most --svg-max, default 25, top
                   leg of every class first) as DIR/leg-NN.svg: \`plan --svg\`'s picture of the
                   replayed window with the log's planned path (NAVMESH generated path.) and
                   the observed track (MapLocator fixes) of the leg's run as layers of their
                   own, toggleable in the legend; DIR/index.md lists them

Ctrl-C stops cleanly: workers end, the legs done so far are written, the summary says
interrupted, exit 130.

The packs are loaded and the output folder checked before any log is read: a missing or
corrupt pack (or its paired sidecars) is refused with exit 1, naming the file and the reason.

Exit status: 0 done; 1 bad input (no readable log, bad pack, unwritable --out); 2 usage;
130 interrupted.`;

function usage(what: string): NavscopeError {
  return new NavscopeError("usage", `replay: ${what} (see navscope replay --help)`);
}

/** Reads battery files. */
export async function readBatteries(paths: readonly string[]): Promise<BatteryLeg[]> {
  const out: BatteryLeg[] = [];
  for (const p of paths) {
    let text: string;
    try {
      text = await readTextStrict(p);
    } catch (e) {
      if (e instanceof NavscopeError) throw e;
      throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
        file: p,
      });
    }
    out.push(...parseLegs(text, p));
  }
  return out;
}

/** Parses `--jobs` (default: cores). */
export function jobsFlag(v: string | undefined, cmd: string): number {
  if (v === undefined) return Math.max(1, navigator.hardwareConcurrency || 1);
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new NavscopeError(
      "usage",
      `${cmd}: --jobs needs an integer 1..256, got ${
        JSON.stringify(v)
      } (see navscope ${cmd} --help)`,
    );
  }
  return n;
}

/**
 * Parses `--window-gate` (cells, or "off"): the size from which windows of parallel workers run
 * one at a time (src/plan/window/window_gate.ts). Default kGateCells.
 */
export function windowGateFlag(v: string | undefined, cmd: string): number {
  if (v === undefined) return kGateCells;
  if (v === "off") return Number.POSITIVE_INFINITY;
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < 1) {
    throw new NavscopeError(
      "usage",
      `${cmd}: --window-gate needs a cell count ≥ 1 or "off", got ${
        JSON.stringify(v)
      } (see navscope ${cmd} --help)`,
    );
  }
  return n;
}

/** Runs replay. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("replay", args, {
    pack: { type: "string", multiple: true },
    all: { type: "boolean" },
    jobs: { type: "string" },
    "window-gate": { type: "string" },
    shard: { type: "string" },
    out: { type: "string" },
    battery: { type: "string", multiple: true },
    json: { type: "boolean" },
    csv: { type: "boolean" },
    md: { type: "boolean" },
    strict: { type: "boolean" },
    profile: { type: "string" },
    "profile-file": { type: "string" },
    svg: { type: "string" },
    "svg-max": { type: "string" },
  });
  const format = formatFromFlags(values);
  if (positionals.length === 0) throw usage("no log files given");
  const jobs = jobsFlag(values.jobs, "replay");
  const gateCells = windowGateFlag(values["window-gate"], "replay");
  let shard = null;
  if (values.shard !== undefined) {
    try {
      shard = parseShard(values.shard);
    } catch (e) {
      throw usage(String(e));
    }
  }
  const packs = (values.pack ?? [cwdRelative(DEFAULT_PACK)]).map((path) => ({ path }));
  for (const p of packs) {
    try {
      await Deno.stat(p.path);
    } catch (e) {
      throw new NavscopeError("io", `cannot read the pack: ${(e as Error).message}`, {
        file: p.path,
      });
    }
  }
  const batteries = await readBatteries(values.battery ?? []);
  const profile = await profileFromFlags(values.profile, values["profile-file"]);
  const out = values.out ?? "replay-out";
  if (values.svg === "") throw usage("--svg needs a folder");
  if (values["svg-max"] !== undefined && values.svg === undefined) {
    throw usage("--svg-max goes with --svg DIR");
  }
  const svgMax = svgMaxFlag(values["svg-max"]);
  // Before any work: the output folders can be written (created when missing).
  await requireWritable([
    { path: out, what: "the replay output (--out)", dir: true },
    ...(values.svg !== undefined
      ? [{ path: values.svg, what: "the pictures (--svg)", dir: true }]
      : []),
  ]);
  const ctl = new AbortController();
  const onSig = () => ctl.abort();
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onSig);
    listening = true;
  } catch { /* no signals here (e.g. Windows without a console) */ }
  const progress = new Progress();
  let res: ReplayResult;
  try {
    let announced = false;
    res = await replayLogs(positionals, {
      packs,
      all: values.all === true,
      jobs,
      gateCells,
      shard,
      batteries,
      strict: values.strict,
      signal: ctl.signal,
      ...(profile ? { profile } : {}),
      onProgress: (done, total) => {
        if (!announced) {
          announced = true;
          io.err.write(
            `navscope replay: ${total} leg${total === 1 ? "" : "s"} to replay, ${jobs} job${
              jobs === 1 ? "" : "s"
            }\n`,
          );
        }
        progress.update(total ? done / total : 1, `${done}/${total} legs`, done === total);
      },
    });
  } finally {
    progress.done();
    if (listening) Deno.removeSignalListener("SIGINT", onSig);
  }
  if (res.parse) {
    warnBundles("replay", res.parse);
    warnFileProblems("replay", fileProblems(res.parse));
    requireSomeInput(res.parse, positionals);
  }
  await writeReplayDir(out, res);
  const named = res.report.rows.filter((r) => r.leg).length;
  if (named > 0 && batteries.length === 0) {
    // Without the battery a leg's test overrides are unknown: such a leg may change for real.
    io.err.write(
      `navscope replay: note: ${named} leg${
        named === 1 ? " names its" : "s name their"
      } battery leg ([leg=…]) but no --battery was given: test overrides (window, max_cells, cancel_before_tier) are not applied
`,
    );
  }
  if (values.svg !== undefined && !res.report.interrupted) {
    const n = await writeLegSvgs(positionals, packs.map((p) => p.path), batteries, values.svg, {
      strict: values.strict,
      maxLegs: svgMax,
      profile,
    });
    io.err.write(`navscope replay: wrote ${n} picture${n === 1 ? "" : "s"} to ${values.svg}\n`);
  }
  printReplay(format, res.report, out);
  return res.report.interrupted ? 130 : 0;
}

/** Parses `--svg-max` (default 25). */
function svgMaxFlag(v: string | undefined): number {
  if (v === undefined) return 25;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 10000) {
    throw usage(`--svg-max needs an integer 1..10000, got ${JSON.stringify(v)}`);
  }
  return n;
}

/**
 * The failing legs' pictures with the log's layers (issue 35): the report's drill-down
 * (reports/report_drill.ts: the same replay, in this process, with the picture kept) fed with
 * the runs of the logs (reports/log_layers.ts), each picture written as a standalone SVG.
 * Resolves to the number of pictures written.
 */
async function writeLegSvgs(
  logs: readonly string[],
  packs: string[],
  batteries: readonly BatteryLeg[],
  dir: string,
  opts: { strict?: boolean; maxLegs: number; profile?: PlanProfile | null },
): Promise<number> {
  const { reportFromLogs } = await import("../reports/report_data.ts");
  const { addDrilldowns } = await import("../reports/report_drill.ts");
  const { logLayers } = await import("../reports/log_layers.ts");
  const { data, acc, runs } = await reportFromLogs(logs, {
    strict: opts.strict,
    runDetail: "failed",
  });
  await addDrilldowns(data, acc, packs, {
    maxLegs: opts.maxLegs,
    batteries,
    extraRoutes: logLayers(runs).routes,
    maxBytes: Infinity,
    ...(opts.profile ? { profile: opts.profile } : {}),
  });
  const files: { path: string; data: string }[] = [];
  const index = ["| picture | leg | logged class | replayed | note |", "|---|---|---|---|---|"];
  for (const l of data.failures.legs) {
    const d = data.drilldowns[l.id];
    if (!d) continue;
    const name = `leg-${String(files.length + 1).padStart(2, "0")}.svg`;
    if (d.svg) files.push({ path: join(dir, name), data: d.svg });
    const cell = (s: string) => s.replace(/\|/g, "\\|");
    index.push(
      `| ${d.svg ? name : "-"} | ${cell(l.key)} | ${cell(l.class)} | ${d.class ?? "-"} | ${
        cell(d.svg ? (d.caveats ?? []).join("; ") : d.why ?? "")
      } |`,
    );
  }
  files.push({ path: join(dir, "index.md"), data: index.join("\n") + "\n" });
  await writeFilesAtomic(files);
  return files.length - 1;
}

/** Prints a replay summary in the chosen format. */
export function printReplay(
  format: ReturnType<typeof formatFromFlags>,
  r: ReplayReport,
  out: string,
): void {
  printTables(format, [...bundleTable(r.bundles ?? []), ...replayTables(r, out)], r);
}

/** The replay tables: outcome counts and one row per leg. */
export function replayTables(r: ReplayReport, out: string): TableModel[] {
  const notes = [
    `${r.done} of ${r.legs} legs${
      r.shard ? ` (shard ${r.shard.index}/${r.shard.count} of ${r.legs_total})` : ""
    }${
      r.interrupted ? `; interrupted: ${r.pending} not replayed` : ""
    }; ${r.partial_requests} partial requests; exact replays identical ${r.identical}, not identical ${r.not_identical}`,
    `planner profile ${r.profile ?? "spec"}`,
    `wrote ${out}/replay.log and ${out}/replay.json`,
  ];
  const counts: TableModel = {
    title: r.interrupted ? "replay (interrupted)" : "replay",
    head: ["outcome", "legs"],
    rows: REPLAY_OUTCOMES.map((o) => [outcomeLabel(o), r.counts[o]]),
    notes,
  };
  const legs: TableModel = {
    title: "legs",
    head: [
      "leg",
      "request",
      "old class",
      "new class",
      "outcome",
      "tier",
      "kind",
      "total ms",
      "failed",
    ],
    rows: r.rows.map((x) => [
      // A leg the plan lines name is reported by its battery id (zone beside it).
      x.leg ? `${x.leg} (${x.zone})` : x.key,
      x.request === "none" ? `- (${x.reason})` : x.request,
      x.old.class,
      x.new ? x.new.class : "-",
      outcomeLabel(x.outcome),
      x.new ? x.new.tier : null,
      x.new?.kind || "-",
      x.new ? x.new.total_ms : null,
      `${x.failures}/${x.occurrences}`,
    ]),
    align: ["left", "left", "left", "left", "left", "right", "left", "right", "right"],
  };
  return [counts, legs];
}
