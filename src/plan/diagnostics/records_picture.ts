/**
 * The picture of a plan that built no window (pre-check and window-building failures; docs/pictures.md):
 * the pack's records of every region around the endpoint that failed, with the crop rule of
 * picture.ts, the no-go rings and discs and the endpoints. Floods, refused steps, walls and routes
 * need a window and are left out; the picture's note says so.
 * @module
 */

import type { NoGoTable } from "../../pack/nogo/table.ts";
import type { LegPicture, PictureOverview, PlanResult, Pt } from "../types.ts";
import {
  type Box,
  CLASS_RANK,
  cropAround,
  kBandPad,
  kOverviewSide,
  kPictureBudget,
  PictureCell,
  type PictureRequest,
  ringsOf,
  stageLayers,
} from "./picture.ts";

/** Even-odd point-in-polygon test. */
function inRing(r: readonly Pt[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = r[i], [xj, yj] = r[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** A crop chosen by {@link recordsCrop}. */
export interface RecordsCrop {
  /** The crop, global cells `[x0, y0, nx, ny]`. */
  rect: [number, number, number, number];
  /** The area of interest, global cells `[x0, y0, nx, ny]`. */
  interest: [number, number, number, number];
  /** Full or focus. */
  kind: "full" | "focus";
  /** What the crop is drawn around. */
  around: string;
}

/**
 * The crop of a plan that built no window (a pre-check or window-building failure): both
 * endpoints when they fit the budget, else the endpoint that failed (the one the message names,
 * the one farther from the mesh or the core, the one inside the no-go).
 */
export function recordsCrop(
  res: PlanResult,
  req: PictureRequest,
  noGo: NoGoTable,
  budget: number = kPictureBudget,
): RecordsCrop {
  const d = res.debug;
  let goalSide = false;
  if (res.error === "snap_far_from_mesh") goalSide = /终点/.test(res.message);
  else if (res.error === "endpoint_far_from_core") {
    goalSide = (d.coreGoal ?? 0) > (d.coreStart ?? 0);
  } else if (res.error === "no_go") {
    const inside = (p: Pt) =>
      ringsOf(noGo, req.zone).some((r) => inRing(r, p[0], p[1])) ||
      (req.noGoDiscs ?? []).some((c) => (p[0] - c.x) ** 2 + (p[1] - c.y) ** 2 <= c.r * c.r);
    goalSide = !inside(req.start) && inside(req.goal);
  }
  const side = goalSide ? req.goal : req.start;
  const what = goalSide ? "the goal" : "the start";
  const win: Box = { x0: -(1 << 29), y0: -(1 << 29), x1: 1 << 29, y1: 1 << 29 };
  const c = cropAround(
    win,
    [req.start, req.goal],
    [side],
    res.error ? `${what} (${res.error})` : what,
    [[req.start, "the start"], [req.goal, "the goal"]],
    budget,
  );
  const r = (
    b: Box,
  ): [number, number, number, number] => [b.x0, b.y0, b.x1 - b.x0 + 1, b.y1 - b.y0 + 1];
  return { rect: r(c.crop), interest: r(c.interest), kind: c.kind, around: c.around };
}

/** Records of a box as the picture reads them (src/plan/window/grid_patch.ts GridPatch). */
export interface RecordsPatch {
  /** `start[k] .. start[k+1]` are the records of box cell k (row-major). */
  start: Int32Array;
  /** Region id per record. */
  rid: Uint32Array;
  /** Height per record. */
  h: Float32Array;
  /** Flags per record. */
  flags: Uint8Array;
}

/** Span flag bits the records picture reads (src/pack/grid_types.ts SpanFlag). */
const F_WALK = 0x02, F_CORE = 0x04, F_FILL = 0x10;

/** Picture class of a record's flags, and the overview rank of the class. */
function recordClass(f: number): number {
  return f & F_CORE ? (f & F_WALK ? PictureCell.Walk : PictureCell.Core) : PictureCell.NonCore;
}

/**
 * The picture of a plan that built no window: the pack's records of every region around the
 * crop (cell classes, heights, spans), the no-go rings and discs and the endpoints; no floods,
 * refused steps, walls or routes (they need a window). `patch` null: the zone is not in the pack.
 * `overview` is the area of interest's patch for a focus crop (null: none); `why` replaces the
 * picture's note.
 */
export function recordsPicture(
  patch: RecordsPatch | null,
  crop: RecordsCrop,
  overview: { patch: RecordsPatch; rect: [number, number, number, number] } | null,
  res: PlanResult,
  req: PictureRequest,
  noGo: NoGoTable,
  budget: number = kPictureBudget,
  why: string | null = null,
): LegPicture {
  const [x0, y0, nx, ny] = crop.rect, n = nx * ny;
  const cells = new Uint8Array(n), clearance = new Uint8Array(n);
  const heights = new Float32Array(n).fill(NaN);
  const start = new Int32Array(n + 1);
  const keep = (i: number) => patch !== null && !(patch.flags[i] & F_FILL);
  // The heights shown: walkable records in the band of the request's floors and decks (no band:
  // the top walkable record), as the window picture shows the leg's storeys.
  const ref = [req.startFloorY, req.goalFloorY, req.startDeckY, req.goalDeckY].filter((
    v,
  ): v is number => typeof v === "number");
  const lo = ref.length ? Math.min(...ref) - kBandPad : -Infinity;
  const hi = ref.length ? Math.max(...ref) + kBandPad : Infinity;
  let m = 0;
  for (let k = 0; k < n; k++) {
    start[k] = m;
    if (patch) { for (let i = patch.start[k]; i < patch.start[k + 1]; i++) if (keep(i)) m++; }
  }
  start[n] = m;
  const h = new Float32Array(m), region = new Int32Array(m), flags = new Uint8Array(m);
  const clr = new Float32Array(m).fill(-1);
  for (let k = 0; k < n && patch; k++) {
    let j = start[k];
    for (let i = patch.start[k]; i < patch.start[k + 1]; i++) {
      if (!keep(i)) continue;
      (h[j] = patch.h[i]), (region[j] = patch.rid[i]), (flags[j] = patch.flags[i]), j++;
      const cls = recordClass(patch.flags[i]);
      if (CLASS_RANK[cls] > CLASS_RANK[cells[k]]) cells[k] = cls;
      const hv = patch.h[i];
      if (cls === PictureCell.Walk && hv >= lo && hv <= hi && !(heights[k] >= hv)) heights[k] = hv;
    }
  }
  let ov: PictureOverview | null = null;
  if (overview) {
    const [ox0, oy0, onx, ony] = overview.rect;
    const factor = Math.max(1, Math.ceil(Math.max(onx, ony) / kOverviewSide));
    const vx = Math.ceil(onx / factor), vy = Math.ceil(ony / factor);
    const oc = new Uint8Array(vx * vy);
    for (let y = 0; y < ony; y++) {
      for (let x = 0; x < onx; x++) {
        const k = y * onx + x, o = ((y / factor) | 0) * vx + ((x / factor) | 0);
        for (let i = overview.patch.start[k]; i < overview.patch.start[k + 1]; i++) {
          if (overview.patch.flags[i] & F_FILL) continue;
          const cls = recordClass(overview.patch.flags[i]);
          if (CLASS_RANK[cls] > CLASS_RANK[oc[o]]) oc[o] = cls;
        }
      }
    }
    ov = { x0: ox0, y0: oy0, nx: vx, ny: vy, factor, cells: oc, flood: new Uint8Array(vx * vy) };
  }
  const d = res.debug;
  return {
    x0,
    y0,
    nx,
    ny,
    cells,
    clearance,
    blockers: [],
    rings: ringsOf(noGo, req.zone),
    ...stageLayers(res, req),
    cellSpans: { start, h, region, flags, clearance: clr, flood: new Uint8Array(m) },
    heights,
    flood: new Uint8Array(n),
    blockedSteps: { cell: new Int32Array(0), dir: new Uint8Array(0), kind: new Uint8Array(0) },
    walls: [],
    facades: [],
    links: [],
    unlandedLinks: [],
    snap: [d.snapStart, d.snapGoal],
    gapHeights: null,
    crop: {
      kind: crop.kind,
      around: crop.around,
      budget,
      window: null,
      interest: crop.interest,
      note: why ??
        (patch
          ? "No window was built (the plan failed before or while building one): the pack's records of every region around the crop"
          : `No window: zone ${req.zone} is not in the pack, nothing but the endpoints to draw`),
    },
    overview: ov,
  };
}
