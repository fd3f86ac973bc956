/**
 * Drill-downs of the HTML report (reports/report_drill.ts) and their hover data
 * (reports/hover_spans.ts): a battery leg replays with its test overrides and matches the log; the
 * same line without the battery replays to another outcome and says why (overrides missing); a
 * changed pack build is named; one leg of every class comes first; the packed spans come back
 * as they went in. Also the report command's refusals before any work (--thresholds without a
 * baseline, a bad thresholds file, a missing pack).
 */
import { assert, assertEquals } from "./assert.ts";
import { reportFromLogs } from "../reports/report_data.ts";
import { addDrilldowns, drillOrder } from "../reports/report_drill.ts";
import { packSpans, unpackSpans } from "../reports/hover_spans.ts";
import { parseLegs } from "../src/legs/format.ts";
import type { LegPicture } from "../src/plan/diagnostics/picture.ts";
import type { FailingLeg } from "../reports/report_data.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PACK = `${ROOT}examples/city_small/base.nav.gz`;
const LEGS = `${ROOT}examples/city_small/legs.json`;

/** The baseline's plan line of a battery leg. */
async function baselineLine(id: string): Promise<string> {
  const text = await Deno.readTextFile(`${ROOT}examples/baseline/plans.log`);
  const line = text.split("\n").find((l) => l.includes(`[leg=${id}]`));
  assert(line, `baseline line of ${id}`);
  return line + "\n";
}

