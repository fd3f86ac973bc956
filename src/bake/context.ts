/**
 * The bake context (Recast's `rcContext`): one object that times every stage of a world bake, so
 * the bake report's per-stage times (`BakeReport.times`, `navscope bake`'s "stage times" table)
 * come from one place. A stage timed twice (once per zone) accumulates; stages appear in the
 * order they first ran. Tile stages measured inside workers are added with {@link BakeContext.add}
 * under a `grid.` prefix.
 * @module
 */

/** Times the stages of one bake (milliseconds, `performance.now()`). */
export class BakeContext {
  /** Milliseconds per stage, in the order the stages first ran. */
  readonly times: Record<string, number> = {};

  /** Adds `ms` to stage `name`. */
  add(name: string, ms: number): void {
    this.times[name] = (this.times[name] ?? 0) + ms;
  }

  /** Adds every entry of `times` to the stage of the same name after `prefix`. */
  addAll(prefix: string, times: Readonly<Record<string, number>>): void {
    for (const [k, v] of Object.entries(times)) this.add(`${prefix}${k}`, v);
  }

  /** Runs `fn` as stage `name` (the time is recorded when it returns, not when it throws). */
  time<T>(name: string, fn: () => T): T {
    const t0 = performance.now();
    const r = fn();
    this.add(name, performance.now() - t0);
    return r;
  }

  /** Awaits `fn` as stage `name` (the time is recorded when it resolves). */
  async timeAsync<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const r = await fn();
    this.add(name, performance.now() - t0);
    return r;
  }
}
