/**
 * SpanAstar (spec 两段搜索 › 求解器, 拓扑层, 几何层, Lazy Theta*): A* over the window's spans with
 * 8 neighbours, no corner cutting (a diagonal needs both orthogonal cells in the mask), step bans,
 * RiseOk (with the FallGate) and the off-mesh links. A step costs
 * `f32(w·0.5) ⊗ (m(u) ⊕ m(v))` (formulas.md #106; unit price: 1 and 1.41421354), a link
 * `f32(max(c,1)) ⊗ f32(hypot)`; the heuristic is the Euclidean cell distance to the goal cell.
 * Ties pop by span index. Updates need an improvement of more than 1e-12; stale entries
 * (f > g + h + 1e-9) are skipped.
 *
 * With `theta` the search runs as Lazy Theta* (formulas.md #111–#113): chords to the grandparent
 * only where both prices are 1, none over drops or links, the line of sight checked on pop with a
 * reparent from closed neighbours, and closed spans never relaxed (#6214).
 *
 * `relaxClosed` restores the relaxation of the C++ build before #6214 (formulas.md #112, "Ref
 * differs"), the build the golden routes (`tests/fixtures/oracle/`) come from: closed spans are
 * relaxed too (eight neighbours and link ends), a closed span's g and parent change but it is
 * never popped again, so its new chord is never checked — the flaw #6214 fixed. Its `step`
 * pointer stays as it was when it closed (the per-cell path would otherwise loop); the chain
 * is what the geometry pass hands on. Only the golden test uses it.
 * @module
 */

import { kClimb } from "../../../grid/constants.ts";
import {
  dropSeamBlocked,
  type FallGate,
  RISE_FLAT_MAX,
  RISE_NEVER_ABOVE,
  riseOk,
} from "../../../grid/rise_ok.ts";
import { occIndex, occRankOf, occupiedBit } from "../../../grid/span_grid.ts";
import type { WindowGrid } from "../../window/window_grid.ts";
import type { Visibility } from "../visibility/visibility.ts";
import { KeyIdHeap } from "./heap.ts";
import { scratch } from "../../scratch.ts";
import { LinkIndex } from "./link_index.ts";
import { DX, DY, stepBannedK } from "../../../grid/step_bans.ts";
import type { SwitchProbe } from "../../profile.ts";

export { DX, DY, stepBanned, stepBannedK } from "../../../grid/step_bans.ts";

/**
 * SetVertex's scan (formulas.md #113): the candidate parents w = u + (east, west, south, north,
 * then the diagonals south-east, south-west, north-west, north-east), given as the neighbour k of
 * DX/DY of the step w → u. An equal-cost pick goes to the first; the spec names no order, the
 * reference build's is this one (the L-shaped ties of the oracle sets, docs/profiles.md).
 */
const SET_VERTEX_STEPS = [2, 0, 3, 1, 6, 7, 4, 5];

/** Orthogonal step weight as f32(w·0.5). */
const HALF_ORTH = Math.fround(0.5);
/** Diagonal step weight as f32(√2·0.5). */
const HALF_DIAG = Math.fround(Math.SQRT2 * 0.5);

/** Result of one search. */
export interface SpanPath {
  /** Spans from start to goal (cell steps; for Lazy Theta* the chain's spans, see `chain`). */
  spans: Int32Array;
  /** Cost of the goal. */
  cost: number;
  /** Lazy Theta*: the parent chain from start to goal (span indices). */
  chain?: Int32Array;
}

/** Lazy Theta* inputs. */
export interface ThetaOptions {
  /** The line-of-sight view (vis). */
  vis: Visibility;
  /** Relax closed spans as the build before #6214 did (see the module note); default false. */
  relaxClosed?: boolean;
  /**
   * Chords after a drop are allowed, as in the reference build (formulas.md #111 "Ref differs",
   * profile switch `chordDropExclusion` off); default false: only link arrivals stop a chord.
   */
  dropChord?: boolean;
  /**
   * Switch probes (src/plan/profile.ts SwitchProbe): `skipClosed` true = probe the #6214 skip
   * (closed spans go through the relaxation's tests and touch it where relaxation would write);
   * `chordDropExclusion` is probed whenever `dropChord` is off.
   */
  probe?: { probe: SwitchProbe; skipClosed: boolean } | null;
}

