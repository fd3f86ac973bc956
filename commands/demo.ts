/**
 * `navscope demo`: the main job on the embedded default — plan the five example batteries (the
 * nightly's: city_small, dungeon, nav_test, proto_level, tower_big), write their plan lines to
 * `OUT/logs/`, replay the failures (`navscope replay`), print the classify and stats tables and
 * write `OUT/report.html` (`navscope report`: the verdict against examples/baseline/, drill-downs
 * on every world's pack with its battery's overrides).
 * @module
 */
import {
  formatFromFlags,
  io,
  jobPrinter,
  parseFlags,
  printTables,
  renderJson,
  renderTables,
} from "./support/terminal.ts";
import { NavscopeError } from "../src/errors.ts";
import { classifyTables, statsTables } from "../src/analyze/tables.ts";
import { statsJson } from "../src/analyze/replay_stats.ts";
import { DEMO_WORLDS, demoInputs, type DemoStep, runDemo } from "../src/jobs/demo.ts";
import type { JobEvent } from "../src/jobs/progress.ts";
import { batteryTables } from "./support/battery_stream.ts";
import { replaySummaryTables } from "./support/replay_text.ts";

export { DEMO_WORLDS };

/** One line for the command list. */
export const summary =
  "Run the main job on the embedded example worlds (plan → logs → replay → classify, stats → report)";

/** Usage text. */
export const help = `navscope demo [--out DIR] [--no-replay] [--json|--md|--csv]

The main job on the embedded example worlds: plans the leg batteries of
examples/${DEMO_WORLDS.join(", examples/")} (as navscope plan --legs … --log), writes
their plan lines to DIR/logs/WORLD.log, replays the failed legs (navscope replay → DIR/replay/),
prints the battery, classify and stats tables, and writes DIR/report.html (navscope report:
the verdict against the committed baseline examples/baseline/, drill-downs replayed on each
world's pack with its battery's overrides). Takes a few minutes.

  --out DIR               output directory (default: out)
  --no-replay             skip the replay step
  --json | --md | --csv   the tables in that format (JSON: the batteries, classify and stats)`;

/**
 * The packs and batteries the demo's replay gets, as replay flags: each world's pack (`--pack`)
 * and its legs.json (`--battery`), so the legs' test overrides (window, max_cells,
 * cancel_before_tier) apply on replay as they did when planned (src/jobs/demo.ts).
 */
export function demoReplayInputs(): string[] {
  const { packs, batteries } = demoInputs();
  return packs.flatMap((p, i) => ["--pack", p, "--battery", batteries[i]]);
}

/** Runs the demo. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("demo", args, {
    out: { type: "string" },
    "no-replay": { type: "boolean" },
    json: { type: "boolean" },
    md: { type: "boolean" },
    csv: { type: "boolean" },
  });
  if (positionals.length > 0) {
    throw new NavscopeError(
      "usage",
      `demo: unexpected argument ${JSON.stringify(positionals[0])} (see navscope demo --help)`,
    );
  }
  const format = formatFromFlags(values);
  const out = values.out ?? "out";
  const json: Record<string, unknown> = {};
  const printEvent = jobPrinter("demo", undefined, "");
  // Each step's tables as the step finishes (JSON: collected, printed once at the end).
  const onStep = (e: JobEvent | DemoStep) => {
    if (e.kind === "step" || e.kind === "warning" || e.kind === "fraction") return printEvent(e);
    if (e.kind === "battery") {
      const { battery: b } = e;
      if (format !== "json") {
        return printTables(format, batteryTables(b.path, b.legs, b.summary), null);
      }
      json[b.world] = { profile: b.profile, legs: b.legs, summary: b.summary, machine: b.machine };
    } else if (e.kind === "replay") {
      if (format === "json") json.replay = JSON.parse(renderJson(e.report));
      // Without colour, as the replay's own output always was here.
      else io.out.write(renderTables(format, replaySummaryTables(e.report, e.out), e.report));
    } else if (e.kind === "classify") {
      if (format === "json") json.classify = JSON.parse(renderJson(e.report));
      else printTables(format, classifyTables(e.report), e.report);
    } else if (format === "json") json.stats = JSON.parse(renderJson(statsJson(e.report)));
    else printTables(format, statsTables(e.report), statsJson(e.report));
  };
  const r = await runDemo({ out, replay: !values["no-replay"], onProgress: onStep });
  if (format === "json") {
    json.report = r.report;
    json.triage = r.triage;
    io.out.write(JSON.stringify(json, null, 2) + "\n");
  }
  const html = r.report;
  const abs = html.startsWith("/") ? html : `${Deno.cwd()}/${html}`;
  io.err.write(`demo: report written to ${html} — open file://${abs} in a browser\n`);
  return 0;
}
