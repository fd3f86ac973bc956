/**
 * Table models of the analytics reports: plain heads and rows that the command layer renders
 * as a terminal table, CSV or Markdown. Kept here (not in commands/) so the library can render
 * the same tables for reports.
 * @module
 */
import { type BundleFacts, ziplineWord } from "./bundle_facts.ts";
import type { ClassifyReport, ClassRow } from "./classify_report.ts";
import type { StatsBody, StatsReport } from "./stats.ts";
import { runCauseTables } from "./classify_runs.ts";
import {
  lacksPlanData,
  LOG_SOURCE,
  NOT_IN_LOGS,
  NOT_IN_LOGS_REPLAYED,
  type StatsSource,
} from "./stats_source.ts";
import type { ReplayedStats } from "./replay_stats.ts";

/** A renderable table (structurally equal to commands/support/terminal.ts `TableModel`). */
export interface ReportTable {
  /** Title. */
  title: string;
  /** Column heads. */
  head: string[];
  /** Rows. */
  rows: Array<Array<string | number | null>>;
  /** Lines printed after the table. */
  notes?: string[];
}

function example(r: ClassRow): string {
  const e = r.examples[0];
  if (!e) return "";
  const text = e.text.length > 60 ? e.text.slice(0, 59) + "…" : e.text;
  return `${e.file}:${e.line}${e.leg ? ` [leg=${e.leg}]` : ""} ${text}`;
}

function classRows(rows: ClassRow[]): Array<Array<string | number | null>> {
  return rows.map((
    r,
  ) => [r.class, r.count, r.legs, r.first_seen ?? "-", r.last_seen ?? "-", example(r)]);
}

const CLASS_HEAD = ["class", "count", "legs", "first seen", "last seen", "example"];

/** Tables of a classification report: one overall, plus one per group. */
export function classifyTables(rep: ClassifyReport): ReportTable[] {
  const notes = [`${rep.total} failures; ${rep.unparsed_lines} unparsed lines`];
  if (rep.runs) {
    notes.push(
      `${rep.runs.total} navigation runs, ${rep.runs.failed} failed` +
        (rep.runs.open ? `, ${rep.runs.open} without an end in the logs` : "") +
        `; ${rep.legs?.failed ?? 0} of ${rep.legs?.total ?? 0} legs failed`,
    );
  }
  const out: ReportTable[] = [...bundleTable(rep.bundles ?? []), {
    title: "Failures by class",
    head: CLASS_HEAD,
    rows: classRows(rep.classes),
    notes,
  }];
  for (const g of rep.groups ?? []) {
    out.push({
      title: `${rep.by === "zone" ? "Zone" : "Day"} ${g.key} (${g.total} failures)`,
      head: CLASS_HEAD,
      rows: classRows(g.classes),
    });
  }
  out.push(...runCauseTables(rep));
  return out;
}

/** A share as a percentage; a share over zero plans (null) is "n/a", never 0.0 % (issue 53). */
export function pct(v: number | null, digits = 1): string {
  return v === null || !Number.isFinite(v) ? "n/a" : `${(v * 100).toFixed(digits)}%`;
}

/** Options of {@link statsBodyTables}. */
export interface StatsTableOptions {
  /** Where the figures come from (default: the log); named in every title. */
  source?: StatsSource;
  /** Packs were given: a table the log lacks points at the replayed one. */
  replayed?: boolean;
  /** The logs hold no plan record ({@link lacksPlanData}): placeholders, not empty tables. */
  lacking?: boolean;
}

/**
 * Tables of one stats body; `scope` prefixes the titles (e.g. a zone). When the logs hold no
 * plan record (`lacking`, {@link lacksPlanData}: navigator logs), the tier, reason, window and
 * stage tables each say {@link NOT_IN_LOGS} instead of printing empty.
 */
