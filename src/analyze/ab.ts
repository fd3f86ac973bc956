/**
 * The honest timing comparison on a noisy machine (`nightly --ab REF`): the planner at git REF
 * is checked out in a temporary worktree (`git worktree add --detach`, removed afterwards); the
 * current checkout and REF plan the same batteries on the same packs, interleaved in rounds on
 * this machine (each round alternates which version goes first, per battery), each run a
 * subprocess of that version's `commands/main.ts plan PACK --legs BATTERY --json`. The paired
 * per-leg stage times are judged by ab_stats.ts (median ratio, bootstrap interval, verdict).
 *
 * Both versions read the current checkout's batteries and packs, so only the planner differs.
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../errors.ts";
import { type AbJudgeOptions, type AbStageRow, compareStage } from "./ab_stats.ts";
import { type MachineFingerprint, machineFingerprint } from "./machine.ts";
import { STAGES } from "./stats.ts";

/** Options of {@link abCompare}. */
export interface AbOptions extends AbJudgeOptions {
  /** The git ref to compare against (a commit, branch or tag; `HEAD` = the last commit). */
  ref: string;
  /** Batteries (legs.json), each planned on the base.nav.gz beside it. */
  batteries: string[];
  /** The current checkout (default: the one this module is in). */
  root?: string;
  /** Rounds (default 5). */
  rounds?: number;
  /** Extra environment per side (test hooks, e.g. NAVSCOPE_TEST_SLOW_WINDOW_MS). */
  env?: { ref?: Record<string, string>; current?: Record<string, string> };
  /** Progress lines. */
  onProgress?: (line: string) => void;
}

/** A leg whose outcome differs between the versions (its timings still pair). */
export interface AbOutcomeDifference {
  /** `battery-folder/leg-id`. */
  leg: string;
  /** Outcome at REF (`ok` or the error code). */
  ref: string;
  /** Outcome now. */
  current: string;
}

/** The A/B report (`nightly --ab REF --json FILE`). */
export interface AbReport {
  /** Format tag. */
  format: "navscope-ab";
  /** Format version. */
  version: 1;
  /** "pass", or "regression" when a stage is significantly slower. */
  verdict: "pass" | "regression";
  /** Stages judged slower. */
  regressions: string[];
  /** The ref as given, and the commit it names. */
  ref: { name: string; commit: string };
  /** The current checkout: path, HEAD commit, uncommitted changes present. */
  current: { root: string; commit: string; dirty: boolean };
  /** The machine both versions ran on. */
  machine: MachineFingerprint;
  /** Rounds run. */
  rounds: number;
  /** Legs paired (per round). */
  legs: number;
  /** Batteries planned. */
  batteries: string[];
  /** The method in one paragraph (for the reader of the JSON). */
  method: string;
  /** Judging parameters in force. */
  params: {
    threshold: number;
    confidence: number;
    resamples: number;
    seed: number;
    floor_ms: number;
    min_legs: number;
  };
  /** Per stage (window … total). */
  stages: AbStageRow[];
  /** Legs whose outcome differs between the versions. */
  outcome_differences: AbOutcomeDifference[];
}

/** The method text of every report (docs/gate.md says the same at length). */
export const AB_METHOD = "Both versions plan the same legs in each round on this machine, " +
  "alternating which goes first; per leg and stage the ratio current/ref of the paired times, " +
  "its median over rounds; per stage the median over legs with a 95 % percentile-bootstrap " +
  "interval (legs and rounds resampled, fixed seed). Slower = median ratio > 1 + threshold and the " +
  "interval above 1 (asv continuous style); legs under the floor on both sides are left out.";

const THIS_ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function git(root: string, args: string[]): Promise<string> {
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

interface LegTimes {
  key: string;
  outcome: string;
  stages: number[]; // STAGES order
}

/** Plans one battery with the version at `root`; leg key → times. */
async function planWith(
  root: string,
  battery: string,
  env: Record<string, string>,
): Promise<LegTimes[]> {
  const pack = join(dirname(battery), "base.nav.gz");
  const args = [
    "run",
    "-A",
    "--config",
    join(root, "deno.json"),
    join(root, "commands", "main.ts"),
    "plan",
    pack,
    "--legs",
    battery,
    "--json",
  ];
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env,
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join(" / ");
    throw new NavscopeError(
      "io",
      `planning ${battery} with the version at ${root} failed (exit ${out.code}): ${err}`,
    );
  }
  let j: { legs?: Array<{ id: string; class: string; timing_ms: Record<string, number> }> };
  try {
    j = JSON.parse(stdout);
  } catch (e) {
    throw new NavscopeError(
      "bad_value",
      `plan --json of the version at ${root} is not JSON: ${(e as Error).message}`,
    );
  }
  const folder = dirname(battery).split(/[\\/]/).pop() ?? battery;
  return (j.legs ?? []).map((r) => {
    const t = r.timing_ms;
    const six = t.window + t.topology + t.geometry + t.pull + t.assemble + t.lift;
    const byStage: Record<string, number> = { ...t, other: t.total - six };
    return {
      key: `${folder}/${r.id}`,
      outcome: r.class,
      stages: STAGES.map((s) => byStage[s] ?? NaN),
    };
  });
}

/**
 * Runs the A/B comparison: REF in a temporary worktree against the current checkout.
 * Errors (unknown REF, not a git checkout, a version that fails to plan) are NavscopeErrors
 * raised before (REF) or during the runs; the worktree is removed in every case.
 */
