/**
 * The failed runs of a triage (issue 53): the verdict over every failed run, planner or not,
 * and one section per failed run — its cause chain, a timeline (request, legs planned, phase
 * transitions, zipline hops and their outcomes, replans, the end), where it ended against the
 * planned path, and its picture ({@link runPictureSvg}) — plus the message kinds the parser
 * could not place.
 * @module
 */
import type { ParseReport, Point2 } from "../src/logs/types.ts";
import { topUnknownKinds } from "../src/logs/run_messages.ts";
import type { NavRun } from "../src/analyze/nav_runs.ts";
import type { RuleSet } from "../src/analyze/rules.ts";
import {
  chainWords,
  type RunCause,
  runCause,
  type RunEnd,
  runEnd,
  trackZone,
} from "../src/analyze/run_causes.ts";
import { type RunPictureData, runPictureSvg } from "./run_picture.ts";

/** One failed run as triage reports it. */
export interface TriageRun {
  /** 1-based among the failed runs. */
  n: number;
  run: NavRun;
  cause: RunCause;
  end: RunEnd;
  /**
   * Picture file name (`run-01.png`): the run's SVG (`run-01.svg`, {@link runPictures}) rendered
   * by the pictures' renderer, so the issue bot can embed it like the legs' PNGs.
   */
  picture: string;
  /** The picture's data (the pictures' renderer draws it as PNG). */
  pictureData: RunPictureData;
}

/** Timeline steps a section shows at most (the first and the last half; the run keeps more). */
export const MAX_TIMELINE_SHOWN = 40;
/** Cause chains the verdict names at most (the rest are counted, their runs have sections). */
export const MAX_VERDICT_GROUPS = 8;
/** Unknown message kinds the triage lists at most. */
export const MAX_KINDS_SHOWN = 10;

/** `file:line` without the bundle path (the bundle is named once, above). */
const short = (at: string) => at.slice(Math.max(at.lastIndexOf("/"), at.lastIndexOf("!")) + 1);
const f1 = (p: Point2 | null) => (p ? `(${p[0].toFixed(1)}, ${p[1].toFixed(1)})` : "?");

/** Every failed run (`Node.Action.Failed`) with its cause, end and picture data, in log order. */
export function failedRuns(runs: readonly NavRun[], rules?: RuleSet): TriageRun[] {
  const out: TriageRun[] = [];
  for (const run of runs) {
    const cause = runCause(run, rules);
    if (!cause) continue;
    const n = out.length + 1;
    const id = `run-${String(n).padStart(2, "0")}`;
    const end = runEnd(run);
    out.push({
      n,
      run,
      cause,
      end,
      picture: `${id}.png`,
      pictureData: pictureData(id, run, cause, end),
    });
  }
  return out;
}

/** The picture data of one failed run (see reports/run_picture.ts). */
export function pictureData(id: string, run: NavRun, c: RunCause, end: RunEnd): RunPictureData {
  const last = c.chain[c.chain.length - 1];
  return {
    id,
    title: `${id}: ${run.nodeName || "?"} — ${end.zone || run.zone || "?"} — ${c.cause}`,
    zone: end.zone || run.zone,
    plannedPaths: run.plannedPaths.map((p) => ({ zone: p.zone, points: p.points })),
    track: run.track.map((t) => ({ zone: trackZone(t.zone), points: t.points })),
    hops: run.hops.map((h) => ({ mount: h.mount, landing: h.landing, outcome: h.outcome })),
    end: end.point,
    offRoutePx: end.offRoutePx,
    cause: c.cause,
    message: last.text,
  };
}

/** The SVG pictures of the failed runs: file name (`run-01.svg`) → SVG text. */
export function runPictures(list: readonly TriageRun[]): Map<string, string> {
  return new Map(list.map((t) => [svgName(t), runPictureSvg(t.pictureData)]));
}

/** The SVG file of a run's picture: its PNG's name with `.svg`. */
export function svgName(t: TriageRun): string {
  return t.picture.replace(/\.png$/, ".svg");
}

/**
 * The verdict over every failed run: "3 failed runs: 1 planner failure (goal_outside_reach),
 * 1 zipline aim failure then off-route wedge timeout, 1 world-map search gave up" (chains
 * grouped, most runs first, then in first-seen order; "2× planner failure (…)" for several).
 */
