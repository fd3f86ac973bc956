/**
 * ZIP archives as MaaEnd's log exporter writes them (maaend-bundles.md §1.3): each volume an
 * independent archive with its own central directory, Deflate or Stored entries, no ZIP64, no
 * spanning, no encryption. The central directory is read from the end of the file (the only
 * authoritative entry list: local headers may carry zero sizes behind a data descriptor), and
 * each entry is streamed from its local header through the runtime's native `deflate-raw`
 * DecompressionStream, so an entry is never held whole in memory and never extracted to disk.
 * Every entry is bounded by the inflate cap ({@link maxInflate}) and checked against its CRC-32
 * and size.
 *
 * Why not fflate's reader (fflate writes the bundles of the tests, the example and the
 * benchmark, and is the independent reference the tests check this reader against): its
 * streaming `Unzip` works from local headers, not the central directory the checks above need;
 * its JS inflater read log text at about half the native decoder's speed (28 vs 52 MB/s, one
 * sitting); and the library (mod.ts) stays free of npm imports, so a user needs no import map
 * (tests/library_use_test.ts).
 * @module
 */
import zlib from "node:zlib";
import { NavscopeError } from "../errors.ts";
import { MAX_INFLATE_ENV, maxInflate } from "./gzip.ts";

/** One central-directory entry. */
export interface ZipEntry {
  /** Archive path, `/`-separated (backslashes of hand-made Windows zips normalised). */
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  /** General-purpose flags (bit 0: encrypted). */
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Offset of the local header. */
  localOffset: number;
  /** A folder entry (name ends with `/`). */
  directory: boolean;
  /** Position in the central directory, 0-based (duplicate names are told apart by it). */
  index: number;
  /** Offset of its central-directory record in the archive. */
  cdOffset: number;
}

/** An opened archive: its entries and the file (or the bytes) they live in. */
export interface ZipArchive {
  /** The file, or `OUTER.zip!inner.zip` for an archive read from inside another. */
  path: string;
  fileSize: number;
  entries: ZipEntry[];
  /** The archive's bytes when it lives in memory ({@link openZipBytes}), else undefined. */
  data?: Uint8Array;
}

/** Reads `n` bytes at `offset` of an archive's storage (fewer at the end). */
type ReadAt = (offset: number, n: number) => Promise<Uint8Array>;

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
/** EOCD (22 bytes) + the longest comment (65 535). */
const EOCD_SEARCH = 22 + 0xffff;
/** Read size of entry data. */
const CHUNK = 64 << 10;

/** True when the bytes start like a zip (local header or empty-archive EOCD). */
export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b &&
    ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

async function readAt(f: Deno.FsFile, offset: number, n: number): Promise<Uint8Array> {
  const buf = new Uint8Array(n);
  await f.seek(offset, Deno.SeekMode.Start);
  let got = 0;
  while (got < n) {
    const r = await f.read(buf.subarray(got));
    if (r === null) break;
    got += r;
  }
  return buf.subarray(0, got);
}

function zipError(path: string, what: string, offset?: number, entry?: string): NavscopeError {
  return new NavscopeError(
    "bad_value",
    what,
    { file: path, section: entry === undefined ? "zip" : `zip entry ${entry}`, offset },
  );
}

/**
 * Reads the end record and central directory of `path`. Refused with one located error: no end
 * record (a truncated download), a spanned/split archive, ZIP64, a central directory outside the
 * file or with a bad signature.
 */
export async function openZip(path: string): Promise<ZipArchive> {
  const f = await Deno.open(path, { read: true });
  try {
    const fileSize = (await f.stat()).size;
    const entries = await readDirectory(path, fileSize, (o, n) => readAt(f, o, n));
    return { path, fileSize, entries };
  } finally {
    f.close();
  }
}

/**
 * An archive held in memory: a bundle volume read from inside another zip (users re-zip the
 * `partNN` volumes into one file to attach it, src/logs/bundle.ts). `path` names it in errors
 * (`OUTER.zip!inner.zip`). Same checks as {@link openZip}.
 */
