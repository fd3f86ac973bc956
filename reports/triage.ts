/**
 * The triage comment (triage.md, a GitHub issue comment): the verdict line, the bundle, every
 * distinct failing leg with what a maintainer asks for (maaend-bundles.md §4, §6: class,
 * start/goal/zone/deck, zipline state, planned vs observed track) and the failed runs. The
 * workflow that reads, replays and draws is src/jobs/triage.ts.
 * @module
 */
import { gloss } from "../src/logs/message_gloss.ts";
import type { ParseReport, Point2 } from "../src/logs/types.ts";
import type { NavRun } from "../src/analyze/nav_runs.ts";
import { type BundleFacts, ziplineWord } from "../src/analyze/bundle_facts.ts";
import { relPath } from "../src/util/shown_paths.ts";
import type { FailingLeg } from "./report_data.ts";
import {
  failedRunsMarkdown,
  runsVerdict,
  type TriageRun,
  unknownKindsMarkdown,
} from "./triage_runs.ts";

/** GitHub's comment limit, characters. */
export const COMMENT_LIMIT = 65536;

/** One distinct failing leg as triage reports it. */
export interface TriageLeg {
  n: number;
  leg: FailingLeg;
  run: NavRun | null;
  /** Replay verdict ("" without --pack). */
  replay: string;
  /** Replayed class, "" when not replayed. */
  replayClass: string;
  /** Distance to the mesh or reach domain, in words ("" when unknown). */
  distance: string;
  picture: string;
}

/** What triage produced (the caller writes it). */
export interface TriageResult {
  markdown: string;
  html: string;
  /** PNG files: name → bytes. */
  pngs: Map<string, Uint8Array>;
  legs: TriageLeg[];
  runs: NavRun[];
  bundles: BundleFacts[];
  failures: number;
  /** Runs holding a failed leg. */
  failedRuns: number;
  /** What the log parse saw. */
  parse: ParseReport;
  /** Every failed run with its cause, end and picture (reports/triage_runs.ts). */
  failedRunList: TriageRun[];
  /** The failed runs' pictures: `run-NN.svg` → SVG text. */
  svgs: Map<string, string>;
  /** The replayed statistics' lines of the comment (issue 53), empty without a replay. */
  statsLines?: string[];
}

const f1 = (p: Point2 | null) => (p ? `(${p[0].toFixed(2)}, ${p[1].toFixed(2)})` : "?");

/** The verdict line, Chinese then English (the comment's first line). */
export function verdictLine(
  failures: number,
  runs: number,
  byClass: readonly { class: string; count: number }[],
): string {
  const cls = byClass.map((c) => `${c.class} ${c.count}`).join(", ");
  if (failures === 0) {
    return "**navscope triage：日志中没有规划失败 · no planner failure in these logs**";
  }
  return `**navscope triage：${runs} 次导航运行中有 ${failures} 次规划失败（${cls}） · ` +
    `${failures} planner failure${failures === 1 ? "" : "s"} in ${runs} run${
      runs === 1 ? "" : "s"
    } (${cls})**`;
}

function bundleLines(b: BundleFacts): string[] {
  return [
    `- **Bundle** ${b.product || b.label} ${b.version || "(version unknown)"}, exported ${
      b.stamp || "?"
    } (local time) — ${b.era}`,
    `- volumes read: ${
      b.volumes_found.length ? b.volumes_found.map((v) => `\`${base(v)}\``).join(", ") : "none"
    }` +
    (b.volumes_missing.length
      ? `; **missing: ${b.volumes_missing.map((v) => `\`${v}\``).join(", ")}** (attach every part)`
      : ""),
    `- navigator logs: ${
      b.navigator_files.length
        ? b.navigator_files.map((f) => `\`${f.slice(f.lastIndexOf("!") + 1)}\``).join(", ")
        : "none (the bundle has no cpp-algo/debug log)"
    }; zipline delivery in config: ${ziplineWord(b.ziplines)}`,
    ...b.problems.map((p) => `- unreadable: ${p.error}`),
  ];
}

const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function legSection(t: TriageLeg, withPack: boolean): string {
  const l = t.leg, r = t.run;
  const g = gloss(l.error);
  const zip = r
    ? `request zip=${r.zip === null ? "?" : r.zip}` +
      (r.ziplines.length
        ? `; decisions: ${
          r.ziplines.map((z) => z.decision + (z.why ? ` (${z.why})` : "")).join("; ")
        }`
        : "")
    : "unknown (no run)";
  const lines = [
    `### ${t.n}. ${l.class} — ${l.zone}`,
    "",
    `- run: ${
      r
        ? `node \`${r.nodeName}\`, task ${r.taskId || "?"}, ${r.start || "?"}, ${
          r.ok === null ? "no end in the log" : r.ok ? "succeeded" : "failed"
        }`
        : "outside any navigation run"
    }`,
    `- start → goal: ${f1(l.start)} → ${f1(l.goal)}; declared deck: ${l.deck ?? "none"}`,
    `- planner message: \`${l.error}\`${g ? ` — *${g}*` : ""}`,
    `- class: \`${l.class}\`; failures: ${l.count} (first ${l.first_seen ?? "?"})`,
    `- distance to the mesh / reach domain: ${t.distance || "not known from the log"}`,
    `- ziplines: ${zip}`,
  ];
  if (r) {
    const extra: string[] = [];
    if (r.startRecoveries.length) extra.push(`${r.startRecoveries.length} start recoveries`);
    if (r.blindFallbacks.length) {
      extra.push(`blind-target fallback: ${r.blindFallbacks.map((b) => b.outcome).join(", ")}`);
    }
    if (r.detours.length) {
      extra.push(
        `${r.detours.filter((d) => !d.selected).length} failed / ${
          r.detours.filter((d) => d.selected).length
        } selected detours`,
      );
    }
    if (extra.length) lines.push(`- navigator: ${extra.join("; ")}`);
  }
  if (withPack) lines.push(`- replay: **${t.replay}**`);
  lines.push(`- picture: \`${t.picture}\``, "");
  return lines.join("\n");
}

