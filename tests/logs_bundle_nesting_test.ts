/**
 * Issue 53, bundles: a zip of the `partNN` volumes (users re-zip them to attach one file) is read
 * as those volumes, one level deep (deeper: a located warning, an error under --strict); a
 * duplicate entry name in one archive is a warning naming both copies, and both are read.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import zlib from "node:zlib";
import { type Zippable, zipSync } from "fflate";
import { classifyLogs } from "../src/analyze/log_pipeline.ts";
import { NavscopeError } from "../src/errors.ts";
import { writeExampleBundle } from "../testing/example_bundle.ts";
import { zipVolume } from "../testing/bundle_synth.ts";

const enc = new TextEncoder();

/** A zip of files on disk, each entry deflated (as a user's archiver re-zips the volumes). */
function zipOf(entries: Record<string, Uint8Array>): Uint8Array {
  const z: Zippable = {};
  for (const [k, v] of Object.entries(entries)) z[k] = [v, { level: 6 }];
  return zipSync(z);
}

/**
 * A Stored zip written here byte by byte (PKWARE APPNOTE 4.3), so that one name can appear twice:
 * fflate's writer takes an object and cannot.
 */
function storedZip(entries: Array<[string, Uint8Array]>): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let off = 0;
  for (const [name, data] of entries) {
    const n = enc.encode(name);
    const crc = zlib.crc32(data) >>> 0;
    const loc = new Uint8Array(30 + n.length);
    const dl = new DataView(loc.buffer);
    dl.setUint32(0, 0x04034b50, true);
    dl.setUint16(4, 20, true);
    dl.setUint32(14, crc, true);
    dl.setUint32(18, data.length, true);
    dl.setUint32(22, data.length, true);
    dl.setUint16(26, n.length, true);
    loc.set(n, 30);
    const cen = new Uint8Array(46 + n.length);
    const dc = new DataView(cen.buffer);
    dc.setUint32(0, 0x02014b50, true);
    dc.setUint16(4, 20, true);
    dc.setUint16(6, 20, true);
    dc.setUint32(16, crc, true);
    dc.setUint32(20, data.length, true);
    dc.setUint32(24, data.length, true);
    dc.setUint16(28, n.length, true);
    dc.setUint32(42, off, true);
    cen.set(n, 46);
    parts.push(loc, data);
    central.push(cen);
    off += loc.length + data.length;
  }
  const cdSize = central.reduce((s, c) => s + c.length, 0);
  const eocd = new Uint8Array(22);
  const de = new DataView(eocd.buffer);
  de.setUint32(0, 0x06054b50, true);
  de.setUint16(8, entries.length, true);
  de.setUint16(10, entries.length, true);
  de.setUint32(12, cdSize, true);
  de.setUint32(16, off, true);
  const all = [...parts, ...central, eocd];
  const out = new Uint8Array(all.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of all) out.set(p, (at += p.length) - p.length);
  return out;
}

function navLine(t: string, zone: string, s: [number, number], g: [number, number]): string {
  return `[2026-08-08 07:41:${t}][WRN][Px1][Tx2][navmesh_path_expander.cpp][L1][PlanNavmeshRouteImpl] ` +
    `Failed to plan NAVMESH route. [navmesh_zone=${zone}] [locator_zone=X] [start.x=${s[0]}] ` +
    `[start.y=${s[1]}] [goal.x=${g[0]}] [goal.y=${g[1]}] ` +
    `[navmesh::ToString(route_result.status)=unreachable] [plan_ms=4]\n`;
}

