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
 * Decompresses a gzip file held in memory. The ISIZE trailer sizes the buffer; chunks from the
 * web DecompressionStream are copied in, growing only if ISIZE wrapped past 4 GiB.
 */
export async function gunzip(bytes: Uint8Array, file = "<memory>"): Promise<Uint8Array> {
  if (bytes.length < 18 || !isGzip(bytes)) {
    throw new NavscopeError(
      bytes.length < 18 ? "truncated" : "bad_magic",
      "not a gzip container",
      { file, section: "gzip", offset: 0 },
      "1f 8b magic and at least 18 bytes",
    );
  }
  const isize = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(
    0,
    true,
  );
  let out = new Uint8Array(isize);
  let n = 0;
  const ds = new DecompressionStream("gzip");
  const writer = ds.writable.getWriter();
  const chunk = 1 << 20;
  const feed = (async () => {
    for (let i = 0; i < bytes.length; i += chunk) {
      await writer.write(
        bytes.subarray(i, Math.min(bytes.length, i + chunk)) as Uint8Array<ArrayBuffer>,
      );
    }
    await writer.close();
  })();
  try {
    for await (const part of ds.readable) {
      if (n + part.length > out.length) {
        const grown = new Uint8Array(Math.max(out.length * 2, n + part.length));
        grown.set(out.subarray(0, n));
        out = grown;
      }
      out.set(part, n);
      n += part.length;
    }
    await feed;
  } catch (e) {
    feed.catch(() => {});
    throw new NavscopeError(
      "truncated",
      `gzip data is damaged or truncated after ${n} decompressed bytes: ${(e as Error).message}`,
      { file, section: "gzip" },
      "a complete gzip stream",
    );
  }
  if (n !== out.length) {
    if (n % 4294967296 !== isize) {
      throw new NavscopeError(
        "count_mismatch",
        `gzip ISIZE says ${isize} bytes but ${n} were decompressed`,
        { file, section: "gzip", offset: bytes.length - 4 },
      );
    }
    out = out.subarray(0, n);
  }
  return out;
}
