/**
 * Run logs: gzip read member by member, bytes after the last member a file problem (not
 * damage), damage messages that say how far the data went, and invalid UTF-8 lines counted as a
 * file problem (issue 27 item 13).
 */
import zlib from "node:zlib";
import { assert, assertEquals } from "./assert.ts";
import { collectLogs } from "../src/logs/reader.ts";
import { parseLogText } from "../src/logs/parser.ts";
import { fileProblems } from "../src/analyze/log_pipeline.ts";

const FIXTURE = new URL("./fixtures/logs/navigator_full.log", import.meta.url);
const plain = await Deno.readFile(FIXTURE);
const gz = (b: Uint8Array) => new Uint8Array(zlib.gzipSync(b));
const cat = (...xs: Uint8Array[]) => {
  const o = new Uint8Array(xs.reduce((s, x) => s + x.length, 0));
  let p = 0;
  for (const x of xs) o.set(x, p), p += x.length;
  return o;
};

/** One scratch path for every case: events carry the file name. */
const DIR = await Deno.makeTempDir();

async function readGz(bytes: Uint8Array) {
  await Deno.writeFile(`${DIR}/run.log.gz`, bytes);
  const r = await collectLogs([`${DIR}/run.log.gz`]);
  const f = r.report.files[0];
  return { ...r, file: f, json: r.events.map((e) => JSON.stringify(e)) };
}

Deno.test("gzip logs: a multi-member file reads every member, no problem", async () => {
  const whole = await readGz(gz(plain));
  assert(whole.events.length > 10);
  const cut = plain.indexOf(10, plain.length >> 1) + 1;
  const three = cat(
    gz(plain.subarray(0, cut)),
    gz(plain.subarray(cut, cut + 7)),
    gz(plain.subarray(cut + 7)),
  );
  const multi = await readGz(three);
  assertEquals(multi.json, whole.json);
  assertEquals(multi.file.error, "");
  assertEquals(multi.report.problems.bad_gzip, 0);
  assertEquals(multi.file.lines, whole.file.lines);
});

Deno.test("gzip logs: trailing bytes are a file problem; every event before them is kept", async () => {
  const whole = await readGz(gz(plain));
  for (const extra of [new Uint8Array([1, 2, 3, 4, 5, 6]), new Uint8Array(100)]) {
    const r = await readGz(cat(gz(plain), extra));
    assertEquals(r.json, whole.json);
    assertEquals(r.report.problems.bad_gzip, 1);
    assert(r.file.error.includes(`${extra.length} bytes after the last gzip member`), r.file.error);
    assert(!r.file.error.includes("corrupt"), r.file.error);
  }
});

Deno.test("gzip logs: real damage says where it is and how far the data went", async () => {
  const good = gz(plain);
  const crc = good.slice();
  crc[crc.length - 6] ^= 1;
  let r = await readGz(crc);
  assert(/CRC-32 mismatch \(member 1/.test(r.file.error), r.file.error);
  assert(r.file.error.includes(`read up to line ${r.file.lines}`), r.file.error);
  assert(r.events.length > 10, "data before the damage is kept");
  r = await readGz(good.subarray(0, good.length - 40));
  assert(r.file.error.includes("unexpected end of file"), r.file.error);
  // A second member that is cut short: the first member's data is all there.
  const half = plain.indexOf(10, plain.length >> 1) + 1;
  const second = gz(plain.subarray(half));
  r = await readGz(cat(gz(plain.subarray(0, half)), second.subarray(0, 30)));
  assert(r.file.error.includes("member 2"), r.file.error);
  assert(r.file.lines >= new TextDecoder().decode(plain.subarray(0, half)).split("\n").length - 1);
});

Deno.test("logs: invalid UTF-8 lines are counted and reported as a file problem", () => {
  const text = new TextDecoder().decode(plain);
  const lines = text.split("\n");
  const i = lines.findIndex((l) => l.includes("NAVMESH"));
  assert(i >= 0);
  // A GBK-like re-encoding of the message: the decoder leaves U+FFFD.
  lines[i] = lines[i] + " \ufffd\ufffd";
  const { report } = parseLogText(lines.join("\n"), "gbk.log");
  assertEquals(report.problems.non_utf8, 1);
  assertEquals(report.files[0].nonUtf8Lines, 1);
  const fp = fileProblems(report);
  assertEquals(fp.length, 1);
  assert(
    fp[0].file === "gbk.log" && fp[0].error.includes("1 line is not valid UTF-8"),
    fp[0].error,
  );
  assertEquals(fileProblems(parseLogText(text, "ok.log").report), []);
});

Deno.test("gzip logs: scratch folder removed", async () => {
  await Deno.remove(DIR, { recursive: true });
});

Deno.test("logs: a file cut inside a UTF-8 character reports its last line as cut", () => {
  const text = new TextDecoder().decode(plain);
  const cut = new TextEncoder().encode(text.trimEnd() + " 旁包");
  const { report } = parseLogText(
    new TextDecoder().decode(cut.subarray(0, cut.length - 1)),
    "c.log",
  );
  assertEquals(report.problems.truncated, 1);
  assertEquals(
    report.firstProblems.find((p) => p.kind === "truncated")?.detail,
    "the file ends inside a UTF-8 character",
  );
});

Deno.test("pack gunzip: bytes after the gzip member are named as such, not as damage", async () => {
  const { gunzip } = await import("../src/codec/gzip.ts");
  const { NavscopeError } = await import("../src/errors.ts");
  const one = gz(plain);
  for (
    const [extra, kind] of [[gz(plain), "a second gzip member"], [
      new Uint8Array(9),
      "not gzip data",
    ]] as const
  ) {
    const e = await gunzip(cat(one, extra), "p.nav.gz").then(() => null, (x) => x);
    assert(e instanceof NavscopeError, String(e));
    assertEquals(e.where.offset, one.length);
    assert(
      e.message.includes(`${extra.length} bytes from offset ${one.length} (${kind})`),
      e.message,
    );
    assert(!e.message.includes("damaged"), e.message);
  }
  assertEquals((await gunzip(one, "p.nav.gz")).length, plain.length);
});
