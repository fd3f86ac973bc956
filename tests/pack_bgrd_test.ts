/**
 * BGRD grid section: tile and section round trips, byte-exact re-encoding, determinism, the
 * predictors against a brute-force reading of the spec, the select choice, the occupancy index
 * and the summary.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { ByteReader, readStream, zigzagEncode } from "../src/codec/mod.ts";
import { allocSpanColumns, type SpanColumns, SpanFlag } from "../src/pack/grid_types.ts";
import {
  BGRD_WINDOW_CELLS,
  type BgrdInput,
  bgrdTilePayload,
  decodeBgrd,
  decodeBgrdTile,
  encodeBgrd,
  parseBgrd,
  standardTileLayout,
} from "../src/pack/bgrd/section.ts";
import { decodeTileV3, encodeTileV3 } from "../src/pack/bgrd/tile_v3.ts";
import { decodeTileV2, encodeTileV2 } from "../src/pack/bgrd/tile_v2.ts";
import { dequantHeight, type TileContext } from "../src/pack/bgrd/tile_common.ts";
import { OccupancyIndex, popcount32 } from "../src/pack/bgrd/occupancy.ts";
import { BgrdScratch } from "../src/pack/bgrd/streams.ts";
import { BGRD_SUMMARY_HEADINGS, bgrdSummaryRows, summarizeBgrd } from "../src/pack/bgrd/summary.ts";
import { randomTileSpans, syntheticWorld } from "../testing/synthetic_grid.ts";

function ctxFor(nx: number, ny: number, records: number): TileContext {
  return { nx, ny, records, where: { section: "BGRD", zone: "t", tile: 0 }, base: 0 };
}

function cols(s: SpanColumns) {
  const n = s.n;
  return {
    n,
    cell: Array.from(s.cell.subarray(0, n)),
    rid: Array.from(s.rid.subarray(0, n)),
    h: Array.from(s.h.subarray(0, n)),
    clr: Array.from(s.clr.subarray(0, n)),
    flags: Array.from(s.flags.subarray(0, n)),
    steps: Array.from(s.steps.subarray(0, n)),
  };
}

function randomShape(rnd: () => number): [number, number] {
  return [1 + Math.floor(rnd() * 40), 1 + Math.floor(rnd() * 40)];
}

Deno.test("bgrd v3 tile: random round trips are exact, and re-encoding gives the same bytes", () => {
  const rnd = mulberry32(11);
  for (let t = 0; t < 150; t++) {
    const [nx, ny] = randomShape(rnd);
    const s = randomTileSpans(rnd, nx, ny, {
      occupancy: rnd(),
      maxLayers: 1 + Math.floor(rnd() * 5),
      regions: 1 + Math.floor(rnd() * 8),
    });
    const bytes = encodeTileV3(s, nx, ny);
    const d = decodeTileV3(bytes, ctxFor(nx, ny, s.n));
    assertEquals(cols(d), cols(s), `tile ${t}`);
    assertEquals(encodeTileV3(d, nx, ny), bytes, `re-encode tile ${t}`);
  }
});

Deno.test("bgrd v2 tile: random round trips are exact, and re-encoding gives the same bytes", () => {
  const rnd = mulberry32(12);
  for (let t = 0; t < 100; t++) {
    const [nx, ny] = randomShape(rnd);
    const s = randomTileSpans(rnd, nx, ny, { occupancy: rnd(), maxLayers: 4 });
    const bytes = encodeTileV2(s, nx, ny);
    const d = decodeTileV2(bytes, ctxFor(nx, ny, s.n));
    assertEquals(cols(d), cols(s), `tile ${t}`);
    assertEquals(encodeTileV2(d, nx, ny), bytes);
  }
});

Deno.test("bgrd tile: an empty tile is the single byte n = 0", () => {
  const empty = allocSpanColumns(0);
  assertEquals(encodeTileV3(empty, 641, 641), new Uint8Array([0]));
  assertEquals(decodeTileV3(new Uint8Array([0]), ctxFor(641, 641, 0)).n, 0);
  assertEquals(decodeTileV2(encodeTileV2(empty, 8, 8), ctxFor(8, 8, 0)).n, 0);
});

Deno.test("bgrd tile: heights follow h = f32(hmin + q/64) and Fill records read back as 0", () => {
  const s = allocSpanColumns(3);
  s.cell.set([0, 1, 1]);
  s.h.set([Math.fround(100.1), 0, Math.fround(100.1) + 5 / 64]);
  s.flags.set([SpanFlag.Walk, SpanFlag.Fill, SpanFlag.Walk]);
  const bytes = encodeTileV3(s, 2, 1);
  // varint n = 3, then f32 hmin: the lowest non-Fill height.
  const r = new ByteReader(bytes);
  assertEquals(r.varint(), 3);
  assertEquals(r.f32(), Math.fround(100.1));
  const d = decodeTileV3(bytes, ctxFor(2, 1, 3));
  assertEquals(d.h[0], Math.fround(100.1));
  assertEquals(d.h[1], 0);
  assertEquals(d.h[2], Math.fround(Math.fround(100.1) + 5 / 64));
  assertEquals(d.h[2], Math.fround(dequantHeight(Math.fround(100.1), 5)));
  // Quantisation to 1/64 m (≈ 1.6 cm): an off-grid height is rounded to the nearest step.
  s.h[2] = Math.fround(100.1) + 0.03;
  const q = decodeTileV3(encodeTileV3(s, 2, 1), ctxFor(2, 1, 3));
  assertEquals(q.h[2], Math.fround(Math.fround(100.1) + 2 / 64));
});

// ---- The predictors against a brute-force reading of the spec ------------------------------

interface RawV3 {
  n: number;
  hmin: number;
  regions: number;
  ncell: number;
  kmax: number;
  select: Uint8Array;
  streams: Uint8Array[];
}

function rawV3(bytes: Uint8Array): RawV3 {
  const r = new ByteReader(bytes);
  const n = r.varint();
  const hmin = r.f32();
  const regions = r.varint();
  const ncell = r.varint();
  const kmax = r.varint();
  const select = r.take(5 * kmax).slice();
  const streams: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) streams.push(readStream(r));
  r.expectEnd();
  return { n, hmin, regions, ncell, kmax, select, streams };
}

function varints(buf: Uint8Array): number[] {
  const r = new ByteReader(buf);
  const out: number[] = [];
  while (r.remaining) out.push(r.varint());
  return out;
}

/**
 * The residual streams written straight from the spec's words: for each field, layer and cell
 * (ascending), Up = the value of this layer in the nearest smaller cell index of the same column
 * that has the layer (0 if none), Down = the same cell's layer below.
 */
