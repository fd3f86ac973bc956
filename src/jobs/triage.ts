/**
 * The triage workflow (navscope triage; issue 35): a bug report's log bundle in one step. The
 * bundle's logs are read as every command reads them (src/logs/bundle.ts), grouped into
 * navigation runs (src/analyze/nav_runs.ts), the distinct failing legs replayed on the packs when
 * given, and rendered as a GitHub issue comment (reports/triage.ts), the HTML report and one
 * PNG per distinct failing leg and per failed run (docs/triage.md).
 * @module
 */
import type { PlanResult } from "../plan/types.ts";
import type { LegPicture } from "../plan/types.ts";
import { bundleFacts } from "../analyze/bundle_facts.ts";
import { requireSomeInput } from "../analyze/log_pipeline.ts";
import { writeFilesAtomic } from "../codec/file.ts";
import { type FailingLeg, reportFromLogs } from "../../reports/report_data.ts";
import { addDrilldowns } from "../../reports/report_drill.ts";
import { reportHtml } from "../../reports/report_page.ts";
import { type LogLayers, logLayers } from "../../reports/log_layers.ts";
import { legPng, type LegPngInput } from "../../reports/leg_png.ts";
import { svgToPng } from "../../reports/svg_raster.ts";
import { failedRuns as listFailedRuns, runPictures, svgName } from "../../reports/triage_runs.ts";
import {
  logLacksPlans,
  logStatsSource,
  replayReportStats,
  statsMarkdownLines,
} from "../../reports/report_replay.ts";
import { type TriageLeg, triageMarkdown, type TriageResult } from "../../reports/triage.ts";
import { type OnJobEvent, warnParse } from "./progress.ts";

/** Options of {@link triage}. */
export interface TriageOptions {
  /** Packs to replay on (none: no replay, the comment says how to add it). */
  packs?: readonly string[];
  strict?: boolean;
  /** Legs replayed at most (default 50). */
  maxLegs?: number;
  /** Replay workers for the replayed statistics (default 1). */
  jobs?: number;
}

/** Reads, replays and writes the triage of `inputs`. */
export async function triage(
  inputs: readonly string[],
  opts: TriageOptions = {},
): Promise<TriageResult> {
  // One pass: the report's data and every run with its detail (planned paths, track).
  const { data, parse, acc, runs } = await reportFromLogs(inputs, {
    strict: opts.strict,
    runDetail: "all",
  });
  const bundles = bundleFacts(parse);
  const log = logLayers(runs);
  const legs: TriageLeg[] = data.failures.legs.filter((l) => l.origin !== "load").map((l, i) => ({
    n: i + 1,
    leg: l,
    run: log.runOf(l),
    replay: "",
    replayClass: "",
    distance: "",
    picture: `leg-${String(i + 1).padStart(2, "0")}.png`,
  }));
  const byId = new Map(legs.map((t) => [t.leg.id, t]));
  const pictures = new Map<number, LegPicture | null>();
  if (opts.packs && opts.packs.length > 0) {
    await addDrilldowns(data, acc, opts.packs, {
      maxLegs: opts.maxLegs ?? 50,
      extraRoutes: log.routes,
      onReplay: (l: FailingLeg, pic: LegPicture | null, res: PlanResult) => {
        pictures.set(l.id, pic);
        const t = byId.get(l.id);
        if (t) t.distance = distanceWords(res);
      },
    });
    for (const t of legs) {
      const d = data.drilldowns[t.leg.id];
      if (!d) {
        t.replay = "not replayed (over --max-legs)";
        continue;
      }
      t.replayClass = d.class ?? "";
      if (d.class === undefined) {
        t.replay = /in none of the packs/.test(d.why ?? "")
          ? "zone not in this pack"
          : `not replayed: ${d.why ?? ""}`;
      } else if (d.class === "ok") t.replay = "does not reproduce: ok on this pack";
      else if (d.class === t.leg.class) t.replay = "reproduces (same class)";
      else t.replay = `fails differently: ${d.class} (the log: ${t.leg.class})`;
    }
  }
  const pngs = new Map<string, Uint8Array>();
  for (const t of legs) pngs.set(t.picture, await legPng(legPictureInput(t, pictures, log, opts)));
  const failures = data.overview.failures_by_class.reduce((s, c) => s + c.count, 0);
  const failedRuns = new Set(legs.map((t) => t.run).filter((r) => r !== null)).size;
  // Every failed run, planner or not (issue 53), with its cause and picture.
  const failedRunList = listFailedRuns(runs);
  // One drawing, two outputs (docs/pictures.md): each run's SVG also as the PNG the comment names.
  const svgs = runPictures(failedRunList);
  for (const t of failedRunList) pngs.set(t.picture, await svgToPng(svgs.get(svgName(t))!));
  // The tier and stage sections: replayed when the logs carry no plan record (issue 53).
  data.stats_source = opts.packs?.length && logLacksPlans(data)
    ? await replayReportStats(data, inputs, {
      packs: opts.packs.map((path) => ({ path })),
      jobs: opts.jobs,
      strict: opts.strict,
    })
    : logStatsSource(data);
  const html = await reportHtml(data, "navscope triage");
  const result: TriageResult = {
    markdown: "",
    html,
    pngs,
    legs,
    runs,
    bundles,
    failures,
    failedRuns,
    parse,
    failedRunList,
    svgs,
    statsLines: statsMarkdownLines(data),
  };
  result.markdown = triageMarkdown(result, data.overview.failures_by_class, opts.packs ?? []);
  return result;
}

