/**
 * `navscope plan`: plan one leg, or a whole leg battery, on a main pack and show every stage's
 * result and timing (tiers with kind, level, window and reasons; stage times; snap and anchor
 * distances; warnings; the failure class and message). `--log FILE` appends navscope plan lines
 * that `classify` and `stats` read back.
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cwdRelative } from "../src/util/shown_paths.ts";
import { NavscopeError } from "../src/errors.ts";
import { readTextStrict } from "../src/codec/json_strict.ts";
import { pathExists, writeFileAtomic } from "../src/codec/file.ts";
import { formatPlanLine } from "../src/logs/plan_line.ts";
import { planRecordFromResult } from "../src/logs/from_plan.ts";
import { type Engine, openEngine } from "../src/plan/engine.ts";
import { profileFromFlags } from "../src/plan/profile.ts";
import type { PlanRequest, PlanResult } from "../src/plan/types.ts";
import { parseLegs } from "../src/legs/format.ts";
import {
  requireBatteryZones,
  requireInputFile,
  requireLegs,
  requireWritable,
  requireZone,
} from "./support/preflight.ts";
import { bothLeg, meshBattery, meshLeg, type PlannerChoice } from "./support/mesh_legs.ts";
import { type BatteryFormat, runBattery } from "./support/battery_stream.ts";
import { kDefaultMeshMode } from "../src/plan/mesh/planner.ts";
import { STAGES } from "../src/analyze/stats.ts";
import type { MeshMode } from "../src/plan/mesh/poly_graph.ts";
import {
  fmtNum,
  type Format,
  io,
  parseFlags,
  printTables,
  type TableModel,
} from "./support/terminal.ts";

/** The embedded example pack. */
export const EXAMPLE_PACK = fileURLToPath(
  new URL("../examples/city_small/base.nav.gz", import.meta.url),
);

export const summary = "Plan one leg or a leg battery; show every stage's result and timing";
export const help = `navscope plan [PACK] --zone Z --from x,y --to x,y [options]
navscope plan [PACK] --legs BATTERY.json [--check] [--json | --jsonl] [--log FILE]

Plans on PACK (a main pack; default: the pack beside BATTERY.json, else the embedded example
examples/city_small/base.nav.gz). Its fields sidecar, occluder pack and no-go table are paired
by name (base.fields.nav.gz, base.occluder.gz, base.nogo.json).

One leg:
  --zone Z            zone name
  --from x,y          start, px           --to x,y        goal, px
  --start-floor h     snap floor of the start (m)       --goal-floor h   of the goal
  --start-deck h      declared start deck (m)           --goal-deck h    declared goal deck
  --disc x,y,r        runtime no-go disc (px); repeat for more
  --nogo FILE         author no-go table (default: base.nogo.json beside PACK)
Battery:
  --legs FILE         a legs.json battery (format navscope-legs)
  --check             exit 3 when any leg's outcome differs from its expectation
  --jsonl             one JSON row per line as legs finish, then {"summary": …}
                      (rows always print as legs finish; a progress line runs on a TTY;
                      the file is validated whole before the first leg is planned)
Both:
  --json              machine-readable output (see README: plan --json)
  --log FILE          append one navscope plan line per plan to FILE
  --workers N         tile-decode workers, 1..4 (default: min(4, cores)); results never
                      depend on it
  --profile NAME      planner profile: spec (default) or reference (the C++ build behind the
                      golden data); recorded in --json and the plan line (docs/profiles.md)
  --profile-file F    a custom profile: {"base": "spec"|"reference", "switches": {name: bool}}
  --svg FILE          (one leg) the leg's picture as a standalone SVG with a legend: cells,
                      heights, reach floods from the start and to the goal, blocked steps,
                      walls, facades, links, drops, no-go, every stage's points, waypoints,
                      the gap; windows over 400 000 cells as a focus crop plus an overview
                      (docs/pictures.md)

Planner:
  --planner P         voxel (default), mesh (the triangle-mesh baseline: polygon A* + corner-
                      point funnel) or both (side by side: length, min / p10 clearance on the
                      voxel grid, points, time; --svg draws both routes on the voxel window; a
                      battery adds ratio and clearance columns and counts the legs where only
                      the mesh route passes < 0.5 px from a wall). --check and --log judge and
                      log the voxel planner only
  --mesh-mode M       polygons (default: the zone's triangles merged into convex polygons) or
                      triangles (the raw cleaned triangles), for --planner mesh|both

Exit status: 0 planned (a failed leg is still a result), 3 with --check on a mismatch,
1 bad input, 2 usage.`;

