/**
 * The run-history store: every nightly / replay run kept in one embedded SQLite file through
 * Deno's built-in `node:sqlite` (no native npm module; needs only --allow-read and
 * --allow-write on the file and its directory). Schema in docs/history.md; its version is
 * SQLite's `PRAGMA user_version` (mirrored in the `meta` table) and {@link MIGRATIONS} lift an
 * older store step by step. A store written by a newer navscope is refused, never rewritten.
 *
 * Safety: every write is one `BEGIN IMMEDIATE … COMMIT` transaction, so a run killed half-way
 * leaves the store as it was (SQLite's rollback of an uncommitted transaction); the file is in
 * WAL mode with a busy timeout, so two CI jobs adding runs at once wait for each other instead
 * of failing (https://www.sqlite.org/wal.html, https://www.sqlite.org/c3ref/busy_timeout.html).
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { NavscopeError } from "../errors.ts";
import type { PlanRecord } from "../logs/types.ts";
import type { MachineFingerprint } from "./machine.ts";

/** Schema version this navscope writes. */
export const HISTORY_SCHEMA_VERSION = 1;

/** Default store file name (beside the baseline). */
export const HISTORY_FILE = "navscope-history.sqlite";

/** SQL that lifts a store from version i to i + 1 (index i). */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE runs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     time TEXT NOT NULL,
     commit_hash TEXT NOT NULL,
     branch TEXT NOT NULL,
     machine_id TEXT NOT NULL,
     machine TEXT NOT NULL,
     profile TEXT NOT NULL,
     planner_version TEXT NOT NULL,
     pack_hashes TEXT NOT NULL,
     batteries TEXT NOT NULL,
     source TEXT NOT NULL,
     legs INTEGER NOT NULL);
   CREATE TABLE legs (
     run_id INTEGER NOT NULL REFERENCES runs(id),
     battery TEXT NOT NULL,
     leg TEXT NOT NULL,
     ok INTEGER NOT NULL,
     code TEXT NOT NULL,
     tier INTEGER NOT NULL,
     kind TEXT NOT NULL,
     window_cells INTEGER NOT NULL,
     route TEXT NOT NULL,
     counters TEXT NOT NULL,
     timings TEXT NOT NULL,
     PRIMARY KEY (run_id, battery, leg));
   CREATE INDEX legs_by_leg ON legs (battery, leg, run_id);`,
];

/** One run as stored. */
export interface HistoryRun {
  /** Row id (assigned by the store; run order). */
  id: number;
  /** ISO time of the run. */
  time: string;
  /** Git commit of the planner ("" unknown). */
  commit: string;
  /** Git branch ("" unknown). */
  branch: string;
  /** Machine fingerprint id ("" unknown). */
  machineId: string;
  /** Full fingerprint JSON, or null. */
  machine: MachineFingerprint | null;
  /** Planner profile. */
  profile: string;
  /** Planner version string. */
  plannerVersion: string;
  /** Pack build hashes seen. */
  packHashes: string[];
  /** Batteries of the run. */
  batteries: string[];
  /** What was added (folder or files). */
  source: string;
  /** Number of legs. */
  legs: number;
}

/** One leg of one run as stored. */
export interface HistoryLeg {
  /** Battery name (plan line source field, e.g. `city_small`). */
  battery: string;
  /** Leg id (or `zone@x,y→x,y` when the line had none). */
  leg: string;
  /** Planned a route. */
  ok: boolean;
  /** Planner code ("" when ok): the failure class the history tracks. */
  code: string;
  /** Final tier. */
  tier: number;
  /** Final window kind. */
  kind: string;
  /** Final window cells (0 none). */
  windowCells: number;
  /** Route fingerprint: points, length and drops (a changed route changes it). */
  route: string;
  /** Work counters (name → value; empty when the line had none). */
  counters: Record<string, number>;
  /** Stage times, ms (the plan line's *_ms fields and the "other" sub-stages). */
  timings: Record<string, number>;
}

/** A run to add: the run's facts and its legs. */
export interface NewRun {
  /** ISO time. */
  time: string;
  /** Git commit. */
  commit: string;
  /** Git branch. */
  branch: string;
  /** Fingerprint, or null. */
  machine: MachineFingerprint | null;
  /** Source description. */
  source: string;
  /** Planner profiles of the legs (comma-joined when several). */
  profile: string;
  /** Planner versions of the legs (comma-joined when several). */
  plannerVersion: string;
  /** Pack build hashes of the legs. */
  packHashes: string[];
  /** The legs. */
  legs: HistoryLeg[];
}

/** A run to add from plan records (battery = the plan line's source field). */
export function newRunOf(
  records: ReadonlyArray<{ record: PlanRecord; battery: string }>,
  facts: Pick<NewRun, "time" | "commit" | "branch" | "machine" | "source">,
): NewRun {
  const profiles = new Set<string>(), versions = new Set<string>(), packs = new Set<string>();
  for (const { record: r } of records) {
    profiles.add(r.profile ?? "spec");
    versions.add(r.version);
    if (r.packHash) packs.add(r.packHash);
  }
  return {
    ...facts,
    profile: [...profiles].sort().join(",") || "spec",
    plannerVersion: [...versions].sort().join(","),
    packHashes: [...packs].sort(),
    legs: records.map(({ record, battery }) => historyLegOf(record, battery)),
  };
}

/** The stored form of a plan record's leg. */
export function historyLegOf(r: PlanRecord, battery: string): HistoryLeg {
  const timings: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.timing)) timings[k] = v;
  if (r.otherTiming) {
    for (const [k, v] of Object.entries(r.otherTiming)) timings[`other.${k}`] = v as number;
  }
  return {
    battery,
    leg: r.leg || `${r.zone}@${r.start.join(",")}→${r.goal.join(",")}`,
    ok: r.ok,
    code: r.ok ? "" : r.code,
    tier: r.tier,
    kind: r.kind,
    windowCells: r.window?.cells ?? 0,
    route: r.ok ? `${r.points}:${r.length.toFixed(3)}:${r.drops}` : "",
    counters: r.counters ? { ...r.counters } : {},
    timings,
  };
}

/** An open history store. Close it when done. */
export class HistoryStore {
  /** The SQLite handle. */
  readonly db: DatabaseSync;
  /** The file. */
  readonly path: string;

  private constructor(db: DatabaseSync, path: string) {
    this.db = db;
    this.path = path;
  }

  /**
   * Opens (creating when missing) and migrates a store. Throws `bad_version` for a store of a
   * newer schema, `bad_value` for a file that is not a navscope store, `io` when unreadable.
   */
  static open(path: string, opts: { busyTimeoutMs?: number } = {}): HistoryStore {
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path);
      db.exec(`PRAGMA busy_timeout = ${Math.floor(opts.busyTimeoutMs ?? 30000)}`);
      db.exec("PRAGMA journal_mode = WAL");
    } catch (e) {
      throw new NavscopeError("io", `cannot open the history store: ${(e as Error).message}`, {
        file: path,
      }, "an SQLite file navscope history wrote (or a new path)");
    }
    const store = new HistoryStore(db, path);
    try {
      store.migrate();
    } catch (e) {
      db.close();
      throw e;
    }
    return store;
  }

  private version(): number {
    return Number(
      (this.db.prepare("PRAGMA user_version").get() as { user_version: number })
        .user_version,
    );
  }

  private migrate(): void {
    let v = this.version();
    if (v > HISTORY_SCHEMA_VERSION) {
      throw new NavscopeError(
        "bad_version",
        `the history store has schema version ${v}, newer than this navscope's ${HISTORY_SCHEMA_VERSION}`,
        { file: this.path },
        "a store written by this or an older navscope (upgrade navscope to read it)",
      );
    }
    if (v === 0) {
      const tables = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      if (tables.length > 0) {
        throw new NavscopeError("bad_value", "not a navscope history store", {
          file: this.path,
        }, "an SQLite file with user_version ≥ 1 and a meta table");
      }
    }
    while (v < HISTORY_SCHEMA_VERSION) {
      this.write(() => {
        // Re-read under the write lock: another writer may have migrated meanwhile.
        const now = this.version();
        if (now !== v) return;
        this.db.exec(MIGRATIONS[v]);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
        this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)")
          .run(String(v + 1));
      });
      v = this.version();
    }
  }

  /** Runs fn in one BEGIN IMMEDIATE … COMMIT transaction (ROLLBACK when it throws). */
  write<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const out = fn();
      this.db.exec("COMMIT");
      return out;
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Adds one run and its legs in one transaction; returns the run id. */
  addRun(run: NewRun, hooks: { afterLeg?: (i: number) => void } = {}): number {
    if (run.legs.length === 0) {
      throw new NavscopeError("bad_value", "the run has no plan lines", { file: run.source });
    }
    const batteries = new Set<string>();
    for (const l of run.legs) batteries.add(l.battery);
    return this.write(() => {
      const res = this.db.prepare(
        `INSERT INTO runs (time, commit_hash, branch, machine_id, machine, profile,
           planner_version, pack_hashes, batteries, source, legs)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        run.time,
        run.commit,
        run.branch,
        run.machine?.id ?? "",
        JSON.stringify(run.machine),
        run.profile,
        run.plannerVersion,
        JSON.stringify(run.packHashes),
        JSON.stringify([...batteries].sort()),
        run.source,
        run.legs.length,
      );
      const id = Number(res.lastInsertRowid);
      const ins = this.db.prepare(
        `INSERT OR REPLACE INTO legs (run_id, battery, leg, ok, code, tier, kind, window_cells,
           route, counters, timings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      run.legs.forEach((l, i) => {
        ins.run(
          id,
          l.battery,
          l.leg,
          l.ok ? 1 : 0,
          l.code,
          l.tier,
          l.kind,
          l.windowCells,
          l.route,
          JSON.stringify(l.counters),
          JSON.stringify(l.timings),
        );
        hooks.afterLeg?.(i);
      });
      return id;
    });
  }

  /** Every run, oldest first. */
  runs(): HistoryRun[] {
    return this.db.prepare("SELECT * FROM runs ORDER BY id").all().map((row) => {
      const r = row as Record<string, string | number>;
      return {
        id: Number(r.id),
        time: String(r.time),
        commit: String(r.commit_hash),
        branch: String(r.branch),
        machineId: String(r.machine_id),
        machine: JSON.parse(String(r.machine)),
        profile: String(r.profile),
        plannerVersion: String(r.planner_version),
        packHashes: JSON.parse(String(r.pack_hashes)),
        batteries: JSON.parse(String(r.batteries)),
        source: String(r.source),
        legs: Number(r.legs),
      };
    });
  }

  /** Legs of the store (all, or of one `battery/leg` or bare leg id), by run then leg. */
  legs(filter?: string): Array<HistoryLeg & { runId: number }> {
    let rows;
    if (filter === undefined) {
      rows = this.db.prepare("SELECT * FROM legs ORDER BY run_id, battery, leg").all();
    } else {
      const slash = filter.indexOf("/");
      rows = slash > 0
        ? this.db.prepare(
          "SELECT * FROM legs WHERE battery = ? AND leg = ? ORDER BY run_id",
        ).all(filter.slice(0, slash), filter.slice(slash + 1))
        : this.db.prepare("SELECT * FROM legs WHERE leg = ? ORDER BY run_id, battery").all(
          filter,
        );
    }
    return rows.map((row) => {
      const r = row as Record<string, string | number>;
      return {
        runId: Number(r.run_id),
        battery: String(r.battery),
        leg: String(r.leg),
        ok: Number(r.ok) === 1,
        code: String(r.code),
        tier: Number(r.tier),
        kind: String(r.kind),
        windowCells: Number(r.window_cells),
        route: String(r.route),
        counters: JSON.parse(String(r.counters)),
        timings: JSON.parse(String(r.timings)),
      };
    });
  }

  /** Closes the handle. */
  close(): void {
    this.db.close();
  }
}
