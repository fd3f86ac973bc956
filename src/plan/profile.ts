/**
 * Planner profiles: named sets of behaviour switches, each standing for one change of the
 * specification that the C++ reference build (the golden data of `tests/fixtures/oracle*`)
 * predates. A switch is `true` when the change is applied. `spec` (the default) applies every
 * change — today's planner, routes bit-identical; `reference` applies none — the older build.
 *
 * Every switch is read once per plan (engine, tier loop, route window, post-processing, snap);
 * no stage reads it per node, so `spec` costs nothing over the planner without profiles.
 * See docs/profiles.md for the table with the spec references.
 * @module
 */

import { NavscopeError } from "../errors.ts";

/** The behaviour switches; `true` = the specification's change is applied. */
export interface ProfileSwitches {
  /**
   * #6214 (formulas.md #112, "Ref differs"): Lazy Theta* skips closed spans when relaxing. Off:
   * closed spans are relaxed too (the legs.json `relax_closed` override, per leg, wins).
   */
  skipClosed: boolean;
  /**
   * #6011 (formulas.md #49, "Ref differs"; spec 向下一步): drops beyond kClimb with the kSeamCells
   * look-ahead and the FallGate. Off: RiseOk's rule 1 is `dh < −kClimb → 不通` (9 rules).
   */
  ledgeDrops: boolean;
  /** #6147 (formulas.md #134, 落点留余量, "not in the reference"): move drop landings inward. */
  landingMargin: boolean;
  /**
   * #6219 (spec 放大窗口的原因: "基线和拓扑层提前放弃"): the tentative window's span search stops
   * once a popped f reaches the ellipse bound (tier note `walk 断开`). Off: the search runs to
   * the end and the bound check after it decides (tier note of the search edge).
   */
  earlyAbandon: boolean;
  /** #6205 (spec 起点所在的面; formulas.md #64 deck key): honour a declared start deck. */
  startDeck: boolean;
  /** #5566 (spec 作者禁区): the author no-go table (`*.nogo.json`). */
  authorNoGo: boolean;
  /** #5576 (spec 运行时禁区): runtime no-go discs of the request. */
  runtimeDiscs: boolean;
  /** #6227 (spec 台沿下落换类): the ledge-drop region hop after a cross-region failure. */
  regionHop: boolean;
  /**
   * formulas.md #111 ("Ref differs"): no Lazy Theta* chord from a span reached by a drop. Off:
   * only link arrivals block the chord.
   */
  chordDropExclusion: boolean;
  /**
   * formulas.md #64 ("Ref differs", spec 吸附 › 比较键): the snap keys `(dist, −H, island, tri)`
   * and `([out], dist, |H−f|, island)`. Off: the older `(island, dist, −H, tri)` and
   * `([out], island, dist, |H−f|)`.
   */
  snapKeys: boolean;
  /**
   * Spec 拉直的输入, third kind (a cell-level baseline, no topology path): the pull checks only the
   * blocker segments. Off: the reference build's pull, found from the golden data (no "Ref
   * differs" note): the chord must also stay on the route mask tm, as for the parent chain.
   */
  cellPullBlockersOnly: boolean;
  /**
   * 9839304 (叠层处重规划起点层与下落判定; spec 路点 step 1–2): without line heights (逐点高度 ›
   * 沿线推算的高度 failed) PullWaypoints anchors at the search heights when they are complete,
   * else gives no waypoints. Off: the reference build walks unanchored then, search heights or
   * not (no start height, the first sample takes the lowest triangle; formulas.md #138: a seed
   * "when the route has line heights"; nav_test released rnd_035). With line
   * heights both builds anchor each walk at the current waypoint's line height: the reference
   * lacks the heights only in its output (formulas.md "Missing from the reference entirely: …
   * drops/heights output"; nav_test random2 rnd_070 keeps waypoint 5 only so).
   */
  waypointStartHeight: boolean;
  /**
   * 9839304 (叠层处重规划起点层与下落判定: "声明了终点面时,起点先按终点那一类筛三角"; spec 起点所在的面
   * step 2): with a goal deck, the start snaps only to triangles whose seed cell holds a span of
   * the goal's region. Off: the start snaps with the floor keys as usual.
   */
  startByGoalRegion: boolean;
  /**
   * Spec 拉直的输入 › 路线掩膜 tm step 2 ("并上两端的端点接入路径"): the access path of an end
   * recomputed to limw (chan0 unreachable, spec 端点接入) joins tm like one to chan0. Off: the
   * reference build, found from the golden data (no "Ref differs" note; proto_level random2
   * rnd_001/050/106): such a path joins limw but not tm.
   */
  limwAccessInRouteMask: boolean;
  /**
   * Spec 路点 step 2 ("每个采样点都要落在区网格的三角形上"; formulas.md #138): a drivability sample
   * stands on the zone triangles that contain it geometrically — within the triangle's planar
   * box (1e-3 px) and the point test's 1e-5 tolerance — ties to the lowest triangle. Off: the
   * reference build's rule (formulas.md #138 "Ref differs"): the candidates its 4-px index
   * offers within 1 px, in its bin order, the point test without a box (a wall face, degenerate
   * in plan, contains points along its line), the first candidate wins ties, and a sample inside
   * the previous sample's triangle keeps its height (nav_test released rnd_035).
   */
  waypointSampleGeometry: boolean;
}

