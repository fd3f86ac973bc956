/**
 * The triangle-mesh planner on the example worlds (issue 14): every leg the voxel planner routes
 * (a leg whose battery expectation is `ok`: tests/plan_profiles_test.ts and `plan --legs --check`
 * hold the voxel planner to it, so it is not re-planned here) is routed by the mesh planner too, unless the cleaned mesh is disconnected there (checked by an
 * independent flood over the kept adjacency and the link edges); every mesh route stays inside
 * its corridor's triangles. Both mesh modes: triangles and merged convex polygons (issue 30; in
 * polygon mode the corridor's triangles are all triangles of its polygons).
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "./assert.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { distanceToTriangles, meshGraphOf, planMesh } from "../src/plan/mesh/planner.ts";
import type { MeshMode } from "../src/plan/mesh/poly_graph.ts";
import type { MeshGraph } from "../src/plan/mesh/graph.ts";
import { parseLegs } from "../src/legs/format.ts";

/** World → whether some leg must be routed by both (proto_level's and tower_big's battery legs
 * all cross mesh components that cleaning keeps apart, so there the mesh planner routes none). */
const WORLDS: Record<string, boolean> = {
  city_small: true,
  nav_test: true,
  dungeon: true,
  proto_level: false,
  tower_big: false,
};

/** Both mesh modes (issue 30): the merged convex polygons must pass the same checks. */
const MODES: MeshMode[] = ["triangles", "polygons"];

function connected(g: MeshGraph, s: number, e: number): boolean {
  const seen = new Uint8Array(g.triCount), stack = [s];
  seen[s] = 1;
  while (stack.length) {
    const t = stack.pop()!;
    if (t === e) return true;
    const next = [g.nb[3 * t], g.nb[3 * t + 1], g.nb[3 * t + 2]];
    for (const l of g.links) if (l.from === t) next.push(l.to);
    for (const j of next) if (j >= 0 && !seen[j]) (seen[j] = 1, stack.push(j));
  }
  return false;
}

for (const [world, someBoth] of Object.entries(WORLDS)) {
  for (const mode of MODES) {
    Deno.test(`mesh planner (${mode}) on examples/${world}: routes what the voxel planner routes`, async () => {
      const dir = fileURLToPath(new URL(`../examples/${world}/`, import.meta.url));
      const engine = await openEngine(dir + "base.nav.gz", { workers: 1 });
      try {
        const legs = parseLegs(await Deno.readTextFile(dir + "legs.json"), dir + "legs.json");
        let both = 0, checked = 0, disconnected = 0;
        for (const leg of legs) {
          const req = legRequest(leg);
          const mesh = await planMesh(engine, req, { clearance: false, mode });
          assertEquals(mesh.mesh.mode, mode);
          if (leg.expected === "ok") {
            if (!mesh.ok && mesh.error === "zone_not_found") {
              // A tier zone (mapped into its parent by an affine transform) has no mesh of its own:
              // the mesh planner does not plan tier zones.
              assert(engine.info.zones.includes(req.zone), `${leg.id}: zone ${req.zone} exists`);
              disconnected++;
            } else if (!mesh.ok) {
              assert(
                mesh.error === "route_disconnected",
                `${leg.id}: voxel routed, mesh ${mesh.error} (${mesh.message})`,
              );
              const zs = await engine.zoneState(req.zone);
              const { graph } = meshGraphOf(zs, engine.offMeshLinks());
              assert(
                !connected(graph, mesh.mesh.startTri, mesh.mesh.goalTri),
                `${leg.id}: mesh says disconnected, the flood connects`,
              );
              disconnected++;
            } else both++;
          }
          if (!mesh.ok) continue;
          // The route stays inside the corridor's triangles (raw endpoint attachments and link
          // jumps aside).
          const zs = await engine.zoneState(req.zone);
          const { graph } = meshGraphOf(zs, engine.offMeshLinks());
          const tris = mesh.mesh.corridorTris;
          const jumps = new Set<string>();
          for (const l of graph.links) jumps.add(`${l.a[0]},${l.a[1]}>${l.b[0]},${l.b[1]}`);
          const P = mesh.points;
          const rawStart = P[0][0] === req.start[0] && P[0][1] === req.start[1] &&
            (mesh.debug.meshSnapStart ?? 0) > 0;
          const rawGoal = (mesh.debug.meshSnapGoal ?? 0) > 0;
          for (let i = 1; i < P.length; i++) {
            if ((i === 1 && rawStart) || (i === P.length - 1 && rawGoal)) continue;
            if (jumps.has(`${P[i - 1][0]},${P[i - 1][1]}>${P[i][0]},${P[i][1]}`)) continue;
            for (let k = 0; k <= 16; k++) {
              const x = P[i - 1][0] + (P[i][0] - P[i - 1][0]) * k / 16;
              const y = P[i - 1][1] + (P[i][1] - P[i - 1][1]) * k / 16;
              const d = distanceToTriangles(zs.mesh, tris, x, y);
              assert(
                d < 1e-4,
                `${leg.id}: point (${x}, ${y}) of segment ${i} is ${d} px off the corridor`,
              );
            }
            checked++;
          }
        }
        assert(!someBoth || both > 0, `${world}: some legs routed by both planners`);
        assert(!someBoth || checked > 0, `${world}: some segments checked`);
        assert(both + disconnected > 0, `${world}: some voxel-routed legs`);
      } finally {
        engine.close();
      }
    });
  }
}
