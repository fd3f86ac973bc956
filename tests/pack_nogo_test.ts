/**
 * Author no-go table: strict parser errors (file + JSON path), missing / unreadable files,
 * point-in-polygon vs an independent brute force, floor band, boundary rule, stable encoding.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  authorNoGoIndex,
  encodeNoGoTable,
  inAuthorNoGo,
  loadNoGoTable,
  type NoGoPolygonSpec,
  noGoTableFromSpec,
  parseNoGoTable,
} from "../src/pack/nogo/table.ts";

const doc = (zones: unknown) => JSON.stringify({ format: "navscope-nogo", version: 1, zones });
const SQUARE: [number, number][] = [[0, 0], [10, 0], [10, 10], [0, 10]];

function err(text: string): NavscopeError {
  return assertThrows(() => parseNoGoTable(text, "t.nogo.json"), NavscopeError) as NavscopeError;
}

Deno.test("no-go parser: every bad field is one error naming the file and the JSON path", () => {
  const cases: [string, string][] = [
    ["[]", "$: the table must be a JSON object"],
    [JSON.stringify({ format: "x", version: 1, zones: {} }), "$.format"],
    [JSON.stringify({ format: "navscope-nogo", version: 2, zones: {} }), "$.version"],
    [JSON.stringify({ format: "navscope-nogo", version: 1 }), "$.zones"],
    [
      JSON.stringify({ format: "navscope-nogo", version: 1, zones: {}, extra: 1 }),
      'unknown key "extra"',
    ],
    [doc({ A: {} }), "$.zones.A: must be a list"],
    [doc({ "B c": [5] }), '$.zones["B c"][0]'],
    [doc({ A: [{ rings: [SQUARE], flor: 3 }] }), '$.zones.A[0]: unknown key "flor"'],
    [doc({ A: [{ rings: [] }] }), "$.zones.A[0].rings: must be a non-empty list"],
    [doc({ A: [{ rings: [[[0, 0], [1, 1]]] }] }), "$.zones.A[0].rings[0]: a ring must"],
    [doc({ A: [{ rings: [SQUARE, [[0, 0], [1, 0], [1]]] }] }), "$.zones.A[0].rings[1][2]: a point"],
    [doc({ A: [{ rings: [[[0, 0], [1, 0], [1, "2"]]] }] }), "$.zones.A[0].rings[0][2][1]"],
    [doc({ A: [{ rings: [SQUARE], floor: "3" }] }), "$.zones.A[0].floor"],
    [doc({ A: [{ rings: [SQUARE], name: 4 }] }), "$.zones.A[0].name"],
    // CLI fuzz: a polygon label with a control character was accepted.
    [doc({ A: [{ rings: [SQUARE], name: "a\u0008b" }] }), "$.zones.A[0].name"],
    [doc({ A: [{ rings: [SQUARE], name: "\u0000" }] }), "U+0000"],
    [doc({ A: [{ rings: [SQUARE], name: "" }] }), "it is empty"],
  ];
  for (const [text, needle] of cases) {
    const e = err(text);
    assertEquals(e.code, "bad_value");
    assertEquals(e.where.file, "t.nogo.json");
    assert(e.message.includes(needle), `${e.message} should include ${needle}`);
  }
  const syntax = err('{\n  "format": "navscope-nogo",\n  "version": 1,\n  "zones": {,}\n}');
  assertEquals(syntax.where.line, 4);
  assert(syntax.message.startsWith("t.nogo.json: no-go table"), syntax.message);
});

Deno.test("no-go loading: undefined / missing → empty, unreadable or invalid → NavscopeError", async () => {
  const dir = await Deno.makeTempDir();
  assertEquals((await loadNoGoTable(undefined)).zones.size, 0);
  assertEquals((await loadNoGoTable(`${dir}/none.nogo.json`)).zones.size, 0);
  await Deno.writeTextFile(`${dir}/bad.nogo.json`, "{ nope");
  const e = await assertRejects(loadNoGoTable(`${dir}/bad.nogo.json`));
  assert(e instanceof NavscopeError && e.where.file === `${dir}/bad.nogo.json`, String(e));
  await Deno.mkdir(`${dir}/adir.nogo.json`);
  const e2 = await assertRejects(loadNoGoTable(`${dir}/adir.nogo.json`));
  assert(e2 instanceof NavscopeError && e2.code === "io", String(e2));
  await Deno.writeTextFile(`${dir}/ok.nogo.json`, doc({ A: [{ rings: [SQUARE] }] }));
  const t = await loadNoGoTable(`${dir}/ok.nogo.json`);
  assert(inAuthorNoGo(t, "A", 5, 5));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("even–odd over rings: holes, self-intersecting rings, other zones", () => {
  const t = parseNoGoTable(doc({
    A: [{ rings: [SQUARE, [[2, 2], [8, 2], [8, 8], [2, 8]]] }], // square with a hole
    B: [{ rings: [[[0, 0], [10, 10], [10, 0], [0, 10]]] }], // bow tie
  }));
  assert(inAuthorNoGo(t, "A", 1, 5));
  assert(!inAuthorNoGo(t, "A", 5, 5), "inside the hole");
  assert(!inAuthorNoGo(t, "A", 11, 5));
  assert(!inAuthorNoGo(t, "C", 1, 5), "unknown zone");
  assert(inAuthorNoGo(t, "B", 9, 5) && inAuthorNoGo(t, "B", 1, 5));
  assert(!inAuthorNoGo(t, "B", 5, 1) && !inAuthorNoGo(t, "B", 5, 9));
});

Deno.test("boundary rule: left edge in, right / top edges out, shared edge in exactly one", () => {
  const t = parseNoGoTable(
    doc({ A: [{ rings: [SQUARE] }, { rings: [[[10, 0], [20, 0], [20, 10], [10, 10]]] }] }),
  );
  assertEquals(authorNoGoIndex(t, "A", 0, 5), 0); // left edge
  assertEquals(authorNoGoIndex(t, "A", 10, 5), 1); // shared edge → the right polygon only
  assertEquals(authorNoGoIndex(t, "A", 20, 5), -1); // right edge
  assertEquals(authorNoGoIndex(t, "A", 5, 0), 0); // bottom edge (y = min) is in
  assertEquals(authorNoGoIndex(t, "A", 5, 10), -1); // top edge (y = max) is out
});

Deno.test("floor band: ±12 m inclusive; unfloored polygons cover every layer; unknown h applies", () => {
  const t = parseNoGoTable(doc({ A: [{ rings: [SQUARE], floor: 20 }], B: [{ rings: [SQUARE] }] }));
  assert(inAuthorNoGo(t, "A", 5, 5, 20));
  assert(inAuthorNoGo(t, "A", 5, 5, 8) && inAuthorNoGo(t, "A", 5, 5, 32), "band edges are inside");
  assert(!inAuthorNoGo(t, "A", 5, 5, 7.99) && !inAuthorNoGo(t, "A", 5, 5, 32.01));
  assert(inAuthorNoGo(t, "A", 5, 5), "no height given");
  assert(inAuthorNoGo(t, "B", 5, 5, -1000) && inAuthorNoGo(t, "B", 5, 5, 1000));
});

/** Independent reference: count parametric crossings of the ray y = py, x > px. */
function bruteInside(rings: [number, number][][], px: number, py: number): boolean {
  let n = 0;
  for (const r of rings) {
    for (let i = 0; i < r.length; i++) {
      const [ax, ay] = r[i], [bx, by] = r[(i + 1) % r.length];
      if (ay === by) continue;
      const s = (py - ay) / (by - ay);
      if (s < 0 || s >= 1) continue;
      const x = ax + s * (bx - ax);
      if (x > px) n++;
    }
  }
  return n % 2 === 1;
}

