/**
 * `navscope report --trace`: Chrome Trace Event JSON of the per-plan stage timings — the
 * documented shape (reports/trace.ts): metadata names per process and worker track, one `plan`
 * slice per plan with its stage slices laid end to end inside it, no overlap within a track.
 */
import { assert, assertEquals } from "./assert.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { TraceBuilder, type TraceEvent, traceJson } from "../reports/trace.ts";

const LOG = new URL("./fixtures/report/city_small.log", import.meta.url).pathname;

Deno.test("trace: documented Chrome Trace Event shape, one track per worker", async () => {
  const tb = new TraceBuilder();
  const { data } = await reportFromLogs([LOG], { onPlan: (p) => tb.add(p) });
  const text = traceJson(tb.trace());
  const t = JSON.parse(text) as {
    traceEvents: TraceEvent[];
    displayTimeUnit: string;
    otherData: { plans: number; tracks: number };
  };
  assertEquals(t.displayTimeUnit, "ms");
  assertEquals(t.otherData.plans, data.overview.plans);
  const meta = t.traceEvents.filter((e) => e.ph === "M");
  const threads = meta.filter((e) => e.name === "thread_name");
  // The fixture's lines come from two threads (Tx1, Tx2) of one process (Px4242).
  assertEquals(threads.map((e) => [e.pid, e.tid, e.args?.name]), [
    [4242, 1, "worker Tx1"],
    [4242, 2, "worker Tx2"],
  ]);
  assertEquals(meta.filter((e) => e.name === "process_name").length, 1);
  assertEquals(t.otherData.tracks, 2);
  const slices = t.traceEvents.filter((e) => e.ph === "X");
  for (const e of slices) {
    assert(Number.isInteger(e.ts) && Number.isInteger(e.dur), JSON.stringify(e));
    assert(e.ts! >= 0 && e.dur! >= 0);
    assert(["plan", "stage"].includes(e.cat!));
  }
  const plans = slices.filter((e) => e.name === "plan");
  assertEquals(plans.length, data.overview.plans);
  const stageNames = new Set([
    "window",
    "topology",
    "geometry",
    "pull",
    "assemble",
    "lift",
    "other",
  ]);
  for (const p of plans) {
    const kids = slices.filter((e) =>
      e.cat === "stage" && e.tid === p.tid && e.ts! >= p.ts! && e.ts! + e.dur! <= p.ts! + p.dur!
    );
    for (const k of kids) assert(stageNames.has(k.name), k.name);
    // Stage slices fill the plan slice end to end.
    if (p.dur! > 0) assertEquals(kids.reduce((s, k) => s + k.dur!, 0), p.dur);
    assert(typeof p.args?.zone === "string" && typeof p.args?.ok === "boolean");
  }
  // No two plans of one track overlap.
  for (const tid of [1, 2]) {
    const ps = plans.filter((p) => p.tid === tid).sort((a, b) => a.ts! - b.ts!);
    for (let i = 1; i < ps.length; i++) {
      assert(ps[i].ts! >= ps[i - 1].ts! + ps[i - 1].dur!, `overlap on Tx${tid}`);
    }
  }
  // A successful plan's window slice is its window_ms in µs.
  const ok = plans.find((p) => p.args?.ok === true)!;
  const win = slices.find((e) => e.name === "window" && e.tid === ok.tid && e.ts === ok.ts)!;
  assert(win && win.dur! > 0);
});
