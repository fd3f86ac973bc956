/**
 * routeWindow (spec 两段搜索): the search inside one window — walk mask, anchor cells, start span
 * and goal set (掩膜与吸附锚点); the solver with its fallback chain (求解器); the baseline (基线);
 * endpoint access paths and link chains (端点接入); the topology pass on the channel mask with
 * multw (拓扑层); the corridor band, open area and the geometry pass as Lazy Theta* (几何层);
 * and the goal-sealed check (收尾检查). Every escalation exit uses the spec's reason name
 * (放大窗口的原因 / maaend-runlogs.md §2); the result carries the geometry pass's parent chain
 * (taut chain), the topology cells and the warnings.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import type { FallGate } from "../../grid/rise_ok.ts";
import { spanRangeOf, type WindowGrid } from "../window/build_window.ts";
import { cFixed } from "../diagnostics/format.ts";
import { and } from "../window/masks.ts";
import { AccessSearch, kLinkChainCost } from "./search/access.ts";
import { corridor } from "./search/corridor.ts";
import { costAstar } from "./search/cost_astar.ts";
import { linked } from "./search/linked.ts";
import {
  kClrPref,
  kMultHi,
  kMultLo,
  kMultwHi,
  kMultwLo,
  priceField,
} from "./search/price_field.ts";
import { type SpanPath, SpanSearch, type ThetaOptions } from "./search/span_astar.ts";
import { Visibility } from "./visibility/visibility.ts";
import { postProcess, type PostResult } from "./post/post_process.ts";
import { locateGap } from "../diagnostics/gap.ts";
import type { DriveMesh } from "./post/waypoints.ts";
import { PlanFailure, type Pt } from "../types.ts";
import { emptyCounters, type OtherStageName, type WorkCounters } from "../counters.ts";
import { scratch } from "../scratch.ts";
import type { SwitchProbe } from "../profile.ts";
import {
  endpointCell,
  kTrustMargin,
  trustLimit,
  trustLimit2,
  type WindowKind,
} from "../window/window_tiers.ts";

/** Deck height band of anchors and goal sets, m. */
const kDeckBand = 2;

/** Escalation reasons (spec names, maaend-runlogs.md §2). */
export const Reason = {
  EdgeNear: "端点离窗边不足",
  SnapEdge: "吸附距离碰边",
  AccessNone: "接入链接不通",
  AccessEdge: "接入链碰边",
  MaskSplit: "掩膜内两端不连通",
  WalkBroken: "walk 断开",
  SearchEdge: "搜索碰边",
  CellLevel: "层不连通",
  BaselineNone: "基线不通",
  ChannelNone: "通道未接通",
  CorridorEdge: "走廊碰边",
  CorridorNone: "走廊内几何不通",
  DeckBlocked: "目标附近没有未封堵的声明面",
} as const;

/** Warnings (spec names), in the order a result lists them. */
export const Warning = {
  ChannelRetry: "通道未接通, 退到全图亏欠计价",
  WalkToCore: "walk 断开→退回 core",
  CellFallback: "层不连通→退回格级",
} as const;
const WARNING_ORDER: string[] = [Warning.ChannelRetry, Warning.WalkToCore, Warning.CellFallback];

/** Inputs of routeWindow besides the window. */
export interface RouteInput {
  /** Window kind. */
  kind: WindowKind;
  /** Raw start, px. */
  start: Pt;
  /** Raw goal, px. */
  goal: Pt;
  /** Start height h0, m. */
  h0: number;
  /** Declared start deck. */
  startDeckY: number | null;
  /** Declared goal deck. */
  goalDeckY: number | null;
  /** Collider check of ledge drops (null: drops pass). */
  gate?: FallGate | null;
  /** The zone mesh for the waypoints (null: only the last point is a waypoint). */
  mesh?: DriveMesh | null;
  /** The zone's plane→world x scale (the drop margin's R = 3·0.41/|s_x|). */
  scaleX?: number;
  /** Lazy Theta* relaxes closed spans (pre-#6214; PlanOverrides.relaxClosed). */
  relaxClosed?: boolean;
  /** Where the router adds its work counters and its gap-location time (the plan's). */
  sink?: RouteSink;
  /**
   * Told the start span and the goal spans each time the anchors are set (the picture's reach
   * floods start from them; src/plan/diagnostics/picture.ts). Does not change the search.
   */
  onAnchors?: (startSpan: number, goalSpans: number[]) => void;
  /** #6219 early abandon of the tentative window's searches (default true; profile switch). */
  earlyAbandon?: boolean;
  /** formulas.md #111: no chord after a drop (default true; profile `chordDropExclusion`). */
  chordDropExclusion?: boolean;
  /** #6147 落点留余量 (default true; profile `landingMargin`). */
  landingMargin?: boolean;
  /** 拉直的输入 third kind: blocker segments only (default true; profile `cellPullBlockersOnly`). */
  cellPullBlockersOnly?: boolean;
  /**
   * 路线掩膜 tm step 2: an access path recomputed to limw (chan0 unreachable) joins tm too (default
   * true; profile `limwAccessInRouteMask`).
   */
  limwAccessInRouteMask?: boolean;
  /** 9839304: waypoints anchored at the line heights (default true; profile switch). */
  waypointStartHeight?: boolean;
  /**
   * Switch probes of the plan (src/plan/profile.ts SwitchProbe); `skipClosed`: whether #6214's
   * skip is probed (on, and no legs.json override).
   */
  probe?: { probe: SwitchProbe; skipClosed: boolean } | null;
}