export function runsVerdict(list: readonly TriageRun[]): string {
  if (list.length === 0) return "no failed run";
  const groups = new Map<string, number>();
  for (const t of list) {
    const w = chainWords(t.cause);
    groups.set(w, (groups.get(w) ?? 0) + 1);
  }
  const sorted = [...groups].map(([w, n], i) => ({ w, n, i }))
    .sort((a, b) => b.n - a.n || a.i - b.i);
  const parts = sorted.slice(0, MAX_VERDICT_GROUPS)
    .map((g) => (g.n === 1 ? `1 ${g.w}` : `${g.n}× ${g.w}`));
  const rest = sorted.slice(MAX_VERDICT_GROUPS).reduce((s, g) => s + g.n, 0);
  if (rest > 0) parts.push(`${rest} more with other causes (below)`);
  return `${list.length} failed run${list.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

function duration(r: NavRun): string {
  const d = r.endMs - r.startMs;
  return Number.isFinite(d) ? `${(d / 1000).toFixed(1)} s` : "?";
}

/** The end of a run against its planned path, in words. */
export function endWords(e: RunEnd): string {
  if (!e.point) return "unknown (no valid position fix in the log)";
  const where = `${f1(e.point)} in ${e.zone || "?"}`;
  return e.offRoutePx === null
    ? `${where}; no planned path of that zone in the log`
    : `${where}, **${e.offRoutePx.toFixed(1)} px off the planned route** (last status=0 fix to ` +
      "the last planned path of the zone)";
}

/** The timeline steps shown: all, or the first and last halves of {@link MAX_TIMELINE_SHOWN}. */
function shownSteps(r: NavRun): string[] {
  const s = r.timeline.map((x) =>
    `${x.time ? x.time.slice(11) : "?"} ${x.what} (\`${short(x.at)}\`)`
  );
  const dropped = r.timelineDropped;
  if (s.length <= MAX_TIMELINE_SHOWN && dropped === 0) return s;
  const h = MAX_TIMELINE_SHOWN / 2;
  const cut = s.length > MAX_TIMELINE_SHOWN ? s.length - MAX_TIMELINE_SHOWN + dropped : dropped;
  return [...s.slice(0, h), `… ${cut} steps not shown …`, ...s.slice(-h)];
}

/** One failed run's section of triage.md. */
export function runSection(t: TriageRun): string {
  const r = t.run, c = t.cause;
  const lines = [
    `### Run ${t.n}. ${c.cause} — ${t.end.zone || r.zone || "?"}`,
    "",
    `- node \`${r.nodeName || "?"}\`, task ${r.taskId || "?"}, ${r.start || "?"} → ${
      r.end || "?"
    } (${duration(r)}), failed; request at \`${short(r.at)}\``,
    `- cause: **${chainWords(c)}** (${c.chain.map((l) => `\`${l.cause}\``).join(" → ")})`,
    ...c.chain.filter((l) => l.at).map((l) => `  - \`${short(l.at)}\` ${l.text}`),
    `- ended at: ${endWords(t.end)}`,
    `- zipline hops: ${
      r.hops.length
        ? r.hops.map((h) => `${f1(h.mount)} → ${f1(h.landing)}: ${h.outcome}`).join("; ")
        : "none"
    }`,
    `- replans: ${r.replans} route replaced, ${r.softReplans} soft replans`,
    `- picture: \`${t.picture}\``,
  ];
  if (c.lastLines.length) {
    lines.push("- last navigator lines:", ...c.lastLines.map((l) => `  - \`${l}\``));
  }
  const steps = shownSteps(r);
  if (steps.length) lines.push("- timeline:", ...steps.map((s, i) => `  ${i + 1}. ${s}`));
  lines.push("");
  return lines.join("\n");
}

/** The message kinds the parser could not place, as a short list ("" when none). */
export function unknownKindsMarkdown(parse: ParseReport): string {
  const kinds = topUnknownKinds(parse.unknownKinds, MAX_KINDS_SHOWN);
  if (kinds.length === 0) return "";
  const total = Object.values(parse.unknownKinds).reduce((s, n) => s + n, 0);
  return [
    `**Lines navscope could not place** (${total} lines; the ${kinds.length} most frequent ` +
    "message kinds, digits masked as #) — a new navigator line shows up here:",
    "",
    ...kinds.map((k) => `- ${k.lines} × \`${k.kind.replace(/`/g, "'")}\``),
    "",
  ].join("\n");
}

/**
 * The failed runs' part of triage.md within `budget` characters: sections in log order, cut
 * between sections with a note when they would not fit.
 */
export function failedRunsMarkdown(list: readonly TriageRun[], budget: number): string {
  if (list.length === 0) return "";
  let out = "## Failed runs\n\n";
  let shown = 0;
  for (const t of list) {
    const s = runSection(t) + "\n";
    if (out.length + s.length > budget) {
      out += `*(cut: ${shown} of ${list.length} failed runs shown here; ` +
        "the rest are in the triage folder's pictures and report.html)*\n\n";
      break;
    }
    out += s;
    shown++;
  }
  return out;
}
