/**
 * A generated multi-file corpus whose contents are known by construction: rotated files whose
 * names do not sort in time order, gzip, CRLF, MaaUtils-truncated and over-cap lines, a
 * truncated .gz, binary garbage, a dangling symlink and a missing input.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { NavscopeError } from "../src/errors.ts";
import { gzip } from "../src/codec/gzip.ts";
import { formatTimestamp } from "../src/logs/line.ts";
import { collectLogs, expandInputs, globToRegExp, parseLogs } from "../src/logs/reader.ts";
import type { Leg, LogEvent } from "../src/logs/types.ts";

const E = "[navmesh_path_expander.cpp][L1][f]";

/** Lines of failed leg `i` at time `t` (ms) on thread `tid`; every third declares a deck. */
function failedLeg(i: number, t: number, tid: number): string[] {
  const h = (dt: number, lvl: string) => `[${formatTimestamp(t + dt)}][${lvl}][Px9][Tx${tid}]${E}`;
  const out = [
    `${
      h(0, "WRN")
    } RECAST plan failed. [request.zone_name=map02base] [result.error=起点种子格落在窗外 #${i}] `,
    `${
      h(1, "WRN")
    } Failed to plan NAVMESH route. [navmesh_zone=map02base] [locator_zone=Wuling_Base] ` +
    `[start.x=${i}.000000] [start.y=1.500000] [goal.x=${i}.250000] [goal.y=2.000000] ` +
    `[navmesh::ToString(route_result.status)=unreachable] [plan_ms=${i}] `,
  ];
  if (i % 3 === 0) {
    out.push(
      `${
        h(2, "ERR")
      } Failed to plan NAVMESH waypoint on the declared deck. [state.navmesh_zone=map02base] ` +
        `[state.current_zone=Wuling_Base] [target.point.x=${i}.250000] [target.point.y=2.000000] ` +
        `[*target.deck_y=265.370000] [navmesh::ToString(route_result.status)=unreachable] `,
    );
  }
  return out;
}

function noise(t: number): string {
  return `[${
    formatTimestamp(t)
  }][INF][Px9][Tx3001][position_provider.cpp][L77][Capture] MapLocator ` +
    `[status=0] [position.zoneId=Wuling_Base] [position.x=1.5] [position.y=2.5] [position.isHeld=false] `;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 8, 26, 0, 0, 0, 0);

interface Corpus {
  dir: string;
  /** Legs per intact file, in time order. */
  legs: number;
  truncated: number;
  binary: number;
  /** Events of the intact version of the truncated .gz. */
  partialWhole: string;
}

/** Legs `[from, to)` one per second from `t`, with noise lines between. */
function block(from: number, to: number, t: number, tid: number): string[] {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    lines.push(noise(t + (i - from) * 1000 - 500));
    lines.push(...failedLeg(i, t + (i - from) * 1000, tid));
  }
  return lines;
}

