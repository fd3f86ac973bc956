/**
 * Fuzz worker: loads the targets, then runs inputs k = start, start+1, … round-robin over the
 * targets (input k is target k mod T, index k div T) and posts each result. The supervisor
 * (src/testing/fuzz/engine.ts) terminates it at the end of the budget or when one input takes
 * longer than the per-input limit (a hang), and restarts it after that input.
 * @module
 */
/// <reference lib="deno.worker" />
import { loadTargets } from "./targets.ts";
import { runOne } from "./run_one.ts";

/** Start message of a worker. */
export interface WorkerStart {
  /** Targets to run. */
  targets: string[];
  /** Run seed. */
  seed: number;
  /** First input number k. */
  start: number;
  /** Scratch folder for file-based targets. */
  scratch: string;
}

self.onmessage = async (ev: MessageEvent<WorkerStart>) => {
  const { targets, seed, start, scratch } = ev.data;
  const ts = await loadTargets(targets, scratch);
  self.postMessage({ type: "ready" });
  for (let k = start;; k++) {
    const t = ts[k % ts.length];
    const index = Math.floor(k / ts.length);
    self.postMessage({ type: "start", k });
    const r = await runOne(t, seed, index);
    self.postMessage({ type: "result", k, result: r });
  }
};
