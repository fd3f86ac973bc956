/**
 * The gzip container the packs ship in (`base.nav.gz` …). Reading sizes the output buffer from
 * the ISIZE trailer (uncompressed size mod 2^32) and decompresses in chunks, so a large pack
 * costs one allocation; writing is deterministic (mtime 0).
 * @module
 */
import zlib from "node:zlib";
import { NavscopeError } from "../errors.ts";
import { ZLIB_LEVEL } from "./stream.ts";

/** True if the bytes start with the gzip magic 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** gzip-compresses bytes deterministically. */
export function gzip(bytes: Uint8Array): Uint8Array {
  const out = zlib.gzipSync(bytes, { level: ZLIB_LEVEL });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Default inflate cap: 512 MiB. The largest pack navscope writes or reads (a whole region's main
 * pack with its grid) is tens of MiB decompressed; 512 MiB is an order of magnitude above that
 * and bounds what a gzip bomb can cost (issue 27 item 16: a 31 MB file inflating to 3 GiB took
 * 81 s and 5.8 GB before failing on its magic).
 */
export const DEFAULT_MAX_INFLATE = 512 * 1024 * 1024;
/** Largest first output buffer (64 MiB); larger outputs grow by doubling. */
const FIRST_BUFFER = 64 * 1024 * 1024;
/** Environment variable overriding the inflate cap (bytes, or a number with K/M/G[iB]). */
export const MAX_INFLATE_ENV = "NAVSCOPE_MAX_INFLATE";

let capOverride: number | null = null;

/**
 * Parses a size: a whole number of bytes, or with a suffix K, M, G (also KiB, MiB, GiB, KB, MB,
 * GB; all binary). Returns null when the text is not a size ≥ 1.
 */
export function parseByteSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return null;
  const mult = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()]!;
  const v = Math.floor(Number(m[1]) * mult);
  return Number.isSafeInteger(v) && v >= 1 ? v : null;
}

/** Sets the process-wide inflate cap (the `--max-inflate` flag); null restores env/default. */
export function setMaxInflate(bytes: number | null): void {
  capOverride = bytes;
}

/**
 * The inflate cap in force: the `--max-inflate` flag ({@link setMaxInflate}), else
 * `NAVSCOPE_MAX_INFLATE`, else {@link DEFAULT_MAX_INFLATE}. A malformed env value is a usage
 * error naming it.
 */
export function maxInflate(): number {
  if (capOverride !== null) return capOverride;
  let env: string | undefined;
  try {
    env = Deno.env.get(MAX_INFLATE_ENV);
  } catch {
    env = undefined; // no env permission: the default
  }
  if (env === undefined || env === "") return DEFAULT_MAX_INFLATE;
  const v = parseByteSize(env);
  if (v === null) {
    throw new NavscopeError(
      "usage",
      `${MAX_INFLATE_ENV}=${JSON.stringify(env)} is not a size`,
      {},
      "bytes, or a number with K, M or G (e.g. 2G)",
    );
  }
  return v;
}

/** Options of {@link gunzip}. */
export interface GunzipOptions {
  /** Largest decompressed size accepted (default {@link maxInflate}). */
  maxBytes?: number;
  /**
   * Accepted 4-byte magics of the content (e.g. `["BNAV"]`): checked on the first inflated
   * bytes, so a wrong or bombed file fails before the rest is inflated.
   */
  magic?: readonly string[];
}

function capError(file: string, cap: number, what: string): NavscopeError {
  return new NavscopeError(
    "count_mismatch",
    `${what}, more than the inflate cap of ${cap} bytes (${(cap / 2 ** 20).toFixed(0)} MiB); ` +
      `raise it with --max-inflate SIZE or ${MAX_INFLATE_ENV} if the file is genuine`,
    { file, section: "gzip" },
    `at most ${cap} decompressed bytes`,
  );
}

/** A gzip member header's size, or -1 when `b` does not hold all of it yet (RFC 1952 §2.3). */
export function gzipHeaderSize(b: Uint8Array): number {
  if (b.length < 10) return -1;
  const flg = b[3];
  let at = 10;
  if (flg & 4) {
    if (b.length < at + 2) return -1;
    at += 2 + (b[at] | (b[at + 1] << 8));
  }
  for (const bit of [8, 16]) {
    if (!(flg & bit)) continue;
    const z = b.indexOf(0, at);
    if (z < 0) return -1;
    at = z + 1;
  }
  if (flg & 2) at += 2;
  return b.length >= at ? at : -1;
}

/** Why a member header is not one (null when it is). */
export function gzipHeaderProblem(b: Uint8Array): string | null {
  if (b[0] !== 0x1f || b[1] !== 0x8b) return "no gzip magic";
  if (b[2] !== 8) return `compression method ${b[2]} (only 8, deflate, exists)`;
  if (b[3] & 0xe0) return `reserved header flag bits 0x${(b[3] & 0xe0).toString(16)} set`;
  return null;
}

