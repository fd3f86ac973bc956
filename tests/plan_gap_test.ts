/**
 * The gap location's shortcuts (issue 57) against the plain computation they replace: the
 * forward flood closed from the baseline search's reach gives the same spans and the same
 * `gap.pops` as the flood from the start, and the distance transform over the bounded box gives
 * the same nearest pair as the two chamfer passes over the whole window (written out here as
 * they were), on the golden-route pack's window and on random cell sets.
 */
import { assert, assertEquals } from "./assert.ts";
import { buildWindow } from "../src/plan/window/build_window.ts";
import type { WindowGrid } from "../src/plan/window/window_grid.ts";
import { flood, floodFromReached, nearestPair, transformBox } from "../src/plan/diagnostics/gap.ts";
import { SpanSearch } from "../src/plan/route/search/span_astar.ts";
import { emptyNoGoTable } from "../src/pack/nogo/table.ts";
import { scratch } from "../src/plan/scratch.ts";
import { zoneFixture } from "./zone_fixture.ts";

const DIR = new URL("./fixtures/oracle/city_small/", import.meta.url).pathname;

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("gap: the forward flood from the baseline's reach equals the flood from the start", async () => {
  const zs = (await zoneFixture(DIR, "map01base")).make();
  const seed = { gx: 96, gy: 160, h: 0 };
  const w = buildWindow(zs, {
    region: 1,
    seed,
    noGo: emptyNoGoTable(),
    discs: [],
    rect: { x0: -100, y0: -50, nx: 800, ny: 700 },
  });
  const nsp = w.spans.h.length, ncell = w.nx * w.ny;
  const usable = new Uint8Array(nsp);
  // One span in six unusable besides: many core cells left without a usable span, so that
  // diagonal steps past them (the flood's, not the search's) happen all over.
  const drop = rng(6);
  for (let s = 0; s < nsp; s++) usable[s] = w.vis3[s] & w.reach[s] & (drop() < 5 / 6 ? 1 : 0);
  // The baseline's core retry runs on the core cells holding a usable span.
  const coreU = new Uint8Array(ncell);
  for (let s = 0; s < nsp; s++) {
    if (usable[s] && w.core[w.spans.cell[s]]) coreU[w.spans.cell[s]] = 1;
  }
  let bare = 0;
  for (let c = 0; c < ncell; c++) if (w.core[c] && !coreU[c]) bare++;
  assert(bare > 0, "the window has core cells without a usable span (the case the closure adds)");
  const search = new SpanSearch(w);
  const next = rng(57);
  let grew = 0;
  for (let t = 0; t < 12; t++) {
    const start = Math.floor(next() * nsp);
    // No goal: the search fails after reaching all it can.
    const none = search.run({
      mask: coreU,
      usable,
      price: null,
      start,
      goal: new Uint8Array(1),
      goalFirst: -10,
      goalCell: w.spans.cell[start],
      gate: null,
    });
    assertEquals(none, null);
    const reached = search.reached();
    const [plain, fast] = scratch.frame(() => {
      const pa = [0], pb = [0];
      const a = flood(w, w.core, usable, [start], false, null, pa).slice();
      const b = floodFromReached(w, usable, reached, start, null, pb).slice();
      return [{ a, n: pa[0] }, { a: b, n: pb[0] }];
    });
    assertEquals(fast.n, plain.n, `start ${start}: gap.pops`);
    assert(fast.a.every((v, i) => v === plain.a[i]), `start ${start}: same spans`);
    if (plain.n > reached.reduce((n, v) => n + v, 0)) grew++;
  }
  assert(
    grew > 0,
    "some start's flood reaches beyond the search's reach (diagonals past bare core)",
  );
});

/** The whole-window passes as the gap location ran them before issue 57. */
function wholeWindow(
  nx: number,
  ny: number,
  ra: Uint8Array,
  rb: Uint8Array,
): [number, number] | null {
  const n = nx * ny, D = new Int32Array(n).fill(0x7fffffff), src = new Int32Array(n).fill(-1);
  for (let c = 0; c < n; c++) if (rb[c]) (D[c] = 0), (src[c] = c);
  const relax = (c: number, q: number, wgt: number) => {
    if (D[q] + wgt < D[c]) (D[c] = D[q] + wgt), (src[c] = src[q]);
  };
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      const c = y * nx + x;
      if (y > 0) {
        if (x > 0) relax(c, c - nx - 1, 141);
        relax(c, c - nx, 100);
        if (x + 1 < nx) relax(c, c - nx + 1, 141);
      }
      if (x > 0) relax(c, c - 1, 100);
    }
  }
  for (let y = ny - 1; y >= 0; y--) {
    for (let x = nx - 1; x >= 0; x--) {
      const c = y * nx + x;
      if (y + 1 < ny) {
        if (x + 1 < nx) relax(c, c + nx + 1, 141);
        relax(c, c + nx, 100);
        if (x > 0) relax(c, c + nx - 1, 141);
      }
      if (x + 1 < nx) relax(c, c + 1, 100);
    }
  }
  let best = -1;
  for (let c = 0; c < n; c++) if (ra[c] && src[c] >= 0 && (best < 0 || D[c] < D[best])) best = c;
  return best < 0 ? null : [best, src[best]];
}

Deno.test("gap: the bounded distance transform gives the whole window's nearest pair (random sets, ties included)", () => {
  const next = rng(5757);
  for (let t = 0; t < 400; t++) {
    const nx = 5 + Math.floor(next() * 60), ny = 5 + Math.floor(next() * 60), n = nx * ny;
    // One span per cell: span s sits in cell s.
    const w = {
      nx,
      ny,
      spans: { cell: Int32Array.from({ length: n }, (_, i) => i), h: new Float32Array(n) },
    } as unknown as WindowGrid;
    const ra = new Uint8Array(n), rb = new Uint8Array(n);
    // Clustered sets (blobs), far apart or touching, sometimes a single cell.
    const blob = (set: Uint8Array, k: number) => {
      const cx = Math.floor(next() * nx), cy = Math.floor(next() * ny);
      const r = Math.floor(next() * 8);
      for (let i = 0; i < k; i++) {
        const x = Math.min(nx - 1, Math.max(0, cx + Math.round((next() - 0.5) * 2 * r)));
        const y = Math.min(ny - 1, Math.max(0, cy + Math.round((next() - 0.5) * 2 * r)));
        set[y * nx + x] = 1;
      }
    };
    blob(ra, 1 + Math.floor(next() * 60));
    if (next() < 0.5) blob(ra, 1 + Math.floor(next() * 60));
    blob(rb, 1 + Math.floor(next() * 60));
    if (next() < 0.3) blob(rb, 1 + Math.floor(next() * 20));
    const ras = [...ra.keys()].filter((c) => ra[c]), rbs = [...rb.keys()].filter((c) => rb[c]);
    const start = ras[Math.floor(next() * ras.length)], goal = rbs[Math.floor(next() * rbs.length)];
    const want = wholeWindow(nx, ny, ra, rb);
    const got = scratch.frame(() => nearestPair(w, ra, rb, transformBox(w, rb, start, goal)));
    assertEquals(got, want, `case ${t}: ${nx}×${ny}`);
  }
});
