/** OBJ numbers and indices (issue 27 item 10): no u32 wrap, decimal numbers only, UTF-8. */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { parseObj } from "../src/world/obj.ts";

const V = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
const refused = (text: string, line: number, ...parts: string[]): NavscopeError => {
  const e = assertThrows(() => parseObj(text, "m.obj"), NavscopeError) as NavscopeError;
  assertEquals(e.where.line, line, e.message);
  assert(e.message.startsWith(`m.obj: line ${line}`), e.message);
  for (const p of parts) assert(e.message.includes(p), `${p} in ${e.message}`);
  return e;
};

Deno.test("OBJ: face indices at or beyond 2^32 are errors, not wrapped to small indices", () => {
  refused(V + "f 4294967297 2 3\n", 4, "4294967297");
  refused(V + "f 1 2 8589934593\n", 4, "8589934593");
  refused(V + "f -4294967297 2 3\n", 4);
  refused(V + "f 4294967295 2 3\n", 4, "4294967295", "3 vertices"); // in u32, but no such vertex
  assertEquals([...parseObj(V + "f 1 2 3\n", "m.obj").triangles], [0, 1, 2]);
});

Deno.test("OBJ: hex, binary and octal literals are not numbers", () => {
  refused("v 0x10 0 0\n", 1, "0x10");
  refused("v 0 0b11 0\n", 1, "0b11");
  refused("v 0 0 0o7\n", 1, "0o7");
  refused("v 1_0 0 0\n", 1);
  refused("v Infinity 0 0\n", 1);
  const o = parseObj("v 1e1 -.5 +2.\n", "m.obj");
  assertEquals([...o.positions], [10, -0.5, 2]);
});

Deno.test("OBJ: invalid UTF-8 (U+FFFD after decoding) is refused with its line", () => {
  refused(V + "g wall\ufffd\n", 4, "UTF-8");
});
