/**
 * The tiles one plan has decoded (spec 格图的内存形态: compressed bytes stay resident and a plan
 * decodes only the tiles it touches). The core-anchor gate, the two small grid patches (选类) and
 * the window (建窗 step 3) all read the tiles around the endpoints; without this each of them
 * decoded the same 641²-cell tile again, which was three quarters of the "other" time of a tier-0
 * plan on the large generated world (BENCHMARKS.md, "Fourth session").
 *
 * The cache keeps the raw records of a tile (as decoded, before FSPN and FOPN). Readers that
 * change records (FOPN for a patch, the sidecar merge for a window) work on copies of the two
 * columns they write, so every reader sees what a fresh decode would give. Only the pre-checks
 * add tiles; a window reuses them but does not add its own, so a plan holds at most the few tiles
 * around its two endpoints beyond what the window build itself holds.
 * @module
 */

import type { SpanColumns } from "../../pack/grid_types.ts";
import { decodeTileChecked } from "./grid_access.ts";
import { type DecodedTile, decodeMergedTile, mergeTile } from "./tile_decode.ts";
import type { ZoneState } from "./zone_state.ts";
import type { PlanContext } from "../context.ts";

/** Raw tiles decoded by one plan, by tile index of the zone's grid. */
export class PlanTiles {
  private readonly raw = new Map<number, SpanColumns>();

  /**
   * The tiles of `zs` (one zone per plan). With the plan's context the decodes are counted
   * (`tiles.decoded`, `tiles.records`) and those of `records` timed as sub-stage `tile_decode`.
   */
  constructor(readonly zs: ZoneState, readonly ctx: PlanContext | null = null) {}

  /** Raw records of tile `t`, decoded once for the plan. Read-only for the caller. */
  records(t: number): SpanColumns {
    let c = this.raw.get(t);
    if (!c) {
      const decode = () => decodeTileChecked(this.zs.section, this.zs.gridZone, t, this.zs.file);
      c = this.ctx ? this.ctx.sub("tile_decode", decode) : decode();
      this.countDecode(t);
      this.raw.set(t, c);
    }
    return c;
  }

  /** Counts one decode of tile `t` (also for the decode pool's tiles). */
  countDecode(t: number): void {
    if (!this.ctx) return;
    this.ctx.count("tiles.decoded", 1);
    this.ctx.count("tiles.records", this.zs.section.zones[this.zs.gridZone].tiles[t].records);
  }

  /** True when tile `t` was decoded by this plan already. */
  has(t: number): boolean {
    return this.raw.has(t);
  }

  /**
   * Tile `t` merged for a window (FSPN, then FOPN), from the plan's copy when it has one; a tile
   * the plan has not decoded is decoded here and not kept.
   */
  merged(t: number): DecodedTile {
    const c = this.raw.get(t);
    if (c) return mergeTile(this.zs, t, writableCopy(c));
    this.countDecode(t);
    return decodeMergedTile(this.zs, t);
  }
}

/** Columns sharing the read-only arrays of `c`, with private copies of those FSPN/FOPN write. */
function writableCopy(c: SpanColumns): SpanColumns {
  return { ...c, clr: c.clr.slice(), flags: c.flags.slice() };
}
