/**
 * The embedded examples the workflows default to (examples/): the five example worlds, each a
 * legs.json battery on the base.nav.gz beside it, and the committed nightly baseline. Absolute
 * paths; the commands show them relative to the working directory.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The examples folder (absolute). */
export const EXAMPLES: string = fileURLToPath(new URL("../../examples/", import.meta.url));

/** The example worlds, in order: the five the nightly gate and the demo plan. */
export const EXAMPLE_WORLDS: readonly string[] = [
  "city_small",
  "dungeon",
  "nav_test",
  "proto_level",
  "tower_big",
];

/** The example batteries' legs.json files (absolute), in order. */
export const DEFAULT_BATTERIES: readonly string[] = EXAMPLE_WORLDS.map((d) =>
  join(EXAMPLES, d, "legs.json")
);

/** The committed baseline folder (absolute). */
export const DEFAULT_BASELINE: string = join(EXAMPLES, "baseline");

/** A path under examples/ (absolute). */
export function examplePath(rel: string): string {
  return join(EXAMPLES, rel);
}