/** Search options. */
export interface SpanSearchOptions {
  /** Cell mask (1 = allowed). */
  mask: Uint8Array;
  /** Usable spans (region ∧ reach domain). */
  usable: Uint8Array;
  /** Per-cell price (f32), or null for the unit price. */
  price: Float32Array | null;
  /** Start span. */
  start: number;
  /**
   * Goal spans: span s is a goal when `goal[s − goalFirst]` is 1. The router passes only the goal
   * cell's span range (its goal set lies in one cell): a byte per window span was 1 B per span of
   * the route's frame for a handful of spans (issue 36).
   */
  goal: Uint8Array;
  /** Span index of `goal[0]` (default 0: one byte per window span). */
  goalFirst?: number;
  /** Goal cell (window cell index), for the heuristic. */
  goalCell: number;
  /** Abandon when a popped f reaches this (early abandon); Infinity for none. */
  abandonAt?: number;
  /** Run as Lazy Theta*. */
  theta?: ThetaOptions;
  /** Collider check of ledge drops (FallGate), or null. */
  gate?: FallGate | null;
}

/** The straight-line heuristic from window cell c to the goal cell (gx, gy). */
function heuristic(c: number, nx: number, gx: number, gy: number): number {
  const dx = (c % nx) - gx, dy = ((c / nx) | 0) - gy;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Per neighbour k of DX/DY: the column of cell u + (DX[k], DY[k]), or −1 (neighbourColumns). */
const NJ = new Int32Array(8);
/** Per neighbour k: the opposite neighbour (−DX[k], −DY[k]). */
const OPP = [2, 3, 0, 1, 6, 7, 4, 5];

/**
 * Fills {@link NJ} with the occupied-column index (occIndex) of each 8-neighbour of the cell
 * (x, y) = cu, column ju, or −1 (outside the window or empty). One rank per neighbour row
 * and bit tests for the rest, instead of up to eight occIndex popcounts per expanded span.
 */
function neighbourColumns(
  sp: WindowGrid["spans"],
  cu: number,
  ju: number,
  x: number,
  y: number,
  nx: number,
  ny: number,
): void {
  const left = x > 0, right = x + 1 < nx;
  NJ[0] = right && occupiedBit(sp, cu + 1) ? ju + 1 : -1;
  NJ[2] = left && occupiedBit(sp, cu - 1) ? ju - 1 : -1;
  if (y + 1 < ny) neighbourRow(sp, cu + nx, left, right, 5, 1, 4);
  else NJ[5] = NJ[1] = NJ[4] = -1;
  if (y > 0) neighbourRow(sp, cu - nx, left, right, 6, 3, 7);
  else NJ[6] = NJ[3] = NJ[7] = -1;
}

/** The columns of cells c − 1, c, c + 1 of one row into NJ[kl], NJ[km], NJ[kr]. */
function neighbourRow(
  sp: WindowGrid["spans"],
  c: number,
  left: boolean,
  right: boolean,
  kl: number,
  km: number,
  kr: number,
): void {
  let r: number;
  if (left) {
    r = occRankOf(sp, c - 1);
    const o = occupiedBit(sp, c - 1);
    NJ[kl] = o ? r : -1;
    r += o;
  } else {
    NJ[kl] = -1;
    r = occRankOf(sp, c);
  }
  const o = occupiedBit(sp, c);
  NJ[km] = o ? r : -1;
  NJ[kr] = right && occupiedBit(sp, c + 1) ? r + o : -1;
}

/** Reusable work buffers of a window's searches. */
export class SpanSearch {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly step: Int32Array;
  private readonly jump: Uint8Array;
  /**
   * Per-span run stamp instead of clearing g and a closed flag before every run (a window's
   * searches run many times over millions of spans): `mark ≥ epoch` ⇔ g is set in this run,
   * `mark = epoch + 1` ⇔ closed. One byte, as dense as the closed flags it replaces; it is
   * cleared once every 126 runs, when the epoch wraps.
   */
  private readonly mark: Uint8Array;
  private epoch = 0;
  /**
   * The span whose neighbour columns NJ holds from SetVertex (checkSight), or −1: the expansion
   * of that span follows at once and reuses them. Reset by every run (NJ is module-wide).
   */
  private njSpan = -1;
  private readonly heap = new KeyIdHeap(4096);
  /** Links by source span (table order kept within a source). */
  readonly links: LinkIndex;
  /** Set when the last search stopped by the abandon threshold. */
  abandoned = false;
  /** Work so far, summed over runs (the router's counters read it): runs made. */
  runs = 0;
  /** Heap pops (stale and closed entries included). */
  pops = 0;
  /** Spans expanded (closed). */
  expanded = 0;
  /** Lazy Theta* sight checks on pop. */
  sights = 0;
  /** Sight checks that failed (SetVertex looked for a closed neighbour). */
  reparents = 0;

  constructor(readonly win: WindowGrid) {
    const n = win.spans.h.length;
    // Window-sized: scratch when a frame is open (routeWindow), fresh otherwise (scratch.ts).
    this.g = scratch.f64(n);
    this.parent = scratch.i32(n);
    this.step = scratch.i32(n);
    this.jump = scratch.u8(n);
    this.mark = scratch.u8(n);
    this.links = new LinkIndex(win.links.fromSpan, win.links.n, n);
  }

  /** Runs one search; null when the goal cannot be reached (or the search was abandoned). */
  run(o: SpanSearchOptions): SpanPath | null {
    const w = this.win, sp = w.spans, nx = w.nx;
    const { g, parent, step, jump, mark, heap } = this;
    const theta = o.theta;
    this.epoch += 2;
    if (this.epoch > 252) (mark.fill(0)), (this.epoch = 2);
    const E = this.epoch, CLOSED = E + 1;
    heap.clear();
    this.abandoned = false;
    this.njSpan = -1;
    const gx = o.goalCell % nx, gy = (o.goalCell / nx) | 0;
    const goal = o.goal, goalFirst = o.goalFirst ?? 0, goalLen = goal.length;
    const abandonAt = o.abandonAt ?? Infinity;
    g[o.start] = 0;
    mark[o.start] = E;
    parent[o.start] = -1;
    step[o.start] = -1;
    jump[o.start] = 0;
    heap.push(heuristic(sp.cell[o.start], nx, gx, gy), o.start);
    // Work counters: locals, added to the totals once per run.
    let pops = 0, expanded = 0, sights = 0;
    this.runs++;
    while (heap.size > 0) {
      // The heap's pop written out (locals; the loop runs once per pop): take the root, sift
      // the last entry down; order (f, span index) as KeyIdHeap's.
      const K = heap.keys, I = heap.ids;
      const f = K[0], u = I[0];
      const n = --heap.size;
      if (n > 0) {
        const lk = K[n], li = I[n];
        let i = 0;
        for (;;) {
          let c = 2 * i + 1;
          if (c >= n) break;
          let ck = K[c], ci = I[c];
          if (c + 1 < n) {
            const k2 = K[c + 1], i2 = I[c + 1];
            if (k2 < ck || (k2 === ck && i2 < ci)) (c++), (ck = k2), (ci = i2);
          }
          if (lk < ck || (lk === ck && li < ci)) break;
          K[i] = ck;
          I[i] = ci;
          i = c;
        }
        K[i] = lk;
        I[i] = li;
      }
      pops++;
      if (mark[u] === CLOSED) continue;
      const cu = sp.cell[u];
      const y = (cu / nx) | 0, x = cu - y * nx;
      const hx = x - gx, hy = y - gy;
      if (f > g[u] + Math.sqrt(hx * hx + hy * hy) + 1e-9) continue;
      if (theta && parent[u] >= 0 && !jump[u]) {
        sights++;
        this.checkSight(u, o);
      }
      const gk = u - goalFirst;
      if (gk >= 0 && gk < goalLen && goal[gk]) {
        this.addWork(pops, expanded, sights);
        return this.result(u, theta !== undefined);
      }
      if (f >= abandonAt) {
        this.abandoned = true;
        this.addWork(pops, expanded, sights);
        return null;
      }
      mark[u] = CLOSED;
      expanded++;
      this.expand(u, o, E, gx, gy);
    }
    this.addWork(pops, expanded, sights);
    return null;
  }

  /**
   * The spans the last run reached (pushed at least once), one byte each (1 = reached): after a
   * run that failed, every span it can reach from its start (the gap location reuses it).
   */
  reached(): Uint8Array {
    const mark = this.mark, E = this.epoch, out = new Uint8Array(mark.length);
    for (let s = 0; s < mark.length; s++) if (mark[s] >= E) out[s] = 1;
    return out;
  }

  private addWork(pops: number, expanded: number, sights: number): void {
    this.pops += pops;
    this.expanded += expanded;
    this.sights += sights;
  }

  /**
   * Relaxes the neighbours and links of the popped span u (run's loop body). A method of its
   * own, called once per pop, so that V8 optimises it on entry: as inner loops of run, Maglev
   * compiled them on-stack (OSR) and deoptimised on every exit back to the pop loop — 24 000
   * "exit from OSR'd inner loop" deopts over the example replay (`--trace-deopt`), each followed
   * by a stretch of pops in the interpreter.
   */
  private expand(u: number, o: SpanSearchOptions, E: number, gx: number, gy: number): void {
    const w = this.win, sp = w.spans, nx = w.nx, ny = w.ny;
    const { g, parent, step, jump, mark, heap } = this;
    // The option and table reads hoisted out of the neighbour loops (the calls in there keep
    // V8 from hoisting them itself).
    const mask = o.mask, usable = o.usable, steps = w.steps;
    const H = sp.h, CS = sp.cs, CELL = sp.cell, snx = sp.nx;
    const price = o.price, theta = o.theta, gate = o.gate ?? null;
    // 1 = a closed span is still relaxed (pre-#6214); 0 = #6214's skip.
    const relaxClosed = theta?.relaxClosed ? 1 : 0;
    // 1 = a drop arrival may take a chord (reference build); 0 = formulas.md #111's exclusion.
    const dropChord = theta?.dropChord ? 1 : 0;
    // Switch probes: closed spans pass the entry test while #6214 is probed (relaxTest), and are
    // stopped before the write; a chord a drop arrival was denied, or a drop arrival written,
    // touches formulas.md #111's exclusion.
    const pr = theta?.probe ?? null, probing = pr !== null;
    const relaxTest = relaxClosed ||
        (pr !== null && pr.skipClosed && !pr.probe.has("skipClosed"))
      ? 1
      : 0;
    const probeDrop = probing && !dropChord;
    const CLOSED = E + 1;
    const unit = price === null;
    const cu = CELL[u];
    const y = (cu / nx) | 0, x = cu - y * nx;
    const hu = H[u], mu = unit ? 1 : price[cu], gu = g[u];
    const pu = parent[u];
    // The chord to the grandparent (Lazy Theta*) is possible from u at all.
    const chordFrom = theta !== undefined && pu >= 0 && !jump[u];
    const cp = chordFrom ? CELL[pu] : 0;
    const chordPrice = chordFrom && (unit || price[cp] <= 1);
    const cpy = (cp / nx) | 0, cpx = cp - cpy * nx;
    if (this.njSpan !== u) neighbourColumns(sp, cu, occIndex(sp, cu), x, y, nx, ny);
    for (let k = 0; k < 8; k++) {
      const dx = DX[k], dy = DY[k];
      const bx = x + dx, by = y + dy;
      if (bx < 0 || by < 0 || bx >= nx || by >= ny) continue;
      const cb = by * nx + bx;
      if (!mask[cb]) continue;
      if (k >= 4 && (!mask[y * nx + bx] || !mask[by * nx + x])) continue;
      if (stepBannedK(steps, cu, cb, k)) continue;
      const j = NJ[k];
      if (j < 0) continue;
      const mb = unit ? 1 : price[cb];
      // The heuristic of b, computed on the first push only (same value).
      let hb = -1;
      const cost = Math.fround(Math.fround(k < 4 ? HALF_ORTH : HALF_DIAG) * Math.fround(mu + mb));
      // A column's spans are in record order, (region, height) (spec 展开成栅格图层), not by
      // height: a lower span of this region may follow a higher one of another region, so every
      // span is looked at (a span past RISE_NEVER_ABOVE fails RiseOk and is skipped). The drops
      // (below −kClimb) share one seam look-ahead (向下一步: it depends on the departure height
      // and the direction only); when it blocks, RiseOk refuses them all.
      let seam = -1;
      for (let v = CS[j], ve = CS[j + 1]; v < ve; v++) {
        const hv = H[v];
        const dhv = hv - hu;
        if (dhv > RISE_NEVER_ABOVE) continue;
        const mv = mark[v], cv = mv === CLOSED ? 1 : 0;
        if (!usable[v] || cv > relaxTest) continue;
        const drop = dhv < -kClimb;
        const jmp = drop && !dropChord;
        let np = u, nd = gu + cost;
        if (chordPrice && !jmp && mb <= 1) {
          const ex = bx - cpx, ey = by - cpy;
          const cd = g[pu] + Math.sqrt(ex * ex + ey * ey);
          if (cd < nd - 1e-12) np = pu, nd = cd;
        } else if (jmp && probeDrop && chordPrice && mb <= 1) {
          const ex = bx - cpx, ey = by - cpy;
          if (g[pu] + Math.sqrt(ex * ex + ey * ey) < nd - 1e-12) {
            pr!.probe.touch("chordDropExclusion");
          }
        }
        // The improvement test before RiseOk (both must hold; RiseOk and the FallGate have no
        // effect on the search but their verdict): a step that would not improve v skips them.
        if (!(nd < (mv >= E ? g[v] : Infinity) - 1e-12)) continue;
        if (drop) {
          // RiseOk of a drop (rules 2–3): the seam look-ahead, then the FallGate, then yes.
          if (seam < 0) seam = dropSeamBlocked(sp, x, y, hu, dx, dy) ? 1 : 0;
          if (seam === 1) continue;
          if (gate !== null && gate(y * snx + x, by * snx + bx, hu, hv)) continue;
        } else if (dhv > RISE_FLAT_MAX && !riseOk(sp, x, y, hu, dx, dy, hv, gate)) {
          // In the flat band −kClimb ≤ dh ≤ RISE_FLAT_MAX RiseOk is yes without the grid.
          continue;
        }
        if (probing) {
          if (cv > relaxClosed) {
            pr!.probe.touch("skipClosed");
            continue;
          }
          if (jmp && probeDrop) pr!.probe.touch("chordDropExclusion");
        }
        g[v] = nd;
        if (!cv) (step[v] = u), (mark[v] = E);
        // Only Lazy Theta* reads parent and jump (plain A*'s parent is its step).
        if (theta) (parent[v] = np), (jump[v] = jmp ? 1 : 0);
        if (hb < 0) {
          const ex = bx - gx, ey = by - gy;
          hb = Math.sqrt(ex * ex + ey * ey);
        }
        // The heap's push written out: sift up from the end.
        if (heap.size === heap.keys.length) heap.grow();
        const K = heap.keys, I = heap.ids, key = nd + hb;
        let i = heap.size++;
        while (i > 0) {
          const p = (i - 1) >> 1, pk = K[p];
          if (pk < key || (pk === key && I[p] < v)) break;
          K[i] = pk;
          I[i] = I[p];
          i = p;
        }
        K[i] = key;
        I[i] = v;
      }
    }
    // Off-mesh links out of u: most spans have none, and one bit says so (link_index.ts).
    const L = this.links, row = L.row(u);
    if (row < 0) return;
    for (let q = L.start[row], qe = L.start[row + 1]; q < qe; q++) {
      const i = L.order[q], v = w.links.toSpan[i];
      const mv = mark[v], cv = mv === CLOSED ? 1 : 0;
      if (!usable[v] || cv > relaxTest || !mask[CELL[v]]) continue;
      const nd = gu + w.links.cost[i];
      if (nd < (mv >= E ? g[v] : Infinity) - 1e-12) {
        if (cv > relaxClosed) {
          pr!.probe.touch("skipClosed");
          continue;
        }
        g[v] = nd;
        if (!cv) (step[v] = u), (mark[v] = E);
        if (theta) (parent[v] = u), (jump[v] = 1);
        heap.push(nd + heuristic(CELL[v], nx, gx, gy), v);
      }
    }
  }

  /**
   * Lazy Theta*'s SetVertex (formulas.md #113): when u does not see its parent, take the closed
   * usable 8-neighbour w (corner cut, step ban w → u and RiseOk w → u as in the expansion) with
   * the smallest `g(w) + w_step·0.5·double(m(w) ⊕ m(u))`.
   */
  private checkSight(u: number, o: SpanSearchOptions): void {
    const w = this.win, sp = w.spans, nx = w.nx, ny = w.ny, p = this.parent[u];
    const cu = sp.cell[u], cp = sp.cell[p];
    const uy = (cu / nx) | 0, ux = cu - uy * nx, py = (cp / nx) | 0, px = cp - py * nx;
    // Cell centres in px (kCS = 0.25), written out: no closures on this per-pop path.
    const x0 = w.x0 + 0.5, y0 = w.y0 + 0.5;
    if (
      o.theta!.vis.ok(
        (x0 + px) * 0.25,
        (y0 + py) * 0.25,
        (x0 + ux) * 0.25,
        (y0 + uy) * 0.25,
        sp.h[p],
        sp.h[u],
      )
    ) return;
    this.reparents++;
    const price = o.price, mu = price === null ? 1 : price[cu], gate = o.gate ?? null;
    let best = Infinity, bw = -1, bs = -1;
    neighbourColumns(sp, cu, occIndex(sp, cu), ux, uy, nx, ny);
    this.njSpan = u;
    const mask = o.mask, usable = o.usable, mark = this.mark, CLOSED = this.epoch + 1;
    for (let n = 0; n < 8; n++) {
      // w sits at u − (dx, dy): the step w → u goes along (dx, dy).
      const k = SET_VERTEX_STEPS[n], dx = DX[k], dy = DY[k];
      const wx = ux - dx, wy = uy - dy;
      if (wx < 0 || wy < 0 || wx >= nx || wy >= ny) continue;
      const cw = wy * nx + wx;
      if (!mask[cw]) continue;
      if (k >= 4 && (!mask[wy * nx + ux] || !mask[uy * nx + wx])) continue;
      if (stepBannedK(w.steps, cw, cu, k)) continue;
      const j = NJ[OPP[k]];
      if (j < 0) continue;
      const ws = k < 4 ? 1 : Math.SQRT2, mw = price === null ? 1 : price[cw];
      for (let s = sp.cs[j]; s < sp.cs[j + 1]; s++) {
        if (mark[s] !== CLOSED || !usable[s]) continue;
        // The cost test first: RiseOk (not needed in the flat band, yes by rules 2–3) only
        // decides between candidates that would win.
        const c = this.g[s] + ws * 0.5 * Math.fround(mw + mu);
        if (!(c < best - 1e-12)) continue;
        const dh = sp.h[u] - sp.h[s];
        if (
          (dh < -kClimb || dh > RISE_FLAT_MAX) &&
          !riseOk(sp, wx, wy, sp.h[s], dx, dy, sp.h[u], gate)
        ) continue;
        best = c, bw = s, bs = s;
      }
    }
    if (bw >= 0) {
      this.g[u] = best;
      this.parent[u] = bw;
      this.step[u] = bs;
    }
  }

  private result(u: number, theta: boolean): SpanPath {
    const out: SpanPath = { spans: walkBack(this.step, u), cost: this.g[u] };
    if (theta) out.chain = walkBack(this.parent, u);
    return out;
  }
}

/**
 * The links from u back to the root (−1) of a pointer table, root first: counted, then written
 * from the end (no growing array, reverse and `Int32Array.from` per found path — those took as
 * long as the SetVertex checks over nav_test's random legs, a `--cpu-prof`, issue 57).
 */
function walkBack(link: Int32Array, u: number): Int32Array {
  let n = 0;
  for (let s = u; s >= 0; s = link[s]) n++;
  const out = new Int32Array(n);
  for (let s = u; s >= 0; s = link[s]) out[--n] = s;
  return out;
}
