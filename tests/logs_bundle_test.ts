/**
 * Issue 35: MaaEnd log bundles as inputs everywhere. Bundles are made here with fflate's
 * writer for each exporter era and each malformation (truncated, ZIP64, spanned, encrypted,
 * CRC, bomb, missing volume); classify / replay / report / triage on the zips give the same
 * failure counts as on the extracted folder and name the missing volume.
 */
import { assert, assertEquals } from "./assert.ts";
import { unzipSync } from "fflate";
import { captureOutput } from "../commands/support/terminal.ts";
import { main } from "../commands/main.ts";
import { classifyLogs } from "../src/analyze/log_pipeline.ts";
import { collectLogs } from "../src/logs/reader.ts";
import { parseBundleName, rotationKey, ziplinesFromConfig } from "../src/logs/bundle.ts";
import { setMaxInflate } from "../src/codec/gzip.ts";
import { entryStream, openZip } from "../src/codec/zip.ts";
import { crlf, writeBundle, zipVolume } from "../testing/bundle_synth.ts";
import { EXAMPLE_PREFIX, exampleLogs, writeExampleBundle } from "../testing/example_bundle.ts";
import { COMMENT_LIMIT, triageMarkdown, type TriageResult } from "../reports/triage.ts";
import { triage } from "../src/jobs/triage.ts";
import { replayLogs } from "../src/analyze/replay_run.ts";
import { reportFromLogs } from "../reports/report_data.ts";

const PACK = new URL("../examples/city_small/base.nav.gz", import.meta.url).pathname;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = console.error;
  let err = "";
  console.error = (...a: unknown[]) => void (err += a.join(" ") + "\n");
  try {
    const c = await captureOutput(() => main(args));
    return { code: c.value, out: c.out, err: err + c.err };
  } finally {
    console.error = saved;
  }
}

async function tmp(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "navscope-bundle-" });
}

/** Extracts volumes into one folder, as a user's unzip of every part does. */
function extract(volumes: string[], dir: string): void {
  for (const v of volumes) {
    for (const [name, bytes] of Object.entries(unzipSync(Deno.readFileSync(v)))) {
      const p = `${dir}/${name}`;
      Deno.mkdirSync(p.slice(0, p.lastIndexOf("/")), { recursive: true });
      Deno.writeFileSync(p, bytes);
    }
  }
}

Deno.test("bundle names are parsed from the right (versions contain '-')", () => {
  const p = parseBundleName("MaaEnd-logs-v2.23.0-rc.2-20260808-075256-part01.zip")!;
  assertEquals([p.product, p.version, p.stamp, p.part], [
    "MaaEnd",
    "v2.23.0-rc.2",
    "2026-08-08 07:52:56",
    1,
  ]);
  assertEquals(
    parseBundleName("MaaEnd-logs-v2.1.0-ci.260808-abc-20260808-075256-part001.zip")!
      .version,
    "v2.1.0-ci.260808-abc",
  );
  assertEquals(parseBundleName("MaaEnd-logs-20260808-075256.zip")!.part, null);
  assertEquals(parseBundleName("debug.zip"), null);
  // Rotation order: stamps lexically (zero-padded = chronological), then the live log.
  const names = [
    "cpp-algo/debug/maafw.log",
    "cpp-algo/debug/maafw.bak.2026.08.30-22.58.30.451.log",
    "cpp-algo/debug/maafw.bak.2026.08.26.log",
  ];
  assertEquals(names.sort((a, b) => rotationKey(a) < rotationKey(b) ? -1 : 1), [
    "cpp-algo/debug/maafw.bak.2026.08.26.log",
    "cpp-algo/debug/maafw.bak.2026.08.30-22.58.30.451.log",
    "cpp-algo/debug/maafw.log",
  ]);
  assertEquals(
    ziplinesFromConfig({ options: [{ name: "ZiplineDelivery", value: "Yes" }] }).on,
    true,
  );
  assertEquals(ziplinesFromConfig({ task: { enableZipline: false } }).on, false);
  assertEquals(ziplinesFromConfig({ other: 1 }).on, null);
});