async function buildCorpus(): Promise<Corpus> {
  const dir = await Deno.makeTempDir({ prefix: "navscope_logs_" });
  await Deno.mkdir(`${dir}/cpp-algo/debug/old`, { recursive: true });
  const d = `${dir}/cpp-algo/debug`;
  const enc = new TextEncoder();
  // Day 0 (oldest), gzip, in a sub-directory, named so it sorts LAST by name.
  await Deno.writeFile(
    `${d}/old/zz_oldest.log.gz`,
    gzip(enc.encode(block(0, 10, T0, 56789).join("\n") + "\n")),
  );
  // Day 1: rotated plain file, CRLF. Its last leg's RECAST line is the file's last line and the
  // rest of that plan continues in the day-2 file (a plan straddling a rotation).
  const day1 = block(10, 20, T0 + DAY, 56789);
  const straddle = failedLeg(20, T0 + 2 * DAY - 10, 56789);
  day1.push(straddle[0]);
  await Deno.writeTextFile(
    `${d}/maafw.bak.2026.09.27-00.00.00.000.log`,
    day1.join("\r\n") + "\r\n",
  );
  // Day 2: rotated, with a MaaUtils-truncated line and an over-cap line in the middle.
  const day2 = [...straddle.slice(1), ...block(21, 30, T0 + 2 * DAY, 56789)];
  const longBody = "[navmesh_path_points=[" + "[1.5,2.5],".repeat(300) + "[1,2]]";
  const cutLine =
    `[${formatTimestamp(T0 + 2 * DAY + 1)}][INF][Px9][Tx5][x.cpp][L1][f] Something big. ${longBody}`
      .slice(0, 1024) +
    " ... [TRUNCATED: 9999 bytes total, likely a bug - check for large objects passed to logger]";
  const overCap = `[${formatTimestamp(T0 + 2 * DAY + 2)}][INF][Px9][Tx5][x.cpp][L1][f] Huge. [v=${
    "x".repeat(70_000)
  }]`;
  day2.splice(4, 0, cutLine, overCap);
  await Deno.writeTextFile(`${d}/maafw.bak.2026.09.28-00.00.00.000.log`, day2.join("\n") + "\n");
  // Day 3: the live maafw.log, no trailing newline.
  await Deno.writeTextFile(`${d}/maafw.log`, block(30, 40, T0 + 3 * DAY, 4242).join("\n"));
  // Day 4: a .gz cut in the middle (a crash while compressing).
  const partial = block(100, 140, T0 + 4 * DAY, 7).join("\n") + "\n";
  const gz = gzip(enc.encode(partial));
  await Deno.writeFile(
    `${d}/maafw.bak.2026.09.30-00.00.00.000.log.gz`,
    gz.subarray(0, Math.floor(gz.length / 2)),
  );
  // Binary garbage: 25 lines of random bytes, each with a NUL, no newline inside.
  const r = mulberry32(5);
  const bin: number[] = [];
  for (let l = 0; l < 25; l++) {
    bin.push(0);
    for (let k = 0; k < 40; k++) {
      const b = 1 + Math.floor(r() * 254);
      bin.push(b === 10 ? 11 : b);
    }
    bin.push(10);
  }
  await Deno.writeFile(`${d}/garbage.log`, new Uint8Array(bin));
  // A dangling symlink that looks like a log.
  await Deno.symlink(`${d}/does-not-exist.log`, `${d}/broken.log`);
  // Not a log name: ignored by directory expansion.
  await Deno.writeTextFile(`${d}/readme.md`, "not a log\n");
  return { dir, legs: 40, truncated: 2, binary: 25, partialWhole: partial };
}

function legsOf(events: LogEvent[]): Leg[] {
  return events.flatMap((e) => (e.type === "leg" ? [e.leg] : []));
}

