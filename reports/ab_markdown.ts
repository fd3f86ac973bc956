/**
 * The Markdown summary of `nightly --ab REF` (src/jobs/ab.ts): verdict, both versions, the
 * machine, and per stage the median ratio current / ref with its bootstrap interval.
 * @module
 */
import type { AbReport } from "../src/analyze/ab_report.ts";
import { describeMachine } from "../src/analyze/machine.ts";
import { fmtNum, renderMarkdown, type TableModel } from "./table_text.ts";

function ratio(v: number): string {
  return Number.isFinite(v) ? `${v.toFixed(3)}×` : "-";
}

const VERDICT = {
  slower: "**SLOWER**",
  faster: "faster",
  same: "same",
  "not measurable here": "not measurable here",
  "too few legs": "too few legs",
} as const;

function pct(v: number): string {
  return Number.isFinite(v) ? `±${(v * 100).toFixed(1)} %` : "-";
}

/** The A/A noise, relative and in ms. */
function noise(v: number, ms: number): string {
  return Number.isFinite(v)
    ? `${pct(v)}${Number.isFinite(ms) ? `, ${ms.toFixed(2)} ms` : ""}`
    : "-";
}

/** The Markdown summary of an A/B report. */
export function abMarkdown(r: AbReport): string {
  const head = r.verdict === "pass"
    ? "## navscope nightly --ab: PASS"
    : `## navscope nightly --ab: REGRESSION (slower: ${r.regressions.join(", ")})`;
  const p = r.params;
  const lines = [
    head,
    "",
    `- ref: \`${r.ref.name}\` = ${r.ref.commit.slice(0, 12)}`,
    `- current: \`${r.current.root}\` = ${r.current.commit.slice(0, 12)}${
      r.current.dirty ? " + uncommitted changes" : ""
    }`,
    `- machine: ${describeMachine(r.machine)} (both versions, interleaved)`,
    `- ${r.rounds} round${r.rounds === 1 ? "" : "s"} (each: fresh processes, ${r.warmup_rounds} ` +
    `discarded warm-up pass) × ${r.legs} legs of ${r.batteries.length} ` +
    `batter${r.batteries.length === 1 ? "y" : "ies"}, ref · current · ` +
    `ref again (A/A) rotating per leg and round; slower = the ${
      Math.round(p.confidence * 100)
    } % interval above ${
      fmtNum(1 + p.threshold)
    }× and beyond the A/A noise, and a median difference ≥ max(${fmtNum(p.min_diff_ms)} ms, ${
      fmtNum(p.min_total_share * 100)
    } % of the total) beyond the A/A noise in ms; legs under ${
      fmtNum(p.floor_ms)
    } ms on both sides left out`,
    `- method: ${r.method}`,
    "",
  ];
  const tables: TableModel[] = [{
    title: "Time ratio current / ref per stage",
    head: [
      "stage",
      "legs",
      "ref ms",
      "current ms",
      "diff ms",
      "ratio",
      "interval",
      "A/A spread",
      "verdict",
    ],
    rows: r.stages.map((s) => [
      s.stage,
      s.legs,
      Number.isFinite(s.ref_ms) ? s.ref_ms : null,
      Number.isFinite(s.current_ms) ? s.current_ms : null,
      Number.isFinite(s.diff_ms) ? s.diff_ms : null,
      ratio(s.ratio),
      Number.isFinite(s.ci[0]) ? `${s.ci[0].toFixed(3)} … ${s.ci[1].toFixed(3)}` : "-",
      noise(s.noise, s.noise_ms),
      s.verdict === "not measurable here"
        ? `not measurable here (noise ${noise(s.noise, s.noise_ms)})`
        : s.verdict === "same" && s.legs === 0
        ? `same (under ${fmtNum(p.floor_ms)} ms on every leg)`
        : VERDICT[s.verdict],
    ]),
    align: ["left", "right", "right", "right", "right", "right", "right", "right", "left"],
    notes: [
      "ref ms / current ms: medians over legs and rounds; diff ms: median over legs of the " +
      "paired difference; A/A spread: how far ref against ref reached from 1, and its median " +
      "difference from 0 ms (this machine's noise); same = no change that counts could hide " +
      "in it (spread under the threshold, or under the ms floor).",
    ],
  }];
  if (r.outcome_differences.length) {
    tables.push({
      title: `Legs whose outcome differs (${r.outcome_differences.length})`,
      head: ["leg", "ref", "current"],
      rows: r.outcome_differences.map((d) => [d.leg, d.ref, d.current]),
    });
  }
  return lines.join("\n") + "\n" + renderMarkdown(tables);
}
