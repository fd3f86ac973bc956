/**
 * Peak memory per window cell of one plan (a benchmark, not a test; issue 36, docs/memory.md).
 *
 * Opens PACK (one decode worker, `--profile reference` unless `--spec`), plans one untimed small
 * warm-up leg, reads the process's peak RSS (`VmHWM`, /proc/self/status), then plans LEG of
 * LEGS.json — with `--side S` inside a forced S × S window centred on the leg's start (the
 * battery knob `overrides.window`, kind `full`), so any world gives a window of the wanted size —
 * and prints the new peak, the growth over the baseline per window cell, the scratch arena's
 * retained bytes (src/plan/scratch.ts: the bytes a worker keeps filled after a window; its
 * reserved chunks are larger, but untouched pages are not resident) and the stage times. Run
 * one process per figure: the peak only ever grows.
 *
 *     deno run -A bench/window_memory.ts PACK LEGS.json LEG [--side S] [--spec]
 * @module
 */
import { openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import { REFERENCE_PROFILE, SPEC_PROFILE } from "../src/plan/profile.ts";
import { scratch } from "../src/plan/scratch.ts";

const pos = Deno.args.filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--side");
const [pack, legsFile, legId] = pos;
const sideI = Deno.args.indexOf("--side");
const side = sideI >= 0 ? Number(Deno.args[sideI + 1]) : 0;
const profile = Deno.args.includes("--spec") ? SPEC_PROFILE : REFERENCE_PROFILE;

/** Peak and current resident set of this process, bytes (Linux). */
function rss(): { hwm: number; now: number } {
  const s = Deno.readTextFileSync("/proc/self/status");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)![1]) * 1024;
  return { hwm: kb("VmHWM"), now: kb("VmRSS") };
}

const legs = parseLegs(await Deno.readTextFile(legsFile), legsFile);
const leg = legs.find((l) => l.id === legId);
if (!leg) throw new Error(`no leg ${legId}`);
const engine = await openEngine(pack, { workers: 1, profile });
// Warm-up on the leg's start itself, 1 px to the side: small window, same zone decoded.
await engine.plan({ zone: leg.zone, start: leg.start, goal: [leg.start[0] + 1, leg.start[1]] });
const base = rss();
const req = legRequest(leg);
if (side > 0) {
  const gx = Math.floor(leg.start[0] / 0.25), gy = Math.floor(leg.start[1] / 0.25);
  req.overrides = { ...req.overrides, window: [gx - (side >> 1), gy - (side >> 1), side, side] };
}
const t = performance.now();
const r = await engine.plan(req);
const wall = performance.now() - t;
const after = rss();
const cells = r.debug.nx * r.debug.ny;
const mb = (b: number) => (b / 2 ** 20).toFixed(0);
console.log(
  JSON.stringify({
    leg: legId,
    profile: profile.name,
    ok: r.ok,
    error: r.error,
    tier: r.debug.tier,
    window: [r.debug.nx, r.debug.ny],
    cells,
    wall_ms: Math.round(wall),
    timing_ms: r.debug.timing,
    baseline_hwm_mb: mb(base.hwm),
    peak_hwm_mb: mb(after.hwm),
    growth_bytes_per_cell: +((after.hwm - base.hwm) / cells).toFixed(1),
    scratch_retained_mb: mb(scratch.retainedBytes),
    scratch_reserved_mb: mb(scratch.reservedBytes),
    load: Deno.readTextFileSync("/proc/loadavg").split(" ")[0],
  }),
);
engine.close();
