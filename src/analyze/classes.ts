/**
 * Failure classes and the facts a classification rule looks at.
 *
 * A failure is reduced to a few facts (error text, codes, route status, whether the leg declared
 * a goal deck and whether a gap was located) so that one rule set serves both navscope's own plan
 * lines and the real planner's navigator lines (maaend-runlogs.md §1.3, §2, §3).
 * @module
 */
import { FAULT_CODES, LEG_FAILURE_CODES } from "../plan/types.ts";

/**
 * The built-in failure classes: the planner's codes (src/plan/types.ts) and the expander's and
 * navigator's classes no plan code names (maaend-runlogs.md §2, §3). The first fifteen (the leg
 * failures, `empty_route` and three data failures) are required by the issue. User rules may add
 * more.
 */
export const FAILURE_CLASSES = [
  ...LEG_FAILURE_CODES,
  "empty_route",
  ...FAULT_CODES,
  "blind_fallback_failed",
  "unknown_target_tier",
  "unclassified",
] as const;

/** One built-in class name. */
export type FailureClass = typeof FAILURE_CLASSES[number];

/** The catch-all class for failures no rule matched. */
export const UNCLASSIFIED = "unclassified";

/**
 * What a rule can see about one failure. Strings are "" when the log did not say.
 * `deckDeclared`/`gapPresent` feed the expander's deck-leg rule (spec 失败的情形, 展开器的处理).
 */
export interface FailureFacts {
  /** The planner/navigator error text (`result.error`, `plan.error`, `route_error`…). */
  message: string;
  /** A machine code if the line carries one (navscope plan code or expander failure code). */
  code: string;
  /** Route status (`unreachable`, `zone_not_found`, `no_go`…). */
  status: string;
  /** The navigator message the line carries, e.g. `RECAST plan failed.`. */
  event: string;
  /** Log level (`ERR`, `WRN`…). */
  level: string;
  /** Zone name. */
  zone: string;
  /** True when the leg declared a goal deck (`goal_deck_y` / `target_deck_y`). */
  deckDeclared: boolean;
  /** True when both gap ends were located (`gap_start` and `gap_goal`). */
  gapPresent: boolean;
}

/** Facts with every field empty; spread it and fill what is known. */
export const EMPTY_FACTS: FailureFacts = {
  message: "",
  code: "",
  status: "",
  event: "",
  level: "",
  zone: "",
  deckDeclared: false,
  gapPresent: false,
};
