import { openEngine } from "./src/plan/engine.ts";
import { legRequest } from "./src/plan/battery.ts";
import { parseLegs } from "./src/world/legs.ts";
const legs = parseLegs(await Deno.readTextFile("/tmp/ns5/long.json"), "x");
const e = await openEngine("/tmp/s5/base.nav.gz");
for (const l of legs) {
  const r = await e.plan(legRequest(l));
  console.log(
    l.id,
    r.debug.topologyCells,
    r.debug.tautPoints.length,
    r.debug.pulledPoints.length,
    r.points.length,
    r.debug.timing.pull.toFixed(1),
    JSON.stringify(r.debug.tautPoints.slice(0, 6)),
  );
}