function referenceResiduals(s: SpanColumns, nx: number, raw: RawV3): number[][] {
  const byCell = new Map<number, number[]>();
  for (let i = 0; i < s.n; i++) {
    if (!byCell.has(s.cell[i])) byCell.set(s.cell[i], []);
    byCell.get(s.cell[i])!.push(i);
  }
  const cells = [...byCell.keys()].sort((a, b) => a - b);
  const dict = [...new Set(Array.from(s.rid.subarray(0, s.n)))].sort((a, b) => a - b);
  const value = (f: number, i: number): number => {
    switch (f) {
      case 0:
        return s.flags[i] & SpanFlag.Fill ? 0 : Math.round((s.h[i] - raw.hmin) * 64);
      case 1:
        return dict.indexOf(s.rid[i]);
      case 2:
        return s.clr[i];
      case 3:
        return s.flags[i];
      default:
        return s.steps[i];
    }
  };
  const out: number[][] = [];
  for (let f = 0; f < 5; f++) {
    const res: number[] = [];
    for (let L = 0; L < raw.kmax; L++) {
      const sel = raw.select[f * raw.kmax + L];
      for (let k = 0; k < cells.length; k++) {
        const recs = byCell.get(cells[k])!;
        if (recs.length <= L) continue;
        const v = value(f, recs[L]);
        let pred = 0;
        if (sel === 1) pred = value(f, recs[L - 1]);
        else {
          for (let k2 = k - 1; k2 >= 0; k2--) {
            const r2 = byCell.get(cells[k2])!;
            if (cells[k2] % nx === cells[k] % nx && r2.length > L) {
              pred = value(f, r2[L]);
              break;
            }
          }
        }
        res.push(zigzagEncode(v - pred));
      }
    }
    out.push(res);
  }
  return out;
}

