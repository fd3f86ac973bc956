/**
 * The process-wide window gate: in a process whose replay workers plan legs side by side, windows
 * of at least {@link WindowGateShared.minCells} cells run one at a time, and the plan that holds
 * the gate takes its scratch from one arena chunk shared by all the workers.
 *
 * Why (issue 36, docs/memory.md): `replay --jobs 2` of the scale-5 world's failing legs peaked at
 * 11.26 GB, against 7.02 GB for the same legs planned one at a time. Six of those legs end in
 * 94 M-cell full windows; two workers built two of them at once, and each worker's scratch arena
 * kept its largest frame resident after the leg. With the gate the process holds one large
 * window and one large frame at a time; windows below the threshold still run side by side.
 *
 * The gate is held from the first large window of a plan to the plan's end (its gap location and
 * picture run on that window too), and a plan that holds it passes it over its nested plans (the
 * region hop): a worker plans one leg at a time, so "this worker holds the gate" is the whole
 * state. Routes never depend on the gate: it orders plans in time, and every scratch take is
 * filled before it is handed out (scratch.ts). The wait is the plan's `window_gate` sub-stage.
 *
 * State: one Int32 in a SharedArrayBuffer, 0 free and 1 held, taken by compare-and-exchange. A
 * waiter polls every {@link kPollMs} ms on a timer: Deno does not deliver an Atomics.waitAsync
 * wake-up to an otherwise idle event loop, and Atomics.wait would block the worker's messages.
 * Against windows that take seconds to minutes the poll costs nothing.
 * @module
 */

import { scratch } from "../scratch.ts";
import { RESERVE_BYTES_PER_CELL } from "./build_window.ts";
import { kMaxCells } from "./window_tiers.ts";

/** Windows of at least this many cells go through the gate by default (≈ 300 MB at 37 B/cell). */
export const kGateCells = 8 << 20;

/** How often a waiting worker looks at the gate again, ms. */
const kPollMs = 2;

/** What the workers of one process share: made once by the pool, posted to every worker. */
export interface WindowGateShared {
  /** One Int32: 0 free, 1 held. */
  lock: SharedArrayBuffer;
  /** The scratch chunk the holder takes from; null when the box would not reserve one. */
  arena: SharedArrayBuffer | null;
  /** Windows of at least this many cells go through the gate. */
  minCells: number;
}

/**
 * Makes the shared state: the lock and an arena chunk of `arenaBytes` (default: what the window
 * build reserves for the largest window, kMaxCells × RESERVE_BYTES_PER_CELL; reserved address
 * space, not resident: pages become resident where takes fill them). When the box refuses that
 * much the chunk is halved until it is granted or smaller than 256 MB (then null: the holder takes
 * from its own arena).
 */
export function createWindowGateShared(
  minCells = kGateCells,
  arenaBytes = kMaxCells * RESERVE_BYTES_PER_CELL,
): WindowGateShared {
  let arena: SharedArrayBuffer | null = null;
  for (let n = Math.ceil(arenaBytes / 4096) * 4096; n >= 256 << 20 && !arena; n /= 2) {
    try {
      arena = new SharedArrayBuffer(n);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
  return { lock: new SharedArrayBuffer(4), arena, minCells };
}

/** One worker's handle on the gate. */
export class WindowGate {
  readonly #lock: Int32Array;
  #held = false;

  constructor(readonly shared: WindowGateShared) {
    this.#lock = new Int32Array(shared.lock);
  }

  /** Whether this worker holds the gate. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * Before a window of `cells` cells is built: a window at or above the threshold waits for the
   * gate (unless this worker holds it already) and then takes its scratch from the shared chunk.
   * Returns the time waited, ms.
   */
  async enter(cells: number): Promise<number> {
    if (this.#held || cells < this.shared.minCells) return 0;
    const t0 = performance.now();
    while (Atomics.compareExchange(this.#lock, 0, 0, 1) !== 0) {
      await new Promise((r) => setTimeout(r, kPollMs));
    }
    this.#held = true;
    if (this.shared.arena) scratch.adopt(this.shared.arena);
    return performance.now() - t0;
  }

  /** At the end of a plan: gives the gate back (nothing when this worker does not hold it). */
  leave(): void {
    if (!this.#held) return;
    scratch.restore();
    this.#held = false;
    Atomics.store(this.#lock, 0, 0);
  }
}