export async function openZipBytes(path: string, data: Uint8Array): Promise<ZipArchive> {
  const at: ReadAt = (o, n) => Promise.resolve(data.subarray(o, Math.min(data.length, o + n)));
  return { path, fileSize: data.length, entries: await readDirectory(path, data.length, at), data };
}

async function readDirectory(path: string, fileSize: number, read: ReadAt): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, fileSize - EOCD_SEARCH);
  const tail = await read(tailStart, fileSize - tailStart);
  const dv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (dv.getUint32(i, true) === EOCD_SIG) {
      // The comment length must reach exactly the end of the file (else a stray signature).
      if (i + 22 + dv.getUint16(i + 20, true) === tail.length) {
        at = i;
        break;
      }
    }
  }
  if (at < 0) {
    throw zipError(
      path,
      "no end-of-central-directory record: the archive is truncated (an incomplete " +
        "download?) or not a zip",
    );
  }
  const eocd = tailStart + at;
  const disk = dv.getUint16(at + 4, true), cdDisk = dv.getUint16(at + 6, true);
  const onDisk = dv.getUint16(at + 8, true), total = dv.getUint16(at + 10, true);
  const cdSize = dv.getUint32(at + 12, true), cdOffset = dv.getUint32(at + 16, true);
  if (at >= 20 && dv.getUint32(at - 20, true) === ZIP64_LOCATOR_SIG) {
    throw zipError(path, "ZIP64 archive: MaaEnd's exporter never writes ZIP64", eocd - 20);
  }
  if (total === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw zipError(path, "ZIP64 archive (end record fields are 0xFFFF…)", eocd);
  }
  if (disk !== 0 || cdDisk !== 0 || onDisk !== total) {
    throw zipError(
      path,
      `spanned (split) archive: disk ${disk}, central directory on disk ${cdDisk}; MaaEnd's ` +
        `volumes are independent zips — this is another tool's split archive`,
      eocd,
    );
  }
  if (cdOffset + cdSize > eocd) {
    throw zipError(
      path,
      `central directory (offset ${cdOffset}, ${cdSize} bytes) runs past the end record ` +
        `at ${eocd}: truncated or damaged`,
      eocd,
    );
  }
  const cd = await read(cdOffset, cdSize);
  return parseCentral(path, cd, cdOffset, total);
}

const utf8 = new TextDecoder();

