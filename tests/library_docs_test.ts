/**
 * The workflow examples of docs/library.md run as they are (issue 54): every ```ts block of its
 * "Workflows" section (but those that say they are not run) is written to a temporary folder
 * with `../navscope/` (a checkout beside the user's project: its mod.ts, or the checkout itself
 * as bisect's example clones it) replaced by this checkout's URL, type-checked, and run under this
 * checkout's deno.json (the report page's chart.js and the PNG rasterizer are resolved at run
 * time from its imports, as the docs say); each must exit 0.
 * The examples use the example data and temporary folders, so they are quick and leave the
 * checkout as it was (the A/B example's worktree of HEAD is removed; bisect's is in a clone).
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** This checkout as a URL (ends with "/"): what `../navscope/` in the examples stands for. */
const CHECKOUT = new URL("../", import.meta.url).href;

/**
 * The workflow functions of src/jobs/ (one per workflow, issue 54), each of which a runnable
 * example must call; a new workflow is added here and to the docs.
 */
const WORKFLOWS = [
  "runNightly",
  "runAb",
  "runDemo",
  "runReplay",
  "runReport",
  "diffPaths",
  "runTriage",
  "triageIssue",
  "addRunToHistory",
  "bisectLeg",
];

/** The ```ts blocks of a Markdown section (from its `## title` to the next `## `). */
export function sectionBlocks(md: string, title: string): string[] {
  const start = md.indexOf(`\n## ${title}`);
  if (start < 0) return [];
  const end = md.indexOf("\n## ", start + 1);
  const section = md.slice(start, end < 0 ? md.length : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The examples the test runs: not those whose first line says they are not run. */
function runnable(blocks: string[]): string[] {
  return blocks.filter((b) => !/^\/\/ not run by tests\/library_docs_test\.ts/.test(b));
}

async function deno(args: string[], cwd: string) {
  const o = await new Deno.Command(Deno.execPath(), { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const td = new TextDecoder();
  return { code: o.code, out: td.decode(o.stdout), err: td.decode(o.stderr) };
}

Deno.test("docs/library.md: the workflow examples type-check and run", async () => {
  const md = await Deno.readTextFile(ROOT + "docs/library.md");
  const blocks = sectionBlocks(md, "Workflows");
  const run = runnable(blocks);
  // Every workflow of src/jobs/ is shown and run (WORKFLOWS: the functions mod.ts exports).
  for (const f of WORKFLOWS) {
    assert(run.some((b) => b.includes(`${f}(`)), `no runnable example calls ${f}`);
  }
  const dir = await Deno.makeTempDir({ prefix: "navscope-library-docs-" });
  try {
    // Outside the checkout, importing its mod.ts by URL, under its deno.json.
    const files = blocks.map((_, i) => `example_${i + 1}.ts`);
    await Promise.all(
      blocks.map((b, i) =>
        Deno.writeTextFile(
          `${dir}/${files[i]}`,
          b.replaceAll('"../navscope/', `"${CHECKOUT}`),
        )
      ),
    );
    const config = ["--config", ROOT + "deno.json"];
    // Every example type-checks, the not-run ones included.
    const check = await deno(["check", "--quiet", ...config, ...files], dir);
    assertEquals(check.code, 0, check.err);
    for (let i = 0; i < blocks.length; i++) {
      if (!run.includes(blocks[i])) continue;
      const r = await deno(["run", "-A", "--quiet", ...config, files[i]], dir);
      assertEquals(r.code, 0, `example ${i + 1}:\n${blocks[i]}\n${r.err}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("docs/library.md: the example extraction sees the blocks of its section only", () => {
  const md = "# t\n\n## Other\n\n```ts\nno\n```\n\n## Workflows\n\ntext\n\n```ts\na\n```\n\n" +
    "```ts\n// not run by tests/library_docs_test.ts: slow\nb\n```\n\n```json\n{}\n```\n\n" +
    "## Next\n\n```ts\nc\n```\n";
  const blocks = sectionBlocks(md, "Workflows");
  assertEquals(blocks, ["a\n", "// not run by tests/library_docs_test.ts: slow\nb\n"]);
  assertEquals(runnable(blocks), ["a\n"]);
});
