/**
 * OCLS v1 occluder pack container (spec 数据包 › OccluderPack): a 12-byte header (magic "OCLS",
 * u32 version 1, u32 scene count) and one record per zone: `u16 name length, name (UTF-8), u32
 * byte count, OCLZ body`. Reading decodes only the target zone and skips the other bodies; when
 * several records share a name the last one wins. Also the per-(path, zone) scene cache of the
 * spec's 读取路径 ("按 (路径, 区) 缓存解好的场景,失败结果也缓存,没有淘汰").
 * @module
 */
import { ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { escapeControls, nameFault, PLAUSIBLE_NAME } from "../../codec/json_strict.ts";
import { readMaybeGzip } from "../../codec/file.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { decodeOccluderZone } from "./zone.ts";
import { encodeOccluderZone } from "./zone_encode.ts";
import { type OccluderScene, OCLS_HEADER_BYTES, OCLS_MAGIC, OCLS_VERSION } from "./types.ts";

export * from "./types.ts";
export { decodeOccluderZone } from "./zone.ts";
export { encodeOccluderZone } from "./zone_encode.ts";

/** One zone record of an OCLS container (body not decoded). */
export interface OclsRecord {
  /** Zone name. */
  name: string;
  /** Absolute offset of the OCLZ body in the container bytes. */
  offset: number;
  /** Body length in bytes. */
  length: number;
}

/** The record table of an OCLS container, in file order (duplicates kept). */
export interface OclsDirectory {
  /** Number of scenes the header announces (= records.length once validated). */
  sceneCount: number;
  /** Records in file order. */
  records: OclsRecord[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf8enc = new TextEncoder();

/**
 * Reads the container header and walks the records without decoding any body. Every record must
 * fit, its name must be valid UTF-8 and a plausible zone name (`isPlausibleName`), the count must
 * match the header and no bytes may follow the last record.
 */
export function readOclsDirectory(bytes: Uint8Array, file = "<memory>"): OclsDirectory {
  const r = new ByteReader(bytes, { file, section: "OCLS header" });
  if (bytes.length < OCLS_HEADER_BYTES) {
    throw r.error(
      "truncated",
      `${bytes.length}-byte file is shorter than the OCLS header`,
      "12 bytes",
      0,
    );
  }
  const magic = r.tag();
  if (magic !== OCLS_MAGIC) {
    throw r.error("bad_magic", `magic ${JSON.stringify(magic)}`, '"OCLS"', 0);
  }
  const version = r.u32();
  if (version !== OCLS_VERSION) throw r.error("bad_version", `OCLS version ${version}`, "1", 4);
  const sceneCount = r.u32();
  if (sceneCount * 6 > r.remaining) {
    throw r.error(
      "count_mismatch",
      `scene count ${sceneCount} cannot fit in ${r.remaining} bytes`,
      "≤ 1 record per 6 bytes (u16 + u32 minimum)",
      8,
    );
  }
  const rr = new ByteReader(bytes, { file, section: "OCLS record" });
  rr.pos = OCLS_HEADER_BYTES;
  const records: OclsRecord[] = [];
  for (let i = 0; i < sceneCount; i++) records.push(readRecord(rr, i));
  if (rr.remaining !== 0) {
    throw rr.error(
      "count_mismatch",
      `${rr.remaining} bytes after the last of ${sceneCount} records`,
      "no trailing bytes",
    );
  }
  return { sceneCount, records };
}

function readRecord(r: ByteReader, i: number): OclsRecord {
  const at = r.pos;
  const nameLen = r.u16();
  const nameBytes = r.take(nameLen, `record ${i} name`);
  let name: string;
  try {
    name = utf8.decode(nameBytes);
  } catch {
    throw r.error("bad_value", `record ${i}: zone name is not valid UTF-8`, "UTF-8", at + 2);
  }
  // A record names a zone; a name no zone table can hold (the rule of legs and no-go tables,
  // isPlausibleName) is damage, not a zone the engine would never look up.
  const fault = nameFault(name);
  if (fault) {
    throw r.error(
      "bad_value",
      `record ${i}: zone name "${escapeControls(name)}" is not a zone name: ${fault}`,
      PLAUSIBLE_NAME,
      at + 2,
    );
  }
  const length = r.u32();
  if (length > r.remaining) {
    throw r.error(
      "truncated",
      `record ${i} (${name}) body of ${length} bytes runs past the end (${r.remaining} left)`,
      `≤ ${r.remaining}`,
      r.pos - 4,
    );
  }
  const offset = r.pos;
  r.pos += length;
  return { name, offset, length };
}

/** Finds the record of `zone` (the last one when names repeat), or null. */
export function findOclsRecord(dir: OclsDirectory, zone: string): OclsRecord | null {
  for (let i = dir.records.length - 1; i >= 0; i--) {
    if (dir.records[i].name === zone) return dir.records[i];
  }
  return null;
}

/** Decodes only `zone` from container bytes; null when the zone has no record. */
export function decodeOccluderPack(
  bytes: Uint8Array,
  zone: string,
  file = "<memory>",
): OccluderScene | null {
  const dir = readOclsDirectory(bytes, file);
  const rec = findOclsRecord(dir, zone);
  if (!rec) return null;
  const where: ErrorLocation = { file };
  return decodeOccluderZone(
    bytes.subarray(rec.offset, rec.offset + rec.length),
    zone,
    where,
    rec.offset,
  );
}

/** Decodes every record in file order (duplicates included), for tools and round trips. */
export function decodeOccluderPackAll(bytes: Uint8Array, file = "<memory>"): OccluderScene[] {
  const dir = readOclsDirectory(bytes, file);
  return dir.records.map((rec) =>
    decodeOccluderZone(
      bytes.subarray(rec.offset, rec.offset + rec.length),
      rec.name,
      { file },
      rec.offset,
    )
  );
}

/** A record to write: zone name and either a scene or an already-encoded OCLZ body. */
export interface OclsWriteRecord {
  /** Zone name (≤ 65535 UTF-8 bytes). */
  name: string;
  /** The OCLZ body bytes. */
  body: Uint8Array;
}

/** Writes an OCLS container from records in the given order; refuses an implausible zone name. */
export function encodeOccluderPackRecords(records: readonly OclsWriteRecord[]): Uint8Array {
  const w = new ByteWriter(OCLS_HEADER_BYTES + records.reduce((a, r) => a + r.body.length + 8, 0));
  w.tag(OCLS_MAGIC).u32(OCLS_VERSION).u32(records.length);
  for (const rec of records) {
    const fault = nameFault(rec.name);
    if (fault) {
      throw new NavscopeError(
        "bad_value",
        `zone name "${escapeControls(rec.name)}" is not a zone name: ${fault}`,
        { zone: escapeControls(rec.name), section: "OCLS encode" },
        PLAUSIBLE_NAME,
      );
    }
    const name = utf8enc.encode(rec.name);
    if (name.length > 0xffff) {
      throw new NavscopeError("bad_value", `zone name of ${name.length} bytes`, {
        zone: rec.name,
        section: "OCLS encode",
      }, "≤ 65535 bytes");
    }
    w.u16(name.length).bytes(name).u32(rec.body.length).bytes(rec.body);
  }
  return w.finish();
}

/** Writes an OCLS container holding `scenes` in order (the baker's entry point). */
export function encodeOccluderPack(scenes: readonly OccluderScene[]): Uint8Array {
  return encodeOccluderPackRecords(
    scenes.map((s) => ({ name: s.zone, body: encodeOccluderZone(s) })),
  );
}

/** Result of loading one zone's occluders: the scene, or null with the reason. */
export interface OccluderLoad {
  /** The decoded scene; null when the pack or the zone is absent or unreadable. */
  scene: OccluderScene | null;
  /** Why there is no scene when the pack exists but cannot be read (drops are then allowed). */
  error?: NavscopeError;
}

const cache = new Map<string, Promise<OccluderLoad>>();

/**
 * Loads `zone` from an occluder pack file (gzip or raw), cached per (path, zone) for the life of
 * the process, failures included (spec 读取路径). A missing file, missing zone or broken pack
 * all give `scene: null`: per spec 数据包 "OccluderPack 读不到时,台沿下落一律放行".
 */
export function loadOccluderScene(path: string, zone: string): Promise<OccluderLoad> {
  const key = `${path}\u0000${zone}`;
  let p = cache.get(key);
  if (!p) {
    p = loadUncached(path, zone);
    cache.set(key, p);
  }
  return p;
}

async function loadUncached(path: string, zone: string): Promise<OccluderLoad> {
  try {
    await Deno.stat(path);
  } catch {
    return { scene: null };
  }
  try {
    const bytes = await readMaybeGzip(path, { magic: ["OCLS"] });
    return { scene: decodeOccluderPack(bytes, zone, path) };
  } catch (e) {
    if (e instanceof NavscopeError) return { scene: null, error: e.at({ file: path }) };
    throw e;
  }
}

/** Forgets every cached occluder load (tests and long-running tools that rebuild packs). */
export function clearOccluderCache(): void {
  cache.clear();
}

/** Header-level facts of one OCLS record (no stream decoded), for `inspect`-style tools. */
export interface OclsRecordSummary extends OclsRecord {
  /** True when a later record has the same name (this one is ignored by readers). */
  shadowed: boolean;
  /** Template / instance / terrain block counts from the OCLZ header, or null if unreadable. */
  counts: { templates: number; instances: number; blocks: number } | null;
  /** Samples per block edge n from the header (null if unreadable). */
  blockSamples: number | null;
}

/** Lists the records of a container with their OCLZ header counts (cheap: 80 bytes each). */
export function summarizeOccluderPack(bytes: Uint8Array, file = "<memory>"): OclsRecordSummary[] {
  const dir = readOclsDirectory(bytes, file);
  const last = new Map<string, number>();
  dir.records.forEach((r, i) => last.set(r.name, i));
  return dir.records.map((rec, i) => {
    const ok = rec.length >= 80 &&
      String.fromCharCode(...bytes.subarray(rec.offset, rec.offset + 4)) === "OCLZ";
    const dv = new DataView(bytes.buffer, bytes.byteOffset + rec.offset, Math.min(rec.length, 80));
    return {
      ...rec,
      shadowed: last.get(rec.name) !== i,
      counts: ok
        ? {
          templates: dv.getUint32(8, true),
          instances: dv.getUint32(12, true),
          blocks: dv.getUint32(16, true),
        }
        : null,
      blockSamples: ok ? dv.getUint32(20, true) : null,
    };
  });
}
