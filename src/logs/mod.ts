/**
 * Run-log layer: record types, navscope's plan line (writer and reader), the streaming parser
 * for MaaFramework run logs and the leg pairer.
 * @module
 */
export * from "./types.ts";
export * from "./line.ts";
export * from "./plan_line.ts";
export * from "./from_plan.ts";
export * from "./messages.ts";
export * from "./message_gloss.ts";
export * from "./pairer.ts";
export * from "./parser.ts";
export * from "./reader.ts";
