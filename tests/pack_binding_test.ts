/**
 * fitNoGoToPack / checkOccluderAgainstPack (src/pack/set/binding.ts): zones the main
 * pack does not have and polygons outside their zone make a table `mismatched`; a table none of
 * whose zones (or none of whose polygons) fits the pack is unusable.
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { type NoGoPolygonSpec, noGoTableFromSpec } from "../src/pack/nogo/table.ts";
import {
  checkNoGoAgainstPack,
  checkOccluderAgainstPack,
  fitNoGoToPack,
} from "../src/pack/set/binding.ts";

const square = (x: number, y: number, name?: string): NoGoPolygonSpec => ({
  name,
  rings: [[[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]]],
});

const PACK = [{ name: "map01base", width: 486, height: 486 }, {
  name: "tier",
  width: 30,
  height: 30,
}];

Deno.test("no-go binding: a table of this pack's zones, inside them, is ok", () => {
  const t = noGoTableFromSpec(
    new Map([["map01base", [square(375, 65)]], ["tier", [square(1, 1)]]]),
  );
  const c = fitNoGoToPack(t, PACK);
  assertEquals([c.status, c.usable, c.message], ["ok", true, null]);
  assertEquals(fitNoGoToPack(noGoTableFromSpec(new Map()), PACK).status, "ok");
  // Names only: no bounds check.
  assertEquals(fitNoGoToPack(t, ["map01base", "tier"]).status, "ok");
});

Deno.test("no-go binding: unknown zones and polygons outside their zone are refused", () => {
  const t = noGoTableFromSpec(
    new Map([["map01base", [square(375, 65), square(600, 600, "far")]], ["nowhere", [
      square(1, 1),
    ]]]),
  );
  const c = fitNoGoToPack(t, PACK);
  assertEquals(c.status, "mismatched");
  // Issue 27 item 15: a foreign zone next to an own one is not this pack's table either.
  assertEquals(c.usable, false);
  assertEquals(c.unknownZones, ["nowhere"]);
  assertEquals(c.outside.map((o) => [o.zone, o.polygon, o.name]), [["map01base", 1, "far"]]);
  assert(c.message!.includes('"nowhere"') && c.message!.includes('"far"'), c.message!);
  assertThrows(() => checkNoGoAgainstPack(t, PACK), NavscopeError);
  const one = noGoTableFromSpec(
    new Map([["map01base", [square(375, 65)]], ["nowhere", [square(1, 1)]]]),
  );
  assertEquals(fitNoGoToPack(one, PACK).usable, false);
});

Deno.test("no-go binding: another world's table makes the engine unusable", () => {
  const foreign = noGoTableFromSpec(new Map([["nav_test", [square(1, 1)]]]));
  const c = fitNoGoToPack(foreign, PACK);
  assertEquals([c.status, c.usable], ["mismatched", false]);
  assert(c.message!.includes("another world's table"), c.message!);
  const e = assertThrows(
    () => checkNoGoAgainstPack(foreign, PACK),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.where.section, "no-go table");
  // Every polygon outside its zone: also not this pack's.
  const out = noGoTableFromSpec(new Map([["tier", [square(100, 100)]]]));
  assertEquals(fitNoGoToPack(out, PACK).usable, false);
});

Deno.test("occluder binding: unknown record zones are mismatched; all unknown is foreign", () => {
  assertEquals(checkOccluderAgainstPack(["map01base"], PACK).status, "ok");
  assertEquals(checkOccluderAgainstPack([], PACK).status, "ok");
  const m = checkOccluderAgainstPack(["map01base", "x", "x"], PACK);
  assertEquals([m.status, m.unknownZones, m.foreign], ["mismatched", ["x"], false]);
  const f = checkOccluderAgainstPack(["nav_test"], PACK);
  assertEquals([f.status, f.foreign], ["mismatched", true]);
});