/**
 * The plan's sink for what a routeWindow call did besides its outcome: work counters (added
 * even when the window escalates or fails) and times measured for the plan context.
 */
export interface RouteSink {
  /** The plan's work counters. */
  counters: WorkCounters;
  /** Gap location time of this call, ms (断开处). */
  gapMs: number;
  /** Fall-gate set-up time of this call, ms (set by the tier loop). */
  gateMs: number;
}

/** A successful route. */
export interface RouteOk {
  /** Status. */
  status: "ok";
  /** The final per-cell path (topology path, or the baseline's) as spans; null for cells. */
  spans: Int32Array | null;
  /** Per-cell path as window cells (always). */
  cells: Int32Array;
  /** Geometry pass parent chain as spans (empty when the geometry pass fell back). */
  chain: Int32Array;
  /** Cost of the final search (cells). */
  cost: number;
  /** Distance raw start → start anchor, px. */
  snapStart: number;
  /** Distance raw goal → goal anchor, px. */
  snapGoal: number;
  /** The goal cell is in the walk mask but not in the baseline's reach set (终点被隔开). */
  goalSealed: boolean;
  /** Warnings, in the spec's order. */
  warnings: string[];
  /** Topology (per-cell) path, px cell centres. */
  points: Pt[];
  /** Geometry chain, px cell centres. */
  tautPoints: Pt[];
  /** Cells of the topology path (or the baseline's when the topology pass fell back). */
  topologyCells: number;
  /** Stage time of the topology part (walk mask … topology pass), ms. */
  topologyMs: number;
  /** Stage time of the geometry part (corridor + geometry pass), ms. */
  geometryMs: number;
  /** Post-processing (string pull, assemble, lift corners, heights, clearance, waypoints). */
  post: PostResult;
  /** Time outside the timed stages, by sub-stage of "other" (route_setup, heights, …), ms. */
  otherMs: Partial<Record<OtherStageName, number>>;
}

/** What routeWindow returns. */
export type RouteOutcome = { status: "escalate"; reason: string } | RouteOk;

class Escalate {
  constructor(readonly reason: string) {}
}

/** The baseline found no route in a final window: what the gap location needs, copied out. */
class Disconnected {
  constructor(
    readonly usable: Uint8Array,
    readonly startSpan: number,
    readonly goals: number[],
    /** The target-deck message when the goal names a deck (target_deck_unreachable). */
    readonly deckMessage: string | null,
    /**
     * What the baseline's last search (on the core cells with a usable span) reached from the
     * start, or null (the gap location's forward flood starts from it; gap.ts).
     */
    readonly reached: Uint8Array | null,
  ) {}
}

interface Anchor {
  cell: number;
  dist: number;
}

/** A path found by solve: spans (span level) or cells (cell-level fallback). */
interface Solved {
  spans: Int32Array | null;
  cells: Int32Array;
  chain: Int32Array | null;
  cost: number;
  /** The mask the search used (the baseline's reach set). */
  mask: Uint8Array;
  spanLevel: boolean;
}

