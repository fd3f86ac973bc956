/**
 * Line-aligned decoding and the parse workers: the text of whole-line decoding equals one
 * decoding of the whole byte stream (the reference is the platform's one-shot TextDecoder, not
 * navscope code), and parsing in worker blocks gives the same events, counts, line numbers and
 * located problems as one thread, for any chunking, block size and damage.
 */
import { assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { LineTextDecoder } from "../src/logs/line_decoder.ts";
import { parseLogReadable } from "../src/logs/reader.ts";
import type { ParseOptions } from "../src/logs/parser.ts";

const enc = new TextEncoder();
const DIR = new URL("./fixtures/logs/", import.meta.url);
const FIXTURES = ["navigator_full.log", "navigator_short.log"].map((f) =>
  Deno.readFileSync(new URL(f, DIR))
);

/** Byte pieces a log can hold: text, CJK, line ends, invalid and cut UTF-8, BOM, NUL. */
const PIECES: Uint8Array[] = [
  enc.encode("abc "),
  enc.encode("\n"),
  enc.encode("\r\n"),
  enc.encode("终点格里的面"),
  enc.encode("é"),
  enc.encode("😀"),
  new Uint8Array([0xff]),
  new Uint8Array([0xc3]),
  new Uint8Array([0xe4, 0xb8]),
  new Uint8Array([0xf0, 0x9f, 0x98]),
  new Uint8Array([0xef, 0xbb, 0xbf]),
  new Uint8Array([0, 0, 0]),
];

function randomBytes(r: () => number, n: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let len = 0;
  while (len < n) {
    const p = PIECES[Math.floor(r() * PIECES.length)];
    parts.push(p);
    len += p.length;
  }
  return join(parts);
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Cuts `bytes` into random chunks of 1 … `max` bytes. */
function chunks(r: () => number, bytes: Uint8Array, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(r() * max);
    out.push(bytes.slice(i, i + n));
    i += n;
  }
  return out;
}

Deno.test("line decoder: whole-line pieces equal one decode of the stream (500 random streams)", () => {
  const r = mulberry32(20261204);
  const oneShot = new TextDecoder("utf-8", { ignoreBOM: true });
  for (let k = 0; k < 500; k++) {
    const bytes = randomBytes(r, Math.floor(r() * 400));
    const d = new LineTextDecoder(1 + Math.floor(r() * 64));
    const pieces: string[] = [];
    for (const c of chunks(r, bytes, 1 + Math.floor(r() * 80))) d.decode(c, (t) => pieces.push(t));
    pieces.push(d.end());
    assertEquals(pieces.join(""), oneShot.decode(bytes), `stream ${k}`);
  }
});

Deno.test("line decoder: every piece but a long line's ends at an LF", () => {
  const d = new LineTextDecoder(1 << 20);
  const pieces: string[] = [];
  for (const c of [enc.encode("ab\ncd"), enc.encode("ef\ngh\n"), enc.encode("ij")]) {
    d.decode(c, (t) => pieces.push(t));
  }
  assertEquals(pieces, ["ab\n", "cdef\n", "gh\n"]);
  assertEquals(d.end(), "ij");
});

/** A stream of `parts`, erroring after them when `fail` is set (damage mid-file). */
function streamOf(parts: Uint8Array[], fail: boolean): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < parts.length) c.enqueue(parts[i++]);
      else if (fail) c.error(new Error("unexpected end of data"));
      else c.close();
    },
  }, { highWaterMark: 0 });
}

async function parse(parts: Uint8Array[], fail: boolean, opts: ParseOptions) {
  const s = parseLogReadable(streamOf(parts, fail), "x.log", opts);
  const events = [];
  for await (const e of s) events.push(e);
  return { events, report: s.report };
}

/** A log of fixture lines with damage mixed in (NUL runs, invalid bytes, a BOM, long lines). */
function damagedLog(r: () => number): Uint8Array {
  const parts: Uint8Array[] = [];
  if (r() < 0.5) parts.push(new Uint8Array([0xef, 0xbb, 0xbf]));
  const fixture = FIXTURES[Math.floor(r() * FIXTURES.length)];
  for (let i = 0; i < 3; i++) {
    parts.push(fixture);
    const k = r();
    if (k < 0.2) parts.push(new Uint8Array(50 + Math.floor(r() * 200))); // NUL run
    else if (k < 0.4) parts.push(randomBytes(r, 300));
    else if (k < 0.5) parts.push(enc.encode("[2026-08-08 07:00:00.000][INF] " + "x".repeat(3000)));
    else if (k < 0.6) parts.push(enc.encode("not a log line\r\n"));
  }
  if (r() < 0.5) parts.push(new Uint8Array([0xe4, 0xb8])); // ends inside a character
  return join(parts);
}

Deno.test("parse workers: same events and report as one thread, for any blocks and damage", async () => {
  const r = mulberry32(35);
  for (let k = 0; k < 12; k++) {
    const bytes = damagedLog(r);
    const parts = chunks(r, bytes, 1 + Math.floor(r() * 5000));
    const fail = k % 3 === 2;
    const include = k % 2 === 0 ? undefined : ["leg" as const, "request" as const];
    const opts = { include, maxProblems: 2, maxLineLength: 2000 };
    const one = await parse(parts, fail, { ...opts, workers: 0 });
    const blockBytes = 256 + Math.floor(r() * 4000);
    const two = await parse(parts, fail, { ...opts, workers: 2, blockBytes });
    assertEquals(two.events.length, one.events.length, `log ${k}: events`);
    for (let i = 0; i < one.events.length; i++) {
      assertEquals(two.events[i], one.events[i], `log ${k}: event ${i}`);
    }
    assertEquals(two.report, one.report, `log ${k}: report`);
    const w1 = await parse(parts, fail, { ...opts, workers: 1, blockBytes: 300 });
    assertEquals(w1.report, one.report, `log ${k}: report, one worker`);
  }
});
