/**
 * `navscope demo`: the main job on the embedded default — plan the five example batteries (the
 * nightly's: city_small, dungeon, nav_test, proto_level, tower_big), write their plan lines to
 * `OUT/logs/`, replay the failures (`navscope replay`), print the classify and stats tables and
 * write `OUT/report.html` (`navscope report`: the verdict against examples/baseline/, drill-downs
 * on every world's pack with its battery's overrides).
 * @module
 */
import { fileURLToPath } from "node:url";
import { formatFromFlags, io, parseFlags } from "./support/terminal.ts";
import { cwdRelative } from "./support/paths.ts";
import { NavscopeError } from "../src/errors.ts";
import { openEngine } from "../src/plan/engine.ts";

/** The command modules the demo runs after planning, in order. */
const DEMO_STEPS = {
  replay: () => import("./replay.ts"),
  classify: () => import("./classify.ts"),
  stats: () => import("./stats.ts"),
  report: () => import("./report.ts"),
  triage: () => import("./triage.ts"),
};

/** One line for the command list. */
export const summary =
  "Run the main job on the embedded example worlds (plan → logs → replay → classify, stats → report)";

/**
 * The batteries the demo plans (examples/NAME/legs.json on examples/NAME/base.nav.gz): the five
 * the nightly gate plans, so the report's verdict against the committed baseline
 * (examples/baseline/) compares like with like.
 */
export const DEMO_WORLDS = ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"];

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
 * The packs and batteries the demo's replay gets: each world's pack (`--pack`) and its
 * legs.json (`--battery`), so the legs' test overrides (window, max_cells, cancel_before_tier)
 * apply on replay as they did when planned; without them an unchanged planner would report
 * spurious changes.
 */
export function demoReplayInputs(): string[] {
  return DEMO_WORLDS.flatMap((w) => [
    "--pack",
    cwdRelative(fileURLToPath(new URL(`../examples/${w}/base.nav.gz`, import.meta.url))),
    "--battery",
    cwdRelative(fileURLToPath(new URL(`../examples/${w}/legs.json`, import.meta.url))),
  ]);
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
  const logs = `${out}/logs`;
  await Deno.mkdir(logs, { recursive: true });
  const { battery } = await import("./plan.ts");
  const say = (s: string) => io.err.write(s + "\n");
  const json: Record<string, unknown> = {};
  for (const w of DEMO_WORLDS) {
    const dir = cwdRelative(fileURLToPath(new URL(`../examples/${w}/`, import.meta.url))) + "/";
    const log = `${logs}/${w}.log`;
    await Deno.writeTextFile(log, "");
    const engine = await openEngine(dir + "base.nav.gz");
    if (engine.info.error) {
      throw new NavscopeError("bad_value", `engine unusable: ${engine.info.error}`, {
        file: dir + "base.nav.gz",
      });
    }
    say(`demo: planning examples/${w}/legs.json → ${log}`);
    try {
      if (format === "json") {
        const { captureOutput } = await import("./support/terminal.ts");
        const r = await captureOutput(() =>
          battery(engine, dir + "legs.json", { format: "json", log })
        );
        json[w] = JSON.parse(r.out);
      } else await battery(engine, dir + "legs.json", { format, log });
    } finally {
      engine.close();
    }
  }
  const { captureOutput } = await import("./support/terminal.ts");
  // The demo runs its steps' command modules directly (not through the dispatcher in main.ts,
  // which lists the demo itself: that would be an import circle).
  const sub = async (argv: string[], keep: boolean) => {
    const mod = await DEMO_STEPS[argv[0] as keyof typeof DEMO_STEPS]();
    const step = async () => {
      try {
        return await mod.run(argv.slice(1));
      } catch (e) {
        if (e instanceof NavscopeError) {
          // The step is named once: "replay failed: …", never "replay failed: replay: …".
          const why = e.message.startsWith(`${argv[0]}: `)
            ? e.message.slice(argv[0].length + 2)
            : e.message;
          throw new NavscopeError("io", `demo: ${argv[0]} failed: ${why}`);
        }
        throw e;
      }
    };
    if (!keep) {
      const r = await captureOutput(step);
      if (r.value !== 0) throw new NavscopeError("io", `demo: ${argv[0]} failed: ${r.err.trim()}`);
      return r.out;
    }
    const code = await step();
    if (code !== 0) throw new NavscopeError("io", `demo: ${argv[0]} failed (exit ${code})`);
    return "";
  };
  const fmt = format === "text" ? [] : [`--${format}`];
  if (!values["no-replay"]) {
    say(`demo: replaying the failed legs → ${out}/replay/`);
    const r = await sub(
      ["replay", logs, ...demoReplayInputs(), "--out", `${out}/replay`, ...fmt],
      false,
    );
    if (format === "json") json.replay = JSON.parse(r);
    else io.out.write(r);
  }
  const c = await sub(["classify", logs, ...fmt], format !== "json");
  const s = await sub(["stats", logs, "--by-tier", ...fmt], format !== "json");
  if (format === "json") {
    json.classify = JSON.parse(c);
    json.stats = JSON.parse(s);
  }
  const html = `${out}/report.html`;
  // Relative to the working directory: the report names its inputs, never a checkout path.
  const example = (p: string) =>
    cwdRelative(fileURLToPath(new URL(`../examples/${p}`, import.meta.url)));
  await sub([
    "report",
    logs,
    "--out",
    html,
    // Drill-downs on every world's pack, with the batteries' test overrides; the verdict
    // against the committed nightly baseline, with its thresholds (as nightly judges).
    ...DEMO_WORLDS.flatMap((w) => [
      "--pack",
      example(`${w}/base.nav.gz`),
      "--battery",
      example(`${w}/legs.json`),
    ]),
    "--baseline",
    example("baseline/plans.log"),
    "--thresholds",
    example("baseline/thresholds.json"),
    "--drill",
    "30",
  ], false);
  // A bug report as it arrives: the example bundle's zip volumes triaged on city_small's pack.
  const bundleDir = example("bundle");
  const vols = [...Deno.readDirSync(bundleDir)].map((e) => e.name).filter((n) => n.endsWith(".zip"))
    .sort().map((n) => `${bundleDir}/${n}`);
  say(`demo: triaging the example bug-report bundle → ${out}/triage/`);
  await sub([
    "triage",
    ...vols,
    "--pack",
    example("city_small/base.nav.gz"),
    "--out",
    `${out}/triage`,
  ], false);
  if (format === "json") {
    json.report = html;
    json.triage = `${out}/triage/triage.md`;
    io.out.write(JSON.stringify(json, null, 2) + "\n");
  }
  const abs = html.startsWith("/") ? html : `${Deno.cwd()}/${html}`;
  say(`demo: report written to ${html} — open file://${abs} in a browser`);
  return 0;
}
