/**
 * Outputs that are devices (`--json /dev/null`) are written in place: the temp-file-and-rename
 * of an ordinary output would replace the device node itself (as root, for the whole machine),
 * and Deno refuses a temp file under /dev without --allow-all.
 */
import { assert, assertEquals } from "./assert.ts";
import { assertWritable, writeFileAtomic, writeFilesAtomic } from "../src/codec/file.ts";

const isDevice = async (p: string) => {
  const st = await Deno.stat(p);
  return !st.isFile && !st.isDirectory;
};

Deno.test("file: writing /dev/null keeps it a device (no rename onto it); a regular output beside it leaves no temp", async () => {
  assert(await isDevice("/dev/null"), "/dev/null is a device before the test");
  const dir = await Deno.makeTempDir();
  try {
    await assertWritable("/dev/null", { what: "the comparison (--json)" });
    await writeFileAtomic("/dev/null", "{}\n");
    await writeFilesAtomic([{ path: `${dir}/r.html`, data: "a" }, {
      path: "/dev/null",
      data: "b",
    }]);
    assert(await isDevice("/dev/null"), "/dev/null is still a device");
    assertEquals(await Deno.readTextFile(`${dir}/r.html`), "a");
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assertEquals(names, ["r.html"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
