/**
 * The occluder pack against the main pack (issue 27 items 8 and 15). The OCLS format has no field
 * that binds it to a main pack (no build hash, no zone ids: spec 数据包 › OccluderPack), so what
 * can be checked is checked:
 *
 * - every record decodes (`inspect` used to read only the record headers and said `ok` on a pack
 *   whose streams do not decode). An unreadable pack is allowed by the spec — ledge drops then
 *   pass (OccluderPack 读不到时,台沿下落一律放行) — but it is `invalid` and a warning, never `ok`;
 * - every record names a zone of the main pack;
 * - every scene lies where its zone is: its world-space bounding box meets the zone's world
 *   rectangle (the zone's `[0, width] × [0, height]` px through its affine, spec 台沿下落 step 4:
 *   px → world (x, z) = (sx·px + tx, sy·py + ty)) and the zone mesh's height range, each widened
 *   by a margin ({@link H_MARGIN_FRACTION}, {@link V_MARGIN_M}) since colliders may stand past the
 *   walkable edge. A scene wholly elsewhere is another world's scene under our zone's name.
 *
 * A readable pack with an unknown zone or a misplaced scene is not this pack's: the engine is
 * unusable, as for a foreign no-go table (a wrong collider set silently changes which ledge drops
 * pass). `checkOccluderPack` is shared by the engine and `inspect`, so both say the same.
 * @module
 */
import { NavscopeError } from "../../errors.ts";
import { forEachOccluderTriangle } from "../ocls/geometry.ts";
import { decodeOccluderZone, type OclsRecordSummary, summarizeOccluderPack } from "../ocls/pack.ts";
import type { OccluderScene } from "../ocls/types.ts";
import type { MainPack } from "../bnav/types.ts";
import { checkOccluderAgainstPack } from "./binding.ts";

/** Horizontal margin around a zone's world rectangle, as a fraction of its larger side. */
export const H_MARGIN_FRACTION = 0.25;
/** Vertical margin around a zone mesh's height range, m. */
export const V_MARGIN_M = 50;

/** A scene that lies wholly outside its zone. */
export interface MisplacedScene {
  /** Zone name. */
  zone: string;
  /** Why, in words (boxes in world units). */
  why: string;
}

/** What {@link checkOccluderPack} found. */
export interface OccluderPackCheckResult {
  /** `ok`; `invalid` (does not decode: drops allowed, warning); `mismatched` (not this pack's). */
  status: "ok" | "invalid" | "mismatched";
  /** The decode error, when `invalid`. */
  error: string | null;
  /** Record summaries (null when the directory does not read). */
  zones: OclsRecordSummary[] | null;
  /** Record zones the main pack does not have. */
  unknownZones: string[];
  /** Scenes lying wholly outside their zone. */
  misplaced: MisplacedScene[];
  /** The problem in words (null when ok). */
  message: string | null;
  /** False when the pack is certainly not this pack's (the engine refuses the set). */
  usable: boolean;
  /** Decoded scenes by zone (the last record of a name wins), when the pack decodes. */
  scenes: Map<string, OccluderScene>;
}