/** Switch names in table order. */
export const SWITCH_NAMES: readonly (keyof ProfileSwitches)[] = [
  "skipClosed",
  "ledgeDrops",
  "landingMargin",
  "earlyAbandon",
  "startDeck",
  "authorNoGo",
  "runtimeDiscs",
  "regionHop",
  "chordDropExclusion",
  "snapKeys",
  "cellPullBlockersOnly",
  "waypointStartHeight",
  "startByGoalRegion",
  "limwAccessInRouteMask",
  "waypointSampleGeometry",
];

/** Per switch: the change it stands for (spec PR / commit and section). */
export const SWITCH_SOURCES: Readonly<Record<keyof ProfileSwitches, string>> = {
  skipClosed: "#6214, formulas.md #112 (Lazy Theta* skips closed spans)",
  ledgeDrops: "#6011, formulas.md #49 (RiseOk rules 1–2: drops beyond kClimb)",
  landingMargin: "#6147, formulas.md #134 (落点留余量)",
  earlyAbandon: "#6219, spec 放大窗口的原因 (baseline/topology early abandon)",
  startDeck: "#6205, spec 起点所在的面 (start_deck_y)",
  authorNoGo: "#5566, spec 作者禁区 (author no-go table)",
  runtimeDiscs: "#5576, spec 运行时禁区 (runtime no-go discs)",
  regionHop: "#6227, spec 台沿下落换类 (ledge-drop region hop)",
  chordDropExclusion: "formulas.md #111 (no chord after a drop)",
  snapKeys: "formulas.md #64 (吸附 comparison keys)",
  cellPullBlockersOnly:
    "spec 拉直的输入, third kind (cell-level pull: blockers only; from the data)",
  waypointStartHeight:
    "9839304, spec 路点 step 1 (no line heights: search heights, else no waypoints)",
  startByGoalRegion: "9839304, spec 起点所在的面 step 2 (start filtered by the goal's region)",
  limwAccessInRouteMask:
    "spec 拉直的输入 › 路线掩膜 tm step 2 (limw-recomputed access paths in tm; from the data)",
  waypointSampleGeometry:
    "spec 路点 step 2, formulas.md #138 (samples on triangles by geometry, not the 4-px index)",
};

/** A resolved profile: its name (as recorded in plan lines) and switches. */
export interface PlanProfile {
  /** `spec`, `reference`, or `BASE:-switch:+switch…` for a custom set. */
  name: string;
  /** The switches. */
  switches: Readonly<ProfileSwitches>;
}

const all = (v: boolean): ProfileSwitches =>
  Object.fromEntries(SWITCH_NAMES.map((k) => [k, v])) as unknown as ProfileSwitches;

/** The specification (default): every change applied. */
export const SPEC_PROFILE: PlanProfile = Object.freeze({
  name: "spec",
  switches: Object.freeze(all(true)),
});

/** The C++ reference build behind the golden data: none of the changes. */
export const REFERENCE_PROFILE: PlanProfile = Object.freeze({
  name: "reference",
  switches: Object.freeze(all(false)),
});

/** The named profiles. */
export const PROFILES: Readonly<Record<string, PlanProfile>> = {
  spec: SPEC_PROFILE,
  reference: REFERENCE_PROFILE,
};

/** The profile called `name`; a NavscopeError (`usage` from the flag, else `bad_value`) for an unknown one. */
export function namedProfile(name: string, where = "--profile"): PlanProfile {
  const p = Object.hasOwn(PROFILES, name) ? PROFILES[name] : undefined;
  if (!p) {
    throw new NavscopeError(
      where === "--profile" ? "usage" : "bad_value",
      `${where}: unknown profile "${name}" (known: ${Object.keys(PROFILES).join(", ")})`,
    );
  }
  return p;
}

