/**
 * `navscope replay` as a library call: collect the distinct legs of run logs, route each to the
 * pack that has its zone, re-plan them in a {@link ReplayPool}, judge them, and write
 * `DIR/replay.log` (navscope plan lines, in key order) and `DIR/replay.json` (the summary).
 * Shard outputs are joined by {@link mergeReplayDirs}.
 *
 * Determinism: rows and lines are in key order and each line's timestamp is the leg's first log
 * time, so two runs (any `jobs`, sharded and merged or not) give the same bytes except the
 * timing items of the lines (`*_ms`), the `*_ms` keys of the rows and the `run` section of the
 * summary; {@link canonicalReplayJson} and `stripLineTimings` drop exactly those.
 * @module
 */
import { type BundleFacts, bundleFacts } from "./bundle_facts.ts";
import type { PlanProfile } from "../plan/profile.ts";
import { join } from "node:path";
import { NavscopeError } from "../errors.ts";
import { writeFilesAtomic } from "../codec/file.ts";
import { parseJson } from "../codec/json.ts";
import { readTextStrict } from "../codec/json_strict.ts";
import { formatPlanLine } from "../logs/plan_line.ts";
import type { ParseReport, PlanRecord, Point2 } from "../logs/types.ts";
import { NAVSCOPE_VERSION } from "../version.ts";
import type { Leg as BatteryLeg } from "../legs/format.ts";
import {
  checkReplayInvariant,
  collectReplayLegs,
  comparableRecord,
  judge,
  type OldOutcome,
  recordClass,
  REPLAY_OUTCOMES,
  type ReplayLeg,
  type ReplayOutcome,
} from "./replay.ts";
import { type PoolPack, type PoolTask, ReplayPool } from "./replay_pool.ts";
import { Handout, loggedCost, planHandout } from "./replay_handout.ts";
import { isDeepStrictEqual } from "node:util";

/** Format tag of replay.json. */
export const REPLAY_FORMAT = "navscope-replay";

/** The new result of a replayed leg. */
export interface NewOutcome {
  ok: boolean;
  class: string;
  code: string;
  error: string;
  tier: number;
  kind: string;
  tier_notes: string[];
  length: number;
  total_ms: number;
}

/** One row of replay.json. */
export interface ReplayRow {
  key: string;
  /** Battery leg id the logged plan lines name (`[leg=…]`), "" when none. */
  leg: string;
  zone: string;
  start: Point2 | null;
  goal: Point2 | null;
  goal_deck_y: number | null;
  /** `plan_line` or `navigator`. */
  origin: string;
  /** `exact`, `partial_request`, or `none` (not replayable). */
  request: "exact" | "partial_request" | "none";
  /** Request fields the log lacked (partial requests). */
  missing: string[];
  /** Battery leg whose overrides were applied ("" none). */
  battery: string;
  /** Pack the leg was replayed on ("" none). */
  pack: string;
  /** Same pack build hash / planner version as the logged plan line (null: not a plan line). */
  same_pack: boolean | null;
  same_planner: boolean | null;
  /** Exact same-pack same-planner replay: new record equals the logged one but for timings. */
  identical: boolean | null;
  outcome: ReplayOutcome;
  /** Why not replayable ("" otherwise). */
  reason: string;
  occurrences: number;
  failures: number;
  first_seen: string;
  last_seen: string;
  where: string;
  old: OldOutcome;
  new: NewOutcome | null;
}

/** replay.json. */
export interface ReplayReport {
  format: typeof REPLAY_FORMAT;
  version: 1;
  planner: string;
  /** Planner profile of the re-plans (src/plan/profile.ts; absent in older reports: spec). */
  profile?: string;
  packs: Array<{ path: string; build_hash: string; error: string | null }>;
  all: boolean;
  shard: { index: number; count: number } | null;
  /** Distinct legs selected in the whole input (before sharding). */
  legs_total: number;
  /** Legs of this run (this shard). */
  legs: number;
  /** Legs replayed or judged not replayable. */
  done: number;
  /** Legs not reached (interrupted). */
  pending: number;
  interrupted: boolean;
  counts: Record<ReplayOutcome, number>;
  partial_requests: number;
  identical: number;
  not_identical: number;
  rows: ReplayRow[];
  /** The bundles the logs came in (MaaEnd log zips, extracted folders); absent for loose logs. */
  bundles?: BundleFacts[];
  run: {
    jobs: number;
    elapsed_ms: number;
    replayed: number;
    legs_per_s: number;
    peak_heap_mb: number[];
    peak_rss_mb: number;
  };
}

