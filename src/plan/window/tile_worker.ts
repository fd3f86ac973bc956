/**
 * Entry of a tile-decode worker (src/plan/window/tile_decode.ts): parses the grid section and the
 * sidecar once, then decodes and merges tiles on request.
 * @module
 */
import { serveTiles } from "./tile_decode.ts";

// deno-lint-ignore no-explicit-any
serveTiles(self as any);