Deno.test("done-when: 3 volumes, one missing, rotated log, CRLF, NUL run — zips = extracted folder", async () => {
  const dir = await tmp();
  try {
    const vols = writeExampleBundle(`${dir}/zips`);
    // part01 (pipeline log, config) is missing from the report.
    Deno.removeSync(vols[0]);
    const present = vols.slice(1);
    extract(present, `${dir}/folder`);
    const z = await classifyLogs(present);
    const f = await classifyLogs([`${dir}/folder`]);
    assertEquals(z.report.total, 4);
    assertEquals(z.report.total, f.report.total);
    assertEquals(
      z.report.classes.map((c) => [c.class, c.count]),
      f.report.classes.map((c) => [c.class, c.count]),
    );
    // Two runs failed without a failed leg (a zipline aim failure then the off-route wedge
    // timeout; a world-map search that gave up, issue 53).
    assertEquals(z.report.runs, { total: 7, failed: 6, open: 0, with_failed_legs: 4 });
    assertEquals(z.report.run_causes!.map((r) => [r.cause, r.runs]), [
      ["planner:goal_outside_reach", 2],
      ["detour:no_bypass", 1],
      ["locator:worldmap_gave_up", 1],
      ["offroute:wedge_timeout", 1],
      ["planner:seed_outside_window", 1],
    ]);
    assertEquals(z.report.runs, f.report.runs);
    const b = z.report.bundles![0];
    assertEquals(b.volumes_missing, [`${EXAMPLE_PREFIX}-part01.zip`]);
    assertEquals(b.version, "v2.23.0-rc.2");
    assertEquals(b.stamp, "2026-08-08 07:52:56");
    assertEquals(b.navigator_files.map((p) => p.slice(p.indexOf("!") + 1)), [
      "cpp-algo/debug/maafw.bak.2026.08.08-07.41.01.300.log",
      "cpp-algo/debug/maafw.log",
    ]);
    assertEquals(b.nul_chars, 64);
    // The CLI names the missing part; --strict makes it exit 1.
    const r = await cli(["classify", ...present]);
    assertEquals(r.code, 0);
    assert(r.err.includes(`missing volume ${EXAMPLE_PREFIX}-part01.zip`), r.err);
    assertEquals((await cli(["classify", "--strict", ...present])).code, 1);
    // replay, report and triage count the same failures.
    const packs = [{ path: PACK }];
    const rz = await replayLogs(present, { packs, jobs: 1 });
    const rf = await replayLogs([`${dir}/folder`], { packs, jobs: 1 });
    assertEquals(rz.report.counts, rf.report.counts);
    assertEquals(rz.report.rows.reduce((s, x) => s + x.failures, 0), 4);
    assertEquals(rz.report.bundles![0].volumes_missing, [`${EXAMPLE_PREFIX}-part01.zip`]);
    const pz = await reportFromLogs(present);
    assertEquals(pz.data.overview.failed, 4);
    assertEquals(pz.data.bundles![0].volumes_missing.length, 1);
    const t = await triage(present, { packs: [PACK] });
    assertEquals(t.failures, 4);
    assertEquals(t.legs.length, 4);
    assert(t.markdown.includes("missing: `" + `${EXAMPLE_PREFIX}-part01.zip`), t.markdown);
    assertEquals(t.legs.map((l) => l.replay), [
      "reproduces (same class)",
      "reproduces (same class)",
      "does not reproduce: ok on this pack",
      "zone not in this pack",
    ]);
    for (const l of t.legs) {
      assert(t.markdown.includes(l.picture), l.picture);
      assert(t.pngs.get(l.picture)![1] === 0x50, "a PNG"); // \x89PNG
    }
    assert(t.markdown.startsWith("**navscope triage："), t.markdown.slice(0, 80));
    // The verdict covers every failed run (issue 53), then the planner's share.
    assert(t.markdown.split("\n")[0].includes("6 failed runs: "), t.markdown.slice(0, 200));
    assert(t.markdown.split("\n")[2].includes("4 planner failures in 4 runs"));
    assertEquals(t.failedRunList.map((r) => r.cause.cause), [
      "planner:goal_outside_reach",
      "detour:no_bypass",
      "planner:seed_outside_window",
      "planner:goal_outside_reach",
      "offroute:wedge_timeout",
      "locator:worldmap_gave_up",
    ]);
    assert(
      t.markdown.split("\n")[0].endsWith(
        "1 zipline aim failure then off-route wedge timeout, 1 world-map search gave up**",
      ),
      t.markdown.split("\n")[0],
    );
    // The zipline account id is personal data: never in the comment or the report.
    assert(!t.markdown.includes("4242424242") && !t.html.includes("4242424242"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("triage CLI writes triage.md, report.html and one PNG per failing leg; without --pack it says how to add the replay", async () => {
  const dir = await tmp();
  try {
    const vols = writeExampleBundle(`${dir}/zips`);
    const r = await cli(["triage", ...vols, "--out", `${dir}/out`]);
    assertEquals(r.code, 0, r.err);
    const md = Deno.readTextFileSync(`${dir}/out/triage.md`);
    assertEquals(md, r.out);
    assert(md.includes("--pack"), "says how to add the replay");
    assert(!md.includes("reproduces"), "no replay verdicts without a pack");
    assert(md.includes("zipline delivery in config: off"), md);
    const files = [...Deno.readDirSync(`${dir}/out`)].map((e) => e.name).sort();
    assertEquals(files, [
      "leg-01.png",
      "leg-02.png",
      "leg-03.png",
      "leg-04.png",
      "report.html",
      "run-01.png",
      "run-01.svg",
      "run-02.png",
      "run-02.svg",
      "run-03.png",
      "run-03.svg",
      "run-04.png",
      "run-04.svg",
      "run-05.png",
      "run-05.svg",
      "run-06.png",
      "run-06.svg",
      "triage.md",
    ]);
    assertEquals((await cli(["triage"])).code, 2);
    assertEquals((await cli(["triage", `${dir}/nothing.zip`, "--out", `${dir}/o2`])).code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the comment is cut between sections, never mid-table, under 65 536 characters", async () => {
  const dir = await tmp();
  try {
    const vols = writeExampleBundle(dir);
    const t = await triage(vols);
    // 2 000 copies of the legs: far over the limit.
    const many: TriageResult = { ...t, legs: [] };
    for (let i = 0; i < 2000; i++) {
      many.legs.push(...t.legs.map((l) => ({ ...l, n: many.legs.length + 1 })));
    }
    const md = triageMarkdown(many, [{ class: "goal_outside_reach", count: 3 }], []);
    assert(md.length <= COMMENT_LIMIT, `${md.length}`);
    assert(/\*\(cut: \d+ of 8000 failing legs shown here/.test(md), md.slice(-400));
    // Every table line that is there is whole (starts and ends with a pipe).
    for (const line of md.split("\n").filter((l) => l.startsWith("|"))) {
      assert(line.endsWith("|"), line);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const NAV_FAIL =
  "[2026-08-08 07:41:00.100][WRN][Px1][Tx2][navmesh_path_expander.cpp][L1][f] RECAST plan failed. [request.zone_name=map01base] [result.error=起点不在网格附近] \n" +
  "[2026-08-08 07:41:00.101][WRN][Px1][Tx2][navmesh_path_expander.cpp][L1][f] Failed to plan NAVMESH route. [navmesh_zone=map01base] [locator_zone=ValleyIV_Base] [start.x=440.0] [start.y=215.0] [goal.x=45.0] [goal.y=28.0] [navmesh::ToString(route_result.status)=unreachable] [plan_ms=3] \n";

Deno.test("exporter eras: older single zip, hand-made debug zip with and without a top folder, loose files, a mix", async () => {
  const dir = await tmp();
  try {
    // MXU < v2.1.7: one zip, named like a bundle, no partNN.
    writeBundle(`${dir}/a`, {
      prefix: "MaaEnd-logs-v2.9.0-beta.5-20260507-101010",
      single: true,
      volumes: [{ "cpp-algo/debug/maafw.log": NAV_FAIL, "maafw.log": NAV_FAIL }],
    });
    Deno.writeFileSync(
      `${dir}/debug.zip`,
      zipVolume({ "debug/cpp-algo/debug/maafw.log": NAV_FAIL }),
    );
    Deno.writeFileSync(`${dir}/flat.zip`, zipVolume({ "cpp-algo/debug/maa.log": NAV_FAIL }));
    Deno.writeTextFileSync(`${dir}/loose.log`, NAV_FAIL);
    const single = await classifyLogs([`${dir}/a`]);
    // The top-level maafw.log is the pipeline log: its plan lines are not counted.
    assertEquals(single.report.total, 1);
    assertEquals(single.report.bundles![0].kind, "single_zip");
    assert(single.report.bundles![0].era.includes("MXU < v2.1.7"), single.report.bundles![0].era);
    assertEquals((await classifyLogs([`${dir}/debug.zip`])).report.total, 1);
    const flat = await classifyLogs([`${dir}/flat.zip`]);
    assertEquals(flat.report.total, 1);
    assert(flat.report.bundles![0].era.includes("maa.log names"));
    const mix = await classifyLogs([
      `${dir}/a`,
      `${dir}/debug.zip`,
      `${dir}/flat.zip`,
      `${dir}/loose.log`,
    ]);
    assertEquals(mix.report.total, 4);
    assertEquals(mix.report.bundles!.length, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Patches bytes of a file. */
function patch(path: string, f: (b: Uint8Array, dv: DataView) => void): void {
  const b = Deno.readFileSync(path);
  f(b, new DataView(b.buffer));
  Deno.writeFileSync(path, b);
}

function eocdAt(b: Uint8Array): number {
  for (let i = b.length - 22; i >= 0; i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 5 && b[i + 3] === 6) return i;
  }
  throw new Error("no EOCD");
}

Deno.test("malformed volumes: one located error naming the volume (and entry); other volumes still read", async () => {
  const cases: Array<[string, (p: string) => void, RegExp]> = [
    ["truncated", (p) => {
      const b = Deno.readFileSync(p);
      Deno.writeFileSync(p, b.subarray(0, b.length - 30));
    }, /no end-of-central-directory record/],
    ["zip64", (p) => patch(p, (b, dv) => dv.setUint32(eocdAt(b) + 16, 0xffffffff, true)), /ZIP64/],
    ["spanned", (p) => patch(p, (b, dv) => dv.setUint16(eocdAt(b) + 4, 1, true)), /spanned/],
    ["encrypted", (p) =>
      patch(p, (b, dv) => {
        const cd = dv.getUint32(eocdAt(b) + 16, true);
        dv.setUint16(cd + 8, dv.getUint16(cd + 8, true) | 1, true);
      }), /encrypted entry/],
    ["crc", (p) =>
      patch(p, (b, dv) => {
        const cd = dv.getUint32(eocdAt(b) + 16, true);
        dv.setUint32(cd + 16, dv.getUint32(cd + 16, true) ^ 1, true);
      }), /CRC-32 mismatch/],
  ];
  for (const [what, damage, re] of cases) {
    const dir = await tmp();
    try {
      const vols = writeExampleBundle(dir);
      damage(vols[2]); // the live navigator log's volume
      const { report, parse } = await classifyLogs(vols);
      const bad = report.file_problems.find((p) => re.test(p.error));
      assert(bad, `${what}: ${JSON.stringify(report.file_problems)}`);
      assert(
        bad.file.includes("part03.zip") || bad.error.includes("part03.zip"),
        `${what}: ${bad.file}`,
      );
      if (what === "encrypted" || what === "crc") {
        assert(
          bad.file.includes("cpp-algo/debug/maafw.log") ||
            bad.error.includes("cpp-algo/debug/maafw.log"),
          `${what}: names the entry`,
        );
      }
      // part02 (the rotated log) is still read: its two failures are counted.
      assert(report.total >= 1, `${what}: ${report.total}`);
      assert(
        parse.files.some((f) =>
          f.file.endsWith("maafw.bak.2026.08.08-07.41.01.300.log") && f.lines > 0
        ),
      );
      const r = await cli(["classify", "--strict", ...vols]);
      assertEquals(r.code, 1, `${what} --strict`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("a zip bomb is refused by the inflate cap with a located error; nothing else is lost", async () => {
  const dir = await tmp();
  try {
    const vols = writeBundle(dir, {
      prefix: "MaaEnd-logs-v2.23.0-20260808-075256",
      volumes: [
        { "cpp-algo/debug/maafw.bak.2026.08.08-07.00.00.000.log": NAV_FAIL },
        { "cpp-algo/debug/maafw.log": NAV_FAIL + " ".repeat(4 << 20) + "\n" },
      ],
    });
    setMaxInflate(1 << 20);
    try {
      const { report } = await classifyLogs(vols);
      const bad = report.file_problems.find((p) => /inflate cap/.test(p.error));
      assert(
        bad && bad.file.includes("part02.zip!cpp-algo/debug/maafw.log"),
        JSON.stringify(report.file_problems),
      );
      assertEquals(report.total, 1); // part01's failure: the other volume is still read
    } finally {
      setMaxInflate(null);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("text: CRLF, invalid UTF-8 counted, NUL runs dropped and counted, a line over 1 MiB", async () => {
  const dir = await tmp();
  try {
    const bad = new Uint8Array([0xff, 0xfe]);
    const text = new TextEncoder().encode(crlf(NAV_FAIL));
    const big = "x".repeat((1 << 20) + 10) + "\n";
    const body = new Uint8Array([
      ...text,
      ...bad,
      10,
      0,
      0,
      0,
      ...new TextEncoder().encode(big + NAV_FAIL),
    ]);
    const vols = writeBundle(dir, {
      prefix: "MaaEnd-logs-v2.23.0-20260808-075256",
      volumes: [{ "cpp-algo/debug/maafw.log": body }],
    });
    const { events, report } = await collectLogs(vols);
    assertEquals(events.filter((e) => e.type === "leg").length, 2);
    const f = report.files.find((x) => x.file.endsWith("maafw.log"))!;
    assertEquals(f.nulChars, 3);
    assertEquals(f.nonUtf8Lines, 1);
    // The 1 MiB line is cut at the line cap (not a logger line: counted as garbage), and the
    // failure after it is still read.
    assertEquals(report.problems.garbage, 1);
    // The navigator's request lines split into runs even with CRLF.
    const { bak } = exampleLogs();
    const v2 = writeBundle(`${dir}/r`, {
      prefix: "MaaEnd-logs-v2.23.0-20260808-075257",
      volumes: [{ "cpp-algo/debug/maafw.log": crlf(bak) }],
    });
    assertEquals((await classifyLogs(v2)).report.runs!.total, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the zip reader agrees with fflate's (an independent implementation) byte for byte, and refuses a CRC mismatch", async () => {
  const dir = await tmp();
  try {
    const text = crlf(exampleLogs().live).repeat(50);
    const vols = writeBundle(dir, {
      prefix: "MaaEnd-logs-v2.23.0-20260808-075256",
      volumes: [{
        "cpp-algo/debug/maafw.log": text,
        "on_error/x.png": new Uint8Array(3000).fill(7),
      }],
    });
    const zip = await openZip(vols[0]);
    const ref = unzipSync(Deno.readFileSync(vols[0]));
    assertEquals(zip.entries.map((e) => e.name).sort(), Object.keys(ref).sort());
    const read = async (i: number) => {
      const parts: Uint8Array[] = [];
      for await (const c of entryStream(zip, zip.entries[i], 1 << 30)) parts.push(c);
      const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
      let at = 0;
      for (const p of parts) out.set(p, (at += p.length) - p.length);
      return out;
    };
    for (let i = 0; i < zip.entries.length; i++) {
      assertEquals([...await read(i)].join(","), [...ref[zip.entries[i].name]].join(","));
    }
    zip.entries[0].crc32 ^= 1;
    const e = await read(0).then(() => null, (e: Error) => e);
    assert(
      e && /CRC-32 mismatch/.test(e.message) && e.message.includes(zip.entries[0].name),
      `${e}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the failing leg's picture carries the log's planned path and observed track as layers: report --pack, replay --svg", async () => {
  const dir = await tmp();
  try {
    // Run 1 of the example (mesa_up, fails) with an earlier generated path of that run: the
    // navigator planned a first stretch before the failing leg.
    const { bak } = exampleLogs();
    const at = bak.indexOf("[mapnavigator::PositionProvider::Capture]");
    const head = bak.lastIndexOf("\n", at) + 1;
    const gen = "[2026-08-08 07:41:00.080][INF][Px8812][Tx412][navmesh_path_expander.cpp]" +
      "[L412][LogGeneratedNavmeshPath] NAVMESH generated path. [state.navmesh_zone=map01base] " +
      "[state.current_zone=ValleyIV_Base] [route_result.cost=6.0] [path_point_count=2] " +
      "[navmesh_start_point=[104,305]] [navmesh_goal_point=[110,305]] " +
      "[navmesh_segment_breaks=[]] [navmesh_path_points=[[104,305],[107,305],[110,305]]] \n";
    const log = `${dir}/maafw.log`;
    Deno.writeTextFileSync(log, bak.slice(0, head) + gen + bak.slice(head));
    const layersOf = (svg: string) =>
      new Set([...svg.matchAll(/data-layer="([a-z0-9_]+)"/g)].map((m) => m[1]));
    // replay --svg: one picture per failing leg, both log layers with their legend entries.
    const r = await cli([
      "replay",
      log,
      "--pack",
      PACK,
      "--jobs",
      "1",
      "--out",
      `${dir}/out`,
      "--svg",
      `${dir}/svg`,
    ]);
    assertEquals(r.code, 0, r.err);
    const svg = Deno.readTextFileSync(`${dir}/svg/leg-01.svg`);
    const layers = layersOf(svg);
    for (const id of ["logpath0", "track0"]) {
      assert(layers.has(id), `${id} in ${[...layers]}`);
      assert(svg.includes(`data-legend-for="${id}"`), `legend entry for ${id}`);
    }
    assert(svg.includes("planned path (log)") && svg.includes("observed track (log)"));
    const index = Deno.readTextFileSync(`${dir}/svg/index.md`);
    assert(index.includes("leg-01.svg") && index.includes("goal_outside_reach"), index);
    // report --pack: the same layers in the drill-down.
    const rep = await cli(["report", log, "--pack", PACK, "--out", `${dir}/r.html`]);
    assertEquals(rep.code, 0, rep.err);
    const html = Deno.readTextFileSync(`${dir}/r.html`);
    // (the drill-down SVGs sit in the page's JSON data, their quotes escaped)
    for (const id of ["logpath0", "track0"]) {
      assert(new RegExp(`data-layer=\\\\?"${id}\\\\?"`).test(html), `${id} in the report`);
    }
    // --svg-max without --svg is a usage error, before any work.
    assertEquals((await cli(["replay", log, "--svg-max", "3"])).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
