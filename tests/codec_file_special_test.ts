/**
 * Outputs that are devices (`--json /dev/null`) are written in place: the temp-file-and-rename
 * of an ordinary output would replace the device node itself (as root, for the whole machine).
 */
import { assert } from "./assert.ts";
import { assertWritable, writeFileAtomic, writeFilesAtomic } from "../src/codec/file.ts";

const isDevice = async (p: string) => {
  const st = await Deno.stat(p);
  return !st.isFile && !st.isDirectory;
};

Deno.test("file: writing /dev/null keeps it a device (no rename onto it), and no temp is left", async () => {
  assert(await isDevice("/dev/null"), "/dev/null is a device before the test");
  await assertWritable("/dev/null", { what: "the comparison (--json)" });
  await writeFileAtomic("/dev/null", "{}\n");
  await writeFilesAtomic([{ path: "/dev/null", data: "a" }, { path: "/dev/null", data: "b" }]);
  assert(await isDevice("/dev/null"), "/dev/null is still a device");
  for await (const e of Deno.readDir("/dev")) {
    assert(!(e.name.startsWith(".null.") && e.name.endsWith(".tmp")), `temp left: /dev/${e.name}`);
  }
});
