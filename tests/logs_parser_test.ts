import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import {
  field,
  parseNumber,
  parseNumberArray,
  scanFields,
  truncationCut,
} from "../src/logs/line.ts";
import { emptyFileReport, LogLineProcessor, parseLogText } from "../src/logs/parser.ts";
import type { Leg, LogEvent } from "../src/logs/types.ts";

const DIR = new URL("./fixtures/logs/", import.meta.url);
const FULL = Deno.readTextFileSync(new URL("navigator_full.log", DIR));
const SHORT = Deno.readTextFileSync(new URL("navigator_short.log", DIR));

/** Event counts of the fixtures, by construction (one line per message type, see the file). */
const EXPECTED_EVENTS = {
  position: 1,
  request: 1,
  // `Starting navigation to targets.` (maaend-runlogs.md §1.3 session framing, issue 53).
  session: 1,
  phase: 1,
  recast_warning: 2,
  route_planned: 1,
  generated_path: 1,
  waypoint_expanded: 2,
  recast_failed: 4,
  route_failed: 4,
  deck_failed: 2,
  waypoint_unreachable: 3,
  blind_fallback: 3,
  start_recovery: 2,
  empty_path: 1,
  navmesh_load_failed: 2,
  plan: 1,
  node_result: 1,
  leg: 6,
};

function legs(events: LogEvent[]): Leg[] {
  return events.flatMap((e) => (e.type === "leg" ? [e.leg] : []));
}

function of<T extends LogEvent["type"]>(
  events: LogEvent[],
  t: T,
): Extract<LogEvent, { type: T }>[] {
  return events.filter((e) => e.type === t) as Extract<LogEvent, { type: T }>[];
}

/** The legs both layouts must produce, in emission order (ignoring file, thread). */
const EXPECTED_LEGS: ReturnType<typeof legSummary>[] = [
  {
    line: 5,
    zone: "map02base",
    ok: true,
    start: [965.5, 1803.38],
    goal: [724.98, 1596.8],
    deck: null,
    error: "",
    warnings: ["不可避立面 2 步", "通道未接通, 退到全图亏欠计价"],
    cost: 467.555411,
  },
  {
    line: 10,
    zone: "map02base",
    ok: false,
    start: [1252.24, 1744.17],
    goal: [1369.87, 1533.92],
    deck: 265.37,
    error: "目标面不可达 (声明 265.37, 终点格里的面 [263.12, 271.50])",
    warnings: [],
    cost: NaN,
  },
  {
    line: 11,
    zone: "map01base",
    ok: false,
    start: [500, -12.5],
    goal: [640.25, 88],
    deck: null,
    error: "起点种子格落在窗外",
    warnings: [],
    cost: NaN,
  },
  {
    line: 18,
    zone: "map02base",
    ok: false,
    start: [1252.24, 1744.17],
    goal: [1369.87, 1533.92],
    deck: 265.37,
    error: "从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 26.0px)",
    warnings: [],
    cost: NaN,
  },
  {
    line: 32,
    zone: "map02base",
    ok: true,
    start: [1252.24, 1744.17],
    goal: [1369.87, 1533.92],
    deck: null,
    error: "",
    warnings: ["不可避立面 2 步"],
    cost: 263.75,
  },
  {
    line: 30,
    zone: "map01base",
    ok: false,
    start: [100, 200],
    goal: [300, 400],
    deck: null,
    error: "端点接不上可走层 (起 10.0px / 终 0.0px, 疑似不连通)",
    warnings: [],
    cost: NaN,
  },
];

function legSummary(l: Leg) {
  return {
    line: l.src.line,
    zone: l.zone,
    ok: l.ok,
    start: l.start,
    goal: l.goal,
    deck: l.goalDeckY,
    error: l.error,
    warnings: l.warnings,
    cost: l.cost,
  };
}

