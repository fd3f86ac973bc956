/**
 * One fuzz input, in-process: mutate seed `(target, seed, k)` and classify what the reader did.
 * Shared by the worker (testing/fuzz/worker.ts) and `--repro`.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { FuzzRng, hash32, type Mutation } from "./mutate.ts";
import type { FuzzTarget } from "./targets.ts";

/** What happened to one input. */
export type FuzzOutcome = "refused" | "accepted" | "invalid" | "crash" | "unlocated";

/** One input's result. */
export interface FuzzResult {
  /** Target name. */
  target: string;
  /** Input index within the target. */
  index: number;
  /** Seed name. */
  seed: string;
  /** Mutation operator and note. */
  op: string;
  /** Operator note. */
  note: string;
  /** Outcome class. */
  outcome: FuzzOutcome;
  /** Error message, invalid reasons or stack (first 300 characters). */
  detail: string;
}

/** The mutation of input `index` of `target` under run seed `runSeed`. */
export function mutationOf(t: FuzzTarget, runSeed: number, index: number): {
  seed: FuzzTarget["seeds"][number];
  m: Mutation;
} {
  const rng = new FuzzRng(hash32(`${t.name}/${runSeed}/${index}`));
  const seed = rng.pick(t.seeds);
  return { seed, m: t.mutate(rng, seed) };
}

/**
 * Runs one input. A NavscopeError is a refusal (`unlocated` when its message does not name
 * the input); anything else thrown is a crash; an accepted input with invalid content is
 * `invalid`.
 */
export async function runOne(t: FuzzTarget, runSeed: number, index: number): Promise<FuzzResult> {
  let seedName = "?", op = "?", note = "";
  try {
    const { seed, m } = mutationOf(t, runSeed, index);
    seedName = seed.name;
    op = m.op;
    note = m.note;
    const invalid = await t.check(seed, m.bytes);
    const outcome = invalid.length ? "invalid" : "accepted";
    return res(outcome, invalid.slice(0, 3).join("; "));
  } catch (e) {
    if (e instanceof NavscopeError) {
      const located = seedName === "?" || e.message.includes(seedName.split("/").pop()!);
      return res(located ? "refused" : "unlocated", e.message);
    }
    const err = e as Error;
    return res("crash", `${err?.name}: ${err?.message} @ ${(err?.stack ?? "").split("\n")[1]}`);
  }
  function res(outcome: FuzzOutcome, detail: string): FuzzResult {
    return {
      target: t.name,
      index,
      seed: seedName,
      op,
      note,
      outcome,
      detail: detail.slice(0, 300),
    };
  }
}
