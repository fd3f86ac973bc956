/**
 * File input/output with the project's two guarantees: inputs are read whole with a clear error
 * naming the file, and outputs are written to a temporary file in the same directory and renamed
 * into place, so an interrupted write never leaves a half-written file.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { gunzip, isGzip } from "./gzip.ts";

/**
 * Reads a file, transparently un-gzipping it when it carries the gzip magic (bounded by the
 * inflate cap; with `magic`, the content's magic is checked on the first inflated bytes).
 */
export async function readMaybeGzip(
  path: string,
  opts: { magic?: readonly string[] } = {},
): Promise<Uint8Array> {
  const raw = await readFileBytes(path);
  return isGzip(raw) ? await gunzip(raw, path, { magic: opts.magic }) : raw;
}

/** Reads a whole file; a missing or unreadable file is one `io` error naming it. */
export async function readFileBytes(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    throw new NavscopeError("io", `cannot read file: ${fsErrorText(e)}`, { file: path });
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
    throw new NavscopeError("io", `cannot write file: ${fsErrorText(e)}`, { file: path });
  }
}

/**
 * A file-system error in words, for messages that already name the path: Deno's permission
 * errors ("Requires write access to …, run again with the --allow-write flag") become "not
 * permitted", OS errors lose the "(os error N): op 'path'" tail.
 */
export function fsErrorText(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const msg = err.message;
  if (err instanceof Deno.errors.NotCapable || /^Requires .* access/.test(msg)) {
    const m = /^Requires (\w+) access/.exec(msg);
    return `not permitted (navscope has no ${m ? m[1] + " " : ""}permission for this path)`;
  }
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (err instanceof Deno.errors.NotFound) return "no such file or directory";
  if (err instanceof Deno.errors.AlreadyExists) return "already exists";
  if (err instanceof Deno.errors.IsADirectory) return "is a directory";
  if (err instanceof Deno.errors.NotADirectory) return "a path component is not a directory";
  return msg.replace(/\s*\(os error \d+\)(:.*)?$/s, "").replace(/, run again with .*$/s, "");
}
