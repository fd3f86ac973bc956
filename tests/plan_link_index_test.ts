/**
 * The off-mesh link index (src/plan/route/search/link_index.ts) against a brute-force scan: for
 * every span, the links ending there in table order, on random link tables (ends clustered on a
 * few spans, spans across 32-bit word edges, no links at all).
 */
import { assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { LinkIndex } from "../src/plan/route/search/link_index.ts";

/** The links whose end is s, ascending (the brute-force reference). */
function linksAt(end: Int32Array, n: number, s: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (end[i] === s) out.push(i);
  return out;
}

/** The index's links of span s. */
function rowOf(x: LinkIndex, s: number): number[] {
  const r = x.row(s);
  return r < 0 ? [] : [...x.order.subarray(x.start[r], x.start[r + 1])];
}

Deno.test("link index: every span's links in table order, as a brute-force scan finds them", () => {
  const rnd = mulberry32(36);
  for (let trial = 0; trial < 200; trial++) {
    const spans = 1 + Math.floor(rnd() * 300);
    const n = trial % 10 === 0 ? 0 : Math.floor(rnd() * 40);
    // A few hot spans (several links each) and the rest anywhere, so rows have 1..many links.
    const hot = [0, spans - 1, Math.floor(rnd() * spans)];
    const end = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      end[i] = rnd() < 0.4 ? hot[Math.floor(rnd() * 3)] : Math.floor(rnd() * spans);
    }
    const x = new LinkIndex(end, n, spans);
    for (let s = 0; s < spans; s++) assertEquals(rowOf(x, s), linksAt(end, n, s), `span ${s}`);
    assertEquals(x.start[x.ends.length], n);
  }
});