/**
 * Where the first gzip member of `bytes` ends (header + deflate data + 8-byte trailer), or -1 when
 * it cannot be found (only called after a failed inflate, to say what follows the member).
 */
function firstMemberEnd(bytes: Uint8Array, cap: number): number {
  const h = gzipHeaderSize(bytes);
  if (h < 0) return -1;
  try {
    const r = zlib.inflateRawSync(bytes.subarray(h), {
      info: true,
      maxOutputLength: cap,
    }) as unknown as {
      engine: { bytesWritten: number };
    };
    return h + r.engine.bytesWritten + 8;
  } catch {
    return -1;
  }
}

/**
 * Decompresses a gzip file held in memory, streaming: the output buffer starts at the ISIZE
 * trailer's size (uncompressed size mod 2^32) but never above 64 MiB or the inflate cap, grows by
 * doubling, and inflating stops as soon as the output would pass the cap — memory stays bounded by
 * the cap whatever the file claims. With `opts.magic`, the content's magic is checked on the first
 * inflated bytes.
 */
export async function gunzip(
  bytes: Uint8Array,
  file = "<memory>",
  opts: GunzipOptions = {},
): Promise<Uint8Array> {
  if (bytes.length < 18 || !isGzip(bytes)) {
    throw new NavscopeError(
      bytes.length < 18 ? "truncated" : "bad_magic",
      "not a gzip container",
      { file, section: "gzip", offset: 0 },
      "1f 8b magic and at least 18 bytes",
    );
  }
  const cap = opts.maxBytes ?? maxInflate();
  const isize = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(
    0,
    true,
  );
  // The trailer only sizes the first buffer (at most FIRST_BUFFER, never above the cap): a forged
  // or damaged ISIZE costs nothing, and the buffer grows by doubling up to the cap.
  let out = new Uint8Array(Math.min(isize, cap, FIRST_BUFFER));
  let n = 0;
  const ds = new DecompressionStream("gzip");
  const writer = ds.writable.getWriter();
  const chunk = 1 << 20;
  let stop = false;
  const feed = (async () => {
    for (let i = 0; i < bytes.length && !stop; i += chunk) {
      await writer.write(
        bytes.subarray(i, Math.min(bytes.length, i + chunk)) as Uint8Array<ArrayBuffer>,
      );
    }
    if (!stop) await writer.close();
  })();
  const reader = ds.readable.getReader();
  const abort = async (e: NavscopeError): Promise<never> => {
    stop = true;
    await reader.cancel().catch(() => {});
    await writer.abort().catch(() => {});
    feed.catch(() => {});
    throw e;
  };
  try {
    let magicChecked = !opts.magic;
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      if (n + part.length > cap) {
        await abort(capError(file, cap, `the gzip stream inflates to more than ${n} bytes`));
      }
      if (n + part.length > out.length) {
        const grown = new Uint8Array(Math.min(cap, Math.max(out.length * 2, n + part.length)));
        grown.set(out.subarray(0, n));
        out = grown;
      }
      out.set(part, n);
      n += part.length;
      if (!magicChecked && n >= 4) {
        magicChecked = true;
        const m = String.fromCharCode(out[0], out[1], out[2], out[3]);
        if (!opts.magic!.includes(m)) {
          await abort(
            new NavscopeError(
              "bad_magic",
              `the decompressed content starts with ${JSON.stringify(m)}`,
              { file, section: "gzip", offset: 0 },
              opts.magic!.map((x) => JSON.stringify(x)).join(" or "),
            ),
          );
        }
      }
    }
    await feed;
  } catch (e) {
    if (e instanceof NavscopeError) throw e;
    feed.catch(() => {});
    // The web inflater fails with "failed to write whole buffer" when bytes follow the end of
    // the gzip member: the data is complete, so say what follows instead of "damaged".
    const end = /whole buffer/.test((e as Error).message) ? firstMemberEnd(bytes, cap) : -1;
    if (end > 0 && end < bytes.length) {
      const second = gzipHeaderProblem(bytes.subarray(end)) === null;
      throw new NavscopeError(
        "bad_value",
        `the file goes on after its gzip member: ${bytes.length - end} bytes from offset ${end} ` +
          `(${second ? "a second gzip member" : "not gzip data"})`,
        { file, section: "gzip", offset: end },
        "one gzip member, as navscope writes",
      );
    }
    throw new NavscopeError(
      "truncated",
      `gzip data is damaged or truncated after ${n} decompressed bytes: ${(e as Error).message}`,
      { file, section: "gzip" },
      "a complete gzip stream",
    );
  }
  if (n % 4294967296 !== isize) {
    throw new NavscopeError(
      "count_mismatch",
      `gzip ISIZE says ${isize} bytes but ${n} were decompressed`,
      { file, section: "gzip", offset: bytes.length - 4 },
    );
  }
  return n === out.length ? out : out.subarray(0, n);
}