Deno.test("bgrd v3: residual streams equal a brute-force reading of Up and Down", () => {
  const rnd = mulberry32(21);
  let downs = 0;
  for (let t = 0; t < 40; t++) {
    const [nx, ny] = randomShape(rnd);
    const s = randomTileSpans(rnd, nx, ny, { occupancy: 0.3 + rnd() * 0.7, maxLayers: 4 });
    // Make the upper layers repeat the layer below often, so Down gets chosen.
    for (let i = 1; i < s.n; i++) {
      if (s.cell[i] === s.cell[i - 1] && rnd() < 0.9) {
        s.clr[i] = s.clr[i - 1];
        s.steps[i] = s.steps[i - 1];
      }
    }
    const bytes = encodeTileV3(s, nx, ny);
    const raw = rawV3(bytes);
    for (let i = 0; i < raw.select.length; i++) if (raw.select[i] === 1) downs++;
    const ref = referenceResiduals(s, nx, raw);
    for (let f = 0; f < 5; f++) {
      assertEquals(varints(raw.streams[3 + f]), ref[f], `tile ${t} f ${f}`);
    }
    // Stream 0: first cell absolute, then steps; stream 1: depths; stream 2: dictionary steps.
    const cells = [...new Set(Array.from(s.cell.subarray(0, s.n)))];
    assertEquals(varints(raw.streams[0]), cells.map((c, i) => (i ? c - cells[i - 1] : c)));
    assertEquals(varints(raw.streams[1]), cells.map((c) => s.cell.filter((x) => x === c).length));
  }
  assert(downs > 0, "the encoder never chose Down on layer-correlated data");
});

Deno.test("bgrd v3: Up skips rows without the layer and restarts at 0 per (field, layer)", () => {
  // 1 × 4 column: cells 0 and 3 have two layers, cells 1 and 2 only one.
  const s = allocSpanColumns(6);
  s.cell.set([0, 0, 1, 2, 3, 3]);
  s.clr.set([10, 50, 11, 12, 13, 53]);
  const raw = rawV3(encodeTileV3(s, 1, 4, {}, { allUp: true }));
  // clr stream: layer 0 = 10, 11, 12, 13 → 10, +1, +1, +1; layer 1 restarts: 50 − 0, 53 − 50.
  assertEquals(varints(raw.streams[5]), [10, 1, 1, 1, 50, 3].map(zigzagEncode));
});

Deno.test("bgrd v3: the chosen selects are never larger than all-Up", () => {
  const rnd = mulberry32(31);
  for (let t = 0; t < 40; t++) {
    const [nx, ny] = randomShape(rnd);
    const s = randomTileSpans(rnd, nx, ny, { maxLayers: 5 });
    for (let i = 1; i < s.n; i++) {
      if (s.cell[i] === s.cell[i - 1] && rnd() < 0.5) s.clr[i] = s.clr[i - 1] + 1;
    }
    const chosen = encodeTileV3(s, nx, ny);
    const allUp = encodeTileV3(s, nx, ny, {}, { allUp: true });
    assert(chosen.length <= allUp.length, `tile ${t}: ${chosen.length} > ${allUp.length}`);
  }
});

// ---- Sections ------------------------------------------------------------------------------

