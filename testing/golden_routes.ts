/**
 * Where the frozen golden-route worlds live: the C++ reference build's packs, legs and routes
 * vendored under `tests/fixtures/oracle/` (v1) and `tests/fixtures/oracle-v2/` (the current
 * packs). Tests open them by their own relative paths; benchmarks reach them through here, so
 * that nothing in `bench/` names `tests/` (tests/architecture_test.ts).
 * @module
 */
import { fileURLToPath } from "node:url";

/** The golden-route sets: v1 (the older packs) and v2 (the current ones). */
export type GoldenSet = "oracle" | "oracle-v2";

/** Absolute path of one golden-route world's folder, with a trailing slash. */
export function goldenRouteDir(world: string, set: GoldenSet = "oracle"): string {
  return fileURLToPath(new URL(`../tests/fixtures/${set}/${world}/`, import.meta.url));
}