/** Runs the search in a built window. Throws PlanFailure for a failure in the window. */
export function routeWindow(w: WindowGrid, inp: RouteInput): RouteOutcome {
  let router: Router | null = null;
  try {
    // The router's masks and search state are window-sized scratch (scratch.ts), reused by the
    // next window; the outcome holds only arrays made for it (paths, post-processing).
    return scratch.frame(() => {
      const t = performance.now();
      router = new Router(w, inp);
      router.setupMs = performance.now() - t;
      return router.route();
    });
  } catch (e) {
    if (e instanceof Escalate) return { status: "escalate", reason: e.reason };
    if (e instanceof Disconnected) {
      const tg = performance.now();
      const gap = locateGap(
        w,
        e.usable,
        e.startSpan,
        e.goals,
        inp.gate ?? null,
        inp.sink?.counters,
        e.reached,
      );
      if (inp.sink) inp.sink.gapMs += performance.now() - tg;
      if (e.deckMessage !== null) {
        throw new PlanFailure("target_deck_unreachable", e.deckMessage, { gap });
      }
      throw new PlanFailure("route_disconnected", "不连通", { gap });
    }
    throw e;
  } finally {
    // Work done before an escalation or a failure counts too.
    (router as Router | null)?.flushSearch();
  }
}

class Router {
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
   * The whole window as a `lim`: a sentinel, never read ({@link Router.within} returns the mask
   * itself for it), so it costs no byte per cell (issue 36; it was an all-ones window mask).
   */
  readonly all: Uint8Array = new Uint8Array(0);
  /** The mask of the last span search run (solve), or null before the first. */
  private lastRunMask: Uint8Array | null = null;
  /** core cells with a usable span (lazily: only the core retry needs it). */
  private coreU: Uint8Array | null = null;
  /** The plan's counters (a throw-away set without a sink). */
  readonly cnt: WorkCounters;
  /** Which pass the SpanAstar runs count for. */
  phase: "topology" | "geometry" = "topology";
  /** Router set-up time (constructor), ms. */
  setupMs = 0;
  private flushed = { runs: 0, pops: 0, expanded: 0, sights: 0, reparents: 0 };

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

  route(): RouteOk {
    const t0 = performance.now();
    const { w, inp } = this;
    if (this.tentative && this.limit <= 0) throw new Escalate(Reason.EdgeNear);
    this.pickAnchors(this.cw3);
    if (this.tentative && (this.sa.dist / kCS >= this.limit || this.ga.dist / kCS >= this.limit)) {
      throw new Escalate(Reason.SnapEdge);
    }
    // Baseline: the whole window, unit price, may fall back to cells (基线).
    const base = this.solve(this.all, null, undefined, true);
    if (!base) {
      if (this.tentative) throw new Escalate(Reason.BaselineNone);
      // 断开处: located before the error is written, once the router's buffers are free again
      // (routeWindow): the floods reuse the search state's bytes instead of stacking on them.
      const goals = this.goalSpans();
      const deck = inp.goalDeckY !== null ? this.deckMessage(inp.goalDeckY) : null;
      // The last span search the baseline ran is the one on the core cells with a usable span
      // (solve: walk, then core, then the cell-level fallback, which has its own buffers).
      const reached = this.lastRunMask !== null && this.lastRunMask === this.coreU
        ? this.search.reached()
        : null;
      throw new Disconnected(this.usable.slice(), this.startSpan, goals, deck, reached);
    }
    const baseReach = base.spanLevel ? this.cellsWithUsable(base.mask) : base.mask;
    // The topology pass runs after a cell-level baseline too (on the re-picked anchors); when it
    // finds nothing the baseline's path stands.
    const topo = this.topology(base);
    const final: Solved = topo ?? base;
    const topologyCells = (topo ?? base).cells.length;
    const t1 = performance.now();
    this.flushSearch();
    this.phase = "geometry";
    let chain: Int32Array | null = null;
    let last: Solved = final;
    if (topo && topo.spans) {
      const geo = this.geometry(topo);
      if (geo && geo.chain && geo.chain.length >= 2) (chain = geo.chain), (last = geo);
    }
    // Reference build (switch cellPullBlockersOnly off): its geometry pass also runs on a
    // cell-level path and fails (no span path exists), but the corridor it built first leaves
    // its open area solidc, which the route mask tm of the pull then starts from (拉直的输入).
    if (!topo && !base.spanLevel && inp.cellPullBlockersOnly === false) {
      this.solidc = corridor(w.dist, w.nx, w.ny, final.cells).solidc;
    }
    const t2 = performance.now();
    const post = postProcess(w, {
      start: inp.start,
      goal: inp.goal,
      chain,
      path: final,
      lastMask: last.mask,
      solidc: this.solidc,
      accessCells: this.accessCells,
      mesh: inp.mesh ?? null,
      scaleX: inp.scaleX ?? 0,
      counters: this.cnt,
      landingMargin: inp.landingMargin !== false,
      cellPullRouteMask: inp.cellPullBlockersOnly === false,
      waypointStartHeight: inp.waypointStartHeight !== false,
      probe: inp.probe?.probe ?? null,
    });
    const t3 = performance.now();
    const gc = this.gCell[1] * this.nx + this.gCell[0];
    const inWin = this.gCell[0] >= 0 && this.gCell[1] >= 0 && this.gCell[0] < this.nx &&
      this.gCell[1] < this.ny;
    const goalSealed = inWin && this.walk[gc] === 1 && baseReach[gc] === 0;
    const center = (c: number): Pt => [
      (w.x0 + (c % this.nx) + 0.5) * kCS,
      (w.y0 + ((c / this.nx) | 0) + 0.5) * kCS,
    ];
    const result: RouteOk = {
      status: "ok",
      spans: final.spans,
      cells: final.cells,
      chain: chain ?? new Int32Array(0),
      cost: final.cost,
      snapStart: this.sa.dist,
      snapGoal: this.ga.dist,
      goalSealed,
      warnings: WARNING_ORDER.filter((x) => this.warnings.has(x)),
      points: [...final.cells].map(center),
      // Without a parent chain the per-cell path is what string pulling starts from.
      tautPoints: chain
        ? [...chain].map((s) => center(w.spans.cell[s]))
        : [...final.cells].map(center),
      topologyCells,
      topologyMs: t1 - t0,
      geometryMs: t2 - t1,
      post,
      otherMs: {},
    };
    result.otherMs = {
      route_setup: this.setupMs,
      ...post.otherMs,
      // Post-processing's own time outside its timed steps is the router's result time too.
      route_result: performance.now() - t3 + (t3 - t2) - post.totalMs,
    };
    return result;
  }

