/**
 * The README's library example works as written: `examples/library_use.ts` type-checks and runs
 * from the checkout, runs from a project outside the checkout that names navscope in its own
 * `deno.json` (the README's second way to import it), and the README shows the file's code
 * verbatim. `mod.ts`'s import graph holds only `file:` and `node:` modules, so a project that
 * imports it by path or URL needs no other import-map entry.
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const EXAMPLE = `${ROOT}examples/library_use.ts`;

/** What the example prints: one line per leg, then the classify counts. */
const EXPECTED = [
  "ok: 64.44 px, tier 0",
  "failed: snap_far_from_mesh",
  "class snap_far_from_mesh: 1",
];

async function deno(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  const out = new TextDecoder().decode(r.stdout);
  const err = new TextDecoder().decode(r.stderr);
  assertEquals(r.code, 0, `deno ${args.join(" ")} failed:\n${err}`);
  return { code: r.code, out };
}

/** The example's code as the README must show it: from its first import to the end. */
async function exampleCode(): Promise<string> {
  const text = await Deno.readTextFile(EXAMPLE);
  return text.slice(text.indexOf("\nimport ") + 1).trimEnd();
}

Deno.test("library example: type-checks and runs from the checkout", async () => {
  const { out } = await deno(
    ["run", "--check", "--allow-read", "--allow-write", "--allow-env", EXAMPLE],
    ROOT,
  );
  assertEquals(out.trimEnd().split("\n"), EXPECTED);
});

Deno.test("library example: runs from another project that names navscope in its deno.json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope_lib_" });
  try {
    const code = await exampleCode();
    const examples = pathToFileURL(`${ROOT}examples/`).href;
    const moved = code
      .replace('from "../mod.ts";', 'from "navscope";')
      .replace(
        'new URL("./nav_test/base.nav.gz", import.meta.url)',
        `new URL(${JSON.stringify(`${examples}nav_test/base.nav.gz`)})`,
      );
    assert(moved.includes('from "navscope";'), "the example no longer imports ../mod.ts");
    assert(moved.includes(`${examples}nav_test`), "the example no longer opens nav_test's pack");
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ imports: { navscope: pathToFileURL(`${ROOT}mod.ts`).href } }),
    );
    await Deno.writeTextFile(`${dir}/main.ts`, moved + "\n");
    const { out } = await deno(
      ["run", "--no-lock", "--allow-read", "--allow-write", "--allow-env", "main.ts"],
      dir,
    );
    assertEquals(out.trimEnd().split("\n"), EXPECTED);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("library example: the README shows it as written", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1].trimEnd());
  assert(
    blocks.includes(await exampleCode()),
    "README.md's library example differs from examples/library_use.ts (copy the file's code from its first import)",
  );
  for (const line of EXPECTED) {
    assert(readme.includes(`\`${line}\``), `README does not say the example prints "${line}"`);
  }
});

Deno.test("library: mod.ts imports only file: and node: modules (no import map needed)", async () => {
  const { out } = await deno(["info", "--json", "mod.ts"], ROOT);
  const info = JSON.parse(out) as { modules: Array<{ specifier: string }> };
  assert(info.modules.length > 50, `only ${info.modules.length} modules in the graph`);
  const foreign = info.modules.map((m) => m.specifier).filter((s) =>
    !s.startsWith("file:") && !s.startsWith("node:")
  );
  assertEquals(foreign, [], "mod.ts's graph reaches modules a user would have to map");
});