/** Assembles triage.md (≤ {@link COMMENT_LIMIT}; cut between sections with a note). */
export function triageMarkdown(
  r: TriageResult,
  byClass: readonly { class: string; count: number }[],
  packs: readonly string[],
): string {
  const withPack = packs.length > 0;
  const runList = r.failedRunList ?? [];
  const head = [
    // The verdict covers every failed run first; the planner's share follows (issue 53).
    ...(runList.length
      ? [`**navscope triage：${runList.length} 次导航运行失败 · ${runsVerdict(runList)}**`, ""]
      : []),
    verdictLine(r.failures, r.failedRuns, byClass),
    "",
    `${r.runs.length} navigation runs read, ${
      r.runs.filter((x) => x.ok === false).length
    } failed; ${r.legs.length} distinct failing legs.`,
    "",
    ...r.bundles.flatMap(bundleLines),
    "",
    "",
  ];
  // No failing leg: no empty table (the failed runs above say what happened).
  const table = r.legs.length === 0 ? [] : [
    "## Failing legs",
    "",
    `| # | run | zone | start → goal | class |${withPack ? " replay |" : ""}`,
    `|---|---|---|---|---|${withPack ? "---|" : ""}`,
    ...r.legs.map((t) =>
      `| ${t.n} | ${
        esc(t.run ? `${t.run.nodeName} (task ${t.run.taskId})` : "-")
      } | ${t.leg.zone} | ${f1(t.leg.start)} → ${f1(t.leg.goal)} | ${t.leg.class} |${
        withPack ? ` ${esc(t.replay)} |` : ""
      }`
    ),
    "",
  ];
  const tail = withPack
    ? [
      `Replayed on ${
        packs.map((p) => `\`${relPath(p)}\``).join(", ")
      }. Pictures and report.html are in the triage folder.`,
    ]
    : [
      "No pack given: legs were not replayed. Add the replay with " +
      "`navscope triage BUNDLE… --pack base.nav.gz` (MaaEnd-AI's `map/navmesh/base.nav.gz`).",
    ];
  if (r.statsLines?.length) tail.push("", ...r.statsLines);
  const note = (k: number) =>
    `\n*(cut: ${k} of ${r.legs.length} failing legs shown here; the rest are in triage's report.html)*\n`;
  const kinds = r.parse ? unknownKindsMarkdown(r.parse) : "";
  if (kinds) tail.unshift(kinds);
  let out = head.join("\n");
  out += failedRunsMarkdown(runList, Math.floor(COMMENT_LIMIT / 2));
  const tableText = table.join("\n");
  const reserve = 400 + tail.join("\n").length;
  if (out.length + tableText.length + reserve > COMMENT_LIMIT) {
    // The table alone is too long: whole rows only, closed, then the note.
    let k = 0, t = table.slice(0, 4).join("\n") + "\n";
    for (const row of table.slice(4, -1)) {
      if (out.length + t.length + row.length + reserve > COMMENT_LIMIT) break;
      t += row + "\n";
      k++;
    }
    return out + t + note(k) + "\n" + tail.join("\n") + "\n";
  }
  out += tableText + "\n";
  let shown = 0;
  for (const t of r.legs) {
    const s = legSection(t, withPack);
    if (out.length + s.length + reserve > COMMENT_LIMIT) {
      out += note(shown);
      break;
    }
    out += s + "\n";
    shown++;
  }
  return out + tail.join("\n") + "\n";
}
