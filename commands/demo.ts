/**
 * `navscope demo`: the main job on the embedded example world — plan the city_small leg battery
 * (examples/city_small/legs.json on its packs) and print the per-leg table and the summary.
 * @module
 */
import { fileURLToPath } from "node:url";
import { formatFromFlags, parseFlags } from "./_output.ts";
import { NavscopeError } from "../src/errors.ts";
import { openEngine } from "../src/plan/engine.ts";

/** One line for the command list. */
export const summary = "Run the main job on the embedded example world (plan its leg battery)";

/** Usage text. */
export const help = `navscope demo [--json|--md|--csv]

Runs the main job on the embedded example world (examples/city_small, the small generated
world): plans every leg of examples/city_small/legs.json and prints one row per leg (outcome vs
expectation, tier, window kind and cells, total ms) and the summary — as
navscope plan --legs examples/city_small/legs.json.

  --json | --md | --csv   the battery in that format (as navscope plan --legs --json)`;

/** Runs the demo. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("demo", args, {
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
  const dir = fileURLToPath(new URL("../examples/city_small/", import.meta.url));
  const engine = await openEngine(dir + "base.nav.gz");
  if (engine.info.error) {
    throw new NavscopeError("bad_value", `engine unusable: ${engine.info.error}`, {
      file: dir + "base.nav.gz",
    });
  }
  const { battery } = await import("./plan.ts");
  return await battery(engine, dir + "legs.json", { format: formatFromFlags(values) });
}
