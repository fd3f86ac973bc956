/**
 * The strict JSON reader (src/codec/json_strict.ts) and every navscope JSON reader behind it:
 * duplicate keys, inexact integers, out-of-range numbers, lone surrogates, U+FFFD, invalid
 * UTF-8 and syntax errors are one located line (issue 27 items 12 and 14).
 */
import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  checkJsonText,
  escapeControls,
  firstInvalidUtf8,
  parseJsonStrict,
  readJsonFile,
} from "../src/codec/json_strict.ts";
import { parseNoGoTable } from "../src/pack/nogo/table.ts";
import { parseManifest } from "../src/world/manifest.ts";
import { parseThresholds } from "../src/analyze/diff.ts";
import { loadRulesFile } from "../src/analyze/rules.ts";

const bad = (text: string, ...parts: string[]): NavscopeError => {
  const e = assertThrows(
    () => parseJsonStrict(text, { file: "f.json" }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assert(e.message.startsWith("f.json: line "), e.message);
  assert(
    // deno-lint-ignore no-control-regex
    !/[\x00-\x1f]/.test(e.message),
    `one line, no control bytes: ${JSON.stringify(e.message)}`,
  );
  for (const p of parts) assert(e.message.includes(p), `${p} in ${e.message}`);
  return e;
};

Deno.test("strict JSON: duplicate keys are refused with the JSON path, at any depth", () => {
  bad('{"a": 1, "a": 2}', "duplicate key", "$.a");
  bad('{"zones": {"map01base": [], "map01base": [1]}}', "duplicate key", "$.zones.map01base");
  bad('[{"x": 1}, {"x": 1, "y": 2, "x": 3}]', "$[1].x");
  // The same key in sibling objects is fine.
  assertEquals(parseJsonStrict('[{"x": 1}, {"x": 2}]', {}), [{ x: 1 }, { x: 2 }]);
  // An escaped spelling of the same key is the same key.
  bad('{"ab": 1, "a\\u0062": 2}', "duplicate key");
});

Deno.test("strict JSON: integers beyond 2^53 and numbers beyond f64 are refused", () => {
  bad('{"n": 9007199254740993}', "2^53", "$.n");
  bad("[123456789012345678901234567890]", "2^53", "$[0]");
  bad('{"f": 1e309}', "64-bit float range", "$.f");
  bad('{"f": -1e400}', "64-bit float range");
  assertEquals(parseJsonStrict("[9007199254740991, 1.5e300, 0.1e-400, 1E+2]", {}), [
    9007199254740991,
    1.5e300,
    0,
    100,
  ]);
  // A reader with no integer meaning may opt out.
  assertEquals(parseJsonStrict("[9007199254740993]", {}, { allowUnsafeIntegers: true }), [
    9007199254740992,
  ]);
});

Deno.test("strict JSON: lone surrogates and U+FFFD in strings are refused", () => {
  bad('{"name": "\\ud800"}', "lone surrogate", "$.name");
  bad('{"name": "\\udfff x"}', "lone surrogate");
  bad('{"name": "a\ud800b"}', "lone surrogate");
  bad('{"name": "map\ufffd"}', "U+FFFD", "$.name");
  bad('{"name": "\\ufffd"}', "U+FFFD");
  assertEquals(parseJsonStrict('["\\ud83d\\ude00", "é"]', {}), ["\ud83d\ude00", "é"]);
  assertEquals(parseJsonStrict('["a\ufffd"]', {}, { allowReplacementChar: true }), ["a\ufffd"]);
});

Deno.test("strict JSON: syntax errors are one line with control bytes escaped", () => {
  const e = bad('{"a":\n  \u0001}', "\\u0001", "line 2, column 3", "$.a");
  assertEquals(e.where.line, 2);
  bad('{"a": "x\ny"}', "control character", "\\n");
  bad('{"a": 1} trailing', "after the document");
  bad("[1, 2", "end of the text");
  bad('{"a" 1}', 'expected ":"');
  bad("[0x10]", "unexpected");
  bad("\u001b[31m", "\\u001b");
  assertEquals(escapeControls("a\u0000b\u202e\n"), "a\\u0000b\\u202e\\n");
});

Deno.test("strict JSON: deep nesting is an error, not a stack overflow; a BOM is allowed", () => {
  bad("[".repeat(100000) + "]".repeat(100000), "nested deeper than 256", "depth 256");
  assertEquals(parseJsonStrict('\ufeff{"a": [1]}', {}), { a: [1] });
  checkJsonText("[".repeat(200) + "]".repeat(200), {});
});

Deno.test("strict JSON files: invalid UTF-8 names the byte offset", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const p = `${dir}/t.json`;
    await Deno.writeFile(p, new Uint8Array([0x7b, 0x22, 0x61, 0xc3, 0x22, 0x3a, 0x31, 0x7d]));
    const e = (await assertRejects(readJsonFile(p))) as NavscopeError;
    assertEquals(e.code, "bad_value");
    assertEquals(e.where.offset, 3);
    assert(e.message.includes("invalid UTF-8"), e.message);
    assertEquals(firstInvalidUtf8(new Uint8Array([0x61, 0xed, 0xa0, 0x80])), 1); // surrogate
    assertEquals(firstInvalidUtf8(new Uint8Array([0xe4, 0xb8, 0xad])), 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every JSON reader refuses duplicate keys: no-go table, manifest, thresholds, rules", async () => {
  const ring = "[[[1, 1], [5, 1], [5, 5]]]";
  const nogo =
    `{"format": "navscope-nogo", "version": 1, "zones": {"map01base": [{"rings": ${ring}}], "map01base": []}}`;
  let e = assertThrows(() => parseNoGoTable(nogo, "t.nogo.json"), NavscopeError) as NavscopeError;
  assert(e.message.includes("duplicate key") && e.message.includes("t.nogo.json"), e.message);
  const m = '{"format": "navscope-world", "version": 1, "version": 1, "name": "w", "zones": []}';
  e = assertThrows(() => parseManifest(m, "/tmp/w.json"), NavscopeError) as NavscopeError;
  assert(e.message.includes("duplicate key") && e.message.includes("$.version"), e.message);
  const t = '{"format": "navscope-thresholds", "version": 1, "mode": "x", "mode": "y"}';
  e = assertThrows(() => parseThresholds(t, "t.json"), NavscopeError) as NavscopeError;
  assert(e.message.includes("duplicate key"), e.message);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/r.json`, '{"version": 1, "rules": [], "rules": []}');
    e = (await assertRejects(loadRulesFile(`${dir}/r.json`))) as NavscopeError;
    assert(e.message.includes("duplicate key"), e.message);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("no-go table: zone names with control characters, outer spaces or empty are refused", () => {
  for (const z of ["", " map01base", "map01base ", "map\u007f01", "a\u0000b"]) {
    const doc = JSON.stringify({ format: "navscope-nogo", version: 1, zones: { [z]: [] } });
    const e = assertThrows(
      () => parseNoGoTable(doc, "t.nogo.json"),
      NavscopeError,
    ) as NavscopeError;
    assert(e.message.includes("not a zone name"), e.message);
  }
  const ok = JSON.stringify({ format: "navscope-nogo", version: 1, zones: { "map01base": [] } });
  assertEquals([...parseNoGoTable(ok, "t.nogo.json").zones.keys()], ["map01base"]);
});
