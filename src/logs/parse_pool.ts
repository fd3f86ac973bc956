/**
 * Parse workers for large logs. A file's bytes are cut at line ends into blocks of about
 * {@link BLOCK_BYTES}; each block is decoded and read by a worker in parallel, and the owner
 * absorbs the results strictly in block order ({@link LogLineProcessor.absorb}): events are
 * paired in log order and counts, line numbers and located problems are those of one thread
 * reading the file, for any number of workers.
 * @module
 */
import type { BlockResult, ParseOptions } from "./parser.ts";
import type { SourceRole } from "./bundle.ts";

/** Bytes per block handed to a worker (whole lines; a block ends at an LF). */
export const BLOCK_BYTES = 2 << 20;

/** A block for a worker. */
export interface BlockRequest {
  type: "block";
  id: number;
  file: string;
  role: SourceRole;
  /** The block starts the file (a byte-order mark may lead it). */
  atStart: boolean;
  /** The block ends the file (its last line may lack an LF). */
  last: boolean;
  /** The bytes stopped early (damage): the last line is cut. */
  damaged: boolean;
  bytes: Uint8Array;
  opts: Pick<ParseOptions, "maxLineLength" | "maxProblems" | "include">;
}

/** A worker's answer. */
export type BlockReply =
  | { type: "result"; id: number; result: BlockResult }
  | { type: "error"; id: number; message: string };

/** How many parse workers `opts.workers` asks for on this machine. */
export function parseWorkerCount(opts: ParseOptions): number {
  if (opts.workers !== undefined) return Math.max(0, Math.floor(opts.workers));
  // The owner thread inflates and pairs while the workers read: one worker per core, at most 2.
  const cores = navigator.hardwareConcurrency ?? 1;
  return cores >= 2 ? 2 : 0;
}

/** A pool of parse workers; blocks go to the worker with the fewest in flight. */
export class ParsePool {
  #workers: Worker[] = [];
  #busy: number[] = [];
  #waiting = new Map<number, { resolve(r: BlockResult): void; reject(e: Error): void }>();
  #next = 0;
  #closed = false;

  /** Starts `n` workers (they load the parser while the owner reads the first block). */
  constructor(n: number) {
    for (let i = 0; i < n; i++) {
      const w = new Worker(new URL("./parse_worker.ts", import.meta.url).href, { type: "module" });
      w.onmessage = (ev: MessageEvent<BlockReply>) => this.#reply(i, ev.data);
      w.onerror = (e) => {
        e.preventDefault();
        this.#fail(new Error(`parse worker: ${e.message}`));
      };
      this.#workers.push(w);
      this.#busy.push(0);
    }
  }

  /** Number of workers. */
  get size(): number {
    return this.#workers.length;
  }

  /** Reads one block; the bytes' buffer is transferred (it must not be used afterwards). */
  parse(req: Omit<BlockRequest, "type" | "id">): Promise<BlockResult> {
    if (this.#closed) return Promise.reject(new Error("parse pool closed"));
    const id = this.#next++;
    let wi = 0;
    for (let i = 1; i < this.#busy.length; i++) if (this.#busy[i] < this.#busy[wi]) wi = i;
    this.#busy[wi]++;
    const msg: BlockRequest = { type: "block", id, ...req };
    const p = new Promise<BlockResult>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
    });
    // A reader that stops early never awaits the rest: their failure must not go unhandled.
    p.catch(() => {});
    this.#workers[wi].postMessage(msg, [req.bytes.buffer as ArrayBuffer]);
    return p;
  }

  #reply(wi: number, r: BlockReply): void {
    this.#busy[wi]--;
    const w = this.#waiting.get(r.id);
    if (!w) return;
    this.#waiting.delete(r.id);
    if (r.type === "result") w.resolve(r.result);
    else w.reject(new Error(`parse worker: ${r.message}`));
  }

  #fail(e: Error): void {
    for (const w of this.#waiting.values()) w.reject(e);
    this.#waiting.clear();
  }

  /** Stops the workers (blocks still in flight are dropped). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const w of this.#workers) w.terminate();
    this.#waiting.clear();
  }
}
