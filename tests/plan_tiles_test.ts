/**
 * The per-plan tile cache (src/plan/window/plan_tiles.ts): the core-anchor gate, the grid patches and
 * the windows of one plan share decoded tiles, and each of them must still see exactly what a
 * fresh decode gives — in the plan's order, and again after a window has merged its sidecar
 * columns and FOPN into its own copy. FOPN entries are added to the frozen city_small sidecar so
 * the open-cell rule runs (the example packs have none).
 * @module
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { buildWindow, type WindowGrid } from "../src/plan/window/build_window.ts";
import { coreAnchorPx } from "../src/plan/prechecks/core_anchor.ts";
import { decodePatch, type GridPatch } from "../src/plan/window/grid_patch.ts";
import { PlanTiles } from "../src/plan/window/plan_tiles.ts";
import type { ZoneState } from "../src/plan/window/zone_state.ts";
import { decodeBgrdTile } from "../src/pack/bgrd/section.ts";
import { buildOpenTable } from "../src/pack/bnvf/tables.ts";
import { zoneFixture } from "./zone_fixture.ts";
import { SpanFlag } from "../src/pack/grid_types.ts";
import { emptyNoGoTable } from "../src/pack/nogo/table.ts";

const DIR = new URL("./fixtures/oracle/city_small/", import.meta.url).pathname;

/**
 * The zone with FOPN entries for 1 in 4 non-core records of every tile (fixed seed), and the same
 * zone without them.
 */
async function zoneWithOpens(): Promise<{ zs: ZoneState; plain: ZoneState }> {
  const { section, side, rec, make } = await zoneFixture(DIR, "map01base");
  const gz = section.zones.findIndex((z) => z.name === rec.name);
  const rnd = mulberry32(7);
  const opens = [];
  for (let t = 0; t < section.zones[gz].tiles.length; t++) {
    const te = section.zones[gz].tiles[t];
    if (!te.records) continue;
    const c = decodeBgrdTile(section, gz, t);
    for (let i = 0; i < c.n; i++) {
      const ly = Math.floor(c.cell[i] / te.nx), lx = c.cell[i] - ly * te.nx;
      // Owned records only: a cell of the overlap border is another tile's.
      if (lx < te.px0 || lx > te.px1 || ly < te.py0 || ly > te.py1) continue;
      if (c.flags[i] & SpanFlag.Core || rnd() > 1 / 4) continue;
      opens.push({
        zone: rec.id,
        gx: te.gx0 + lx,
        gy: te.gy0 + ly,
        h: c.h[i],
        clr: c.clr[i] + 3,
        flags: SpanFlag.Core | SpanFlag.Walk,
        src: 0,
      });
    }
  }
  assert(opens.length > 100, `${opens.length} open cells`);
  const opened = { ...side, opens: buildOpenTable(opens) };
  return {
    zs: make(opened),
    plain: make({ ...side, opens: null }),
  };
}

function samePatch(a: GridPatch, b: GridPatch, what: string): void {
  assertEquals(a.rect, b.rect, what);
  for (const k of ["start", "rid", "h", "flags"] as const) {
    assertEquals(Array.from(a[k]), Array.from(b[k]), `${what}: ${k}`);
  }
}

function sameWindow(a: WindowGrid, b: WindowGrid, what: string): void {
  const cols = (w: WindowGrid) => {
    const out: Record<string, ArrayLike<number>> = {};
    for (const [k, v] of Object.entries(w)) if (ArrayBuffer.isView(v)) out[k] = v as Uint8Array;
    for (const [k, v] of Object.entries(w.spans)) {
      if (ArrayBuffer.isView(v)) out["spans." + k] = v as Uint8Array;
    }
    return out;
  };
  const ca = cols(a), cb = cols(b);
  assertEquals(Object.keys(ca).sort(), Object.keys(cb).sort(), what);
  assert(Object.keys(ca).length > 8, `${what}: ${Object.keys(ca)}`);
  for (const k of Object.keys(ca)) {
    const x = ca[k], y = cb[k];
    assertEquals(x.length, y.length, `${what}: ${k} length`);
    for (let i = 0; i < x.length; i++) {
      if (!Object.is(x[i], y[i])) throw new Error(`${what}: ${k}[${i}] ${x[i]} ≠ ${y[i]}`);
    }
  }
}

Deno.test("plan tiles: patches and windows from shared tiles equal fresh decodes, in plan order and again", async () => {
  const { zs, plain } = await zoneWithOpens();
  const rnd = mulberry32(11);
  const seed = { gx: 96, gy: 160, h: 0 };
  let opened = 0;
  for (let k = 0; k < 6; k++) {
    const cx = Math.floor(rnd() * 1800) + 100, cy = Math.floor(rnd() * 1800) + 100;
    const patchRect = { x0: cx - 20, y0: cy - 20, nx: 41, ny: 41 };
    const winRect = { x0: seed.gx - 80 - k * 40, y0: seed.gy - 60, nx: 700 + k * 90, ny: 650 };
    const inp = { region: 1, seed, noGo: emptyNoGoTable(), discs: [], rect: winRect };
    const freshPatch = decodePatch(zs, patchRect);
    const freshWin = buildWindow(zs, inp);
    const tiles = new PlanTiles(zs);
    const anchors = coreAnchorPx(zs, [[cx * 0.25, cy * 0.25], [seed.gx * 0.25, seed.gy * 0.25]]);
    assertEquals(
      coreAnchorPx(zs, [[cx * 0.25, cy * 0.25], [seed.gx * 0.25, seed.gy * 0.25]], tiles),
      anchors,
    );
    samePatch(decodePatch(zs, patchRect, tiles), freshPatch, `patch ${k}`);
    sameWindow(buildWindow(zs, inp, undefined, tiles), freshWin, `window ${k}`);
    // The window merged FSPN and FOPN into copies: the shared raw tiles are unchanged.
    let held = 0;
    for (let t = 0; t < zs.section.zones[zs.gridZone].tiles.length; t++) {
      if (!tiles.has(t)) continue;
      held++;
      const a = tiles.records(t), b = decodeBgrdTile(zs.section, zs.gridZone, t);
      for (const f of ["cell", "rid", "h", "clr", "flags", "steps"] as const) {
        assertEquals(Array.from(a[f]), Array.from(b[f]), `tile ${t} ${f} after window ${k}`);
      }
    }
    assert(held > 0, "the pre-checks held no tile");
    samePatch(decodePatch(zs, patchRect, tiles), freshPatch, `patch ${k} after the window`);
    assertEquals(
      coreAnchorPx(zs, [[cx * 0.25, cy * 0.25], [seed.gx * 0.25, seed.gy * 0.25]], tiles),
      anchors,
      `core anchors ${k} after the window`,
    );
    sameWindow(buildWindow(zs, inp, undefined, tiles), freshWin, `window ${k}, second build`);
    // Without the sidecar merge and FOPN the patch would differ where a cell was opened.
    const raw = decodePatch(plain, patchRect);
    for (let i = 0; i < raw.flags.length; i++) if (raw.flags[i] !== freshPatch.flags[i]) opened++;
  }
  assert(opened > 0, "no patch met an open cell: the test does not exercise FOPN");
});
