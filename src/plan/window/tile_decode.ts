/**
 * Step 3 of buildWindow (spec 建窗 › 解码瓦片): one tile decoded with its FSPN columns merged
 * (clearance may only shrink) and FOPN applied after the sealed clearance, and the pool that
 * decodes a window's tiles in parallel (≤ 4 Deno workers). Workers take tiles from one shared
 * queue, largest first (#6219); results are stored by tile index, so what buildWindow assembles
 * never depends on the number of workers or on which worker ran a tile.
 * @module
 */

import { NavscopeError } from "../../errors.ts";
import { type BgrdSection, parseBgrd } from "../../pack/bgrd/section.ts";
import { openSidecar, readFieldsTile, type SidecarPack } from "../../pack/bnvf/sidecar.ts";
import { applyOpenCells, mergeFields } from "../../pack/bnvf/merge.ts";
import type { SpanColumns } from "../../pack/grid_types.ts";
import { decodeTileChecked } from "./grid_access.ts";
import { PlanFailure } from "../types.ts";

/** Upper bound of decode workers (spec: ≤ 4). */
export const kMaxDecodeWorkers = 4;

/** A decoded, merged tile: the records plus the merged sidecar columns. */
export interface DecodedTile {
  /** Records (clr already sealed, FOPN applied). */
  cols: SpanColumns;
  /** Re-judged step bits. */
  steps2: Uint8Array;
  /** Facade bits, medial mark in bit 7. */
  seg: Uint8Array;
  /** Component ids. */
  scc: Int32Array;
}

/** Where a tile comes from. */
export interface TileSource {
  /** Grid section. */
  section: BgrdSection;
  /** Zone index in the grid directory. */
  gridZone: number;
  /** Main pack label. */
  file: string;
  /** The sidecar. */
  sidecar: SidecarPack;
  /** Zone index in FZON. */
  fieldsZone: number;
  /** Zone id (FOPN zone index). */
  zoneId: number;
}

/** Decodes and merges tile `t` (a failure is `预烘格图或旁包解不开`). */
export function decodeMergedTile(src: TileSource, t: number): DecodedTile {
  let cols: SpanColumns;
  try {
    cols = decodeTileChecked(src.section, src.gridZone, t, src.file);
  } catch (e) {
    throw decodeFailure(e);
  }
  return mergeTile(src, t, cols);
}

/**
 * Merges tile `t`'s sidecar columns into its decoded records `cols` (FSPN, then FOPN after the
 * sealed clearance); `cols.clr` and `cols.flags` are written.
 */
export function mergeTile(src: TileSource, t: number, cols: SpanColumns): DecodedTile {
  try {
    const z = src.section.zones[src.gridZone];
    const f = readFieldsTile(src.sidecar, src.fieldsZone, t);
    const merged = mergeFields(cols, f, { file: src.sidecar.file, zone: z.name, tile: t });
    applyOpenCells(cols, z.tiles[t], src.sidecar.opens, src.zoneId);
    return { cols, steps2: merged.steps2, seg: merged.seg, scc: merged.scc };
  } catch (e) {
    throw decodeFailure(e);
  }
}

function decodeFailure(e: unknown): PlanFailure {
  return new PlanFailure(
    "grid_decode_failed",
    `预烘格图或旁包解不开 (${e instanceof Error ? e.message : String(e)})`,
  );
}

/** Message a worker posts back. */
type Reply = { id: number; tile?: DecodedTile; error?: string };

/** A pool of decode workers over one grid section and sidecar. */
export class TileDecodePool {
  private readonly workers: Worker[] = [];
  private next = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  /** `n` workers (1..4) over the given bytes (copied into each worker once). */
  constructor(n: number, gridBytes: Uint8Array, gridFile: string, sidecar: SidecarPack) {
    const k = Math.max(1, Math.min(kMaxDecodeWorkers, Math.floor(n)));
    for (let i = 0; i < k; i++) {
      const w = new Worker(new URL("./tile_worker.ts", import.meta.url).href, { type: "module" });
      w.onmessage = (ev: MessageEvent<Reply>) => {
        const done = this.waiting.get(ev.data.id);
        this.waiting.delete(ev.data.id);
        done?.(ev.data);
      };
      w.postMessage({
        type: "init",
        grid: gridBytes,
        gridFile,
        sidecar: sidecar.bytes,
        sidecarFile: sidecar.file,
      });
      this.workers.push(w);
    }
  }

  /** Number of workers. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Decodes `tiles` of a zone; the result is in the order of `tiles`. Work is handed out
   * largest tile first to whichever worker is free.
   */
  async decode(
    src: Omit<TileSource, "section" | "sidecar" | "file"> & { records: (t: number) => number },
    tiles: readonly number[],
  ): Promise<DecodedTile[]> {
    const order = tiles.map((_, i) => i).sort((a, b) =>
      src.records(tiles[b]) - src.records(tiles[a]) || a - b
    );
    const out: DecodedTile[] = new Array(tiles.length);
    let q = 0, failure: string | null = null;
    const run = async (w: Worker) => {
      while (q < order.length && failure === null) {
        const i = order[q++];
        const id = this.next++;
        const reply = await new Promise<Reply>((resolve) => {
          this.waiting.set(id, resolve);
          w.postMessage({
            type: "tile",
            id,
            gridZone: src.gridZone,
            fieldsZone: src.fieldsZone,
            zoneId: src.zoneId,
            tile: tiles[i],
          });
        });
        if (reply.error !== undefined) failure ??= reply.error;
        else out[i] = reply.tile!;
      }
    };
    await Promise.all(this.workers.map(run));
    if (failure !== null) throw new PlanFailure("grid_decode_failed", failure);
    return out;
  }

  /** Stops the workers. */
  close(): void {
    for (const w of this.workers) w.terminate();
    this.workers.length = 0;
    for (const f of this.waiting.values()) f({ id: 0, error: "decode pool closed" });
    this.waiting.clear();
  }
}

/** The worker side: parse once, then decode tiles on request. */
export function serveTiles(scope: {
  onmessage: ((ev: MessageEvent) => void) | null;
  postMessage(m: unknown, transfer?: Transferable[]): void;
}): void {
  let section: BgrdSection | null = null, sidecar: SidecarPack | null = null, file = "";
  scope.onmessage = (ev: MessageEvent) => {
    const m = ev.data;
    if (m.type === "init") {
      file = m.gridFile;
      section = parseBgrd(m.grid, { file });
      // The engine checked the pairing; the worker only reads the columns.
      sidecar = openSidecar(m.sidecar, null, { file: m.sidecarFile });
      return;
    }
    try {
      if (!section || !sidecar) throw new NavscopeError("bad_value", "decode worker not ready");
      const d = decodeMergedTile({
        section,
        gridZone: m.gridZone,
        file,
        sidecar,
        fieldsZone: m.fieldsZone,
        zoneId: m.zoneId,
      }, m.tile);
      const c = d.cols;
      const buffers = [c.cell, c.rid, c.h, c.clr, c.flags, c.steps, d.steps2, d.seg, d.scc]
        .map((a) => a.buffer as ArrayBuffer);
      scope.postMessage({ id: m.id, tile: d }, [...new Set(buffers)]);
    } catch (e) {
      scope.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  };
}
