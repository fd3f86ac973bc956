/**
 * `navscope plan --planner mesh|both`: the triangle-mesh planner (src/plan/mesh/) on one leg or a
 * battery, alone or side by side with the voxel planner (length, min / p10 clearance on the voxel
 * grid, points, time). Used by commands/plan.ts.
 * @module
 */
import { type BatteryRow, planLeg } from "../../src/analyze/battery.ts";
import type { Engine } from "../../src/plan/engine.ts";
import { legRequest } from "../../src/plan/battery.ts";
import { compareLeg, kWallTouchPx, type LegComparison } from "../../src/plan/mesh/compare.ts";
import { kDefaultMeshMode, type MeshPlanResult, planMesh } from "../../src/plan/mesh/planner.ts";
import type { MeshMode } from "../../src/plan/mesh/poly_graph.ts";
import type { PlanRequest, PlanResult } from "../../src/plan/types.ts";
import { NavscopeError } from "../../src/errors.ts";
import type { Leg } from "../../src/legs/format.ts";
import type { PlanRecord } from "../../src/logs/types.ts";
import { writeFileAtomic } from "../../src/codec/file.ts";
import { fmtNum, type Format, io, printTables, type TableModel } from "./terminal.ts";

/** Which planner(s) `plan` runs. */
export type PlannerChoice = "voxel" | "mesh" | "both";

/** One leg with the mesh planner: table or JSON. `mode`: triangles or polygons (issue 30). */
export async function meshLeg(
  engine: Engine,
  req: PlanRequest,
  json: boolean,
  mode: MeshMode = kDefaultMeshMode,
): Promise<void> {
  const r = await planMesh(engine, req, { mode });
  if (json) {
    io.out.write(JSON.stringify(r, null, 2) + "\n");
    return;
  }
  const m = r.mesh;
  printTables("text", [{
    title: `plan --planner mesh --mesh-mode ${mode} ${req.zone} (${req.start}) → (${req.goal})`,
    head: ["field", "value"],
    rows: [
      ["outcome", r.ok ? "ok" : r.error],
      ...(r.ok ? [] : [["message", r.message] as [string, string]]),
      ["points / length px", `${r.points.length} / ${fmtNum(r.length)}`],
      [`corridor ${mode} / cost px`, `${m.corridor} / ${fmtNum(m.corridorCost)}`],
      [`expanded ${mode}`, String(m.expanded)],
      ["start / goal triangle", `${m.startTri} / ${m.goalTri}`],
      ["off-mesh links", m.links.join(", ") || "-"],
      ["clearance min / p10 px", `${fmtNum(m.clearanceMin)} / ${fmtNum(m.clearanceP10)}`],
      ...(m.clearanceNote ? [["clearance", m.clearanceNote] as [string, string]] : []),
    ],
    align: ["left", "left"],
  }, {
    title: "stage times (ms)",
    head: ["setup", "snap", "search", "funnel", "clearance", "total"],
    rows: [[
      m.timing.setup,
      m.timing.snap,
      m.timing.search,
      m.timing.funnel,
      m.timing.clearance,
      m.timing.total,
    ]],
  }], null);
}

/** The plain-data side-by-side record (`--json`). */
function comparisonJson(c: LegComparison) {
  return {
    voxel: c.voxel,
    mesh: c.mesh,
    voxel_clearance: c.voxelClearance,
    mesh_clearance: c.meshClearance,
    clearance_note: c.clearanceNote,
    length_ratio: c.lengthRatio,
    ms: c.ms,
    mesh_touches_only: c.meshTouchesOnly,
  };
}

/**
 * One leg with both planners, side by side; `svg` draws the voxel window picture with the mesh
 * route (and its corridor's corner points) on top.
 */
