/**
 * Generates a large synthetic MaaFramework run log (full layout) for the parser benchmark:
 * mostly position/noise lines, with the navigator's plan lines (success with warnings, failure
 * with and without a declared deck), MapNavigateAction requests and navscope plan lines mixed
 * in at fixed rates. Deterministic (seeded); counts of legs are known by construction.
 *
 * Usage: `deno run --allow-write bench/gen_log.ts /tmp/big.log 1024` (size in MiB).
 * @module
 */
import { mulberry32 } from "../src/rng.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";
import { formatTimestamp } from "../src/logs/line.ts";

/** What a generated log contains. */
export interface GenCounts {
  bytes: number;
  lines: number;
  legs: number;
  failedLegs: number;
  planLines: number;
}

const rng = mulberry32;

const F6 = (x: number) => x.toFixed(6);

/**
 * Writes about `mib` MiB of log to `path` and returns what it wrote. Every 50th group of lines
 * is a plan; plans cycle through success / deck failure / plain failure / navscope plan line.
 */
export async function generateLog(path: string, mib: number, seed = 1): Promise<GenCounts> {
  const r = rng(seed);
  const target = mib * 1024 * 1024;
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  const c: GenCounts = { bytes: 0, lines: 0, legs: 0, failedLegs: 0, planLines: 0 };
  let t = Date.UTC(2026, 8, 28, 8, 0, 0, 0);
  let buf: string[] = [];
  let bufLen = 0;
  let group = 0;
  const P = "[Px4242]";
  const line = (lvl: string, tid: number, src: string, fn: string, body: string) => {
    t += 1 + Math.floor(r() * 3);
    const s = `[${formatTimestamp(t)}][${lvl}]${P}[Tx${tid}][${src}][L${
      100 + Math.floor(r() * 800)
    }][${fn}] ${body} \n`;
    buf.push(s);
    bufLen += s.length;
    c.lines++;
  };
  const E = "navmesh_path_expander.cpp";
  while (c.bytes < target) {
    for (let i = 0; i < 2000; i++) {
      group++;
      const x = (r() * 2000).toFixed(2);
      const y = (r() * 2000).toFixed(2);
      line(
        "INF",
        3001,
        "position_provider.cpp",
        "mapnavigator::PositionProvider::Capture",
        `MapLocator [status=0] [position.zoneId=Wuling_Base] [position.x=${x}] [position.y=${y}] [position.isHeld=false]`,
      );
      if (group % 50 !== 0) continue;
      const sx = r() * 2000, sy = r() * 2000, gx = r() * 2000, gy = r() * 2000;
      const kind = (group / 50) % 4;
      if (kind === 0) {
        line(
          "WRN",
          56789,
          E,
          "PlanCorridorRoute",
          "RECAST plan warning. [request.zone_name=map02base] [warning=不可避立面 2 步]",
        );
        line(
          "INF",
          56789,
          E,
          "PlanNavmeshRouteImpl",
          `NAVMESH route planned. [navmesh_zone=map02base] [locator_zone=Wuling_Base] [route_result.cost=${
            F6(r() * 900)
          }] [route_result.path.points.size()=3] [plan_ms=87] [navmesh_load_ms=0]`,
        );
        line(
          "INF",
          56789,
          E,
          "LogGeneratedNavmeshPath",
          `NAVMESH generated path. [state.navmesh_zone=map02base] [state.current_zone=Wuling_Base] [route_result.cost=467.555411] [path_point_count=3] [navmesh_start_point=[${
            F6(sx)
          },${F6(sy)}]] [navmesh_goal_point=[${F6(gx)},${
            F6(gy)
          }]] [navmesh_segment_breaks=[]] [navmesh_path_points=[[${F6(sx)},${F6(sy)}],[900,1700],[${
            F6(gx)
          },${F6(gy)}]]]`,
        );
        c.legs++;
      } else if (kind === 1 || kind === 2) {
        const err = kind === 1
          ? "目标面不可达 (声明 265.37, 终点格里的面 [263.12, 271.50])"
          : "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 26.0px)";
        line(
          "WRN",
          56789,
          E,
          "PlanCorridorRoute",
          `RECAST plan failed. [request.zone_name=map02base] [result.error=${err}]`,
        );
        line(
          "WRN",
          56789,
          E,
          "PlanNavmeshRouteImpl",
          `Failed to plan NAVMESH route. [navmesh_zone=map02base] [locator_zone=Wuling_Base] [start.x=${
            F6(sx)
          }] [start.y=${F6(sy)}] [goal.x=${F6(gx)}] [goal.y=${
            F6(gy)
          }] [navmesh::ToString(route_result.status)=unreachable] [plan_ms=598]`,
        );
        if (kind === 1) {
          line(
            "ERR",
            56789,
            E,
            "AppendNavmeshWaypoint",
            `Failed to plan NAVMESH waypoint on the declared deck. [state.navmesh_zone=map02base] [state.current_zone=Wuling_Base] [target.point.x=${
              F6(gx)
            }] [target.point.y=${
              F6(gy)
            }] [*target.deck_y=265.370000] [navmesh::ToString(route_result.status)=unreachable]`,
          );
        }
        c.legs++;
        c.failedLegs++;
      } else {
        const rec = emptyPlanRecord("map02base", [sx, sy], [gx, gy]);
        rec.ok = true;
        rec.tier = Math.floor(r() * 3);
        rec.kind = "tentative";
        rec.window = { x0: 4800, y0: 6000, nx: 1700, ny: 1760, cells: 1700 * 1760 };
        rec.timing = {
          window: r() * 100,
          topology: r() * 50,
          geometry: r() * 30,
          pull: 1.1,
          assemble: 0.01,
          lift: 0.07,
          total: r() * 600,
        };
        rec.points = 31;
        rec.length = r() * 500;
        t += 1;
        const s = formatPlanLine(rec, { time: t, pid: 4242, tid: 4 }) + "\n";
        buf.push(s);
        bufLen += s.length;
        c.lines++;
        c.legs++;
        c.planLines++;
      }
    }
    const bytes = enc.encode(buf.join(""));
    for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
    c.bytes += bytes.length;
    buf = [];
    bufLen = 0;
  }
  file.close();
  void bufLen;
  return c;
}

if (import.meta.main) {
  const [path = "/tmp/navscope_big.log", mib = "1024"] = Deno.args;
  const c = await generateLog(path, Number(mib));
  console.log(JSON.stringify(c));
}
