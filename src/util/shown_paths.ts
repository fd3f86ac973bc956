/**
 * Paths as outputs show them (issue 37): reports, replay.json, diff and stats JSON are committed
 * and shared, and a machine path in them is noise at best. Two cases, one rule — never print a
 * checkout's absolute path:
 *
 * - a file the tool found itself (an example pack, the committed baseline) is named relative to
 *   the working directory ({@link cwdRelative}, `../` included);
 * - a path that came from the input (a bundle's volumes and files) is shortened only when it
 *   lies under the working directory ({@link relPath}); paths given on the command line are
 *   otherwise kept as given.
 * @module
 */
import { isAbsolute, relative } from "node:path";

/** `p` relative to the working directory at call time ("." for the directory itself). */
export function cwdRelative(p: string): string {
  if (!isAbsolute(p)) return p;
  return relative(Deno.cwd(), p) || ".";
}

/** `p` relative to the working directory when it lies under it; otherwise unchanged. */
export function relPath(p: string): string {
  let cwd: string;
  try {
    cwd = Deno.cwd();
  } catch {
    return p;
  }
  const base = cwd.endsWith("/") ? cwd : cwd + "/";
  return p.startsWith(base) ? p.slice(base.length) : p;
}