async function drill(log: string, batteries: boolean) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/run.log`, log);
    const { data, acc } = await reportFromLogs([`${dir}/run.log`]);
    const legs = batteries ? parseLegs(await Deno.readTextFile(LEGS), LEGS) : [];
    await addDrilldowns(data, acc, [PACK], { batteries: legs });
    return data;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("drill-down: a battery leg replays with its overrides and matches the log", async () => {
  const data = await drill(await baselineLine("seed_outside_window"), true);
  const d = data.drilldowns[0];
  assertEquals(data.failures.legs[0].leg, "seed_outside_window");
  assertEquals(d.class, "seed_outside_window");
  assertEquals(d.logged_class, "seed_outside_window");
  assertEquals(d.differs, false);
  assertEquals(d.caveats, []);
  assert(d.how!.includes("battery leg seed_outside_window's test overrides (window="), d.how);
  // The Chinese message carries its gloss.
  assertEquals(data.glosses["起点种子格落在窗外"], "the start's seed cell lies outside the window");
});

Deno.test("drill-down: without the battery the replay differs and says why", async () => {
  const data = await drill(await baselineLine("seed_outside_window"), false);
  const d = data.drilldowns[0];
  // Without the forced window the leg plans (it is plaza_cross's request): never shown as a
  // bare "ok" for a logged failure.
  assertEquals(d.class, "ok");
  assertEquals(d.differs, true);
  assertEquals(d.caveats!.length, 1);
  assert(d.caveats![0].startsWith("overrides missing: the log names battery leg"), d.caveats![0]);
  assert(data.notes.some((n) => n.includes("1 replayed to another outcome than the log")));
});

Deno.test("drill-down: a changed pack build is named", async () => {
  const line = (await baselineLine("mesa_up")).replace(
    /\[pack=[0-9a-f]+\]/,
    "[pack=0123456789abcdef]",
  );
  const data = await drill(line, true);
  const d = data.drilldowns[0];
  assert(
    d.caveats!.some((c) => c.startsWith("pack changed: the log planned on build 0123456789abcdef")),
    JSON.stringify(d.caveats),
  );
  // mesa_up builds a window: a picture with hover spans.
  assert(d.svg && d.svg.includes("data-legend-for="), "picture with a legend");
  assert(d.spans && d.spans.spans > 0, "hover spans");
});

Deno.test("drill-down order: the top leg of every class first, then by failures", () => {
  const leg = (
    id: number,
    cls: string,
    origin = "plan_line",
  ) => ({ id, class: cls, origin } as unknown as FailingLeg);
  const order = drillOrder([
    leg(0, "a"),
    leg(1, "a"),
    leg(2, "load", "load"),
    leg(3, "b"),
    leg(4, "a"),
    leg(5, "c"),
  ]).map((l) => l.id);
  assertEquals(order, [0, 3, 5, 1, 2, 4]);
});

Deno.test("span pack: the spans of every cell come back (heights to the cm)", async () => {
  // 3 × 2 cells: spans 1, 0, 2, 1, 3, 1 (with another region's span and unknown clearance).
  const counts = [1, 0, 2, 1, 3, 1];
  const start = new Int32Array(counts.length + 1);
  counts.forEach((c, i) => (start[i + 1] = start[i] + c));
  const S = start[counts.length];
  const h = Float32Array.from({ length: S }, (_, i) => 0.5 * i - 1.234);
  const region = Int32Array.from({ length: S }, (_, i) => (i === 4 ? -1 : 7 + (i % 2)));
  const flags = Uint8Array.from({ length: S }, (_, i) => (i * 5) & 15);
  const clearance = Float32Array.from({ length: S }, (_, i) => (i === 4 ? -1 : i * 0.25));
  const flood = Uint8Array.from({ length: S }, (_, i) => i % 4);
  const p = {
    x0: 100,
    y0: -20,
    nx: 3,
    ny: 2,
    cellSpans: { start, h, region, flags, clearance, flood },
  } as unknown as LegPicture;
  const packed = packSpans(p);
  assertEquals([packed.x0, packed.y0, packed.nx, packed.ny, packed.spans], [100, -20, 3, 2, S]);
  const cells = await unpackSpans(packed);
  assertEquals(cells.map((c) => c.length), counts);
  let j = 0;
  for (const cell of cells) {
    for (const s of cell) {
      assertEquals(s.h, Math.round(h[j] * 100) / 100);
      assertEquals(s.region, region[j]);
      assertEquals(s.flags, flags[j]);
      assertEquals(s.flood, flood[j]);
      assertEquals(s.clearance, clearance[j] < 0 ? null : clearance[j]);
      j++;
    }
  }
});

Deno.test("report command: wrong thresholds, packs and flag combinations are refused up front", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${ROOT}examples/baseline/plans.log`;
  try {
    const noBase = await captureOutput(() =>
      main(["report", log, "--out", `${dir}/r.html`, "--thresholds", "t.json"])
    );
    assertEquals(noBase.value, 2, noBase.err);
    await Deno.writeTextFile(
      `${dir}/t.json`,
      `{"format":"navscope-thresholds","version":1,"metrics":{"timing.totl.p50":{}}}`,
    );
    const badTh = await captureOutput(() =>
      main([
        "report",
        log,
        "--out",
        `${dir}/r.html`,
        "--baseline",
        log,
        "--thresholds",
        `${dir}/t.json`,
      ])
    );
    assertEquals(badTh.value, 1, badTh.err);
    const noPack = await captureOutput(() =>
      main(["report", log, "--out", `${dir}/r.html`, "--pack", `${dir}/none.nav.gz`])
    );
    assertEquals(noPack.value, 1, noPack.err);
    // Nothing was written.
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["t.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report --baseline: the verdict is navscope diff's on the same inputs", async () => {
  const dir = await Deno.makeTempDir();
  const log = `${ROOT}examples/baseline/plans.log`;
  const th = `${ROOT}examples/baseline/thresholds.json`;
  try {
    // The baseline without two failing lines: two new failing legs in the current run.
    const lines = (await Deno.readTextFile(log)).split("\n").filter((l) => l);
    const drop = new Set(lines.filter((l) => /\[leg=(mesa_up|slope_65_up)\]/.test(l)));
    await Deno.writeTextFile(
      `${dir}/base.log`,
      lines.filter((l) => !drop.has(l)).join("\n") + "\n",
    );
    const r = await captureOutput(() =>
      main([
        "report",
        log,
        "--out",
        `${dir}/r.html`,
        "--json",
        `${dir}/r.json`,
        "--baseline",
        `${dir}/base.log`,
        "--thresholds",
        th,
      ])
    );
    assertEquals(r.value, 0, r.err);
    const d = await captureOutput(() =>
      main(["diff", `${dir}/base.log`, log, "--thresholds", th, "--json", `${dir}/d.json`])
    );
    assertEquals(d.value, 3);
    const rep = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const diff = JSON.parse(await Deno.readTextFile(`${dir}/d.json`));
    assertEquals(rep.baseline, diff);
    // The new failing legs are listed by their battery leg ids.
    assertEquals(
      diff.new_failing_legs.map((l: { leg: string }) => rep.leg_ids[l.leg]).sort(),
      ["mesa_up", "slope_65_up"],
    );
    const html = await Deno.readTextFile(`${dir}/r.html`);
    // The verdict element comes before the cards in the page.
    assert(html.indexOf('id="verdict"') < html.indexOf('id="cards"'));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
