/**
 * The solver of routeWindow (spec 求解器) and the window state its passes share: the walk mask,
 * the usable spans, the anchors with their start span and goal set, the one SpanSearch of the
 * window with the pass its work counts for, the warnings and the endpoint access cells. The
 * baseline, the topology pass (topology_pass.ts) and the geometry pass (geometry_pass.ts) each
 * call {@link Solver.solve} on their own mask and prices.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import { spanRangeOf, type WindowGrid } from "../window/build_window.ts";
import { and } from "../window/masks.ts";
import { costAstar } from "./search/cost_astar.ts";
import { linked } from "./search/linked.ts";
import { type SpanPath, SpanSearch, type ThetaOptions } from "./search/span_astar.ts";
import { PlanFailure } from "../types.ts";
import { emptyCounters, type WorkCounters } from "../counters.ts";
import { scratch } from "../scratch.ts";
import { endpointCell, trustLimit, trustLimit2 } from "../window/window_tiers.ts";
import { markGoalSet, nearestCell, pickAnchors, pickSpan } from "./anchors.ts";
import {
  type Anchor,
  Escalate,
  Reason,
  type RouteInput,
  type Solved,
  Warning,
} from "./route_types.ts";

/** The window's route state and its solver (求解器). Built once per routeWindow call. */
export class Solver {
  readonly tentative: boolean;
  readonly nx: number;
  readonly ny: number;
  readonly walk: Uint8Array;
  readonly usable: Uint8Array;
  readonly cw3: Uint8Array;
  readonly limit: number;
  readonly limit2: number;
  readonly sCell: [number, number];
  readonly gCell: [number, number];
  sa!: Anchor;
  ga!: Anchor;
  startSpan = -1;
  /** The goal set: span `goalFirst + k` is a goal when `goalSet[k]` (the goal cell's spans). */
  goalSet!: Uint8Array;
  goalFirst = 0;
  readonly search: SpanSearch;
  readonly warnings = new Set<string>();
  /** Cells of the two endpoint access paths (they join the route mask, 拉直的输入). */
  readonly accessCells: number[] = [];
  /** The open area of the geometry pass (null when it did not run). */
  solidc: Uint8Array | null = null;
  /**
   * The whole window as a `lim`: a sentinel, never read ({@link Solver.within} returns the mask
   * itself for it), so it costs no byte per cell (issue 36; it was an all-ones window mask).
   */
  readonly all: Uint8Array = new Uint8Array(0);
  /** The mask of the last span search run (solve), or null before the first. */
  lastRunMask: Uint8Array | null = null;
  /** core cells with a usable span (lazily: only the core retry needs it). */
  coreU: Uint8Array | null = null;
  /** The plan's counters (a throw-away set without a sink). */
  readonly cnt: WorkCounters;
  /** Which pass the SpanAstar runs count for. */
  phase: "topology" | "geometry" = "topology";
  /** Set-up time (constructor), ms. */
  setupMs = 0;
  private flushed = { runs: 0, pops: 0, expanded: 0, sights: 0, reparents: 0 };

  /** Builds the walk mask, the usable spans and the trust limits of window `w`. */
  constructor(readonly w: WindowGrid, readonly inp: RouteInput) {
    this.cnt = inp.sink?.counters ?? emptyCounters();
    this.tentative = inp.kind === "tentative"; // bounded and strict (放大窗口的原因)
    this.nx = w.nx;
    this.ny = w.ny;
    const ncell = w.nx * w.ny, sp = w.spans, nsp = sp.h.length;
    this.walk = scratch.u8(ncell);
    let any = false;
    for (let c = 0; c < ncell; c++) if (w.core[c] && w.lay[c]) (this.walk[c] = 1), (any = true);
    if (!any) throw new PlanFailure("walk_mask_empty", "walk 掩膜为空");
    this.usable = scratch.u8(nsp);
    for (let s = 0; s < nsp; s++) this.usable[s] = w.vis3[s] & w.reach[s];
    this.cw3 = this.cellsWithUsable(this.walk);
    this.sCell = [endpointCell(inp.start[0], w.x0), endpointCell(inp.start[1], w.y0)];
    this.gCell = [endpointCell(inp.goal[0], w.x0), endpointCell(inp.goal[1], w.y0)];
    this.limit = trustLimit(w.nx, w.ny, this.sCell, this.gCell);
    this.limit2 = trustLimit2(w.nx, w.ny, this.sCell, this.gCell);
    this.search = new SpanSearch(w);
  }

