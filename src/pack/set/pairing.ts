/**
 * Sidecar pairing by file name (spec 数据包: "放在 …/navmesh/,按文件名配对"; "旁包与主包按同目录
 * 同名配对"). From the main pack `DIR/BASE.nav.gz` (or `DIR/BASE.nav`):
 *
 * | file | candidates, in order of preference | if absent |
 * |---|---|---|
 * | fields sidecar (BNVF) | `BASE.fields.nav.gz`, `BASE.fields.nav` (same compression as the main pack first) | engine unusable |
 * | occluder pack (OCLS) | `BASE.occluder.gz`, `BASE.occluder` | ledge drops allowed, zip lines unobstructed |
 * | author no-go table | `BASE.nogo.json` | no author no-go zones |
 *
 * The spec keeps the no-go table as repository config whose path the caller passes ("由调用方
 * 提供路径,与主包分开存放"); `BASE.nogo.json` beside the pack is navscope's default when no path
 * is given (a navscope naming choice, not the reference's).
 * @module
 */
import { NavscopeError } from "../../errors.ts";

/** Expected paths of every file paired with a main pack. */
export interface SidecarPaths {
  /** The main pack path as given. */
  main: string;
  /** Directory prefix including the trailing slash ("" for the current directory). */
  dir: string;
  /** File base name without extensions (`base` for `base.nav.gz`). */
  base: string;
  /** True when the main pack name ends in `.gz`. */
  gzipped: boolean;
  /** Fields sidecar candidates, preferred first. */
  fields: string[];
  /** Occluder pack candidates, preferred first. */
  occluder: string[];
  /** Default author no-go table path. */
  nogo: string;
}

/** Which paired files exist (the first existing candidate of each, or null). */
export interface SidecarStatus {
  /** Whether the main pack exists. */
  main: boolean;
  /** Existing fields sidecar, or null (engine unusable). */
  fields: string | null;
  /** Existing occluder pack, or null (drops allowed). */
  occluder: string | null;
  /** Existing no-go table, or null (no zones). */
  nogo: string | null;
}

/**
 * Splits a main pack path into its pairing names; anything not named `*.nav(.gz)` is a usage
 * error, unless `anyName` (the file is known to be a main pack by its content): then the base is
 * the name less a `.gz` and one more extension (`x.bin` → `x`, `x.bin.gz` → `x`).
 */
export function pairSidecars(mainPackPath: string, opts: { anyName?: boolean } = {}): SidecarPaths {
  const slash = mainPackPath.lastIndexOf("/");
  const dir = mainPackPath.slice(0, slash + 1);
  const name = mainPackPath.slice(slash + 1);
  let m = /^(.+)\.nav(\.gz)?$/.exec(name);
  if (!m && opts.anyName) {
    const g = /^(.+?)((?:\.[^.]*)?)(\.gz)?$/.exec(name)!;
    m = [name, g[1], g[3]] as unknown as RegExpExecArray;
  }
  if (!m) {
    throw new NavscopeError(
      "usage",
      `cannot pair sidecars: ${JSON.stringify(name)} is not a main pack name`,
      { file: mainPackPath },
      "a name ending in .nav.gz or .nav",
    );
  }
  const base = m[1];
  if (base.endsWith(".fields") && !opts.anyName) {
    throw new NavscopeError(
      "usage",
      "this is a fields sidecar, not a main pack",
      { file: mainPackPath },
      `the main pack ${base.slice(0, -".fields".length)}.nav${m[2] ?? ""}`,
    );
  }
  const gzipped = m[2] !== undefined;
  const p = dir + base;
  const fieldsGz = `${p}.fields.nav.gz`, fieldsRaw = `${p}.fields.nav`;
  return {
    main: mainPackPath,
    dir,
    base,
    gzipped,
    fields: gzipped ? [fieldsGz, fieldsRaw] : [fieldsRaw, fieldsGz],
    occluder: [`${p}.occluder.gz`, `${p}.occluder`],
    nogo: `${p}.nogo.json`,
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function firstExisting(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) if (await isFile(p)) return p;
  return null;
}

/** Reports which of the paired files exist on disk. */
export async function sidecarStatus(paths: SidecarPaths): Promise<SidecarStatus> {
  return {
    main: await isFile(paths.main),
    fields: await firstExisting(paths.fields),
    occluder: await firstExisting(paths.occluder),
    nogo: await firstExisting([paths.nogo]),
  };
}