export function statsBodyTables(
  b: StatsBody,
  scope = "",
  opts: StatsTableOptions = {},
): ReportTable[] {
  const pre = scope ? `${scope}: ` : "";
  const src = ` (${(opts.source ?? LOG_SOURCE).label})`;
  const counted =
    `${b.plans} successful plans (failures excluded: ${b.failures}, counted as classify counts them)`;
  if (opts.lacking) {
    const why = opts.replayed ? NOT_IN_LOGS_REPLAYED : NOT_IN_LOGS;
    const missing = (title: string, notes: string[] = []): ReportTable => ({
      title: `${pre}${title}${src}`,
      head: ["status"],
      rows: [[why]],
      notes,
    });
    return [
      missing("Escalation reasons per plan (tier notes)"),
      missing("Final tier: plans and total time (ms)", [
        `no plan record in these logs; ${b.failures} failures (counted as classify counts them)`,
      ]),
      missing("Window area (cells) by final tier"),
      missing("Stage timings (ms)"),
    ];
  }
  const reasonHead = [...b.reason_names, "plans"];
  const reasons: ReportTable = {
    title: `${pre}Escalation reasons per plan (tier notes)${src}`,
    head: reasonHead,
    rows: b.reasons.map((r) => [...b.reason_names.map((n) => r.reasons[n] ?? 0), r.plans]),
  };
  const tiers: ReportTable = {
    title: `${pre}Final tier: plans and total time (ms), ` +
      `other = total − window − topology − geometry${src}`,
    head: ["tier", "plans", "total p50", "total p90", "total max", "other p50"],
    rows: b.tiers.map((t) => [
      t.tier,
      t.count,
      t.total_ms.p50,
      t.total_ms.p90,
      t.total_ms.max,
      t.other_ms_p50,
    ]),
    notes: [
      counted,
      `finished at tier 0: ${pct(b.tier0_share)}; ` +
      `at tier 0 with a window ≤ 2.9 M cells: ${pct(b.tier0_small_share)}`,
    ],
  };
  const hasUnknown = b.window_buckets.some((w) => w.unknown > 0);
  const windows: ReportTable = {
    title: `${pre}Window area (cells) by final tier${src}`,
    head: ["tier", "≤ 2.9 M", "2.9–3 M", "> 3 M", ...(hasUnknown ? ["unknown"] : [])],
    rows: b.window_buckets.map((w) => [
      w.tier,
      w.le_2_9m,
      w.from_2_9m_to_3m,
      w.gt_3m,
      ...(hasUnknown ? [w.unknown] : []),
    ]),
  };
  const stages: ReportTable = {
    title: `${pre}Stage timings (ms), other = total − the six stages${src}`,
    head: ["stage", "sum", "p50", "max"],
    rows: b.stages.map((s) => [s.stage, s.sum_ms, s.p50_ms, s.max_ms]),
  };
  return [reasons, tiers, windows, stages, ...costTables(b, pre, src)];
}

/**
 * The cost tables, only for plans whose lines carried them (older logs have none): "other"
 * broken down, the work counters, and the counters per final tier (nonzero rows only).
 */
function costTables(b: StatsBody, pre: string, src: string): ReportTable[] {
  const out: ReportTable[] = [];
  if (b.other_stages.length) {
    const share = b.other_unattributed_share;
    out.push({
      title:
        `${pre}Other broken down (ms): sub-stages between the six stages (docs/counters.md)${src}`,
      head: ["sub-stage", "sum", "p50", "p90", "max"],
      rows: b.other_stages.map((r) => [r.stage, r.sum_ms, r.p50_ms, r.p90_ms, r.max_ms]),
      notes: [
        `${b.other_plans} plans; unattributed = other − Σ sub-stages: ` +
        (share === null ? "n/a" : `${pct(share, 2)} of the total time`),
      ],
    });
  }
  if (b.counters.length) {
    out.push({
      title: `${pre}Work counters (machine-independent, docs/counters.md)${src}`,
      head: ["counter", "sum", "p50", "p90", "max"],
      rows: b.counters.map((r) => [r.counter, r.sum, r.p50, r.p90, r.max]),
      notes: [`${b.counter_plans} plans with counters`],
    });
    out.push({
      title: `${pre}Work counters by final tier (nonzero counters)${src}`,
      head: ["tier", "plans", "counter", "sum", "p50", "p90", "max"],
      rows: b.counters_by_tier.flatMap((t) =>
        t.counters.filter((r) => r.sum !== 0).map((
          r,
        ) => [t.tier, t.plans, r.counter, r.sum, r.p50, r.p90, r.max])
      ),
    });
  }
  return out;
}

