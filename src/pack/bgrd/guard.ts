/**
 * Id guard over decoded grid tiles (issue 8): every record's region id must lie in
 * `1..global_regions` of its zone's BGRD entry, and — with the fields sidecar — every record's
 * component id (FSPN `scc`) must lie within its region's component count (FSCC `n_scc`; 0 is
 * allowed, it marks Fill records). A tile that breaks either rule cannot have been written for
 * this zone: the classic cause is a region dictionary written as deltas where the reader expects
 * absolute ids (format-notes "v3 tile"), or a sidecar from a differently-regioned bake. The
 * reference implementation meets the second case only at planning time (`旁包分量号越界`);
 * here it is an error at load, naming file, zone, tile and record.
 *
 * `checkTileIds` is the per-tile check a planner's window build calls after decoding a tile;
 * `checkGridIds` runs it over every tile of a section (what `inspect` does at load).
 * @module
 */
import { NavscopeError } from "../../errors.ts";
import { type BgrdSection, decodeBgrdTile } from "./section.ts";
import type { ComponentGraphs, FieldsTile } from "../bnvf/types.ts";
import { allocSpanColumns, type SpanColumns } from "../grid_types.ts";

/** Components per region id of one zone (FSCC `rid → n_scc`); absent regions have none. */
export type ComponentCounts = ReadonlyMap<number, number>;

/** The component count of every region stored in a zone's FSCC. */
export function componentCounts(g: ComponentGraphs): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < g.count; i++) m.set(g.rid[i], g.nScc[i]);
  return m;
}

/** Where a tile came from and what its ids must satisfy. */
export interface TileIdContext {
  /** File label (main pack path). */
  file?: string;
  /** Zone name. */
  zone: string;
  /** Tile index in the zone's BGRD directory. */
  tile: number;
  /** The zone's BGRD `global_regions`. */
  globalRegions: number;
  /** The tile's FSPN columns (record for record with `spans`), to check component ids. */
  fields?: FieldsTile;
  /** The zone's FSCC component counts; required with `fields`. */
  components?: ComponentCounts;
  /** Sidecar file label, for component errors. */
  sidecarFile?: string;
}

/**
 * Checks the ids of one decoded tile. Throws a `bad_value` NavscopeError naming file, zone,
 * tile and the first bad record.
 */
export function checkTileIds(spans: SpanColumns, ctx: TileIdContext): void {
  const n = spans.n, rid = spans.rid, max = ctx.globalRegions;
  const where = { file: ctx.file, section: "BGRD", zone: ctx.zone, tile: ctx.tile };
  for (let r = 0; r < n; r++) {
    const id = rid[r];
    if (id < 1 || id > max) {
      throw new NavscopeError(
        "bad_value",
        `record ${r} (cell ${spans.cell[r]}) has region id ${id}, outside the zone's ` +
          `${max} regions (global_regions)`,
        where,
        `a region id in 1..${max}; a region dictionary stored as steps instead of absolute ` +
          `ids decodes to such ids`,
      );
    }
  }
  const f = ctx.fields;
  if (!f) return;
  const counts = ctx.components;
  if (!counts) {
    throw new NavscopeError("usage", "checkTileIds: `fields` given without `components`", where);
  }
  const swhere = { ...where, file: ctx.sidecarFile ?? ctx.file, section: "FSPN" };
  if (f.n !== n) {
    throw new NavscopeError(
      "count_mismatch",
      `the sidecar tile holds ${f.n} records, the grid tile ${n}`,
      swhere,
      `${n} records`,
    );
  }
  for (let r = 0; r < n; r++) {
    const s = f.scc[r];
    if (s === 0) continue;
    const k = counts.get(rid[r]) ?? 0;
    if (s < 0 || s > k) {
      throw new NavscopeError(
        "bad_value",
        `record ${r} (cell ${spans.cell[r]}, region ${rid[r]}) has component id ${s}, but ` +
          `region ${rid[r]} has ${k} components in FSCC (旁包分量号越界)`,
        swhere,
        `a component id in 0..${k}; the sidecar belongs to a differently-regioned bake or ` +
          `the grid's region ids are wrong`,
      );
    }
  }
}

/** The sidecar side of {@link checkGridIds}: per zone name, FSPN tiles and FSCC counts. */
export interface SidecarIdSource {
  /** Sidecar file label. */
  file: string;
  /** Whether the sidecar has this zone. */
  hasZone(zone: string): boolean;
  /** FSCC component counts of a zone. */
  components(zone: string): ComponentCounts;
  /** FSPN tile `tile` of a zone. */
  fields(zone: string, tile: number): FieldsTile;
}

/**
 * Decodes every tile of `section` and runs {@link checkTileIds} on it (with the sidecar's
 * columns when given). Returns the number of records checked.
 */
export function checkGridIds(
  section: BgrdSection,
  opts: { file?: string; sidecar?: SidecarIdSource } = {},
): number {
  let checked = 0;
  const into = allocSpanColumns(0);
  section.zones.forEach((z, zi) => {
    const sc = opts.sidecar?.hasZone(z.name) ? opts.sidecar : undefined;
    const components = sc?.components(z.name);
    for (let ti = 0; ti < z.tiles.length; ti++) {
      let spans: SpanColumns;
      try {
        spans = decodeBgrdTile(section, zi, ti, into);
      } catch (e) {
        throw e instanceof NavscopeError ? e.at({ file: opts.file }) : e;
      }
      checkTileIds(spans, {
        file: opts.file,
        zone: z.name,
        tile: ti,
        globalRegions: z.globalRegions,
        fields: sc?.fields(z.name, ti),
        components,
        sidecarFile: sc?.file,
      });
      checked += spans.n;
    }
  });
  return checked;
}