export async function bothLeg(
  engine: Engine,
  req: PlanRequest,
  json: boolean,
  svg?: string,
  mode: MeshMode = kDefaultMeshMode,
): Promise<void> {
  if (svg === "") throw new NavscopeError("usage", "plan: --svg needs a file name");
  let have: { voxel: PlanResult; ms: number } | undefined;
  if (svg !== undefined) {
    const t = performance.now();
    const voxel = await engine.plan(req, { picture: true });
    have = { voxel, ms: performance.now() - t };
  }
  const c = await compareLeg(engine, req, have, mode);
  if (svg !== undefined) {
    const pic = c.voxel.picture;
    if (!pic) throw new NavscopeError("bad_value", "no window was built: nothing to draw");
    const { legSvg } = await import("../../reports/leg_svg.ts");
    const title = `${req.zone} (${req.start}) → (${req.goal}): voxel ${
      c.voxel.ok ? "ok" : c.voxel.error
    } (red), mesh ${c.mesh.ok ? "ok" : c.mesh.error} (blue)`;
    const mesh = { id: "mesh", label: "Mesh planner route", points: c.mesh.points, colour: "#06f" };
    const said = c.voxel.ok ? {} : { message: c.voxel.message };
    await writeFileAtomic(svg, legSvg(pic, title, [mesh], said));
    io.err.write(`navscope plan: wrote the picture to ${svg}\n`);
  }
  if (json) {
    io.out.write(JSON.stringify(comparisonJson(c), null, 2) + "\n");
    return;
  }
  const v = c.voxel, m = c.mesh, vc = c.voxelClearance, mc = c.meshClearance;
  printTables("text", [{
    title: `plan --planner both ${req.zone} (${req.start}) → (${req.goal})`,
    head: ["", "voxel", "mesh"],
    rows: [
      ["outcome", v.ok ? "ok" : v.error, m.ok ? "ok" : m.error],
      ["length px", fmtNum(v.ok ? v.length : null), fmtNum(m.ok ? m.length : null)],
      ["clearance min px", fmtNum(vc?.min ?? null), fmtNum(mc?.min ?? null)],
      ["clearance p10 px", fmtNum(vc?.p10 ?? null), fmtNum(mc?.p10 ?? null)],
      ["points", v.points.length, m.points.length],
      ["time ms", fmtNum(c.ms.voxel), fmtNum(c.ms.mesh)],
      ["length ratio mesh / voxel", "", fmtNum(c.lengthRatio)],
      ...(c.clearanceNote ? [["clearance", c.clearanceNote, ""]] : []),
    ],
    align: ["left", "right", "right"],
  }], null);
}

/** A battery row of `--planner mesh` or `both`. */
export interface MeshBatteryRow {
  /** Leg id. */
  id: string;
  /** Voxel row (with `both`). */
  voxel: BatteryRow | null;
  /** Mesh outcome class. */
  mesh_class: string;
  /** Mesh length, px. */
  mesh_length: number;
  /** Mesh points. */
  mesh_points: number;
  /** Mesh time, ms. */
  mesh_ms: number;
  /** Length ratio mesh / voxel. */
  length_ratio: number | null;
  /** Voxel route clearance min / p10, px. */
  voxel_clearance: [number, number] | null;
  /** Mesh route clearance min / p10, px. */
  mesh_clearance: [number, number] | null;
  /** The mesh route passes closer than 0.5 px to a wall and the voxel route does not. */
  mesh_touches_only: boolean;
}

/** Plans a battery with the mesh planner (and the voxel planner with `both`). */
export async function meshBattery(
  engine: Engine,
  path: string,
  legs: readonly Leg[],
  planner: "mesh" | "both",
  format: Format,
  mode: MeshMode = kDefaultMeshMode,
): Promise<{ rows: MeshBatteryRow[]; voxelRows: BatteryRow[]; records: PlanRecord[] }> {
  const rows: MeshBatteryRow[] = [], voxelRows: BatteryRow[] = [], records: PlanRecord[] = [];
  for (const leg of legs) {
    const req = legRequest(leg);
    if (planner === "mesh") {
      const m = await planMesh(engine, req, { mode });
      rows.push(meshRow(leg.id, null, m, null));
      continue;
    }
    const t = performance.now();
    const { row, result, record } = await planLeg(engine, leg);
    records.push(record);
    const c = await compareLeg(engine, req, { voxel: result, ms: performance.now() - t }, mode);
    voxelRows.push(row);
    rows.push(meshRow(leg.id, row, c.mesh, c));
  }
  const tables = planner === "mesh" ? meshTables(path, rows) : bothTables(path, rows);
  if (format === "json") {
    io.out.write(JSON.stringify({ legs: rows, summary: meshSummary(rows) }, null, 2) + "\n");
  } else printTables(format, tables, null);
  return { rows, voxelRows, records };
}

