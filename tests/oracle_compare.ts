/**
 * Test helper (not a test): plans an oracle set (tests/fixtures/oracle*, vendored C++ output) under
 * a planner profile and compares every leg field by field with the reference. Used by
 * tests/plan_profiles_test.ts (through tests/oracle_worker.ts) and tests/oracle_diffs.ts.
 * @module
 */
import { gunzipSync } from "node:zlib";
import { type Engine, openEngine } from "../src/plan/engine.ts";
import { legRequest } from "../src/plan/battery.ts";
import { parseLegs } from "../src/legs/format.ts";
import type { PlanProfile } from "../src/plan/profile.ts";
import type { PlanResult } from "../src/plan/types.ts";

/** One reference row (the fields compared). */
export interface RefRow {
  id: string;
  ok: boolean;
  ref_class: string;
  error: string;
  tier: number;
  tier_notes: string[];
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  snap_start: number;
  snap_goal: number;
  comparable: boolean;
  why_not?: string;
  warnings: string[];
  debug_warnings: string[];
  n_topology_cells: number;
  taut_points: [number, number][];
  pulled_points: [number, number][];
  assembled_points: [number, number][];
  points: [number, number][];
  clearance: number[];
  waypoints: number[];
  length: number;
}

/** The compared fields, in report order. */
export const FIELDS = [
  "outcome",
  "tier",
  "snap",
  "notes",
  "window",
  "warnings",
  "topology",
  "taut",
  "pulled",
  "assembled",
  "points",
  "clearance",
  "waypoints",
  "length",
] as const;
/** A compared field. */
export type Field = typeof FIELDS[number];

/** A set's legs and reference rows, with the engine to plan them on. */
export interface OracleSet {
  /** Label, e.g. `v2/nav_test/random`. */
  name: string;
  /** Legs as plan requests (overrides removed: the C++ build has none). */
  legs: { id: string; req: ReturnType<typeof legRequest> }[];
  /** Reference rows in leg order. */
  refs: RefRow[];
  /** The engine on the set's packs. */
  engine: Engine;
}

const engines = new Map<string, Promise<Engine>>();

/**
 * A reference file's text: `FILE`, else `FILE.gz` (city_small's reference files are vendored
 * gzipped: 2.7 MB each as text, 0.4 MB gzipped).
 */
async function readReference(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return new TextDecoder().decode(gunzipSync(await Deno.readFile(file + ".gz")));
  }
}

