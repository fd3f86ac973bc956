/**
 * The corner-point funnel (拐角点法) of the navigation-mesh note (003_a247bdbd4df7a136.txt,
 * steps (1)–(6)); the same algorithm is the "Simple Stupid Funnel" of the main spec's 演进 table
 * (generation 2). Input: a start, a goal and the corridor's exit edges (穿出边) in order, each
 * with its left and right point (左点 / 右点, from the polygons' counter-clockwise vertex order:
 * leaving a CCW polygon across its edge a → b, b is on the left and a on the right).
 *
 * (2) From the apex (the start) draw lineLeft to the first exit edge's left point and lineRight
 *     to its right point.
 * (3) For the next exit edge: a new left point between lineLeft and lineRight moves lineLeft to
 *     it (the funnel narrows); the same for the right point and lineRight.
 * (4) A new point outside the funnel on its own side leaves its line as it is.
 * (5) A new point beyond the other line (a right point left of lineLeft, a left point right of
 *     lineRight) closes the funnel: the end of that other line is a corner point. It becomes the
 *     apex and the scan restarts at the exit edge after the one that corner came from.
 * (6) Repeat to the goal, which is the last, degenerate exit edge (goal, goal).
 *
 * Points on a line count as inside (the funnel narrows to them), so shared fan vertices and
 * collinear edges go through; the result is the Euclidean shortest path inside the corridor.
 * @module
 */

/** A point, px. */
export type XY = readonly [number, number];

/** One exit edge of the corridor. */
export interface Portal {
  /** Left point (左点). */
  left: XY;
  /** Right point (右点). */
  right: XY;
  /** Caller's id of the left point (e.g. a vertex index), reported with a corner. */
  leftId?: number;
  /** Caller's id of the right point. */
  rightId?: number;
}

/** What one funnel step did, for tests and debug drawing (the note's steps). */
export interface FunnelEvent {
  /** Exit edge index (0-based into the portals; `portals.length` is the goal). */
  portal: number;
  /** Which point of the exit edge. */
  side: "left" | "right";
  /** `narrow`: the line moved to the point (3); `keep`: the point is outside, no change (4);
   * `corner`: the point crossed the other line, whose end became a corner (5). */
  action: "narrow" | "keep" | "corner";
  /** The apex at the time, px. */
  apex: XY;
}

/** Result of {@link funnel}. */
export interface FunnelResult {
  /** Start, corner points, goal. */
  points: [number, number][];
  /** Per point: the portal point id of a corner (−1 for start and goal, or when absent). */
  ids: number[];
  /** Per point: the portal index a corner came from (−1 for start and goal). */
  portalOf: number[];
  /** Polyline length, px. */
  length: number;
}

function cross(a: XY, b: XY, c: XY): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function same(a: XY, b: XY): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Runs the corner-point funnel; `trace` receives every step (see {@link FunnelEvent}). */
export function funnel(
  start: XY,
  goal: XY,
  portals: readonly Portal[],
  trace?: (e: FunnelEvent) => void,
): FunnelResult {
  const m = portals.length + 2;
  // Index 0 is the start, m−1 the goal, i in 1..m−2 is portals[i−1].
  const L = (i: number): XY => i === 0 ? start : i === m - 1 ? goal : portals[i - 1].left;
  const R = (i: number): XY => i === 0 ? start : i === m - 1 ? goal : portals[i - 1].right;
  const LId = (i: number) => i === 0 || i === m - 1 ? -1 : portals[i - 1].leftId ?? -1;
  const RId = (i: number) => i === 0 || i === m - 1 ? -1 : portals[i - 1].rightId ?? -1;
  const points: [number, number][] = [[start[0], start[1]]];
  const ids = [-1], portalOf = [-1];
  let apex: XY = start, left: XY = start, right: XY = start;
  let li = 0, ri = 0;
  const emit = (p: XY, id: number, portal: number) => {
    if (portal >= portals.length) portal = -1; // the goal itself closed the funnel
    const last = points[points.length - 1];
    if (last[0] === p[0] && last[1] === p[1]) return;
    points.push([p[0], p[1]]);
    ids.push(id);
    portalOf.push(portal);
  };
  for (let i = 1; i < m; i++) {
    const l = L(i), r = R(i);
    const ev = (side: "left" | "right", action: FunnelEvent["action"]) =>
      trace?.({ portal: i - 1, side, action, apex });
    // (3)–(5) for the left point: inside or on lineLeft → narrow, unless it crosses lineRight.
    if (cross(apex, left, l) <= 0) {
      if (same(apex, left) || cross(apex, right, l) > 0) {
        left = l;
        li = i;
        ev("left", "narrow");
      } else {
        ev("left", "corner");
        emit(right, RId(ri), ri - 1);
        apex = right;
        left = right;
        li = ri;
        i = ri;
        continue;
      }
    } else ev("left", "keep");
    // The right point, mirrored.
    if (cross(apex, right, r) >= 0) {
      if (same(apex, right) || cross(apex, left, r) < 0) {
        right = r;
        ri = i;
        ev("right", "narrow");
      } else {
        ev("right", "corner");
        emit(left, LId(li), li - 1);
        apex = left;
        right = left;
        ri = li;
        i = li;
        continue;
      }
    } else ev("right", "keep");
  }
  emit(goal, -1, -1);
  return { points, ids, portalOf, length: polyLength(points) };
}

/** Length of a polyline, px. */
export function polyLength(pts: readonly XY[]): number {
  let s = 0;
  for (let i = 1; i < pts.length; i++) {
    s += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  }
  return s;
}