function parsePlanFlags(args: string[]) {
  return parseFlags("plan", args, {
    zone: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    "start-floor": { type: "string" },
    "goal-floor": { type: "string" },
    "start-deck": { type: "string" },
    "goal-deck": { type: "string" },
    disc: { type: "string", multiple: true },
    nogo: { type: "string" },
    legs: { type: "string" },
    check: { type: "boolean" },
    json: { type: "boolean" },
    jsonl: { type: "boolean" },
    log: { type: "string" },
    workers: { type: "string" },
    svg: { type: "string" },
    planner: { type: "string" },
    "mesh-mode": { type: "string" },
    profile: { type: "string" },
    "profile-file": { type: "string" },
  });
}

type PlanFlags = ReturnType<typeof parsePlanFlags>["values"];

/** Runs plan. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parsePlanFlags(args);
  if (positionals.length > 1) throw usage("plan takes at most one PACK");
  const legsPath = values.legs;
  let pack = positionals[0];
  if (pack === undefined) {
    const beside = legsPath ? join(dirname(legsPath), "base.nav.gz") : null;
    pack = beside && (await pathExists(beside)) ? beside : cwdRelative(EXAMPLE_PACK);
  }
  const workers = values.workers === undefined
    ? Math.min(4, navigator.hardwareConcurrency || 1)
    : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 4) {
    throw usage(`--workers needs an integer 1..4, got ${JSON.stringify(values.workers)}`);
  }
  // Before any work: an explicit no-go table must exist (a missing one would plan through the
  // author's no-go zones), and every output must be writable.
  if (values.nogo !== undefined) await requireInputFile(values.nogo, "the no-go table (--nogo)");
  await requireWritable([
    { path: values.log, what: "the plan log (--log)", append: true },
    { path: values.svg, what: "the picture (--svg)" },
  ]);
  const profile = await profileFromFlags(values.profile, values["profile-file"]);
  const engine = await openEngine(pack, {
    noGoTable: values.nogo,
    workers,
    ...(profile ? { profile } : {}),
  });
  try {
    return await runWith(engine, values, legsPath);
  } finally {
    engine.close();
  }
}

async function runWith(
  engine: Engine,
  values: PlanFlags,
  legsPath: string | undefined,
): Promise<number> {
  const pack = engine.info.mainPack;
  if (engine.info.error) {
    throw new NavscopeError("bad_value", `engine unusable: ${engine.info.error}`, { file: pack });
  }
  const planner = (values.planner ?? "voxel") as PlannerChoice;
  if (!["voxel", "mesh", "both"].includes(planner)) {
    throw usage(`--planner needs voxel, mesh or both, got ${JSON.stringify(values.planner)}`);
  }
  const meshMode = (values["mesh-mode"] ?? kDefaultMeshMode) as MeshMode;
  if (!["triangles", "polygons"].includes(meshMode)) {
    throw usage(
      `--mesh-mode needs triangles or polygons, got ${JSON.stringify(values["mesh-mode"])}`,
    );
  }
  if (values["mesh-mode"] !== undefined && planner === "voxel") {
    throw usage("--mesh-mode needs --planner mesh or both");
  }
  if (planner === "mesh" && (values.check || values.log || values.svg !== undefined)) {
    throw usage("--check, --log and --svg need the voxel planner: use --planner voxel or both");
  }
  if (legsPath !== undefined) {
    for (
      const k of ["zone", "from", "to", "start-floor", "goal-floor", "start-deck", "goal-deck"]
    ) {
      if ((values as Record<string, unknown>)[k] !== undefined) {
        throw usage(`--${k} cannot be combined with --legs`);
      }
    }
    if (values.json && values.jsonl) throw usage("--json and --jsonl are mutually exclusive");
    const format = values.jsonl ? "jsonl" : values.json ? "json" : "text";
    if (planner !== "voxel" && format === "jsonl") throw usage("--jsonl needs the voxel planner");
    if (planner !== "voxel" && format !== "jsonl") {
      return await meshBatteryRun(engine, legsPath, planner, format, values, meshMode);
    }
    return await battery(engine, legsPath, {
      check: values.check === true,
      format,
      log: values.log,
    });
  }
  if (values.check) throw usage("--check needs --legs");
  if (values.jsonl) throw usage("--jsonl needs --legs");
  if (legsPath === undefined && values.svg === "") throw usage("--svg needs a file name");
  if (!values.zone || !values.from || !values.to) {
    throw usage("one leg needs --zone, --from and --to");
  }
  requireZone("plan", values.zone, engine.info.zones);
  const req: PlanRequest = {
    zone: values.zone,
    start: pair("--from", values.from),
    goal: pair("--to", values.to),
    startFloorY: num("--start-floor", values["start-floor"]),
    goalFloorY: num("--goal-floor", values["goal-floor"]),
    startDeckY: num("--start-deck", values["start-deck"]),
    goalDeckY: num("--goal-deck", values["goal-deck"]),
    noGoDiscs: (values.disc ?? []).map((d) => disc(d)),
  };
  if (planner === "mesh") {
    await meshLeg(engine, req, values.json === true, meshMode);
    return 0;
  }
  if (planner === "both") {
    await bothLeg(engine, req, values.json === true, values.svg, meshMode);
    return 0;
  }
  const res = await engine.plan(req, { picture: values.svg !== undefined });
  if (values.svg !== undefined) {
    const { legSvg } = await import("../reports/leg_svg.ts");
    if (!res.picture) throw new NavscopeError("bad_value", "no window was built: nothing to draw");
    const title = `${req.zone} (${req.start}) → (${req.goal}): ${res.ok ? "ok" : res.error}`;
    const said = res.ok ? {} : { message: res.message };
    await writeFileAtomic(values.svg, legSvg(res.picture, title, [], said));
    const c = res.picture.crop;
    io.err.write(
      `navscope plan: wrote the picture to ${values.svg} (${
        c.kind === "full"
          ? `${res.picture.nx} × ${res.picture.ny} cells, full`
          : `focus crop ${res.picture.nx} × ${res.picture.ny} cells around ${c.around}, plus an overview`
      })\n`,
    );
  }
  if (values.log) await appendLines(values.log, [line(engine, req, res)]);
  if (values.json) {
    // The picture went to --svg; its cell arrays do not belong in the JSON.
    io.out.write(JSON.stringify({ ...res, picture: undefined }, null, 2) + "\n");
    return 0;
  }
  printTables("text", legTables(req, res), null);
  return 0;
}

function usage(what: string): NavscopeError {
  return new NavscopeError("usage", `plan: ${what} (see navscope plan --help)`);
}

function num(flag: string, v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n)) {
    throw usage(`${flag} needs a finite number, got ${JSON.stringify(v)}`);
  }
  return n;
}

function pair(flag: string, v: string): [number, number] {
  const p = v.split(",");
  if (p.length !== 2) throw usage(`${flag} needs x,y, got ${JSON.stringify(v)}`);
  return [num(flag, p[0])!, num(flag, p[1])!];
}

function disc(v: string): { x: number; y: number; r: number } {
  const p = v.split(",");
  if (p.length !== 3) throw usage(`--disc needs x,y,r, got ${JSON.stringify(v)}`);
  const [x, y, r] = p.map((s) => num("--disc", s)!);
  if (r < 0) throw usage(`--disc radius must be ≥ 0, got ${r}`);
  return { x, y, r };
}

function line(engine: Engine, req: PlanRequest, res: PlanResult): string {
  const rec = planRecordFromResult(req, res, { packHash: engine.info.buildHash });
  return formatPlanLine(rec, { time: new Date() });
}

async function appendLines(path: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  await Deno.writeTextFile(path, lines.join("\n") + "\n", { append: true });
}

function legTables(req: PlanRequest, r: PlanResult): TableModel[] {
  const d = r.debug;
  const outcome: TableModel = {
    title: `plan ${req.zone} (${req.start}) → (${req.goal})`,
    head: ["field", "value"],
    rows: [
      ["outcome", r.ok ? "ok" : r.error],
      ["profile", r.profile ?? "spec"],
      ...(r.ok ? [] : [["message", r.message] as [string, string]]),
      ["final tier", `${d.tier} (${d.kind || "-"}, level ${d.level})`],
      ["window (px, cells)", d.nx ? `${d.x0}, ${d.y0}, ${d.nx} × ${d.ny} = ${d.nx * d.ny}` : "-"],
      ["points / length px", `${r.points.length} / ${fmtNum(r.length)}`],
      [
        "points per stage",
        `topology ${d.topologyCells} → taut ${d.tautPoints.length} → pulled ${d.pulledPoints.length}` +
        ` → assembled ${d.assembledPoints.length} → final ${r.points.length}`,
      ],
      ["waypoints", r.waypoints.length ? r.waypoints.join(", ") : "-"],
      [
        "drops",
        r.drops.length
          ? r.drops.map((x) => `#${x.index} ${fmtNum(x.fromH)} → ${fmtNum(x.toH)} m`).join("; ")
          : "-",
      ],
      [
        "gap",
        d.gap
          ? `(${d.gap.start.map(fmtNum)}) ↔ (${d.gap.goal.map(fmtNum)}), ${
            fmtNum(d.gap.distance)
          } px`
          : "-",
      ],
      ["mesh snap start / goal px", `${fmtNum(d.meshSnapStart)} / ${fmtNum(d.meshSnapGoal)}`],
      ["core anchor start / goal px", `${fmtNum(d.coreStart)} / ${fmtNum(d.coreGoal)}`],
      ["anchor snap start / goal px", `${fmtNum(d.snapStart)} / ${fmtNum(d.snapGoal)}`],
      ["region", d.region < 0 ? "-" : String(d.region)],
      ["warnings", d.warnings.join("; ") || "-"], // recorded ones: a failed result has none of its own
    ],
    align: ["left", "left"],
  };
  const tiers: TableModel = {
    title: "tiers",
    head: [
      "tier",
      "level",
      "kind",
      "x0 px",
      "y0 px",
      "nx",
      "ny",
      "cells",
      "window ms",
      "search ms",
      "reason",
    ],
    rows: d.tiers.map((t) => [
      t.tier,
      t.level,
      t.kind,
      t.x0,
      t.y0,
      t.nx,
      t.ny,
      t.nx * t.ny,
      t.windowMs,
      t.searchMs,
      t.reason || "-",
    ]),
  };
  const times: TableModel = {
    title: "stage times (ms)",
    head: [...STAGES],
    rows: [[
      d.timing.window,
      d.timing.topology,
      d.timing.geometry,
      d.timing.pull,
      d.timing.assemble,
      d.timing.lift,
      d.timing.total - d.timing.window - d.timing.topology - d.timing.geometry,
      d.timing.total,
    ]],
  };
  return [...(d.tiers.length ? [outcome, tiers, times] : [outcome, times]), ...costTables(d)];
}

/** The "other" breakdown and the work counters of one plan, nonzero rows (docs/counters.md). */
function costTables(d: PlanResult["debug"]): TableModel[] {
  const t = d.timing;
  const other = t.total - t.window - t.topology - t.geometry - t.pull - t.assemble - t.lift;
  const subs = Object.entries(d.otherTiming).filter(([, v]) => v > 0);
  const rest = other - subs.reduce((a, [, v]) => a + v, 0);
  const counters = Object.entries(d.counters).filter(([, v]) => v !== 0);
  return [
    {
      title: "other broken down (ms)",
      head: ["sub-stage", "ms"],
      rows: [...subs, ["unattributed", rest]],
    },
    ...(counters.length
      ? [{ title: "work counters", head: ["counter", "count"], rows: counters }]
      : []),
  ];
}

