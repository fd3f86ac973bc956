/**
 * Assemble (spec 后处理 › 端点拼接, formulas.md #128–#129): the raw endpoints attached, middle
 * points within 0.4 px of either raw endpoint dropped, consecutive duplicates (≤ 1e-9 px) removed,
 * and — for a parent-chain input only — collinear points removed
 * (`|(b − a) × (c − a)| ≤ 1e-9 · max(1, |c − a|)`, a the last kept point) — except the two ends
 * of a ledge drop.
 * @module
 */

import { kClimb, kCS } from "../../../grid/constants.ts";
import type { Pt } from "../../types.ts";

/** Distance from a raw endpoint under which a middle point is dropped, px. */
export const kEndSnap = 0.4;

/**
 * True when pulled point f is the take-off or the landing of a ledge drop: the step into or out
 * of it goes to one of the 8 neighbour cells and falls more than kClimb (向下一步 rule 2). Drops
 * are single steps of the parent chain (no chord over a drop, formulas.md #111) and of the pull
 * (no chord contains a drop, 高度连续检查). Off-mesh links are no drops: a vertical link (both
 * ends in one cell, as on nav_test) is not a neighbour step; a link between neighbouring cells
 * falling more than kClimb would be taken for one (none in the example or golden packs).
 */
function dropEnd(pulled: readonly Pt[], hs: readonly number[] | null, f: number): boolean {
  if (hs === null || f < 0) return false;
  const step = (a: number, b: number) => {
    const cheb = Math.max(
      Math.abs(pulled[a][0] - pulled[b][0]),
      Math.abs(pulled[a][1] - pulled[b][1]),
    );
    return hs[a] - hs[b] > kClimb && Math.abs(cheb - kCS) <= 1e-9;
  };
  return (f > 0 && step(f - 1, f)) || (f + 1 < hs.length && step(f, f + 1));
}

/**
 * The assembled polyline and, per point, the index of the pulled point it came from (−1 ends).
 * `pulledH` (search height per pulled point, or null) marks the drops whose ends collinear
 * removal keeps: the spec's reason for removing b ("a → b 和 b → c 首尾相接正好就是 a → c,删掉 b
 * 折线形状不变", 端点拼接) holds for the shape but not for the heights. Merged, the walk to the
 * take-off and the fall become one segment: a 1–3 m step down on the way (walkable, but beyond
 * the 1.0 m 找台沿 follows) is then taken for the ledge, and the landing margin measures from the
 * wrong surface (found by tests/plan_drop_property_test.ts); a landing merged into the goal
 * loses its drop record ("首末两点不当落点").
 */
export function assemble(
  start: Pt,
  goal: Pt,
  pulled: readonly Pt[],
  chainInput: boolean,
  pulledH: readonly number[] | null = null,
): { points: Pt[]; from: number[] } {
  const d = (a: Pt, b: Pt) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2);
  let pts: Pt[] = [start], from = [-1];
  pulled.forEach((p, k) => {
    if (d(p, start) <= kEndSnap || d(p, goal) <= kEndSnap) return;
    pts.push(p), from.push(k);
  });
  pts.push(goal), from.push(-1);
  // Duplicates.
  const dp: Pt[] = [pts[0]], df = [from[0]];
  for (let k = 1; k < pts.length; k++) {
    if (d(pts[k], dp[dp.length - 1]) <= 1e-9) continue;
    dp.push(pts[k]), df.push(from[k]);
  }
  pts = dp, from = df;
  if (!chainInput || pts.length < 3) return { points: pts, from };
  const cp: Pt[] = [pts[0]], cf = [from[0]];
  for (let k = 1; k < pts.length - 1; k++) {
    const a = cp[cp.length - 1], b = pts[k], c = pts[k + 1];
    const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (Math.abs(cross) <= 1e-9 * Math.max(1, d(c, a)) && !dropEnd(pulled, pulledH, from[k])) {
      continue;
    }
    cp.push(b), cf.push(from[k]);
  }
  cp.push(pts[pts.length - 1]), cf.push(from[from.length - 1]);
  return { points: cp, from: cf };
}
