/**
 * Fuzz worker: on each `run` message, loads the target (once), runs its inputs from index
 * `from` until `ms` have passed, posting every result, then posts `slice-done`. The supervisor
 * (src/testing/fuzz/engine.ts) terminates the worker when one input runs past the per-input
 * limit (a hang) and continues in a new worker after that input.
 * @module
 */
/// <reference lib="deno.worker" />
import { type FuzzTarget, loadTargets } from "./targets.ts";
import { runOne } from "./run_one.ts";

/** A slice of work for the worker. */
export interface WorkerRun {
  /** Target name. */
  target: string;
  /** Run seed. */
  seed: number;
  /** First input index. */
  from: number;
  /** Time for this slice, ms (target loading included). */
  ms: number;
  /** Scratch folder for file-based targets. */
  scratch: string;
}

const loaded = new Map<string, FuzzTarget>();

self.onmessage = async (ev: MessageEvent<WorkerRun>) => {
  const { target, seed, from, ms, scratch } = ev.data;
  const t0 = performance.now();
  let t = loaded.get(target);
  if (!t) {
    [t] = await loadTargets([target], scratch);
    loaded.set(target, t);
  }
  let i = from;
  for (; performance.now() - t0 < ms; i++) {
    self.postMessage({ type: "start", index: i });
    self.postMessage({ type: "result", result: await runOne(t, seed, i) });
  }
  self.postMessage({ type: "slice-done", next: i });
};