async function withTmp(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "navscope-nest-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a zip of the partNN volumes is read as those volumes: same counts, same bundle", async () => {
  await withTmp(async (dir) => {
    const vols = writeExampleBundle(`${dir}/vols`);
    const inner: Record<string, Uint8Array> = {};
    for (const v of vols) inner[v.slice(v.lastIndexOf("/") + 1)] = Deno.readFileSync(v);
    // A loose log beside the volumes in the re-zip is read too.
    inner["extra/notes.log"] = enc.encode(navLine("09.000", "map09", [1, 2], [3, 4]));
    Deno.writeFileSync(`${dir}/attach.zip`, zipOf(inner));
    const direct = (await classifyLogs(vols)).report;
    const nested = (await classifyLogs([`${dir}/attach.zip`])).report;
    assertEquals(direct.total, 4);
    assertEquals(nested.total, 5, "the 4 of the volumes and the loose log's one");
    assertEquals(nested.runs, direct.runs);
    const b = nested.bundles!.find((x) => x.kind === "volumes")!;
    assertEquals(b.volumes_found.length, 3);
    assertEquals(b.volumes_missing, []);
    assertEquals(b.version, "v2.23.0-rc.2");
    assert(
      b.volumes_found.every((v) => v.includes("attach.zip!MaaEnd-logs-")),
      b.volumes_found.join(),
    );
    assert(b.warnings.some((w) => w.includes("re-zipped bundle")), b.warnings.join("\n"));
    assertEquals(
      b.navigator_files.map((p) => p.slice(p.lastIndexOf("!") + 1)),
      direct.bundles![0].navigator_files.map((p) => p.slice(p.lastIndexOf("!") + 1)),
    );
  });
});

Deno.test("a zip inside a volume inside a zip is not read: a warning naming it, an error with --strict", async () => {
  await withTmp(async (dir) => {
    const deep = zipVolume({ "cpp-algo/debug/maafw.log": navLine("01.000", "m", [0, 0], [1, 1]) });
    const vol = zipVolume({
      "cpp-algo/debug/maafw.log": navLine("02.000", "m", [5, 5], [6, 6]),
      "old/again.zip": deep,
    });
    Deno.writeFileSync(
      `${dir}/outer.zip`,
      zipOf({ "MaaEnd-logs-v1-20260808-075256-part01.zip": vol }),
    );
    const r = (await classifyLogs([`${dir}/outer.zip`])).report;
    assertEquals(r.total, 1, "the volume's own log only");
    const w = r.bundles!.flatMap((b) => b.warnings).join("\n");
    assert(
      w.includes("outer.zip!MaaEnd-logs-v1-20260808-075256-part01.zip!old/again.zip"),
      w,
    );
    assert(w.includes("one level of nesting only"), w);
    const e = await assertRejects(classifyLogs([`${dir}/outer.zip`], { strict: true }));
    assert(e instanceof NavscopeError && e.message.includes("old/again.zip"), String(e));
  });
});

Deno.test("a duplicate entry name: a warning naming both copies (index, offset); both are read", async () => {
  await withTmp(async (dir) => {
    const a = enc.encode(navLine("01.000", "map01base", [1, 1], [2, 2]));
    const b = enc.encode(navLine("02.000", "map01base", [7, 7], [8, 8]));
    Deno.writeFileSync(
      `${dir}/hand.zip`,
      storedZip([["cpp-algo/debug/maafw.log", a], ["cpp-algo/debug/maafw.log", b]]),
    );
    const r = (await classifyLogs([`${dir}/hand.zip`])).report;
    // Both failures, neither dropped nor merged.
    assertEquals(r.total, 2);
    const bundle = r.bundles![0];
    const w = bundle.warnings.join("\n");
    assert(w.includes(`entry "cpp-algo/debug/maafw.log" appears 2 times`), w);
    const second = 30 + "cpp-algo/debug/maafw.log".length + a.length;
    assert(w.includes("entry 1 at offset 0") && w.includes(`entry 2 at offset ${second}`), w);
    assertEquals(bundle.navigator_files.map((p) => p.slice(p.lastIndexOf("!") + 1)), [
      "cpp-algo/debug/maafw.log",
      "cpp-algo/debug/maafw.log (copy 2)",
    ]);
  });
});
