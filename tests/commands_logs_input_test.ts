/**
 * Issue 10 for `classify` / `stats`: nothing readable → exit 1 (not "0 failures"); a gzipped
 * binary file is one file problem, not hundreds of unparsed lines; a corrupt .log.gz counts
 * what decoded before the damage and says "read up to line N"; the pack cache's key is not a
 * zone for `--by zone`.
 */
import { assert, assertEquals } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { gzip } from "../src/codec/gzip.ts";

const FAIL = new URL("./fixtures/analyze/failures.log", import.meta.url).pathname;
const PLANS = new URL("./fixtures/analyze/plans.log", import.meta.url).pathname;
const NAV = new URL("./fixtures/logs/navigator_full.log", import.meta.url).pathname;
const EX = new URL("../examples/city_small/", import.meta.url).pathname;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = console.error;
  let err = "";
  console.error = (...a: unknown[]) => void (err += a.join(" ") + "\n");
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: c.out, err: err + c.err };
  } finally {
    console.error = saved;
  }
}

Deno.test("classify/stats: nothing readable at all exits 1; something readable exits 0", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope-logs-" });
  try {
    // Gzip magic, then garbage: nothing decodes.
    await Deno.writeFile(`${dir}/broken.log.gz`, new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]));
    await Deno.mkdir(`${dir}/empty`);
    for (const cmd of ["classify", "stats"]) {
      for (
        const input of [
          `${dir}/missing.log`,
          `${dir}/*.nothing`,
          `${dir}/broken.log.gz`,
          `${dir}/empty`,
        ]
      ) {
        const r = await cli([cmd, input, "--json"]);
        assertEquals(r.code, 1, `${cmd} ${input}: ${r.err}`);
        assert(/error: no input could be read/.test(r.err), r.err);
        assertEquals(r.out, "", "no report when nothing was read");
      }
      // One readable file among the bad ones: warnings, exit 0, the report.
      const r = await cli([cmd, `${dir}/missing.log`, cmd === "stats" ? PLANS : FAIL, "--json"]);
      assertEquals(r.code, 0, r.err);
      assert(/warning: skipped .*missing\.log/.test(r.err), r.err);
      assertEquals(JSON.parse(r.out).file_problems.length, 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("classify: a gzipped binary file is a file problem, not unparsed lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope-logs-" });
  try {
    // A pack is gzip of binary data: exactly what `classify examples/city_small/` meets.
    await Deno.copyFile(`${EX}base.nav.gz`, `${dir}/base.nav.gz`);
    await Deno.copyFile(FAIL, `${dir}/failures.log`);
    const r = await cli(["classify", dir, "--json"]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assertEquals(j.unparsed_lines, 1); // failures.log's own bad line only
    assertEquals(j.total, 33);
    assertEquals(j.file_problems.length, 1);
    assert(j.file_problems[0].file.endsWith("base.nav.gz"));
    assert(
      /binary content inside the gzip/.test(j.file_problems[0].error),
      j.file_problems[0].error,
    );
    const only = await cli(["classify", `${dir}/base.nav.gz`]);
    assertEquals(only.code, 1, only.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("classify: a corrupt .log.gz counts the failures before the damage and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope-logs-" });
  try {
    const text = await Deno.readTextFile(FAIL);
    const gz = gzip(new TextEncoder().encode(text.repeat(20)));
    await Deno.writeFile(`${dir}/cut.log.gz`, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const r = await cli(["classify", `${dir}/cut.log.gz`, "--json"]);
    assertEquals(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert(j.total > 0, "failures before the damage are counted");
    assertEquals(j.file_problems.length, 1);
    const m = /corrupt or truncated gzip: .*; read up to line (\d+)$/.exec(
      j.file_problems[0].error,
    );
    assert(m !== null && Number(m[1]) > 0, j.file_problems[0].error);
    assert(/warning: partly read .*cut\.log\.gz: .*read up to line \d+/.test(r.err), r.err);
    assert(!/skipped/.test(r.err), r.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("classify --by zone: the pack cache key (base.nav.gz) is not a zone", async () => {
  const r = await cli(["classify", NAV, "--by", "zone", "--json"]);
  assertEquals(r.code, 0, r.err);
  const keys = JSON.parse(r.out).groups.map((g: { key: string }) => g.key);
  assert(!keys.includes("base.nav.gz"), JSON.stringify(keys));
  assert(keys.includes("map02base"), JSON.stringify(keys));
});