for (const [name, text] of [["full", FULL], ["short", SHORT]] as const) {
  Deno.test(`parser fixture (${name} layout): every message type recognised`, () => {
    const { events, report } = parseLogText(text, name);
    assertEquals(report.events, EXPECTED_EVENTS);
    assertEquals(report.lines, 35);
    assertEquals(report.layoutLines, 34);
    // The MapLocator fix is an event (issue 35: the track), and so is `Starting navigation…`
    // (issue 53); the one layout line left is counted by its message kind.
    assertEquals(report.recognized, 33);
    assertEquals(report.unknownKinds, { "Task finished.": 1 });
    assertEquals(report.problems.garbage, 1);
    assertEquals(report.firstProblems, [{
      kind: "garbage",
      file: name,
      line: 34,
      detail: 'not a log line: "this line is not in the logger layout"',
    }]);
    assertEquals(events.length, 39);
  });

  Deno.test(`parser fixture (${name} layout): failed legs become replayable with their error`, () => {
    const { events, report } = parseLogText(text, name);
    const ls = legs(events);
    assertEquals(ls.map(legSummary), EXPECTED_LEGS);
    assert(ls.every((l) => l.replayable));
    assertEquals(report.failedLegs, 4);
    assertEquals(report.replayableLegs, 6);
    assert(ls.every((l) => l.taskId === "17" && l.nodeName === "DeliverToDepot"));
    assertEquals(ls[4].origin, "plan_line");
    assertEquals(ls[4].plan?.tierNotes, ["walk 断开"]);
    assertEquals(ls[4].plan?.window?.cells, 2992000);
    assertEquals(ls[0].locatorZone, "Wuling_Base");
    assertEquals(ls[1].planMs, 2510);
    assertEquals(ls[1].status, "unreachable");
  });

  Deno.test(`parser fixture (${name} layout): message fields`, () => {
    const { events } = parseLogText(text, name);
    const req = of(events, "request")[0];
    assertEquals(req.taskId, "17");
    assertEquals(req.mapName, "Wuling_Base");
    assertEquals(req.path.length, 5);
    assertEquals(req.targets, [
      { index: 3, target: [1369.87, 1533.92], zoneId: "Wuling_Base", tier: "", deckY: 265.37 },
      { index: 4, target: [1400, 1500], zoneId: "Wuling_L4_328", tier: "L4", deckY: null },
    ]);
    const gp = of(events, "generated_path")[0];
    assertEquals(gp.points, [[965.5, 1803.38], [900, 1700], [724.98, 1596.8]]);
    assertEquals(gp.segmentBreaks, []);
    const rf = of(events, "route_failed");
    assertEquals(rf[2].goal, [1369.87, 1533.92]); // written as 1.36987e3
    assertEquals(rf[2].planMs, 598.5);
    const deck = of(events, "deck_failed");
    assertEquals(deck.map((d) => [d.terminal, d.deckY]), [[true, 265.37], [false, 265.37]]);
    assertEquals(
      of(events, "waypoint_unreachable").map((e) => e.outcome),
      ["blind_fallback", "failed", "preserve_hints"],
    );
    assertEquals(
      of(events, "blind_fallback").map((e) => [e.outcome, e.gap, e.approach]),
      [["rejected", 41.5, null], ["gave_up", NaN, null], ["applied", 6.25, [1395.5, 1497]]],
    );
    const sr = of(events, "start_recovery");
    assertEquals(sr.map((e) => [e.applied, e.radius, e.entry, e.distance]), [
      [false, 32, null, NaN],
      [true, NaN, [12.25, 22], 2.462214],
    ]);
    const ex = of(events, "waypoint_expanded");
    assertEquals(ex.map((e) => [e.viaZipline, e.pointCount, e.planMs]), [[false, 3, 87], [
      true,
      7,
      NaN,
    ]]);
    assertEquals(of(events, "navmesh_load_failed").map((e) => [e.zone, e.key, e.error]), [
      ["map02base", "", "旁包判据版本不符 (3 ≠ 4)"],
      ["", "base.nav.gz", "旁包读不到 (base.fields.nav.gz): No such file"],
    ]);
    assertEquals(
      of(events, "recast_failed")[3].error,
      "端点接不上可走层 (起 10.0px / 终 0.0px, 疑似不连通)",
    );
    assertEquals(of(events, "node_result")[0], {
      ...of(events, "node_result")[0],
      name: "DeliverToDepot",
      ok: false,
    });
    assertEquals(of(events, "phase")[0].reason, "initial_fix");
    assertEquals(of(events, "empty_path")[0].navmeshZone, "map02base");
  });
}

Deno.test("parser: full-layout prefix, nested brackets in the function name", () => {
  const { events } = parseLogText(FULL);
  const lf = of(events, "navmesh_load_failed")[1];
  assertEquals(lf.head.pid, 4242);
  assertEquals(lf.head.tid, 3001);
  assertEquals(lf.head.srcFile, "MapNavmeshQuery.cpp");
  assertEquals(lf.head.srcLine, 61);
  assertEquals(
    lf.head.func,
    "void maplocator::Cache<T>::load(const std::string&) [with T = navmesh::Pack]",
  );
  assertEquals(lf.head.level, "ERR");
  assertEquals(lf.head.timeText, "2026-09-30 20:12:05.100");
  assertEquals(lf.head.time, Date.UTC(2026, 8, 30, 20, 12, 5, 100));
  const short = of(parseLogText(SHORT).events, "navmesh_load_failed")[1];
  assertEquals([
    short.head.pid,
    short.head.tid,
    short.head.srcFile,
    short.head.srcLine,
    short.head.func,
  ], [
    -1,
    -1,
    "MapNavmeshQuery.cpp",
    -1,
    "",
  ]);
});

