/**
 * Reading leg batteries from disk: each file read strictly (UTF-8, no BOM games) and parsed by
 * the leg format (./format.ts), an unreadable file one located error.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { readTextStrict } from "../codec/json_strict.ts";
import { type Leg as BatteryLeg, parseLegs } from "./format.ts";

/** Reads battery files. */
export async function readBatteries(paths: readonly string[]): Promise<BatteryLeg[]> {
  const out: BatteryLeg[] = [];
  for (const p of paths) {
    let text: string;
    try {
      text = await readTextStrict(p);
    } catch (e) {
      if (e instanceof NavscopeError) throw e;
      throw new NavscopeError("io", `cannot read the battery: ${(e as Error).message}`, {
        file: p,
      });
    }
    out.push(...parseLegs(text, p));
  }
  return out;
}
