/**
 * `navscope bisect`: the first commit between a good and a bad git ref at which one leg's
 * result changes — its outcome, its failure class (the planner's code) or its route (points,
 * length, drops) — by binary search over `git rev-list --ancestry-path GOOD..BAD`, as
 * `git bisect` and asv's `asv find` do. Each probe checks the commit out in a temporary
 * worktree (`git worktree add --detach`, removed afterwards, as `nightly --ab` does in
 * src/jobs/ab.ts) and plans the leg with that checkout's `navscope plan --log`; the pack
 * and the leg are this checkout's, so only the planner changes between probes.
 *
 * Binary search assumes one change (a later change back is not seen): the search is
 * ⌈log₂ n⌉ + 2 plans for n commits.
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../errors.ts";
import { parsePlanLine } from "../logs/plan_line.ts";
import type { PlanRecord } from "../logs/types.ts";
import type { Leg } from "../legs/format.ts";
import { git } from "../util/git.ts";

const THIS_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A leg's result as bisect compares it. */
export interface LegResult {
  /** `ok` or the planner's code. */
  outcome: string;
  /** Route fingerprint `points:length:drops` ("" when failed). */
  route: string;
  /** The plan line. */
  line: string;
}

/** What bisect found. */
export interface BisectReport {
  /** The first commit whose result differs from the good ref's. */
  commit: string;
  /** Its subject line. */
  subject: string;
  /** The result before it (at its parent on the path). */
  before: LegResult;
  /** Its result. */
  after: LegResult;
  /** Commits planned. */
  probes: number;
  /** Commits on the path good..bad. */
  commits: number;
}

/** Options of {@link bisectLeg}. */
export interface BisectOptions {
  /** The git checkout (default: this navscope's). */
  root?: string;
  /** Good ref. */
  good: string;
  /** Bad ref. */
  bad: string;
  /** The leg. */
  leg: Leg;
  /** Main pack to plan on. */
  pack: string;
  /** Progress lines. */
  onProgress?: (s: string) => void;
}

/** The compared form of a plan record. */
export function legResultOf(r: PlanRecord, line: string): LegResult {
  return {
    outcome: r.ok ? "ok" : r.code,
    route: r.ok ? `${r.points}:${r.length.toFixed(3)}:${r.drops}` : "",
    line,
  };
}

/** Two results are the same when outcome, class and route agree. */
export function sameResult(a: LegResult, b: LegResult): boolean {
  return a.outcome === b.outcome && a.route === b.route;
}

async function planAt(
  root: string,
  commit: string,
  legFile: string,
  pack: string,
  tmp: string,
): Promise<LegResult> {
  const wt = join(tmp, `wt_${commit.slice(0, 12)}`);
  const log = join(tmp, `plan_${commit.slice(0, 12)}.log`);
  await git(root, ["worktree", "add", "--detach", wt, commit]);
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        join(wt, "deno.json"),
        join(wt, "commands", "main.ts"),
        "plan",
        pack,
        "--legs",
        legFile,
        "--log",
        log,
      ],
      cwd: wt,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    // plan exits 0 (planned) or 3 (--check only); anything else is a broken checkout.
    let text = "";
    try {
      text = (await Deno.readTextFile(log)).trim();
    } catch { /* no log: reported below */ }
    if (!text) {
      const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
      throw new NavscopeError(
        "io",
        `planning the leg at commit ${commit.slice(0, 12)} failed (exit ${out.code}): ${err}`,
      );
    }
    const line = text.split("\n").pop()!;
    return legResultOf(parsePlanLine(line, { file: log }).record, line);
  } finally {
    await git(root, ["worktree", "remove", "--force", wt]).catch(() => {});
  }
}

/**
 * Finds the first commit on good..bad where the leg's result changes. Throws `bad_value` for
 * unknown refs, a bad ref that is not a descendant of the good one, or a leg whose result is
 * the same at both ends; worktrees are removed in every case.
 */
export async function bisectLeg(opts: BisectOptions): Promise<BisectReport> {
  const root = resolve(opts.root ?? THIS_ROOT);
  const say = opts.onProgress ?? (() => {});
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") {
    throw new NavscopeError(
      "bad_value",
      "bisect runs git and deno subprocesses: it needs --allow-run (deno task bisect grants it)",
    );
  }
  const verify = async (ref: string, what: string) => {
    try {
      return await git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    } catch {
      throw new NavscopeError(
        "bad_value",
        `unknown git ref "${ref}" (${what}) in ${root}`,
        {},
        "a commit, branch or tag",
      );
    }
  };
  const good = await verify(opts.good, "--good"), bad = await verify(opts.bad, "--bad");
  const list = (await git(root, ["rev-list", "--reverse", "--ancestry-path", `${good}..${bad}`]))
    .split("\n").filter((s) => s);
  if (list.length === 0) {
    throw new NavscopeError(
      "bad_value",
      `--bad ${opts.bad} is not a descendant of --good ${opts.good}`,
      {},
      "a good ref older than the bad one, on its history",
    );
  }
  const tmp = await Deno.makeTempDir({ prefix: "navscope_bisect_" });
  try {
    const legFile = join(tmp, "leg.json");
    await Deno.writeTextFile(
      legFile,
      JSON.stringify({ format: "navscope-legs", version: 1, legs: [opts.leg] }) + "\n",
    );
    let probes = 0;
    const at = async (c: string) => {
      probes++;
      const r = await planAt(root, c, legFile, resolve(opts.pack), tmp);
      say(`${c.slice(0, 12)}: ${r.outcome}${r.route ? ` ${r.route}` : ""}`);
      return r;
    };
    const g = await at(good), b = await at(bad);
    if (sameResult(g, b)) {
      throw new NavscopeError(
        "bad_value",
        `the leg ${opts.leg.id} has the same result at --good and --bad (${g.outcome}${
          g.route ? ` ${g.route}` : ""
        })`,
        {},
        "a good and a bad ref where the leg's result differs",
      );
    }
    // Invariant: list[lo-1] (or good) matches good; list[hi] differs.
    let lo = 0, hi = list.length - 1;
    let before = g, after = b;
    const known = new Map<number, LegResult>([[hi, b]]);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const r = known.get(mid) ?? await at(list[mid]);
      if (sameResult(r, g)) {
        lo = mid + 1;
        before = r;
      } else {
        hi = mid;
        after = r;
      }
    }
    const subject = await git(root, ["log", "-1", "--format=%s", list[hi]]);
    return { commit: list[hi], subject, before, after, probes, commits: list.length };
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    await git(root, ["worktree", "prune"]).catch(() => {});
  }
}