/** What a leg's picture shows: title, the logged message, the replay verdict or why no cells. */
function legPictureInput(
  t: TriageLeg,
  pictures: ReadonlyMap<number, LegPicture | null>,
  log: LogLayers,
  opts: TriageOptions,
): LegPngInput {
  const l = t.leg, picture = pictures.get(l.id) ?? null;
  const notes: string[] = [];
  if (picture) notes.push(`Replay: ${t.replay}.`);
  else if (opts.packs?.length) {
    notes.push(
      t.replay === "zone not in this pack"
        ? `zone ${l.zone} not in the packs: no walkable cells drawn`
        : `${t.replay || "not replayed"}: no walkable cells drawn`,
    );
  } else notes.push("no --pack given: no walkable cells drawn (add --pack PACK to replay)");
  return {
    picture,
    title: `leg ${t.n} · ${l.class} · ${l.zone}` + (t.run ? ` · ${t.run.nodeName}` : ""),
    message: l.error,
    notes,
    start: l.start,
    goal: l.goal,
    ...log.layers(l),
  };
}

function distanceWords(res: PlanResult): string {
  const d = res.debug;
  const parts: string[] = [];
  if (d.snapStart !== null) parts.push(`start ${d.snapStart.toFixed(1)} px`);
  if (d.snapGoal !== null) parts.push(`goal ${d.snapGoal.toFixed(1)} px`);
  let out = parts.length ? `to the reach domain: ${parts.join(", ")}` : "";
  if (d.gap) out += `${out ? "; " : ""}disconnection gap ${d.gap.distance.toFixed(1)} px`;
  return out;
}

/** Options of {@link runTriage}: {@link triage}'s, the inputs and where to write. */
export interface TriageJobOptions extends TriageOptions {
  /** The bundle: zip volumes, a folder or loose logs. */
  inputs: readonly string[];
  /** Output folder (created): triage.md, report.html, leg-NN.png, run-NN.png/svg. */
  out: string;
  /** Bundle and file warnings. */
  onProgress?: OnJobEvent;
}

/**
 * Triages a bundle and writes its outputs together (temp files, then renamed). Refuses inputs
 * of which nothing could be read.
 */
export async function runTriage(o: TriageJobOptions): Promise<TriageResult> {
  const { inputs, out, onProgress, ...opts } = o;
  const res = await triage(inputs, opts);
  warnParse(res.parse, onProgress, { files: false });
  requireSomeInput(res.parse, inputs);
  warnParse({ ...res.parse, bundles: [] }, onProgress);
  await Deno.mkdir(out, { recursive: true });
  await writeFilesAtomic([
    { path: `${out}/triage.md`, data: res.markdown },
    { path: `${out}/report.html`, data: res.html },
    ...[...res.pngs].map(([name, data]) => ({ path: `${out}/${name}`, data })),
    ...[...res.svgs].map(([name, data]) => ({ path: `${out}/${name}`, data })),
  ]);
  return res;
}
