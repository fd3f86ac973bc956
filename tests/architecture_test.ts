/**
 * The layer rule of ARCHITECTURE.md, checked on the code itself: a module imports only from
 * the layers above it (util → codec → pack → zone_mesh → grid → bake → legs → world → plan → logs →
 * analyze → reports → jobs → commands), and no import circle exists (type-only and dynamic
 * imports included). The workflows (src/jobs/) sit between the renderers and the commands: a
 * job uses the renderers, no renderer runs a job, and only commands call jobs.
 * Commands are leaves (issue 54): none imports another (commands/support/ holds what they
 * share; the dispatcher commands/main.ts, which lazy-loads every command by table, is the one
 * exception), and no command's `run()` is longer than {@link MAX_RUN_LINES} lines.
 * Beside the product, three folders that are not layers: `testing/` (test-data generators and
 * the fuzz harness, shared by tests and benchmarks: it may import `src/` and `mod.ts`, nothing in
 * the product may import it), `tests/` and `bench/` (neither imports the other; what both need
 * lives in `testing/`).
 * A small text scan of the import specifiers, so the rule holds without anyone remembering it.
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Layers top to bottom; a module may import its own layer and those listed before it. */
export const LAYERS = [
  "util",
  "codec",
  "pack",
  "zone_mesh",
  "grid",
  "bake",
  "legs",
  "world",
  "plan",
  "logs",
  "analyze",
  "reports",
  "jobs",
  "commands",
] as const;

/** Files shared by every layer (errors, version, the seeded RNG). */
const SHARED = new Set(["src/errors.ts", "src/version.ts", "src/rng.ts"]);

/** Layer index of a repo-relative path, or -1 for shared files, null outside the layers. */
export function layerOf(path: string): number | null {
  if (SHARED.has(path)) return -1;
  if (path === "mod.ts") return LAYERS.length; // the public API re-exports every layer
  const m = /^src\/([a-z_]+)\//.exec(path);
  if (m) {
    const i = LAYERS.indexOf(m[1] as typeof LAYERS[number]);
    return i >= 0 ? i : null;
  }
  if (path.startsWith("reports/")) return LAYERS.indexOf("reports");
  if (path.startsWith("commands/")) return LAYERS.indexOf("commands");
  return null;
}

const IMPORT_RE =
  /(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/gs;

/** Every relative import of a source text, resolved to repo-relative paths. */
export function importsOf(path: string, text: string): string[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const parts = (dir ? dir.split("/") : []).concat((m[1] ?? m[2]).split("/"));
    const norm: string[] = [];
    for (const p of parts) {
      if (p === "." || p === "") continue;
      if (p === "..") norm.pop();
      else norm.push(p);
    }
    out.push(norm.join("/"));
  }
  return out;
}

/** Every `.ts` file under the repo-relative folders `dirs`, with its text. */
async function filesUnder(dirs: string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(ROOT + rel)) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".ts")) files.set(p, await Deno.readTextFile(ROOT + p));
    }
  };
  for (const d of dirs) await walk(d);
  return files;
}

/** The product's sources: the layers and the public API. */
async function sourceFiles(): Promise<Map<string, string>> {
  const files = await filesUnder(["src", "reports", "commands"]);
  files.set("mod.ts", await Deno.readTextFile(ROOT + "mod.ts"));
  return files;
}

/** The folder a repo-relative path sits in, as the rules below name it. */
function folderOf(path: string): string {
  return path === "mod.ts" ? "mod.ts" : path.slice(0, Math.max(0, path.indexOf("/")));
}

/**
 * Which folders each non-product folder may import: test support only the product (`src/`,
 * `mod.ts`) and itself; tests and benchmarks the product, test support, and themselves — never
 * each other. (`reports/` and `commands/` are product too: tests drive them, a benchmark may.)
 */
export const SUPPORT_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  testing: ["src", "mod.ts", "testing"],
  tests: ["src", "reports", "commands", "mod.ts", "testing", "tests", "examples"],
  bench: ["src", "reports", "commands", "mod.ts", "testing", "bench"],
};

