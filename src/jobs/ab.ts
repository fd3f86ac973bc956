/**
 * The honest timing comparison on a noisy machine (`nightly --ab REF`): the planner at git REF
 * is checked out in a temporary worktree (`git worktree add --detach`, removed afterwards).
 * Every round starts three planner processes side by side, each its own isolate (no JIT, heap or
 * GC state shared between the versions): REF, the current checkout, and REF again — the A/A
 * calibration that measures this machine's noise in the same moments. Each runs a small
 * driver (DRIVER below) over its version's `mod.ts`, planning one leg per request. A round plans
 * every leg once on each side, leg by leg, the three sides in an order that rotates per leg and
 * round (ref·cur·ref2, cur·ref2·ref, ref2·ref·cur: ABBA for three), so the three times of a leg
 * are milliseconds apart and the box's drift over seconds reaches every side alike. Each round's
 * processes first plan every leg once, discarded (JIT, caches, CPU clocks), and end with the
 * round. The paired per-leg stage times are judged by ab_stats.ts `judgeStage`.
 *
 * Both versions read the current checkout's batteries and packs, so only the planner differs.
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { NavscopeError } from "../errors.ts";
import {
  type AbJudgeOptions,
  type AbStageRow,
  judgeStage,
  median,
  type StagePairs,
} from "../analyze/ab_stats.ts";
import { machineFingerprint } from "../analyze/machine.ts";
import { STAGES } from "../analyze/stats.ts";
import { git } from "../util/git.ts";
import type { AbReport } from "../analyze/ab_report.ts";
import { abMarkdown } from "../../reports/ab_markdown.ts";
import type { OnJobEvent } from "./progress.ts";

export type { AbOutcomeDifference, AbReport } from "../analyze/ab_report.ts";

/** Options of {@link abCompare}. */
export interface AbOptions extends AbJudgeOptions {
  /** The git ref to compare against (a commit, branch or tag; `HEAD` = the last commit). */
  ref: string;
  /** Batteries (legs.json), each planned on the base.nav.gz beside it. */
  batteries: readonly string[];
  /** The current checkout (default: the one this module is in). */
  root?: string;
  /** Measured rounds, a multiple of 3 (default 6), each after a discarded warm-up pass. */
  rounds?: number;
  /**
   * Only these legs (each a leg id, or `folder/id` to name one battery's), e.g. a few quick
   * ones for a smoke run; default every leg. A name that matches no leg is bad input.
   */
  legs?: readonly string[];
  /** Extra environment per side. */
  env?: { ref?: Record<string, string>; current?: Record<string, string> };
  /**
   * A module per side (URL) that the side's driver imports before planning: its default export
   * takes that version's `mod.ts` namespace and returns the API the driver uses (`openEngine`,
   * `parseLegs`, `planLeg`), e.g. `openEngine` wrapped to pass instrumentation options. The
   * tests inject a known slowdown this way (tests/ab_slow_window.ts; docs/gate.md).
   */
  preload?: { ref?: string; current?: string };
  /** Progress lines. */
  onProgress?: (line: string) => void;
}

/** The method text of every report (docs/gate.md says the same at length). */
export const AB_METHOD = "Each round starts three planner processes, each its own isolate: " +
  "ref, current and ref again (the A/A calibration), warms them with a discarded pass over " +
  "every leg, then plans every leg once on each side, leg by leg, the three in an order " +
  "rotating per leg and round (ref·cur·ref2, cur·ref2·ref, ref2·ref·cur: the three-run form " +
  "of ABBA). Per leg and stage each side's mean of its faster half of rounds (timing noise " +
  "only adds time; total: the sum of its seven stages' fast-half means), their ratio " +
  "current/ref; per stage the median over legs with a 95 % " +
  "crossed percentile-bootstrap interval (legs and rounds resampled, fixed seed); the same " +
  "for ref2/ref gives the A/A noise. Slower = the whole interval above " +
  "1 + max(threshold, A/A noise) and a median difference of at least " +
  "max(2 ms, 5 % of the median total) and beyond the A/A median difference's reach in ms; " +
  "legs whose fastest run is under 1 ms on both sides are left out. Same = neither, and a change that counts " +
  "would have shown: the A/A noise under the threshold, or its ms noise under the floor " +
  "(or no leg, or each of under 3 legs, reaches the floor); otherwise 'not measurable here'.";

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

