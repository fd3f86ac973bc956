/**
 * Running git: one helper for every caller (bisect's and A/B's worktrees, the history store's
 * commit facts), so the flags, the decoding and the error are the same everywhere. Needs
 * `--allow-run=git`.
 * @module
 */
import { NavscopeError } from "../errors.ts";

/**
 * Runs `git -C root …args` and returns its trimmed stdout; a failure is a located `bad_value`
 * error carrying git's stderr (the checkout as its file).
 */
export async function git(root: string, args: readonly string[]): Promise<string> {
  const out = await new Deno.Command("git", { args: ["-C", root, ...args], stdin: "null" })
    .output();
  if (!out.success) {
    throw new NavscopeError(
      "bad_value",
      `git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr).trim()}`,
      { file: root },
    );
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** Like {@link git}, but "" when git fails, is missing or may not run (facts that are optional). */
export async function gitOrEmpty(root: string, args: readonly string[]): Promise<string> {
  try {
    return await git(root, args);
  } catch {
    return "";
  }
}
