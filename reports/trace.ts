/**
 * Per-plan stage timings as Chrome Trace Event JSON (`navscope report --trace out.json`), for
 * Perfetto (ui.perfetto.dev → Open trace file) or `chrome://tracing`.
 *
 * Shape (the JSON Object Format of the Trace Event Format):
 *
 *     {"displayTimeUnit": "ms", "otherData": {...},
 *      "traceEvents": [
 *        {"ph": "M", "name": "process_name", "pid": P, "tid": 0, "args": {"name": "navscope Px P"}},
 *        {"ph": "M", "name": "thread_name", "pid": P, "tid": T, "args": {"name": "worker Tx T"}},
 *        {"ph": "X", "name": "plan", "cat": "plan", "pid": P, "tid": T, "ts": µs, "dur": µs,
 *         "args": {"zone", "ok", "class"/"code", "tier", "kind", "window_cells", "start", "goal"}},
 *        {"ph": "X", "name": "window", "cat": "stage", "pid": P, "tid": T, "ts": µs, "dur": µs}, …]}
 *
 * One track per worker: a track is the (pid, tid) of the plan line's `[Px…][Tx…]` prefix. Each
 * plan is one `plan` slice with one child slice per stage, laid end to end in the planner's
 * order — window, topology, geometry, pull, assemble, lift — and `other` (total − the six) last,
 * so the children exactly fill the parent. The plan starts at its line's time − total (the line
 * is written when the plan ends); plans of one track that would overlap (a battery writes all its
 * lines at once) are moved later so a track never overlaps itself. `ts`/`dur` are microseconds
 * from the first plan; undated plans follow the previous plan of their track.
 * @module
 */
import type { PlanSighting } from "./report_data.ts";
import { STAGE_NAMES } from "../src/plan/counters.ts";

/** Stage slices in order. */
export const TRACE_STAGES = STAGE_NAMES;

/** One trace event. */
export interface TraceEvent {
  ph: "X" | "M";
  name: string;
  cat?: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  args?: Record<string, unknown>;
}

/** A Chrome trace (JSON Object Format). */
export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ms";
  otherData: Record<string, unknown>;
}

const us = (ms: number) => Math.round(ms * 1000);

/** Builds trace events from plan sightings, incrementally. */
export class TraceBuilder {
  private readonly events: TraceEvent[] = [];
  private readonly tracks = new Map<string, { end: number }>();
  private readonly procs = new Set<number>();
  private origin = NaN;
  private plans = 0;

  /** Adds one plan. */
  add(p: PlanSighting): void {
    const r = p.record;
    const t = r.timing;
    const total = Number.isFinite(t.total) && t.total > 0 ? t.total : 0;
    const key = `${p.pid}/${p.tid}`;
    let track = this.tracks.get(key);
    if (!track) {
      this.tracks.set(key, track = { end: -Infinity });
      if (!this.procs.has(p.pid)) {
        this.procs.add(p.pid);
        this.events.push({
          ph: "M",
          name: "process_name",
          pid: p.pid,
          tid: 0,
          args: { name: `navscope Px${p.pid}` },
        });
      }
      this.events.push({
        ph: "M",
        name: "thread_name",
        pid: p.pid,
        tid: p.tid,
        args: { name: `worker Tx${p.tid}` },
      });
    }
    let startMs = Number.isNaN(p.time) ? NaN : p.time - total;
    if (Number.isNaN(this.origin) && !Number.isNaN(startMs)) this.origin = startMs;
    let ts = Number.isNaN(startMs) ? track.end : us(startMs - this.origin);
    if (!Number.isFinite(ts)) ts = 0;
    if (ts < track.end) ts = track.end;
    startMs = ts;
    const dur = us(total);
    track.end = ts + dur;
    this.plans++;
    this.events.push({
      ph: "X",
      name: "plan",
      cat: "plan",
      pid: p.pid,
      tid: p.tid,
      ts,
      dur,
      args: {
        zone: r.zone,
        ok: r.ok,
        code: r.code,
        tier: r.tier,
        kind: r.kind,
        window_cells: r.window ? r.window.cells : null,
        start: r.start,
        goal: r.goal,
      },
    });
    let at = ts;
    let used = 0;
    for (const s of TRACE_STAGES) {
      const v = t[s];
      const d = Number.isFinite(v) && v > 0 ? us(v) : 0;
      if (d > 0 && used + d <= dur) {
        this.events.push({
          ph: "X",
          name: s,
          cat: "stage",
          pid: p.pid,
          tid: p.tid,
          ts: at,
          dur: d,
        });
        at += d;
        used += d;
      }
    }
    if (dur - used > 0) {
      this.events.push({
        ph: "X",
        name: "other",
        cat: "stage",
        pid: p.pid,
        tid: p.tid,
        ts: at,
        dur: dur - used,
      });
    }
  }

  /** The trace. */
  trace(): ChromeTrace {
    return {
      traceEvents: this.events,
      displayTimeUnit: "ms",
      otherData: {
        generator: "navscope report --trace",
        plans: this.plans,
        tracks: this.tracks.size,
      },
    };
  }
}

/** Serialises a trace compactly (one event per line, so big traces stay greppable). */
export function traceJson(t: ChromeTrace): string {
  const ev = t.traceEvents.map((e) => JSON.stringify(e)).join(",\n");
  return `{"displayTimeUnit":"ms","otherData":${
    JSON.stringify(t.otherData)
  },"traceEvents":[\n${ev}\n]}\n`;
}
