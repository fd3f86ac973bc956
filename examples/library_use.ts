/**
 * The README's library example: open an engine on an example pack, plan two legs, write them
 * as plan lines and classify the failure. It imports navscope by path (`../mod.ts`, the
 * checkout's `mod.ts`); from another project, use the path or URL of your checkout instead.
 *
 *     deno run --allow-read --allow-write --allow-env examples/library_use.ts
 *
 * `tests/library_use_test.ts` runs it (from here and from a folder outside the checkout) and
 * checks that the README shows this code as written.
 * @module
 */
import { fileURLToPath } from "node:url";
import {
  classifyLogs,
  formatPlanLine,
  openEngine,
  planRecordFromResult,
  type PlanRequest,
} from "../mod.ts";

const pack = fileURLToPath(new URL("./nav_test/base.nav.gz", import.meta.url));
const engine = await openEngine(pack); // reads the sidecar, occluder pack and no-go table beside it
const legs: PlanRequest[] = [
  {
    zone: "nav_test",
    start: [37.6, 21.0],
    goal: [9.6, 55.6],
    startFloorY: -2.37,
    goalFloorY: -2.37,
  },
  { zone: "nav_test", start: [0, 0], goal: [25.5, 21] }, // the start is 21.9 px off the mesh
];
const lines: string[] = [];
try {
  for (const req of legs) {
    const res = await engine.plan(req);
    console.log(
      res.ok ? `ok: ${res.length.toFixed(2)} px, tier ${res.debug.tier}` : `failed: ${res.error}`,
    );
    const record = planRecordFromResult(req, res, { packHash: engine.info.buildHash });
    lines.push(formatPlanLine(record, { time: Date.UTC(2026, 0, 1), pid: 1, tid: 1 }));
  }
} finally {
  engine.close();
}
const log = await Deno.makeTempFile({ suffix: ".log" });
await Deno.writeTextFile(log, lines.join("\n") + "\n");
const { report } = await classifyLogs([log]); // what `navscope classify` prints, as data
for (const c of report.classes) console.log(`class ${c.class}: ${c.count}`);
await Deno.remove(log);
