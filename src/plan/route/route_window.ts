/**
 * routeWindow (spec 两段搜索): the search inside one window — the anchor picks (anchors.ts), the
 * solver with its fallback chain and the baseline (solver.ts, 求解器 / 基线), the topology pass
 * (topology_pass.ts, 拓扑层), the geometry pass (geometry_pass.ts, 几何层), post-processing and
 * the goal-sealed check (收尾检查). This file orders them and turns their exits into the outcome:
 * an escalation by its spec reason (放大窗口的原因 / maaend-runlogs.md §2), a failure with the gap
 * location, or the route with the geometry pass's parent chain (taut chain), the topology cells and
 * the warnings.
 * @module
 */

import { kCS } from "../../grid/constants.ts";
import type { WindowGrid } from "../window/build_window.ts";
import { corridor } from "./search/corridor.ts";
import { postProcess } from "./post/post_process.ts";
import { locateGap } from "../diagnostics/gap.ts";
import { PlanFailure, type Pt } from "../types.ts";
import { scratch } from "../scratch.ts";
import { deckMessage } from "./anchors.ts";
import { Solver } from "./solver.ts";
import { topologyPass } from "./topology_pass.ts";
import { geometryPass } from "./geometry_pass.ts";
import {
  Escalate,
  Reason,
  type RouteInput,
  type RouteOk,
  type RouteOutcome,
  type Solved,
  WARNING_ORDER,
} from "./route_types.ts";

export { Reason, Warning } from "./route_types.ts";
export type { RouteInput, RouteOk, RouteOutcome, RouteSink } from "./route_types.ts";

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

/** Runs the search in a built window. Throws PlanFailure for a failure in the window. */
export function routeWindow(w: WindowGrid, inp: RouteInput): RouteOutcome {
  let router: Solver | null = null;
  try {
    // The router's masks and search state are window-sized scratch (scratch.ts), reused by the
    // next window; the outcome holds only arrays made for it (paths, post-processing).
    return scratch.frame(() => {
      const t = performance.now();
      router = new Solver(w, inp);
      router.setupMs = performance.now() - t;
      return route(router);
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
    (router as Solver | null)?.flushSearch();
  }
}

/**
 * The search of one window, in the spec's order: anchors (掩膜与吸附锚点), the baseline (基线),
 * the topology pass, the geometry pass, post-processing and the goal-sealed check (收尾检查).
 */
function route(sol: Solver): RouteOk {
  const t0 = performance.now();
  const { w, inp } = sol;
  if (sol.tentative && sol.limit <= 0) throw new Escalate(Reason.EdgeNear);
  sol.pickAnchors(sol.cw3);
  if (sol.tentative && (sol.sa.dist / kCS >= sol.limit || sol.ga.dist / kCS >= sol.limit)) {
    throw new Escalate(Reason.SnapEdge);
  }
  // Baseline: the whole window, unit price, may fall back to cells (基线).
  const base = sol.solve(sol.all, null, undefined, true);
  if (!base) {
    if (sol.tentative) throw new Escalate(Reason.BaselineNone);
    // 断开处: located before the error is written, once the router's buffers are free again
    // (routeWindow): the floods reuse the search state's bytes instead of stacking on them.
    const goals = sol.goalSpans();
    const deck = inp.goalDeckY !== null
      ? deckMessage(w, sol.usable, sol.ga.cell, inp.goalDeckY)
      : null;
    // The last span search the baseline ran is the one on the core cells with a usable span
    // (solve: walk, then core, then the cell-level fallback, which has its own buffers).
    const reached = sol.lastRunMask !== null && sol.lastRunMask === sol.coreU
      ? sol.search.reached()
      : null;
    throw new Disconnected(sol.usable.slice(), sol.startSpan, goals, deck, reached);
  }
  const baseReach = base.spanLevel ? sol.cellsWithUsable(base.mask) : base.mask;
  // The topology pass runs after a cell-level baseline too (on the re-picked anchors); when it
  // finds nothing the baseline's path stands.
  const topo = topologyPass(sol, base);
  const final: Solved = topo ?? base;
  const topologyCells = (topo ?? base).cells.length;
  const t1 = performance.now();
  sol.flushSearch();
  sol.phase = "geometry";
  let chain: Int32Array | null = null;
  let last: Solved = final;
  if (topo && topo.spans) {
    const geo = geometryPass(sol, topo);
    if (geo && geo.chain && geo.chain.length >= 2) (chain = geo.chain), (last = geo);
  }
  // Reference build (switch cellPullBlockersOnly off): its geometry pass also runs on a
  // cell-level path and fails (no span path exists), but the corridor it built first leaves
  // its open area solidc, which the route mask tm of the pull then starts from (拉直的输入).
  if (!topo && !base.spanLevel && inp.cellPullBlockersOnly === false) {
    sol.solidc = corridor(w.dist, w.nx, w.ny, final.cells).solidc;
  }
  const t2 = performance.now();
  const post = postProcess(w, {
    start: inp.start,
    goal: inp.goal,
    chain,
    path: final,
    lastMask: last.mask,
    solidc: sol.solidc,
    accessCells: sol.accessCells,
    mesh: inp.mesh ?? null,
    scaleX: inp.scaleX ?? 0,
    counters: sol.cnt,
    landingMargin: inp.landingMargin !== false,
    cellPullRouteMask: inp.cellPullBlockersOnly === false,
    waypointStartHeight: inp.waypointStartHeight !== false,
    probe: inp.probe?.probe ?? null,
  });
  const t3 = performance.now();
  const gc = sol.gCell[1] * sol.nx + sol.gCell[0];
  const inWin = sol.gCell[0] >= 0 && sol.gCell[1] >= 0 && sol.gCell[0] < sol.nx &&
    sol.gCell[1] < sol.ny;
  const goalSealed = inWin && sol.walk[gc] === 1 && baseReach[gc] === 0;
  const center = (c: number): Pt => [
    (w.x0 + (c % sol.nx) + 0.5) * kCS,
    (w.y0 + ((c / sol.nx) | 0) + 0.5) * kCS,
  ];
  const result: RouteOk = {
    status: "ok",
    spans: final.spans,
    cells: final.cells,
    chain: chain ?? new Int32Array(0),
    cost: final.cost,
    snapStart: sol.sa.dist,
    snapGoal: sol.ga.dist,
    goalSealed,
    warnings: WARNING_ORDER.filter((x) => sol.warnings.has(x)),
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
    route_setup: sol.setupMs,
    ...post.otherMs,
    // Post-processing's own time outside its timed steps is the router's result time too.
    route_result: performance.now() - t3 + (t3 - t2) - post.totalMs,
  };
  return result;
}