/** Opens (once per pack, shared by every test of the process) the set `set` of `dir`. */
export async function loadSet(
  dir: string,
  name: string,
  legsFile = "legs.json",
  refFile = "reference.jsonl",
): Promise<OracleSet> {
  const legs = parseLegs(await Deno.readTextFile(dir + legsFile), dir + legsFile);
  const refs: RefRow[] = (await readReference(dir + refFile)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  if (refs.length !== legs.length) throw new Error(`${name}: ${refs.length} rows ≠ legs`);
  const pack = dir.replace(/(random2?|released)\/$/, "") + "base.nav.gz";
  if (!engines.has(pack)) engines.set(pack, openEngine(pack));
  return {
    name,
    legs: legs.map((l, i) => {
      if (refs[i].id !== l.id) throw new Error(`${name}: row ${i} is ${refs[i].id} ≠ ${l.id}`);
      const req = legRequest(l);
      return { id: l.id, req };
    }),
    refs,
    engine: await engines.get(pack)!,
  };
}

const near = (a: readonly number[][], b: readonly number[][]) =>
  a.length === b.length &&
  a.every((p, k) => Math.abs(p[0] - b[k][0]) <= 1e-6 && Math.abs(p[1] - b[k][1]) <= 1e-6);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields in which result `r` differs from reference row `ref` (empty: equal). */
export function differingFields(r: PlanResult, ref: RefRow): Field[] {
  const d = r.debug, out: Field[] = [];
  const cls = r.ok ? "ok" : r.error;
  // `unclassified`: the oracle's message → class mapping did not know the C++ message (e.g.
  // 区没有预烘格图 of a tier zone); the messages themselves are compared then.
  const sameClass = ref.ref_class === "unclassified"
    ? !r.ok && r.message === ref.error
    : cls === ref.ref_class;
  // A failure also carries the C++ message verbatim (gap distances included).
  if (!sameClass || r.ok !== ref.ok || (!ref.ok && r.message !== ref.error)) out.push("outcome");
  const built = ref.nx > 0;
  if (built && d.tier !== ref.tier) out.push("tier");
  // The anchor-cell distances of the final window. The C++ build reports them on success only
  // (0 on every failed row of the ten sets); navscope keeps them on failures too (debugging).
  if (ref.ok && (d.snapStart !== ref.snap_start || d.snapGoal !== ref.snap_goal)) {
    out.push("snap");
  }
  if (!same(d.tierNotes, ref.tier_notes)) out.push("notes");
  if (built && !same([d.x0, d.y0, d.nx, d.ny], [ref.x0, ref.y0, ref.nx, ref.ny])) {
    out.push("window");
  }
  // Both lists: the result's (empty on failure) and those recorded during the plan.
  if (!same(r.warnings, ref.warnings) || !same(r.debug.warnings, ref.debug_warnings)) {
    out.push("warnings");
  }
  if (ref.ok) {
    if (d.topologyCells !== ref.n_topology_cells) out.push("topology");
    if (!near(d.tautPoints, ref.taut_points)) out.push("taut");
    if (!near(d.pulledPoints, ref.pulled_points)) out.push("pulled");
    if (!near(d.assembledPoints, ref.assembled_points)) out.push("assembled");
    if (!near(r.points, ref.points)) out.push("points");
    if (
      r.clearance.length !== ref.clearance.length ||
      r.clearance.some((c, k) => Math.abs(c - ref.clearance[k]) > 1e-6)
    ) out.push("clearance");
    if (!same(r.waypoints, ref.waypoints)) out.push("waypoints");
    if (!(Math.abs(r.length - ref.length) <= 1e-6)) out.push("length");
  }
  return out;
}

/** Result of comparing one set under one profile. */
export interface Agreement {
  /** Legs planned. */
  legs: number;
  /** Legs equal in every field. */
  exact: number;
  /** Per field: legs equal in it. */
  fields: Record<Field, number>;
  /** Per differing leg: its differing fields. */
  diffs: Map<string, Field[]>;
}

/**
 * Plans every leg of `set` under `profile` (the legs' test overrides dropped, as the C++ build
 * planned them; `keepOverrides` keeps them) and counts per field the legs equal to the reference.
 * `only` restricts to those leg ids.
 */
export async function agreement(
  set: OracleSet,
  profile: PlanProfile,
  only: ReadonlySet<string> | null = null,
  keepOverrides = false,
): Promise<Agreement> {
  const fields = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  const diffs = new Map<string, Field[]>();
  let legs = 0, exact = 0;
  for (let i = 0; i < set.legs.length; i++) {
    const { id, req } = set.legs[i];
    if (only && !only.has(id)) continue;
    legs++;
    const q = { ...req, profile };
    if (!keepOverrides) delete q.overrides;
    const r = await set.engine.plan(q);
    const bad = differingFields(r, set.refs[i]);
    for (const f of FIELDS) if (!bad.includes(f)) fields[f]++;
    if (bad.length === 0) exact++;
    else diffs.set(id, bad);
  }
  return { legs, exact, fields, diffs };
}

/** One line: `name (profile): exact e/n; outcome a, tier b, …`. */
export function formatAgreement(name: string, profile: string, a: Agreement): string {
  return `${name} (${profile}): every field ${a.exact}/${a.legs}; ` +
    FIELDS.map((f) => `${f} ${a.fields[f]}`).join(", ");
}
