/**
 * The honest timing comparison on a noisy machine (`nightly --ab REF`): the planner at git REF
 * is checked out in a temporary worktree (`git worktree add --detach`, removed afterwards). Each
 * round plans every battery three times, each run its own subprocess (its own isolate: no JIT,
 * heap or GC state shared between the versions) of that version's `commands/main.ts plan PACK
 * --legs BATTERY --json`: REF, the current checkout, and REF again — the A/A calibration that
 * measures this machine's noise in the same moments. The order rotates per round (the
 * rotation ref·cur·ref2, cur·ref2·ref, ref2·ref·cur) so that each side runs in each slot of a
 * round equally often (ABBA for three). Round 0 is a warm-up (disk cache, CPU frequency) and is
 * discarded. The paired per-leg stage times are judged by ab_stats.ts `judgeStage`.
 *
 * Both versions read the current checkout's batteries and packs, so only the planner differs.
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../errors.ts";
import {
  type AbJudgeOptions,
  type AbStageRow,
  judgeStage,
  median,
  type StagePairs,
} from "./ab_stats.ts";
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
  /** Measured rounds, a multiple of 3 (default 3), after one discarded warm-up round. */
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
  /** Format version (2: A/A calibration, warm-up, absolute floor). */
  version: 2;
  /** "pass", or "regression" when a stage is significantly slower. */
  verdict: "pass" | "regression";
  /** Stages judged slower. */
  regressions: string[];
  /** The ref as given, and the commit it names. */
  ref: { name: string; commit: string };
  /** The current checkout: path (relative to the working directory), HEAD commit, uncommitted changes present. */
  current: { root: string; commit: string; dirty: boolean };
  /** The machine both versions ran on. */
  machine: MachineFingerprint;
  /** Measured rounds (the warm-up round is not counted). */
  rounds: number;
  /** Warm-up rounds run first and discarded. */
  warmup_rounds: number;
  /** Legs paired (per round). */
  legs: number;
  /** Batteries planned (as given: relative to the working directory, or absolute if given so). */
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
    min_diff_ms: number;
    min_total_share: number;
    min_legs: number;
  };
  /** Per stage (window … total). */
  stages: AbStageRow[];
  /** Legs whose outcome differs between the versions. */
  outcome_differences: AbOutcomeDifference[];
  /**
   * The measured times the verdicts are a pure function of (`judgeStages`): per side, per stage
   * (`stages` order), per leg (`legs` order), per measured round, ms (null: not measured). Kept
   * so a verdict can be re-derived and the noise studied (docs/gate.md).
   */
  times: {
    stages: readonly string[];
    legs: string[];
    ref: (number | null)[][][];
    current: (number | null)[][][];
    ref2: (number | null)[][][];
  };
}

/** The method text of every report (docs/gate.md says the same at length). */
export const AB_METHOD = "Each round plans every battery three times, each run its own " +
  "subprocess: ref, current and ref again (the A/A calibration), the order rotating per round " +
  "(ref·cur·ref2, cur·ref2·ref, ref2·ref·cur: each side in each slot once per three rounds, " +
  "the three-run form of ABBA); round 0 is a discarded warm-up. Per leg and stage the median " +
  "over rounds of each side's time, their ratio current/ref; per stage the median over legs " +
  "with a 95 % crossed percentile-bootstrap interval (legs and rounds resampled, fixed seed); " +
  "the same for ref2/ref gives the A/A noise. Slower = the whole interval above " +
  "1 + max(threshold, A/A noise) and a median difference of at least " +
  "max(2 ms, 5 % of the median total) and beyond the A/A median difference's reach in ms; " +
  "legs under the floor on both sides are left out. Same = neither, and a change that counts " +
  "would have shown: the A/A noise under the threshold, or its ms noise under the floor " +
  "(or no leg reaches the floor); otherwise 'not measurable here'.";

/** Which side plans in which slot of a run: REF, the current checkout, REF again (A/A). */
export type AbSide = "ref" | "current" | "ref2";

/**
 * The order of the three runs of `round` for battery `battery`: ref·cur·ref2, cur·ref2·ref,
 * ref2·ref·cur, repeating (a 3×3 Latin square, the three-run form of ABBA). In every three
 * rounds each side runs once in each slot of a round, and every pair (ref/current, ref/ref2)
 * has each side first as often as the other: an order effect (a first run slowed by cold
 * caches or clocks) reaches all sides alike and cancels in the per-side medians.
 */
export function roundOrder(round: number, battery = 0): AbSide[] {
  const sides: AbSide[] = ["ref", "current", "ref2"];
  const k = (round + battery) % 3;
  return [...sides.slice(k), ...sides.slice(0, k)];
}

/** A path for a report: relative to the working directory (outputs never name a checkout). */
function shown(p: string): string {
  return relative(Deno.cwd(), p) || ".";
}

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

