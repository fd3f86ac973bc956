/**
 * buildWindow time and memory against window size (issue: Planner I benchmarks). Builds square
 * windows of 0.25–3 M cells around the city_small plaza on the frozen golden-route pack, 5 runs
 * each (median), and reports ms, ms per million cells, the records decoded, and the array bytes
 * the built window holds per cell and per record (the byte length of every typed array it keeps) — the spec's targets: p50 ≤ 32 ms at ~0.5 M cells, peak ≤ 15 B/cell +
 * 36 B/record.
 *
 *     deno run -A bench/build_window_bench.ts [PACK] [ZONE] [cx,cy px]
 * @module
 */
import { openEngine } from "../src/plan/engine.ts";
import { buildWindow } from "../src/plan/window/build_window.ts";
import { ZoneState } from "../src/plan/window/zone_state.ts";
import { readMaybeGzip } from "../src/codec/file.ts";
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { parseBgrd } from "../src/pack/bgrd/section.ts";
import { loadSidecarFile } from "../src/pack/bnvf/sidecar.ts";
import { sidecarExpectations } from "../src/pack/set/pack_set.ts";
import { emptyNoGoTable } from "../src/pack/nogo/table.ts";
import { goldenRouteDir } from "../testing/golden_routes.ts";

const pack = Deno.args[0] ??
  goldenRouteDir("city_small") + "base.nav.gz";
const zone = Deno.args[1] ?? "map01base";
const [cx, cy] = (Deno.args[2] ?? "45,28").split(",").map(Number);
const engine = await openEngine(pack);
if (engine.info.error) throw new Error(engine.info.error);
const bytes = await readMaybeGzip(pack);
const load = decodeMainPack(bytes);
const section = parseBgrd(load.pack.grid!);
const side = await loadSidecarFile(
  pack.replace(/\.nav(\.gz)?$/, ".fields.nav$1"),
  sidecarExpectations(load.header.buildHash, bytes, section),
);
const zs = new ZoneState(
  pack,
  section,
  side,
  load.pack,
  load.pack.zones.find((z) => z.name === zone)!,
);
const seedCell = { gx: Math.floor(cx / 0.25), gy: Math.floor(cy / 0.25), h: 0 };
const r0 = await engine.plan({ zone, start: [cx, cy], goal: [cx + 1, cy] });
const region = r0.debug.region;
console.log(`pack ${pack}, zone ${zone}, region ${region}, centre (${cx}, ${cy}) px`);
console.log("cells\tside\trecords\tmedian ms\tms/Mcell\tB/cell (held)\tB/record (held)");
for (const m of [0.25e6, 0.5e6, 1e6, 2e6, 3e6]) {
  const side = Math.round(Math.sqrt(m));
  const rect = { x0: seedCell.gx - (side >> 1), y0: seedCell.gy - (side >> 1), nx: side, ny: side };
  const inp = { rect, region, seed: seedCell, noGo: emptyNoGoTable(), discs: [] };
  const times: number[] = [];
  let held = 0, records = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const w = buildWindow(zs, inp);
    times.push(performance.now() - t);
    held = heldBytes(w);
    records = w.records;
  }
  times.sort((a, b) => a - b);
  const cells = side * side, ms = times[2];
  console.log(
    `${cells}\t${side}\t${records}\t${ms.toFixed(1)}\t${(ms / (cells / 1e6)).toFixed(1)}\t` +
      `${(held / cells).toFixed(1)}\t${(held / Math.max(1, records)).toFixed(1)}`,
  );
}

/** Bytes of every typed array reachable from the window object (one level of nesting). */
function heldBytes(w: object): number {
  let n = 0;
  const visit = (v: unknown, depth: number) => {
    if (ArrayBuffer.isView(v)) n += v.byteLength;
    else if (v && typeof v === "object" && depth < 2) {
      for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  visit(w, 0);
  return n;
}
