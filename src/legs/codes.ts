/**
 * The planner's failure codes, listed once (spec 失败的情形): the codes a plan fails with
 * (src/plan/types.ts), the outcomes a leg battery may expect (src/legs/format.ts) and the failure
 * classes of `classify` (src/analyze/classes.ts) are all built from these lists, so a plan's code
 * is its class. They sit with the leg format, below the planner, because both the planner and the
 * world generator's batteries name them.
 * @module
 */

/**
 * Failure codes of a leg itself (spec 失败的情形): the outcomes a correct planner gives on a
 * correct pack, so a leg battery may expect them (`legs.json` `expected`).
 */
export const LEG_FAILURE_CODES = [
  "no_go",
  "target_deck_unreachable",
  "route_disconnected",
  "goal_outside_reach",
  "seed_outside_window",
  "no_same_region_span",
  "endpoint_far_from_core",
  "snap_far_from_mesh",
  "region_too_large",
  "cancelled",
  "zone_not_found",
] as const;

/**
 * Failure codes that are not about the leg: broken or mismatched data (pack, sidecar, rules,
 * grid) and internal planner states no correct pack reaches, so no battery expects them.
 */
export const FAULT_CODES = [
  "sidecar_unreadable",
  "rules_mismatch",
  "grid_decode_failed",
  "pack_load_failed",
  "no_walkable_voxel",
  "region_empty",
  "walk_mask_empty",
  "route_failed",
] as const;

/**
 * Every plan failure code, listed once here: the failure class names of `classify` and
 * `legs.json` (src/analyze/classes.ts builds its classes from them), so a plan's code is its class.
 */
export const PLAN_ERROR_CODES = [...LEG_FAILURE_CODES, ...FAULT_CODES] as const;

/** Stable machine code of a plan failure (one of {@link PLAN_ERROR_CODES}). */
export type PlanErrorCode = typeof PLAN_ERROR_CODES[number];
