/**
 * Checks a command runs before any long work (planning, replaying, parsing big logs): inputs
 * that must exist, output locations that must be writable, zones a pack must have, batteries
 * that must hold legs. Each failure is one {@link NavscopeError} (exit 1 bad input, 2 usage;
 * docs/exit_codes.md), so nothing is planned or half-written when the answer is known up front.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { assertWritable, fsErrorText, type WritableOptions } from "../../src/codec/file.ts";
import type { Leg } from "../../src/legs/format.ts";

/**
 * An input file that must exist and be a file (`--nogo`, `--pack`): `io` error naming it and
 * the reason otherwise.
 */
export async function requireInputFile(path: string, what: string): Promise<void> {
  let st: Deno.FileInfo;
  try {
    st = await Deno.stat(path);
  } catch (e) {
    throw new NavscopeError("io", `cannot read ${what}: ${fsErrorText(e)}`, { file: path });
  }
  if (!st.isFile) {
    throw new NavscopeError("io", `cannot read ${what}: not a file`, { file: path });
  }
}

/**
 * A main pack that must load (`report --pack`): missing, corrupt, or with broken paired files →
 * `bad_value` naming the file and the engine's reason, before the logs are read.
 */
export async function requireUsablePack(path: string): Promise<void> {
  await requireInputFile(path, "the pack");
  const { openEngine } = await import("../../src/plan/engine.ts");
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

/** One output location of a command: the path, its flag, and how it is written. */
export interface OutputSpec extends WritableOptions {
  path: string | undefined;
}

/** Checks every given output location is writable ({@link assertWritable}); skips unset ones. */
export async function requireWritable(outputs: readonly OutputSpec[]): Promise<void> {
  for (const o of outputs) if (o.path) await assertWritable(o.path, o);
}

/** `--zone NAME` the pack lacks: a usage error (exit 2) listing the zones, as `inspect` does. */
export function requireZone(cmd: string, zone: string, zones: readonly string[]): void {
  if (zones.includes(zone)) return;
  throw new NavscopeError(
    "usage",
    `${cmd}: unknown zone ${JSON.stringify(zone)}; the pack has ${
      zones.length ? zones.join(", ") : "no zones"
    } (see navscope ${cmd} --help)`,
  );
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