function meshRow(
  id: string,
  voxel: BatteryRow | null,
  m: MeshPlanResult,
  c: LegComparison | null,
): MeshBatteryRow {
  const pair = (r: { min: number; p10: number } | null | undefined): [number, number] | null =>
    r ? [r.min, r.p10] : null;
  return {
    id,
    voxel,
    mesh_class: m.ok ? "ok" : m.error,
    mesh_length: m.length,
    mesh_points: m.points.length,
    mesh_ms: m.mesh.timing.total,
    length_ratio: c?.lengthRatio ?? null,
    voxel_clearance: pair(c?.voxelClearance),
    mesh_clearance: c
      ? pair(c.meshClearance)
      : m.mesh.clearanceMin === null
      ? null
      : [m.mesh.clearanceMin, m.mesh.clearanceP10!],
    mesh_touches_only: c?.meshTouchesOnly ?? false,
  };
}

/** Summary of a mesh / both battery. */
export function meshSummary(rows: readonly MeshBatteryRow[]) {
  const both = rows.filter((r) => r.length_ratio !== null);
  const ratios = both.map((r) => r.length_ratio!).sort((a, b) => a - b);
  const measured = rows.filter((r) => r.voxel_clearance && r.mesh_clearance);
  return {
    legs: rows.length,
    mesh_routed: rows.filter((r) => r.mesh_class === "ok").length,
    voxel_routed: rows.filter((r) => r.voxel?.ok).length,
    both_routed: both.length,
    median_length_ratio: ratios.length ? ratios[Math.ceil(ratios.length / 2) - 1] : null,
    clearance_measured: measured.length,
    mesh_touches_only: rows.filter((r) => r.mesh_touches_only).length,
    touch_px: kWallTouchPx,
  };
}

function meshTables(path: string, rows: MeshBatteryRow[]): TableModel[] {
  const s = meshSummary(rows);
  return [{
    title: `battery ${path} (--planner mesh)`,
    head: ["leg", "outcome", "length px", "points", "clr min px", "clr p10 px", "ms"],
    rows: rows.map((r) => [
      r.id,
      r.mesh_class,
      r.mesh_class === "ok" ? r.mesh_length : null,
      r.mesh_points,
      r.mesh_clearance?.[0] ?? null,
      r.mesh_clearance?.[1] ?? null,
      r.mesh_ms,
    ]),
    align: ["left", "left", "right", "right", "right", "right", "right"],
  }, {
    title: "summary",
    head: ["legs", "mesh routed"],
    rows: [[s.legs, s.mesh_routed]],
  }];
}

function bothTables(path: string, rows: MeshBatteryRow[]): TableModel[] {
  const s = meshSummary(rows);
  return [{
    title: `battery ${path} (--planner both)`,
    head: [
      "leg",
      "voxel",
      "mesh",
      "voxel len",
      "mesh len",
      "ratio",
      "voxel min",
      "voxel p10",
      "mesh min",
      "mesh p10",
      "voxel ms",
      "mesh ms",
      `mesh < ${kWallTouchPx} only`,
    ],
    rows: rows.map((r) => [
      r.id,
      r.voxel?.class ?? "-",
      r.mesh_class,
      r.voxel?.ok ? r.voxel.length : null,
      r.mesh_class === "ok" ? r.mesh_length : null,
      r.length_ratio,
      r.voxel_clearance?.[0] ?? null,
      r.voxel_clearance?.[1] ?? null,
      r.mesh_clearance?.[0] ?? null,
      r.mesh_clearance?.[1] ?? null,
      r.voxel?.timing_ms.total ?? null,
      r.mesh_ms,
      r.mesh_touches_only ? "yes" : "",
    ]),
    align: [
      "left",
      "left",
      "left",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "right",
      "left",
    ],
  }, {
    title: "summary",
    head: [
      "legs",
      "voxel routed",
      "mesh routed",
      "both routed",
      "median ratio",
      "clearance measured",
      `mesh passes < ${kWallTouchPx} px, voxel not`,
    ],
    rows: [[
      s.legs,
      s.voxel_routed,
      s.mesh_routed,
      s.both_routed,
      s.median_length_ratio,
      s.clearance_measured,
      s.mesh_touches_only,
    ]],
  }];
}
