/**
 * Synthetic navscope plan lines for the report benchmark and tests: `n` plans over three zones,
 * tiers 0–3 with escalation reasons, one failure in 17 (two classes), two worker threads.
 * Deterministic. CLI: `deno run --allow-write testing/plan_lines_synth.ts OUT.log N`.
 * @module
 */
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";

/** A synthetic log of `n` plan lines (tiers 0–3, some failures), two workers. */
export function syntheticLog(n: number, seed = 7): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines: string[] = [];
  const t0 = Date.UTC(2026, 9, 1, 8, 0, 0);
  for (let i = 0; i < n; i++) {
    const r = emptyPlanRecord(`map0${1 + (i % 3)}base`, [rnd() * 900, rnd() * 900], [
      rnd() * 900,
      rnd() * 900,
    ]);
    r.version = "navscope/0.1.0";
    r.packHash = "353cf84130bcb5d3";
    const fail = i % 17 === 3;
    r.ok = !fail;
    r.tier = fail ? -1 : Math.min(3, Math.floor(-Math.log(1 - rnd()) * 0.6));
    r.kind = fail ? "" : r.tier === 0 ? "tentative" : r.tier === 3 ? "full" : "capped";
    r.tierNotes = r.tier > 0
      ? Array.from({ length: r.tier }, (_, k) => k % 2 ? "搜索碰边" : "walk 断开")
      : [];
    if (fail) {
      r.code = i % 2 ? "goal_not_reachable" : "core_far";
      r.error = i % 2
        ? "从起点走不到终点 (可达区距 起 0.0px / 终 26.0px)"
        : "端点接不上可走层 (起 10.0px / 终 0.0px)";
    } else {
      const nx = 200 + Math.floor(rnd() * 2000), ny = 200 + Math.floor(rnd() * 2000);
      r.window = { x0: 0, y0: 0, nx, ny, cells: nx * ny };
      const w = rnd() * 100, tp = rnd() * 200, g = rnd() * 300;
      r.timing = {
        window: w,
        topology: tp,
        geometry: g,
        pull: rnd() * 20,
        assemble: 0.1,
        lift: 0.2,
        total: w + tp + g + 40 + rnd() * 50,
      };
      r.points = 5;
      r.length = 100;
    }
    lines.push(formatPlanLine(r, { time: t0 + i * 400, pid: 9, tid: 1 + (i % 2) }));
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  await Deno.writeTextFile(Deno.args[0], syntheticLog(Number(Deno.args[1] ?? 10000)));
}
