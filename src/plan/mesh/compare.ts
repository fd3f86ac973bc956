/**
 * One leg planned by both planners (`navscope plan --planner both`): the voxel planner's result,
 * the mesh planner's, and both routes' clearance measured on one voxel-grid window covering the
 * two routes (clearance.ts), with the length ratio mesh / voxel.
 * @module
 */
import type { Engine } from "../engine.ts";
import type { PlanRequest, PlanResult } from "../types.ts";
import { clearanceField, type RouteClearance, routeClearance } from "./clearance.ts";
import { type MeshPlanResult, planMesh } from "./planner.ts";
import type { MeshMode } from "./poly_graph.ts";

/** Clearance under which a route is said to touch a wall, px (the spec's 拐点抬升 distance). */
export const kWallTouchPx = 0.5;

/** Both planners on one leg. */
export interface LegComparison {
  /** Voxel planner result. */
  voxel: PlanResult;
  /** Mesh planner result (its own clearance left unmeasured; see `meshClearance`). */
  mesh: MeshPlanResult;
  /** Voxel route's clearance on the shared window (null when not measured). */
  voxelClearance: RouteClearance | null;
  /** Mesh route's clearance on the shared window. */
  meshClearance: RouteClearance | null;
  /** Why clearance was not measured ("" when it was). */
  clearanceNote: string;
  /** Mesh length / voxel length (null unless both routed). */
  lengthRatio: number | null;
  /** Wall time of each planner, ms. */
  ms: { voxel: number; mesh: number; clearance: number };
  /** The mesh route passes closer than kWallTouchPx to a wall and the voxel route does not. */
  meshTouchesOnly: boolean;
}

/**
 * Plans `req` with both planners and measures both routes on one clearance field. A voxel result
 * already at hand (e.g. a battery's) can be passed with its wall time instead of re-planning.
 * `mode` picks the mesh planner's mode (default: planMesh's).
 */
export async function compareLeg(
  engine: Engine,
  req: PlanRequest,
  have?: { voxel: PlanResult; ms: number },
  mode?: MeshMode,
): Promise<LegComparison> {
  let t = performance.now();
  const voxel = have ? have.voxel : await engine.plan(req);
  const voxelMs = have ? have.ms : performance.now() - t;
  t = performance.now();
  const mesh = await planMesh(engine, req, { clearance: false, mode });
  const meshMs = performance.now() - t;
  const routes = [voxel, mesh].filter((r) => r.ok).map((r) => r.points);
  let vc: RouteClearance | null = null, mc: RouteClearance | null = null, note = "";
  let clrMs = 0;
  if (routes.length > 0) {
    const f = await clearanceField(engine, req, routes);
    clrMs = f.ms;
    if (f.ok) {
      if (voxel.ok) vc = routeClearance(f.window, voxel.points);
      if (mesh.ok) {
        mc = routeClearance(f.window, mesh.points);
        mesh.clearance = mc.perPoint;
        mesh.mesh.clearanceMin = mc.min;
        mesh.mesh.clearanceP10 = mc.p10;
      }
    } else note = f.reason;
  } else note = "neither planner routed";
  mesh.mesh.clearanceNote = note;
  return {
    voxel,
    mesh,
    voxelClearance: vc,
    meshClearance: mc,
    clearanceNote: note,
    lengthRatio: voxel.ok && mesh.ok && voxel.length > 0 ? mesh.length / voxel.length : null,
    ms: { voxel: voxelMs, mesh: meshMs, clearance: clrMs },
    meshTouchesOnly: vc !== null && mc !== null && mc.min < kWallTouchPx &&
      !(vc.min < kWallTouchPx),
  };
}
