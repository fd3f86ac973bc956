/**
 * The fuzz engine behind `deno task fuzz`: seeded, time-budgeted, in-process at library level.
 * Inputs run in a Web Worker (testing/fuzz/worker.ts) so that a hang can be stopped: the
 * supervisor here terminates the worker when one input runs past the per-input limit, records
 * a hang, and continues after it in a new worker. Every finding (crash, hang, accepted input with invalid
 * content) is reproducible from (target, run seed, index): `--repro target:index`.
 * @module
 */
import type { FuzzResult } from "./run_one.ts";
import type { WorkerRun } from "./worker_serve.ts";
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
  /** Worker module serving the targets (default testing/fuzz/worker.ts; tests use their own). */
  worker?: URL;
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
  /** Crashes, hangs and invalid acceptances (the first 20 of each target). */
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

/**
 * Runs the fuzz engine: each target gets an equal share of the budget (loading its seeds
 * included), in {@link FUZZ_TARGETS} order; resolves with the report.
 */
export async function runFuzz(opts: FuzzOptions = {}): Promise<FuzzReport> {
  const seed = opts.seed ?? 1;
  const budget = opts.budgetMs ?? 60_000;
  const perInput = opts.perInputMs ?? 10_000;
  const targets = [...(opts.targets ?? FUZZ_TARGETS)];
  const report: FuzzReport = { seed, elapsedMs: 0, counts: {}, findings: [], unlocated: [] };
  for (const t of targets) report.counts[t] = zero();
  const scratch = await Deno.makeTempDir({ prefix: "navscope_fuzz_" });
  const t0 = performance.now();
  let w: Worker | null = null;
  const onResult = (r: FuzzResult) => {
    record(report, r);
    opts.onResult?.(r);
  };
  try {
    for (const target of targets) {
      // Each target's share starts once its seeds are loaded (worker start-up not counted).
      let left = budget / targets.length;
      let from = 0;
      while (left > 0) {
        w ??= new Worker(opts.worker ?? new URL("./worker.ts", import.meta.url), {
          type: "module",
        });
        const r = await runSlice(w, { target, seed, from, ms: left, scratch }, perInput, onResult);
        left -= r.usedMs;
        if (r.hung === null) break;
        w.terminate();
        w = null;
        const hang: FuzzResult = {
          target,
          index: r.hung,
          seed: "",
          op: "",
          note: "",
          outcome: "crash",
          detail: `no result within ${perInput} ms (hang)`,
        };
        report.counts[target].runs++;
        report.counts[target].hang++;
        keepFinding(report, hang);
        opts.onResult?.(hang);
        from = r.hung + 1;
      }
    }
  } finally {
    w?.terminate();
    report.elapsedMs = performance.now() - t0;
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
  return report;
}

/** Keeps the first findings of each target. */
function keepFinding(report: FuzzReport, r: FuzzResult): void {
  if (report.findings.filter((f) => f.target === r.target).length < 20) report.findings.push(r);
}

function record(report: FuzzReport, r: FuzzResult): void {
  const c = report.counts[r.target];
  c.runs++;
  c[r.outcome]++;
  if (r.outcome === "crash" || r.outcome === "invalid") keepFinding(report, r);
  else if (r.outcome === "unlocated" && report.unlocated.length < 20) report.unlocated.push(r);
}

/** How long loading a target's seeds may take before it counts as a hang, ms. */
const LOAD_LIMIT_MS = 180_000;

/**
 * Gives one slice to the worker; resolves when it is done (`hung` null), or with the input
 * that ran past the per-input limit; `usedMs` is the input time since the target was loaded.
 */
function runSlice(
  w: Worker,
  run: WorkerRun,
  perInput: number,
  onResult: (r: FuzzResult) => void,
): Promise<{ hung: number | null; usedMs: number }> {
  return new Promise((resolve, reject) => {
    let current = run.from, since = performance.now(), limit = LOAD_LIMIT_MS, loadedAt = NaN;
    const done = (hung: number | null) => {
      clearInterval(timer);
      w.onmessage = null;
      w.onerror = null;
      const used = Number.isNaN(loadedAt) ? run.ms : performance.now() - loadedAt;
      resolve({ hung, usedMs: used });
    };
    const timer = setInterval(() => {
      if (performance.now() - since > limit) done(current);
    }, 50);
    w.onerror = (e) => {
      clearInterval(timer);
      e.preventDefault();
      reject(new Error(`fuzz worker failed: ${e.message}`));
    };
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === "loaded") {
        loadedAt = since = performance.now();
        limit = perInput + run.ms; // until the first input starts
      } else if (m.type === "start") {
        current = m.index;
        since = performance.now();
        limit = perInput;
      } else if (m.type === "result") onResult(m.result as FuzzResult);
      else if (m.type === "slice-done") done(null);
    };
    w.postMessage(run);
  });
}
