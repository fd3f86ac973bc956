/**
 * Assemble (spec 后处理 › 端点拼接, formulas.md #128–#129): the raw endpoints attached, middle
 * points within 0.4 px of either raw endpoint dropped, consecutive duplicates (≤ 1e-9 px) removed,
 * and — for a parent-chain input only — collinear points removed
 * (`|(b − a) × (c − a)| ≤ 1e-9 · max(1, |c − a|)`, a the last kept point).
 * @module
 */

import type { Pt } from "../../types.ts";

/** Distance from a raw endpoint under which a middle point is dropped, px. */
export const kEndSnap = 0.4;

/** The assembled polyline and, per point, the index of the pulled point it came from (−1 ends). */
export function assemble(
  start: Pt,
  goal: Pt,
  pulled: readonly Pt[],
  chainInput: boolean,
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
    if (Math.abs(cross) <= 1e-9 * Math.max(1, d(c, a))) continue;
    cp.push(b), cf.push(from[k]);
  }
  cp.push(pts[pts.length - 1]), cf.push(from[from.length - 1]);
  return { points: cp, from: cf };
}