/**
 * The driver each side's process runs (written to the session's temp folder, so it is the same
 * code for both versions): it imports that version's `mod.ts` (`openEngine`, `parseLegs`,
 * `planLeg`), opens one engine per battery (in-process tile decoding: no worker threads racing a
 * neighbour's load), says `{"ready":…}` with the leg ids, then plans one leg per stdin line
 * `{"b":battery,"i":leg}` and answers with its class and stage times, until `quit`.
 */
const DRIVER = `
const [modUrl, spec, preload] = Deno.args;
const enc = new TextEncoder();
const out = (o) => {
  const bytes = enc.encode(JSON.stringify(o) + "\\n");
  for (let k = 0; k < bytes.length;) k += Deno.stdout.writeSync(bytes.subarray(k));
};
try {
  let m = await import(modUrl);
  if (preload) m = await (await import(preload)).default(m);
  const missing = ["openEngine", "parseLegs", "planLeg"].filter((k) => typeof m[k] !== "function");
  if (missing.length) {
    throw new Error(
      "its mod.ts has no " + missing.join(", ") + ": a version older than the A/B driver " +
        "cannot be compared (docs/gate.md)",
    );
  }
  const engines = [], legs = [];
  for (const b of JSON.parse(spec)) {
    legs.push(m.parseLegs(await Deno.readTextFile(b.legs), b.legs));
    engines.push(await m.openEngine(b.pack, { workers: 1 }));
  }
  out({ ready: legs.map((l) => l.map((x) => x.id)) });
  let buf = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    for (let nl = buf.indexOf("\\n"); nl >= 0; nl = buf.indexOf("\\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line === "quit") {
        for (const e of engines) e.close();
        Deno.exit(0);
      }
      const { b, i } = JSON.parse(line);
      const { row } = await m.planLeg(engines[b], legs[b][i]);
      out({ class: row.class, timing_ms: row.timing_ms });
    }
  }
} catch (e) {
  out({ error: String(e && e.message || e) });
  Deno.exit(1);
}
`;

/**
 * One side's planner process of one round (issue 37): warmed by its discarded pass, planning
 * one leg per request. Its stderr is kept (the last 4 KiB) for the error of a failed run.
 */
class SideProcess {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly lines: AsyncIterator<string>;
  private stderr = "";
  private stderrDone: Promise<void> = Promise.resolve();
  private closed = false;

  /** Leg ids per battery, as this version parsed them. */
  ids: string[][] = [];

  constructor(
    readonly root: string,
    driver: string,
    spec: string,
    env: Record<string, string>,
    preload = "",
  ) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        join(root, "deno.json"),
        driver,
        pathToFileURL(join(root, "mod.ts")).href,
        spec,
        ...(preload ? [preload] : []),
      ],
      cwd: root,
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.lines = readLines(this.child.stdout);
    const stderr = this.child.stderr;
    this.stderrDone = (async () => {
      for await (const t of stderr.pipeThrough(new TextDecoderStream())) {
        this.stderr = (this.stderr + t).slice(-4096);
      }
    })();
  }

  /** Waits for the driver's ready line (its engines open, its legs parsed). */
  async ready(): Promise<void> {
    const r = await this.next() as { ready?: string[][] };
    if (!r.ready) throw await this.failure("no ready line");
    this.ids = r.ready;
  }

  /** Plans leg `i` of battery `b`: its class and stage times (ms). */
  async plan(b: number, i: number): Promise<{ class: string; timing_ms: Record<string, number> }> {
    await this.writer.write(new TextEncoder().encode(JSON.stringify({ b, i }) + "\n"));
    const r = await this.next() as { class?: string; timing_ms?: Record<string, number> };
    if (typeof r.class !== "string" || !r.timing_ms) throw await this.failure("bad answer");
    return { class: r.class, timing_ms: r.timing_ms };
  }

  /** Ends the process (quit, then a kill if it does not go). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.writer.write(new TextEncoder().encode("quit\n"));
      await this.writer.close();
    } catch { /* already gone */ }
    const t = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await this.child.status.catch(() => {});
    clearTimeout(t);
    await this.stderrDone.catch(() => {});
  }

  private async next(): Promise<Record<string, unknown>> {
    const r = await this.lines.next();
    if (r.done) throw await this.failure("ended early");
    let j: Record<string, unknown>;
    try {
      j = JSON.parse(r.value);
    } catch (e) {
      throw await this.failure(`not JSON (${(e as Error).message}): ${r.value.slice(0, 200)}`);
    }
    if (typeof j.error === "string") throw await this.failure(j.error);
    return j;
  }

  private async failure(what: string): Promise<NavscopeError> {
    const st = await Promise.race([
      this.child.status,
      new Promise<null>((ok) => setTimeout(() => ok(null), 2000)),
    ]);
    await Promise.race([this.stderrDone, new Promise((ok) => setTimeout(ok, 500))]);
    const err = this.stderr.trim().split("\n").slice(-5).join(" / ");
    return new NavscopeError(
      "io",
      `the planner of the version at ${this.root} failed${st ? ` (exit ${st.code})` : ""}: ` +
        `${what}${err ? `; ${err}` : ""}`,
    );
  }
}

