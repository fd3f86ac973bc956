import { assert, assertEquals, assertThrows } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import {
  emptyPlanRecord,
  formatNumber,
  formatPlanLine,
  parsePlanLine,
  PLAN_KEYS,
} from "../src/logs/plan_line.ts";
import { parseLogText } from "../src/logs/parser.ts";
import type { PlanRecord, WindowKind } from "../src/logs/types.ts";
import {
  COUNTER_NAMES,
  emptyCounters,
  emptyOtherTimings,
  OTHER_STAGE_NAMES,
} from "../src/plan/counters.ts";

function golden(): PlanRecord {
  const r = emptyPlanRecord("map02base", [1252.24, 1744.17], [1369.87, 1533.92]);
  r.version = "navscope/0.1.0";
  r.packHash = "9f3a0c1d2e4b5a69";
  r.goalFloorY = 260;
  r.goalDeckY = 265.37;
  r.noGoDiscs = [[1300, 1600, 2.5]];
  r.code = "target_deck_unreachable";
  r.error = "目标面不可达 (声明 265.37, 终点格里的面 [263.12, 271.50])";
  r.tier = 1;
  r.kind = "full";
  r.tierNotes = ["掩膜内两端不连通", "搜索碰边→整类窗口"];
  r.window = { x0: 4800, y0: 6000, nx: 1700, ny: 1760, cells: 2992000 };
  r.timing = {
    window: 120.5,
    topology: 164,
    geometry: 50.25,
    pull: 0,
    assemble: 0,
    lift: 0,
    total: 2510.75,
  };
  r.snapStart = 0.125;
  r.snapGoal = 0.25;
  r.gap = { start: [1300.125, 1600.375], goal: [1300.125, 1600.375], distance: 0 };
  return r;
}

const GOLDEN_LINE =
  "[2026-10-01 12:00:00.123][WRN][Px4242][Tx7][navscope][L0][plan] NAVSCOPE plan. " +
  "[version=navscope/0.1.0] [pack=9f3a0c1d2e4b5a69] [zone=map02base] [start=[1252.24,1744.17]] " +
  "[goal=[1369.87,1533.92]] [goal_floor_y=260] [goal_deck_y=265.37] [no_go_discs=[[1300,1600,2.5]]] " +
  "[ok=false] [code=target_deck_unreachable] " +
  '[error="目标面不可达 (声明 265.37, 终点格里的面 [263.12, 271.50])"] [no_go=false] [tier=1] ' +
  '[kind=full] [tier_notes=["掩膜内两端不连通","搜索碰边→整类窗口"]] [window=[4800,6000,1700,1760]] ' +
  "[window_cells=2992000] [window_ms=120.5] [topology_ms=164] [geometry_ms=50.25] [pull_ms=0] " +
  "[assemble_ms=0] [lift_ms=0] [total_ms=2510.75] [snap_start=0.125] [snap_goal=0.25] " +
  "[gap_start=[1300.125,1600.375]] [gap_goal=[1300.125,1600.375]] [gap_distance=0] [points=0] " +
  "[length=0] [drops=0] ";

Deno.test("plan line: golden text for a fixed record", () => {
  const line = formatPlanLine(golden(), {
    time: Date.UTC(2026, 9, 1, 12, 0, 0, 123),
    pid: 4242,
    tid: 7,
  });
  assertEquals(line, GOLDEN_LINE);
});

Deno.test("plan line: golden text parses back to the record and prefix", () => {
  const { record, head } = parsePlanLine(GOLDEN_LINE);
  assertEquals(record, golden());
  assertEquals(head.level, "WRN");
  assertEquals(head.pid, 4242);
  assertEquals(head.tid, 7);
  assertEquals(head.time, Date.UTC(2026, 9, 1, 12, 0, 0, 123));
  assertEquals(head.timeText, "2026-10-01 12:00:00.123");
});

