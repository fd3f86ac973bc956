/**
 * `plan --legs` for batteries of any size (issue 27 item 17). The file is validated whole
 * first (src/legs/stream.ts, and every leg's zone against the pack: one error before any
 * planning), then streamed leg by leg:
 * each result row is printed as its leg finishes, plan lines go to `--log` in batches, a
 * progress line runs on a TTY, and memory holds one leg, one row and the totals (8 bytes a
 * leg) — not the battery.
 *
 * Output: `--json` writes the same document as before (`{"legs": [...], "summary": {...}}`,
 * byte for byte) but row by row; `--jsonl` writes one row per line and a last
 * `{"summary": …}` line; the text table is the usual boxed table up to
 * {@link BUFFERED_TABLE_LEGS} legs (it needs every row for its widths) and a streamed
 * fixed-width table above that. CSV and Markdown (the demo) stay buffered.
 * @module
 */
import { type BatteryRow, type BatterySummary, planLeg } from "../../src/analyze/battery.ts";
import { percentileSorted } from "../../src/analyze/percentile.ts";
import { machineFingerprint } from "../../src/analyze/machine.ts";
import { formatPlanLine } from "../../src/logs/plan_line.ts";
import type { Engine } from "../../src/plan/engine.ts";
import { streamLegs } from "../../src/legs/stream.ts";
import { NavscopeError } from "../../src/errors.ts";
import { escapeControls } from "../../src/codec/json_strict.ts";
import { requireLegs } from "./preflight.ts";
import { type Format, io, printTables, Progress, type TableModel } from "./terminal.ts";

/** Output of a battery: a table format, or JSON lines. */
export type BatteryFormat = Format | "jsonl";

/** Up to this many legs the text table is the usual boxed table, printed at the end. */
export const BUFFERED_TABLE_LEGS = 2000;

/** Plan lines appended to `--log` per write. */
const LOG_BATCH = 1000;

const HEAD = ["leg", "outcome", "expected", "match", "tier", "kind", "window cells", "total ms"];

function cells(r: BatteryRow): (string | number)[] {
  return [
    r.id,
    r.class,
    r.expected,
    r.matched ? "yes" : `NO: ${r.mismatch}`,
    r.tier,
    r.kind || "-",
    r.window_cells,
    r.timing_ms.total,
  ];
}

/** The summary from the total times (sorted here) and the matched count. */
export function summaryOf(totals: Float64Array, matched: number): BatterySummary {
  const s = totals.slice().sort();
  return {
    legs: s.length,
    matched,
    mismatched: s.length - matched,
    p50_total_ms: s.length ? percentileSorted(s, 50) : 0,
    p90_total_ms: s.length ? percentileSorted(s, 90) : 0,
  };
}

function summaryTable(s: BatterySummary): TableModel {
  return {
    title: "summary",
    head: ["legs", "matched", "mismatched", "p50 total ms", "p90 total ms"],
    rows: [[s.legs, s.matched, s.mismatched, s.p50_total_ms, s.p90_total_ms]],
  };
}

/** JSON.stringify(value, null, 2) re-indented to `depth` levels (for streamed documents). */
function indented(v: unknown, depth: number): string {
  const pad = "  ".repeat(depth);
  return pad + JSON.stringify(v, null, 2).replaceAll("\n", "\n" + pad);
}

