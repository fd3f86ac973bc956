/**
 * Issue 53's figure: `navscope stats --by-tier --pack` on a MaaEnd bundle of about 130 MB of
 * navigator logs (four rotated `maafw.bak.<stamp>.log` and the live log, CRLF, in 3 volumes)
 * whose legs are drawn from a fixed set of distinct legs on `examples/city_small`: every leg is
 * either a failure (`Failed to plan NAVMESH route.` with start and goal) or a success
 * (`NAVMESH route planned.` then `NAVMESH generated path.` with start and goal). Each distinct
 * leg is replayed once; every other log leg is served from the cache. Prints the bundle's size,
 * the log legs, the wall time and peak RSS of one whole process (`/usr/bin/time -v`, start-up
 * included), the replay's share, and the cache hit rate from the command's own JSON.
 *
 *   deno run -A bench/stats_replay_bench.ts [MB of navigator logs (130)] [distinct legs (2000)]
 *                                           [--jobs N (2)] [--keep]
 * @module
 */
import { writeBundle } from "../testing/bundle_synth.ts";
import { mulberry32 } from "../src/rng.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
const keep = Deno.args.includes("--keep");
const ji = Deno.args.indexOf("--jobs");
const jobs = ji >= 0 ? Number(Deno.args[ji + 1]) : 2;
const MB = Number(args[0] ?? 130);
const DISTINCT = Number(args[1] ?? 2000);
const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;
const r = mulberry32(53);
let t = Date.UTC(2026, 7, 8, 6, 0, 0, 0);
const stamp = () => new Date(t += 7).toISOString().replace("T", " ").replace("Z", "");
const f = (v: number) => v.toFixed(6);

/**
 * Distinct leg `i`: a 12-px hop east on a 50-column grid over the city's west half (px 4…400),
 * so start and goal differ for every i (distinct keys to 0.01 px).
 */
function leg(i: number): { s: [number, number]; g: [number, number] } {
  const x = 4 + (i % 50) * 7.9, y = 4 + Math.floor(i / 50) * (396 / Math.ceil(DISTINCT / 50));
  return { s: [x, y], g: [x + 12, y] };
}

const head = "[Px8812][Tx412][navmesh_path_expander.cpp]";
let drawn = 0;

/** One block of navigator-log lines: position fixes and recognitions, then one planned leg. */
function block(): string {
  const x = 100 + r() * 300, y = 100 + r() * 300;
  let s = "";
  for (let i = 0; i < 20; i++) {
    s +=
      `[${stamp()}][INF][Px8812][Tx77][position_provider.cpp][L88][mapnavigator::PositionProvider::Capture] MapLocator [status=0] [position.zoneId=ValleyIV_Base] [position.x=${
        f(x + i)
      }] [position.y=${f(y)}] [position.isHeld=false] \r\n`;
    s +=
      `[${stamp()}][DBG][Px8812][Tx41][Recognizer.cpp][L201][maa::Recognizer::run] recognition done [name=FindIcon] [hit=${
        r() < 0.5
      }] [cost=${(r() * 40).toFixed(0)}] \r\n`;
  }
  // The first DISTINCT blocks plan every distinct leg once (all of them appear); then random.
  const { s: a, g: b } = leg(drawn < DISTINCT ? drawn++ : Math.floor(r() * DISTINCT));
  if (r() < 0.2) {
    s +=
      `[${stamp()}][WRN]${head}[L530][PlanNavmeshRouteImpl] Failed to plan NAVMESH route. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [start.x=${
        f(a[0])
      }] [start.y=${f(a[1])}] [goal.x=${f(b[0])}] [goal.y=${
        f(b[1])
      }] [navmesh::ToString(route_result.status)=unreachable] [plan_ms=41] \r\n`;
  } else {
    s +=
      `[${stamp()}][INF]${head}[L560][PlanNavmeshRouteImpl] NAVMESH route planned. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [route_result.cost=12.0] [route_result.path.points.size()=2] [plan_ms=12] [navmesh_load_ms=3] \r\n`;
    s +=
      `[${stamp()}][INF]${head}[L600][LogGeneratedNavmeshPath] NAVMESH generated path. [state.navmesh_zone=map01base] [state.current_zone=ValleyIV_Base] [route_result.cost=12.0] [path_point_count=2] [navmesh_start_point=[${
        a[0]
      },${a[1]}]] [navmesh_goal_point=[${b[0]},${
        b[1]
      }]] [navmesh_segment_breaks=[]] [navmesh_path_points=[[${a[0]},${a[1]}],[${b[0]},${
        b[1]
      }]]] \r\n`;
  }
  return s;
}

function text(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const b = block();
    parts.push(b);
    n += b.length;
  }
  return parts.join("");
}

const dir = await Deno.makeTempDir({ prefix: "navscope-stats-replay-bench-" });
const per = Math.floor(MB * 1e6 / 5);
const nav: Record<string, string> = {};
for (let i = 0; i < 4; i++) {
  nav[`cpp-algo/debug/maafw.bak.2026.08.08-0${6 + i}.00.00.000.log`] = text(per);
}
const live = text(per);
const vols = writeBundle(dir, {
  prefix: "MaaEnd-logs-v2.23.0-rc.2-20260808-075256",
  volumes: [
    { "maafw.log": "" },
    { ...nav },
    { "cpp-algo/debug/maafw.log": live },
  ],
});
const zipBytes = vols.reduce((s, v) => s + Deno.statSync(v).size, 0);
const navBytes = Object.values(nav).reduce((s, v) => s + v.length, 0) + live.length;
const main = new URL("../commands/main.ts", import.meta.url).pathname;
await new Deno.Command("sync").output();
const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const t0 = performance.now();
const out = await new Deno.Command("/usr/bin/time", {
  args: [
    "-v",
    Deno.execPath(),
    "run",
    "-A",
    main,
    "stats",
    "--by-tier",
    "--json",
    "--pack",
    PACK,
    "--jobs",
    String(jobs),
    ...vols,
  ],
  stdout: "piped",
  stderr: "piped",
}).output();
const wall = (performance.now() - t0) / 1000;
const err = new TextDecoder().decode(out.stderr);
if (!out.success) throw new Error(`stats failed:\n${err}`);
const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN) / 1024;
const j = JSON.parse(new TextDecoder().decode(out.stdout));
const l = j.replayed.legs;
console.log(
  `bundle ${vols.length} volumes, ${(zipBytes / 1e6).toFixed(1)} MB; navigator logs ${
    (navBytes / 1e6).toFixed(1)
  } MB; ${l.log_legs} log legs, ${l.distinct} distinct replayed (${jobs} jobs); ` +
    `stats --by-tier --pack: ${wall.toFixed(1)} s wall, peak RSS ${rss.toFixed(0)} MB; ` +
    `cache: ${l.cache_hits} of ${l.served} log legs served by a leg replayed already ` +
    `(hit rate ${(l.cache_hit_rate * 100).toFixed(1)} %); replayed plans ${j.replayed.plans}, ` +
    `failures ${j.replayed.failures}, tiers ${
      j.replayed.tiers.map((x: { tier: number; count: number }) => `${x.tier}:${x.count}`).join(" ")
    }; load before ${load}`,
);
if (keep) console.log(`kept: ${dir}`);
else await Deno.remove(dir, { recursive: true });
