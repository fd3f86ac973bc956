/**
 * The run-history workflows (navscope history; nightly --history): add a run to the SQLite
 * store with its git commit and branch, and export every leg row as CSV or JSON. The store
 * itself is src/analyze/history.ts (docs/history.md).
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { HistoryStore, newRunOf } from "../analyze/history.ts";
import { readRunInput } from "../analyze/history_read.ts";
import { gitOrEmpty } from "../util/git.ts";
import { csvField } from "../../reports/table_text.ts";

/** Commit and branch of the git checkout at dir ("" each when not a checkout or no --allow-run). */
export async function gitFacts(dir = "."): Promise<{ commit: string; branch: string }> {
  return {
    commit: await gitOrEmpty(dir, ["rev-parse", "HEAD"]),
    branch: await gitOrEmpty(dir, ["rev-parse", "--abbrev-ref", "HEAD"]),
  };
}

/** What a run is stamped with; commit and branch default to the git checkout at `gitDir`. */
export interface HistoryFacts {
  commit?: string;
  branch?: string;
  /** ISO time (default now). */
  time?: string;
  /** The checkout whose HEAD names the run (default the working directory). */
  gitDir?: string;
}

/**
 * Adds a run — a nightly or replay output folder, or plan-line log files — to the store at
 * `store` (created when missing) in one transaction; resolves to the run id.
 */
export async function addRunToHistory(
  store: string,
  inputs: readonly string[],
  facts: HistoryFacts = {},
): Promise<number> {
  const input = await readRunInput(inputs);
  const git = facts.commit === undefined || facts.branch === undefined
    ? await gitFacts(facts.gitDir ?? ".")
    : { commit: "", branch: "" };
  const h = HistoryStore.open(store);
  try {
    return h.addRun(newRunOf(input.records, {
      time: facts.time ?? new Date().toISOString(),
      commit: facts.commit ?? git.commit,
      branch: facts.branch ?? git.branch,
      machine: input.machine,
      source: inputs.join(" "),
    }));
  } finally {
    h.close();
  }
}

/** A store that must exist (list, show, export, changes): `io` error naming it otherwise. */
export async function requireHistoryStore(path: string): Promise<void> {
  try {
    await Deno.stat(path);
  } catch {
    throw new NavscopeError(
      "io",
      "no history store",
      { file: path },
      "navscope history add RUN first",
    );
  }
}

/**
 * Every leg row of a store as text: JSON (`{format, runs, legs}`) or CSV (one row per leg with
 * its run's time, commit, branch and machine, a column per counter and per timing).
 */
export function exportHistory(store: string, format: "csv" | "json"): string {
  const h = HistoryStore.open(store);
  try {
    const runs = new Map(h.runs().map((r) => [r.id, r]));
    const legs = h.legs();
    if (format === "json") {
      return JSON.stringify(
        { format: "navscope-history", runs: [...runs.values()], legs },
        null,
        1,
      ) +
        "\n";
    }
    const counters = [...new Set(legs.flatMap((l) => Object.keys(l.counters)))].sort();
    const timings = [...new Set(legs.flatMap((l) => Object.keys(l.timings)))].sort();
    const head = [
      "run",
      "time",
      "commit",
      "branch",
      "machine",
      "battery",
      "leg",
      "ok",
      "code",
      "tier",
      "kind",
      "window_cells",
      "route",
      ...counters.map((c) => `counter:${c}`),
      ...timings.map((t) => `ms:${t}`),
    ];
    const rows = [head.join(",")];
    for (const l of legs) {
      const r = runs.get(l.runId)!;
      rows.push(
        [
          String(l.runId),
          r.time,
          r.commit,
          r.branch,
          r.machineId,
          l.battery,
          l.leg,
          l.ok ? "1" : "0",
          l.code,
          String(l.tier),
          l.kind,
          String(l.windowCells),
          l.route,
          ...counters.map((c) => l.counters[c] === undefined ? "" : String(l.counters[c])),
          ...timings.map((t) => l.timings[t] === undefined ? "" : String(l.timings[t])),
        ].map(csvField).join(","),
      );
    }
    return rows.join("\n") + "\n";
  } finally {
    h.close();
  }
}
