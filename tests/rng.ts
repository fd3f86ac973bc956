/** Seeded PRNG for property tests; the one implementation lives in src/rng.ts. */
export { mulberry32 } from "../src/rng.ts";
