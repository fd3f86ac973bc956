/**
 * Rasterize (spec 预烘场 › 栅格化): conservative rasterisation of the walkable triangles into
 * per-cell height samples. A cell gets a sample when its square touches the triangle by the
 * 2-D separating-axis test (x, y and the three edge normals; closed intervals), plus one extra
 * sample per triangle at its centroid's cell. Reconstructions follow formulas.md #25–#30.
 * @module
 */

import { NavscopeError } from "../errors.ts";
import { kCS } from "../grid/constants.ts";
import { type BakeWindow, SampleBuffer } from "./samples.ts";

/** Triangle input: interleaved vertices (x px, y px, h m) and vertex-index triples. */
export interface RasterMesh {
  /** Vertex coordinates, 3 per vertex: x, y (px), height (m). */
  verts: Float32Array | Float64Array;
  /** Vertex indices, 3 per triangle. */
  tris: Uint32Array | Int32Array;
  /** Optional walkable mark per triangle; 0 = no samples (spec 预烘场 intro). */
  walkable?: Uint8Array;
}

const HALF = 0.5 * kCS; // the cell square's half width, 0.125 px
const EPS_INS = 1e-12;

/**
 * Rasterises every walkable triangle into `out` (a new buffer when omitted).
 *
 * - Scan range per axis: `⌊(min − o)/kCS⌋ .. ⌊(max − o)/kCS⌋` clamped; skipped when the unclamped
 *   range misses the window (formulas #26). floor here vs. closed SAT intervals is why a cell
 *   touching only the triangle's left/bottom border gets no sample but right/top ones do.
 * - SAT axes: `min v ≤ 0.125 ∧ max v ≥ −0.125` on x, y (#25); for edge normals
 *   `n = (−(v₁.y − v₀.y), v₁.x − v₀.x)`, `r = 0.125·(|n.x| + |n.y|)`,
 *   `min(v·n) ≤ r ∧ max(v·n) ≥ −r` (#26).
 * - Height: `t = (q×e2)/den`, `s = (e1×q)/den`, `den = e1×e2` (|den| < 1e-12 → +1e-12, #29);
 *   ins tested before clamping with ±1e-12; `t → [0,1]`, `s → [0, 1−t]`;
 *   `h = f32(hA + t(hB−hA) + s(hC−hA))` in double (#27/#28).
 * - Centroid pass (#30): `c = (A+B+C)/3`, kept when `o ≤ c < o + n·kCS`, cell
 *   `trunc((c − o)/kCS)` clamped, `h = f32((hA+hB+hC)/3)`, ins = 0.
 */
export function rasterize(mesh: RasterMesh, win: BakeWindow, out?: SampleBuffer): SampleBuffer {
  validateRasterInput(mesh, win);
  const buf = out ?? new SampleBuffer(1024);
  const nt = Math.floor(mesh.tris.length / 3);
  for (let t = 0; t < nt; t++) {
    if (mesh.walkable !== undefined && mesh.walkable[t] === 0) continue;
    rasterTriangle(mesh, t, win, buf);
  }
  for (let t = 0; t < nt; t++) {
    if (mesh.walkable !== undefined && mesh.walkable[t] === 0) continue;
    centroidSample(mesh, t, win, buf);
  }
  return buf;
}