/**
 * Tables of a stats report: the overall tables, then each zone's; with a replay
 * (`stats --pack`), the replayed tables after them, the legs served and the contradicted legs.
 */
export function statsTables(rep: StatsReport, replayed?: ReplayedStats): ReportTable[] {
  const opts: StatsTableOptions = {
    replayed: replayed !== undefined,
    lacking: lacksPlanData(rep),
  };
  const out = statsBodyTables(rep, "", opts);
  if (rep.unparsed_lines) out[1].notes!.push(`${rep.unparsed_lines} unparsed lines`);
  for (const z of rep.zones ?? []) out.push(...statsBodyTables(z, `zone ${z.zone}`, opts));
  if (rep.runs) {
    out[1].notes!.push(
      `${rep.runs.total} navigation runs, ${rep.runs.failed} failed; ` +
        `${rep.legs?.failed ?? 0} of ${rep.legs?.total ?? 0} legs failed`,
    );
  }
  if (replayed) out.push(...replayedTables(replayed));
  return [...bundleTable(rep.bundles ?? []), ...out];
}

/** The replayed statistics: body tables, per zone, then the contradicted legs. */
export function replayedTables(r: ReplayedStats): ReportTable[] {
  const opts: StatsTableOptions = { source: r.source };
  const out = statsBodyTables(r, "replayed", opts);
  const l = r.legs;
  out[1].notes!.push(
    `${l.served} of ${l.log_legs} log legs counted with the replay of their distinct leg: ` +
      `${l.distinct} distinct legs replayed, ${l.cache_hits} served from the cache ` +
      `(hit rate ${pct(l.cache_hit_rate)})`,
    ...l.not_replayed.map((n) =>
      `not replayed: ${n.legs} log leg${
        n.legs === 1 ? "" : "s"
      } (${n.distinct} distinct): ${n.reason}`
    ),
  );
  for (const z of r.zones ?? []) out.push(...statsBodyTables(z, `replayed, zone ${z.zone}`, opts));
  out.push(contradictionTable(r));
  return out;
}

/** The legs whose logged outcome the replay contradicts (one row per distinct leg). */
export function contradictionTable(r: ReplayedStats): ReportTable {
  return {
    title: `Legs the replay contradicts (${r.source.label})`,
    head: ["leg", "where", "contradiction", "logged ok", "logged failed", "logged class", "replay"],
    rows: r.contradictions.map((c) => [
      c.key,
      c.where,
      c.what,
      c.logged_ok,
      c.logged_failed,
      c.logged_class,
      c.replay_class === "ok" ? `ok (tier ${c.replay_tier})` : c.replay_class,
    ]),
    notes: r.contradictions.length ? [] : ["none: every replayed leg agrees with its log"],
  };
}

/** The bundle table printed before a command's own tables. */
export function bundleTable(facts: readonly BundleFacts[]): ReportTable[] {
  if (facts.length === 0) return [];
  return [{
    title: "Bundles read",
    head: [
      "bundle",
      "version",
      "stamp (local)",
      "era",
      "volumes",
      "missing",
      "navigator logs",
      "ziplines",
    ],
    rows: facts.map((b) => [
      b.product || b.label,
      b.version || "?",
      b.stamp || "?",
      b.era,
      b.volumes_found.length,
      b.volumes_missing.join(", ") || "-",
      b.navigator_files.map((f) => f.slice(f.lastIndexOf("!") + 1)).join(", ") || "none",
      ziplineWord(b.ziplines),
    ]),
    notes: facts.flatMap((
      b,
    ) => [...b.warnings, ...b.problems.map((p) => `unreadable: ${p.error}`)]),
  }];
}
