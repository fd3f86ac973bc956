/**
 * `navscope inspect PACK`: look inside a pack. (Placeholder until the pack layer lands.)
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
export const summary = "Look inside a pack: header, sections, zones, tiles, sidecar pairing";
export const help = `navscope inspect PACK [--zone Z] [--json]`;

/** Runs inspect. */
export function run(_args: string[]): Promise<number> {
  return Promise.reject(new NavscopeError("usage", "inspect is not implemented yet"));
}