/** Options of {@link replayLogs}. */
export interface ReplayOptions {
  /** Main packs (a leg goes to the first whose zones include its zone, same build hash first). */
  packs: PoolPack[];
  all?: boolean;
  jobs?: number;
  /**
   * With `jobs` > 1, windows of at least this many cells run one at a time (default kGateCells,
   * src/plan/window/window_gate.ts; tests lower it to gate every window).
   */
  gateCells?: number;
  shard?: { index: number; count: number } | null;
  batteries?: readonly BatteryLeg[];
  strict?: boolean;
  /** Stops the replay (results so far are kept, `interrupted`). */
  signal?: AbortSignal;
  /** Planner profile of every re-plan (default: spec). */
  profile?: PlanProfile;
  /** After the legs are known (count to replay) and after each replayed leg. */
  onProgress?: (done: number, total: number) => void;
}

/** Result of {@link replayLogs}: the report and the plan lines (row order; "" no new plan). */
export interface ReplayResult {
  report: ReplayReport;
  lines: string[];
  /**
   * The new plan records, aligned with the rows (null: not replayed); absent for merged results.
   * What `stats --pack` aggregates (src/analyze/replay_stats.ts), so both read the same records.
   */
  records?: Array<PlanRecord | null>;
  /** What the log parse saw (absent for merged results). */
  parse?: ParseReport;
}

function emptyCounts(): Record<ReplayOutcome, number> {
  return Object.fromEntries(REPLAY_OUTCOMES.map((o) => [o, 0])) as Record<ReplayOutcome, number>;
}

function newOf(r: PlanRecord): NewOutcome {
  return {
    ok: r.ok,
    class: recordClass(r),
    code: r.code,
    error: r.error,
    tier: r.tier,
    kind: r.kind,
    tier_notes: r.tierNotes,
    length: r.length,
    total_ms: r.timing.total,
  };
}

/** The plan line of a replayed leg: timestamp = the leg's first log time. */
export function replayLine(r: PlanRecord, time: number): string {
  return formatPlanLine(r, {
    time: Number.isFinite(time) ? time : 0,
    srcFile: "navscope",
    func: "replay",
  });
}

/**
 * The order replay hands tasks to the pool (indices into `tasks`): by pack and zone, so each
 * worker's zone cache stays warm; within a zone the longest first by the plan time the log
 * recorded (unknown: 0), so no big leg starts last while the other workers idle; key last.
 * The heaviest legs are then split over the workers up front ({@link planHandout}).
 * Results go back by index, so the order never shows in the output.
 */
export function handoutOrder(
  tasks: ReadonlyArray<{ pack: number; leg: Pick<ReplayLeg, "zone" | "key" | "old"> }>,
): number[] {
  const cost = (i: number) => loggedCost(tasks[i].leg.old.total_ms);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return tasks.map((_, i) => i).sort((a, b) =>
    tasks[a].pack - tasks[b].pack || cmp(tasks[a].leg.zone, tasks[b].leg.zone) ||
    cost(b) - cost(a) || cmp(tasks[a].leg.key, tasks[b].leg.key)
  );
}

