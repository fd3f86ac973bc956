/**
 * Bake operator benchmarks over one 512 × 512-cell window (128 px): a rolling quad terrain of
 * 128 × 128 quads of 1 px (32 768 triangles) with a few 5 m decks.
 * Run: deno bench --allow-read bench/bake_ops_bench.ts
 */
import { rasterize, type RasterMesh } from "../src/bake/rasterize.ts";
import { appendSeamBridge } from "../src/bake/seam_bridge.ts";
import { buildSpans } from "../src/bake/build_spans.ts";
import { labelRegions } from "../src/bake/regions.ts";
import { clearanceSq } from "../src/bake/clearance.ts";
import { medialAxis } from "../src/bake/medial.ts";
import { stepBans } from "../src/bake/step_bans.ts";
import { regionComponents } from "../src/bake/components.ts";
import { closeCracks, fillHoles } from "../src/bake/morphology.ts";
import { bakeWindow } from "../src/bake/bake_window.ts";
import { riseOk } from "../src/grid/rise_ok.ts";

const Q = 128, N = 512;
function terrain(): RasterMesh {
  const verts: number[] = [], tris: number[] = [];
  const h = (x: number, y: number) => 2 * Math.sin(x * 0.11) + 1.5 * Math.cos(y * 0.07);
  const quad = (x0: number, y0: number, hf: (x: number, y: number) => number) => {
    const b = verts.length / 3;
    verts.push(x0, y0, hf(x0, y0), x0 + 1, y0, hf(x0 + 1, y0));
    verts.push(x0 + 1, y0 + 1, hf(x0 + 1, y0 + 1), x0, y0 + 1, hf(x0, y0 + 1));
    tris.push(b, b + 1, b + 2, b, b + 2, b + 3);
  };
  for (let j = 0; j < Q; j++) for (let i = 0; i < Q; i++) quad(i, j, h);
  for (let d = 0; d < 8; d++) {
    for (let i = 0; i < 40; i++) quad(10 + d * 14 + (i % 4), 20 + Math.floor(i / 4), () => 9);
  }
  return { verts: Float32Array.from(verts), tris: Uint32Array.from(tris) };
}

const mesh = terrain();
const win = { x0: 0, y0: 0, nx: N, ny: N };
const samples = rasterize(mesh, win);
const bridged = appendSeamBridge(samples, N, N);
const built = buildSpans(bridged, N, N);
const grid = built.grid;
const { rid, count } = labelRegions(grid);
const obstacle = new Uint8Array(N * N);
for (let i = 0; i < N * N; i++) obstacle[i] = (i * 2654435761) % 97 === 0 ? 1 : 0;
const boundary = new Uint8Array(mesh.tris.length / 3).fill(0b001);

Deno.bench("rasterize 512² window (33 k triangles)", () => {
  rasterize(mesh, win);
});
Deno.bench("seam bridge 512²", () => {
  appendSeamBridge(samples, N, N);
});
Deno.bench("buildSpans (sort + merge + pack) 512²", () => {
  buildSpans(bridged, N, N);
});
Deno.bench("labelRegions 512²", () => {
  labelRegions(grid);
});
Deno.bench("clearance EDT 512²", () => {
  clearanceSq(obstacle, N, N);
});
Deno.bench("medial axis 512²", () => {
  medialAxis(obstacle, N, N);
});
Deno.bench("fillHoles + closeCracks 512²", () => {
  const m = new Uint8Array(N * N).fill(1);
  for (let i = 0; i < N * N; i += 37) m[i] = 0;
  closeCracks(m, fillHoles(m, null, N, N), null, N, N);
});
Deno.bench("stepBans 512²", () => {
  stepBans(grid, rid);
});
Deno.bench("regionComponents (RiseOk graph + Tarjan) 512²", () => {
  regionComponents(grid, rid, count);
});
Deno.bench("riseOk ×1M (flat steps)", () => {
  let k = 0;
  for (let i = 0; i < 1_000_000; i++) {
    const x = 1 + (i % 500), y = 1 + ((i >> 9) % 500);
    if (riseOk(grid, x, y, grid.h[0], 1, 0, grid.h[0])) k++;
  }
  if (k < 0) throw new Error();
});
Deno.bench("bakeWindow end to end 512²", { n: 3 }, () => {
  bakeWindow(mesh, boundary, win);
});
