/**
 * Bench helper (not a bench): the planner modules of another checkout, for A/B runs of two
 * checkouts in one sitting (`bench/plan_ab_pass.ts`, `bench/stage_times.ts`,
 * `bench/search_cpu_ab.ts`, `bench/cpp_ratio.ts --base`). Typed as this checkout's: the API is
 * the same.
 * @module
 */

import type { legRequest as LegRequest } from "../../src/plan/battery.ts";

/** A leg as the checkout's parser gives it (the type legRequest takes). */
type Leg = Parameters<typeof LegRequest>[0];

/**
 * Where a checkout keeps the legs.json parser, newest layout first: older checkouts (c174b6d and
 * before) have it in src/world/legs.ts; later ones in the src/legs/ module.
 */
const LEGS_MODULES = ["src/legs/format.ts", "src/world/legs.ts"];

/** A checkout path given on the command line, absolute, without a trailing slash. */
export function checkoutRoot(arg: string | undefined): string {
  return new URL(arg ?? ".", `file://${Deno.cwd()}/`).pathname.replace(/\/$/, "");
}

/** The engine, battery and legs modules of the checkout at `root`. */
export async function checkoutPlanner(root: string): Promise<{
  openEngine: typeof import("../../src/plan/engine.ts").openEngine;
  legRequest: typeof LegRequest;
  parseLegs: (text: string, file: string) => Leg[];
}> {
  const { openEngine } = await import(
    `${root}/src/plan/engine.ts`
  ) as typeof import("../../src/plan/engine.ts");
  const { legRequest } = await import(
    `${root}/src/plan/battery.ts`
  ) as typeof import("../../src/plan/battery.ts");
  return { openEngine, legRequest, parseLegs: await legsParser(root) };
}

/** parseLegs of the checkout at `root`, from the first of LEGS_MODULES that exports it. */
async function legsParser(root: string): Promise<(text: string, file: string) => Leg[]> {
  for (const rel of LEGS_MODULES) {
    try {
      await Deno.stat(`${root}/${rel}`);
    } catch {
      continue;
    }
    const m = await import(`${root}/${rel}`) as { parseLegs?: (t: string, f: string) => Leg[] };
    if (typeof m.parseLegs === "function") return m.parseLegs;
  }
  throw new Error(`${root}: no parseLegs in any of ${LEGS_MODULES.join(", ")}`);
}
