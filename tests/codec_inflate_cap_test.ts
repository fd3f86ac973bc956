/**
 * The inflate cap and the early magic check of gunzip (issue 27 item 16): a gzip bomb fails fast
 * with an error naming the cap, before it is inflated whole; the cap comes from the flag
 * (setMaxInflate), the environment (NAVSCOPE_MAX_INFLATE) or the 512 MiB default.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  DEFAULT_MAX_INFLATE,
  gunzip,
  gzip,
  MAX_INFLATE_ENV,
  maxInflate,
  parseByteSize,
  setMaxInflate,
} from "../src/codec/gzip.ts";
import { NavscopeError } from "../src/errors.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

/** Runs the CLI with console.error captured too (main prints its one error line there). */
async function cli(args: string[]): Promise<{ code: number; err: string }> {
  const errs: string[] = [];
  const orig = console.error;
  console.error = (...a: unknown[]) => void errs.push(a.join(" "));
  try {
    const r = await captureOutput(() => main(args));
    return { code: r.value, err: r.err + errs.join("\n") };
  } finally {
    console.error = orig;
    setMaxInflate(null);
  }
}

/** The NavscopeError a promise rejects with (fails if it resolves or throws anything else). */
async function rejects(f: () => Promise<unknown>): Promise<NavscopeError> {
  try {
    await f();
  } catch (e) {
    if (e instanceof NavscopeError) return e;
    throw e;
  }
  throw new Error("resolved");
}

const zeros = gzip(new Uint8Array(8 << 20)); // 8 MiB of zeros, ~8 KiB compressed

Deno.test("gunzip: output past the cap is an error naming the cap, not inflated whole", async () => {
  const e = await rejects(() => gunzip(zeros, "bomb.gz", { maxBytes: 1 << 20 }));
  assertEquals((e as NavscopeError).code, "count_mismatch");
  assert(
    (e as NavscopeError).message.includes("inflate cap of 1048576 bytes"),
    (e as Error).message,
  );
  assert((e as NavscopeError).message.includes("--max-inflate"), (e as Error).message);
  // Within the cap it decodes.
  assertEquals((await gunzip(zeros, "ok.gz", { maxBytes: 8 << 20 })).length, 8 << 20);
});

Deno.test("gunzip: a forged ISIZE costs nothing and is a located mismatch, not a cap claim", async () => {
  const small = gzip(new TextEncoder().encode("BNAV and a few bytes"));
  const forged = small.slice();
  new DataView(forged.buffer).setUint32(forged.length - 4, 0xffffffff, true);
  const e = await rejects(() => gunzip(forged, "f.gz", { maxBytes: 1 << 20 }));
  assert(!e.message.includes("inflate cap"), e.message);
});

Deno.test("gunzip: the content magic is checked on the first inflated bytes", async () => {
  const e = await rejects(() => gunzip(zeros, "base.nav.gz", { magic: ["BNAV"] }));
  assertEquals((e as NavscopeError).code, "bad_magic");
  assert((e as Error).message.includes('"\\u0000\\u0000\\u0000\\u0000"'), (e as Error).message);
  const ok = gzip(new TextEncoder().encode("BNAV and the rest"));
  assertEquals((await gunzip(ok, "x", { magic: ["BNAV"] })).length, 17);
});

Deno.test("inflate cap: flag over env over default; sizes with K/M/G", () => {
  assertEquals([parseByteSize("512M"), parseByteSize("2GiB"), parseByteSize("1000")], [
    512 << 20,
    2 * 2 ** 30,
    1000,
  ]);
  assertEquals([parseByteSize("x"), parseByteSize("0"), parseByteSize("-1")], [null, null, null]);
  const old = Deno.env.get(MAX_INFLATE_ENV);
  try {
    Deno.env.delete(MAX_INFLATE_ENV);
    assertEquals(maxInflate(), DEFAULT_MAX_INFLATE);
    Deno.env.set(MAX_INFLATE_ENV, "64M");
    assertEquals(maxInflate(), 64 << 20);
    setMaxInflate(1 << 20);
    assertEquals(maxInflate(), 1 << 20);
    setMaxInflate(null);
    Deno.env.set(MAX_INFLATE_ENV, "lots");
    let threw = false;
    try {
      maxInflate();
    } catch (e) {
      threw = e instanceof NavscopeError && e.code === "usage";
    }
    assert(threw, "a malformed env value is a usage error");
  } finally {
    setMaxInflate(null);
    if (old === undefined) Deno.env.delete(MAX_INFLATE_ENV);
    else Deno.env.set(MAX_INFLATE_ENV, old);
  }
});

Deno.test("CLI: --max-inflate caps inspect; a bomb fails fast with the cap named", async () => {
  const d = await Deno.makeTempDir({ prefix: "ns_cap_" });
  await Deno.writeFile(`${d}/base.nav.gz`, zeros);
  const r = await cli(["inspect", `${d}/base.nav.gz`, "--max-inflate", "1M"]);
  assertEquals(r.code, 1);
  assert(/inflate cap of 1048576 bytes/.test(r.err), r.err);
  // Within the default cap the zeros inflate, and fail on their magic at once.
  const m = await cli(["inspect", `${d}/base.nav.gz`]);
  assertEquals(m.code, 1);
  assert(/starts with/.test(m.err), m.err);
  assertEquals((await cli(["inspect", `${d}/base.nav.gz`, "--max-inflate", "x"])).code, 2);
  await Deno.remove(d, { recursive: true });
});
