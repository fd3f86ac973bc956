/**
 * The fuzz worker of `deno task fuzz`: serves the real targets (testing/fuzz/targets.ts).
 * @module
 */
import { loadTargets } from "./targets.ts";
import { serveFuzzWorker } from "./worker_serve.ts";

serveFuzzWorker(async (name, scratch) => (await loadTargets([name], scratch))[0]);