/** The breaches of {@link SUPPORT_IMPORTS} in `files`, one line each. */
export function supportBreaches(files: Map<string, string>): string[] {
  const bad: string[] = [];
  for (const [path, text] of files) {
    const allowed = SUPPORT_IMPORTS[folderOf(path)];
    if (!allowed) continue;
    for (const target of importsOf(path, text)) {
      if (!allowed.includes(folderOf(target))) bad.push(`${path} imports ${target}`);
    }
    // A benchmark reading a test's fixtures by path is the same coupling as an import.
    if (folderOf(path) === "bench" && /["'`]\.\.\/tests\//.test(text)) {
      bad.push(`${path} names ../tests/ (reach fixtures through testing/)`);
    }
  }
  return bad;
}

/** Strongly connected components of more than one file (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let n = 0;
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], on = new Set<string>(), out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, n), low.set(v, n++), stack.push(v), on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      for (let w = stack.pop()!;; w = stack.pop()!) {
        on.delete(w), comp.push(w);
        if (w === v) break;
      }
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

Deno.test("architecture: no module imports a layer below it", async () => {
  const files = await sourceFiles();
  const bad: string[] = [];
  for (const [path, text] of files) {
    const from = layerOf(path);
    assert(from !== null, `${path} is in no layer of ARCHITECTURE.md`);
    for (const target of importsOf(path, text)) {
      const to = layerOf(target);
      if (to === null || to === -1 || from === -1) continue;
      if (to > from) {
        bad.push(`${path} (${LAYERS[from] ?? "api"}) imports ${target} (${LAYERS[to]})`);
      }
    }
  }
  assertEquals(bad, []);
});

Deno.test("architecture: the planner never imports the baker or the world generator", async () => {
  const files = await sourceFiles();
  const bad = [...files].flatMap(([p, t]) =>
    p.startsWith("src/plan/")
      ? importsOf(p, t).filter((x) => x.startsWith("src/bake/") || x.startsWith("src/world/"))
        .map((x) => `${p} imports ${x}`)
      : []
  );
  assertEquals(bad, []);
});

Deno.test("architecture: the product never imports test support, tests or benchmarks", async () => {
  const files = await sourceFiles();
  const bad = [...files].flatMap(([p, t]) =>
    importsOf(p, t).filter((x) => ["testing", "tests", "bench"].includes(folderOf(x)))
      .map((x) => `${p} imports ${x}`)
  );
  assertEquals(bad, []);
});

Deno.test("architecture: tests and benchmarks never import each other; testing/ only the product", async () => {
  const files = await filesUnder(["testing", "tests", "bench"]);
  files.delete("tests/architecture_test.ts"); // its planted breaches are string literals
  assertEquals(supportBreaches(files), []);
});

Deno.test("architecture: no import circles, type-only and dynamic imports included", async () => {
  const files = await sourceFiles();
  const graph = new Map([...files].map(([p, t]) => [p, importsOf(p, t)]));
  assertEquals(circles(graph), []);
});

Deno.test("architecture: the scan sees what it checks (a planted circle and a layer breach)", () => {
  const g = new Map([
    ["src/plan/a.ts", importsOf("src/plan/a.ts", 'import type { B } from "./sub/b.ts";')],
    ["src/plan/sub/b.ts", importsOf("src/plan/sub/b.ts", 'const a = await import("../a.ts");')],
  ]);
  assertEquals(circles(g), [["src/plan/a.ts", "src/plan/sub/b.ts"]]);
  assertEquals(importsOf("src/plan/x.ts", 'export { y } from "../bake/walls.ts";'), [
    "src/bake/walls.ts",
  ]);
  assert(layerOf("src/plan/x.ts")! > layerOf("src/bake/walls.ts")!);
  assert(layerOf("src/grid/x.ts")! < layerOf("src/bake/walls.ts")!);
  // The workflow floor: below the renderers, above the commands.
  assert(layerOf("src/jobs/nightly.ts")! > layerOf("reports/report_page.ts")!);
  assert(layerOf("src/jobs/nightly.ts")! < layerOf("commands/nightly.ts")!);
  assertEquals(
    supportBreaches(
      new Map([
        [
          "tests/a_test.ts",
          'import { g } from "../bench/g.ts";\nimport { r } from "../testing/r.ts";',
        ],
        ["bench/b.ts", 'const u = new URL("../tests/fixtures/x/", import.meta.url);'],
        ["testing/c.ts", 'import { z } from "../reports/z.ts";\nimport { y } from "../src/y.ts";'],
      ]),
    ),
    [
      "tests/a_test.ts imports bench/g.ts",
      "bench/b.ts names ../tests/ (reach fixtures through testing/)",
      "testing/c.ts imports reports/z.ts",
    ],
  );
});

/** Longest `run()` a command may have, lines from its signature to its closing brace. */
export const MAX_RUN_LINES = 110;

/** The command modules: commands/*.ts (not commands/support/). */
async function commandFiles(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(ROOT + "commands")) {
    if (e.isFile && e.name.endsWith(".ts")) {
      out.set(`commands/${e.name}`, await Deno.readTextFile(ROOT + "commands/" + e.name));
    }
  }
  return out;
}