/** The main-pack facts the check needs. */
export type OccluderPackFacts = Pick<MainPack, "zones" | "vertices" | "triangles">;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Checks an occluder pack's decompressed bytes against the main pack (see the module doc). */
export function checkOccluderPack(
  bytes: Uint8Array,
  file: string,
  pack: OccluderPackFacts,
): OccluderPackCheckResult {
  const base = { unknownZones: [], misplaced: [], scenes: new Map() };
  let zones: OclsRecordSummary[];
  try {
    zones = summarizeOccluderPack(bytes, file);
  } catch (e) {
    return invalid(message(e), null);
  }
  const scenes = new Map<string, OccluderScene>();
  try {
    for (const rec of zones) {
      const s = decodeOccluderZone(
        bytes.subarray(rec.offset, rec.offset + rec.length),
        rec.name,
        { file },
        rec.offset,
      );
      scenes.set(rec.name, s);
    }
  } catch (e) {
    return invalid(message(e), zones);
  }
  const names = checkOccluderAgainstPack(zones.map((z) => z.name), pack.zones);
  const misplaced: MisplacedScene[] = [];
  for (const z of pack.zones) {
    const s = scenes.get(z.name);
    if (!s) continue;
    const why = sceneOutsideZone(s, pack, pack.zones.indexOf(z));
    if (why) misplaced.push({ zone: z.name, why });
  }
  const parts: string[] = [];
  if (names.message) parts.push(names.message);
  if (misplaced.length) {
    parts.push(
      `the occluder scene${misplaced.length > 1 ? "s" : ""} of ${
        misplaced.map((m) => `zone ${JSON.stringify(m.zone)} (${m.why})`).join("; ")
      } lie${misplaced.length > 1 ? "" : "s"} wholly outside ${
        misplaced.length > 1 ? "their zones" : "its zone"
      }: another world's occluders`,
    );
  }
  const bad = parts.length > 0;
  return {
    status: bad ? "mismatched" : "ok",
    error: null,
    zones,
    unknownZones: names.unknownZones,
    misplaced,
    message: bad ? `${parts.join("; ")} — the occluder pack is not this pack's` : null,
    usable: !bad,
    scenes,
  };

  function invalid(error: string, z: OclsRecordSummary[] | null): OccluderPackCheckResult {
    return {
      ...base,
      status: "invalid",
      error,
      zones: z,
      message: `the occluder pack does not decode (${error}); plans run without occluders ` +
        "(ledge drops allowed everywhere)",
      usable: true,
    };
  }
}

/** Why `scene` cannot be zone `zi`'s, or null when its bounding box meets the zone's. */
function sceneOutsideZone(
  scene: OccluderScene,
  pack: OccluderPackFacts,
  zi: number,
): string | null {
  const z = pack.zones[zi];
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  forEachOccluderTriangle(scene, (tri) => {
    for (let k = 0; k < 9; k++) {
      const a = k % 3;
      if (tri[k] < b[a]) b[a] = tri[k];
      if (tri[k] > b[3 + a]) b[3 + a] = tri[k];
    }
  });
  if (!(b[0] <= b[3])) return null; // no triangles: nothing to place
  const a = z.affine;
  const xs = [a.tx, a.sx * z.width + a.tx].sort((p, q) => p - q);
  const zs = [a.ty, a.sy * z.height + a.ty].sort((p, q) => p - q);
  const m = H_MARGIN_FRACTION * Math.max(xs[1] - xs[0], zs[1] - zs[0]);
  const f = (v: number) => Math.round(v * 10) / 10;
  if (b[3] < xs[0] - m || b[0] > xs[1] + m || b[5] < zs[0] - m || b[2] > zs[1] + m) {
    return `box x ${f(b[0])}..${f(b[3])}, z ${f(b[2])}..${f(b[5])} vs the zone's x ${f(xs[0])}..${
      f(xs[1])
    }, z ${f(zs[0])}..${f(zs[1])}`;
  }
  let lo = Infinity, hi = -Infinity;
  const tv = pack.triangles.vertices;
  for (let k = 3 * z.firstTriangle; k < 3 * (z.firstTriangle + z.triangleCount); k++) {
    const h = pack.vertices[3 * tv[k] + 2];
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  if (lo <= hi && (b[4] < lo - V_MARGIN_M || b[1] > hi + V_MARGIN_M)) {
    return `heights ${f(b[1])}..${f(b[4])} m vs the zone mesh's ${f(lo)}..${f(hi)} m`;
  }
  return null;
}

/** The engine's load check: throws when the pack is not this pack's; returns the check. */
export function assertOccluderPackMatches(
  bytes: Uint8Array,
  file: string,
  pack: OccluderPackFacts,
): OccluderPackCheckResult {
  const c = checkOccluderPack(bytes, file, pack);
  if (!c.usable) {
    throw new NavscopeError(
      "bad_value",
      c.message!,
      { file, section: "OCLS" },
      "this pack's occluders",
    );
  }
  return c;
}