Deno.test("point-in-polygon equals a brute-force reference on random rings (fixed seed)", () => {
  const r = mulberry32(8080);
  for (let trial = 0; trial < 40; trial++) {
    const polys: NoGoPolygonSpec[] = [];
    const npoly = 1 + Math.floor(r() * 4);
    for (let p = 0; p < npoly; p++) {
      const rings: [number, number][][] = [];
      for (let k = 0; k < 1 + Math.floor(r() * 3); k++) {
        const n = 3 + Math.floor(r() * 10);
        rings.push(Array.from({ length: n }, () => [r() * 100, r() * 100] as [number, number]));
      }
      polys.push({ rings, floor: r() < 0.5 ? r() * 50 : undefined });
    }
    const t = noGoTableFromSpec(new Map([["Z", polys]]));
    for (let q = 0; q < 200; q++) {
      const x = r() * 110 - 5, y = r() * 110 - 5, h = r() * 80 - 10;
      const want = polys.findIndex((p) =>
        (p.floor === undefined || Math.abs(h - p.floor) <= 12) && bruteInside(p.rings, x, y)
      );
      assertEquals(authorNoGoIndex(t, "Z", x, y, h), want, `trial ${trial} point ${x},${y},${h}`);
    }
  }
});

Deno.test("encoder: stable text, sorted zones, parse(encode(t)) == t and encode is idempotent", () => {
  const t = parseNoGoTable(
    doc({
      b: [{ name: "pit", floor: -3.25, rings: [SQUARE, [[1, 1], [2, 1], [2, 2]]] }],
      a: [],
      "武陵": [{ rings: [[[0.1, 0.2], [1e-7, 3], [5, 1e-21]]] }],
    }),
    "x.json",
  );
  const text = encodeNoGoTable(t);
  assert(text.indexOf('"a"') < text.indexOf('"b"') && text.indexOf('"b"') < text.indexOf('"武陵"'));
  const back = parseNoGoTable(text);
  assertEquals([...back.zones.entries()].sort(), [...t.zones.entries()].sort());
  assertEquals(encodeNoGoTable(back), text);
  const empty = encodeNoGoTable(noGoTableFromSpec(new Map()));
  assertEquals(empty, '{\n  "format": "navscope-nogo",\n  "version": 1,\n  "zones": {}\n}\n');
  assertEquals(parseNoGoTable(empty).zones.size, 0);
  assert(text.includes('        "name": "pit",\n        "floor": -3.25,'), text);
});