  /** Adds the search's work since the last flush to the current pass's counters. */
  flushSearch(): void {
    const s = this.search, f = this.flushed, c = this.cnt;
    if (!s) return;
    if (this.phase === "topology") {
      c["topology.searches"] += s.runs - f.runs;
      c["topology.pops"] += s.pops - f.pops;
      c["topology.expanded"] += s.expanded - f.expanded;
    } else {
      c["geometry.searches"] += s.runs - f.runs;
      c["geometry.pops"] += s.pops - f.pops;
      c["geometry.expanded"] += s.expanded - f.expanded;
      c["geometry.sight_checks"] += s.sights - f.sights;
      c["geometry.reparents"] += s.reparents - f.reparents;
    }
    this.flushed = {
      runs: s.runs,
      pops: s.pops,
      expanded: s.expanded,
      sights: s.sights,
      reparents: s.reparents,
    };
  }

  /** Cells of `mask` holding at least one usable span. */
  cellsWithUsable(mask: Uint8Array): Uint8Array {
    const out = scratch.u8(mask.length), sp = this.w.spans;
    for (let s = 0; s < sp.h.length; s++) {
      if (this.usable[s] && mask[sp.cell[s]]) out[sp.cell[s]] = 1;
    }
    return out;
  }

  /** Anchor cells, start span and goal set (掩膜与吸附锚点) on the cells of `m`. */
  pickAnchors(m: Uint8Array): void {
    const { w, inp } = this;
    const { sa, ga } = pickAnchors(
      w,
      this.usable,
      m,
      this.sCell,
      this.gCell,
      inp.startDeckY,
      inp.goalDeckY,
      this.tentative,
    );
    this.setAnchors(sa, ga);
  }

  /** Sets the anchors and derives the start span and the goal set from them. */
  setAnchors(sa: Anchor, ga: Anchor): void {
    const { w, inp } = this;
    this.sa = sa;
    this.ga = ga;
    this.startSpan = pickSpan(w, this.usable, sa.cell, inp.startDeckY, inp.h0);
    // The goal set lies in the goal anchor cell only (markGoalSet): its spans' range.
    const [a, b] = spanRangeOf(w.spans, ga.cell);
    this.goalFirst = a;
    this.goalSet = new Uint8Array(b - a);
    markGoalSet(w, this.usable, ga.cell, inp.goalDeckY, this.goalSet);
    if (inp.onAnchors) inp.onAnchors(this.startSpan, this.goalSpans());
  }

  /** The goal spans, ascending. */
  goalSpans(): number[] {
    const goals: number[] = [];
    for (let k = 0; k < this.goalSet.length; k++) {
      if (this.goalSet[k]) goals.push(this.goalFirst + k);
    }
    return goals;
  }

