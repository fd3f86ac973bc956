/**
 * A pool of replay workers: `jobs` Deno workers, each with its own engine per pack, planning a
 * list of requests handed out in list order to whichever worker is free. Callers sort the list by
 * zone so each worker's zone cache stays warm; results come back by index, so the output never
 * depends on the number of workers. An abort signal terminates the workers at once and resolves
 * with the results finished so far.
 * @module
 */
import type { PlanRecord } from "../logs/types.ts";
import type { PlanRequest } from "../plan/types.ts";
import { Handout } from "./replay_handout.ts";
import {
  createWindowGateShared,
  kGateCells,
  type WindowGateShared,
} from "../plan/window/window_gate.ts";

/** A pack a pool opens. */
export interface PoolPack {
  /** Main pack path. */
  path: string;
  /** Author no-go table (default: the one paired with the pack). */
  nogo?: string;
}

/** What a worker reports about a pack it opened. */
export interface PoolPackInfo {
  buildHash: string;
  zones: string[];
  /** The load error every plan on it returns, or null. */
  error: string | null;
}

/** Messages to a worker. */
export type PoolRequest =
  | { type: "init"; packs: PoolPack[]; gate: WindowGateShared | null }
  | { type: "plan"; id: number; pack: number; request: PlanRequest }
  | { type: "close" };

/** Messages from a worker. */
export type PoolReply =
  | { type: "ready"; packs: PoolPackInfo[]; heap: number }
  | { type: "result"; id: number; record: PlanRecord; heap: number }
  | { type: "error"; id: number; message: string }
  | { type: "fatal"; message: string };

/** One request of a pool run. */
export interface PoolTask {
  /** Index into the pool's packs. */
  pack: number;
  request: PlanRequest;
}

/** Result of {@link ReplayPool.run}. */
export interface PoolRun {
  /** Records by task index; undefined for tasks not finished (interrupted). */
  records: Array<PlanRecord | undefined>;
  /** Per-task error text (a worker exception), by index. */
  errors: Array<string | undefined>;
  /** True when the signal stopped the run. */
  interrupted: boolean;
  /** Peak V8 heap used per worker, bytes. */
  peakHeap: number[];
}

/** A pool of replay workers. */
export class ReplayPool {
  private constructor(
    private readonly workers: Worker[],
    /** Pack facts (from the first worker). */
    readonly packs: PoolPackInfo[],
    private readonly heap: number[],
  ) {}

  /**
   * Starts `jobs` workers on `packs` and waits until every engine is loaded. With more than one
   * worker, windows of at least `gateCells` cells (default kGateCells) run one at a time through
   * the process's window gate (src/plan/window/window_gate.ts; `gateCells` Infinity: no gate);
   * results never depend on it.
   */
  static async open(
    packs: PoolPack[],
    jobs: number,
    opts: { gateCells?: number } = {},
  ): Promise<ReplayPool> {
    const gateCells = opts.gateCells ?? kGateCells;
    const gate = jobs > 1 && Number.isFinite(gateCells) ? createWindowGateShared(gateCells) : null;
    const workers: Worker[] = [];
    const heap: number[] = [];
    let info: PoolPackInfo[] = [];
    try {
      await Promise.all(Array.from({ length: Math.max(1, jobs) }, (_, i) => {
        const w = new Worker(new URL("./replay_worker.ts", import.meta.url).href, {
          type: "module",
        });
        workers.push(w);
        return new Promise<void>((resolve, reject) => {
          w.onmessage = (ev: MessageEvent<PoolReply>) => {
            const r = ev.data;
            if (r.type === "ready") {
              if (i === 0 || info.length === 0) info = r.packs;
              heap[i] = r.heap;
              resolve();
            } else if (r.type === "fatal") reject(new Error(r.message));
          };
          w.onerror = (e) => {
            e.preventDefault();
            reject(new Error(e.message));
          };
          w.postMessage({ type: "init", packs, gate } satisfies PoolRequest);
        });
      }));
    } catch (e) {
      for (const w of workers) w.terminate();
      throw e;
    }
    return new ReplayPool(workers, info, heap);
  }

  /** Number of workers. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Plans every task; `onDone(i, done, total)` after each. Tasks go out in list order to
   * whichever worker is free, or as `handout` says (its lanes are the pool's workers). With
   * `signal` aborted the workers are terminated and the pool cannot be used again.
   */
  run(
    tasks: readonly PoolTask[],
    opts: {
      signal?: AbortSignal;
      onDone?: (index: number, done: number) => void;
      handout?: Handout;
    } = {},
  ): Promise<PoolRun> {
    const records: Array<PlanRecord | undefined> = new Array(tasks.length);
    const errors: Array<string | undefined> = new Array(tasks.length);
    const handout = opts.handout ??
      new Handout({ lanes: [], shared: tasks.map((_, i) => i) }, () => 0);
    let done = 0, busy = 0, finished = false;
    return new Promise<PoolRun>((resolve) => {
      const finish = (interrupted: boolean) => {
        if (finished) return;
        finished = true;
        opts.signal?.removeEventListener("abort", onAbort);
        if (interrupted) { for (const w of this.workers) w.terminate(); }
        resolve({ records, errors, interrupted, peakHeap: [...this.heap] });
      };
      const onAbort = () => finish(true);
      if (opts.signal?.aborted) return finish(true);
      opts.signal?.addEventListener("abort", onAbort);
      const feed = (w: Worker, wi: number) => {
        if (finished) return;
        const i = handout.next(wi);
        if (i < 0) {
          if (busy === 0) finish(false);
          return;
        }
        busy++;
        w.onmessage = (ev: MessageEvent<PoolReply>) => {
          const r = ev.data;
          if (r.type === "result") {
            records[i] = r.record;
            this.heap[wi] = Math.max(this.heap[wi] ?? 0, r.heap);
          } else if (r.type === "error") errors[i] = r.message;
          else return;
          busy--;
          done++;
          opts.onDone?.(i, done);
          feed(w, wi);
        };
        w.onerror = (e) => {
          e.preventDefault();
          errors[i] = e.message;
          busy--;
          done++;
          feed(w, wi);
        };
        w.postMessage(
          {
            type: "plan",
            id: i,
            pack: tasks[i].pack,
            request: tasks[i].request,
          } satisfies PoolRequest,
        );
      };
      if (tasks.length === 0) return finish(false);
      this.workers.forEach((w, wi) => feed(w, wi));
    });
  }

  /** Stops the workers. */
  close(): void {
    for (const w of this.workers) {
      try {
        w.postMessage({ type: "close" } satisfies PoolRequest);
      } catch { /* already terminated */ }
      w.terminate();
    }
  }
}