function rasterTriangle(mesh: RasterMesh, t: number, win: BakeWindow, buf: SampleBuffer): void {
  const v = mesh.verts,
    ia = 3 * mesh.tris[3 * t],
    ib = 3 * mesh.tris[3 * t + 1],
    ic = 3 * mesh.tris[3 * t + 2];
  const ax = v[ia], ay = v[ia + 1], ah = v[ia + 2];
  const bx = v[ib], by = v[ib + 1], bh = v[ib + 2];
  const cx = v[ic], cy = v[ic + 1], ch = v[ic + 2];
  const { x0, y0, nx, ny } = win;
  const gx0 = Math.floor((Math.min(ax, bx, cx) - x0) / kCS);
  const gx1 = Math.floor((Math.max(ax, bx, cx) - x0) / kCS);
  const gy0 = Math.floor((Math.min(ay, by, cy) - y0) / kCS);
  const gy1 = Math.floor((Math.max(ay, by, cy) - y0) / kCS);
  if (gx1 < 0 || gy1 < 0 || gx0 >= nx || gy0 >= ny) return;
  const e1x = bx - ax, e1y = by - ay, e2x = cx - ax, e2y = cy - ay;
  let den = e1x * e2y - e1y * e2x;
  if (Math.abs(den) < 1e-12) den = 1e-12; // vertical triangle: projected area 0 (#29)
  const xa = Math.max(gx0, 0), xb = Math.min(gx1, nx - 1);
  const ya = Math.max(gy0, 0), yb = Math.min(gy1, ny - 1);
  const axes = triangleAxes(ax, ay, bx, by, cx, cy, win, xa, xb, ya, yb);
  for (let y = ya; y <= yb; y++) {
    const py = y0 + (y + 0.5) * kCS;
    // Cells [pL, pR] may overlap the triangle, cells [sL, sR] surely do (see rowBounds);
    // only the cells in between run the exact test, the others are decided by the bounds.
    rowBounds(axes, py, win, xa, xb);
    const pL = ROW[0], pR = ROW[1], sL = ROW[2], sR = ROW[3];
    for (let x = pL; x <= pR; x++) {
      const px = x0 + (x + 0.5) * kCS;
      if (
        (x < sL || x > sR) && !satOverlap(ax - px, ay - py, bx - px, by - py, cx - px, cy - py)
      ) continue;
      const qx = px - ax, qy = py - ay;
      let tt = (qx * e2y - qy * e2x) / den;
      let ss = (e1x * qy - e1y * qx) / den;
      const ins = tt >= -EPS_INS && ss >= -EPS_INS && tt + ss <= 1 + EPS_INS ? 1 : 0;
      tt = tt < 0 ? 0 : tt > 1 ? 1 : tt;
      const smax = 1 - tt;
      ss = ss < 0 ? 0 : ss > smax ? smax : ss;
      buf.push(y * nx + x, ah + tt * (bh - ah) + ss * (ch - ah), ins);
    }
  }
}

/**
 * The five SAT axes of a triangle in real arithmetic, 5 × (nx, ny, lo, hi, tol): a cell centre
 * p overlaps iff `lo ≤ p·n ≤ hi` on every axis (lo = min v·n − r, hi = max v·n + r). `tol`
 * bounds how far the float evaluation in {@link satOverlap} (relative coordinates, normals
 * from rounded differences) can stray from the real value — taken 10⁶ times larger than the
 * rounding analysis gives — so a cell farther than `tol` inside every band surely passes the
 * exact test and one farther than `tol` outside some band surely fails it; only the cells in
 * between are tested exactly. The samples are therefore those of the cell-by-cell test.
 */
