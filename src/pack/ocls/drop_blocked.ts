/**
 * The occluder side of the ledge-drop check (spec 台沿下落, FallGate step 5 and "碰撞体一侧的
 * dropBlocked"; formulas.md 58–63, all [I]: the reference predates this feature).
 *
 * Two vertical sample columns (take-off and landing) collect every face crossing them, with height
 * and facing; a vertical section along take-off → landing catches anything in the way of the
 * L-shaped path "walk out at take-off height, then fall straight down". Ground at height y = the
 * highest upward hit z with |z − y| ≤ climb. With y_a = take-off height, y_b = landing height:
 *
 * 1. take-off column over [y_a − c, y_a + H], landing column over [y_b − c, y_a], both widened
 *    by {@link DROP_EPS} at each end (formulas 59: ε unknown; the landing column's top is y_a);
 * 2. no upward face within y_b ± c at the landing → pass (nothing to land on: not our call);
 * 3. a downward face on the landing column with y_b + c < z < y_a → blocked (a solid over the
 *    landing point: the fall passes through it);
 * 4. no upward face within y_a ± c at the take-off → pass;
 * 5. g_a = take-off ground; any face crossing the section over [g_a + c, g_a + H] → blocked;
 * 6. otherwise pass.
 *
 * Determinism: float64 throughout, every expression in a fixed order (the reference disables FMA
 * contraction so that the baker and the runtime agree bit for bit; JavaScript never contracts).
 * @module
 */
import {
  buildOccluderIndex,
  ColumnHits,
  columnHits,
  type OccluderIndex,
  sectionCrossed,
} from "./occluder_index.ts";
import type { OccluderScene } from "./types.ts";

/** Character step height c in metres (spec FallGate step 5: climb = 0.39). */
export const DROP_CLIMB = 0.39;
/** Character height H in metres (spec: height = 2.1). */
export const DROP_HEIGHT = 2.1;
/** Column widening ε in metres (spec: 两端各放宽; size not given, 1 mm chosen) [I]. */
export const DROP_EPS = 1e-3;

/** A point in occluder world space: x, z horizontal, y up (metres). */
export interface WorldPoint {
  /** World x. */
  x: number;
  /** World height. */
  y: number;
  /** World z. */
  z: number;
}

/** Which rule decided a drop (for diagnostics and tests). */
export type DropRule =
  | "no_landing_ground"
  | "landing_overhead"
  | "no_takeoff_ground"
  | "section_crossed"
  | "clear";

const indexCache = new WeakMap<OccluderScene, OccluderIndex>();

/** The scene's query structure, built once per scene object and kept while the scene lives. */
export function occluderIndexOf(scene: OccluderScene): OccluderIndex {
  let ix = indexCache.get(scene);
  if (!ix) {
    ix = buildOccluderIndex(scene);
    indexCache.set(scene, ix);
  }
  return ix;
}

/**
 * True when the occluders block a ledge drop from `takeoff` to `landing` (spec 台沿下落).
 * Points are in occluder world space; the caller (FallGate) converts from zone px.
 */
export function dropBlocked(
  scene: OccluderScene,
  takeoff: WorldPoint,
  landing: WorldPoint,
  climb = DROP_CLIMB,
  height = DROP_HEIGHT,
): boolean {
  return isBlockingRule(dropRule(occluderIndexOf(scene), takeoff, landing, climb, height));
}

/** True for the two rules that block (steps 3 and 5). */
export function isBlockingRule(r: DropRule): boolean {
  return r === "landing_overhead" || r === "section_crossed";
}

const hitsA = new ColumnHits();
const hitsB = new ColumnHits();

/** Highest upward hit with |z − y| ≤ c + ε, or NaN (spec: 脚下的地面). */
export function groundAt(h: ColumnHits, y: number, c: number): number {
  let g = NaN;
  for (let k = 0; k < h.y.length; k++) {
    const z = h.y[k];
    if (h.up[k] === 1 && Math.abs(z - y) <= c + DROP_EPS && !(z <= g)) g = z;
  }
  return g;
}

/**
 * The six steps, returning which rule decided (blocked ⇔ "landing_overhead" or
 * "section_crossed"). Works on any index, so tests can run it on the linear-scan reference.
 */
export function dropRule(
  ix: OccluderIndex,
  a: WorldPoint,
  b: WorldPoint,
  climb = DROP_CLIMB,
  height = DROP_HEIGHT,
): DropRule {
  return decide(ix, a, b, climb, height);
}

function decide(ix: OccluderIndex, a: WorldPoint, b: WorldPoint, c: number, H: number): DropRule {
  // Step 1: the two columns.
  hitsB.clear();
  columnHits(ix, b.x, b.z, b.y - c - DROP_EPS, a.y + DROP_EPS, hitsB);
  // Step 2: nothing to land on within y_b ± c.
  if (Number.isNaN(groundAt(hitsB, b.y, c))) return "no_landing_ground";
  // Step 3: a downward face strictly between y_b + c and y_a over the landing point.
  const lo = b.y + c;
  for (let k = 0; k < hitsB.y.length; k++) {
    if (hitsB.up[k] === 0 && hitsB.y[k] > lo && hitsB.y[k] < a.y) return "landing_overhead";
  }
  hitsA.clear();
  columnHits(ix, a.x, a.z, a.y - c - DROP_EPS, a.y + H + DROP_EPS, hitsA);
  // Step 4: no take-off ground within y_a ± c.
  const ga = groundAt(hitsA, a.y, c);
  if (Number.isNaN(ga)) return "no_takeoff_ground";
  // Step 5: the vertical section over [g_a + c, g_a + H] along take-off → landing.
  const y0 = ga + c, y1 = ga + H;
  if (a.x === b.x && a.z === b.z) {
    // Degenerate section (no horizontal run): it is the take-off column itself; any face met
    // strictly above y0 and up to y1 is in the way [I].
    for (let k = 0; k < hitsA.y.length; k++) {
      if (hitsA.y[k] > y0 && hitsA.y[k] <= y1) return "section_crossed";
    }
    return "clear";
  }
  if (sectionCrossed(ix, a.x, a.z, b.x, b.z, y0, y1)) return "section_crossed";
  // Step 6.
  return "clear";
}
