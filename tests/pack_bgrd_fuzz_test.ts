/**
 * BGRD bounded fuzz: mutated, truncated and re-assembled sections either decode to valid
 * columns or throw a NavscopeError — never another exception, never a silent partial result.
 */
import { assert } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { ByteReader, ByteWriter, deflate, readStream } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import type { SpanColumns } from "../src/pack/grid_types.ts";
import { type BgrdInput, decodeBgrdTile, encodeBgrd, parseBgrd } from "../src/pack/bgrd/section.ts";
import { summarizeBgrd } from "../src/pack/bgrd/summary.ts";
import { randomTileSpans } from "../testing/synthetic_grid.ts";
import { allocSpanColumns } from "../src/pack/grid_types.ts";

function smallSection(seed: number, version: 2 | 3): Uint8Array {
  const rnd = mulberry32(seed);
  const input: BgrdInput = {
    version,
    zones: [0, 1].map((z) => ({
      name: `z${z}`,
      x0: 0,
      y0: 0,
      globalRegions: 9,
      tiles: [0, 1, 2].map((t) => {
        const nx = 3 + Math.floor(rnd() * 10);
        const ny = 3 + Math.floor(rnd() * 10);
        return {
          gx0: 0,
          gy0: 0,
          nx,
          ny,
          px0: 0,
          px1: nx - 1,
          py0: 0,
          py1: ny - 1,
          spans: t === 2 ? allocSpanColumns(0) : randomTileSpans(rnd, nx, ny, { maxLayers: 3 }),
        };
      }),
    })),
  };
  return encodeBgrd(input);
}

function checkValid(s: SpanColumns, nx: number, ny: number, records: number): void {
  assert(s.n === records, `decoded ${s.n} records, directory says ${records}`);
  for (let i = 0; i < s.n; i++) {
    assert(s.cell[i] >= 0 && s.cell[i] < nx * ny, "cell inside the tile");
    assert(i === 0 || s.cell[i] >= s.cell[i - 1], "cells ascending");
  }
}

/** Parses, decodes every tile and summarises; returns "ok" or the NavscopeError code. */
function exercise(bytes: Uint8Array): string {
  try {
    const sec = parseBgrd(bytes);
    sec.zones.forEach((z, zi) =>
      z.tiles.forEach((t, ti) => {
        checkValid(decodeBgrdTile(sec, zi, ti), t.nx, t.ny, t.records);
      })
    );
    summarizeBgrd(sec, { zeroResiduals: true });
    return "ok";
  } catch (e) {
    if (e instanceof NavscopeError) return e.code;
    throw new Error(`non-NavscopeError escaped: ${(e as Error)?.stack ?? e}`);
  }
}

Deno.test("bgrd fuzz: byte mutations and truncations of whole sections", () => {
  const rnd = mulberry32(99);
  const seen = new Set<string>();
  for (const version of [3, 2] as const) {
    const base = smallSection(5, version);
    for (let it = 0; it < 700; it++) {
      let b = base.slice();
      const mode = rnd();
      if (mode < 0.2) b = b.subarray(0, Math.floor(rnd() * b.length));
      else {
        const k = 1 + Math.floor(rnd() * 4);
        for (let j = 0; j < k; j++) {
          const at = Math.floor(rnd() * b.length);
          b[at] = rnd() < 0.5 ? b[at] ^ (1 << Math.floor(rnd() * 8)) : Math.floor(rnd() * 256);
        }
      }
      seen.add(exercise(b));
    }
  }
  assert(seen.size >= 4, `too few outcomes: ${[...seen]}`);
});

interface Parts {
  head: number[];
  select: Uint8Array;
  streams: Uint8Array[];
}

function partsOf(payload: Uint8Array): Parts {
  const r = new ByteReader(payload);
  const head = [r.varint(), r.f32(), r.varint(), r.varint(), r.varint()];
  const select = r.take(5 * head[4]).slice();
  const streams: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) streams.push(readStream(r).slice());
  return { head, select, streams };
}

function build(p: Parts): Uint8Array {
  const w = new ByteWriter();
  w.varint(p.head[0]).f32(p.head[1]).varint(p.head[2]).varint(p.head[3]).varint(p.head[4]);
  w.bytes(p.select);
  for (const s of p.streams) {
    const z = deflate(s);
    w.varint(z.length).bytes(z);
  }
  return w.finish();
}

Deno.test("bgrd fuzz: mutations inside the inflated v3 streams and header counts", () => {
  const rnd = mulberry32(7);
  const nx = 9;
  const ny = 7;
  const spans = randomTileSpans(rnd, nx, ny, { maxLayers: 4, occupancy: 0.7 });
  const base = encodeBgrd({
    zones: [{
      name: "z",
      x0: 0,
      y0: 0,
      globalRegions: 1,
      tiles: [{ gx0: 0, gy0: 0, nx, ny, px0: 0, px1: nx - 1, py0: 0, py1: ny - 1, spans }],
    }],
  });
  const sec = parseBgrd(base);
  const t = sec.zones[0].tiles[0];
  const payload = base.subarray(t.offset, t.offset + t.len);
  const seen = new Map<string, number>();
  for (let it = 0; it < 600; it++) {
    const p = partsOf(payload);
    const what = Math.floor(rnd() * 3);
    if (what === 0) {
      const s = Math.floor(rnd() * 8);
      const buf = p.streams[s];
      const m = rnd();
      if (m < 0.3 && buf.length) buf[Math.floor(rnd() * buf.length)] ^= 1 << Math.floor(rnd() * 8);
      else if (m < 0.6) p.streams[s] = buf.subarray(0, Math.floor(rnd() * buf.length));
      else p.streams[s] = new Uint8Array([...buf, Math.floor(rnd() * 256)]);
    } else if (what === 1) {
      const k = [0, 2, 3, 4][Math.floor(rnd() * 4)];
      p.head[k] = Math.max(0, p.head[k] + Math.floor(rnd() * 7) - 3);
    } else if (p.select.length) {
      p.select[Math.floor(rnd() * p.select.length)] = Math.floor(rnd() * 3);
    }
    const rebuilt = build(p);
    const code = exercise(withPayload(base, t, rebuilt));
    seen.set(code, (seen.get(code) ?? 0) + 1);
  }
  assert(seen.size >= 4, `too few outcomes: ${[...seen.keys()]}`);
});

function withPayload(
  base: Uint8Array,
  t: { offset: number; len: number },
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(t.offset + payload.length);
  out.set(base.subarray(0, t.offset));
  out.set(payload, t.offset);
  // The only tile's len field sits 8 bytes after its offset field: find it by value.
  const v = new DataView(out.buffer);
  for (let i = 40; i + 12 <= t.offset; i += 4) {
    if (v.getUint32(i, true) === t.offset && v.getUint32(i + 8, true) === t.len) {
      v.setUint32(i + 8, payload.length, true);
      break;
    }
  }
  return out;
}