/** Suffix of a leg's untimed warm-up copy in a timed battery (its times are dropped). */
const WARM = "~ab-warm";
/** Suffix of a leg's timed copies: `~ab-1` … `~ab-N` ({@link TIMED_COPIES}). */
const TIMED = "~ab-";
/**
 * Timed copies of every leg per subprocess. Each stage keeps its fastest copy: a copy slowed by
 * a GC pause or a descheduled moment on a loaded box is the outlier, never the fast one (timing
 * noise only ever adds time), so the minimum is the stable statistic of a run.
 */
export const TIMED_COPIES = 2;

/**
 * Writes the battery each subprocess plans (issue 37): every leg once as an untimed warm-up copy
 * (its ids `<id>~ab-warm`, dropped), then {@link TIMED_COPIES} timed copies. A subprocess starts
 * cold: its first plans run in V8's interpreter and baseline tiers while the optimising compiler
 * works on a background thread, which a CPU hog on the other core delays by seconds — cold legs
 * measured 2.5× their warm time and varied 3× between runs. Warming inside the process
 * measures the planner's code, not the JIT's progress, and works for any REF (both versions
 * read the same rewritten battery). Returns the file written.
 */
async function timedBattery(battery: string, dir: string, bi: number): Promise<string> {
  let j: { legs?: Array<{ id: string }> } & Record<string, unknown>;
  try {
    j = JSON.parse(await Deno.readTextFile(battery));
  } catch (e) {
    throw new NavscopeError("bad_value", `cannot read the battery: ${(e as Error).message}`, {
      file: battery,
    });
  }
  if (!Array.isArray(j.legs)) {
    throw new NavscopeError("bad_value", "the battery has no legs array", { file: battery });
  }
  const copy = (suffix: string) => j.legs!.map((l) => ({ ...l, id: l.id + suffix }));
  const legs = [...copy(WARM)];
  for (let k = 1; k <= TIMED_COPIES; k++) legs.push(...copy(TIMED + k));
  const out = join(dir, `battery-${bi}.json`);
  await Deno.writeTextFile(out, JSON.stringify({ ...j, legs }));
  return out;
}

/**
 * Plans one battery with the version at `root` (`timed`: the rewritten battery of
 * {@link timedBattery}; `battery`: the original, whose folder holds the pack and names the
 * keys); leg key → times, each stage the fastest of the timed copies.
 */