Deno.test("corpus: counts known by construction, timestamp order across rotations", async () => {
  const c = await buildCorpus();
  try {
    const { events, report } = await collectLogs([c.dir, `${c.dir}/missing.log`], {
      maxLineLength: 65536,
    });
    const legs = legsOf(events);
    // The intact legs 0..39 come first, in time order, then the prefix of the cut .gz.
    const fromCut = (l: Leg) => l.src.file.endsWith("09.30-00.00.00.000.log.gz");
    const intact = legs.filter((l) => !fromCut(l));
    assertEquals(intact.map((l) => l.start![0]), Array.from({ length: c.legs }, (_, i) => i));
    for (let i = 1; i < legs.length; i++) assert(legs[i].time >= legs[i - 1].time, `order at ${i}`);
    // Every leg is replayable, carries its own error, and every third has its deck.
    for (const l of intact) {
      const i = l.start![0];
      assertEquals(l.error, `起点种子格落在窗外 #${i}`);
      assertEquals(l.goal, [i + 0.25, 2]);
      assertEquals(l.goalDeckY, i % 3 === 0 ? 265.37 : null);
      assert(l.replayable);
    }
    // The plan that straddles the rotation paired across files.
    const s = intact[20];
    assert(s.src.file.endsWith("09.27-00.00.00.000.log"), s.src.file);
    // The truncated .gz: what decoded before the damage is kept, as a prefix of the whole.
    // If the cut fell after a RECAST line, that plan comes out as a leg without endpoints.
    const cutLegs = legs.filter(fromCut);
    const last = cutLegs[cutLegs.length - 1];
    if (last.start === null) {
      assert(!last.replayable && last.error.startsWith("起点种子格落在窗外 #"));
      cutLegs.pop();
    }
    const cut = cutLegs.map((l) => l.start![0]);
    assert(cut.length >= 1 && cut.length < 40, `partial legs ${cut.length}`);
    assertEquals(cut, Array.from({ length: cut.length }, (_, i) => 100 + i));
    assertEquals(report.problems.bad_gzip, 1);
    assertEquals(report.problems.unreadable, 2); // broken symlink + missing input
    // …and its last line, if the damage fell inside it, is a cut line.
    const cutRep = report.files.find((f) => f.file.endsWith("09.30-00.00.00.000.log.gz"))!;
    const midLine = new TextEncoder().encode(c.partialWhole)[cutRep.bytes - 1] !== 10;
    assertEquals(report.problems.truncated, c.truncated + (midLine ? 1 : 0));
    // The garbage file is binary from its first byte on: one file problem, not 25 bad lines.
    assertEquals(report.problems.binary, 0);
    assertEquals(report.problems.binary_file, 1);
    const garbage = report.files.find((f) => f.file.endsWith("garbage.log"))!;
    assert(/^binary content \(NUL bytes, no log line/.test(garbage.error), garbage.error);
    assertEquals(garbage.lines, 0);
    assertEquals(report.problems.garbage, 0, JSON.stringify(report.firstProblems));
    assertEquals(report.problems.bad_field, 0);
    // File order: by first timestamp; names do not decide.
    const order = report.files.filter((f) => !f.error || f.bytes > 0).map((f) =>
      f.file.split("/").pop()
    );
    assertEquals(order, [
      "zz_oldest.log.gz",
      "maafw.bak.2026.09.27-00.00.00.000.log",
      "maafw.bak.2026.09.28-00.00.00.000.log",
      "maafw.log",
      "maafw.bak.2026.09.30-00.00.00.000.log.gz",
    ]);
    const gzFile = report.files.find((f) => f.file.endsWith("zz_oldest.log.gz"))!;
    assert(gzFile.gzip && gzFile.lines === 10 * 3 + 4, `gz lines ${gzFile.lines}`);
    assertEquals(report.legs, legs.length);
    assertEquals(report.failedLegs, legs.length);
    assert(report.firstProblems.some((p) => p.kind === "bad_gzip" && p.file.endsWith(".log.gz")));
    assert(report.firstProblems.some((p) => p.kind === "truncated" && p.line === 6));
  } finally {
    await Deno.remove(c.dir, { recursive: true });
  }
});

Deno.test("corpus: strict mode stops at the first unreadable input with a NavscopeError", async () => {
  const c = await buildCorpus();
  try {
    const e = await assertRejects(collectLogs(c.dir, { strict: true }));
    assert(e instanceof NavscopeError, String(e));
    assertEquals((e as NavscopeError).code, "io");
    assert((e as NavscopeError).where.file!.endsWith("broken.log"), e.message);
  } finally {
    await Deno.remove(c.dir, { recursive: true });
  }
});

Deno.test("corpus: globs, explicit files and the report of a stream", async () => {
  const c = await buildCorpus();
  try {
    const { files } = await expandInputs([`${c.dir}/**/*.gz`]);
    assertEquals(files.map((f) => f.split("/").pop()), [
      "maafw.bak.2026.09.30-00.00.00.000.log.gz",
      "zz_oldest.log.gz",
    ]);
    const none = await expandInputs([`${c.dir}/*.nothing`]);
    assertEquals(none.missing.length, 1);
    const s = parseLogs(`${c.dir}/cpp-algo/debug/maafw.log`, { include: ["leg"] });
    let n = 0;
    for await (const _ of s) n++;
    assertEquals(n, 10);
    assertEquals(s.report.files.length, 1);
    assertEquals(s.report.lines, 10 * 3 + 4);
    assert(globToRegExp("a/**/b*.log").test("a/x/y/b1.log"));
    assert(globToRegExp("a/**/b*.log").test("a/b.log"));
    assert(!globToRegExp("a/*.log").test("a/x/b.log"));
  } finally {
    await Deno.remove(c.dir, { recursive: true });
  }
});

Deno.test("corpus: stopping early closes the file (no leaked handle)", async () => {
  const c = await buildCorpus();
  try {
    const s = parseLogs(`${c.dir}/cpp-algo/debug/maafw.log`);
    for await (const _ of s) break;
  } finally {
    await Deno.remove(c.dir, { recursive: true });
  }
});
