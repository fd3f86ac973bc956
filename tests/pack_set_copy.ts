/** Test helper: a temporary copy of an example world's pack set (not a test file). */

const EX = new URL("../examples/", import.meta.url).pathname;
const FILES = ["base.nav.gz", "base.fields.nav.gz", "base.occluder.gz", "base.nogo.json"];

/** Copies an example's pack set into a fresh temp directory. */
export async function copySet(world: string): Promise<string> {
  const d = await Deno.makeTempDir({ prefix: "ns_valid_" });
  for (const f of FILES) await Deno.copyFile(`${EX}${world}/${f}`, `${d}/${f}`);
  return d;
}