async function* readLines(s: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buf = "";
  for await (const t of s.pipeThrough(new TextDecoderStream())) {
    buf += t;
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      yield buf.slice(0, nl);
      buf = buf.slice(nl + 1);
    }
  }
  if (buf) yield buf;
}

/** One planned leg's times in STAGES order ("other" = total less the six stages). */
function stageTimes(t: Record<string, number>): number[] {
  const six = t.window + t.topology + t.geometry + t.pull + t.assemble + t.lift;
  const byStage: Record<string, number> = { ...t, other: t.total - six };
  return STAGES.map((s) => byStage[s] ?? NaN);
}

/**
 * Runs the A/B comparison: REF in a temporary worktree against the current checkout.
 * Errors (unknown REF, not a git checkout, a version that fails to plan) are NavscopeErrors
 * raised before (REF) or during the runs; the worktree is removed in every case.
 */
export async function abCompare(opts: AbOptions): Promise<AbReport> {
  const root = resolve(opts.root ?? THIS_ROOT);
  const rounds = opts.rounds ?? 6;
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
  const sides: Partial<Record<AbSide, SideProcess>> = {};
  try {
    await git(root, ["worktree", "add", "--detach", refRoot, commit]);
    say(`ref ${opts.ref} = ${commit.slice(0, 12)} checked out in a temporary worktree`);
    const driver = join(tmp, "ab_driver.js");
    await Deno.writeTextFile(driver, DRIVER);
    const spec = JSON.stringify(
      batteries.map((b) => ({ legs: b, pack: join(dirname(b), "base.nav.gz") })),
    );
    // The legs both versions know, keyed folder/id (a leg only one knows: nothing to pair).
    const pairs: { b: number; i: number; iCur: number; key: string }[] = [];
    for (let k = 0; k < rounds; k++) {
      // Fresh processes every round: a process keeps its own speed for its whole life (JIT
      // decisions, memory placement: ±10 % between two processes of the same code, measured),
      // so one process per side would make that a systematic A/A difference. New ones each
      // round turn it into round-to-round noise, which the rounds' resampling sees.
      const pre = opts.preload ?? {};
      sides.ref = new SideProcess(refRoot, driver, spec, envRef, pre.ref);
      sides.current = new SideProcess(root, driver, spec, envCur, pre.current);
      sides.ref2 = new SideProcess(refRoot, driver, spec, envRef, pre.ref);
      for (const p of Object.values(sides)) await p.ready();
      if (k === 0) {
        batteries.forEach((b, bi) => {
          const folder = dirname(b).split(/[\\/]/).pop() ?? b;
          const cur = new Map(sides.current!.ids[bi].map((id, j) => [id, j]));
          sides.ref!.ids[bi].forEach((id, i) => {
            const iCur = cur.get(id);
            if (iCur !== undefined) pairs.push({ b: bi, i, iCur, key: `${folder}/${id}` });
          });
        });
        if (opts.legs) keepNamedLegs(pairs, opts.legs);
        for (const [li, p] of pairs.entries()) legIndex.set(p.key, li);
      }
      // A warm-up pass over every leg (JIT, caches, the zone's first use), dropped; then the
      // timed pass.
      for (let pass = 0; pass < 1 + warmup; pass++) {
        for (const [li, p] of pairs.entries()) {
          // Leg by leg, the three sides in the rotated order: the sides' times of a leg are
          // milliseconds apart, so the box's drift (seconds to minutes) reaches all alike.
          const got: Partial<
            Record<AbSide, { class: string; timing_ms: Record<string, number> }>
          > = {};
          for (const side of roundOrder(k, li)) {
            got[side] = await sides[side]!.plan(p.b, side === "current" ? p.iCur : p.i);
          }
          if (pass < warmup) continue;
          outcomes.set(p.key, { ref: got.ref!.class, current: got.current!.class });
          for (const side of ["ref", "current", "ref2"] as const) {
            const st = stageTimes(got[side]!.timing_ms);
            STAGES.forEach((_, si) => ((times[side][si][li] ??= [])[k] = st[si]));
          }
        }
      }
      for (const p of Object.values(sides)) await p.close();
      say(`round ${k + 1}/${rounds} done (${legIndex.size} legs paired)`);
    }
  } finally {
    for (const p of Object.values(sides)) await p.close();
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
    batteries: [...opts.batteries],
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

/**
 * Keeps (in place) the pairs named by `names` (a leg id or its `folder/id` key); throws
 * `bad_value` for a name that matches no leg of the batteries, before any leg is planned.
 */
function keepNamedLegs(pairs: { key: string }[], names: readonly string[]): void {
  const wanted = (key: string, name: string) => key === name || key.endsWith(`/${name}`);
  const unknown = names.filter((n) => !pairs.some((p) => wanted(p.key, n)));
  if (unknown.length) {
    throw new NavscopeError(
      "bad_value",
      `no leg ${unknown.map((n) => `"${n}"`).join(", ")} in the batteries (legs option)`,
      {},
      "a leg id of the batteries, or folder/id",
    );
  }
  const kept = pairs.filter((p) => names.some((n) => wanted(p.key, n)));
  pairs.splice(0, pairs.length, ...kept);
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
  // total is judged as the composite of the seven stages it sums (ab_stats CompositePairs).
  const parts = (other: AbSide) => ({
    parts: STAGES.map((_, si) => si).filter((si) => si !== ti).map((si) => pair(si, other)),
  });
  return STAGES.map((s, si) =>
    si === ti
      ? judgeStage(s, parts("current"), parts("ref2"), totalMs, { period: 3, ...opts })
      : judgeStage(s, pair(si, "current"), pair(si, "ref2"), totalMs, { period: 3, ...opts })
  );
}

/** Options of {@link runAb}: {@link abCompare}'s, the output folder and the progress events. */
export interface AbJobOptions extends Omit<AbOptions, "onProgress"> {
  /** Folder for ab.md and ab.json (created). */
  out: string;
  /** abCompare's progress lines and the closing line, as steps. */
  onProgress?: OnJobEvent;
}

/** What {@link runAb} wrote: the report (ab.json) and its Markdown (ab.md). */
export interface AbJobResult {
  report: AbReport;
  markdown: string;
}

/**
 * `nightly --ab REF` as a workflow: the A/B comparison ({@link abCompare}), written as
 * OUT/ab.md and OUT/ab.json.
 */
export async function runAb(o: AbJobOptions): Promise<AbJobResult> {
  const { out, onProgress, ...opts } = o;
  const say = (text: string) => onProgress?.({ kind: "step", text });
  const t0 = performance.now();
  const report = await abCompare({ ...opts, onProgress: say });
  await Deno.mkdir(out, { recursive: true });
  const markdown = abMarkdown(report);
  await Deno.writeTextFile(join(out, "ab.md"), markdown);
  await Deno.writeTextFile(join(out, "ab.json"), JSON.stringify(report, null, 2) + "\n");
  say(
    `${report.verdict} in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${
      join(out, "ab.md")
    }, ${join(out, "ab.json")}`,
  );
  return { report, markdown };
}
