/**
 * Checks a command runs before any long work (planning, replaying, parsing big logs): inputs
 * that must exist, output locations that must be writable, zones a pack must have, batteries
 * that must hold legs. Each failure is one {@link NavscopeError} (exit 1 bad input, 2 usage;
 * docs/exit_codes.md), so nothing is planned or half-written when the answer is known up front.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { assertWritable, fsErrorText, type WritableOptions } from "../../src/codec/file.ts";

export {
  requireBatteryZones,
  requireLegs,
  requireUsablePack,
  unusablePack,
} from "../../src/jobs/preflight.ts";

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

/** Packs given with `--pack`: each must exist (refused before the logs are read); returns them. */
export async function requirePacksReadable(paths: readonly string[]): Promise<string[]> {
  for (const path of paths) {
    try {
      await Deno.stat(path);
    } catch (e) {
      throw new NavscopeError("io", `cannot read the pack: ${(e as Error).message}`, {
        file: path,
      });
    }
  }
  return [...paths];
}
