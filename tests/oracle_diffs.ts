/**
 * Helper script (not a test): lists, per world and oracle set, the legs whose plan under a profile
 * differs from the C++ reference output, and in which fields. Reads the golden data from a
 * directory given on the command line (default: the checkout's `../shared`), so it also covers the worlds not
 * vendored into tests/fixtures.
 *
 *   deno run -A tests/oracle_diffs.ts [--root DIR] [--profile reference|spec]
 *     [--set v1|v2] [--world NAME] [--kind examples|random] [--legs]
 *
 * One line per set: `set: every field e/n; field counts…`; with `--legs` also one line per
 * differing leg with its fields.
 * @module
 */
import { agreement, formatAgreement, loadSet } from "./oracle_compare.ts";
import { namedProfile } from "../src/plan/profile.ts";

const args = Deno.args;
const opt = (k: string) => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] : undefined;
};
/** `../shared` beside the checkout (or beside its parent, for a worktree under /work/wt/). */
function sharedRoot(): string {
  for (const rel of ["../../shared/", "../../../shared/"]) {
    const p = new URL(rel, import.meta.url).pathname;
    try {
      if (Deno.statSync(p + "oracle").isDirectory) return p;
    } catch { /* try the next */ }
  }
  throw new Error("../shared/oracle not found: give --root DIR");
}
const root = opt("--root") ?? sharedRoot();
const profile = namedProfile(opt("--profile") ?? "reference");
const sets = opt("--set") ? [opt("--set")!] : ["v1", "v2"];
const worlds = opt("--world")
  ? [opt("--world")!]
  : ["nav_test", "dungeon", "proto_level", "tower_big", "city_small"];
const kinds = opt("--kind") ? [opt("--kind")!] : ["examples", "random"];
const showLegs = args.includes("--legs");

for (const s of sets) {
  for (const w of worlds) {
    for (const k of kinds) {
      const dir = `${root}/${s === "v1" ? "oracle" : "oracle-v2"}/${w}/${
        k === "random" ? "random/" : ""
      }`;
      const name = `${s}/${w}/${k}`;
      const set = await loadSet(dir, name);
      const a = await agreement(set, profile);
      console.log(formatAgreement(name, profile.name, a));
      if (showLegs) {
        for (const [id, f] of a.diffs) console.log(`  ${name} ${id}: ${f.join(", ")}`);
      }
    }
  }
}
