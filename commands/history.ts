/**
 * `navscope history`: the run-history store (src/analyze/history.ts, docs/history.md) —
 * add a run, list runs, show one leg's history, export, and the change points of the series.
 * @module
 */
import { join } from "node:path";
import { NavscopeError } from "../src/errors.ts";
import { HISTORY_FILE, HistoryStore } from "../src/analyze/history.ts";
import {
  failingSince,
  type HistoryChange,
  historyChanges,
} from "../src/analyze/history_changes.ts";
import { writeFileAtomic } from "../src/codec/file.ts";
import { addRunToHistory, exportHistory, requireHistoryStore } from "../src/jobs/history.ts";
import { io, parseFlags } from "./support/terminal.ts";
import { DEFAULT_BASELINE } from "../src/jobs/examples.ts";

/** One line for the command list. */
export const summary = "Run history (SQLite): add, list, show a leg, export, change points";

/** Usage text. */
export const help =
  `navscope history add RUN… [--history FILE] [--commit SHA] [--branch B] [--time ISO]
navscope history list [--history FILE]
navscope history show LEG [--history FILE]        (LEG: battery/id or id)
navscope history export --csv|--json [--out FILE] [--history FILE]
navscope history changes [--history FILE] [--json] [--timings a,b] [--alpha A] [--min-change PCT]

The run-history store: one SQLite file (default ${HISTORY_FILE} beside the baseline,
examples/baseline/${HISTORY_FILE}), one row per run and per leg (docs/history.md).
  add       RUN = a nightly output folder (plans.log, machine.json), a replay output
            folder (replay.log), or plan-line log files. Commit and branch default to the
            git checkout of the current directory; time to now. One transaction: a killed
            add leaves the store as it was.
  list      the runs, oldest first
  show      one leg over the runs: outcome, code, tier, window, route, total ms, and
            "failing since run N (commit C)" when its last run failed
  export    every leg row as CSV or JSON (stdout, or --out FILE written temp-then-rename)
  changes   change points per series (E-divisive means, docs/history.md): work counters
            and outcomes over all runs, timings (--timings, default total) per machine

Exit: 0 done, 1 bad input (unreadable run or store, a store of a newer schema), 2 usage.`;

/** The store path of --history, or the default beside a baseline folder. */
export function historyPath(flag: string | undefined, baseline = DEFAULT_BASELINE): string {
  return flag ?? join(baseline, HISTORY_FILE);
}

function usage(msg: string): never {
  throw new NavscopeError("usage", `history: ${msg}`);
}

/** Runs history. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("history", args, {
    history: { type: "string" },
    commit: { type: "string" },
    branch: { type: "string" },
    time: { type: "string" },
    csv: { type: "boolean" },
    json: { type: "boolean" },
    out: { type: "string" },
    timings: { type: "string" },
    alpha: { type: "string" },
    "min-change": { type: "string" },
  });
  const [sub, ...rest] = positionals;
  const path = historyPath(values.history);
  if (sub === "add") {
    if (rest.length === 0) usage("add needs a RUN (a nightly or replay folder, or plan-line logs)");
    if (values.time !== undefined && Number.isNaN(Date.parse(values.time))) {
      usage(`--time ${JSON.stringify(values.time)} is not an ISO time`);
    }
    const id = await addRunToHistory(path, rest, values);
    io.err.write(`navscope history: added run ${id} → ${path}\n`);
    return 0;
  }
  if (sub === "list" || sub === "show" || sub === "export" || sub === "changes") {
    await requireHistoryStore(path);
  }
  if (sub === "list") {
    withStore(path, (h) => io.out.write(listText(h)));
    return 0;
  }
  if (sub === "show") {
    if (rest.length !== 1) usage("show needs one LEG (battery/id or id)");
    withStore(path, (h) => io.out.write(showText(h, rest[0], path)));
    return 0;
  }
  if (sub === "export") {
    if (values.csv === values.json) usage("export needs exactly one of --csv or --json");
    const text = exportHistory(path, values.json ? "json" : "csv");
    if (values.out) await writeFileAtomic(values.out, text);
    else io.out.write(text);
    return 0;
  }
  if (sub === "changes") {
    const alpha = values.alpha === undefined ? 0.01 : Number(values.alpha);
    if (!(alpha > 0 && alpha < 1)) usage(`--alpha ${values.alpha} is not in (0, 1)`);
    const min = values["min-change"] === undefined ? 5 : Number(values["min-change"]);
    if (!(min >= 0)) usage(`--min-change ${values["min-change"]} is not a percentage ≥ 0`);
    const timings = values.timings === undefined
      ? ["total"]
      : values.timings.split(",").filter((s) => s);
    withStore(path, (h) => {
      const changes = historyChanges(h.runs(), h.legs(), {
        alpha,
        minRelative: min / 100,
        timings,
      });
      io.out.write(changesText(changes, values.json === true));
    });
    return 0;
  }
  usage(
    sub === undefined
      ? "a subcommand is needed: add, list, show, export, changes"
      : `unknown subcommand ${JSON.stringify(sub)}`,
  );
}

/** Runs `f` on the open store, closing it after. */
function withStore(path: string, f: (h: HistoryStore) => void): void {
  const h = HistoryStore.open(path);
  try {
    f(h);
  } finally {
    h.close();
  }
}

