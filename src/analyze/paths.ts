/**
 * Paths in outputs: relative to the working directory when under it, else as given, so a
 * report or JSON never carries a checkout's absolute path (issue 37 item 3).
 * @module
 */

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
