/**
 * Tile stitching on a real mesh (slow tier, tests/tiers.ts: two bakes of dungeon.obj): the 3 × 3
 * tiles of dungeon.obj equal the operators run once over a single window covering the whole zone
 * (tests/bake_stitching.ts).
 */
import { compareWithWholeZone } from "./bake_stitching.ts";

Deno.test({
  name: "bake stitching: dungeon.obj (3 × 3 tiles) equals a whole-zone single-window bake",
  fn: () => compareWithWholeZone(new URL("./fixtures/bake/dungeon.json", import.meta.url).pathname),
});
