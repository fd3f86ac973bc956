/**
 * Pack sets: the files that go together and the engine's load rules. `pairSidecars` /
 * `sidecarStatus` find a main pack's sidecar, occluder pack and no-go table (pairing.ts — the one
 * pairing rule of the project); `checkNoGoAgainstPack` / `checkOccluderAgainstPack` bind a no-go
 * table or occluder pack to a main pack (binding.ts); `inspectPackSet` checks a whole set the way
 * the engine loads it, for `navscope inspect` (pack_set.ts).
 * @module
 */
export * from "./pairing.ts";
export * from "./binding.ts";
export * from "./pack_set.ts";
