/**
 * The fuzz engine behind `deno task fuzz`: seeded, time-budgeted, in-process at library level.
 * Inputs run in a Web Worker (src/testing/fuzz/worker.ts) so that a hang can be stopped: the
 * supervisor here terminates the worker when one input runs past the per-input limit, records
 * a hang, and restarts after it. Every finding (crash, hang, accepted input with invalid
 * content) is reproducible from (target, run seed, index): `--repro target:index`.
 * @module
 */
import type { FuzzResult } from "./run_one.ts";
import type { WorkerStart } from "./worker.ts";
import { FUZZ_TARGETS } from "./targets.ts";

/** Options of a fuzz run. */
export interface FuzzOptions {
  /** Run seed (default 1). */
  seed?: number;
  /** Time budget for inputs, ms (default 60 000). */
  budgetMs?: number;
  /** Longest one input may run before it counts as a hang, ms (default 10 000). */
  perInputMs?: number;
  /** Targets (default: all, {@link FUZZ_TARGETS}). */
  targets?: readonly string[];
  /** Called after each input. */
  onResult?: (r: FuzzResult) => void;
}

/** Counts of one target. */
export interface FuzzCounts {
  /** Inputs run. */
  runs: number;
  /** Refused with a located NavscopeError. */
  refused: number;
  /** Accepted with valid content. */
  accepted: number;
  /** Accepted with invalid content. */
  invalid: number;
  /** Any other exception. */
  crash: number;
  /** Over the per-input limit. */
  hang: number;
  /** Refused, but the message does not name the input. */
  unlocated: number;
}

/** What a fuzz run found. */
export interface FuzzReport {
  /** Run seed. */
  seed: number;
  /** Wall time of the inputs, ms. */
  elapsedMs: number;
  /** Per-target counts. */
  counts: Record<string, FuzzCounts>;
  /** Crashes, hangs and invalid acceptances (first 50). */
  findings: FuzzResult[];
  /** Unlocated refusals (first 20; reported, not failures). */
  unlocated: FuzzResult[];
}

const zero = (): FuzzCounts => ({
  runs: 0,
  refused: 0,
  accepted: 0,
  invalid: 0,
  crash: 0,
  hang: 0,
  unlocated: 0,
});

/** True when a run found nothing that fails it (no crash, hang or invalid acceptance). */
export function fuzzClean(r: FuzzReport): boolean {
  return r.findings.length === 0;
}

/** Runs the fuzz engine for the budget; resolves with the report. */
export async function runFuzz(opts: FuzzOptions = {}): Promise<FuzzReport> {
  const seed = opts.seed ?? 1;
  const budget = opts.budgetMs ?? 60_000;
  const perInput = opts.perInputMs ?? 10_000;
  const targets = [...(opts.targets ?? FUZZ_TARGETS)];
  const report: FuzzReport = { seed, elapsedMs: 0, counts: {}, findings: [], unlocated: [] };
  for (const t of targets) report.counts[t] = zero();
  const scratch = await Deno.makeTempDir({ prefix: "navscope_fuzz_" });
  const t0 = performance.now();
  let inputMs = 0;
  let next = 0;
  try {
    while (inputMs < budget) {
      const { stoppedAt, hung, ms } = await runWorker(
        { targets, seed, start: next, scratch },
        budget - inputMs,
        perInput,
        (r) => {
          record(report, r);
          opts.onResult?.(r);
        },
      );
      inputMs += ms;
      if (hung === null) break;
      const hang: FuzzResult = {
        target: targets[hung % targets.length],
        index: Math.floor(hung / targets.length),
        seed: "",
        op: "",
        note: "",
        outcome: "crash",
        detail: `no result within ${perInput} ms (hang)`,
      };
      report.counts[hang.target].runs++;
      report.counts[hang.target].hang++;
      if (report.findings.length < 50) report.findings.push(hang);
      opts.onResult?.(hang);
      next = Math.max(stoppedAt, hung + 1);
    }
  } finally {
    report.elapsedMs = performance.now() - t0;
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
  return report;
}

function record(report: FuzzReport, r: FuzzResult): void {
  const c = report.counts[r.target];
  c.runs++;
  c[r.outcome]++;
  if (r.outcome === "crash" || r.outcome === "invalid") {
    if (report.findings.length < 50) report.findings.push(r);
  } else if (r.outcome === "unlocated" && report.unlocated.length < 20) report.unlocated.push(r);
}

/**
 * Runs one worker until the budget (input time, after it is ready) is used or an input hangs.
 * Resolves with the first input not yet run, the hung input (or null) and the input time used.
 */
function runWorker(
  start: WorkerStart,
  budget: number,
  perInput: number,
  onResult: (r: FuzzResult) => void,
): Promise<{ stoppedAt: number; hung: number | null; ms: number }> {
  const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    let ready = 0, current = -1, lastStart = 0, done = start.start;
    const finish = (hung: number | null) => {
      clearInterval(timer);
      w.terminate();
      resolve({ stoppedAt: done, hung, ms: ready ? performance.now() - ready : 0 });
    };
    const timer = setInterval(() => {
      const now = performance.now();
      if (!ready) return;
      if (current >= 0 && now - lastStart > perInput) return finish(current);
      if (now - ready > budget) finish(null);
    }, 50);
    w.onerror = (e) => {
      clearInterval(timer);
      w.terminate();
      e.preventDefault();
      reject(new Error(`fuzz worker failed: ${e.message}`));
    };
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === "ready") ready = performance.now();
      else if (m.type === "start") {
        current = m.k;
        lastStart = performance.now();
      } else if (m.type === "result") {
        current = -1;
        done = m.k + 1;
        onResult(m.result as FuzzResult);
        if (performance.now() - ready > budget) finish(null);
      }
    };
    w.postMessage(start);
  });
}