/** `history list`: one line per run, oldest first. */
function listText(h: HistoryStore): string {
  const lines = [
    "run  time                      commit        branch        machine           legs",
  ];
  for (const r of h.runs()) {
    lines.push(
      `${String(r.id).padEnd(4)} ${r.time.padEnd(25)} ${r.commit.slice(0, 12).padEnd(13)} ${
        r.branch.padEnd(13)
      } ${r.machineId.padEnd(17)} ${r.legs}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** `history show LEG`: the leg over the runs, and since when it fails. */
function showText(h: HistoryStore, leg: string, path: string): string {
  const runs = h.runs();
  const legs = h.legs(leg);
  if (legs.length === 0) {
    throw new NavscopeError("bad_value", `no leg ${JSON.stringify(leg)} in the history`, {
      file: path,
    }, "battery/id or id of a stored leg (navscope history export --csv)");
  }
  const byRun = new Map(runs.map((r) => [r.id, r]));
  const lines = [
    "run  commit        leg                         outcome  tier window_cells route            total_ms",
  ];
  for (const l of legs) {
    lines.push(
      `${String(l.runId).padEnd(4)} ${(byRun.get(l.runId)?.commit ?? "").slice(0, 12).padEnd(13)} ${
        `${l.battery}/${l.leg}`.padEnd(27)
      } ${(l.ok ? "ok" : l.code).padEnd(8)} ${String(l.tier).padEnd(4)} ${
        String(l.windowCells).padEnd(12)
      } ${l.route.padEnd(16)} ${(l.timings.total ?? NaN).toFixed(1)}`,
    );
  }
  const names = [...new Set(legs.map((l) => `${l.battery}/${l.leg}`))];
  for (const n of names) {
    const since = failingSince(runs, legs.filter((l) => `${l.battery}/${l.leg}` === n));
    if (since) {
      lines.push(`${n}: failing since run ${since.id} (commit ${since.commit || "?"})`);
    }
  }
  return lines.join("\n") + "\n";
}

/** `history changes`: the change points as JSON or one line each. */
function changesText(changes: HistoryChange[], json: boolean): string {
  if (json) {
    return JSON.stringify(
      changes.map((c) => ({ ...c, run: c.run.id, previous: c.previous.id })),
      null,
      1,
    ) + "\n";
  }
  const lines = changes.map((c) =>
    `${c.leg} ${c.metric}${c.machine ? ` @${c.machine}` : ""}: ${fmt(c.before)} → ${
      fmt(c.after)
    } (${
      Number.isFinite(c.relative)
        ? `${c.relative >= 0 ? "+" : ""}${(c.relative * 100).toFixed(1)} %`
        : "new"
    }) from run ${c.run.id}, commits ${c.commits}`
  );
  return (lines.length ? lines.join("\n") : "no change points") + "\n";
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}