function parseCentral(path: string, cd: Uint8Array, base: number, total: number): ZipEntry[] {
  const dv = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const out: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < total; i++) {
    if (p + 46 > cd.length || dv.getUint32(p, true) !== CEN_SIG) {
      throw zipError(path, `central directory entry ${i + 1} of ${total}: bad signature`, base + p);
    }
    const flags = dv.getUint16(p + 8, true), method = dv.getUint16(p + 10, true);
    const crc32 = dv.getUint32(p + 16, true);
    const compressedSize = dv.getUint32(p + 20, true), size = dv.getUint32(p + 24, true);
    const nameLen = dv.getUint16(p + 28, true), extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    const localOffset = dv.getUint32(p + 42, true);
    if (p + 46 + nameLen > cd.length) {
      throw zipError(path, `central directory entry ${i + 1}: name runs past the directory`);
    }
    const name = utf8.decode(cd.subarray(p + 46, p + 46 + nameLen)).replaceAll("\\", "/");
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
      throw zipError(path, "ZIP64 entry (sizes are 0xFFFFFFFF)", base + p, name);
    }
    out.push({
      name,
      method,
      flags,
      crc32,
      compressedSize,
      size,
      localOffset,
      directory: name.endsWith("/"),
      index: i,
      cdOffset: base + p,
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * Streams the uncompressed bytes of `entry`. Errors (encrypted, unknown method, bad local
 * header, more than the inflate cap, CRC or size mismatch, truncated data) name the volume
 * and the entry; the stream errors after the bytes that decoded before the damage.
 */
export function entryStream(
  zip: ZipArchive,
  entry: ZipEntry,
  cap: number = maxInflate(),
): ReadableStream<Uint8Array> {
  return nativeEntryStream(zip, entry, cap);
}

/** Validates an entry and returns where its data starts (after the local header). */
async function dataStart(
  zip: ZipArchive,
  entry: ZipEntry,
  read: ReadAt,
  fail: (what: string, offset?: number) => NavscopeError,
): Promise<number> {
  if (entry.flags & 1) throw fail("encrypted entry: cannot be read without the password");
  if (entry.method !== 0 && entry.method !== 8) {
    throw fail(`compression method ${entry.method}: only Stored (0) and Deflate (8) are read`);
  }
  const h = await read(entry.localOffset, 30);
  const dv = new DataView(h.buffer, h.byteOffset, h.byteLength);
  if (h.length < 30 || dv.getUint32(0, true) !== LOC_SIG) {
    throw fail("bad local header signature", entry.localOffset);
  }
  const pos = entry.localOffset + 30 + dv.getUint16(26, true) + dv.getUint16(28, true);
  if (pos + entry.compressedSize > zip.fileSize) {
    throw fail(`data (${entry.compressedSize} bytes at ${pos}) runs past the end of the file`, pos);
  }
  return pos;
}

function nativeEntryStream(
  zip: ZipArchive,
  entry: ZipEntry,
  cap: number,
): ReadableStream<Uint8Array> {
  const fail = (what: string, offset?: number) => zipError(zip.path, what, offset, entry.name);
  let file: Deno.FsFile | null = null;
  let pos = -1, left = entry.compressedSize;
  const close = () => {
    file?.close();
    file = null;
  };
  const data = zip.data;
  const read: ReadAt = data
    ? (o, n) => Promise.resolve(data.subarray(o, Math.min(data.length, o + n)))
    : (o, n) => readAt(file!, o, n);
  const raw = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (pos < 0) {
        if (!data) file = await Deno.open(zip.path, { read: true });
        pos = await dataStart(zip, entry, read, fail);
      }
      if (left === 0) {
        close();
        return c.close();
      }
      const got = await read(pos, Math.min(CHUNK, left));
      // From memory: a copy, as the consumer may keep or transfer the chunk.
      const piece = data ? got.slice() : got;
      if (piece.length === 0) throw fail("entry data ends early", pos);
      pos += piece.length;
      left -= piece.length;
      c.enqueue(piece);
    },
    cancel: close,
  }, { highWaterMark: 0 });
  let produced = 0, crc = 0;
  const check = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, c) {
      produced += chunk.length;
      if (produced > cap) {
        throw fail(
          `inflates to more than the inflate cap of ${cap} bytes; raise it with --max-inflate ` +
            `SIZE or ${MAX_INFLATE_ENV} if the entry is genuine`,
        );
      }
      crc = zlib.crc32(chunk, crc);
      c.enqueue(chunk);
    },
    flush() {
      if (produced !== entry.size) {
        throw fail(`inflated ${produced} bytes, the central directory says ${entry.size}`);
      }
      if ((crc >>> 0) !== entry.crc32) {
        throw fail(
          `CRC-32 mismatch: computed ${(crc >>> 0).toString(16).padStart(8, "0")}, ` +
            `stored ${entry.crc32.toString(16).padStart(8, "0")}`,
        );
      }
    },
  });
  const decoded = entry.method === 8
    ? raw.pipeThrough(
      new DecompressionStream("deflate-raw") as unknown as TransformStream<Uint8Array, Uint8Array>,
    )
    : raw;
  const reader = decoded.pipeThrough(check).getReader();
  // One located error whatever layer failed (the runtime's inflater says only "corrupt").
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        const r = await reader.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      } catch (e) {
        close();
        c.error(
          e instanceof NavscopeError ? e : fail(`deflate data damaged: ${(e as Error).message}`),
        );
      }
    },
    cancel(reason) {
      close();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
