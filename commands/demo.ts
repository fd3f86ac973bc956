/**
 * `navscope demo`: the main job on the embedded example world. Until the planner lands this is
 * `inspect` on the example pack.
 * @module
 */
import { parseFlags } from "./_output.ts";
import { NavscopeError } from "../src/errors.ts";

/** One line for the command list. */
export const summary = "Run the main job on the embedded example world";

/** Usage text. */
export const help = `navscope demo [--json|--md|--csv]

Runs the main job on the embedded example world (examples/city_small, the small generated
world). For now: inspect its packs — header, sections, zones, grid tiles, bytes per record per
field, and the fields sidecar / occluder / no-go status.

  --json | --md | --csv   the inspect report in that format (as navscope inspect)`;

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
  const inspect = await import("./inspect.ts");
  const url = new URL("../examples/city_small/base.nav.gz", import.meta.url);
  const format = (["json", "md", "csv"] as const).filter((k) => values[k]).map((k) => `--${k}`);
  return await inspect.run([url.pathname, ...format]);
}
