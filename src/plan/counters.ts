/**
 * Machine-independent cost metrics of one plan (issue 26) and the breakdown of the "other" time
 * (issue 28). See docs/counters.md for every name.
 *
 * **Work counters** count what each stage did: cells, tiles, records, heap pops, sight checks,
 * chords. They are plain integers added once per call or per loop (no per-node objects), they
 * depend only on the request and the pack — never on the clock, `--workers` or `--jobs` — so a
 * change in them is a change in the planner's work that every machine sees alike (the gate's
 * performance signal, where a timing is only comparable on one machine).
 *
 * **Other sub-stages** time what lies between the spec's six stages (实测 › 分段耗时: 「其余」是
 * 总计减去前六项): the zone lookup, the pre-checks (snapping, no-go, core anchor, region pick, their
 * tile decodes), the occluder scene, the rejected tiers, the fall gate, the router's set-up and
 * result, the post-processing steps outside pull/assemble/lift (heights, drop margin, clearance,
 * waypoints), gap location and the region hop. Each is exclusive of the six stages and of the
 * others, so `total − six − Σ sub-stages` is the unattributed remainder.
 * @module
 */

/**
 * Every work counter: name (`<stage>.<what>`), and what it counts. The order is the writing order
 * of the plan line and the tables; names are stable (metrics `counters.<name>.<stat>`).
 */
export const COUNTERS = [
  ["tiers.tried", "tier-loop rounds started (a window chosen), region-hop plans included"],
  ["tiles.decoded", "grid tiles decoded by the plan (pre-check patches, windows, decode pool)"],
  ["tiles.records", "records in the tiles decoded"],
  ["window.builds", "buildWindow calls (every tier, rejected ones included)"],
  ["window.cells", "cells of the windows built, Σ nx·ny"],
  ["window.records", "records expanded into the windows' record tables"],
  ["window.spans", "spans in the windows' span tables"],
  ["topology.searches", "SpanAstar runs of the baseline and the topology pass"],
  ["topology.pops", "heap pops of those runs (stale entries included)"],
  ["topology.expanded", "spans expanded (closed) by those runs"],
  ["topology.access_pops", "heap pops of the endpoint access and link-chain searches"],
  ["topology.cell_pops", "heap pops of the cell-level CostAstar fallback"],
  ["topology.price_cells", "cells priced for the topology pass (multw)"],
  ["geometry.searches", "Lazy Theta* runs of the geometry pass"],
  ["geometry.pops", "heap pops of those runs (stale entries included)"],
  ["geometry.expanded", "spans expanded (closed) by those runs"],
  ["geometry.sight_checks", "line-of-sight checks on pop (SetVertex)"],
  ["geometry.reparents", "sight checks that failed and looked for a closed neighbour"],
  ["geometry.corridor_cells", "cells scanned for the corridor band (the seeds' widened box)"],
  ["geometry.price_cells", "cells priced for the geometry pass (mult)"],
  ["pull.chords", "chords tested by StringPull"],
  ["lift.corners", "corners visited by LiftCorners"],
  ["lift.candidates", "candidate cells LiftCorners tried"],
  ["gap.pops", "reach-flood steps of the gap location (断开处)"],
] as const;

/** A work counter name. */
export type CounterName = typeof COUNTERS[number][0];

/** The work counters of one plan, by name. */
export type WorkCounters = Record<CounterName, number>;

/** Counter names in writing order. */
export const COUNTER_NAMES: readonly CounterName[] = COUNTERS.map((c) => c[0]);

/** All counters at 0. */
export function emptyCounters(): WorkCounters {
  const c = {} as WorkCounters;
  for (const n of COUNTER_NAMES) c[n] = 0;
  return c;
}

/** Adds `from` into `into` (a nested plan's work into its outer plan). */
export function addCounters(into: WorkCounters, from: WorkCounters): void {
  for (const n of COUNTER_NAMES) into[n] += from[n];
}

/**
 * The spec's six timed stages (实测 › 分段耗时), in writing order: buildWindow of the final tier,
 * the topology pass, the geometry pass, StringPull, assemble, LiftCorners. Every list of stages
 * elsewhere (tables, bars, trace slices, the non-compared timing fields) is built from this one;
 * "other" is the total less these six and is broken down by {@link OTHER_STAGES}.
 */
export const STAGE_NAMES = ["window", "topology", "geometry", "pull", "assemble", "lift"] as const;

/** One of the six timed stages. */
export type StageName = typeof STAGE_NAMES[number];

/**
 * The sub-stages of "other", in writing order, with what each times (ms). Names do not collide
 * with the six stages, "other" or "total" (metrics `timing.<name>.<stat>`).
 */
export const OTHER_STAGES = [
  ["zone", "request check and zone lookup (the zone's load and cleaning on first use)"],
  ["snap", "snapping both endpoints to the mesh (吸附, 起点所在的面)"],
  ["nogo", "author no-go test of the endpoints (端点在虚拟禁区内)"],
  ["core_anchor", "zone-wide core-anchor gate (端点到核心可走区的距离), its tile decodes excluded"],
  ["region_pick", "grid patches, region pick and region box (选类), tile decodes excluded"],
  ["tile_decode", "tiles decoded outside the window builds (pre-checks, region hop)"],
  ["occluders", "occluder scene lookup for ledge drops"],
  ["decode_pool", "starting the tile-decode workers (`--workers` > 1; the engine's first plan)"],
  [
    "window_gate",
    "waiting for the process's window gate (replay workers: large windows one at a time)",
  ],
  ["tier_choice", "tier-loop bookkeeping: choosing the windows, the final judgement"],
  ["rejected_window", "buildWindow of the rejected tiers"],
  ["rejected_search", "routeWindow of the rejected tiers"],
  ["fall_gate", "fall-gate set-up of the final tier's window (台沿下落)"],
  ["route_setup", "router set-up of the final tier: walk mask, usable spans, search buffers"],
  ["heights", "search heights of the final points"],
  ["drop_margin", "ledge drops and their landing margin (落点留余量)"],
  ["clearance", "per-point clearance"],
  ["waypoints", "waypoints (路点): drivability tests"],
  ["route_result", "router result: goal-sealed check, point lists"],
  ["gap", "gap location of a disconnected leg (断开处)"],
  ["region_hop", "region hop off a ledge (台沿下落换类): its nested plans"],
] as const;

/** A sub-stage name of "other". */
export type OtherStageName = typeof OTHER_STAGES[number][0];

/** Sub-stage times of one plan, ms. */
export type OtherTimings = Record<OtherStageName, number>;

/** Sub-stage names in writing order. */
export const OTHER_STAGE_NAMES: readonly OtherStageName[] = OTHER_STAGES.map((s) => s[0]);

/** All sub-stages at 0 ms. */
export function emptyOtherTimings(): OtherTimings {
  const t = {} as OtherTimings;
  for (const n of OTHER_STAGE_NAMES) t[n] = 0;
  return t;
}

/** Σ of the sub-stage times, ms. */
export function otherAttributed(t: OtherTimings): number {
  let s = 0;
  for (const n of OTHER_STAGE_NAMES) s += t[n];
  return s;
}
