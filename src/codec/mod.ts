/**
 * Layer 1 — codec: bytes in and out (LEB128, zigzag, FNV-1a 64, zlib stream units, gzip).
 * @module
 */
export * from "./varint.ts";
export * from "./fnv.ts";
export * from "./bytes.ts";
export * from "./stream.ts";
export * from "./gzip.ts";
export * from "./file.ts";
export * from "./json.ts";
export * from "./json_strict.ts";
