/**
 * The A/B timing comparison's report (`nightly --ab REF`, src/jobs/ab.ts; docs/gate.md): what
 * the workflow writes as ab.json and the renderer (reports/ab_markdown.ts) reads.
 * @module
 */
import type { AbStageRow } from "./ab_stats.ts";
import type { MachineFingerprint } from "./machine.ts";

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
  /** Measured rounds (the warm-up passes are not counted). */
  rounds: number;
  /** Warm-up passes each round's processes run first, discarded. */
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
