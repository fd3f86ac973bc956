/**
 * Checks a workflow runs before its long work (planning, replaying): a pack that must load, a
 * battery that must hold legs naming zones the pack has. Each failure is one
 * {@link NavscopeError} naming the file (docs/exit_codes.md: exit 1), so nothing is planned or
 * half-written when the answer is known up front. The commands' own checks (writable outputs,
 * input files) are commands/support/preflight.ts, which re-exports these.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { fsErrorText } from "../codec/file.ts";
import type { Leg } from "../legs/format.ts";

/**
 * A main pack that must load (`report --pack`): missing, corrupt, or with broken paired files →
 * `bad_value` naming the file and the engine's reason, before the logs are read.
 */
export async function requireUsablePack(path: string): Promise<void> {
  let st: Deno.FileInfo;
  try {
    st = await Deno.stat(path);
  } catch (e) {
    throw new NavscopeError("io", `cannot read the pack: ${fsErrorText(e)}`, { file: path });
  }
  if (!st.isFile) {
    throw new NavscopeError("io", "cannot read the pack: not a file", { file: path });
  }
  // Loaded lazily: the commands that only check outputs need no planner.
  const { openEngine } = await import("../plan/engine.ts");
  const engine = await openEngine(path);
  try {
    if (engine.info.error) {
      throw new NavscopeError("bad_value", unusablePack(engine.info.error, path), { file: path });
    }
  } finally {
    engine.close();
  }
}

/** The message of an unusable pack: the engine's load error without the repeated path. */
export function unusablePack(error: string, path: string): string {
  return `the pack is unusable: ${error.split(`${path}: `).join("")}`;
}

/** A battery without legs plans nothing: `bad_value` (exit 1). */
export function requireLegs(legs: readonly Leg[], file: string): void {
  if (legs.length > 0) return;
  throw new NavscopeError("bad_value", "the battery has no legs", { file }, "at least one leg");
}

/**
 * Battery legs whose zone the pack lacks (unless the leg expects `zone_not_found`, the test of
 * that failure): `bad_value` (exit 1) listing the zones and the legs, before any leg is planned.
 */
export function requireBatteryZones(
  legs: readonly Leg[],
  zones: readonly string[],
  file: string,
  pack: string,
): void {
  const bad = legs.filter((l) => !zones.includes(l.zone) && l.expected !== "zone_not_found");
  if (bad.length === 0) return;
  const missing = [...new Set(bad.map((l) => l.zone))];
  throw new NavscopeError(
    "bad_value",
    `the battery names zone${missing.length > 1 ? "s" : ""} ${
      missing.join(", ")
    } that ${pack} lacks (legs ${bad.slice(0, 5).map((l) => l.id).join(", ")}${
      bad.length > 5 ? ", …" : ""
    }); the pack has ${zones.join(", ") || "no zones"}`,
    { file },
    "zones the pack has, or legs expecting zone_not_found",
  );
}