Deno.test("parser: CRLF and a BOM give the same events", () => {
  const a = parseLogText(FULL).events;
  const b = parseLogText("\ufeff" + FULL.replaceAll("\n", "\r\n")).events;
  assertEquals(b, a);
});

Deno.test("parser: any chunking of the input gives the same events (seeded)", () => {
  const whole = parseLogText(FULL + SHORT).events;
  const r = mulberry32(99);
  for (let round = 0; round < 20; round++) {
    const p = new LogLineProcessor();
    p.beginFile(emptyFileReport("<memory>"));
    const text = FULL + SHORT;
    for (let i = 0; i < text.length;) {
      const n = 1 + Math.floor(r() * 300);
      p.push(text.slice(i, i + n));
      i += n;
    }
    p.finish();
    assertEquals(p.queue, whole, `round ${round}`);
  }
});

Deno.test("parser: include filter keeps pairing intact", () => {
  const { events, report } = parseLogText(FULL, "f", { include: ["leg"] });
  assertEquals(events.length, 6);
  assertEquals(report.events.recast_failed, 4);
});

Deno.test("line: numbers in any format", () => {
  assertEquals(parseNumber("355.899450"), 355.89945);
  assertEquals(parseNumber("940.5"), 940.5);
  assertEquals(parseNumber("1.36987e3"), 1369.87);
  assertEquals(parseNumber("-0"), -0);
  assertEquals(parseNumber("0x1f"), 31);
  assertEquals(parseNumber(" 12 "), 12);
  assertEquals(parseNumber("inf"), Infinity);
  assertEquals(parseNumber("-inf"), -Infinity);
  assertEquals(parseNumber("-nan(ind)"), NaN);
  assertEquals(parseNumber("abc"), NaN);
  assertEquals(parseNumberArray("[[1,2],[nan,-inf], [3e2, 4]]"), [[1, 2], [NaN, -Infinity], [
    300,
    4,
  ]]);
  assertEquals(parseNumberArray("[[1,2],[3"), null);
  assertEquals(parseNumberArray("[1,,2]"), null);
});

Deno.test("line: values with brackets, JSON strings and unbalanced raw text", () => {
  const f: string[] = [];
  // Balanced brackets in raw text.
  scanFields("[a=x [1, 2] y] [b=2] ", 0, f);
  assertEquals(f, ["a", "x [1, 2] y", "b", "2"]);
  // A JSON object whose strings hold brackets and `] [`.
  scanFields('[req={"s":"] [x=1]","a":[1,[2]]}] [ipc=ipc:///t] ', 0, f);
  assertEquals(field(f, "req"), '{"s":"] [x=1]","a":[1,[2]]}');
  assertEquals(field(f, "ipc"), "ipc:///t");
  // Unbalanced raw text: a stray `]` and a stray `[`.
  scanFields("[e=oops] tail] [b=1] [c=[open] ", 0, f);
  assertEquals(f, ["e", "oops] tail", "b", "1", "c", "[open"]);
  // Groups without `=` are skipped; keys are literal C++ expressions.
  scanFields("[TRUNCATED: 5 bytes] [out_path.size() - insert_index=7] [*target.deck_y=1]", 0, f);
  assertEquals(f, ["out_path.size() - insert_index", "7", "*target.deck_y", "1"]);
  // An item cut at the end of the line is dropped and reported.
  assertEquals(scanFields("[a=1] [b=[[1,2],[3", 0, f), false);
  assertEquals(f, ["a", "1"]);
});

function longGeneratedPath(n: number): string {
  const pts = Array.from({ length: n }, (_, i) => `[${i}.5,${i * 2}.25]`).join(",");
  return "[2026-09-30 20:12:01.303][INF][Px1][Tx2][navmesh_path_expander.cpp][L512][f] " +
    "NAVMESH generated path. [state.navmesh_zone=map02base] [state.current_zone=Wuling_Base] " +
    `[route_result.cost=467.555411] [path_point_count=${n}] [navmesh_start_point=[0.5,0.25]] ` +
    `[navmesh_goal_point=[${n - 1}.5,${(n - 1) * 2}.25]] [navmesh_segment_breaks=[]] ` +
    `[navmesh_path_points=[${pts}]] `;
}

