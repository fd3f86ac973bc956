/**
 * The planner's public face (spec 输入与输出): open an engine on a main pack, plan legs, warm zones,
 * ask regionsNear; plus the window-tier formulas and the battery request helper.
 * @module
 */
export {
  Engine,
  type EngineInfo,
  type EngineOptions,
  openEngine,
  type PlanCallOptions,
} from "./engine.ts";
export * from "./types.ts";
export * from "./counters.ts";
export { legRequest } from "./battery.ts";
export {
  allowedCost,
  type CellRect,
  chooseWindow,
  ellipseRect,
  kCostSlack,
  kFieldHalo,
  kLocalMaxCells,
  kMaxCells,
  kRatio0,
  kRatioStep,
  kTrustMargin,
  legCells,
  type LegGeometry,
  regionRect,
  type TierWindow,
  trustLimit,
  trustLimit2,
} from "./window/window_tiers.ts";
export { buildWindow, type BuildWindowInput, type WindowGrid } from "./window/build_window.ts";
export { PlanContext } from "./context.ts";
export {
  Flood,
  kPictureBudget,
  legPicture,
  PictureCell,
  StepBlock,
} from "./diagnostics/picture.ts";
export { ALIGN, MIN_BYTES, MIN_CHUNK, scratch, ScratchArena } from "./scratch.ts";
export {
  customProfile,
  loadProfileFile,
  namedProfile,
  parseProfileFile,
  type PlanProfile,
  profileFromFlags,
  PROFILES,
  type ProfileSwitches,
  REFERENCE_PROFILE,
  SPEC_PROFILE,
  SWITCH_NAMES,
  SWITCH_SOURCES,
  type SwitchName,
  SwitchProbe,
} from "./profile.ts";