Deno.test("plan line: every documented key is written by the golden record or is optional", () => {
  const written = new Set([...GOLDEN_LINE.matchAll(/ \[([a-z_]+)=/g)].map((m) => m[1]));
  const optional = [
    "start_floor_y",
    "start_deck_y",
    "leg",
    "profile",
    "reach_start",
    "reach_goal",
    "warnings",
    "other_ms",
    "counters",
  ];
  for (const [k] of PLAN_KEYS) assert(written.has(k) || optional.includes(k), `key ${k}`);
  for (const k of written) assert(PLAN_KEYS.some(([p]) => p === k), `undocumented key ${k}`);
});

Deno.test("plan line: work counters and other sub-stages as name:value lists, zeros left out", () => {
  const r = golden();
  r.counters = emptyCounters();
  r.counters["tiers.tried"] = 2;
  r.counters["topology.pops"] = 123456;
  r.otherTiming = emptyOtherTimings();
  r.otherTiming.snap = 0.25;
  const line = formatPlanLine(r);
  assert(
    line.includes(
      "[total_ms=2510.75] [other_ms=snap:0.25] [counters=tiers.tried:2,topology.pops:123456] ",
    ),
    line,
  );
  assertEquals(parsePlanLine(line).record, r);
  // All zero: the item says the plan recorded them.
  r.otherTiming.snap = 0;
  assert(formatPlanLine(r).includes("[other_ms=-] "));
  assertEquals(parsePlanLine(formatPlanLine(r)).record, r);
  // A name navscope does not know is a broken field, not silently dropped.
  const bad = line.replace("topology.pops:", "topology.popz:");
  const e = assertThrows(() => parsePlanLine(bad), NavscopeError) as NavscopeError;
  assert(e.message.includes("topology.popz"), e.message);
  // Lines written before the counters existed read as null.
  assertEquals(parsePlanLine(GOLDEN_LINE).record.counters, null);
});

Deno.test("plan line: the planner profile round-trips, absent stays absent", () => {
  for (const profile of ["spec", "reference", "spec:-regionHop:-startDeck"]) {
    const r = { ...golden(), profile };
    const line = formatPlanLine(r);
    assert(line.includes(` [profile=${profile}] `), line);
    assertEquals(parsePlanLine(line).record, r);
  }
  assert(!formatPlanLine(golden()).includes("[profile="), "no profile key without a profile");
  assertEquals("profile" in parsePlanLine(GOLDEN_LINE).record, false);
});

const SPECIAL = [
  -0,
  0,
  NaN,
  Infinity,
  -Infinity,
  5e-324,
  Number.MAX_VALUE,
  1e21,
  -1.5e-7,
  0.1 + 0.2,
  265.37,
  -1e30,
];
const ALPHABET = [
  "a",
  "Z",
  "0",
  "_",
  ".",
  "-",
  " ",
  "[",
  "]",
  "{",
  "}",
  '"',
  "\\",
  "=",
  "\n",
  "\r",
  "\t",
  "目",
  "标",
  "面",
  "→",
  "😀",
  "] [",
  "[x=1]",
  "\ud800",
];

function randNum(r: () => number): number {
  const k = r();
  if (k < 0.2) return SPECIAL[Math.floor(r() * SPECIAL.length)];
  if (k < 0.4) return Math.floor((r() - 0.5) * 1e6);
  if (k < 0.6) return Math.fround((r() - 0.5) * 4000);
  return (r() - 0.5) * Math.pow(10, Math.floor(r() * 40) - 20);
}

function randStr(r: () => number, max = 12): string {
  let s = "";
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

function randOpt(r: () => number): number | null {
  return r() < 0.4 ? null : randNum(r);
}

/** A named-number record, about half its values 0 (written as absent). */
function randNamed<K extends string>(r: () => number, names: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const n of names) out[n] = r() < 0.5 ? 0 : randNum(r);
  return out;
}

function randRecord(r: () => number): PlanRecord {
  const kinds: WindowKind[] = ["tentative", "capped", "full", ""];
  const list = () => Array.from({ length: Math.floor(r() * 4) }, () => randStr(r));
  const ok = r() < 0.5;
  return {
    version: r() < 0.2 ? "" : "navscope/" + randStr(r, 4),
    packHash: r() < 0.3 ? "" : Math.floor(r() * 2 ** 52).toString(16),
    zone: r() < 0.5 ? "map02base" : randStr(r),
    start: [randNum(r), randNum(r)],
    goal: [randNum(r), randNum(r)],
    startFloorY: randOpt(r),
    goalFloorY: randOpt(r),
    startDeckY: randOpt(r),
    goalDeckY: randOpt(r),
    noGoDiscs: Array.from(
      { length: Math.floor(r() * 3) },
      () => [randNum(r), randNum(r), randNum(r)] as [number, number, number],
    ),
    leg: r() < 0.5 ? "" : randStr(r),
    ok,
    code: ok ? "" : randStr(r, 6),
    error: ok ? "" : randStr(r, 40),
    noGo: r() < 0.1,
    tier: Math.floor(r() * 9) - 1,
    kind: kinds[Math.floor(r() * kinds.length)],
    tierNotes: list(),
    window: r() < 0.3
      ? null
      : { x0: randNum(r), y0: randNum(r), nx: randNum(r), ny: randNum(r), cells: randNum(r) },
    timing: {
      window: randNum(r),
      topology: randNum(r),
      geometry: randNum(r),
      pull: randNum(r),
      assemble: randNum(r),
      lift: randNum(r),
      total: randNum(r),
    },
    counters: r() < 0.3 ? null : randNamed(r, COUNTER_NAMES),
    otherTiming: r() < 0.3 ? null : randNamed(r, OTHER_STAGE_NAMES),
    snapStart: randOpt(r),
    snapGoal: randOpt(r),
    reachStart: randOpt(r),
    reachGoal: randOpt(r),
    gap: r() < 0.5
      ? null
      : { start: [randNum(r), randNum(r)], goal: [randNum(r), randNum(r)], distance: randNum(r) },
    warnings: list(),
    points: randNum(r),
    length: randNum(r),
    drops: randNum(r),
  };
}

Deno.test("plan line: write → parse round trip on 3000 random records (seed 20261001)", () => {
  const r = mulberry32(20261001);
  for (let i = 0; i < 3000; i++) {
    const rec = randRecord(r);
    const t = Math.floor(r() * 4e12);
    const line = formatPlanLine(rec, { time: t, tid: i & 0xffff, pid: 1 + i });
    assert(!line.includes("\n") && !line.includes("\r"), "one physical line");
    const back = parsePlanLine(line);
    assertEquals(back.record, rec, `record ${i}: ${line}`);
    assertEquals(back.head.time, t, `time ${i}`);
    assertEquals(back.head.tid, i & 0xffff);
  }
});

Deno.test("plan line: the streaming parser reads random plan lines (with CRLF) to the same records", () => {
  const r = mulberry32(7);
  const recs = Array.from({ length: 300 }, () => randRecord(r));
  const text = recs.map((x, i) => formatPlanLine(x, { time: i * 1000, tid: 1 })).join("\r\n");
  const { events, report } = parseLogText(text);
  const plans = events.flatMap((e) => (e.type === "plan" ? [e.record] : []));
  assertEquals(plans, recs);
  assertEquals(report.events.leg, 300);
  assertEquals(report.lines, 300);
});

Deno.test("plan line: shortest number form keeps -0 and exactness", () => {
  assertEquals(formatNumber(-0), "-0");
  assertEquals(formatNumber(0.1 + 0.2), "0.30000000000000004");
  assertEquals(formatNumber(Math.fround(0.1)), "0.10000000149011612");
  assertEquals(formatNumber(-1e30), "-1e+30");
});

Deno.test("plan line: not a plan line or a broken one → NavscopeError bad_value with line", () => {
  const e = assertThrows(
    () =>
      parsePlanLine("[2026-10-01 12:00:00.123][INF][x] something else", { file: "a.log", line: 3 }),
    NavscopeError,
  ) as NavscopeError;
  assertEquals(e.code, "bad_value");
  assertEquals(e.where.line, 3);
  const broken = GOLDEN_LINE.replace("[start=[1252.24,1744.17]]", "[start=[1252.24]]");
  const e2 = assertThrows(() => parsePlanLine(broken), NavscopeError) as NavscopeError;
  assert(e2.message.includes("start"), e2.message);
  const noOk = GOLDEN_LINE.replace("[ok=false] ", "");
  assertThrows(() => parsePlanLine(noOk), NavscopeError);
  const badKind = GOLDEN_LINE.replace("[kind=full]", "[kind=huge]");
  assertThrows(() => parsePlanLine(badKind), NavscopeError);
});

Deno.test("plan line: a broken plan line in a log is counted as bad_field, not thrown", () => {
  const broken = GOLDEN_LINE.replace("[ok=false] ", "[ok=maybe] ");
  const { events, report } = parseLogText(GOLDEN_LINE + "\n" + broken + "\n");
  assertEquals(events.filter((e) => e.type === "plan").length, 1);
  assertEquals(report.problems.bad_field, 1);
  assertEquals(report.firstProblems[0].line, 2);
});