function triangleAxes(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  win: BakeWindow,
  xa: number,
  xb: number,
  ya: number,
  yb: number,
): Float64Array {
  const out = AXES;
  // Magnitudes: M bounds every coordinate in play, D every |v − p| of a scanned cell.
  const px0 = win.x0 + (xa + 0.5) * kCS, px1 = win.x0 + (xb + 0.5) * kCS;
  const py0 = win.y0 + (ya + 0.5) * kCS, py1 = win.y0 + (yb + 0.5) * kCS;
  const M = Math.max(
    Math.abs(ax),
    Math.abs(ay),
    Math.abs(bx),
    Math.abs(by),
    Math.abs(cx),
    Math.abs(cy),
    Math.abs(px0),
    Math.abs(px1),
    Math.abs(py0),
    Math.abs(py1),
  );
  const D = Math.max(px1, ax, bx, cx) - Math.min(px0, ax, bx, cx) +
    Math.max(py1, ay, by, cy) - Math.min(py0, ay, by, cy);
  const setAxis = (i: number, nx: number, ny: number, r: number): void => {
    const pa = ax * nx + ay * ny, pb = bx * nx + by * ny, pc = cx * nx + cy * ny;
    const k = 5 * i;
    out[k] = nx;
    out[k + 1] = ny;
    out[k + 2] = Math.min(pa, pb, pc) - r;
    out[k + 3] = Math.max(pa, pb, pc) + r;
    out[k + 4] = 1e-9 * (M + 1) * (Math.abs(nx) + Math.abs(ny) + D + 1);
  };
  setAxis(0, 1, 0, HALF);
  setAxis(1, 0, 1, HALF);
  const edge = (i: number, px: number, py: number, qx: number, qy: number): void => {
    const nx = -(qy - py), ny = qx - px;
    setAxis(i, nx, ny, HALF * (Math.abs(nx) + Math.abs(ny)));
  };
  edge(2, ax, ay, bx, by);
  edge(3, bx, by, cx, cy);
  edge(4, cx, cy, ax, ay);
  // Slack (cells) for rounding px → cell index: 1e-7 cell, more when coordinates are huge.
  out[25] = 1e-7 + 1e-12 * (M + 1) / kCS;
  return out;
}

/** 5 axes × (nx, ny, lo, hi, tol), then the cell slack of the row bounds. */
const AXES = new Float64Array(26);
/** Row bounds pL, pR, sL, sR (f64: a bound may be ±∞ when an axis is nearly horizontal). */
const ROW = new Float64Array(4);

/**
 * Cell ranges of one row (into ROW): [pL, pR] = cells that may pass (outside it every cell
 * fails some band by more than tol), [sL, sR] = cells that surely pass (inside every band by
 * more than tol), both within [xa, xb]. A slack (≥ 1e-7 cell) covers the rounding of the
 * divisions.
 */
function rowBounds(axes: Float64Array, py: number, win: BakeWindow, xa: number, xb: number): void {
  let pL = xa, pR = xb, sL = xa, sR = xb;
  const sl = axes[25];
  for (let i = 0; i < 5; i++) {
    const k = 5 * i, nx = axes[k], u = py * axes[k + 1], tol = axes[k + 4];
    const lo = axes[k + 2] - u, hi = axes[k + 3] - u; // need lo ≤ px·nx ≤ hi
    if (nx === 0) {
      if (lo - tol > 0 || hi + tol < 0) pL = 1, pR = 0; // fails for the whole row
      if (!(lo + tol <= 0 && hi - tol >= 0)) sL = 1, sR = 0; // not sure for the row
      continue;
    }
    // px range of the band, widened (possible) or narrowed (sure) by tol, in cell units.
    const a1 = (lo - tol) / nx, b1 = (hi + tol) / nx, a2 = (lo + tol) / nx, b2 = (hi - tol) / nx;
    const pmin = nx > 0 ? a1 : b1, pmax = nx > 0 ? b1 : a1;
    const smin = nx > 0 ? a2 : b2, smax = nx > 0 ? b2 : a2;
    const cp0 = Math.ceil((pmin - win.x0) / kCS - 0.5 - sl);
    const cp1 = Math.floor((pmax - win.x0) / kCS - 0.5 + sl);
    const cs0 = Math.ceil((smin - win.x0) / kCS - 0.5 + sl);
    const cs1 = Math.floor((smax - win.x0) / kCS - 0.5 - sl);
    if (cp0 > pL) pL = cp0;
    if (cp1 < pR) pR = cp1;
    if (cs0 > sL) sL = cs0;
    if (cs1 < sR) sR = cs1;
  }
  ROW[0] = pL, ROW[1] = pR, ROW[2] = sL, ROW[3] = sR;
}

/** The 5-axis separating-axis test of a triangle (relative to the cell centre) vs. the cell. */
export function satOverlap(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): boolean {
  if (Math.min(ax, bx, cx) > HALF || Math.max(ax, bx, cx) < -HALF) return false;
  if (Math.min(ay, by, cy) > HALF || Math.max(ay, by, cy) < -HALF) return false;
  return edgeAxis(ax, ay, bx, by, ax, ay, bx, by, cx, cy) &&
    edgeAxis(bx, by, cx, cy, ax, ay, bx, by, cx, cy) &&
    edgeAxis(cx, cy, ax, ay, ax, ay, bx, by, cx, cy);
}