  /**
   * solve (求解器): the connectivity check (not for the baseline), SpanAstar on walk ∧ lim, core
   * ∧ lim outside tentative windows, the cost check against limit2, and for the baseline only
   * the cell-level CostAstar on re-picked anchors.
   */
  solve(
    lim: Uint8Array,
    price: Float32Array | null,
    theta: ThetaOptions | undefined,
    baseline: boolean,
    early = true,
  ): Solved | null {
    const { w, inp } = this;
    const coreLim = this.within(w.core, lim);
    if (!baseline && !linked(w, coreLim, this.sa.cell, this.ga.cell)) {
      if (this.tentative) throw new Escalate(Reason.MaskSplit);
      return null;
    }
    const snapSum = (this.sa.dist + this.ga.dist) / kCS;
    if (this.sa.cell === this.ga.cell && this.startSpan >= 0) {
      const s = inp.goalDeckY === null ? this.startSpan : this.goalSpan();
      if (s >= 0) {
        return {
          spans: Int32Array.of(s),
          cells: Int32Array.of(this.sa.cell),
          chain: Int32Array.of(s),
          cost: 0,
          mask: this.within(this.cw3, lim),
          spanLevel: true,
        };
      }
    }
    // The span searches run on cells with a usable span: a cell of the walk or core mask without
    // one (only other layers' floors there) is no corner a diagonal step may cut (对角切角), and
    // no cell of the route mask tm (拉直的输入 step 3 takes the final solve's mask). The
    // reference build behaves so on every leg of tests/fixtures/oracle*; a cell there is never
    // entered anyway. The connectivity check and the cell-level fallback keep the whole masks.
    const walkLim = this.within(this.cw3, lim);
    // #6219: the early abandon; without it (reference profile) the bound check after the search
    // decides, with the search-edge note.
    const abandonAt = this.tentative && early && this.inp.earlyAbandon !== false
      ? this.limit2 - snapSum
      : Infinity;
    const run = (mask: Uint8Array, abandon: number) =>
      this.startSpan < 0 ? null : (this.lastRunMask = mask) && this.search.run({
        mask,
        usable: this.usable,
        price,
        start: this.startSpan,
        goal: this.goalSet,
        goalFirst: this.goalFirst,
        goalCell: this.ga.cell,
        abandonAt: abandon,
        theta,
        gate: inp.gate ?? null,
      });
    let p: SpanPath | null = run(walkLim, abandonAt);
    // Without #6219 an abandoned search would have run on.
    if (this.startSpan >= 0 && this.search.abandoned) this.inp.probe?.probe.touch("earlyAbandon");
    let mask = walkLim;
    if (!p) {
      if (this.tentative) throw new Escalate(Reason.WalkBroken);
      this.coreU ??= this.cellsWithUsable(w.core);
      mask = this.within(this.coreU, lim);
      p = run(mask, Infinity);
      if (p) this.warnings.add(Warning.WalkToCore); // 成功就记一条告警 (求解器 step 3)
    }
    if (p) {
      if (this.tentative && p.cost + snapSum >= this.limit2) throw new Escalate(Reason.SearchEdge);
      const cells = Int32Array.from(p.spans, (s) => w.spans.cell[s]);
      return { spans: p.spans, cells, chain: p.chain ?? null, cost: p.cost, mask, spanLevel: true };
    }
    // Cell-level fallback (求解器 step 5).
    if (inp.goalDeckY !== null || inp.startDeckY !== null || !baseline) return null;
    if (this.tentative) throw new Escalate(Reason.CellLevel);
    // 在 walk 上重选两端吸附锚点,跑格级 A*,无解再退到 core: the anchors are picked once, on
    // walk ∧ lim, and the core retry starts from the same anchors.
    const walkAll = this.within(this.walk, lim);
    const sa = nearestCell(walkAll, this.nx, this.ny, this.sCell);
    const ga = nearestCell(walkAll, this.nx, this.ny, this.gCell);
    if (!sa || !ga) return null;
    for (const m of [walkAll, coreLim]) {
      const r = costAstar(w, m, sa.cell, ga.cell, this.cnt);
      if (r) {
        // Re-picked anchors count from here on (access, checks, the 8-px judgement).
        this.setAnchors(sa, ga);
        this.warnings.add(Warning.CellFallback);
        // 无解再退到 core: a cell-level route on core is a walk → core fallback too, and the
        // reference build records both warnings (every such leg of tests/fixtures/oracle).
        if (m === coreLim) this.warnings.add(Warning.WalkToCore);
        return {
          spans: null,
          cells: r.cells,
          chain: null,
          cost: r.cost,
          mask: m,
          spanLevel: false,
        };
      }
    }
    return null;
  }

  /**
   * `m ∧ lim`; `m` itself when `lim` is the whole window (no copy: the masks a solve derives are
   * only read, and the baseline's would be four window-sized copies of masks it already has).
   */
  within(m: Uint8Array, lim: Uint8Array): Uint8Array {
    return lim === this.all ? m : and(m, lim, this.nx * this.ny);
  }

  goalSpan(): number {
    const k = this.goalSet.indexOf(1);
    return k < 0 ? -1 : this.goalFirst + k;
  }
}
