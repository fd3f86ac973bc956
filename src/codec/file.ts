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
    if (await isSpecialFile(path)) return void await Deno.writeFile(path, bytes);
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new NavscopeError("io", `cannot write file: ${fsErrorText(e)}`, { file: path });
  }
}

/**
 * Writes several files as one output (missing parent folders created): every temp file is
 * written first, then all are renamed
 * into place, so a failed write leaves none of them (an HTML report and its trace are written
 * together or not at all). Temp files are removed on failure.
 */
export async function writeFilesAtomic(
  files: ReadonlyArray<{ path: string; data: Uint8Array | string }>,
): Promise<void> {
  const temps: Array<{ tmp: string; path: string }> = [];
  const devices: Array<{ path: string; bytes: Uint8Array }> = [];
  let at = "";
  try {
    for (const f of files) {
      at = f.path;
      const bytes = typeof f.data === "string" ? new TextEncoder().encode(f.data) : f.data;
      // A device (`/dev/null`) is written in place after the temps, never via a temp beside it.
      if (await isSpecialFile(f.path)) {
        devices.push({ path: f.path, bytes });
        continue;
      }
      const slash = f.path.lastIndexOf("/");
      const dir = slash >= 0 ? f.path.slice(0, slash + 1) : "";
      // Missing parent folders are created, as bake and replay do.
      if (slash > 0) await Deno.mkdir(dir, { recursive: true });
      const tmp = `${dir}.${f.path.slice(slash + 1)}.${Deno.pid}.${Date.now()}.${temps.length}.tmp`;
      temps.push({ tmp, path: f.path });
      await Deno.writeFile(tmp, bytes);
    }
    for (const t of temps) {
      at = t.path;
      await Deno.rename(t.tmp, t.path);
    }
    for (const d of devices) {
      at = d.path;
      await Deno.writeFile(d.path, d.bytes);
    }
  } catch (e) {
    for (const t of temps) await Deno.remove(t.tmp).catch(() => {});
    throw new NavscopeError("io", `cannot write file: ${fsErrorText(e)}`, { file: at });
  }
}

/**
 * An existing output that is neither a regular file nor a folder (`/dev/null`, `/dev/stdout`, a
 * FIFO): written in place, never replaced by a rename — renaming a temp file onto a device node
 * would replace the node itself (as root, for the whole machine).
 */
export async function isSpecialFile(path: string): Promise<boolean> {
  try {
    const st = await Deno.stat(path);
    return !st.isFile && !st.isDirectory;
  } catch {
    return false;
  }
}

/** Options of {@link assertWritable}. */
export interface WritableOptions {
  /** Missing parent folders are fine: the writer creates them (as `mkdir -p`). */
  createParents?: boolean;
  /** The path is a folder the command writes into (created by the writer when missing). */
  dir?: boolean;
  /** What the path is, for the message (e.g. `the plan log (--log)`). */
  what?: string;
  /** The file is appended to (an existing one must open for writing). */
  append?: boolean;
}

/**
 * Checks, before any long work, that an output location can be written, and creates nothing:
 * a file output is not a folder (a folder output not a file); its folder exists (with
 * `createParents` or `dir`: the nearest existing ancestor is a folder, the writer creates the
 * rest); a probe file can be created there (then removed); an appended file opens for writing.
 * Throws one `io` {@link NavscopeError} naming the path.
 */
export async function assertWritable(path: string, opts: WritableOptions = {}): Promise<void> {
  const what = opts.what ?? "the output";
  const fail = (why: string) =>
    new NavscopeError("io", `cannot write ${what}: ${why}`, { file: path });
  const statOf = async (p: string): Promise<Deno.FileInfo | null> => {
    try {
      return await Deno.stat(p);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw fail(fsErrorText(e));
    }
  };
  const parent = (p: string) => {
    const t = p.replace(/\/+$/, "");
    const i = t.lastIndexOf("/");
    return i > 0 ? t.slice(0, i) : i === 0 ? "/" : ".";
  };
  const st = await statOf(path);
  if (st && !st.isFile && !st.isDirectory && !opts.dir) {
    // A device or FIFO (`--json /dev/null`): written in place, so it only has to open.
    try {
      (await Deno.open(path, { write: true })).close();
    } catch (e) {
      throw fail(fsErrorText(e));
    }
    return;
  }
  if (opts.dir) {
    if (st && !st.isDirectory) throw fail("is a file, not a folder");
  } else {
    if (st?.isDirectory) throw fail("is a directory");
    if (st && opts.append) {
      try {
        (await Deno.open(path, { write: true })).close();
      } catch (e) {
        throw fail(fsErrorText(e));
      }
    }
  }
  // The folder the probe goes in: the path itself (an existing output folder), its folder, or
  // (parents created by the writer) the nearest existing ancestor.
  let dir = opts.dir && st ? path : parent(path);
  let dst = await statOf(dir);
  if (opts.createParents || opts.dir) {
    while (dst === null && dir !== "/" && dir !== ".") {
      dir = parent(dir);
      dst = await statOf(dir);
    }
  }
  if (dst === null) throw fail(`its folder ${dir} does not exist`);
  if (!dst.isDirectory) throw fail(`${dir} is not a folder`);
  const probe = `${dir}/.navscope-probe.${Deno.pid}.${Date.now()}.tmp`;
  try {
    await Deno.writeFile(probe, new Uint8Array(0), { createNew: true });
  } catch (e) {
    throw fail(fsErrorText(e));
  } finally {
    await Deno.remove(probe).catch(() => {});
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

/** Whether a path exists (file or folder); an unreadable parent counts as absent. */
export async function pathExists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}