/** Replays the legs of the logs (see the module doc). */
export async function replayLogs(
  inputs: readonly string[],
  opts: ReplayOptions,
): Promise<ReplayResult> {
  const t0 = performance.now();
  const jobs = Math.max(1, opts.jobs ?? 1);
  // The packs first: a missing or corrupt pack is refused before the logs are read and before
  // any leg is replayed (every plan on it would only repeat the load error).
  const pool = await ReplayPool.open(opts.packs, jobs, { gateCells: opts.gateCells });
  const planner = `navscope/${NAVSCOPE_VERSION}`;
  try {
    pool.packs.forEach((p, i) => {
      if (p.error) {
        const path = opts.packs[i].path;
        const why = p.error.split(`${path}: `).join("");
        throw new NavscopeError("bad_value", `the pack is unusable: ${why}`, { file: path });
      }
    });
    const collected = await collectReplayLegs(inputs, {
      all: opts.all,
      shard: opts.shard,
      batteries: opts.batteries,
      strict: opts.strict,
    });
    const legs = collected.legs;
    // Route legs to packs.
    const packOf = legs.map((l) => (l.request ? pickPack(l, pool.packs) : -1));
    const taskIdx: number[] = [];
    const tasks: PoolTask[] = [];
    legs.forEach((l, i) => {
      if (packOf[i] >= 0) {
        taskIdx.push(i);
        const request = opts.profile ? { ...l.request!, profile: opts.profile } : l.request!;
        tasks.push({ pack: packOf[i], request });
      }
    });
    const order = handoutOrder(
      tasks.map((t, i) => ({ pack: t.pack, leg: legs[taskIdx[i]] })),
    );
    const sorted = order.map((i) => tasks[i]);
    const logged = (k: number) => legs[taskIdx[order[k]]].old.total_ms;
    const handout = new Handout(planHandout(sorted.map((_, k) => k), logged, pool.size), logged);
    opts.onProgress?.(0, sorted.length);
    const run = await pool.run(sorted, {
      signal: opts.signal,
      onDone: (_i, done) => opts.onProgress?.(done, sorted.length),
      handout,
    });
    const recordOf = new Map<number, PlanRecord | string>();
    order.forEach((ti, k) => {
      const rec = run.records[k];
      const err = run.errors[k];
      // The replayed line names the same battery leg as the logged one.
      if (rec) recordOf.set(taskIdx[ti], { ...rec, leg: legs[taskIdx[ti]].record?.leg ?? "" });
      else if (err !== undefined) recordOf.set(taskIdx[ti], err);
    });
    const rows: ReplayRow[] = [];
    const lines: string[] = [];
    const records: Array<PlanRecord | null> = [];
    let pending = 0;
    legs.forEach((l, i) => {
      const p = packOf[i];
      const got = recordOf.get(i);
      if (p >= 0 && got === undefined) {
        pending++;
        return;
      }
      if (typeof got === "string") {
        throw new NavscopeError("io", `replay of ${l.key} failed in a worker: ${got}`);
      }
      const row = rowOf(l, p < 0 ? null : opts.packs[p].path, pool.packs[p], got ?? null, planner);
      if (p < 0) row.reason = l.unreplayable || `zone ${l.zone} is in none of the packs`;
      rows.push(row);
      lines.push(got ? replayLine(got, l.time) : "");
      records.push(got ?? null);
    });
    const elapsed = performance.now() - t0;
    const replayed = rows.filter((r) => r.new !== null).length;
    const report = summarize(rows, {
      planner,
      profile: opts.profile?.name ?? "spec",
      packs: opts.packs.map((p, i) => ({
        path: p.path,
        build_hash: pool.packs[i]?.buildHash ?? "",
        error: pool.packs[i]?.error ?? null,
      })),
      all: opts.all === true,
      shard: opts.shard ?? null,
      legs_total: collected.totalBeforeShard,
      legs: legs.length,
      pending,
      interrupted: run.interrupted,
      run: {
        jobs: pool.size,
        elapsed_ms: round1(elapsed),
        replayed,
        legs_per_s: elapsed > 0 ? round1(replayed / (elapsed / 1000)) : 0,
        peak_heap_mb: run.peakHeap.map((b) => round1(b / 2 ** 20)),
        peak_rss_mb: round1(Deno.memoryUsage().rss / 2 ** 20),
      },
    });
    // replay.json names the bundle it read (issue 35); loose logs leave the field out.
    if (collected.parse.bundles.length > 0) report.bundles = bundleFacts(collected.parse);
    return { report, lines, records, parse: collected.parse };
  } finally {
    pool.close();
  }
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

function pickPack(l: ReplayLeg, packs: ReturnType<() => ReplayPool["packs"]>): number {
  const has = (i: number) => packs[i].zones.includes(l.zone);
  const hash = l.record?.packHash ?? "";
  if (hash) {
    const i = packs.findIndex((p, k) => p.buildHash === hash && has(k));
    if (i >= 0) return i;
  }
  return packs.findIndex((_, k) => has(k));
}

function rowOf(
  l: ReplayLeg,
  packPath: string | null,
  info: { buildHash: string } | undefined,
  rec: PlanRecord | null,
  planner: string,
): ReplayRow {
  const nw = rec ? newOf(rec) : null;
  const logged = l.oldRecord ?? l.record;
  const samePack = logged && info ? logged.packHash === info.buildHash : null;
  const samePlanner = logged ? logged.version === planner : null;
  // Compared with the record the old outcome comes from, never another line of the leg.
  const identical = rec && l.oldRecord && samePack && samePlanner
    ? isDeepStrictEqual(comparableRecord(rec), comparableRecord(l.oldRecord))
    : null;
  const row: ReplayRow = {
    key: l.key,
    leg: l.legId,
    zone: l.zone,
    start: l.start,
    goal: l.goal,
    goal_deck_y: l.goalDeckY,
    origin: l.origin,
    request: l.request === null || packPath === null
      ? "none"
      : l.partial
      ? "partial_request"
      : "exact",
    missing: l.missing,
    battery: l.battery,
    pack: packPath ?? "",
    same_pack: packPath === null ? null : samePack,
    same_planner: packPath === null ? null : samePlanner,
    identical,
    outcome: nw ? judge(l.old.ok, l.old.class, nw.class) : "not_replayable",
    reason: "",
    occurrences: l.occurrences,
    failures: l.failures,
    first_seen: l.firstSeen,
    last_seen: l.lastSeen,
    where: l.where,
    old: l.old,
    new: nw,
  };
  checkReplayInvariant(row);
  return row;
}

type ReportHead = Omit<
  ReplayReport,
  | "format"
  | "version"
  | "done"
  | "counts"
  | "partial_requests"
  | "identical"
  | "not_identical"
  | "rows"
>;

/** Builds the summary over rows (also used by merge). */
export function summarize(rows: ReplayRow[], head: ReportHead): ReplayReport {
  const counts = emptyCounts();
  for (const r of rows) {
    checkReplayInvariant(r);
    counts[r.outcome]++;
  }
  return {
    format: REPLAY_FORMAT,
    version: 1,
    planner: head.planner,
    ...(head.profile === undefined ? {} : { profile: head.profile }),
    packs: head.packs,
    all: head.all,
    shard: head.shard,
    legs_total: head.legs_total,
    legs: head.legs,
    done: rows.length,
    pending: head.pending,
    interrupted: head.interrupted,
    counts,
    partial_requests: rows.filter((r) => r.request === "partial_request").length,
    identical: rows.filter((r) => r.identical === true).length,
    not_identical: rows.filter((r) => r.identical === false).length,
    rows,
    run: head.run,
  };
}

/**
 * Writes `DIR/replay.log` (the non-empty lines) and `DIR/replay.json`, together or not at all
 * (temp files, then renames; DIR created when missing).
 */
export async function writeReplayDir(dir: string, res: ReplayResult): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const lines = res.lines.filter((l) => l !== "");
  await writeFilesAtomic([
    { path: join(dir, "replay.log"), data: lines.map((l) => l + "\n").join("") },
    { path: join(dir, "replay.json"), data: JSON.stringify(res.report, null, 2) + "\n" },
  ]);
}

