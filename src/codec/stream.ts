/**
 * The "stream" unit shared by every pack (spec 数据包 › 公共编码): a varint compressed length
 * followed by that many bytes of zlib data. The zlib data must end exactly at the given length:
 * leftover or missing bytes are corruption.
 * @module
 */
import zlib from "node:zlib";
import type { NavscopeError } from "../errors.ts";
import type { ByteReader, ByteWriter } from "./bytes.ts";

/** zlib level used by every encoder; fixed so packs are byte-identical across runs. */
export const ZLIB_LEVEL = 6;

interface InflateInfo {
  buffer: Uint8Array;
  engine: { bytesWritten: number };
}

/** zlib-compresses bytes with the fixed level. */
export function deflate(bytes: Uint8Array): Uint8Array {
  const out = zlib.deflateSync(bytes, { level: ZLIB_LEVEL });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Inflates a complete zlib blob that must be consumed exactly. `reader` supplies the error
 * location; `start` is the blob's position within the reader's bytes.
 */
export function inflateExact(
  blob: Uint8Array,
  reader: ByteReader,
  start: number,
  what = "zlib stream",
  expectedSize?: number,
): Uint8Array {
  let r: InflateInfo;
  try {
    r = zlib.inflateSync(blob, { info: true }) as unknown as InflateInfo;
  } catch (e) {
    throw reader.error(
      "stream_length",
      `${what} does not inflate: ${(e as Error).message}`,
      "a complete zlib stream",
      start,
    );
  }
  if (r.engine.bytesWritten !== blob.length) {
    throw reader.error(
      "stream_length",
      `${what} ends after ${r.engine.bytesWritten} of its ${blob.length} bytes`,
      "the zlib data to fill its length exactly",
      start,
    );
  }
  const out = new Uint8Array(r.buffer.buffer, r.buffer.byteOffset, r.buffer.byteLength);
  if (expectedSize !== undefined && out.length !== expectedSize) {
    throw reader.error(
      "count_mismatch",
      `${what} inflates to ${out.length} bytes`,
      `${expectedSize} bytes`,
      start,
    );
  }
  return out;
}

/** Reads one stream unit (varint length + zlib) and returns the inflated bytes. */
export function readStream(reader: ByteReader, what = "stream", expectedSize?: number): Uint8Array {
  const at = reader.pos;
  const len = reader.varint();
  if (len > reader.remaining) {
    throw reader.error(
      "truncated",
      `${what} declares ${len} compressed bytes but only ${reader.remaining} remain`,
      `${len} bytes`,
      at,
    );
  }
  const start = reader.pos;
  const blob = reader.take(len, what);
  return inflateExact(blob, reader, start, what, expectedSize);
}

/** Writes one stream unit (varint length + zlib data) of the given raw bytes. */
export function writeStream(writer: ByteWriter, raw: Uint8Array): void {
  const z = deflate(raw);
  writer.varint(z.length);
  writer.bytes(z);
}

/** Throws a `stream_length` error for an inner stream that was not consumed exactly. */
export function leftoverError(
  reader: ByteReader,
  what: string,
  used: number,
  size: number,
): NavscopeError {
  return reader.error(
    "stream_length",
    `${what} has ${size - used} bytes left over after decoding`,
    `exactly ${size} bytes used`,
  );
}