async function planWith(
  root: string,
  battery: string,
  timed: string,
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
    timed,
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
  const byKey = new Map<string, LegTimes>();
  for (const r of j.legs ?? []) {
    const at = r.id.lastIndexOf(TIMED);
    if (at < 0 || r.id.endsWith(WARM)) continue;
    const t = r.timing_ms;
    const six = t.window + t.topology + t.geometry + t.pull + t.assemble + t.lift;
    const byStage: Record<string, number> = { ...t, other: t.total - six };
    const stages = STAGES.map((s) => byStage[s] ?? NaN);
    const key = `${folder}/${r.id.slice(0, at)}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, { key, outcome: r.class, stages });
    else seen.stages = seen.stages.map((v, i) => Math.min(v, stages[i]));
  }
  return [...byKey.values()];
}

/**
 * Runs the A/B comparison: REF in a temporary worktree against the current checkout.
 * Errors (unknown REF, not a git checkout, a version that fails to plan) are NavscopeErrors
 * raised before (REF) or during the runs; the worktree is removed in every case.
 */
export async function abCompare(opts: AbOptions): Promise<AbReport> {
  const root = resolve(opts.root ?? THIS_ROOT);
  const rounds = opts.rounds ?? 3;
  // A multiple of 3: each side in each slot equally often (roundOrder).
  if (!Number.isInteger(rounds) || rounds < 3 || rounds % 3) {
    throw new NavscopeError("bad_value", `rounds must be a multiple of 3, got ${rounds}`);
  }
  const say = opts.onProgress ?? (() => {});
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") {
    throw new NavscopeError(
      "bad_value",
      "the A/B comparison runs git and deno subprocesses: it needs --allow-run " +
        "(deno task nightly grants it)",
    );
  }
  // Absolute for the subprocesses (their cwd is their checkout); reported as given.
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
  // times[side][stage][leg][round]: one subprocess's stage time of that leg.
  const legIndex = new Map<string, number>();
  const times: Record<AbSide, number[][][]> = {
    ref: STAGES.map(() => []),
    current: STAGES.map(() => []),
    ref2: STAGES.map(() => []),
  };
  const outcomes = new Map<string, { ref: string; current: string }>();
  const warmup = 1;
  try {
    const timed: string[] = [];
    for (let bi = 0; bi < batteries.length; bi++) {
      timed.push(await timedBattery(batteries[bi], tmp, bi));
    }
    await git(root, ["worktree", "add", "--detach", refRoot, commit]);
    say(`ref ${opts.ref} = ${commit.slice(0, 12)} checked out in a temporary worktree`);
    for (let r = 0; r < warmup + rounds; r++) {
      for (let bi = 0; bi < batteries.length; bi++) {
        const got: Partial<Record<AbSide, LegTimes[]>> = {};
        for (const side of roundOrder(r, bi)) {
          got[side] = side === "current"
            ? await planWith(root, batteries[bi], timed[bi], envCur)
            : await planWith(refRoot, batteries[bi], timed[bi], envRef);
        }
        // The warm-up round only warms (disk cache, CPU clocks); its times are dropped.
        if (r >= warmup) {
          addRound(got.ref!, got.current!, got.ref2!, r - warmup, legIndex, times, outcomes);
        }
      }
      say(
        r < warmup
          ? `warm-up round done (discarded)`
          : `round ${r - warmup + 1}/${rounds} done (${legIndex.size} legs paired)`,
      );
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
    min_diff_ms: opts.minDiffMs ?? 2,
    min_total_share: opts.minTotalShare ?? 0.05,
    min_legs: opts.minLegs ?? 3,
  };
  const stages = judgeStages(times, {
    threshold: params.threshold,
    confidence: params.confidence,
    resamples: params.resamples,
    seed: params.seed,
    floorMs: params.floor_ms,
    minDiffMs: params.min_diff_ms,
    minTotalShare: params.min_total_share,
    minLegs: params.min_legs,
  });
  const regressions = stages.filter((s) => s.verdict === "slower").map((s) => s.stage);
  return {
    format: "navscope-ab",
    version: 2,
    verdict: regressions.length ? "regression" : "pass",
    regressions,
    ref: { name: opts.ref, commit },
    current: { root: shown(root), commit: head, dirty },
    machine: machineFingerprint(),
    rounds,
    warmup_rounds: warmup,
    legs: legIndex.size,
    batteries: opts.batteries,
    method: AB_METHOD,
    params,
    stages,
    outcome_differences: [...outcomes].filter(([, o]) => o.ref !== o.current).map((
      [leg, o],
    ) => ({ leg, ...o })).sort((a, b) => (a.leg < b.leg ? -1 : 1)),
    times: {
      stages: STAGES,
      legs: [...legIndex.keys()],
      ref: rawTimes(times.ref, legIndex.size, rounds),
      current: rawTimes(times.current, legIndex.size, rounds),
      ref2: rawTimes(times.ref2, legIndex.size, rounds),
    },
  };
}

/** A side's times as dense JSON arrays (null where a leg was not measured in a round). */
function rawTimes(t: number[][][], legs: number, rounds: number): (number | null)[][][] {
  return t.map((stage) =>
    Array.from({ length: legs }, (_, li) =>
      Array.from({ length: rounds }, (_, k) => {
        const v = stage[li]?.[k];
        return v === undefined || !Number.isFinite(v) ? null : v;
      }))
  );
}

/**
 * Judges every stage from the three sides' times, `times[side][stage][leg][round]` (stages in
 * STAGES order): A/B pairs (ref, current), A/A pairs (ref, ref2) of the same rounds, the
 * absolute floor a share of the median total at ref. Pure: the tests feed it synthetic matrices.
 */
export function judgeStages(
  times: Record<AbSide, ReadonlyArray<ReadonlyArray<ReadonlyArray<number | undefined>>>>,
  opts: AbJudgeOptions = {},
): AbStageRow[] {
  const pair = (si: number, other: AbSide): StagePairs =>
    times.ref[si].map((rounds, li) =>
      rounds.map((x, k) => {
        const y = times[other][si][li]?.[k];
        return x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)
          ? undefined
          : [x, y] as [number, number];
      })
    );
  const ti = STAGES.indexOf("total");
  const totals = times.ref[ti].map((rounds) =>
    median(rounds.filter((x): x is number => x !== undefined && Number.isFinite(x)))
  ).filter(Number.isFinite);
  const totalMs = median(totals);
  return STAGES.map((s, si) =>
    judgeStage(s, pair(si, "current"), pair(si, "ref2"), totalMs, { period: 3, ...opts })
  );
}

function addRound(
  ref: LegTimes[],
  cur: LegTimes[],
  ref2: LegTimes[],
  round: number,
  legIndex: Map<string, number>,
  times: Record<AbSide, number[][][]>,
  outcomes: Map<string, { ref: string; current: string }>,
): void {
  const curBy = new Map(cur.map((l) => [l.key, l]));
  const ref2By = new Map(ref2.map((l) => [l.key, l]));
  for (const a of ref) {
    const c = curBy.get(a.key), a2 = ref2By.get(a.key);
    if (!c || !a2) continue; // a leg only one version knows: nothing to pair
    let li = legIndex.get(a.key);
    if (li === undefined) legIndex.set(a.key, li = legIndex.size);
    outcomes.set(a.key, { ref: a.outcome, current: c.outcome });
    STAGES.forEach((_, si) => {
      (times.ref[si][li!] ??= [])[round] = a.stages[si];
      (times.current[si][li!] ??= [])[round] = c.stages[si];
      (times.ref2[si][li!] ??= [])[round] = a2.stages[si];
    });
  }
}
