/**
 * The zone table (spec 几何段 › 区表): uncompressed, one record per zone, a 44-byte prefix,
 * 4 more bytes of `floor_y` from v3 ({@link FLOOR_Y_SINCE}), then the unpadded UTF-8 name:
 *
 * `u16 zone_id, u16 flags, u32 name_len, u32 first_tri, u32 tri_count, u32 component_count,
 *  f32 width, f32 height, f32 sx, tx, sy, ty, [f32 floor_y], u8 name[name_len]`
 * @module
 */
import { type ByteReader, ByteWriter } from "../../codec/bytes.ts";
import { escapeControls, nameFault, PLAUSIBLE_NAME } from "../../codec/json_strict.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { AFFINE_SCALE, checkBound, HEIGHT, WORLD_COORD, ZONE_SIDE } from "../bounds.ts";
import { FLOOR_Y_SINCE, ZONE_PREFIX, ZONE_PREFIX_V1, type ZoneRecord } from "./types.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf8enc = new TextEncoder();

/** Encodes the zone table in the current (v3+) layout. */
export function encodeZoneTable(zones: readonly ZoneRecord[], where: ErrorLocation): Uint8Array {
  const w = new ByteWriter(64 * zones.length + 16);
  zones.forEach((z, i) => {
    checkZone(z, i, where);
    const name = utf8enc.encode(z.name);
    w.u16(z.id).u16(z.flags).u32(name.length).u32(z.firstTriangle).u32(z.triangleCount);
    w.u32(z.componentCount).f32(z.width).f32(z.height);
    w.f32(z.affine.sx).f32(z.affine.tx).f32(z.affine.sy).f32(z.affine.ty).f32(z.floorY);
    w.bytes(name);
  });
  return w.finish();
}

function checkZone(z: ZoneRecord, i: number, where: ErrorLocation): void {
  const bad = (what: string, expected: string) =>
    new NavscopeError(
      "bad_value",
      `zone record ${i}: ${what}`,
      { ...where, zone: z.name },
      expected,
    );
  if (!isUint(z.id, 0xffff)) throw bad(`id ${z.id}`, "a u16");
  if (!isUint(z.flags, 0xffff)) throw bad(`flags ${z.flags}`, "a u16");
  for (
    const [k, v] of [["firstTriangle", z.firstTriangle], ["triangleCount", z.triangleCount], [
      "componentCount",
      z.componentCount,
    ]] as const
  ) {
    if (!isUint(v, 0xffffffff)) throw bad(`${k} ${v}`, "a u32");
  }
}

function isUint(v: number, max: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= max;
}

/**
 * Decodes `count` zone records from `r` (positioned at the table). `version` decides whether the
 * record carries `floor_y`. Every name must be UTF-8 and a plausible zone name (`isPlausibleName`:
 * the encoder refuses the same). Returns the records and leaves `r` after the last name.
 */
export function decodeZoneRecords(r: ByteReader, count: number, version: number): ZoneRecord[] {
  const hasFloor = version >= FLOOR_Y_SINCE;
  const prefix = hasFloor ? ZONE_PREFIX : ZONE_PREFIX_V1;
  if (count * prefix > r.remaining) {
    throw r.error(
      "truncated",
      `zone table of ${count} zones needs at least ${
        count * prefix
      } bytes but ${r.remaining} remain`,
      `${count} records of ≥ ${prefix} bytes`,
    );
  }
  const zones: ZoneRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    r.need(prefix, `zone record ${i}`);
    const id = r.u16();
    const flags = r.u16();
    const nameLen = r.u32();
    const firstTriangle = r.u32();
    const triangleCount = r.u32();
    const componentCount = r.u32();
    const width = r.f32();
    const height = r.f32();
    const affine = { sx: r.f32(), tx: r.f32(), sy: r.f32(), ty: r.f32() };
    const floorY = hasFloor ? r.f32() : 0;
    const raw = r.take(nameLen, `zone record ${i} name`);
    let name: string;
    try {
      name = utf8.decode(raw);
    } catch {
      throw r.error("bad_value", `zone record ${i} name is not valid UTF-8`, "UTF-8 text", at);
    }
    // Zones are looked up by name (legs, no-go tables, the grid and occluder packs): a name no
    // baker writes (empty, control or format characters, outer white space) is damage.
    const fault = nameFault(name);
    if (fault) {
      throw r.error(
        "bad_value",
        `zone record ${i}: name "${escapeControls(name)}" is not a zone name: ${fault}`,
        PLAUSIBLE_NAME,
        at + prefix,
      );
    }
    zones.push({
      id,
      flags,
      name,
      firstTriangle,
      triangleCount,
      componentCount,
      width,
      height,
      affine,
      floorY,
    });
  }
  return zones;
}

/**
 * The plausibility bounds of a zone record (issue 55, docs/pack_validation.md): width and height
 * one cell to 1e5 px, |sx|, |sy| in [1e-3, 1e3], |tx|, |ty| ≤ 1e6, |floor_y| ≤ 1e5 m.
 */
