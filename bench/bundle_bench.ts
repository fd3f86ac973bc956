/**
 * Issue 35's figure: `navscope classify` on a 3-volume, ~100-MB MaaEnd bundle holding 130 MB of
 * navigator logs (four rotated `maafw.bak.<stamp>.log` and the live log, CRLF), beside a
 * pipeline log and incompressible on-error images as real bundles carry. Prints the bundle's
 * size, the median wall time of 5 classify processes (start-up included), the throughput in MB/s
 * of navigator log text and the largest peak RSS of those processes (`/usr/bin/time -v`).
 *
 *   deno run -A bench/bundle_bench.ts [MB of navigator logs, default 130] [--keep]
 *
 * `--keep` leaves the volumes in place (their folder is printed) for profiling.
 * @module
 */
import { writeBundle } from "../testing/bundle_synth.ts";
import { mulberry32 } from "../src/rng.ts";

const keep = Deno.args.includes("--keep");
const MB = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 130);
const r = mulberry32(35);
let t = Date.UTC(2026, 7, 8, 6, 0, 0, 0);
const stamp = () => new Date(t += 7).toISOString().replace("T", " ").replace("Z", "");
const f = (v: number) => v.toFixed(6);

/** One block of navigator-log lines: mostly position fixes and recognitions, some plans. */
function block(): string {
  const x = 100 + r() * 300, y = 100 + r() * 300;
  const k = r();
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
  if (k < 0.1) {
    s +=
      `[${stamp()}][WRN][Px8812][Tx412][navmesh_path_expander.cpp][L412][PlanCorridorRoute] RECAST plan failed. [request.zone_name=map01base] [result.error=从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 ${
        (r() * 30).toFixed(1)
      }px)] \r\n`;
    s +=
      `[${stamp()}][WRN][Px8812][Tx412][navmesh_path_expander.cpp][L530][PlanNavmeshRouteImpl] Failed to plan NAVMESH route. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [start.x=${
        f(x)
      }] [start.y=${f(y)}] [goal.x=${f(x + 30)}] [goal.y=${
        f(y)
      }] [navmesh::ToString(route_result.status)=unreachable] [plan_ms=41] \r\n`;
  } else {
    s +=
      `[${stamp()}][INF][Px8812][Tx412][navmesh_path_expander.cpp][L560][PlanNavmeshRouteImpl] NAVMESH route planned. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [route_result.cost=${
        f(r() * 300)
      }] [route_result.path.points.size()=7] [plan_ms=12] [navmesh_load_ms=3] \r\n`;
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

const dir = await Deno.makeTempDir({ prefix: "navscope-bundle-bench-" });
const per = Math.floor(MB * 1e6 / 5);
const nav: Record<string, string> = {};
for (let i = 0; i < 4; i++) {
  nav[`cpp-algo/debug/maafw.bak.2026.08.08-0${6 + i}.00.00.000.log`] = text(per);
}
const live = text(per);
const img = (n: number) => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i += 4) new DataView(b.buffer).setUint32(i, (r() * 2 ** 32) >>> 0);
  return b;
};
const vols = writeBundle(dir, {
  prefix: "MaaEnd-logs-v2.23.0-rc.2-20260808-075256",
  volumes: [
    { "maafw.log": text(8e6), "on_error/a.png": img(24e6) },
    { ...nav },
    { "cpp-algo/debug/maafw.log": live, "on_error/b.png": img(20e6), "vision/c.png": img(20e6) },
  ],
});
const zipBytes = vols.reduce((s, v) => s + Deno.statSync(v).size, 0);
const navBytes = Object.values(nav).reduce((s, v) => s + v.length, 0) + live.length;
const main = new URL("../commands/main.ts", import.meta.url).pathname;
// The volumes were just written: let the page cache settle, then time whole classify processes
// (start-up included) and quote the median (the box drifts; one run proves little).
await new Deno.Command("sync").output();
const RUNS = 5;
const walls: number[] = [];
let rss = 0;
let rep: { total: number; legs?: { total: number } } = { total: 0 };
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-v", Deno.execPath(), "run", "-A", main, "classify", "--json", ...vols],
    stdout: "piped",
    stderr: "piped",
  }).output();
  walls.push((performance.now() - t0) / 1000);
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`classify failed:\n${err}`);
  rss = Math.max(
    rss,
    Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN) / 1024,
  );
  rep = JSON.parse(new TextDecoder().decode(out.stdout));
}
const sorted = [...walls].sort((a, b) => a - b);
const wall = sorted[Math.floor(RUNS / 2)];
console.log(
  `bundle ${vols.length} volumes, ${(zipBytes / 1e6).toFixed(1)} MB; navigator logs ${
    (navBytes / 1e6).toFixed(1)
  } MB; classify median of ${RUNS}: ${wall.toFixed(2)} s wall (${
    sorted.map((w) => w.toFixed(2)).join(" ")
  }) → ${(navBytes / 1e6 / wall).toFixed(0)} MB/s; peak RSS ${
    rss.toFixed(0)
  } MB; ${rep.total} failures, ${rep.legs?.total} legs`,
);
if (keep) console.log(`kept: ${dir}`);
else await Deno.remove(dir, { recursive: true });
