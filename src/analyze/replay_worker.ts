/**
 * Entry of a replay worker (src/analyze/replay_pool.ts): opens one engine per pack (in-process
 * tile decode), then plans requests one at a time and posts back each plan-line record.
 * @module
 */
import { openEngine } from "../plan/engine.ts";
import type { Engine } from "../plan/engine.ts";
import { planRecordFromResult } from "../logs/from_plan.ts";
import type { PoolReply, PoolRequest } from "./replay_pool.ts";
import { WindowGate } from "../plan/window/window_gate.ts";

// deno-lint-ignore no-explicit-any
const port = self as any;
let engines: Engine[] = [];
let peakHeap = 0;

function heap(): number {
  const h = Deno.memoryUsage().heapUsed;
  if (h > peakHeap) peakHeap = h;
  return peakHeap;
}

port.onmessage = async (ev: MessageEvent<PoolRequest>) => {
  const m = ev.data;
  const post = (r: PoolReply) => port.postMessage(r);
  if (m.type === "init") {
    try {
      engines = [];
      // One gate per worker, over the state every worker of the process shares.
      const windowGate = m.gate ? new WindowGate(m.gate) : undefined;
      for (const p of m.packs) {
        engines.push(await openEngine(p.path, { noGoTable: p.nogo, windowGate }));
      }
      post({
        type: "ready",
        packs: engines.map((e) => ({
          buildHash: e.info.buildHash,
          zones: e.info.zones,
          error: e.info.error,
        })),
        heap: heap(),
      });
    } catch (e) {
      post({ type: "fatal", message: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  if (m.type === "plan") {
    try {
      const engine = engines[m.pack];
      const res = await engine.plan(m.request);
      const record = planRecordFromResult(m.request, res, { packHash: engine.info.buildHash });
      post({ type: "result", id: m.id, record, heap: heap() });
    } catch (e) {
      post({ type: "error", id: m.id, message: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  if (m.type === "close") {
    for (const e of engines) e.close();
    engines = [];
    port.close();
  }
};
