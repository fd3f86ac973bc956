/**
 * `navscope replay LOGS…`: re-plan the distinct failed legs of run logs (or every leg with
 * `--all`) on a pack, in parallel, and write `DIR/replay.log` + `DIR/replay.json`.
 * @module
 */
import { profileFromFlags } from "../src/plan/profile.ts";
import { fileURLToPath } from "node:url";
import { cwdRelative } from "../src/util/shown_paths.ts";
import { NavscopeError } from "../src/errors.ts";
import { parseShard } from "../src/analyze/replay.ts";
import type { ReplayResult } from "../src/analyze/replay_run.ts";
import { readBatteries } from "../src/legs/read.ts";
import { runReplay } from "../src/jobs/replay.ts";
import { requirePacksReadable, requireWritable } from "./support/preflight.ts";
import { jobsFlag, windowGateFlag } from "./support/flags.ts";
import { printReplay } from "./support/replay_text.ts";
import { formatFromFlags, jobPrinter, parseFlags, Progress } from "./support/terminal.ts";

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
  const packs = values.pack ?? [cwdRelative(DEFAULT_PACK)];
  await requirePacksReadable(packs);
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
    ({ result: res } = await runReplay({
      logs: positionals,
      packs,
      out,
      all: values.all === true,
      jobs,
      gateCells,
      shard,
      batteries,
      strict: values.strict,
      signal: ctl.signal,
      profile,
      ...(values.svg !== undefined ? { svg: { dir: values.svg, maxLegs: svgMax } } : {}),
      onProgress: jobPrinter("replay", progress),
    }));
  } finally {
    progress.done();
    if (listening) Deno.removeSignalListener("SIGINT", onSig);
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
