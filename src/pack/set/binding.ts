/**
 * What binds the author no-go table and the occluder pack to a main pack (issue 10). Neither
 * carries a build hash: the no-go table names zones (and gives polygons in zone px), an OCLS
 * container names one record per zone. Zone ids are not stored in either, so the zone names and,
 * for the no-go table, the zones' pixel bounds are all that can be checked:
 *
 * - a zone the main pack does not have → status `mismatched`, listing those zones;
 * - a no-go polygon whose bounding box lies wholly outside its zone's `[0, width] × [0, height]`
 *   px rectangle → `mismatched` too (it can never cover a point of the zone);
 * - a mismatched no-go table is not this pack's: the engine is unusable (spec 引擎装载 item 3 — a
 *   wrong no-go table is worse than none, the places the author closed would be open; issue 27
 *   item 15: one foreign zone next to an own zone was accepted before);
 * - an occluder pack none of whose zones is in the main pack stays a warning: the engine then
 *   runs as without one (ledge drops allowed, spec 数据包).
 *
 * `checkNoGoAgainstPack` is what a planner engine calls at load: it throws the engine-unusable error
 * (one rule, so the library, `inspect` and the engine agree); `fitNoGoToPack` gives the same findings
 * without throwing, for reports.
 * @module
 */
import { NavscopeError } from "../../errors.ts";
import { ZONE_BOX_MARGIN, zoneAxisBound } from "../bounds.ts";
import type { NoGoTable } from "../nogo/table.ts";

/** A main-pack zone as the binding checks see it: the name, and its size in px if known. */
export interface PackZoneBounds {
  /** Zone name. */
  name: string;
  /** Width, px (omit to skip the bounds check). */
  width?: number;
  /** Height, px. */
  height?: number;
}

/** A no-go polygon that lies wholly outside its zone. */
export interface NoGoOutside {
  /** Zone name. */
  zone: string;
  /** Polygon index within the zone's list. */
  polygon: number;
  /** The polygon's label ("" when none). */
  name: string;
  /** Its bounding box, px: minx, miny, maxx, maxy. */
  box: [number, number, number, number];
  /** The zone's size, px. */
  zoneSize: [number, number];
}

/** How a no-go table fits a main pack. */
export interface NoGoPackCheck {
  /** `ok`, or `mismatched` when a zone is unknown or a polygon lies outside its zone. */
  status: "ok" | "mismatched";
  /** Table zones the main pack does not have, in table order. */
  unknownZones: string[];
  /** Polygons wholly outside their zone. */
  outside: NoGoOutside[];
  /** False when the table is certainly not this pack's (engine unusable). */
  usable: boolean;
  /** The mismatch in words (null when ok). */
  message: string | null;
}

function zoneList(zones: Iterable<string | PackZoneBounds>): Map<string, PackZoneBounds> {
  const m = new Map<string, PackZoneBounds>();
  for (const z of zones) {
    const b = typeof z === "string" ? { name: z } : z;
    m.set(b.name, b);
  }
  return m;
}

function list(names: string[], max = 8): string {
  const shown = names.slice(0, max).map((n) => JSON.stringify(n)).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * How a no-go table fits the main pack's zones (names, or names with width/height in px for the
 * bounds check), without throwing: `inspect` reports it. {@link checkNoGoAgainstPack} refuses.
 */
