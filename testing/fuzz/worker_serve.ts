/**
 * The fuzz worker's loop: on each `run` message, loads the target (once), runs its inputs from
 * index `from` until `ms` have passed after loading, posting every result, then posts `slice-done`. The
 * supervisor (testing/fuzz/engine.ts) terminates the worker when one input runs past the
 * per-input limit (a hang) and continues in a new worker after that input.
 * @module
 */
/// <reference lib="deno.worker" />
import type { FuzzTarget } from "./targets.ts";
import { runOne } from "./run_one.ts";

/** A slice of work for the worker. */
export interface WorkerRun {
  /** Target name. */
  target: string;
  /** Run seed. */
  seed: number;
  /** First input index. */
  from: number;
  /** Time for this slice, ms (after the target is loaded). */
  ms: number;
  /** Scratch folder for file-based targets. */
  scratch: string;
}

/** Serves `run` messages in this worker with targets from `load`. */
export function serveFuzzWorker(
  load: (name: string, scratch: string) => Promise<FuzzTarget>,
): void {
  const loaded = new Map<string, FuzzTarget>();
  self.onmessage = async (ev: MessageEvent<WorkerRun>) => {
    const { target, seed, from, ms, scratch } = ev.data;
    let t = loaded.get(target);
    if (!t) {
      t = await load(target, scratch);
      loaded.set(target, t);
    }
    self.postMessage({ type: "loaded" });
    const t0 = performance.now();
    let i = from;
    for (; performance.now() - t0 < ms; i++) {
      self.postMessage({ type: "start", index: i });
      self.postMessage({ type: "result", result: await runOne(t, seed, i) });
    }
    self.postMessage({ type: "slice-done", next: i });
  };
}
