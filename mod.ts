/**
 * navscope — the public library API. Commands in `commands/` are thin shells over these exports.
 * @module
 */
export * from "./src/errors.ts";
export * from "./src/version.ts";
export * from "./src/codec/mod.ts";