function randomSection(seed: number, version: 2 | 3): BgrdInput {
  const rnd = mulberry32(seed);
  const zones = [];
  for (let z = 0; z < 3; z++) {
    const tiles = [];
    const nt = z === 2 ? 0 : 1 + Math.floor(rnd() * 4);
    for (let t = 0; t < nt; t++) {
      const nx = 2 + Math.floor(rnd() * 30);
      const ny = 2 + Math.floor(rnd() * 30);
      const empty = rnd() < 0.25;
      tiles.push({
        gx0: Math.floor(rnd() * 2000) - 1000,
        gy0: Math.floor(rnd() * 2000) - 1000,
        nx,
        ny,
        px0: 1,
        px1: nx - 1,
        py0: 0,
        py1: ny - 2,
        spans: empty ? allocSpanColumns(0) : randomTileSpans(rnd, nx, ny, { maxLayers: 3 }),
      });
    }
    zones.push({
      name: ["map01base", "ab", "空区"][z],
      x0: rnd() * 100,
      y0: -rnd() * 100,
      globalRegions: 77,
      tiles,
    });
  }
  return { version, zones };
}

function normalise(input: BgrdInput) {
  return input.zones.map((z) => ({
    ...z,
    tiles: z.tiles.map((t) => ({ ...t, spans: cols(t.spans) })),
  }));
}

for (const version of [3, 2] as const) {
  Deno.test(`bgrd v${version} section: encode → parse → decode → encode is byte-exact`, () => {
    for (let seed = 1; seed <= 6; seed++) {
      const input = randomSection(seed, version);
      const bytes = encodeBgrd(input);
      const section = parseBgrd(bytes, { file: "mem.nav" });
      assertEquals(section.version, version);
      assertEquals(section.cellSize, 0.25);
      assertEquals([section.tilePx, section.apronPx], [128, 16]);
      const back = decodeBgrd(section);
      assertEquals(normalise(back), normalise(input));
      assertEquals(encodeBgrd(back), bytes);
      // Deterministic: a second encode of fresh copies gives the same bytes.
      assertEquals(encodeBgrd(randomSection(seed, version)), bytes);
    }
  });
}

Deno.test("bgrd section: directory fields land where format-notes puts them", () => {
  const input = randomSection(3, 3);
  const bytes = encodeBgrd(input);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assertEquals(new TextDecoder().decode(bytes.subarray(0, 4)), "BGRD");
  assertEquals(v.getUint32(4, true), 3);
  assertEquals(v.getFloat64(8, true), 0.25);
  assertEquals(v.getUint32(32, true), 3);
  // Zone 0: u32 name length 9, name padded to 12, f64 x0, f64 y0, u32 regions, u32 tiles.
  assertEquals(v.getUint32(40, true), 9);
  assertEquals(v.getUint32(44 + 12 + 16, true), 77);
  const t0 = 44 + 12 + 24;
  const tile = input.zones[0].tiles[0];
  assertEquals(v.getInt32(t0, true), tile.gx0);
  assertEquals(v.getInt32(t0 + 16, true), tile.px0);
  assertEquals(v.getInt32(t0 + 20, true), tile.px1);
  assertEquals(v.getUint32(t0 + 44, true), tile.spans.n);
  const section = parseBgrd(bytes);
  const off = Number(v.getBigUint64(t0 + 32, true));
  assertEquals(
    bgrdTilePayload(section, 0, 0),
    bytes.subarray(off, off + v.getUint32(t0 + 40, true)),
  );
});

Deno.test("bgrd: standard tile layout — 641-cell windows, owned rectangles tile the zone", () => {
  const w = 1300;
  const h = 700;
  const tiles = standardTileLayout(40, -8, w, h);
  assertEquals(tiles.length, 3 * 2);
  const owned = new Uint8Array(w * h);
  for (const t of tiles) {
    assertEquals([t.nx, t.ny], [BGRD_WINDOW_CELLS, BGRD_WINDOW_CELLS]);
    assertEquals([t.px0, t.px1, t.py0, t.py1], [64, 575, 64, 575]);
    for (let y = t.py0; y <= t.py1; y++) {
      for (let x = t.px0; x <= t.px1; x++) {
        const gx = t.gx0 + x - 40;
        const gy = t.gy0 + y + 8;
        if (gx < w && gy < h) owned[gy * w + gx]++;
      }
    }
  }
  assert(owned.every((c) => c === 1), "every zone cell owned exactly once");
});

// ---- Occupancy index -----------------------------------------------------------------------