  /** Anchor cells, start span and goal set (掩膜与吸附锚点) on the cells of `m`. */
  pickAnchors(m: Uint8Array): void {
    const { inp } = this;
    const sa = inp.startDeckY !== null
      ? this.deckAnchor(m, this.sCell, inp.startDeckY)
      : nearestCell(m, this.nx, this.ny, this.sCell);
    const ga = inp.goalDeckY !== null
      ? this.deckAnchor(m, this.gCell, inp.goalDeckY)
      : nearestCell(m, this.nx, this.ny, this.gCell);
    if (!ga && inp.goalDeckY !== null) {
      if (this.tentative) throw new Escalate(Reason.DeckBlocked);
      throw new PlanFailure("target_deck_unreachable", Reason.DeckBlocked);
    }
    if (!sa || !ga) throw new PlanFailure("walk_mask_empty", "窗口里没有可吸附的格");
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

  /**
   * Topology pass (拓扑层): limw = clearance ≥ kClrPref ∪ medial ∪ access paths ∪ link chains of
   * the links the baseline used; multw; the whole window with a warning when the channel fails;
   * null → the baseline's path stands.
   */
  topology(base: Solved): Solved | null {
    const { w } = this, ncell = w.nx * w.ny, dist = w.dist;
    const limw = scratch.u8(ncell);
    for (let c = 0; c < ncell; c++) if (dist[c] >= kClrPref || w.medial[c]) limw[c] = 1;
    const chan0 = scratch.u8(ncell);
    for (let c = 0; c < ncell; c++) if (this.cw3[c] && dist[c] >= kClrPref) chan0[c] = 1;
    const chains = (acc: AccessSearch, links: Iterable<number>) => {
      for (const i of links) {
        for (const s of [w.links.fromSpan[i], w.links.toSpan[i]]) {
          const r = acc.run(this.cw3, dist, chan0, w.spans.cell[s], kLinkChainCost);
          if (r.kind === "path") { for (const c of r.cells) limw[c] = 1; }
        }
      }
    };
    // The access searches' state (20 B/cell) in a frame of its own: the price field and the
    // solves after it reuse those bytes. A run resets only the cells it touched, so a fresh
    // AccessSearch for the second chains below finds what this one would have.
    scratch.frame(() => {
      const acc = new AccessSearch(w.nx, w.ny, this.cnt);
      const limwTarget = and(limw, this.cw3, ncell);
      for (const a of [this.sa, this.ga]) {
        let r = acc.run(this.cw3, dist, chan0, a.cell);
        let toChan0 = true;
        if (r.kind === "none") {
          if (this.tentative) throw new Escalate(Reason.AccessNone);
          r = acc.run(this.cw3, dist, limwTarget, a.cell);
          toChan0 = false;
        }
        if (r.kind === "path") {
          if (this.tentative && r.cost / 100 >= this.limit) throw new Escalate(Reason.AccessEdge);
          for (const c of r.cells) limw[c] = 1;
          // Spec 拉直的输入 › 路线掩膜 tm step 2 takes both ends' access paths; the reference build
          // (switch limwAccessInRouteMask off) only those that reached chan0 — proto_level
          // random2 rnd_001/050/106 pull one cell off only so.
          if (!toChan0 && r.cells.length > 0) this.inp.probe?.probe.touch("limwAccessInRouteMask");
          if (toChan0 || this.inp.limwAccessInRouteMask !== false) {
            for (const c of r.cells) this.accessCells.push(c);
          }
        }
      }
      chains(acc, this.linksUsed(base));
    });
    const multw = priceField(dist, kMultwLo, kMultwHi);
    this.cnt["topology.price_cells"] += ncell;
    let p = this.solve(limw, multw, undefined, false);
    if (!p && w.links.n > 0 && !linked(w, and(w.core, limw, ncell), this.sa.cell, this.ga.cell)) {
      const all = Array.from({ length: w.links.n }, (_, i) => i);
      scratch.frame(() => chains(new AccessSearch(w.nx, w.ny, this.cnt), all));
      p = this.solve(limw, multw, undefined, false);
    }
    if (p) return p;
    if (this.tentative) throw new Escalate(Reason.ChannelNone);
    p = this.solve(this.all, multw, undefined, false);
    this.warnings.add(Warning.ChannelRetry);
    return p;
  }

  /** Indices of the window links whose two spans follow each other on the baseline path. */
  linksUsed(base: Solved): number[] {
    const out: number[] = [];
    const spans: Int32Array | null = base.spans;
    if (!spans) return out;
    const L = this.w.links;
    for (let k = 1; k < spans.length; k++) {
      const a: number = spans[k - 1], b: number = spans[k];
      const X = this.search.links, row = X.row(a);
      if (row < 0) continue;
      for (let q = X.start[row]; q < X.start[row + 1]; q++) {
        const i = X.order[q];
        if (L.toSpan[i] === b) {
          out.push(i);
          break;
        }
      }
    }
    return out;
  }

  /**
   * Geometry pass (几何层): the corridor band from the topology cells, the open area, Lazy
   * Theta* on limw ∧ band with mult and vis; outside tentative windows limw without the band;
   * null → the topology path stands.
   */
  geometry(topo: Solved): Solved | null {
    const { w } = this, ncell = w.nx * w.ny, nx = w.nx, ny = w.ny;
    const cor = corridor(w.dist, nx, ny, topo.cells), box = cor.box;
    this.solidc = cor.solidc;
    if (box) this.cnt["geometry.corridor_cells"] += (box.x1 - box.x0) * (box.y1 - box.y0);
    if (this.tentative && box) {
      // Band cells lie in the corridor's box: only there can one sit in the trust margin.
      const m = kTrustMargin;
      for (let y = box.y0; y < box.y1; y++) {
        for (let x = box.x0, c = y * nx + box.x0; x < box.x1; x++, c++) {
          if (!cor.band[c]) continue;
          if (x < m || y < m || x >= nx - m || y >= ny - m) throw new Escalate(Reason.CorridorEdge);
        }
      }
    }
    // The mask the topology pass succeeded on (the channel, or the whole window after its retry):
    // the golden routes follow this, not the bare channel limw, on every comparable leg.
    const limw = topo.mask;
    const vis = new Visibility(w, null, cor.solidc);
    const theta = {
      vis,
      relaxClosed: this.inp.relaxClosed === true,
      dropChord: this.inp.chordDropExclusion === false,
      probe: this.inp.probe ?? null,
    };
    // The band's search reads prices only on its mask, inside the corridor's box; the fallback
    // on limw prices the whole window.
    const bandPrice = priceField(w.dist, kMultLo, kMultHi, {
      nx,
      box: box ?? { x0: 0, y0: 0, x1: 0, y1: 0 },
    });
    if (box) this.cnt["geometry.price_cells"] += (box.x1 - box.x0) * (box.y1 - box.y0);
    const p = this.solve(and(limw, cor.band, ncell), bandPrice, theta, false, false);
    if (p) return p;
    if (this.tentative) throw new Escalate(Reason.CorridorNone);
    this.cnt["geometry.price_cells"] += ncell;
    return this.solve(limw, priceField(w.dist, kMultLo, kMultHi), theta, false, false);
  }

  deckAnchor(m: Uint8Array, p: [number, number], deck: number): Anchor | null {
    const sp = this.w.spans, nx = this.nx;
    let best = -1, bd = Infinity, bh = Infinity;
    for (let s = 0; s < sp.h.length; s++) {
      if (!this.usable[s] || !m[sp.cell[s]]) continue;
      const dh = Math.abs(sp.h[s] - deck);
      if (!(dh <= kDeckBand)) continue;
      const c = sp.cell[s], dx = (c % nx) - p[0], dy = ((c / nx) | 0) - p[1];
      const d = dx * dx + dy * dy;
      if (d < bd || (d === bd && dh < bh)) (bd = d), (bh = dh), (best = c);
    }
    return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
  }

  /** `目标面不可达 (声明 %.2f, 终点格里的面 无|[h, …])` (maaend-runlogs.md §2). */
  deckMessage(deck: number): string {
    const [a, b] = spanRangeOf(this.w.spans, this.ga.cell);
    const hs: string[] = [];
    for (let s = a; s < b; s++) if (this.usable[s]) hs.push(cFixed(this.w.spans.h[s], 2));
    return `目标面不可达 (声明 ${cFixed(deck, 2)}, 终点格里的面 ${
      hs.length ? `[${hs.join(", ")}]` : "无"
    })`;
  }
}

/**
 * nearestCell: the mask cell with the smallest squared cell distance, row-major first. Rows are
 * visited outward from p and the scan stops once a row's dy² exceeds the best distance (no cell
 * there can equal or beat it); ties keep the lowest cell index, as a row-major scan would.
 */
export function nearestCell(
  mask: Uint8Array,
  nx: number,
  ny: number,
  p: [number, number],
): Anchor | null {
  let best = -1, bd = Infinity;
  const scanRow = (y: number) => {
    const dy = y - p[1], row = y * nx;
    for (let x = 0; x < nx; x++) {
      if (!mask[row + x]) continue;
      const dx = x - p[0], d = dx * dx + dy * dy;
      if (d < bd || (d === bd && row + x < best)) (bd = d), (best = row + x);
    }
  };
  let lo = Math.min(Math.floor(p[1]), ny - 1), hi = Math.max(Math.floor(p[1]) + 1, 0);
  while (lo >= 0 || hi < ny) {
    const elo = lo - p[1], ehi = hi - p[1];
    const dlo = lo >= 0 ? elo * elo : Infinity, dhi = hi < ny ? ehi * ehi : Infinity;
    if (dlo > bd && dhi > bd) break;
    if (dlo <= dhi) scanRow(lo--);
    else scanRow(hi++);
  }
  return best < 0 ? null : { cell: best, dist: Math.sqrt(bd) * kCS };
}

/** Start span: nearest to h0 (`|h ⊖ f32(h0)|`), or to the deck (≤ 2 m). */
function pickSpan(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  h0: number,
): number {
  const [a, b] = spanRangeOf(w.spans, cell);
  let best = -1, bd = Infinity;
  const hf = Math.fround(h0);
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = deck !== null
      ? Math.abs(w.spans.h[s] - deck)
      : Math.abs(Math.fround(w.spans.h[s] - hf));
    if (deck !== null && !(d <= kDeckBand)) continue;
    if (d < bd) (bd = d), (best = s);
  }
  return best;
}

/**
 * Goal set: every usable span of the anchor cell; with a deck only the nearest within 2 m. `out`
 * covers the cell's span range (`out[s − a]` for span s).
 */
function markGoalSet(
  w: WindowGrid,
  usable: Uint8Array,
  cell: number,
  deck: number | null,
  out: Uint8Array,
): void {
  const [a, b] = spanRangeOf(w.spans, cell);
  if (deck === null) {
    for (let s = a; s < b; s++) if (usable[s]) out[s - a] = 1;
    return;
  }
  let best = -1, bd = Infinity;
  for (let s = a; s < b; s++) {
    if (!usable[s]) continue;
    const d = Math.abs(w.spans.h[s] - deck);
    if (d <= kDeckBand && d < bd) (bd = d), (best = s);
  }
  if (best >= 0) out[best - a] = 1;
}
