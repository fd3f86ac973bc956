/**
 * Named landmarks of a generated world: every feature the issue asks for (streets, slopes,
 * stairs, bridges, ledges, cracks, islands, no-go zones…) sits at known coordinates recorded
 * here, so legs, tests and pictures can refer to it by name. Coordinates are zone px and metres.
 *
 * They are recorded in the world manifest under `landmarks` (validated with the manifest); a
 * stand-alone `{"format": "navscope-landmarks", "version": 1, "landmarks": [...]}` file is also
 * read, for tools that want the list alone.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { parseJson } from "../codec/json.ts";

/** Format tag of a landmarks file. */
export const LANDMARKS_FORMAT = "navscope-landmarks";

/** A point: x px, y px, h m. */
export type Point3 = [number, number, number];

/** One landmark. */
export interface Landmark {
  /** Unique name, snake_case (e.g. `stairs_05`). */
  name: string;
  /** Feature kind (e.g. `slope`, `stairs`, `ledge`, `crack`). */
  kind: string;
  /** Zone name. */
  zone: string;
  /** Representative point. */
  at: Point3;
  /** Plan-view rectangle [x0, y0, x1, y1] px, when the feature has an extent. */
  rect?: [number, number, number, number];
  /** Further named points legs use (e.g. `top`, `bottom`, `below`). */
  points?: Record<string, Point3>;
  /** What the feature is for. */
  note: string;
}

/** Collects landmarks, refusing duplicate names. */
export class LandmarkSet {
  /** Landmarks in insertion order. */
  readonly list: Landmark[] = [];
  private readonly byName = new Map<string, Landmark>();

  /** Adds a landmark (coordinates are rounded to 1/4096 so JSON stays short). */
  add(l: Landmark): Landmark {
    if (this.byName.has(l.name)) throw new RangeError(`duplicate landmark ${l.name}`);
    const r = (p: Point3): Point3 => [rq(p[0]), rq(p[1]), rq(p[2])];
    const out: Landmark = { ...l, at: r(l.at) };
    if (l.rect) out.rect = l.rect.map(rq) as [number, number, number, number];
    if (l.points) {
      out.points = {};
      for (const k of Object.keys(l.points)) out.points[k] = r(l.points[k]);
    }
    this.list.push(out);
    this.byName.set(l.name, out);
    return out;
  }

  /** The landmark called `name` (throws when unknown: a generator bug). */
  get(name: string): Landmark {
    const l = this.byName.get(name);
    if (!l) throw new RangeError(`unknown landmark ${name}`);
    return l;
  }

  /** A named point of a landmark (`at` when `point` is omitted). */
  point(name: string, point?: string): Point3 {
    const l = this.get(name);
    if (point === undefined) return l.at;
    const p = l.points?.[point];
    if (!p) throw new RangeError(`landmark ${name} has no point ${point}`);
    return p;
  }
}

function rq(v: number): number {
  const r = Math.round(v * 4096) / 4096;
  return r === 0 ? 0 : r;
}

/** Stable JSON text of a landmarks file. */
export function encodeLandmarks(list: readonly Landmark[]): string {
  return JSON.stringify({ format: LANDMARKS_FORMAT, version: 1, landmarks: list }, null, 1) +
    "\n";
}

/**
 * Validates a landmark list (the manifest's `landmarks` key, or a landmarks file's); `path` is
 * the JSON path of the list, named in errors.
 */
export function validateLandmarks(list: unknown, file: string, path = "$.landmarks"): Landmark[] {
  if (!Array.isArray(list)) {
    throw new NavscopeError("bad_value", `${path} is not an array`, { file }, "an array");
  }
  list.forEach((l, i) => {
    const ok = typeof l === "object" && l !== null && typeof l.name === "string" &&
      typeof l.zone === "string" && Array.isArray(l.at) && l.at.length === 3 &&
      l.at.every((v: unknown) => typeof v === "number" && Number.isFinite(v));
    if (!ok) {
      throw new NavscopeError(
        "bad_value",
        `${path}[${i}] is malformed`,
        { file },
        "{name, kind, zone, at: [x, y, h], …}",
      );
    }
  });
  return list as Landmark[];
}

/**
 * Parses the landmarks of a world manifest (`navscope-world`, key `landmarks`) or of a
 * stand-alone landmarks file (`navscope-landmarks`); `file` names it in errors.
 */
export function parseLandmarks(text: string, file: string): Landmark[] {
  const j = parseJson(text, { file });
  const o = j as { format?: unknown; landmarks?: unknown };
  if (typeof j !== "object" || j === null) {
    throw new NavscopeError("bad_value", "not a JSON object", { file }, "a manifest");
  }
  if (o.format === "navscope-world") {
    return o.landmarks === undefined ? [] : validateLandmarks(o.landmarks, file);
  }
  if (o.format !== LANDMARKS_FORMAT) {
    throw new NavscopeError(
      "bad_value",
      "not a world manifest or landmarks file",
      { file },
      `format "navscope-world" or "${LANDMARKS_FORMAT}"`,
    );
  }
  return validateLandmarks(o.landmarks, file);
}
