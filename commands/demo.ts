/**
 * `navscope demo`: the main job on the embedded example world. Until the planner lands this is
 * `inspect` on the example pack.
 * @module
 */
export const summary = "Run the main job on the embedded example world";
export const help = `navscope demo

Runs the main job on the embedded example world (examples/). For now: inspect the example
pack and print its header, sections, zones and tiles.`;

/** Runs the demo. */
export async function run(_args: string[]): Promise<number> {
  const inspect = await import("./inspect.ts");
  const url = new URL("../examples/demo/base.nav.gz", import.meta.url);
  return await inspect.run([url.pathname]);
}