Deno.test("occupancy: popcount and rank equal brute force; first record and layer counts", () => {
  const rnd = mulberry32(41);
  for (const x of [0, 1, 0xffffffff, 0x80000000, 0x12345678]) {
    let c = 0;
    for (let b = 0; b < 32; b++) c += (x >>> b) & 1;
    assertEquals(popcount32(x), c);
  }
  for (let t = 0; t < 30; t++) {
    const nx = 1 + Math.floor(rnd() * 200);
    const ny = 1 + Math.floor(rnd() * 20);
    const s = randomTileSpans(rnd, nx, ny, { occupancy: rnd(), maxLayers: 4 });
    const idx = OccupancyIndex.fromSpans(s, nx * ny);
    const first = new Int32Array(nx * ny).fill(-1);
    const count = new Int32Array(nx * ny);
    for (let i = 0; i < s.n; i++) {
      if (first[s.cell[i]] < 0) first[s.cell[i]] = i;
      count[s.cell[i]]++;
    }
    let rank = 0;
    for (let c = 0; c < nx * ny; c++) {
      assertEquals(idx.rankOf(c), rank);
      assertEquals(idx.firstRecord(c), first[c]);
      assertEquals(idx.layerCount(c), count[c]);
      if (count[c]) rank++;
    }
    assertEquals(idx.occupiedCells, rank);
    assertEquals(idx.indexBytes, 12 * Math.ceil((nx * ny) / 64));
  }
});

// ---- Summary and the realistic world -------------------------------------------------------

Deno.test("bgrd summary: parts add up to the payload bytes; synthetic world round trip", () => {
  const world = syntheticWorld({ seed: 3, width: 700, height: 600 });
  const bytes = encodeBgrd(world);
  const section = parseBgrd(bytes);
  const sum = summarizeBgrd(section, { zeroResiduals: true });
  const z = sum.zones[0];
  const payload = section.zones[0].tiles.reduce((a, t) => a + t.len, 0);
  assertEquals(z.bytes.total, payload);
  assertEquals(z.tiles, 4);
  assertEquals(z.records, world.zones[0].tiles.reduce((a, t) => a + t.spans.n, 0));
  assert(z.kmax >= 2, "multi-layer cells");
  assert(z.bytesPerRecord.total < 1.2, `bytes per record ${z.bytesPerRecord.total}`);
  assert(z.zeroShare!.steps > 0.9, "step bans rarely change");
  for (let t = 0; t < 4; t++) {
    const d = decodeBgrdTile(section, 0, t);
    assertEquals(cols(d), cols(world.zones[0].tiles[t].spans));
    for (let i = 1; i < d.n; i++) {
      if (d.cell[i] === d.cell[i - 1]) assert(d.h[i] > d.h[i - 1], "layers ascend in height");
    }
  }
  assertEquals(encodeBgrd(decodeBgrd(section)), bytes);
});

Deno.test("bgrd decode: one reused output and scratch across tiles of different sizes", () => {
  const input = randomSection(9, 3);
  input.zones[0].tiles.reverse(); // small after large and large after small
  const section = parseBgrd(encodeBgrd(input));
  const into = allocSpanColumns(0);
  const scratch = new BgrdScratch();
  for (let round = 0; round < 2; round++) {
    section.zones.forEach((z, zi) =>
      z.tiles.forEach((_t, ti) => {
        const fresh = cols(decodeBgrdTile(section, zi, ti));
        assertEquals(cols(decodeBgrdTile(section, zi, ti, into, scratch)), fresh);
      })
    );
  }
});

Deno.test("bgrd summary rows: one per zone plus the total, spec column order", () => {
  const section = parseBgrd(encodeBgrd(randomSection(4, 3)));
  const s = summarizeBgrd(section);
  const rows = bgrdSummaryRows(s);
  assertEquals(rows.length, section.zones.length + 1);
  assertEquals(rows.at(-1)![0], "total");
  assertEquals(rows[0].length, BGRD_SUMMARY_HEADINGS.length);
  assertEquals(Number(rows.at(-1)![3]), section.zones.reduce((a, z) => a + z.records, 0));
  assertEquals(s.total.bytes.total, section.bytes.length - section.directoryEnd);
});
