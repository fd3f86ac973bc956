/**
 * Test hook, not a feature: `NAVSCOPE_TEST_SLOW_WINDOW_MS=N` makes every window build busy-wait
 * N ms, so the `nightly --ab` tests (tests/ab_test.ts) can inject a known slowdown into one
 * version without patching its code (docs/gate.md "Test hook"). Unset (always, outside those
 * tests) it costs one branch per window build; routes never depend on it.
 * @module
 */

/** The slowdown read once per process from the environment (0 when unset or not permitted). */
export const TEST_SLOW_WINDOW_MS: number = (() => {
  try {
    const v = Number(Deno.env.get("NAVSCOPE_TEST_SLOW_WINDOW_MS") ?? "0");
    return Number.isFinite(v) && v > 0 ? v : 0;
  } catch {
    return 0; // no --allow-env: the hook is off
  }
})();

/** Busy-waits {@link TEST_SLOW_WINDOW_MS} ms (nothing when the hook is off). */
export function testSlowWindow(): void {
  if (TEST_SLOW_WINDOW_MS === 0) return;
  const end = performance.now() + TEST_SLOW_WINDOW_MS;
  while (performance.now() < end) { /* busy-wait: the hook simulates planner work */ }
}