Deno.test("parser: a MaaUtils [TRUNCATED: …] line keeps its leading fields", () => {
  const full = longGeneratedPath(200);
  const cut = full.slice(0, 1024) +
    ` ... [TRUNCATED: ${full.length} bytes total, likely a bug - check for large objects passed to logger]`;
  assert(truncationCut(cut) === 1024);
  const { events, report } = parseLogText(cut + "\n");
  const gp = of(events, "generated_path")[0];
  assertEquals(gp.head.truncated, true);
  assertEquals(gp.start, [0.5, 0.25]);
  assertEquals(gp.goal, [199.5, 398.25]);
  assertEquals(gp.points, []);
  assertEquals(gp.pointCount, 200);
  assertEquals(report.problems.truncated, 1);
  // The same line whole: every point.
  assertEquals(of(parseLogText(full).events, "generated_path")[0].points.length, 200);
});

Deno.test("parser: a line over the cap is cut and counted; the next line is intact", () => {
  const big = longGeneratedPath(5000);
  const text = big + "\n" + FULL;
  const { events, report } = parseLogText(text, "x", { maxLineLength: 4096 });
  assertEquals(report.problems.truncated, 1);
  assertEquals(report.firstProblems[0].line, 1);
  const gp = of(events, "generated_path");
  assertEquals(gp.length, 2);
  assertEquals(gp[0].head.truncated, true);
  assertEquals(gp[0].start, [0.5, 0.25]);
  assertEquals(legs(events).length, 7);
});

Deno.test("parser: binary garbage and broken prefixes are counted, never thrown", () => {
  const junk = [
    "\u0000\u0001\u0002\ufffd\ufffd",
    "[2026-09-30 20:12:01.100][XXX] level unknown",
    "[2026-13-30 20:12:01.100][INF] month 13",
    "[not a time][INF] x",
    "[2026-09-30 20:12:01.100][INF][Px1][Tx2][f.cpp][L1][fn] Failed to plan NAVMESH route. [navmesh_zone=z]",
    "",
    "]]]][[[[",
    "[2026-09-30 20:12:01.100][INF][Px1][Tx2][f.cpp][L1][fn]",
    "[2026-09-30 20:12:01.100][INF][Px1][Tx2][f.cpp][L1][fn] ",
    "[2026-09-30 20:12:01.100][INF]",
    "[2026-09-30 20:12:01.100][INF][Px1][Tx2][f.cpp][L1][fn [unclosed",
  ].join("\n");
  const { events, report } = parseLogText(junk);
  assertEquals(events.length, 0);
  assertEquals(report.problems.binary, 1);
  assertEquals(report.problems.garbage, 4);
  assertEquals(report.problems.bad_field, 1);
  assertEquals(report.firstProblems.find((p) => p.kind === "bad_field")?.line, 5);
});

Deno.test("reader: a single byte stream (stdin-like), chunked at odd places", async () => {
  const { parseLogReadable } = await import("../src/logs/reader.ts");
  const bytes = new TextEncoder().encode(FULL);
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i >= bytes.length) return c.close();
      const n = 1 + (i % 97); // splits UTF-8 sequences and lines anywhere
      c.enqueue(bytes.slice(i, i + n));
      i += n;
    },
  });
  const s = parseLogReadable(stream, "stdin");
  const got: LogEvent[] = [];
  for await (const e of s) got.push(e);
  assertEquals(got, parseLogText(FULL, "stdin").events);
  assertEquals(s.report.bytes, bytes.length);
});

Deno.test("messages: locator zone → navmesh base zone aliases", async () => {
  const { navmeshZoneOf } = await import("../src/logs/messages.ts");
  assertEquals(navmeshZoneOf("Wuling_Base"), "map02base");
  assertEquals(navmeshZoneOf("ValleyIV_Base"), "map01base");
  assertEquals(navmeshZoneOf("IndieDg007_x"), "indie_dg007");
  assertEquals(navmeshZoneOf("Nowhere"), "");
});

Deno.test("parser: run framing events carry their own line's head, not an earlier line's", () => {
  const { events } = parseLogText(FULL);
  const node = events.find((e) => e.type === "node_result")!;
  assertEquals(
    [node.head.pid, node.head.tid, node.head.srcFile, node.head.srcLine, node.head.func],
    [4242, 11, "EventDispatcher.hpp", 52, "MaaNS::EventDispatcher::notify"],
  );
  const req = events.find((e) => e.type === "request")!;
  assertEquals(
    [req.head.pid, req.head.tid, req.head.srcFile, req.head.srcLine],
    [4242, 11, "AgentServer.cpp", 233],
  );
});