export async function abCompare(opts: AbOptions): Promise<AbReport> {
  const root = resolve(opts.root ?? THIS_ROOT);
  const rounds = opts.rounds ?? 5;
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new NavscopeError("bad_value", `rounds must be an integer ≥ 1, got ${rounds}`);
  }
  const say = opts.onProgress ?? (() => {});
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") {
    throw new NavscopeError(
      "bad_value",
      "the A/B comparison runs git and deno subprocesses: it needs --allow-run " +
        "(deno task nightly grants it)",
    );
  }
  const batteries = opts.batteries.map((b) => resolve(b));
  for (const b of batteries) {
    try {
      await Deno.stat(b);
      await Deno.stat(join(dirname(b), "base.nav.gz"));
    } catch (e) {
      throw new NavscopeError(
        "io",
        `cannot read the battery or its pack: ${(e as Error).message}`,
        {
          file: b,
        },
      );
    }
  }
  await git(root, ["rev-parse", "--show-toplevel"]).catch(() => {
    throw new NavscopeError("bad_value", `not a git checkout: ${root}`, {}, "a git checkout");
  });
  let commit: string;
  try {
    commit = await git(root, ["rev-parse", "--verify", "--quiet", `${opts.ref}^{commit}`]);
  } catch {
    throw new NavscopeError(
      "bad_value",
      `unknown git ref "${opts.ref}" in ${root}`,
      {},
      "a commit, branch or tag",
    );
  }
  const head = await git(root, ["rev-parse", "HEAD"]);
  const dirty = (await git(root, ["status", "--porcelain", "--untracked-files=no"])) !== "";
  const tmp = await Deno.makeTempDir({ prefix: "navscope_ab_" });
  const refRoot = join(tmp, "ref");
  const baseEnv = Deno.env.toObject();
  const envRef = { ...baseEnv, ...(opts.env?.ref ?? {}) };
  const envCur = { ...baseEnv, ...(opts.env?.current ?? {}) };
  // pairs[stage][leg][round] = [ref, cur]
  const legIndex = new Map<string, number>();
  const pairs: Array<Array<Array<[number, number] | undefined>>> = STAGES.map(() => []);
  const outcomes = new Map<string, { ref: string; current: string }>();
  try {
    await git(root, ["worktree", "add", "--detach", refRoot, commit]);
    say(`ref ${opts.ref} = ${commit.slice(0, 12)} checked out in ${refRoot}`);
    for (let r = 0; r < rounds; r++) {
      for (let bi = 0; bi < batteries.length; bi++) {
        const b = batteries[bi];
        // Alternate the order so drift (thermal, neighbours) does not favour one side.
        const refFirst = (r + bi) % 2 === 0;
        const runRef = () => planWith(refRoot, b, envRef);
        const runCur = () => planWith(root, b, envCur);
        let ref: LegTimes[], cur: LegTimes[];
        if (refFirst) {
          ref = await runRef();
          cur = await runCur();
        } else {
          cur = await runCur();
          ref = await runRef();
        }
        addRound(ref, cur, r, legIndex, pairs, outcomes);
      }
      say(`round ${r + 1}/${rounds} done (${legIndex.size} legs paired)`);
    }
  } finally {
    await git(root, ["worktree", "remove", "--force", refRoot]).catch(() => {});
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    await git(root, ["worktree", "prune"]).catch(() => {});
  }
  const params = {
    threshold: opts.threshold ?? 0.1,
    confidence: opts.confidence ?? 0.95,
    resamples: opts.resamples ?? 2000,
    seed: opts.seed ?? 1,
    floor_ms: opts.floorMs ?? 1,
    min_legs: opts.minLegs ?? 3,
  };
  const stages = STAGES.map((s, i) =>
    compareStage(s, pairs[i], {
      threshold: params.threshold,
      confidence: params.confidence,
      resamples: params.resamples,
      seed: params.seed,
      floorMs: params.floor_ms,
      minLegs: params.min_legs,
    })
  );
  const regressions = stages.filter((s) => s.verdict === "slower").map((s) => s.stage);
  return {
    format: "navscope-ab",
    version: 1,
    verdict: regressions.length ? "regression" : "pass",
    regressions,
    ref: { name: opts.ref, commit },
    current: { root, commit: head, dirty },
    machine: machineFingerprint(),
    rounds,
    legs: legIndex.size,
    batteries,
    method: AB_METHOD,
    params,
    stages,
    outcome_differences: [...outcomes].filter(([, o]) => o.ref !== o.current).map((
      [leg, o],
    ) => ({ leg, ...o })).sort((a, b) => (a.leg < b.leg ? -1 : 1)),
  };
}

function addRound(
  ref: LegTimes[],
  cur: LegTimes[],
  round: number,
  legIndex: Map<string, number>,
  pairs: Array<Array<Array<[number, number] | undefined>>>,
  outcomes: Map<string, { ref: string; current: string }>,
): void {
  const curBy = new Map(cur.map((l) => [l.key, l]));
  for (const a of ref) {
    const c = curBy.get(a.key);
    if (!c) continue; // a leg only one version knows: nothing to pair
    let li = legIndex.get(a.key);
    if (li === undefined) legIndex.set(a.key, li = legIndex.size);
    outcomes.set(a.key, { ref: a.outcome, current: c.outcome });
    STAGES.forEach((_, si) => {
      const x = a.stages[si], y = c.stages[si];
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      (pairs[si][li!] ??= [])[round] = [x, y];
    });
  }
}
