/**
 * File input/output with the project's two guarantees: inputs are read whole with a clear error
 * naming the file, and outputs are written to a temporary file in the same directory and renamed
 * into place, so an interrupted write never leaves a half-written file.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { gunzip, isGzip } from "./gzip.ts";

/** Reads a file, transparently un-gzipping it when it carries the gzip magic. */
export async function readMaybeGzip(path: string): Promise<Uint8Array> {
  const raw = await readFileBytes(path);
  return isGzip(raw) ? await gunzip(raw, path) : raw;
}

/** Reads a whole file; a missing or unreadable file is one `io` error naming it. */
export async function readFileBytes(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    throw new NavscopeError("io", `cannot read file: ${(e as Error).message}`, { file: path });
  }
}

/** Writes bytes atomically: temp file beside the target, then rename. */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const slash = path.lastIndexOf("/");
  const dir = slash >= 0 ? path.slice(0, slash + 1) : "";
  const tmp = `${dir}.${path.slice(slash + 1)}.${Deno.pid}.${Date.now()}.tmp`;
  try {
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new NavscopeError("io", `cannot write file: ${(e as Error).message}`, { file: path });
  }
}
