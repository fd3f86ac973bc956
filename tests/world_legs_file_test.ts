/**
 * legs.json reading: format and version checked, unknown top-level keys refused, `checks`
 * validated, zone names plausible, strict JSON underneath (issue 27 item 11).
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { encodeLegs, type Leg, parseLegs } from "../src/legs/format.ts";

const leg: Leg = {
  id: "a",
  zone: "map01base",
  start: [1, 2],
  goal: [3, 4],
  expected: "ok",
  landmarks: [],
  note: "",
};
const doc = (over: Record<string, unknown>, legs: unknown[] = [leg]) =>
  JSON.stringify({ format: "navscope-legs", version: 1, legs, ...over });

const refused = (text: string, ...parts: string[]): NavscopeError => {
  const e = assertThrows(() => parseLegs(text, "b.json"), NavscopeError) as NavscopeError;
  assert(e.message.startsWith("b.json"), e.message);
  for (const p of parts) assert(e.message.includes(p), `${p} in ${e.message}`);
  return e;
};

Deno.test("legs file: format and version are checked", () => {
  refused(doc({ format: "navscope-world" }), "$.format", "navscope-world");
  assertEquals(refused(doc({ version: 99 }), "$.version", "99").code, "bad_version");
  refused(JSON.stringify({ legs: [leg] }), "$.format", "missing");
  refused(JSON.stringify({ format: "navscope-legs", legs: [leg] }), "$.version");
  refused(doc({ legs: "x" }), "$.legs", "not an array");
  refused("[]", "$", "not an object");
  assertEquals(parseLegs(encodeLegs([leg]), "b.json"), [leg]);
});

Deno.test("legs file: unknown top-level keys are refused", () => {
  refused(doc({ extra: 1 }), "$.extra", "unknown");
  refused(doc({ Legs: [] }), "$.Legs");
});

Deno.test("legs file: checks are validated (names, types, ranges)", () => {
  refused(doc({}, [{ ...leg, checks: "garbage" }]), "$.legs[0].checks", "garbage");
  refused(doc({}, [{ ...leg, checks: { typo_px: 3 } }]), "$.legs[0].checks.typo_px", "unknown");
  refused(doc({}, [{ ...leg, checks: { max_length_px: "12" } }]), "$.legs[0].checks.max_length_px");
  refused(doc({}, [{ ...leg, checks: { min_length_px: -1 } }]), "min_length_px");
  refused(doc({}, [{ ...leg, checks: { min_length_px: 5, max_length_px: 4 } }]), "min ≤ max");
  refused(doc({}, [{ ...leg, checks: [] }]), "$.legs[0].checks");
  const ok = { ...leg, checks: { max_length_px: 12, min_length_px: 0 } };
  assertEquals(parseLegs(doc({}, [ok]), "b.json")[0].checks, ok.checks);
});

Deno.test("legs file: duplicate keys, control characters and empty zone names are refused", () => {
  refused(
    '{"format": "navscope-legs", "version": 1, "legs": [], "legs": []}',
    "duplicate key",
    "$.legs",
  );
  refused(doc({}, [{ ...leg, zone: "" }]), "$.legs[0].zone");
  refused(doc({}, [{ ...leg, zone: "map\u0000" }]), "$.legs[0].zone", "\\u0000");
  refused(doc({}, [{ ...leg, zone: " map01base" }]), "$.legs[0].zone");
  refused(doc({}, [{ ...leg, zone: "map\ufffd" }]), "U+FFFD");
  const e = refused(
    '{"format": "navscope-legs", "version": 1, "legs": [{"id": "a", "zone": "\\ud800"}]}',
    "lone surrogate",
  );
  assertEquals(e.where.line, 1);
});

Deno.test("legs file: zone names with bidi overrides or zero-width characters are refused", () => {
  refused(doc({}, [{ ...leg, zone: "\u202eevil" }]), "$.legs[0].zone", "\\u202e");
  refused(doc({}, [{ ...leg, zone: "map\u200b01base" }]), "$.legs[0].zone");
  assertEquals(parseLegs(doc({}, [{ ...leg, zone: "地图01" }]), "b.json")[0].zone, "地图01");
});

Deno.test("legs file: leg ids, notes and landmarks with control characters are refused", () => {
  // CLI fuzz: `"id": "\u0000"` and a note with a backspace were accepted and garbled the tables.
  refused(doc({}, [{ ...leg, id: "a\u0000" }]), "$.legs[0].id", "U+0000");
  refused(doc({}, [{ ...leg, id: "a\u0008b" }]), "$.legs[0].id", "U+0008");
  refused(doc({}, [{ ...leg, id: " a" }]), "$.legs[0].id", "white space");
  refused(doc({}, [{ ...leg, note: "a\u0008b" }]), "$.legs[0].note", "U+0008");
  refused(doc({}, [{ ...leg, note: "a\u009bb" }]), "$.legs[0].note", "U+009B");
  refused(doc({}, [{ ...leg, landmarks: ["ok", "x\u0007"] }]), "$.legs[0].landmarks[1]");
  // Tabs and line feeds are text; other scripts too.
  const fine = { ...leg, id: "台阶_1", note: "two lines\n\tindented", landmarks: ["门"] };
  assertEquals(parseLegs(doc({}, [fine]), "b.json"), [fine]);
});
