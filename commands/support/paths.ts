/**
 * Paths as outputs show them: a file the command found itself (an example pack, the committed
 * baseline) is named relative to the working directory, never by the checkout's absolute path —
 * reports, replay.json, diff and stats JSON are committed and shared, and a machine path in
 * them is noise at best (issue 37). Paths given on the command line are kept as given.
 * @module
 */
import { isAbsolute, relative } from "node:path";

/** `p` relative to the working directory at call time ("." for the directory itself). */
export function cwdRelative(p: string): string {
  if (!isAbsolute(p)) return p;
  return relative(Deno.cwd(), p) || ".";
}