function checkZoneBounds(z: ZoneRecord, i: number, where: ErrorLocation): void {
  const rec = `zone record ${i}`;
  checkBound(z.width, ZONE_SIDE, where, rec, "width");
  checkBound(z.height, ZONE_SIDE, where, rec, "height");
  checkBound(Math.abs(z.affine.sx), AFFINE_SCALE, where, rec, "|affine sx|");
  checkBound(Math.abs(z.affine.sy), AFFINE_SCALE, where, rec, "|affine sy|");
  checkBound(z.affine.tx, WORLD_COORD, where, rec, "affine tx");
  checkBound(z.affine.ty, WORLD_COORD, where, rec, "affine ty");
  checkBound(z.floorY, HEIGHT, where, rec, "floor_y");
}

/**
 * Checks every zone's triangle range lies inside `[0, triangles)`; the error names the zone.
 */
export function checkZoneRanges(
  zones: readonly ZoneRecord[],
  triangles: number,
  where: ErrorLocation,
): void {
  checkZoneValues(zones, where);
  for (const z of zones) {
    if (z.firstTriangle + z.triangleCount > triangles) {
      throw new NavscopeError(
        "count_mismatch",
        `zone triangles [${z.firstTriangle}, ${z.firstTriangle + z.triangleCount}) run past the ` +
          `${triangles} triangles of the pack`,
        { ...where, zone: z.name },
        `a range inside [0, ${triangles})`,
      );
    }
  }
}

/** Finds a zone by name or numeric id (a string of digits also matches an id). */
export function findZone(
  zones: readonly ZoneRecord[],
  key: string | number,
  where: ErrorLocation,
): ZoneRecord {
  const byName = typeof key === "string" ? zones.find((z) => z.name === key) : undefined;
  if (byName) return byName;
  const id = typeof key === "number" ? key : /^\d+$/.test(key) ? Number(key) : NaN;
  const byId = zones.find((z) => z.id === id);
  if (byId) return byId;
  throw new NavscopeError(
    "bad_value",
    `no zone named or numbered ${JSON.stringify(key)}`,
    { ...where, zone: key },
    `one of: ${zones.map((z) => `${z.name} (${z.id})`).slice(0, 20).join(", ")}`,
  );
}

/**
 * The zone-table values no correct writer produces (issue 27; spec 几何段 › 区表), checked by the
 * decoders and the encoder alike: width and height finite and > 0 px, the affine {sx, tx, sy, ty}
 * and floor_y finite with sx, sy ≠ 0, every name a plausible zone name (`isPlausibleName`), zone
 * names and ids unique (a zone is looked up by either), and a tier zone's parent (`component_count`) an existing zone other than itself.
 */
export function checkZoneValues(zones: readonly ZoneRecord[], where: ErrorLocation): void {
  const byId = new Map<number, ZoneRecord>();
  const names = new Set<string>();
  zones.forEach((z, i) => {
    const fault = nameFault(z.name);
    if (fault) {
      throw new NavscopeError(
        "bad_value",
        `zone record ${i}: name "${escapeControls(z.name)}" is not a zone name: ${fault}`,
        { ...where, zone: escapeControls(z.name) },
        PLAUSIBLE_NAME,
      );
    }
    const bad = (what: string, expected: string) =>
      new NavscopeError(
        "bad_value",
        `zone record ${i}: ${what}`,
        { ...where, zone: z.name },
        expected,
      );
    // Finite here; sizes > 0 and scales ≠ 0 are part of the bounds (checkZoneBounds).
    for (const [k, v] of [["width", z.width], ["height", z.height]] as const) {
      if (!Number.isFinite(v)) throw bad(`${k} ${v}`, "a finite size (px)");
    }
    const a = z.affine;
    for (const [k, v] of [["sx", a.sx], ["tx", a.tx], ["sy", a.sy], ["ty", a.ty]] as const) {
      if (!Number.isFinite(v)) throw bad(`affine ${k} ${v}`, "finite affine terms");
    }
    if (!Number.isFinite(z.floorY)) throw bad(`floor_y ${z.floorY}`, "a finite floor height");
    checkZoneBounds(z, i, { ...where, zone: z.name });
    if (names.has(z.name)) {
      throw bad(`name ${JSON.stringify(z.name)} appears twice`, "unique names");
    }
    if (byId.has(z.id)) throw bad(`id ${z.id} appears twice`, "unique zone ids");
    names.add(z.name);
    byId.set(z.id, z);
  });
  zones.forEach((z, i) => {
    if ((z.flags & 1) === 0) return;
    const parent = byId.get(z.componentCount);
    if (!parent || parent === z) {
      throw new NavscopeError(
        "bad_value",
        `zone record ${i}: tier zone's parent id ${z.componentCount} is ${
          !parent ? "not in the pack" : "itself"
        }`,
        { ...where, zone: z.name },
        "the id of another zone of the pack",
      );
    }
  });
}
