/**
 * `navscope demo`: the main job on the embedded example world. Until the planner lands this is
 * `inspect` on the example pack.
 * @module
 */
export const summary = "Run the main job on the embedded example world";
export const help = `navscope demo

Runs the main job on the embedded example world (examples/city_small, the small generated
world). For now: inspect its packs — header, sections, zones, grid tiles, bytes per record per
field, and the fields sidecar / occluder / no-go status.`;

/** Runs the demo. */
export async function run(_args: string[]): Promise<number> {
  const inspect = await import("./inspect.ts");
  const url = new URL("../examples/city_small/base.nav.gz", import.meta.url);
  return await inspect.run([url.pathname]);
}
