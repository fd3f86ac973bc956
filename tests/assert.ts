/**
 * Minimal assertions (JSR's @std/assert is unreachable here). Deep equality covers typed arrays,
 * Maps, bigints and plain objects.
 * @module
 */
import { isDeepStrictEqual } from "node:util";

/** Throws unless `actual` deep-equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Error(
      `${msg ? msg + ": " : ""}values differ\n  actual:   ${show(actual)}\n  expected: ${
        show(expected)
      }`,
    );
  }
}

/** Throws unless `cond` is truthy. */
export function assert(cond: unknown, msg = "assertion failed"): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Throws unless `fn` throws; returns the error. Optionally checks its class. */
export function assertThrows(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  cls?: new (...args: any[]) => Error,
): Error {
  try {
    fn();
  } catch (e) {
    if (cls && !(e instanceof cls)) {
      throw new Error(`expected ${cls.name}, got ${(e as Error)?.constructor?.name}: ${e}`);
    }
    return e as Error;
  }
  throw new Error("expected the function to throw");
}

/** Awaits `p` and returns the rejection; throws if it resolves. */
export async function assertRejects(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the promise to reject");
}

/** Numbers within `eps`. */
export function assertAlmostEquals(a: number, b: number, eps = 1e-9, msg?: string): void {
  if (!(Math.abs(a - b) <= eps)) throw new Error(`${msg ?? ""} ${a} != ${b} (±${eps})`);
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x))?.slice(0, 400) ??
      String(v);
  } catch {
    return String(v);
  }
}
