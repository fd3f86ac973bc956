/**
 * Bench helper (not a bench): the planner modules of another checkout, for A/B runs of two
 * checkouts in one sitting (`bench/plan_ab_pass.ts`, `bench/stage_times.ts`,
 * `bench/search_cpu_ab.ts`). Typed as this checkout's: the API is the same.
 * @module
 */

/** A checkout path given on the command line, absolute, without a trailing slash. */
export function checkoutRoot(arg: string | undefined): string {
  return new URL(arg ?? ".", `file://${Deno.cwd()}/`).pathname.replace(/\/$/, "");
}

/** The engine, battery and legs modules of the checkout at `root`. */
export async function checkoutPlanner(root: string): Promise<{
  openEngine: typeof import("../src/plan/engine.ts").openEngine;
  legRequest: typeof import("../src/plan/battery.ts").legRequest;
  parseLegs: typeof import("../src/world/legs.ts").parseLegs;
}> {
  const { openEngine } = await import(
    `${root}/src/plan/engine.ts`
  ) as typeof import("../src/plan/engine.ts");
  const { legRequest } = await import(
    `${root}/src/plan/battery.ts`
  ) as typeof import("../src/plan/battery.ts");
  const { parseLegs } = await import(
    `${root}/src/world/legs.ts`
  ) as typeof import("../src/world/legs.ts");
  return { openEngine, legRequest, parseLegs };
}
