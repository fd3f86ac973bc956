/**
 * The layer rule of ARCHITECTURE.md, checked on the code itself: a module imports only from
 * the layers above it (util → codec → pack → mesh → grid → bake → legs → world → plan → logs →
 * analyze → reports → commands), and no import circle exists (type-only and dynamic imports
 * included).
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
  "mesh",
  "grid",
  "bake",
  "legs",
  "world",
  "plan",
  "logs",
  "analyze",
  "reports",
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