/** Reads a replay output directory back (report + its lines, aligned with the rows). */
export async function readReplayDir(
  dir: string,
): Promise<{ report: ReplayReport; lines: string[] }> {
  const jp = join(dir, "replay.json");
  let report: ReplayReport;
  try {
    // Replay rows carry text copied from logs: U+FFFD may be in it legitimately.
    report = parseJson(await readTextStrict(jp), { file: jp }, "not valid JSON", {
      allowReplacementChar: true,
    }) as ReplayReport;
  } catch (e) {
    if (e instanceof NavscopeError && e.code === "bad_value") throw e;
    throw new NavscopeError("io", `cannot read a replay summary: ${(e as Error).message}`, {
      file: jp,
    }, "a replay output directory (replay.json + replay.log)");
  }
  if (report?.format !== REPLAY_FORMAT || !Array.isArray(report.rows)) {
    throw new NavscopeError("bad_value", "not a replay summary", { file: jp }, REPLAY_FORMAT);
  }
  const lp = join(dir, "replay.log");
  let text: string;
  try {
    text = await Deno.readTextFile(lp);
  } catch (e) {
    throw new NavscopeError("io", `cannot read the replay log: ${(e as Error).message}`, {
      file: lp,
    });
  }
  const raw = text.split("\n").filter((l) => l !== "");
  const withNew = report.rows.filter((r) => r.new !== null).length;
  if (raw.length !== withNew) {
    throw new NavscopeError(
      "bad_value",
      `replay.log has ${raw.length} lines, replay.json ${withNew} replayed rows`,
      { file: lp },
      "the replay.log written with this replay.json",
    );
  }
  let k = 0;
  const lines = report.rows.map((r) => (r.new !== null ? raw[k++] : ""));
  return { report, lines };
}

/**
 * Joins shard outputs into one result. Refuses (NavscopeError `bad_value`) outputs that are not
 * shards of one run: an unsharded output, different shard counts, a shard given twice, missing
 * shards, different inputs (`legs_total`), packs or planner, or a leg in two shards.
 */
