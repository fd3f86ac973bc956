/**
 * Made-up fuzz targets for tests/fuzz_test.ts: one hangs, one crashes, one accepts invalid
 * content, one refuses everything — on inputs picked by the seeded mutation (byte 0), so the
 * test can predict which indices must be found.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import type { FuzzTarget } from "../testing/fuzz/targets.ts";

function target(name: string, check: (b: number) => string[]): FuzzTarget {
  return {
    name,
    seeds: [{ name: `${name}.bin`, bytes: new Uint8Array([1]), ctx: {} }],
    mutate: (rng) => ({ bytes: new Uint8Array([rng.int(4)]), op: "pick", note: "" }),
    check: (_s, b) => check(b[0]),
  };
}

const refuse = (name: string): never => {
  throw new NavscopeError("bad_value", "refused", { file: `${name}.bin` });
};

/** The made-up targets by name; each misbehaves when byte 0 is 0. */
export const SELFTEST_TARGETS: Record<string, FuzzTarget> = {
  hang: target("hang", (b) => {
    if (b === 0) { for (;;) { /* a reader stuck in a loop */ } }
    return refuse("hang");
  }),
  crash: target("crash", (b) => {
    if (b === 0) throw new TypeError("x is undefined");
    return refuse("crash");
  }),
  invalid: target("invalid", (b) => b === 0 ? ["NaN accepted"] : refuse("invalid")),
  clean: target("clean", () => refuse("clean")),
};
