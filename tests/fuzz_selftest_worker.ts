/** A fuzz worker serving the made-up targets of tests/fuzz_selftest_targets.ts. */
import { serveFuzzWorker } from "../testing/fuzz/worker_serve.ts";
import { SELFTEST_TARGETS } from "./fuzz_selftest_targets.ts";

serveFuzzWorker((name) => Promise.resolve(SELFTEST_TARGETS[name]));