export async function mergeReplayDirs(dirs: readonly string[]): Promise<ReplayResult> {
  if (dirs.length === 0) throw new NavscopeError("usage", "merge: no shard directories given");
  const parts = [];
  for (const d of dirs) parts.push({ dir: d, ...(await readReplayDir(d)) });
  const first = parts[0];
  const count = first.report.shard?.count;
  const seen = new Map<number, string>();
  for (const p of parts) {
    const s = p.report.shard;
    if (!s) {
      throw new NavscopeError("bad_value", `${p.dir} is not a shard (replayed without --shard)`);
    }
    if (s.count !== count) {
      throw new NavscopeError(
        "bad_value",
        `${p.dir} is shard ${s.index}/${s.count}, ${first.dir} is of ${count} shards`,
      );
    }
    const prev = seen.get(s.index);
    if (prev !== undefined) {
      throw new NavscopeError(
        "bad_value",
        `shard ${s.index}/${count} given twice (overlapping shards): ${prev} and ${p.dir}`,
      );
    }
    seen.set(s.index, p.dir);
    if (p.report.legs_total !== first.report.legs_total || p.report.all !== first.report.all) {
      throw new NavscopeError(
        "bad_value",
        `${p.dir} was replayed from other inputs (${p.report.legs_total} legs${
          p.report.all ? ", --all" : ""
        }) than ${first.dir} (${first.report.legs_total}${first.report.all ? ", --all" : ""})`,
      );
    }
    const hashes = (r: ReplayReport) => r.packs.map((x) => x.build_hash).join(",");
    if (
      hashes(p.report) !== hashes(first.report) || p.report.planner !== first.report.planner ||
      (p.report.profile ?? "spec") !== (first.report.profile ?? "spec")
    ) {
      throw new NavscopeError(
        "bad_value",
        `${p.dir} was replayed on other packs, another planner or another profile than ${first.dir}`,
      );
    }
  }
  const missing = [];
  for (let i = 1; i <= count!; i++) if (!seen.has(i)) missing.push(`${i}/${count}`);
  if (missing.length) {
    throw new NavscopeError(
      "bad_value",
      `missing shard${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`,
    );
  }
  const all: Array<{ row: ReplayRow; line: string }> = [];
  for (const p of parts) p.report.rows.forEach((row, i) => all.push({ row, line: p.lines[i] }));
  all.sort((a, b) => (a.row.key < b.row.key ? -1 : a.row.key > b.row.key ? 1 : 0));
  for (let i = 1; i < all.length; i++) {
    if (all[i].row.key === all[i - 1].row.key) {
      throw new NavscopeError("bad_value", `leg ${all[i].row.key} is in two shards (overlap)`);
    }
  }
  const legs = parts.reduce((s, p) => s + p.report.legs, 0);
  const replayed = all.filter((x) => x.row.new !== null).length;
  const elapsed = Math.max(...parts.map((p) => p.report.run.elapsed_ms));
  const report = summarize(all.map((x) => x.row), {
    planner: first.report.planner,
    ...(first.report.profile === undefined ? {} : { profile: first.report.profile }),
    packs: first.report.packs,
    all: first.report.all,
    shard: null,
    legs_total: first.report.legs_total,
    legs,
    pending: parts.reduce((s, p) => s + p.report.pending, 0),
    interrupted: parts.some((p) => p.report.interrupted),
    run: {
      jobs: parts.reduce((s, p) => s + p.report.run.jobs, 0),
      elapsed_ms: elapsed,
      replayed,
      legs_per_s: elapsed > 0 ? round1(replayed / (elapsed / 1000)) : 0,
      peak_heap_mb: parts.flatMap((p) => p.report.run.peak_heap_mb),
      peak_rss_mb: Math.max(...parts.map((p) => p.report.run.peak_rss_mb)),
    },
  });
  if (!report.interrupted && legs !== report.legs_total) {
    throw new NavscopeError(
      "bad_value",
      `the shards hold ${legs} legs, the inputs ${report.legs_total}`,
    );
  }
  return {
    report,
    lines: all.map((x) => x.line),
  };
}

/**
 * replay.json without what legitimately differs between runs: the `run` section, every `*_ms`
 * key. Two replays of the same legs on the same packs and planner must give
 * equal canonical text.
 */
export function canonicalReplayJson(r: ReplayReport): string {
  return JSON.stringify(r, (k, v) => {
    if (k === "run" || k.endsWith("_ms")) return undefined;
    return v;
  }, 2);
}
