/**
 * The grid section against the zone table (issue 27; spec 格图段 and 几何段 › 区表): BGRD names
 * its zones by name, and the planner looks a zone's grid up by the zone table's name. A BGRD zone
 * the zone table lacks (or a tier zone, which has no grid of its own), a zone named twice, or a
 * tile whose owned rectangle lies outside its zone's cell rectangle cannot belong to this pack:
 * the decoder and the encoder refuse them. (A zone without a grid is the planner's
 * zone_not_found at plan time, spec 前置检查.)
 * @module
 */
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { K_CS } from "../grid_types.ts";
import { type BgrdSection, parseBgrd } from "../bgrd/section.ts";
import type { ZoneRecord } from "./types.ts";

/**
 * Slack, in cells, around a zone's rectangle within which an owned rectangle may start: the
 * standard layout starts tiles at the zone origin's cell, and a tile owns 512 cells even when the
 * zone ends inside it (an owned rectangle may run past the far edge, never start beyond it).
 */
const EDGE_CELLS = 1;

/**
 * Checks the BGRD section bytes `grid` against the zone table (see the module doc). The main-pack
 * codec carries BGRD as raw bytes: with `lenient`, a grid whose directory does not parse is left
 * to whoever parses it (the engine and `inspect` report that error); one that parses must agree.
 */
export function checkGridZones(
  grid: Uint8Array,
  zones: readonly ZoneRecord[],
  where: ErrorLocation,
  lenient = false,
): void {
  let sec: BgrdSection;
  try {
    sec = parseBgrd(grid, where);
  } catch (e) {
    if (lenient && e instanceof NavscopeError) return;
    throw e;
  }
  checkParsedGridZones(sec, zones, where);
}

/** {@link checkGridZones} on an already parsed section. */
export function checkParsedGridZones(
  sec: BgrdSection,
  zones: readonly Pick<ZoneRecord, "name" | "flags" | "width" | "height">[],
  where: ErrorLocation,
): void {
  const byName = new Map(zones.map((z) => [z.name, z]));
  const seen = new Set<string>();
  const loc = { ...where, section: "BGRD" };
  for (const g of sec.zones) {
    const z = byName.get(g.name);
    if (!z || (z.flags & 1) !== 0) {
      throw new NavscopeError(
        "bad_value",
        `grid zone ${JSON.stringify(g.name)} is ${z ? "a tier zone" : "not in the zone table"}`,
        { ...loc, zone: g.name },
        `one of the non-tier zones ${
          zones.filter((x) => (x.flags & 1) === 0).map((x) => JSON.stringify(x.name)).join(", ")
        }`,
      );
    }
    if (seen.has(g.name)) {
      throw new NavscopeError("bad_value", `grid zone ${JSON.stringify(g.name)} appears twice`, {
        ...loc,
        zone: g.name,
      }, "one grid per zone");
    }
    seen.add(g.name);
    // The zone's cells: origin x0, y0 (px) and the zone table's width × height (px).
    const cx0 = Math.floor(g.x0 / K_CS) - EDGE_CELLS, cy0 = Math.floor(g.y0 / K_CS) - EDGE_CELLS;
    const cx1 = Math.ceil((g.x0 + z.width) / K_CS) + EDGE_CELLS;
    const cy1 = Math.ceil((g.y0 + z.height) / K_CS) + EDGE_CELLS;
    // Spec 格图段: the owned rectangles (disjoint, parseBgrd) together cover the whole zone.
    const zx0 = cx0 + EDGE_CELLS, zy0 = cy0 + EDGE_CELLS, zx1 = cx1 - EDGE_CELLS;
    const zy1 = cy1 - EDGE_CELLS;
    let covered = 0;
    for (const t of g.tiles) {
      const w = Math.min(t.gx0 + t.px1 + 1, zx1) - Math.max(t.gx0 + t.px0, zx0);
      const h = Math.min(t.gy0 + t.py1 + 1, zy1) - Math.max(t.gy0 + t.py0, zy0);
      if (w > 0 && h > 0) covered += w * h;
    }
    if (g.tiles.length > 0 && covered !== (zx1 - zx0) * (zy1 - zy0)) {
      throw new NavscopeError(
        "bad_value",
        `the tiles own ${covered} of the zone's ${(zx1 - zx0) * (zy1 - zy0)} cells ` +
          `(${zx0}..${zx1 - 1} × ${zy0}..${zy1 - 1})`,
        { ...loc, zone: g.name },
        "owned rectangles covering the whole zone (spec 格图段: 拼起来正好覆盖全区)",
      );
    }
    g.tiles.forEach((t, i) => {
      const ox0 = t.gx0 + t.px0, ox1 = t.gx0 + t.px1, oy0 = t.gy0 + t.py0, oy1 = t.gy0 + t.py1;
      if (ox0 < cx0 || oy0 < cy0 || ox0 > cx1 || oy0 > cy1 || ox1 < cx0 || oy1 < cy0) {
        throw new NavscopeError(
          "bad_value",
          `tile ${i} owns cells ${ox0}..${ox1} × ${oy0}..${oy1}, outside the zone's cells ` +
            `${cx0 + EDGE_CELLS}..${cx1 - EDGE_CELLS} × ${cy0 + EDGE_CELLS}..${cy1 - EDGE_CELLS}`,
          { ...loc, zone: g.name, tile: i },
          "an owned rectangle starting inside the zone (origin + width × height px)",
        );
      }
    });
  }
}