/** A battery with `--planner mesh|both` (commands/support/mesh_legs.ts); `check` judges the voxel rows. */
async function meshBatteryRun(
  engine: Engine,
  path: string,
  planner: "mesh" | "both",
  format: Format,
  flags: Pick<PlanFlags, "check" | "log">,
  mode: MeshMode,
): Promise<number> {
  const { check, log } = flags;
  let text: string;
  try {
    text = await readTextStrict(path);
  } catch (e) {
    if (e instanceof NavscopeError) throw e;
    throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
      file: path,
    });
  }
  const legs = parseLegs(text, path);
  requireLegs(legs, path);
  requireBatteryZones(legs, engine.info.zones, path, engine.info.mainPack);
  const { voxelRows, records } = await meshBattery(engine, path, legs, planner, format, mode);
  if (log) await appendLines(log, records.map((r) => formatPlanLine(r, { time: new Date() })));
  return check && voxelRows.some((r) => !r.matched) ? 3 : 0;
}

/**
 * Plans a battery and prints its rows as legs finish (table, JSON or JSON lines; any size:
 * commands/support/battery_stream.ts); exit 3 with `check` on a mismatch.
 */
export async function battery(
  engine: Engine,
  path: string,
  opts: { check?: boolean; format?: BatteryFormat; log?: string },
): Promise<number> {
  return await runBattery(engine, path, opts);
}