export function fitNoGoToPack(
  table: NoGoTable,
  packZones: Iterable<string | PackZoneBounds>,
): NoGoPackCheck {
  const zones = zoneList(packZones);
  const unknownZones: string[] = [];
  const outside: NoGoOutside[] = [];
  const beyond: NoGoOutside[] = [];
  let known = 0;
  let polygons = 0;
  for (const [name, z] of table.zones) {
    const pz = zones.get(name);
    if (!pz) {
      unknownZones.push(name);
      continue;
    }
    known++;
    polygons += z.polyCount;
    const { width: w, height: h } = pz;
    if (w === undefined || h === undefined) continue;
    for (let p = 0; p < z.polyCount; p++) {
      const b = z.polyBox;
      const box: [number, number, number, number] = [
        b[4 * p],
        b[4 * p + 1],
        b[4 * p + 2],
        b[4 * p + 3],
      ];
      if (box[2] < 0 || box[3] < 0 || box[0] > w || box[1] > h) {
        outside.push({ zone: name, polygon: p, name: z.names[p], box, zoneSize: [w, h] });
      } else if (beyondZoneBox(box, w, h)) {
        beyond.push({ zone: name, polygon: p, name: z.names[p], box, zoneSize: [w, h] });
      }
    }
  }
  const foreign = table.zones.size > 0 && known === 0;
  const allOutside = polygons > 0 && outside.length === polygons;
  const parts: string[] = [];
  if (unknownZones.length) {
    parts.push(
      `names ${unknownZones.length} zone${unknownZones.length > 1 ? "s" : ""} the main pack ` +
        `does not have: ${list(unknownZones)}`,
    );
  }
  if (outside.length) {
    const o = outside.slice(0, 4).map((x) =>
      `${x.zone}[${x.polygon}]${x.name ? ` "${x.name}"` : ""} box ${x.box.join(",")} outside ` +
      `${x.zoneSize[0]}×${x.zoneSize[1]} px`
    );
    parts.push(
      `has ${outside.length} polygon${outside.length > 1 ? "s" : ""} wholly outside ` +
        `${outside.length > 1 ? "their zones" : "its zone"}: ${o.join("; ")}` +
        (outside.length > 4 ? "; …" : ""),
    );
  }
  if (beyond.length) {
    const o = beyond.slice(0, 4).map((x) => {
      const l = Math.max(x.zoneSize[0], x.zoneSize[1]);
      const bx = zoneAxisBound(x.zoneSize[0], l), by = zoneAxisBound(x.zoneSize[1], l);
      return `$.zones.${x.zone}[${x.polygon}] box ${
        x.box.join(",")
      } (bound [${bx.lo}, ${bx.hi}] × ` +
        `[${by.lo}, ${by.hi}] px)`;
    });
    parts.push(
      `has ${beyond.length} polygon${beyond.length > 1 ? "s" : ""} reaching beyond the zone ` +
        `rectangle widened by ${ZONE_BOX_MARGIN} × its larger side: ${o.join("; ")}` +
        (beyond.length > 4 ? "; …" : ""),
    );
  }
  let message = parts.length ? `the no-go table ${parts.join(", and ")}` : null;
  if (foreign) {
    message += ` — none of its zones is in the main pack (${list([...zones.keys()])}): it is ` +
      "another world's table";
  } else if (allOutside) {
    message += " — every polygon lies outside its zone: it is another world's table";
  } else if (parts.length) {
    // Issue 27 item 15: a table naming a foreign zone next to our own, or drawing where no zone
    // is, was not written for this pack (its own zones' polygons may be another world's too).
    message += " — it was not written for this pack's zones";
  }
  return {
    status: parts.length ? "mismatched" : "ok",
    unknownZones,
    outside,
    usable: parts.length === 0,
    message,
  };
}

/**
 * True when a polygon box `[minx, miny, maxx, maxy]` reaches outside the zone's px rectangle
 * widened by ZONE_BOX_MARGIN × its larger side (the position bound of src/pack/bounds.ts).
 */
function beyondZoneBox(box: readonly number[], w: number, h: number): boolean {
  const l = Math.max(w, h);
  const bx = zoneAxisBound(w, l), by = zoneAxisBound(h, l);
  return box[0] < bx.lo || box[2] > bx.hi || box[1] < by.lo || box[3] > by.hi;
}

/**
 * Checks a no-go table against the main pack's zones and throws the engine-unusable error (code
 * `bad_value`, the table's file, section "no-go table") when it is not this pack's table (see
 * {@link fitNoGoToPack}); returns the fit (status `ok`) otherwise.
 */
export function checkNoGoAgainstPack(
  table: NoGoTable,
  packZones: Iterable<string | PackZoneBounds>,
): NoGoPackCheck {
  const c = fitNoGoToPack(table, packZones);
  if (!c.usable) {
    throw new NavscopeError(
      "bad_value",
      c.message!,
      { file: table.file, section: "no-go table" },
      "a no-go table for this main pack's zones (a wrong table is worse than none)",
    );
  }
  return c;
}

/** How an occluder pack fits a main pack. */
export interface OccluderPackCheck {
  /** `ok`, or `mismatched` when a record names a zone the main pack does not have. */
  status: "ok" | "mismatched";
  /** Record zones the main pack does not have, in file order, each once. */
  unknownZones: string[];
  /** True when no record names a zone of the main pack (the engine runs as without one). */
  foreign: boolean;
  /** The mismatch in words (null when ok). */
  message: string | null;
}

/** Checks the zone names of an occluder pack's records against the main pack's zones. */
export function checkOccluderAgainstPack(
  recordZones: Iterable<string>,
  packZones: Iterable<string | PackZoneBounds>,
): OccluderPackCheck {
  const zones = zoneList(packZones);
  const names = [...new Set(recordZones)];
  const unknownZones = names.filter((n) => !zones.has(n));
  const foreign = names.length > 0 && unknownZones.length === names.length;
  let message: string | null = null;
  if (unknownZones.length) {
    message = `the occluder pack names ${unknownZones.length} zone${
      unknownZones.length > 1 ? "s" : ""
    } the main pack does not have: ${list(unknownZones)}`;
    if (foreign) {
      message += " — none of its zones is in the main pack: it is another world's occluder " +
        "pack, and ledge drops are allowed everywhere as without one";
    }
  }
  return { status: unknownZones.length ? "mismatched" : "ok", unknownZones, foreign, message };
}
