/**
 * Bounded fuzz of the sidecar decoder: mutated or truncated files either decode fully or throw
 * one NavscopeError — never any other exception (RangeError, TypeError …). Fixed seeds.
 */
import { assert } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  decodeFieldsTile,
  decodeSidecar,
  encodeFieldsTile,
  encodeSidecar,
} from "../src/pack/bnvf/sidecar.ts";
import { applyOpenCells, mergeFields } from "../src/pack/bnvf/merge.ts";
import { allocSpanColumns } from "../src/pack/grid_types.ts";
import { synthFieldsTile, synthSidecar } from "../testing/bnvf_synth.ts";
import type { SidecarExpectations } from "../src/pack/bnvf/types.ts";

function tryDecode(bytes: Uint8Array, expect: SidecarExpectations | null): "ok" | "error" {
  try {
    const { pack, model } = decodeSidecar(bytes, expect);
    // A decoded model must also merge or fail cleanly.
    for (const z of model.zones) {
      for (const t of z.tiles) {
        const cols = allocSpanColumns(t.n);
        cols.clr.fill(0xffff);
        mergeFields(cols, t);
        applyOpenCells(cols, { gx0: 0, gy0: 0, nx: 64 }, pack.opens, 0);
      }
    }
    encodeSidecar(model);
    return "ok";
  } catch (e) {
    if (e instanceof NavscopeError) return "error";
    throw new Error(`non-NavscopeError escaped: ${(e as Error)?.stack ?? e}`);
  }
}

Deno.test("fuzz: byte mutations and truncations of whole sidecars", () => {
  const rnd = mulberry32(1234);
  let ok = 0, bad = 0;
  for (let f = 0; f < 6; f++) {
    const { model, expect } = synthSidecar(rnd, { zones: 2, tiles: 2, maxRecords: 60 });
    const bytes = encodeSidecar(model);
    for (let k = 0; k < 250; k++) {
      const m = bytes.slice();
      const edits = 1 + Math.floor(rnd() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rnd() * m.length);
        m[at] = rnd() < 0.5 ? m[at] ^ (1 << Math.floor(rnd() * 8)) : Math.floor(rnd() * 256);
      }
      const r = tryDecode(
        k % 2 ? m : m.subarray(0, Math.floor(rnd() * m.length)),
        k % 3 ? expect : null,
      );
      if (r === "ok") ok++;
      else bad++;
    }
  }
  assert(bad > 0 && ok + bad === 1500, `${ok} ok / ${bad} errors`);
});

Deno.test("fuzz: mutated FSPN tile payloads", () => {
  const rnd = mulberry32(77);
  for (let k = 0; k < 600; k++) {
    const t = synthFieldsTile(rnd, 1 + Math.floor(rnd() * 100));
    const p = encodeFieldsTile(t);
    const m = p.slice(0, rnd() < 0.2 ? Math.floor(rnd() * p.length) : p.length);
    if (m.length) m[Math.floor(rnd() * m.length)] ^= 1 + Math.floor(rnd() * 255);
    try {
      decodeFieldsTile(m, t.n, {});
    } catch (e) {
      if (!(e instanceof NavscopeError)) throw e;
    }
  }
});
