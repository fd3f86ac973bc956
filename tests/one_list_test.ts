/**
 * Each concept is listed once and imported everywhere else: the six timed stages
 * (`STAGE_NAMES`, src/plan/counters.ts, with the sub-stages of "other"), the planner's failure
 * codes (src/legs/codes.ts, the classes of src/analyze/classes.ts built from them) and the gate's
 * thresholds (src/analyze/diff.ts). The test scans the sources for a second literal list — a run
 * of string literals separated by commas or `|` (an array or a union type) naming three or more
 * members of one concept — and fails on any outside the declaring file.
 */
import { assert, assertEquals } from "./assert.ts";
import { fileURLToPath } from "node:url";
import { STAGE_NAMES } from "../src/plan/counters.ts";
import { PLAN_ERROR_CODES } from "../src/legs/codes.ts";
import { FAILURE_CLASSES } from "../src/analyze/classes.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** A concept, its members and the one file allowed to list them. */
interface Concept {
  name: string;
  members: ReadonlySet<string>;
  home: string;
}

const CONCEPTS: Concept[] = [
  { name: "stage names", members: new Set(STAGE_NAMES), home: "src/plan/counters.ts" },
  { name: "failure codes", members: new Set(PLAN_ERROR_CODES), home: "src/legs/codes.ts" },
  {
    name: "non-plan failure classes",
    members: new Set(FAILURE_CLASSES.filter((c) =>
      !(PLAN_ERROR_CODES as readonly string[])
        .includes(c)
    )),
    home: "src/analyze/classes.ts",
  },
];

/** Runs of two or more string literals separated by `,` or `|` (comments dropped first). */
const RUN_RE = /"[a-z_]+"(?:\s*[,|]\s*"[a-z_]+")+/g;

/** The literal lists of `text` naming at least three members of `members`, as found. */
export function literalLists(text: string, members: ReadonlySet<string>): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const out: string[] = [];
  for (const m of code.matchAll(RUN_RE)) {
    const names = new Set([...m[0].matchAll(/"([a-z_]+)"/g)].map((x) => x[1]));
    if ([...names].filter((n) => members.has(n)).length >= 3) out.push(m[0].replace(/\s+/g, " "));
  }
  return out;
}

async function sources(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(ROOT + rel)) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".ts")) files.set(p, await Deno.readTextFile(ROOT + p));
    }
  };
  for (const d of ["src", "reports", "commands", "bench"]) await walk(d);
  files.set("mod.ts", await Deno.readTextFile(ROOT + "mod.ts"));
  return files;
}

Deno.test("one list per concept: no second literal list of stages or failure codes", async () => {
  const files = await sources();
  const bad: string[] = [];
  for (const c of CONCEPTS) {
    let home = 0;
    for (const [path, text] of files) {
      const lists = literalLists(text, c.members);
      if (path === c.home) home += lists.length;
      else for (const l of lists) bad.push(`${path}: a second list of ${c.name}: ${l}`);
    }
    assert(home >= 1, `${c.home} no longer lists the ${c.name}`);
  }
  assertEquals(bad, []);
});

Deno.test("one list per concept: the gate's thresholds are declared once", async () => {
  const files = await sources();
  // Each outcome and counter gate is written once (src/analyze/diff.ts) and shared by the
  // built-in and the nightly sets.
  for (const key of ["failing_legs: {", `"counters.*.*.sum": {`]) {
    const where = [...files].filter(([, t]) => t.includes(key)).map(([p]) => p);
    assertEquals(where, ["src/analyze/diff.ts"], key);
  }
});

Deno.test("one list per concept: the scan sees a planted list, in an array or a union", () => {
  const stages = new Set<string>(STAGE_NAMES);
  assertEquals(literalLists(`const a = ["window", "topology",\n  "geometry"];`, stages).length, 1);
  assertEquals(literalLists(`type T = "pull" | "assemble" | "lift";`, stages).length, 1);
  assertEquals(literalLists(`const a = [...STAGE_NAMES, "other", "total"];`, stages), []);
  assertEquals(literalLists(`// "window", "topology", "geometry"`, stages), []);
});