/** Imports of other command modules (commands/*.ts outside commands/support/). */
export function commandImports(path: string, text: string): string[] {
  return importsOf(path, text).filter((t) => /^commands\/[a-z_]+\.ts$/.test(t) && t !== path);
}

/**
 * Length in lines of the top-level `function run(` of a module (signature line through the
 * line of its closing brace at column 0), or null when there is none.
 */
export function runLength(text: string): number | null {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^export (async )?function run\(/.test(l));
  if (start < 0) return null;
  for (let i = start + 1; i < lines.length; i++) if (lines[i] === "}") return i - start + 1;
  return null;
}

Deno.test("commands: no command imports another (main.ts's dispatch table excepted)", async () => {
  const bad: string[] = [];
  for (const [path, text] of await commandFiles()) {
    if (path === "commands/main.ts") continue;
    for (const t of commandImports(path, text)) bad.push(`${path} imports ${t}`);
  }
  assertEquals(bad, []);
});

Deno.test(`commands: every run() is at most ${MAX_RUN_LINES} lines`, async () => {
  const long: string[] = [];
  for (const [path, text] of await commandFiles()) {
    const n = runLength(text);
    if (n !== null && n > MAX_RUN_LINES) long.push(`${path}: run() is ${n} lines`);
  }
  assertEquals(long, []);
});

Deno.test("commands: the checks see what they check (a planted import and a long run)", () => {
  assertEquals(
    commandImports(
      "commands/demo.ts",
      'const m = await import("./replay.ts");\n' +
        'import { io } from "./support/terminal.ts";',
    ),
    ["commands/replay.ts"],
  );
  const body = Array.from({ length: 120 }, (_, i) => `  const x${i} = ${i};`).join("\n");
  assertEquals(runLength(`export async function run(args: string[]) {\n${body}\n}\n`), 122);
  assertEquals(runLength("export function other() {\n}\n"), null);
});

/**
 * Printing and exiting in a source text: `console.*`, `Deno.exit`, `Deno.stdout`, `Deno.stderr`
 * outside comments and template strings (a child process's source in a template string may use
 * them: src/jobs/ab.ts, the planner driver each round starts). Block comments go first, then
 * whole-line ones: both hold backticks.
 */
export function printsOrExits(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/[^\n]*/gm, "")
    .replace(/`(?:\\[\s\S]|[^`\\])*`/g, "``");
  return [...code.matchAll(/console\.\w+|Deno\.(?:exit|stdout|stderr)\b/g)].map((m) => m[0]);
}

Deno.test("architecture: the workflows (src/jobs/) print nothing and never exit", async () => {
  const files = await sourceFiles();
  const bad: string[] = [];
  for (const [path, text] of files) {
    if (path.startsWith("src/jobs/")) bad.push(...printsOrExits(text).map((m) => `${path}: ${m}`));
  }
  assertEquals(bad, []);
  assertEquals(
    printsOrExits(
      "/** `console.log` in a doc */\n// Deno.exit(1) in a comment\nconst d = `Deno.exit(0)`;\n" +
        "if (bad) Deno.exit(2);\nconsole.error(`x`);\n",
    ),
    ["Deno.exit", "console.error"],
  );
});
