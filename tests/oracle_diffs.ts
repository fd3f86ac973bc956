/**
 * Helper script (not a test): lists, per world and oracle set, the legs whose plan under a profile
 * differs from the C++ reference output, and in which fields. Reads the golden data from a
 * directory given on the command line (default: the checkout's `../shared`), so it also covers the worlds not
 * vendored into tests/fixtures.
 *
 *   deno run -A tests/oracle_diffs.ts [--root DIR] [--profile reference|spec | --profile-file F]
 *     [--set v1|v2] [--world NAME] [--kind examples|random|random2|released] [--legs]
 *
 * The sets: v1 and v2 × the five example worlds × examples / random, v2 × the five example
 * worlds × random2 (added 2026-12-03), v2 nav_test × released (added 2026-12-07), and v2 × the
 * three real-mesh worlds (bridges, tower_small, tower_middle) × random; a set missing from the
 * root is skipped.
 *
 * One line per set: `set: every field e/n; field counts…`; with `--legs` also one line per
 * differing leg with its fields.
 * @module
 */
import { agreement, formatAgreement, loadSet } from "./oracle_compare.ts";
import { namedProfile, parseProfileFile } from "../src/plan/profile.ts";

const args = Deno.args;
const opt = (k: string) => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] : undefined;
};
/** `../shared` beside the checkout (or beside its parent, for a worktree one folder deeper). */
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
const pf = opt("--profile-file");
const profile = pf
  ? parseProfileFile(await Deno.readTextFile(pf), pf)
  : namedProfile(opt("--profile") ?? "reference");
const sets = opt("--set") ? [opt("--set")!] : ["v1", "v2"];
const EXAMPLE_WORLDS = ["nav_test", "dungeon", "proto_level", "tower_big", "city_small"];
const MESH_WORLDS = ["bridges", "tower_small", "tower_middle"];
const worlds = opt("--world") ? [opt("--world")!] : [...EXAMPLE_WORLDS, ...MESH_WORLDS];
const kinds = opt("--kind") ? [opt("--kind")!] : ["examples", "random", "random2", "released"];
const showLegs = args.includes("--legs");

for (const s of sets) {
  for (const w of worlds) {
    for (const k of kinds) {
      const dir = `${root}/${s === "v1" ? "oracle" : "oracle-v2"}/${w}/${
        k === "examples" ? "" : k + "/"
      }`;
      const name = `${s}/${w}/${k}`;
      try {
        Deno.statSync(dir + "legs.json");
      } catch {
        continue; // not in this root (e.g. v1 random2, the mesh worlds' examples)
      }
      const set = await loadSet(dir, name);
      const a = await agreement(set, profile);
      console.log(formatAgreement(name, profile.name, a));
      if (showLegs) {
        for (const [id, f] of a.diffs) console.log(`  ${name} ${id}: ${f.join(", ")}`);
      }
    }
  }
}
