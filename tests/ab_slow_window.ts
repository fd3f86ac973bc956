/**
 * Test helper (not a test): the A/B driver's preload (`abCompare({ preload })`) that makes every
 * window build of one side busy-wait {@link SLOW_WINDOW_MS} ms, through the engine's
 * `afterWindowBuild` instrumentation: a known slowdown injected by the test, with no hook read on
 * the planner's path.
 * @module
 */

/** The injected slowdown per window build, ms: several times a nav_test window on a loaded box. */
export const SLOW_WINDOW_MS = 500;

/** The side's mod.ts API as the driver uses it. */
interface DriverApi {
  openEngine(pack: string, opts?: Record<string, unknown>): Promise<unknown>;
  [k: string]: unknown;
}

/** Wraps the side's `openEngine` so each engine busy-waits after every window build. */
export default function slowWindow(m: DriverApi): DriverApi {
  const busy = () => {
    const end = performance.now() + SLOW_WINDOW_MS;
    while (performance.now() < end) { /* busy-wait: the injected work */ }
  };
  return {
    ...m,
    openEngine: (pack: string, opts: Record<string, unknown> = {}) =>
      m.openEngine(pack, { ...opts, afterWindowBuild: busy }),
  };
}