/**
 * A profile from a base and switch overrides; the name lists the switches that differ from the
 * base (`spec:-regionHop`), so two runs with the same effective switches share a name.
 */
export function customProfile(
  base: PlanProfile,
  overrides: Partial<ProfileSwitches>,
): PlanProfile {
  const switches = { ...base.switches, ...overrides };
  const diff = SWITCH_NAMES.filter((k) => switches[k] !== base.switches[k])
    .map((k) => (switches[k] ? "+" : "-") + k);
  return {
    name: diff.length ? [base.name, ...diff].join(":") : base.name,
    switches: Object.freeze(switches),
  };
}

/**
 * Parses a profile file: `{"base": "spec" | "reference", "switches": {name: bool, …}}`.
 * Strict: an unknown key, an unknown switch or a non-boolean value is a `bad_value` error
 * naming the file and the key.
 */
export function parseProfileFile(text: string, file: string): PlanProfile {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw new NavscopeError("bad_value", `not JSON (${(e as Error).message})`, { file });
  }
  if (typeof j !== "object" || j === null || Array.isArray(j)) {
    throw new NavscopeError("bad_value", `expected an object {base, switches}`, { file });
  }
  const o = j as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== "base" && k !== "switches") {
      throw new NavscopeError("bad_value", `unknown key "${k}" (base, switches)`, { file });
    }
  }
  const baseName = o.base ?? "spec";
  if (typeof baseName !== "string") {
    throw new NavscopeError("bad_value", `"base" must be a profile name`, { file });
  }
  const base = namedProfile(baseName, `${file}: base`);
  const sw = o.switches ?? {};
  if (typeof sw !== "object" || sw === null || Array.isArray(sw)) {
    throw new NavscopeError("bad_value", `"switches" must be an object`, { file });
  }
  const over: Partial<ProfileSwitches> = {};
  for (const [k, v] of Object.entries(sw)) {
    if (!(SWITCH_NAMES as readonly string[]).includes(k)) {
      throw new NavscopeError(
        "bad_value",
        `switches.${k}: unknown switch (known: ${SWITCH_NAMES.join(", ")})`,
        { file },
      );
    }
    if (typeof v !== "boolean") {
      throw new NavscopeError("bad_value", `switches.${k}: must be true or false`, { file });
    }
    over[k as keyof ProfileSwitches] = v;
  }
  return customProfile(base, over);
}

/** Reads and parses a profile file (see {@link parseProfileFile}). */
export async function loadProfileFile(file: string): Promise<PlanProfile> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    throw new NavscopeError("bad_value", `cannot read (${(e as Error).message})`, { file });
  }
  return parseProfileFile(text, file);
}

/**
 * The profile of `--profile NAME` / `--profile-file FILE` (both: a usage error; neither: null,
 * i.e. the engine's default).
 */
export async function profileFromFlags(
  name: string | undefined,
  file: string | undefined,
): Promise<PlanProfile | null> {
  if (name !== undefined && file !== undefined) {
    throw new NavscopeError("usage", "--profile and --profile-file exclude each other");
  }
  if (file !== undefined) return await loadProfileFile(file);
  if (name !== undefined) return namedProfile(name);
  return null;
}

/** A switch name. */
export type SwitchName = keyof ProfileSwitches;

/**
 * Switch probes (docs/profiles.md "Switch probes"): during one plan, records each switch that is
 * on and at whose site turning it off would have made a different decision (a closed span the
 * #6214 skip passed over that relaxation would have improved, a drop the FallGate let through, a
 * landing the margin moved, snap keys that rank another triangle first, …). A switch never
 * touched cannot change the plan when turned off alone: the plan runs the same steps up to the
 * first touched site, and there is none. Probing only reads: routes are bit-identical with and
 * without it. Some sites over-approximate (touch where the other setting might still agree);
 * none under-approximates — `tests/plan_profiles_test.ts` flips every switch on a sample of legs
 * and checks that every leg a flip changes had that switch touched.
 */
export class SwitchProbe {
  /** The switches touched so far. */
  readonly touched: Set<SwitchName> = new Set();

  /** Records that switch `k`'s other setting would have decided differently here. */
  touch(k: SwitchName): void {
    this.touched.add(k);
  }

  /** True when `k` has been touched (sites stop probing a switch once it is). */
  has(k: SwitchName): boolean {
    return this.touched.has(k);
  }

  /** The touched switches in table order. */
  list(): SwitchName[] {
    return SWITCH_NAMES.filter((k) => this.touched.has(k));
  }
}
