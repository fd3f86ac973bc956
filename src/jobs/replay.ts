/**
 * The replay workflow (navscope replay, and the replay steps of nightly and demo): re-plan the
 * distinct failed legs of run logs (every leg with `all`) on packs, in parallel, write
 * `OUT/replay.log` + `OUT/replay.json`, and optionally draw each failing leg's picture with the
 * log's layers. The pipeline itself is src/analyze/replay_run.ts; this job adds the checks, the
 * output folder and the pictures (docs/replay.md).
 * @module
 */
import { join } from "node:path";
import { writeFilesAtomic } from "../codec/file.ts";
import type { PlanProfile } from "../plan/profile.ts";
import type { Leg as BatteryLeg } from "../legs/format.ts";
import { requireSomeInput } from "../analyze/log_pipeline.ts";
import { replayLogs, type ReplayResult, writeReplayDir } from "../analyze/replay_run.ts";
import { reportFromLogs } from "../../reports/report_data.ts";
import { addDrilldowns } from "../../reports/report_drill.ts";
import { logLayers } from "../../reports/log_layers.ts";
import { type OnJobEvent, warnParse } from "./progress.ts";

/** Options of {@link runReplay}. */
export interface ReplayJobOptions {
  /** Run logs: files, directories, globs, .gz, bundles. */
  logs: readonly string[];
  /** Main packs (a leg goes to the pack that has its zone, the logged build hash first). */
  packs: readonly string[];
  /** Output folder for replay.log and replay.json (created). */
  out: string;
  /** Every distinct leg, not only the failed ones. */
  all?: boolean;
  /** Parallel workers (default 1). */
  jobs?: number;
  /** With jobs > 1, windows of at least this many cells run one at a time. */
  gateCells?: number;
  /** Only this slice of the distinct legs (by FNV-1a 64 of the leg key). */
  shard?: { index: number; count: number } | null;
  /** Battery legs whose test overrides apply to the plan lines naming them. */
  batteries?: readonly BatteryLeg[];
  /** Stop at the first unreadable log file. */
  strict?: boolean;
  /** Stops the replay; the legs done so far are written (`interrupted`). */
  signal?: AbortSignal;
  /** Planner profile of the re-plans (default spec). */
  profile?: PlanProfile | null;
  /** Also draw the distinct failing legs as `DIR/leg-NN.svg` (at most `maxLegs`) + index.md. */
  svg?: { dir: string; maxLegs: number };
  /** Steps, warnings and the replay's progress fraction. */
  onProgress?: OnJobEvent;
}

/** What {@link runReplay} did. */
export interface ReplayJobResult {
  /** The replay report and its plan lines (as written to `out`). */
  result: ReplayResult;
  /** Pictures written (null without `svg` or when interrupted). */
  pictures: number | null;
}

/**
 * Replays the logs' legs on the packs and writes the replay folder. Refuses an unusable pack
 * before any log is read, and logs of which nothing could be read.
 */
export async function runReplay(o: ReplayJobOptions): Promise<ReplayJobResult> {
  const emit = o.onProgress;
  const jobs = o.jobs ?? 1;
  let announced = false;
  const res = await replayLogs(o.logs, {
    packs: o.packs.map((path) => ({ path })),
    all: o.all === true,
    jobs,
    gateCells: o.gateCells,
    shard: o.shard ?? null,
    batteries: o.batteries ?? [],
    strict: o.strict,
    signal: o.signal,
    ...(o.profile ? { profile: o.profile } : {}),
    onProgress: (done, total) => {
      if (!announced) {
        announced = true;
        emit?.({
          kind: "step",
          text: `${total} leg${total === 1 ? "" : "s"} to replay, ${jobs} job${
            jobs === 1 ? "" : "s"
          }`,
        });
      }
      emit?.({
        kind: "fraction",
        fraction: total ? done / total : 1,
        label: `${done}/${total} legs`,
        force: done === total,
      });
    },
  });
  if (res.parse) {
    warnParse(res.parse, emit);
    requireSomeInput(res.parse, o.logs);
  }
  await writeReplayDir(o.out, res);
  const named = res.report.rows.filter((r) => r.leg).length;
  if (named > 0 && !o.batteries?.length) {
    // Without the battery a leg's test overrides are unknown: such a leg may change for real.
    emit?.({
      kind: "step",
      text: `note: ${named} leg${
        named === 1 ? " names its" : "s name their"
      } battery leg ([leg=…]) but no --battery was given: test overrides (window, max_cells, cancel_before_tier) are not applied`,
    });
  }
  let pictures: number | null = null;
  if (o.svg && !res.report.interrupted) {
    pictures = await writeLegSvgs(o.logs, [...o.packs], o.batteries ?? [], o.svg.dir, {
      strict: o.strict,
      maxLegs: o.svg.maxLegs,
      profile: o.profile,
    });
    emit?.({
      kind: "step",
      text: `wrote ${pictures} picture${pictures === 1 ? "" : "s"} to ${o.svg.dir}`,
    });
  }
  return { result: res, pictures };
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