/** Fixed-width text row of a streamed table (widths grow as needed, never shrink). */
class StreamedTable {
  #w = HEAD.map((h) => h.length);
  line(vals: (string | number)[]): string {
    return vals.map((v, i) => {
      const s = typeof v === "number" ? fmt(v) : v;
      this.#w[i] = Math.max(this.#w[i], s.length);
      return typeof v === "number" ? s.padStart(this.#w[i]) : s.padEnd(this.#w[i]);
    }).join("  ").trimEnd() + "\n";
  }
}

function fmt(v: number): string {
  const a = Math.abs(v);
  const s = String(Number(v.toFixed(a < 10 ? 2 : a < 1000 ? 1 : 0)));
  return s === "-0" ? "0" : s;
}

/**
 * Validates the whole battery against the engine's pack without keeping its legs; returns how
 * many legs it holds. An empty battery plans nothing (bad input). A leg naming a zone the pack
 * does not have is a battery for another pack (or a typo) unless it expects exactly that
 * (`zone_not_found`): refused before any planning, naming the first such leg by its JSON path
 * and listing every missing zone and (up to five) legs.
 */
export async function checkBattery(engine: Engine, path: string): Promise<number> {
  const zones = new Set(engine.info.zones);
  const missing = new Set<string>(), badIds: string[] = [];
  let n = 0, first = "";
  for await (const leg of streamLegs(path)) {
    if (!zones.has(leg.zone) && leg.expected !== "zone_not_found") {
      if (!first) {
        first = `$.legs[${n}].zone: ${escapeControls(JSON.stringify(leg.zone))} is not a zone ` +
          `of ${engine.info.mainPack} (leg ${escapeControls(leg.id)} expects ${leg.expected})`;
      }
      missing.add(escapeControls(leg.zone));
      if (badIds.length < 6) badIds.push(escapeControls(leg.id));
    }
    n++;
  }
  if (n === 0) requireLegs([], path);
  if (first) {
    throw new NavscopeError(
      "bad_value",
      `${first}; the battery names zone${missing.size > 1 ? "s" : ""} ${[...missing].join(", ")} ` +
        `that the pack lacks (legs ${badIds.slice(0, 5).join(", ")}${
          badIds.length > 5 ? ", …" : ""
        })`,
      { file: path },
      `one of ${engine.info.zones.slice(0, 8).join(", ")}${zones.size > 8 ? ", …" : ""}, ` +
        "or expected zone_not_found",
    );
  }
  return n;
}

/**
 * Plans every leg of the battery at `path` and prints the rows as they finish; returns the
 * exit code (3 with `check` on a mismatch).
 */
export async function runBattery(
  engine: Engine,
  path: string,
  opts: { check?: boolean; format?: BatteryFormat; log?: string },
): Promise<number> {
  const { check = false, format = "text", log } = opts;
  const total = await checkBattery(engine, path); // the whole file is valid before any planning
  const progress = new Progress();
  const totals = new Float64Array(total);
  let matched = 0, k = 0;
  const buffered: BatteryRow[] = [];
  const bufferTable = format === "csv" || format === "md" ||
    (format === "text" && total <= BUFFERED_TABLE_LEGS);
  const table = new StreamedTable();
  let logLines: string[] = [];
  const flushLog = async () => {
    if (log && logLines.length) {
      await Deno.writeTextFile(log, logLines.join("\n") + "\n", { append: true });
    }
    logLines = [];
  };
  const out = (s: string) => {
    progress.done();
    io.out.write(s);
  };
  // The planner profile the legs are planned under (docs/profiles.md).
  const profile = JSON.stringify(engine.opts.profile?.name ?? "spec");
  if (format === "json") {
    out(`{\n  "profile": ${profile},\n  "legs": [` + (total ? "\n" : "],\n"));
  } else if (format === "text" && !bufferTable) {
    out(`battery ${path} (${total} legs; rows as legs finish)\n` + table.line(HEAD));
  }
  for await (const leg of streamLegs(path)) {
    const { row, record } = await planLeg(engine, leg);
    totals[k++] = row.timing_ms.total;
    if (row.matched) matched++;
    if (log) {
      logLines.push(formatPlanLine(record, { time: new Date() }));
      if (logLines.length >= LOG_BATCH) await flushLog();
    }
    if (bufferTable) buffered.push(row);
    else if (format === "json") out(indented(row, 2) + (k < total ? ",\n" : "\n  ],\n"));
    else if (format === "jsonl") out(JSON.stringify(row) + "\n");
    else out(table.line(cells(row)));
    progress.update(k / Math.max(1, total), `${k}/${total} legs`);
  }
  progress.done();
  await flushLog();
  const s = summaryOf(totals.subarray(0, k), matched);
  // The machine the timings were measured on (docs/gate.md).
  const machine = machineFingerprint();
  if (format === "json") {
    out(
      `  "summary": ${indented(s, 1).trimStart()},\n  "machine": ${
        indented(machine, 1).trimStart()
      }\n}\n`,
    );
  } else if (format === "jsonl") {
    out(JSON.stringify({ summary: s, machine, profile: JSON.parse(profile) }) + "\n");
  } else if (bufferTable) {
    printTables(format as Format, batteryTables(path, buffered, s), null);
  } else {
    out("\n");
    printTables("text", [summaryTable(s)], null);
  }
  return check && s.mismatched > 0 ? 3 : 0;
}

/** A battery's rows and summary as tables (what `plan --legs` prints for a small battery). */
export function batteryTables(
  path: string,
  rows: readonly BatteryRow[],
  summary: BatterySummary,
): TableModel[] {
  return [{
    title: `battery ${path}`,
    head: HEAD,
    rows: rows.map(cells),
    align: ["left", "left", "left", "left", "right", "left", "right", "right"],
  }, summaryTable(summary)];
}
