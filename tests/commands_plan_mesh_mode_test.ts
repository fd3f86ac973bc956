/**
 * `navscope plan --planner mesh --mesh-mode triangles|polygons` (issue 30): the mode reaches the
 * mesh planner (the JSON debug record says which), both modes route the leg, and wrong use of
 * the flag is a usage error.
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { run } from "../commands/plan.ts";
import { NavscopeError } from "../src/errors.ts";

const DIR = fileURLToPath(new URL("../examples/nav_test/", import.meta.url));
const LEG = [
  "--zone",
  "nav_test",
  "--from",
  "37.689453125,31.749755859375",
  "--to",
  "9.595458984375,55.60205078125",
];

Deno.test("plan --planner mesh --mesh-mode: each mode routes, JSON names the mode", async () => {
  const seen: Record<string, number> = {};
  for (const mode of ["triangles", "polygons", null]) {
    const args = [DIR + "base.nav.gz", ...LEG, "--planner", "mesh", "--json"];
    if (mode) args.push("--mesh-mode", mode);
    const r = await captureOutput(() => run(args));
    assertEquals(r.value, 0);
    const j = JSON.parse(r.out);
    assert(j.ok, `${mode}: routed (${j.error})`);
    assertEquals(j.mesh.mode, mode ?? "polygons", "default mode is polygons");
    if (mode === "polygons") assert(j.mesh.corridorPolys.length > 0, "polygon corridor");
    if (mode === "triangles") assertEquals(j.mesh.corridorPolys, []);
    seen[mode ?? "default"] = j.mesh.corridor;
  }
  assertEquals(seen.default, seen.polygons);
  assert(seen.polygons <= seen.triangles, `fewer polygons than triangles on the corridor`);
});

Deno.test("plan --mesh-mode: a bad value or the voxel planner is a usage error", async () => {
  for (
    const extra of [
      ["--planner", "mesh", "--mesh-mode", "quads"],
      ["--mesh-mode", "polygons"],
    ]
  ) {
    const e = await assertRejects(run([DIR + "base.nav.gz", ...LEG, ...extra]));
    assert(e instanceof NavscopeError, String(e));
    assertEquals(e.code, "usage", extra.join(" "));
    assert(/mesh-mode/.test(e.message), e.message);
  }
});