function edgeAxis(
  px: number,
  py: number,
  qx: number,
  qy: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
): boolean {
  const nx = -(qy - py), ny = qx - px;
  const r = HALF * (Math.abs(nx) + Math.abs(ny));
  const pa = ax * nx + ay * ny, pb = bx * nx + by * ny, pc = cx * nx + cy * ny;
  return Math.min(pa, pb, pc) <= r && Math.max(pa, pb, pc) >= -r;
}

function centroidSample(mesh: RasterMesh, t: number, win: BakeWindow, buf: SampleBuffer): void {
  const v = mesh.verts,
    ia = 3 * mesh.tris[3 * t],
    ib = 3 * mesh.tris[3 * t + 1],
    ic = 3 * mesh.tris[3 * t + 2];
  const cx = (v[ia] + v[ib] + v[ic]) / 3, cy = (v[ia + 1] + v[ib + 1] + v[ic + 1]) / 3;
  const { x0, y0, nx, ny } = win;
  if (!(x0 <= cx && cx < x0 + nx * kCS && y0 <= cy && cy < y0 + ny * kCS)) return;
  const gx = Math.min(Math.max(Math.trunc((cx - x0) / kCS), 0), nx - 1);
  const gy = Math.min(Math.max(Math.trunc((cy - y0) / kCS), 0), ny - 1);
  buf.push(gy * nx + gx, (v[ia + 2] + v[ib + 2] + v[ic + 2]) / 3, 0);
}

/**
 * Rejects inputs the operators cannot bake: a window that is not a positive integer size with
 * finite origin, a vertex array not made of (x, y, h) triples, a non-finite vertex, a vertex
 * index out of range, or a walkable array of the wrong length. Throws one NavscopeError
 * (`bad_value`) naming the triangle or vertex.
 */
export function validateRasterInput(mesh: RasterMesh, win: BakeWindow): void {
  const where = { section: "bake input" };
  const { x0, y0, nx, ny } = win;
  if (
    !Number.isFinite(x0) || !Number.isFinite(y0) || !(Number.isInteger(nx) && nx > 0) ||
    !(Number.isInteger(ny) && ny > 0) || nx * ny > 0x7fffffff
  ) {
    throw new NavscopeError(
      "bad_value",
      `window (${x0}, ${y0}, ${nx} × ${ny}) is not usable`,
      where,
      "finite origin and positive integer size with nx·ny < 2^31",
    );
  }
  if (mesh.verts.length % 3 !== 0 || mesh.tris.length % 3 !== 0) {
    throw new NavscopeError(
      "bad_value",
      `vertex array length ${mesh.verts.length} / index array length ${mesh.tris.length}`,
      where,
      "multiples of 3",
    );
  }
  for (let i = 0; i < mesh.verts.length; i++) {
    if (!Number.isFinite(mesh.verts[i])) {
      throw new NavscopeError("bad_value", `vertex ${Math.floor(i / 3)} is not finite`, where);
    }
  }
  const nv = mesh.verts.length / 3;
  for (let i = 0; i < mesh.tris.length; i++) {
    const v = mesh.tris[i];
    if (!(v >= 0 && v < nv)) {
      throw new NavscopeError(
        "bad_value",
        `triangle ${Math.floor(i / 3)} corner ${i % 3} refers to vertex ${v}`,
        where,
        `a vertex index in [0, ${nv})`,
      );
    }
  }
  if (mesh.walkable !== undefined && mesh.walkable.length !== mesh.tris.length / 3) {
    throw new NavscopeError(
      "bad_value",
      `walkable marks: ${mesh.walkable.length}`,
      where,
      `one per triangle (${mesh.tris.length / 3})`,
    );
  }
}
