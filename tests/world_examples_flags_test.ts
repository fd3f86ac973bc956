/**
 * Census over every example world (issue 8 item 3): every Dead+Core record carries Walk — Walk
 * is layer ∧ core, and Dead does not take a cell out of the layer. Before the fix the example
 * bakes had e.g. proto_level 14 696 Dead+Core records, none with Walk.
 */
import { assert, assertEquals } from "./assert.ts";
import { readMaybeGzip } from "../src/codec/mod.ts";
import { decodeMainPack } from "../src/pack/bnav/mod.ts";
import { decodeBgrdTile, parseBgrd } from "../src/pack/bgrd/section.ts";
import { allocSpanColumns, SpanFlag } from "../src/pack/grid_types.ts";

const WORLDS = ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"];

Deno.test("examples: every Dead+Core record carries Walk", async () => {
  const { Dead, Core, Walk } = SpanFlag;
  for (const w of WORLDS) {
    const bytes = await readMaybeGzip(
      new URL(`../examples/${w}/base.nav.gz`, import.meta.url).pathname,
    );
    const g = decodeMainPack(bytes).gridSection!;
    const section = parseBgrd(bytes.subarray(g.offset, g.offset + g.size));
    let deadCore = 0, withoutWalk = 0;
    const into = allocSpanColumns(0);
    section.zones.forEach((z, zi) => {
      for (let t = 0; t < z.tiles.length; t++) {
        const s = decodeBgrdTile(section, zi, t, into);
        for (let r = 0; r < s.n; r++) {
          if ((s.flags[r] & (Dead | Core)) !== (Dead | Core)) continue;
          deadCore++;
          if ((s.flags[r] & Walk) === 0) withoutWalk++;
        }
      }
    });
    assert(deadCore > 0, `${w}: the census found Dead+Core records`);
    assertEquals(withoutWalk, 0, `${w}: ${withoutWalk} of ${deadCore} Dead+Core records lack Walk`);
  }
});
